/* A bench's knobs: saved, set before each run, written back, and the ones
 * a dead bench left changed (see bench_knob.h). SQL with bound parameters
 * only. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "collect/bench/bench_knob.h"
#include "collect/bench/knob.h"
#include "lib/alloc.h"
#include "schema/db.h"

/* iso_now(buf, len): the UTC time in ISO 8601. */
static const char *iso_now(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
	return buf;
}

/* bench_knobs_check: see bench_knob.h. */
int bench_knobs_check(const struct bench_plan *p, char *err, size_t errlen)
{
	char real[PATH_MAX], other[PATH_MAX];
	for (size_t i = 0; i < p->nsets; i++) {
		if (knob_check(p->sets[i].path, real, sizeof(real), err, errlen))
			return -1;
		for (size_t k = 0; k < i; k++)
			if (!knob_check(p->sets[k].path, other, sizeof(other), err, errlen) &&
			    !strcmp(real, other)) {
				snprintf(err, errlen, "--set %s and --set %s are one file (%s)", p->sets[k].path,
					 p->sets[i].path, real);
				return -1;
			}
	}
	return 0;
}

/* machine_id(buf, len): /etc/machine-id, else the hostname. */
static const char *machine_id(char *buf, size_t len)
{
	FILE *f = fopen("/etc/machine-id", "r");
	bool got = f && fgets(buf, (int)len, f);
	if (f)
		fclose(f);
	if (got)
		buf[strcspn(buf, "\n")] = 0;
	if ((!got || !*buf) && gethostname(buf, len))
		snprintf(buf, len, "unknown");
	buf[len - 1] = 0;
	return buf;
}

/* alive(pid, boot, this_boot): whether the bench pid of boot still runs:
 * this boot, and pid a perfdb (not this one) that is not a zombie. */
static bool alive(int64_t pid, const char *boot, const char *this_boot)
{
	char path[64], buf[512], *l, *r;
	FILE *f;
	size_t n;
	if (strcmp(boot, this_boot) || pid <= 0 || pid > INT_MAX || pid == (int64_t)getpid())
		return false;
	snprintf(path, sizeof(path), "/proc/%lld/stat", (long long)pid);
	if (!(f = fopen(path, "r")))
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	l = strchr(buf, '(');
	r = strrchr(buf, ')');
	if (!l || !r || r < l || r[1] != ' ')
		return false;
	return !strncmp(l + 1, "perfdb", 6) && r[2] != 'Z' && r[2] != 'X';
}

/* dup_col(st, i): column i as a malloc'ed string ("" for NULL). */
static char *dup_col(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);
	return xstrdup(s ? (const char *)s : "");
}

/* bench_knobs_left: see bench_knob.h. */
struct knob_left *bench_knobs_left(sqlite3 *db, const char *boot_id, size_t *n)
{
	struct knob_left *v = NULL;
	size_t cap = 0;
	sqlite3_stmt *st;
	*n = 0;
	if (!db_has_table(db, "bench_knob"))
		return NULL;
	char here[256];
	machine_id(here, sizeof(here));
	st = db_prepare(db, "SELECT k.rowid, k.path, k.original, b.label, k.saved_at, k.boot_id, k.pid, "
			"k.machine = ? FROM bench_knob k LEFT JOIN bench b ON b.id = k.bench_id "
			"WHERE k.restored_at IS NULL ORDER BY k.rowid");
	sqlite3_bind_text(st, 1, here, -1, SQLITE_STATIC);
	while (st && sqlite3_step(st) == SQLITE_ROW) {
		ALLOC_GROW(v, *n + 1, cap);
		struct knob_left *k = &v[(*n)++];
		k->row = sqlite3_column_int64(st, 0);
		k->path = dup_col(st, 1);
		k->original = dup_col(st, 2);
		k->label = dup_col(st, 3);
		k->saved_at = dup_col(st, 4);
		k->boot_id = dup_col(st, 5);
		k->pid = sqlite3_column_int64(st, 6);
		k->here = sqlite3_column_int(st, 7) == 1;
		k->alive = k->here && alive(k->pid, k->boot_id, boot_id);
	}
	sqlite3_finalize(st);
	return v;
}

/* bench_knobs_left_free: see bench_knob.h. */
void bench_knobs_left_free(struct knob_left *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].path);
		free(v[i].original);
		free(v[i].label);
		free(v[i].saved_at);
		free(v[i].boot_id);
	}
	free(v);
}

/* mark_restored(db, row, err, errlen): bench_knob row written back now. */
static int mark_restored(sqlite3 *db, int64_t row, char *err, size_t errlen)
{
	sqlite3_stmt *st = db_prepare(db, "UPDATE bench_knob SET restored_at = ? WHERE rowid = ?");
	char when[32];
	int rc;
	sqlite3_bind_text(st, 1, iso_now(when, sizeof(when)), -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 2, row);
	rc = st ? db_step_done(st, err, errlen) : -1;
	sqlite3_finalize(st);
	return rc;
}

/* bench_knobs_recover: see bench_knob.h. */
void bench_knobs_recover(sqlite3 *db, const char *boot_id)
{
	size_t n;
	struct knob_left *v = bench_knobs_left(db, boot_id, &n);
	char err[PATH_MAX + 512];
	for (size_t i = 0; i < n; i++) {
		struct knob_left *k = &v[i];
		if (k->alive || !k->here)
			continue;
		if (knob_set(k->path, k->original, err, sizeof(err)) || mark_restored(db, k->row, err, sizeof(err)))
			fprintf(stderr, "perfdb bench: %s, which bench '%s' (pid %lld) changed and did not "
				"write back: %s\n", k->path, k->label, (long long)k->pid, err);
		else
			fprintf(stderr, "perfdb bench: wrote '%s' back to %s, which bench '%s' (pid %lld) "
				"changed at %s and did not write back\n", k->original, k->path, k->label,
				(long long)k->pid, k->saved_at);
	}
	bench_knobs_left_free(v, n);
}

/* bench_knobs_init: see bench_knob.h. */
int bench_knobs_init(struct bench_knobs *k, sqlite3 *db, const char *boot_id, const struct bench_plan *p,
		     char *err, size_t errlen)
{
	size_t nleft;
	struct knob_left *v;
	int rc = 0;
	memset(k, 0, sizeof(*k));
	k->boot_id = boot_id;
	if (!p->nsets)
		return 0;
	k->n = p->nsets;
	k->paths = xcalloc(k->n, sizeof(char *));
	k->values = xcalloc(k->n, sizeof(char *));
	k->originals = xcalloc(k->n, sizeof(char *));
	k->rows = xcalloc(k->n, sizeof(int64_t));
	for (size_t i = 0; i < k->n; i++) {
		char real[PATH_MAX];
		k->paths[i] = xstrdup(realpath(p->sets[i].path, real) ? real : p->sets[i].path);
	}
	v = bench_knobs_left(db, boot_id, &nleft);
	for (size_t i = 0; i < nleft && !rc; i++)
		for (size_t j = 0; j < k->n && !rc; j++)
			if (v[i].alive && !strcmp(v[i].path, k->paths[j])) {
				snprintf(err, errlen, "--set %s: bench '%s' (pid %lld) is setting it now; "
					 "wait for it to end", p->sets[j].path, v[i].label, (long long)v[i].pid);
				rc = -1;
			}
	bench_knobs_left_free(v, nleft);
	return rc;
}

/* save(k, i, db, bench_id, why, len): the original of knob i, in a
 * bench_knob row of its own. 0 or -1. */
static int save(struct bench_knobs *k, size_t i, sqlite3 *db, int64_t bench_id, char *why, size_t len)
{
	sqlite3_stmt *st;
	char content[4096], value[4096], when[32];
	int rc;
	if (knob_read(k->paths[i], content, sizeof(content), why, len))
		return -1;
	knob_value(content, value, sizeof(value));
	char here[256];
	st = db_prepare(db, "INSERT INTO bench_knob (bench_id, path, original, saved_at, pid, boot_id, "
			"machine) VALUES (?, ?, ?, ?, ?, ?, ?)");
	sqlite3_bind_int64(st, 1, bench_id);
	sqlite3_bind_text(st, 2, k->paths[i], -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, value, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, iso_now(when, sizeof(when)), -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 5, (int64_t)getpid());
	sqlite3_bind_text(st, 6, k->boot_id, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 7, machine_id(here, sizeof(here)), -1, SQLITE_STATIC);
	rc = st ? db_step_done(st, why, len) : -1;
	sqlite3_finalize(st);
	if (rc)
		return -1;
	k->rows[i] = sqlite3_last_insert_rowid(db);
	k->originals[i] = xstrdup(value);
	return 0;
}

/* bench_knobs_set: see bench_knob.h. */
int bench_knobs_set(struct bench_knobs *k, sqlite3 *db, int64_t bench_id, const struct bench_plan *p,
		    size_t cell, char *why, size_t len)
{
	int rc = 0;
	for (size_t i = 0; i < k->n; i++) {
		free(k->values[i]);
		k->values[i] = bench_set_value(p, cell, i);
	}
	for (size_t i = 0; i < k->n && !rc; i++) {
		if (!k->rows[i] && save(k, i, db, bench_id, why, len))
			rc = -1;
		else
			rc = knob_set(k->paths[i], k->values[i], why, len);
	}
	return rc;
}

/* bench_knobs_restore: see bench_knob.h. */
int bench_knobs_restore(struct bench_knobs *k, sqlite3 *db)
{
	char err[PATH_MAX + 512];
	int rc = 0;
	for (size_t i = k->n; i-- > 0;) {
		if (!k->rows[i])
			continue;
		if (knob_set(k->paths[i], k->originals[i], err, sizeof(err)) ||
		    mark_restored(db, k->rows[i], err, sizeof(err))) {
			fprintf(stderr, "perfdb bench: %s not written back: %s\n", k->paths[i], err);
			rc = -1;
		}
		k->rows[i] = 0;
	}
	return rc;
}

/* bench_knobs_free: see bench_knob.h. */
void bench_knobs_free(struct bench_knobs *k)
{
	for (size_t i = 0; i < k->n; i++) {
		free(k->paths[i]);
		free(k->values[i]);
		free(k->originals[i]);
	}
	free(k->paths);
	free(k->values);
	free(k->originals);
	free(k->rows);
	memset(k, 0, sizeof(*k));
}
