/* Address -> symbol resolution during an import: see resolve.h. Maps are
 * kept per process row as sorted, non-overlapping ranges; dsos hold their
 * ELF symbols once loaded; a cache maps (process, ip) to the symbol row. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lib/alloc.h"
#include "lib/prog.h"
#include "schema/batch.h"
#include "collect/symbols/buildid_cache.h"
#include "collect/symbols/demangle.h"
#include "schema/db.h"
#include "collect/symbols/dso_load.h"
#include "collect/symbols/kallsyms_job.h"
#include "lib/hashmap.h"
#include "lib/kallsyms.h"
#include "collect/symbols/maps.h"
#include "lib/openreg.h"
#include "collect/symbols/resolve.h"
#include "collect/symbols/zstd_job.h"
#include "collect/symbols/unwind.h"

struct resolver {
	sqlite3 *db;
	int64_t session;
	const char *kallsyms_path;
	struct dso *dsos;
	size_t ndsos, cdsos;
	struct hashmap dso_by_path;	/* (hash, 0) -> index chain head */
	struct maps *maps;
	size_t nmaps, cmaps;
	struct hashmap maps_by_proc;	/* proc row -> index into maps */
	struct hashmap sym_rows;	/* (dso index + 1, sym start) -> row */
	struct hashmap ip_cache;	/* (proc or 0, ip) -> symbol row */
	struct hashmap bid_by_path;	/* (name hash, k) -> BUILD_ID entry */
	bool bid_indexed;
	struct symtab *ksyms;
	int ktried;
	char *ktext;			/* the kallsyms text loaded */
	size_t ktext_len;
	char *ksource;			/* where ktext came from */
	struct zstd_job *kz;		/* ktext being compressed for the session */
	struct kallsyms_job *kjob;	/* a kallsyms file loading for the first kernel address */
	uint64_t kernel_text;		/* from the kernel MMAP's pgoff */
	int64_t none_unknown;		/* '[unknown]' with no dso */
	uint64_t unresolved;
	int64_t next_dso, next_sym;
	struct batch *syms, *maps_b;
};

static const char *const sym_cols[] = { "id", "dso_id", "name", "start", "size" };
static const char *const map_cols[] = { "session_id", "process_id", "time", "start",
	"len", "pgoff", "prot", "flags", "dso_id" };

struct resolver *resolver_new(sqlite3 *db, int64_t session, const char *kallsyms,
			      struct sqlq *q)
{
	struct resolver *res = xcalloc(1, sizeof(*res));
	res->db = db;
	res->session = session;
	res->kallsyms_path = kallsyms;
	res->next_dso = db_next_id(db, "dso");
	res->next_sym = db_next_id(db, "symbol");
	res->syms = batch_new(db, q, "symbol", sym_cols, 5);
	res->maps_b = batch_new(db, q, "mmap", map_cols, 9);
	if (!res->syms || !res->maps_b) {
		resolver_free(res);
		return NULL;
	}
	return res;
}

/* drop_kallsyms: forgets the kallsyms loaded (its compression first:
 * it reads the text). */
static void drop_kallsyms(struct resolver *res)
{
	struct kallsyms_load l = { res->ktext, res->ktext_len, res->ksyms, res->kz };
	kallsyms_load_free(&l);
	res->ksyms = NULL;
	res->ktext = NULL;
	res->kz = NULL;
	free(res->ksource);
	res->ksource = NULL;
}

void resolver_free(struct resolver *res)
{
	if (!res)
		return;
	for (size_t i = 0; i < res->ndsos; i++)
		dso_free(&res->dsos[i]);
	free(res->dsos);
	for (size_t i = 0; i < res->nmaps; i++)
		maps_free(&res->maps[i]);
	free(res->maps);
	hm_free(&res->dso_by_path);
	hm_free(&res->maps_by_proc);
	hm_free(&res->sym_rows);
	hm_free(&res->ip_cache);
	hm_free(&res->bid_by_path);
	if (res->kjob) {	/* loaded for nothing: no kernel address came */
		struct kallsyms_load l = kallsyms_job_finish(res->kjob);
		kallsyms_load_free(&l);
	}
	drop_kallsyms(res);	/* an import that failed waits for its compression */
	batch_free(res->syms);
	batch_free(res->maps_b);
	free(res);
}

/* str_hash: FNV-1a of a path. */
static uint64_t str_hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;
	while (*s)
		h = (h ^ (uint8_t)*s++) * 1099511628211ULL;
	return h;
}

/* dso_get: the index of the dso for path, created if new. */
static long dso_get(struct resolver *res, const char *path, int kernel)
{
	uint64_t h = str_hash(path), idx, k;
	struct dso *d;
	for (k = 0; hm_get(&res->dso_by_path, h, k, &idx); k++)
		if (!strcmp(res->dsos[idx].path, path))
			return (long)idx;
	ALLOC_GROW(res->dsos, res->ndsos + 1, res->cdsos);
	d = &res->dsos[res->ndsos];
	memset(d, 0, sizeof(*d));
	d->path = xstrdup(path);
	d->kernel = kernel;
	d->row = res->next_dso++;
	hm_put(&res->dso_by_path, h, k, res->ndsos);	/* k: the first free slot */
	return (long)res->ndsos++;
}

/* sym_row: the symbol row for (dso index or -1, start, name), inserted if
 * new, with the name demangled as perf prints it. */
static int64_t sym_row(struct resolver *res, long dso, uint64_t start,
		       uint64_t size, const char *name)
{
	uint64_t row;
	char *plain;
	if (hm_get(&res->sym_rows, (uint64_t)(dso + 1), start, &row))
		return (int64_t)row;
	row = (uint64_t)res->next_sym++;
	batch_int(res->syms, 0, (int64_t)row);
	if (dso >= 0)
		batch_int(res->syms, 1, res->dsos[dso].row);
	plain = sym_demangle(name);	/* C++/Rust names as perf prints them */
	batch_text(res->syms, 2, plain ? plain : name);
	free(plain);
	if (start != UINT64_MAX) {	/* '[unknown]' has no address */
		batch_int(res->syms, 3, (int64_t)start);
		batch_int(res->syms, 4, (int64_t)size);
	}
	if (batch_row(res->syms))
		return -1;
	hm_put(&res->sym_rows, (uint64_t)(dso + 1), start, row);
	return (int64_t)row;
}

/* unknown_row: the '[unknown]' symbol of dso (or of no dso when -1). The
 * key uses start UINT64_MAX, which no real symbol has. */
static int64_t unknown_row(struct resolver *res, long dso)
{
	res->unresolved++;
	return sym_row(res, dso, UINT64_MAX, 0, "[unknown]");
}

/* maps_of: the map list of process row proc (created empty if new). */
static struct maps *maps_of(struct resolver *res, int64_t proc)
{
	uint64_t idx;
	if (hm_get(&res->maps_by_proc, (uint64_t)proc, 0, &idx))
		return &res->maps[idx];
	ALLOC_GROW(res->maps, res->nmaps + 1, res->cmaps);
	memset(&res->maps[res->nmaps], 0, sizeof(struct maps));
	hm_put(&res->maps_by_proc, (uint64_t)proc, 0, res->nmaps);
	return &res->maps[res->nmaps++];
}

/* record_map: stores the mmap row for the session (for SQL users). */
static int record_map(struct resolver *res, int64_t proc, const struct pd_event *ev,
		      long dso)
{
	struct batch *b = res->maps_b;
	batch_int(b, 0, res->session);
	if (proc > 0)
		batch_int(b, 1, proc);
	if (ev->sample.has_time && ev->sample.time)
		batch_int(b, 2, (int64_t)ev->sample.time);
	batch_int(b, 3, (int64_t)ev->sb.addr);
	batch_int(b, 4, (int64_t)ev->sb.len);
	batch_int(b, 5, (int64_t)ev->sb.pgoff);
	batch_int(b, 6, ev->sb.prot);
	batch_int(b, 7, ev->sb.mflags);
	batch_int(b, 8, res->dsos[dso].row);
	return batch_row(b);
}

int resolver_mmap(struct resolver *res, const struct pd_reader *r, int64_t proc,
		  const struct pd_event *ev)
{
	const char *path = ev->sb.str ? ev->sb.str : "[unknown]";
	bool kernel = ev->sb.pid == UINT32_MAX;
	struct maps *ms;
	long dso;
	(void)r;
	if (kernel) {
		if (!strncmp(path, "[kernel.kallsyms]", 17) && !res->kernel_text)
			res->kernel_text = ev->sb.pgoff;
		dso = dso_get(res, !strncmp(path, "[kernel.kallsyms]", 17) ?
			      "[kernel.kallsyms]" : path, 1);
		return record_map(res, 0, ev, dso);
	}
	dso = dso_get(res, path, 0);
	ms = maps_of(res, proc);
	if (ev->type == PD_MMAP2 && ev->sb.build_id_size && !res->dsos[dso].build_id_size) {
		memcpy(res->dsos[dso].build_id, ev->sb.build_id, 20);
		res->dsos[dso].build_id_size = ev->sb.build_id_size;
	}
	maps_insert(ms, (struct map){ ev->sb.addr, ev->sb.addr + ev->sb.len,
				      ev->sb.pgoff, (size_t)dso });
	return record_map(res, proc, ev, dso);
}

void resolver_fork(struct resolver *res, int64_t child, int64_t parent)
{
	struct maps *p, *c;
	uint64_t idx;
	if (!hm_get(&res->maps_by_proc, (uint64_t)parent, 0, &idx))
		return;
	c = maps_of(res, child);
	p = &res->maps[idx];	/* maps_of may have moved the array */
	maps_copy(c, p);
}

/* try_kallsyms: loads the kallsyms text at path (what the job started for
 * it loaded, if it was); with check_base, only when its kernel base is
 * the recording's (the kernel MMAP's, when the file has one: KASLR moves
 * it every boot); user_named: --kallsyms FILE, which may be a pipe. False
 * when unusable. */
static bool try_kallsyms(struct resolver *res, const char *path, bool check_base,
			 bool user_named)
{
	struct kallsyms_load l;
	if (res->kjob && !strcmp(kallsyms_job_path(res->kjob), path)) {
		l = kallsyms_job_finish(res->kjob);
		res->kjob = NULL;
	} else {
		l = kallsyms_load_path(path, user_named);
	}
	res->ktext = l.text;
	res->ktext_len = l.len;
	res->ksyms = l.syms;
	res->kz = l.z;
	if (l.syms && !(check_base && res->kernel_text &&
			kallsyms_text_base(res->ksyms) != res->kernel_text)) {
		res->ksource = xstrdup(path);
		return true;
	}
	drop_kallsyms(res);
	return false;
}

/* kernel_build_id: the build id the recording gives the host kernel. */
static const char *kernel_build_id(const struct pd_reader *r)
{
	for (uint32_t i = 0; i < r->features.nr_build_ids; i++)
		if (r->features.build_ids[i].filename && r->features.build_ids[i].size &&
		    !strcmp(r->features.build_ids[i].filename, "[kernel.kallsyms]"))
			return r->features.build_ids[i].hex;
	return NULL;
}

/* written_this_boot: whether path was last written since this boot. */
static bool written_this_boot(const char *path)
{
	FILE *f = fopen("/proc/stat", "r");
	char line[256];
	long long btime = -1;
	struct stat st;
	while (f && btime < 0 && fgets(line, sizeof(line), f))
		if (sscanf(line, "btime %lld", &btime) != 1)
			btime = -1;
	if (f)
		fclose(f);
	return btime >= 0 && !stat(path, &st) && (long long)st.st_mtime >= btime;
}

/* modules_still_there: whether the kallsyms loaded (a saved copy) has
 * every module loaded now, at its address (true without /proc/modules:
 * a kernel without modules). */
static bool modules_still_there(const struct resolver *res)
{
	size_t len;
	char *text = read_text_file("/proc/modules", &len, false);
	bool yes = !text || kallsyms_has_modules(res->ksyms, text, len);
	free(text);
	return yes;
}

/* cached_kallsyms: the kallsyms perf record kept in its build-id cache for
 * the recording's kernel, into path: false when there is none (or, for a
 * recording of this machine, it was written before this boot). */
static bool cached_kallsyms(const struct pd_reader *r, bool here, char *path, size_t len)
{
	return buildid_cache_file(kernel_build_id(r), "kallsyms", path, len) &&
	       (!here || written_this_boot(path));
}

/* find_kernel_symbols: loads the kallsyms given; else the copy perf record
 * kept in its build-id cache for the recording's kernel (on this machine
 * only when written since this boot and listing the modules loaded now);
 * else /proc/kallsyms when the recording was made on this kernel (same
 * release). Either of the last two only with the recording's KASLR base.
 * Leaves res->ksyms NULL when none fits. The cache is also the quicker
 * read: a file, where the kernel takes ~40 ms to print /proc/kallsyms. */
static void find_kernel_symbols(struct resolver *res, const struct pd_reader *r)
{
	char cached[4096];
	bool here = recorded_here(r);
	if (res->kallsyms_path) {
		if (!try_kallsyms(res, res->kallsyms_path, false, true))
			eprintf("warning: %s: no usable kernel symbols\n",
				res->kallsyms_path);
		return;
	}
	if (cached_kallsyms(r, here, cached, sizeof(cached)) && try_kallsyms(res, cached, true, false)) {
		if (!here || modules_still_there(res))
			return;
		drop_kallsyms(res);
	}
	if (here)
		try_kallsyms(res, "/proc/kallsyms", true, false);
}

/* wants_kernel: whether any event of the recording samples the kernel. */
static bool wants_kernel(const struct pd_reader *r)
{
	for (size_t i = 0; i < r->nr_evsels; i++)
		if (!(r->evsels[i]->flags & PD_ATTR_EXCLUDE_KERNEL))
			return true;
	return false;
}

void resolver_prefetch_kallsyms(struct resolver *res, const struct pd_reader *r)
{
	char cached[4096];
	struct stat st;
	bool here;
	if (res->kjob || res->ktried || !wants_kernel(r))
		return;
	if (res->kallsyms_path) {	/* not a pipe: a failed import would wait for its end */
		if (!stat(res->kallsyms_path, &st) && S_ISREG(st.st_mode))
			res->kjob = kallsyms_job_start(res->kallsyms_path, true);
		return;
	}
	here = recorded_here(r);
	if (cached_kallsyms(r, here, cached, sizeof(cached)))
		res->kjob = kallsyms_job_start(cached, false);
	else if (here)
		res->kjob = kallsyms_job_start("/proc/kallsyms", false);
}

/* load_kernel_symbols: find_kernel_symbols, once; the text found is
 * being compressed for the session since it was read (store_kallsyms
 * takes it at the end): it is done while the records are read. */
static void load_kernel_symbols(struct resolver *res, const struct pd_reader *r)
{
	res->ktried = 1;
	find_kernel_symbols(res, r);
}

/* bid_find: the index of the recording's BUILD_ID entry for path, or -1
 * (needs bid_index first). */
static long bid_find(const struct resolver *res, const struct pd_reader *r, const char *path)
{
	uint64_t h = str_hash(path), idx;
	for (uint64_t k = 0; hm_get(&res->bid_by_path, h, k, &idx); k++)
		if (!strcmp(r->features.build_ids[idx].filename, path))
			return (long)idx;
	return -1;
}

/* bid_index: indexes the recording's BUILD_ID entries by file name, once
 * (the first entry of a name wins): a lookup per dso stays O(1) however
 * many entries the file lists. */
static void bid_index(struct resolver *res, const struct pd_reader *r)
{
	if (res->bid_indexed)
		return;
	res->bid_indexed = true;
	for (uint32_t i = 0; i < r->features.nr_build_ids; i++) {
		const char *name = r->features.build_ids[i].filename;
		uint64_t h, k = 0, idx;
		if (!name || bid_find(res, r, name) >= 0)
			continue;
		h = str_hash(name);
		while (hm_get(&res->bid_by_path, h, k, &idx))
			k++;
		hm_put(&res->bid_by_path, h, k, i);
	}
}

/* expected_build_id: the build id the recording saw for d, as hex, or NULL. */
static const char *expected_build_id(struct resolver *res, const struct dso *d,
				     const struct pd_reader *r, char *buf)
{
	long i;
	if (d->build_id_size) {
		build_id_hex(d->build_id, d->build_id_size, buf);
		return buf;
	}
	if (!r)
		return NULL;
	bid_index(res, r);
	i = bid_find(res, r, d->path);
	return i >= 0 ? r->features.build_ids[i].hex : NULL;
}

/* kernel_symbol: the symbol row of a kernel address. */
static int64_t kernel_symbol(struct resolver *res, const struct pd_reader *r,
			     uint64_t ip)
{
	const struct sym *s;
	long dso;
	uint64_t off;
	if (!res->ktried)
		load_kernel_symbols(res, r);
	s = res->ksyms ? symtab_find(res->ksyms, ip, &off) : NULL;
	dso = dso_get(res, s && s->module ? s->module : "[kernel.kallsyms]", 1);
	if (!s)
		return unknown_row(res, dso);
	return sym_row(res, dso, s->start, s->size, s->name);
}

/* load_dso: loads d's symbols if not tried yet; whether it has them. */
static bool load_dso(struct resolver *res, const struct pd_reader *r, struct dso *d)
{
	char want[41];
	if (!d->loaded)
		dso_load(d, expected_build_id(res, d, r, want), recorded_here(r));
	return d->loaded > 0;
}

uint64_t resolver_maps_gen(struct resolver *res, int64_t proc)
{
	uint64_t idx;
	return hm_get(&res->maps_by_proc, (uint64_t)proc, 0, &idx) ? res->maps[idx].gen : 0;
}

/* What user_map collects the maps of a process into. */
struct umaps_ctx {
	struct resolver *res;
	const struct pd_reader *r;
	struct umap *out;
	long n;
};

/* user_map: adds m to the unwinder's list when its dso has a file. */
static void user_map(void *ctx, const struct map *m)
{
	struct umaps_ctx *u = ctx;
	struct dso *d = &u->res->dsos[m->dso];
	if (!d->kernel && load_dso(u->res, u->r, d) && d->file)
		u->out[u->n++] = (struct umap){ d->file, m->start, m->end, m->pgoff };
}

long resolver_user_maps(struct resolver *res, const struct pd_reader *r, int64_t proc,
			struct umap **out)
{
	struct maps *ms = maps_of(res, proc);
	struct umaps_ctx u = { res, r, NULL, 0 };
	u.out = ms->n ? xreallocarray(NULL, ms->n, sizeof(*u.out)) : NULL;
	maps_walk(ms, user_map, &u);
	*out = u.out;
	return u.n;
}

/* user_symbol: the symbol row of a user address in process row proc. */
static int64_t user_symbol(struct resolver *res, const struct pd_reader *r,
			   int64_t proc, uint64_t ip)
{
	const struct map *m = maps_find(maps_of(res, proc), ip);
	struct dso *d;
	const struct sym *s;
	uint64_t off;
	if (!m)
		return unknown_row(res, -1);
	d = &res->dsos[m->dso];
	if (!load_dso(res, r, d))
		return unknown_row(res, (long)m->dso);
	s = dso_symbol(d, m->start, m->end - m->start, m->pgoff, ip, &off);
	if (!s)
		return unknown_row(res, (long)m->dso);
	return sym_row(res, (long)m->dso, s->start, s->size, s->name);
}

int resolver_is_kernel(const struct pd_reader *r, uint64_t addr)
{
	const char *arch = r->features.arch;
	if (arch && (!strcmp(arch, "i686") || !strcmp(arch, "i386") ||
		     !strncmp(arch, "armv7", 5) || !strcmp(arch, "arm")))
		return addr >= 0xc0000000ULL && addr <= 0xffffffffULL;
	return addr >= 0xffff000000000000ULL;
}

int64_t resolver_symbol(struct resolver *res, const struct pd_reader *r,
			int64_t proc, int cpumode, uint64_t ip)
{
	bool kernel = cpumode == PD_CPUMODE_KERNEL || cpumode == PD_CPUMODE_GUEST_KERNEL ||
		      (cpumode != PD_CPUMODE_USER && resolver_is_kernel(r, ip));
	uint64_t key = kernel ? 0 : (uint64_t)proc, row;
	int64_t v;
	if (hm_get(&res->ip_cache, key, ip, &row))
		return (int64_t)row;
	v = kernel ? kernel_symbol(res, r, ip) : user_symbol(res, r, proc, ip);
	if (v >= 0)
		hm_put(&res->ip_cache, key, ip, (uint64_t)v);
	return v;
}

const char *resolver_ksym(struct resolver *res, const struct pd_reader *r,
			  uint64_t addr, bool with_offset, char *buf, size_t len)
{
	const struct sym *s;
	uint64_t off;
	if (!res->ktried)
		load_kernel_symbols(res, r);
	s = res->ksyms && addr ? symtab_find(res->ksyms, addr, &off) : NULL;
	if (!s)
		return NULL;
	if (with_offset)
		snprintf(buf, len, "%s+0x%llx", s->name, (unsigned long long)off);
	else
		snprintf(buf, len, "%s", s->name);
	return buf;
}

/* store_kallsyms: keeps the kallsyms text used, zstd-compressed (by the
 * job load_kernel_symbols started), in the session so kernel addresses
 * can be resolved again on another machine. */
static int store_kallsyms(struct resolver *res, char *err, size_t errlen)
{
	void *z = NULL;
	size_t n = 0;
	sqlite3_stmt *st;
	int rc = zstd_job_finish(res->kz, &z, &n);
	res->kz = NULL;
	st = rc ? NULL : db_prepare(res->db, "INSERT OR REPLACE INTO kallsyms(session_id, text_zstd, size) VALUES (?,?,?)");
	if (!st) {
		free(z);
		return snprintf(err, errlen, "cannot compress kallsyms"), -1;
	}
	sqlite3_bind_int64(st, 1, res->session);
	sqlite3_bind_blob(st, 2, z, (int)n, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, (int64_t)res->ktext_len);
	rc = db_step_done(st, err, errlen);
	sqlite3_finalize(st);
	free(z);
	return rc;
}

int resolver_flush(struct resolver *res)
{
	return batch_flush(res->syms) || batch_flush(res->maps_b) ? -1 : 0;
}

/* write_dsos: one row per dso, with what is known of it at the end. */
static int write_dsos(struct resolver *res, char *err, size_t errlen)
{
	sqlite3_stmt *st = db_prepare(res->db, "INSERT INTO dso(id, session_id, path, build_id, kernel, symbols) VALUES (?,?,?,?,?,?)");
	int rc = st ? 0 : -1;
	for (size_t i = 0; i < res->ndsos && !rc; i++) {
		const struct dso *d = &res->dsos[i];
		sqlite3_bind_int64(st, 1, d->row);
		sqlite3_bind_int64(st, 2, res->session);
		sqlite3_bind_text(st, 3, d->path, -1, SQLITE_STATIC);
		db_bind_text_or_null(st, 4, d->build_id_hex);
		sqlite3_bind_int(st, 5, d->kernel);
		db_bind_text_or_null(st, 6, d->symbols);
		rc = db_step_done(st, err, errlen);
	}
	sqlite3_finalize(st);
	return rc;
}

int resolver_finish(struct resolver *res, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	int rc;
	if (write_dsos(res, err, errlen) || (res->ktext && store_kallsyms(res, err, errlen)))
		return -1;
	st = db_prepare(res->db, "UPDATE session SET kallsyms_source = ? WHERE id = ?");
	if (!st)
		return -1;
	db_bind_text_or_null(st, 1, res->ksource);
	sqlite3_bind_int64(st, 2, res->session);
	rc = db_step_done(st, err, errlen);
	sqlite3_finalize(st);
	if (rc || !res->unresolved)
		return rc;
	st = db_prepare(res->db, "INSERT INTO data_quality(session_id, what, count) VALUES (?, 'unresolved addresses', ?)");
	sqlite3_bind_int64(st, 1, res->session);
	sqlite3_bind_int64(st, 2, (int64_t)res->unresolved);
	rc = db_step_done(st, err, errlen);
	sqlite3_finalize(st);
	return rc;
}
