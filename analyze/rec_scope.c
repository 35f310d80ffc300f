/* The CPUs and tasks a recording covered, from its perf command line: see
 * rec_scope.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analyze/rec_scope.h"
#include "lib/alloc.h"
#include "lib/cpulist.h"
#include "schema/db.h"

/* The short options whose value may be the next word (perf record -h,
 * perf c2c record -h, perf mem record -h: those with a mandatory
 * <argument>); in perf record alone -p, -t and -u name the tasks to
 * record (in c2c record -u is --all-user, in mem record -p --phys-data
 * and -t the memory operations). */
struct dialect {
	const char *args;
	bool targets;
};
static const struct dialect plain = { "cCDeFGjkmoprtu", true }, c2c = { "cCDeFGjklmor", false },
	mem = { "cCDeFGjkmort", false };
static const char *const long_args[] = { "count", "cpu", "delay", "event", "freq", "cgroup",
	"branch-filter", "clockid", "mmap-pages", "output", "pid", "realtime", "tid", "uid",
	"affinity", "call-graph", "clang-opt", "clang-path", "control", "filter", "max-size",
	"mmap-flush", "num-thread-synthesize", "proc-map-timeout", "switch-max-files",
	"switch-output-event", "synth", "vmlinux", NULL };

/* What the options say, as they are read. */
struct opts {
	bool all, tasks, workload;
	const char *cpus;
};

/* long_opt(w, next, o): a --NAME[=V] word, w past the dashes (next: the
 * word after it); the words it takes (1 or 2). */
static int long_opt(const char *w, const char *next, struct opts *o)
{
	size_t n = strcspn(w, "=");
	const char *v = w[n] ? w + n + 1 : next;
	bool takes = false;
	for (int i = 0; long_args[i]; i++)
		takes |= strlen(long_args[i]) == n && !strncmp(w, long_args[i], n);
	if (n == 8 && !strncmp(w, "all-cpus", 8))
		o->all = true;
	if (takes && n == 3 && !strncmp(w, "cpu", 3))
		o->cpus = v;
	if (takes && n == 3 && (!strncmp(w, "pid", 3) || !strncmp(w, "tid", 3) || !strncmp(w, "uid", 3)))
		o->tasks = true;
	return takes && !w[n] ? 2 : 1;
}

/* short_opts(w, next, d, o): a -abc word, w past the dash, in dialect
 * d; the words it takes. */
static int short_opts(const char *w, const char *next, const struct dialect *d, struct opts *o)
{
	for (const char *c = w; *c; c++) {
		if (*c == 'a')
			o->all = true;
		if (!strchr(d->args, *c))
			continue;
		if (*c == 'C')
			o->cpus = c[1] ? c + 1 : next;
		if (d->targets && strchr("ptu", *c))
			o->tasks = true;
		return c[1] ? 1 : 2;
	}
	return 1;
}

/* read_opts(w, n, d, o): the options of words w[0..n) up to the
 * workload, in dialect d. */
static void read_opts(char **w, int n, const struct dialect *d, struct opts *o)
{
	for (int i = 0; i < n;) {
		const char *next = i + 1 < n ? w[i + 1] : NULL;
		if (!strcmp(w[i], "--") || w[i][0] != '-') {
			o->workload = !strcmp(w[i], "--") ? i + 1 < n : true;
			return;
		}
		i += w[i][1] == '-' ? long_opt(w[i] + 2, next, o) : short_opts(w[i] + 1, next, d, o);
	}
}

/* dialect_of(sub): the options of perf SUB record ("": perf record);
 * NULL for the commands that record every CPU by themselves. */
static const struct dialect *dialect_of(const char *sub)
{
	return !*sub ? &plain : !strcmp(sub, "c2c") ? &c2c : !strcmp(sub, "mem") ? &mem : NULL;
}

/* rec_scope_parse: see rec_scope.h. */
void rec_scope_parse(const char *cmdline, struct rec_scope *s)
{
	char *line = xstrdup(cmdline ? cmdline : ""), **w = NULL, *save = NULL;
	int n = 0, rec = -1;
	size_t cap = 0;
	memset(s, 0, sizeof(*s));
	for (char *t = strtok_r(line, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
		ALLOC_GROW(w, (size_t)n + 1, cap);
		w[n++] = t;
	}
	for (int i = 1; i < n && i <= 2 && rec < 0; i++)
		if (!strcmp(w[i], "record"))
			rec = i;
	if (rec > 0) {
		const struct dialect *d = dialect_of(rec == 2 ? w[1] : "");
		struct opts o = { 0 };
		read_opts(w + rec + 1, n - rec - 1, d ? d : &plain, &o);
		if (o.cpus && cpulist_has(o.cpus, 0) >= 0 && strlen(o.cpus) < sizeof(s->cpus)) {
			s->kind = SCOPE_CPUS;
			snprintf(s->cpus, sizeof(s->cpus), "%s", o.cpus);
		} else if (!o.cpus) {
			bool per_task = d && (o.tasks || o.workload);
			s->kind = o.all || !per_task ? SCOPE_ALL : SCOPE_TASKS;
		}
	}
	free(w);
	free(line);
}

/* rec_scope_of: see rec_scope.h. */
void rec_scope_of(sqlite3 *db, int64_t id, struct rec_scope *s)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT perf_cmdline FROM session WHERE id = ?");
	const char *line = NULL;
	if (st) {
		sqlite3_bind_int64(st, 1, id);
		if (sqlite3_step(st) == SQLITE_ROW)
			line = (const char *)sqlite3_column_text(st, 0);
	}
	rec_scope_parse(line, s);
	if (!line)
		s->kind = SCOPE_UNKNOWN;
	sqlite3_finalize(st);
}

/* rec_scope_cpu: see rec_scope.h. */
bool rec_scope_cpu(const struct rec_scope *s, int cpu)
{
	return s->kind != SCOPE_CPUS || cpulist_has(s->cpus, cpu) == 1;
}
