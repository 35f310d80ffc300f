/* Decoder for perf.data header feature sections (see features.h). Each
 * feature is parsed into a scratch struct pd_features and moved into the
 * caller's only when the whole section decoded, so a malformed section
 * leaves the caller's values untouched and leaks nothing. Every count and
 * length comes from the file and is checked against the bytes left before
 * it sizes an allocation or a read. */
#include "collect/perfdata/features.h"
#include "lib/alloc.h"
#include "lib/bytes.h"
#include "lib/errf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Parse state for one section: the cursor, the feature's name for
 * messages, and where the one-line error goes. */
struct fparse {
	struct cursor c;
	const char *name;
	char *err;
	size_t errlen;
	bool limit;		/* failed on a limit, not on malformed bytes */
};

/* Item counts no real recording reaches: each list's items are few bytes
 * in the file but a heap block each in memory, so a section of empty
 * items would cost many times its size. exec(2) passes at most 6 MiB of
 * arguments, 8 bytes of pointer each counted; perf.data has at most as
 * many events as attrs (the reader keeps 65536) and ids as the attrs do;
 * CPUs, NUMA nodes and PMUs number thousands at most. */
#define MAX_ARGS	(1u << 20)
#define MAX_EVENTS	65536u
#define MAX_DESC_IDS	(1u << 21)
#define MAX_LIST	65536u
#define MAX_BUILD_IDS	(1u << 20)

/* fail: writes "NAME: MSG at offset AT (section has LEN bytes)" into the
 * caller's err buffer; returns -1 so parsers can `return fail(...)`. */
__attribute__((format(printf, 3, 4)))
static int fail(struct fparse *p, size_t at, const char *fmt, ...)
{
	char msg[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return errf(p->err, p->errlen, "%s: %s at offset %zu (section has %zu bytes)", p->name,
		    msg, at, p->c.len);
}

/* left: bytes not yet consumed in the section. */
static size_t left(const struct fparse *p)
{
	return p->c.len - p->c.pos;
}

/* get_u32/get_u64: the next integer, or false with a "truncated WHAT"
 * message when the section ends first. */
static bool get_u32(struct fparse *p, uint32_t *v, const char *what)
{
	if (cur_u32(&p->c, v))
		return true;
	fail(p, p->c.pos, "truncated %s (4 bytes)", what);
	return false;
}

static bool get_u64(struct fparse *p, uint64_t *v, const char *what)
{
	if (cur_u64(&p->c, v))
		return true;
	fail(p, p->c.pos, "truncated %s (8 bytes)", what);
	return false;
}

/* get_str: perf's string (u32 len, then len bytes, NUL-padded) as a
 * NUL-terminated heap copy, or NULL with a message set. */
static char *get_str(struct fparse *p, const char *what)
{
	size_t at = p->c.pos;
	const uint8_t *b;
	uint32_t n;

	if (!get_u32(p, &n, what))
		return NULL;
	b = cur_bytes(&p->c, n);
	if (!b) {
		fail(p, at, "%s of %u bytes overruns the %zu bytes left", what, n, left(p));
		return NULL;
	}
	return xstrndup((const char *)b, n);
}

/* check_count: whether n items of at least `each` bytes can still fit;
 * `at` is the count field's offset, for the message. */
static bool check_count(struct fparse *p, uint32_t n, size_t each, size_t at,
			const char *what)
{
	if (each && n > left(p) / each) {
		fail(p, at, "%u %s need at least %zu bytes each, only %zu bytes left",
		     n, what, each, left(p));
		return false;
	}
	return true;
}

/* check_limit: whether n items (counted at `at`) stay within max. */
static bool check_limit(struct fparse *p, uint64_t n, uint64_t max, size_t at,
			const char *what)
{
	if (n <= max)
		return true;
	fail(p, at, "%llu %s are more than the %llu perfdb reads",
	     (unsigned long long)n, what, (unsigned long long)max);
	p->limit = true;
	return false;
}

/* get_count: reads a u32 count and checks it with check_count and
 * against max. */
static bool get_count(struct fparse *p, uint32_t *n, size_t each, uint32_t max,
		      const char *what)
{
	size_t at = p->c.pos;

	return get_u32(p, n, what) && check_count(p, *n, each, at, what) &&
	       check_limit(p, *n, max, at, what);
}

/* str_field: where the string feature id lives in f, or NULL. */
static char **str_field(struct pd_features *f, int id)
{
	switch (id) {
	case PD_FEAT_HOSTNAME:	return &f->hostname;
	case PD_FEAT_OSRELEASE:	return &f->osrelease;
	case PD_FEAT_VERSION:	return &f->version;
	case PD_FEAT_ARCH:	return &f->arch;
	case PD_FEAT_CPUDESC:	return &f->cpudesc;
	case PD_FEAT_CPUID:	return &f->cpuid;
	default:		return NULL;
	}
}

/* parse_string: HOSTNAME, OSRELEASE, VERSION, ARCH, CPUDESC, CPUID. */
static int parse_string(struct fparse *p, struct pd_features *t, int id)
{
	char *s = get_str(p, "string");

	if (!s)
		return -1;
	*str_field(t, id) = s;
	return 0;
}

/* parse_nrcpus: u32 nr_cpus_avail, u32 nr_cpus_online. */
static int parse_nrcpus(struct fparse *p, struct pd_features *t, int id)
{
	(void)id;
	if (!get_u32(p, &t->nr_cpus_avail, "nr_cpus_avail") ||
	    !get_u32(p, &t->nr_cpus_online, "nr_cpus_online"))
		return -1;
	return 0;
}

/* parse_total_mem: u64 kB. */
static int parse_total_mem(struct fparse *p, struct pd_features *t, int id)
{
	(void)id;
	return get_u64(p, &t->total_mem_kb, "total memory") ? 0 : -1;
}

/* join_argv: argv joined with single spaces into t->cmdline. */
static void join_argv(struct pd_features *t)
{
	size_t n = 1, off = 0;
	uint32_t i;

	for (i = 0; i < t->argc; i++)
		n += strlen(t->argv[i]) + 1;
	t->cmdline = xmalloc(n);
	for (i = 0; i < t->argc; i++) {
		size_t l = strlen(t->argv[i]);

		if (i)
			t->cmdline[off++] = ' ';
		memcpy(t->cmdline + off, t->argv[i], l);
		off += l;
	}
	t->cmdline[off] = '\0';
}

/* parse_cmdline: u32 argc, then argc strings. */
static int parse_cmdline(struct fparse *p, struct pd_features *t, int id)
{
	uint32_t i, n;

	(void)id;
	if (!get_count(p, &n, 4, MAX_ARGS, "arguments"))
		return -1;
	t->argv = xcalloc(n, sizeof(char *));
	t->argc = n;
	for (i = 0; i < n; i++)
		if (!(t->argv[i] = get_str(p, "argument")))
			return -1;
	join_argv(t);
	return 0;
}

/* parse_one_event: attr (sz bytes: type @0, size @4, config @8), u32
 * nr_ids, string name, u64 ids[nr_ids]. */
static int parse_one_event(struct fparse *p, struct pd_event_desc *e, uint32_t sz)
{
	const uint8_t *attr = cur_bytes(&p->c, sz);
	size_t at = p->c.pos;
	uint32_t i;

	if (!attr)
		return fail(p, p->c.pos, "truncated attr (%u bytes)", sz);
	e->type = rd32(attr, p->c.swap);
	e->attr_size = rd32(attr + 4, p->c.swap);
	e->config = rd64(attr + 8, p->c.swap);
	if (!get_u32(p, &e->nr_ids, "id count") ||
	    !(e->name = get_str(p, "event name")) ||
	    !check_count(p, e->nr_ids, 8, at, "ids") ||
	    !check_limit(p, e->nr_ids, MAX_DESC_IDS, at, "event ids"))
		return -1;
	e->ids = xcalloc(e->nr_ids, sizeof(uint64_t));
	for (i = 0; i < e->nr_ids; i++)
		cur_u64(&p->c, &e->ids[i]);	/* room checked above */
	return 0;
}

/* parse_event_desc: u32 nr, u32 attr_size, then nr events. */
static int parse_event_desc(struct fparse *p, struct pd_features *t, int id)
{
	uint32_t i, n, sz;
	uint64_t ids = 0;
	size_t at;

	(void)id;
	if (!get_u32(p, &n, "event count"))
		return -1;
	at = p->c.pos;
	if (!get_u32(p, &sz, "attr size"))
		return -1;
	if (n && sz < 16)
		return fail(p, at, "attr size %u is below 16", sz);
	if (!check_count(p, n, (size_t)sz + 8, at - 4, "events") ||
	    !check_limit(p, n, MAX_EVENTS, at - 4, "events"))
		return -1;
	t->events = xcalloc(n, sizeof(*t->events));
	t->nr_events = n;
	for (i = 0; i < n; i++) {
		if (parse_one_event(p, &t->events[i], sz))
			return -1;
		ids += t->events[i].nr_ids;
		if (!check_limit(p, ids, MAX_DESC_IDS, p->c.pos, "event ids"))
			return -1;
	}
	return 0;
}

/* get_str_list: u32 count, then count strings, into *v / *n. */
static int get_str_list(struct fparse *p, char ***v, uint32_t *n, const char *what)
{
	uint32_t i, cnt;

	if (!get_count(p, &cnt, 4, MAX_LIST, what))
		return -1;
	*v = xcalloc(cnt, sizeof(char *));
	*n = cnt;
	for (i = 0; i < cnt; i++)
		if (!((*v)[i] = get_str(p, what)))
			return -1;
	return 0;
}

/* parse_cpu_ids: nr_cpus_avail pairs {u32 core_id, u32 socket_id}. */
static int parse_cpu_ids(struct fparse *p, struct pd_features *t)
{
	uint32_t i, n = t->nr_cpus_avail;

	if (!check_count(p, n, 8, p->c.pos, "per-CPU core/socket ids"))
		return -1;
	t->cpus = xcalloc(n, sizeof(*t->cpus));
	t->nr_cpus = n;
	for (i = 0; i < n; i++) {
		cur_u32(&p->c, &t->cpus[i].core_id);	/* room checked above */
		cur_u32(&p->c, &t->cpus[i].socket_id);
	}
	return 0;
}

/* parse_die_ids: die sibling lists, then nr_cpus u32 die ids. */
static int parse_die_ids(struct fparse *p, struct pd_features *t)
{
	uint32_t i;

	if (get_str_list(p, &t->die_siblings, &t->nr_die_siblings, "die siblings") ||
	    !check_count(p, t->nr_cpus, 4, p->c.pos, "per-CPU die ids"))
		return -1;
	for (i = 0; i < t->nr_cpus; i++)
		cur_u32(&p->c, &t->cpus[i].die_id);	/* room checked above */
	t->has_die_ids = true;
	return 0;
}

/* parse_cpu_topology: core and thread sibling lists; then, if bytes
 * remain and NRCPUS is known, per-CPU core/socket ids; then, if bytes
 * still remain, die sibling lists and per-CPU die ids. */
static int parse_cpu_topology(struct fparse *p, struct pd_features *t, int id)
{
	(void)id;
	if (get_str_list(p, &t->core_siblings, &t->nr_core_siblings, "core siblings") ||
	    get_str_list(p, &t->thread_siblings, &t->nr_thread_siblings, "thread siblings"))
		return -1;
	if (!left(p) || !t->nr_cpus_avail)
		return 0;
	if (parse_cpu_ids(p, t))
		return -1;
	return left(p) ? parse_die_ids(p, t) : 0;
}

/* parse_numa_topology: u32 nr, per node u32 node, u64 mem_total, u64
 * mem_free, string cpus. */
static int parse_numa_topology(struct fparse *p, struct pd_features *t, int id)
{
	uint32_t i, n;

	(void)id;
	if (!get_count(p, &n, 24, MAX_LIST, "NUMA nodes"))
		return -1;
	t->numa_nodes = xcalloc(n, sizeof(*t->numa_nodes));
	t->nr_numa_nodes = n;
	for (i = 0; i < n; i++) {
		struct pd_numa_node *nd = &t->numa_nodes[i];

		if (!get_u32(p, &nd->node, "node number") ||
		    !get_u64(p, &nd->mem_total, "mem_total") ||
		    !get_u64(p, &nd->mem_free, "mem_free") ||
		    !(nd->cpus = get_str(p, "node CPU list")))
			return -1;
	}
	return 0;
}

/* parse_pmu_mappings: u32 nr, per PMU u32 type, string name. */
static int parse_pmu_mappings(struct fparse *p, struct pd_features *t, int id)
{
	uint32_t i, n;

	(void)id;
	if (!get_count(p, &n, 8, MAX_LIST, "PMUs"))
		return -1;
	t->pmus = xcalloc(n, sizeof(*t->pmus));
	t->nr_pmus = n;
	for (i = 0; i < n; i++)
		if (!get_u32(p, &t->pmus[i].type, "PMU type") ||
		    !(t->pmus[i].name = get_str(p, "PMU name")))
			return -1;
	return 0;
}

/* Build-id record layout: header {u32 type, u16 misc, u16 size}, s32 pid,
 * u8 build_id[24] (20 used; [20] is the length under MISC_SIZE), filename.
 * Perf before the 'perf kvm' change (2.6.34) had no pid: fixed part 32. */
#define BID_FIXED	36
#define BID_FIXED_OLD	32

/* build_id_layout: the fixed size of this section's records: 32 when the
 * first record only makes sense without the pid (its filename would read
 * "nel.kallsyms]", the kernel's name less its first 4 bytes), else 36. */
static size_t build_id_layout(const struct fparse *p)
{
	static const char tail[] = "nel.kallsyms]";
	const uint8_t *b = p->c.base;

	if (p->c.len >= BID_FIXED + sizeof(tail) - 1 &&
	    rd16(b + 6, p->c.swap) >= BID_FIXED + sizeof(tail) - 1 &&
	    !memcmp(b + BID_FIXED, tail, sizeof(tail) - 1))
		return BID_FIXED_OLD;
	return BID_FIXED;
}

/* count_build_ids: walks the record headers; each size must cover the
 * fixed part and fit in what is left. */
static int count_build_ids(struct fparse *p, size_t fixed, uint32_t *n)
{
	size_t pos = 0, len = p->c.len;

	for (*n = 0; pos < len; ++*n) {
		uint16_t size;

		if (len - pos < 8)
			return fail(p, pos, "truncated build-id record header");
		size = rd16(p->c.base + pos + 6, p->c.swap);
		if (size < fixed)
			return fail(p, pos, "build-id record size %u is below %zu", size, fixed);
		if (size > len - pos)
			return fail(p, pos, "build-id record of %u bytes overruns the %zu bytes left",
				    size, len - pos);
		pos += size;
	}
	return 0;
}

/* hex_build_id: bid[0..n) as lower-case hex into out (2n+1 bytes). */
static void hex_build_id(char *out, const uint8_t *bid, size_t n)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < n; i++) {
		out[2 * i] = digits[bid[i] >> 4];
		out[2 * i + 1] = digits[bid[i] & 15];
	}
	out[2 * n] = '\0';
}

/* parse_one_build_id: the record at the cursor (its size already checked
 * by count_build_ids) into e. */
static int parse_one_build_id(struct fparse *p, struct pd_build_id *e, size_t fixed)
{
	size_t at = p->c.pos;
	const uint8_t *r = p->c.base + at;
	uint16_t size = rd16(r + 6, p->c.swap);
	const uint8_t *bid = r + fixed - 24;

	e->misc = rd16(r + 4, p->c.swap);
	if (fixed == BID_FIXED)
		e->pid = (int32_t)rd32(r + 8, p->c.swap);
	else	/* old layout: host kernel, or default guest for guest modes */
		e->pid = (e->misc == 4 || e->misc == 5) ? 0 : -1;
	e->size = PD_BUILD_ID_MAX;
	if (e->misc & PD_BUILD_ID_MISC_SIZE)
		e->size = bid[PD_BUILD_ID_MAX];
	if (e->size > PD_BUILD_ID_MAX)
		return fail(p, at + fixed - 4, "build-id length %u exceeds %d",
			    e->size, PD_BUILD_ID_MAX);
	hex_build_id(e->hex, bid, e->size);
	e->filename = xstrndup((const char *)r + fixed, size - fixed);
	p->c.pos += size;
	return 0;
}

/* parse_build_id: a sequence of build-id records filling the section. */
static int parse_build_id(struct fparse *p, struct pd_features *t, int id)
{
	size_t fixed = build_id_layout(p);
	uint32_t i, n;

	(void)id;
	if (count_build_ids(p, fixed, &n) || !check_limit(p, n, MAX_BUILD_IDS, 0, "build ids"))
		return -1;
	t->build_ids = xcalloc(n, sizeof(*t->build_ids));
	t->nr_build_ids = n;
	for (i = 0; i < n; i++)
		if (parse_one_build_id(p, &t->build_ids[i], fixed))
			return -1;
	return 0;
}

/* parse_sample_time: u64 first, u64 last. */
static int parse_sample_time(struct fparse *p, struct pd_features *t, int id)
{
	(void)id;
	if (!get_u64(p, &t->first_sample_time, "first sample time") ||
	    !get_u64(p, &t->last_sample_time, "last sample time"))
		return -1;
	return 0;
}

/* parse_clockid: u64 clock resolution in ns. */
static int parse_clockid(struct fparse *p, struct pd_features *t, int id)
{
	(void)id;
	return get_u64(p, &t->clockid_res_ns, "clockid resolution") ? 0 : -1;
}

/* parse_clock_data: u32 version, u32 clockid, u64 wall clock ns, u64
 * clockid ns. Later versions may append fields; those are ignored. */
static int parse_clock_data(struct fparse *p, struct pd_features *t, int id)
{
	(void)id;
	if (!get_u32(p, &t->clock_data.version, "version"))
		return -1;
	if (t->clock_data.version < 1)
		return fail(p, 0, "unknown version 0");
	if (!get_u32(p, &t->clock_data.clockid, "clockid") ||
	    !get_u64(p, &t->clock_data.wall_clock_ns, "wall clock time") ||
	    !get_u64(p, &t->clock_data.clockid_time_ns, "clockid time"))
		return -1;
	return 0;
}

/* parse_compressed: u32 version, type, level, ratio, mmap_len. */
static int parse_compressed(struct fparse *p, struct pd_features *t, int id)
{
	(void)id;
	if (!get_u32(p, &t->compressed.version, "version") ||
	    !get_u32(p, &t->compressed.type, "type") ||
	    !get_u32(p, &t->compressed.level, "level") ||
	    !get_u32(p, &t->compressed.ratio, "ratio") ||
	    !get_u32(p, &t->compressed.mmap_len, "mmap_len"))
		return -1;
	return 0;
}

typedef int parse_fn(struct fparse *p, struct pd_features *t, int id);

/* One row per feature id: its name, and its decoder when it has one. */
static const struct {
	const char *name;
	parse_fn *parse;
} feats[] = {
	[PD_FEAT_TRACING_DATA]	= { "tracing_data", NULL },
	[PD_FEAT_BUILD_ID]	= { "build_id", parse_build_id },
	[PD_FEAT_HOSTNAME]	= { "hostname", parse_string },
	[PD_FEAT_OSRELEASE]	= { "osrelease", parse_string },
	[PD_FEAT_VERSION]	= { "version", parse_string },
	[PD_FEAT_ARCH]		= { "arch", parse_string },
	[PD_FEAT_NRCPUS]	= { "nrcpus", parse_nrcpus },
	[PD_FEAT_CPUDESC]	= { "cpudesc", parse_string },
	[PD_FEAT_CPUID]		= { "cpuid", parse_string },
	[PD_FEAT_TOTAL_MEM]	= { "total_mem", parse_total_mem },
	[PD_FEAT_CMDLINE]	= { "cmdline", parse_cmdline },
	[PD_FEAT_EVENT_DESC]	= { "event_desc", parse_event_desc },
	[PD_FEAT_CPU_TOPOLOGY]	= { "cpu_topology", parse_cpu_topology },
	[PD_FEAT_NUMA_TOPOLOGY]	= { "numa_topology", parse_numa_topology },
	[PD_FEAT_BRANCH_STACK]	= { "branch_stack", NULL },
	[PD_FEAT_PMU_MAPPINGS]	= { "pmu_mappings", parse_pmu_mappings },
	[PD_FEAT_GROUP_DESC]	= { "group_desc", NULL },
	[PD_FEAT_AUXTRACE]	= { "auxtrace", NULL },
	[PD_FEAT_STAT]		= { "stat", NULL },
	[PD_FEAT_CACHE]		= { "cache", NULL },
	[PD_FEAT_SAMPLE_TIME]	= { "sample_time", parse_sample_time },
	[PD_FEAT_MEM_TOPOLOGY]	= { "mem_topology", NULL },
	[PD_FEAT_CLOCKID]	= { "clockid", parse_clockid },
	[PD_FEAT_DIR_FORMAT]	= { "dir_format", NULL },
	[PD_FEAT_BPF_PROG_INFO]	= { "bpf_prog_info", NULL },
	[PD_FEAT_BPF_BTF]	= { "bpf_btf", NULL },
	[PD_FEAT_COMPRESSED]	= { "compressed", parse_compressed },
	[PD_FEAT_CPU_PMU_CAPS]	= { "cpu_pmu_caps", NULL },
	[PD_FEAT_CLOCK_DATA]	= { "clock_data", parse_clock_data },
	[PD_FEAT_HYBRID_TOPOLOGY] = { "hybrid_topology", NULL },
	[PD_FEAT_PMU_CAPS]	= { "pmu_caps", NULL },
	[PD_FEAT_CPU_DOMAIN_INFO] = { "cpu_domain_info", NULL },
};

#define NFEATS ((int)(sizeof(feats) / sizeof(feats[0])))

const char *pd_feature_name(int id)
{
	return id >= 0 && id < NFEATS ? feats[id].name : NULL;
}

void pd_features_init(struct pd_features *f)
{
	memset(f, 0, sizeof(*f));
}

/* free_strv: frees v[0..n) and v. */
static void free_strv(char **v, uint32_t n)
{
	uint32_t i;

	for (i = 0; v && i < n; i++)
		free(v[i]);
	free(v);
}

/* free_lists: the array-valued fields (events, topology, nodes, PMUs,
 * build ids); pd_features_free does the rest. */
static void free_lists(struct pd_features *f)
{
	uint32_t i;

	for (i = 0; f->events && i < f->nr_events; i++) {
		free(f->events[i].name);
		free(f->events[i].ids);
	}
	free(f->events);
	free_strv(f->core_siblings, f->nr_core_siblings);
	free_strv(f->thread_siblings, f->nr_thread_siblings);
	free_strv(f->die_siblings, f->nr_die_siblings);
	free(f->cpus);
	for (i = 0; f->numa_nodes && i < f->nr_numa_nodes; i++)
		free(f->numa_nodes[i].cpus);
	free(f->numa_nodes);
	for (i = 0; f->pmus && i < f->nr_pmus; i++)
		free(f->pmus[i].name);
	free(f->pmus);
	for (i = 0; f->build_ids && i < f->nr_build_ids; i++)
		free(f->build_ids[i].filename);
	free(f->build_ids);
}

void pd_features_free(struct pd_features *f)
{
	int id;

	for (id = 0; id < NFEATS; id++) {
		char **s = str_field(f, id);

		if (s)
			free(*s);
	}
	free_strv(f->argv, f->argc);
	free(f->cmdline);
	free_lists(f);
	pd_features_init(f);
}

/* memswap: exchanges n bytes between a and b. */
static void memswap(void *a, void *b, size_t n)
{
	unsigned char *x = a, *y = b, tmp;

	while (n--) {
		tmp = *x;
		*x++ = *y;
		*y++ = tmp;
	}
}

#define SWAPF(field) memswap(&f->field, &t->field, sizeof(f->field))

/* take_topology: swaps the CPU_TOPOLOGY fields of f and t. */
static void take_topology(struct pd_features *f, struct pd_features *t)
{
	SWAPF(core_siblings);
	SWAPF(nr_core_siblings);
	SWAPF(thread_siblings);
	SWAPF(nr_thread_siblings);
	SWAPF(die_siblings);
	SWAPF(nr_die_siblings);
	SWAPF(cpus);
	SWAPF(nr_cpus);
	SWAPF(has_die_ids);
}

/* take: swaps feature id's fields of f (old) and t (new, just decoded), so
 * f gets the new values and t the old ones, for the caller to free. */
static void take(struct pd_features *f, struct pd_features *t, int id)
{
	char **a = str_field(f, id), **b = str_field(t, id);

	switch (id) {
	case PD_FEAT_BUILD_ID: SWAPF(build_ids); SWAPF(nr_build_ids); break;
	case PD_FEAT_NRCPUS: SWAPF(nr_cpus_avail); SWAPF(nr_cpus_online); break;
	case PD_FEAT_TOTAL_MEM: SWAPF(total_mem_kb); break;
	case PD_FEAT_CMDLINE: SWAPF(argv); SWAPF(argc); SWAPF(cmdline); break;
	case PD_FEAT_EVENT_DESC: SWAPF(events); SWAPF(nr_events); break;
	case PD_FEAT_CPU_TOPOLOGY: take_topology(f, t); break;
	case PD_FEAT_NUMA_TOPOLOGY: SWAPF(numa_nodes); SWAPF(nr_numa_nodes); break;
	case PD_FEAT_PMU_MAPPINGS: SWAPF(pmus); SWAPF(nr_pmus); break;
	case PD_FEAT_SAMPLE_TIME: SWAPF(first_sample_time); SWAPF(last_sample_time); break;
	case PD_FEAT_CLOCKID: SWAPF(clockid_res_ns); break;
	case PD_FEAT_CLOCK_DATA: SWAPF(clock_data); break;
	case PD_FEAT_COMPRESSED: SWAPF(compressed); break;
	default: if (a) memswap(a, b, sizeof(*a)); break;
	}
	f->present[id / 64] |= (uint64_t)1 << (id % 64);
}

int pd_feature_parse(struct pd_features *f, int id, const void *buf, size_t len,
		     bool swap, char *err, size_t errlen)
{
	struct pd_features t;
	struct fparse p = { .name = pd_feature_name(id), .err = err, .errlen = errlen };
	int rc;

	if (err && errlen)
		err[0] = '\0';
	else
		p.errlen = 0;
	if (!p.name || !feats[id].parse)
		return 0;
	cur_init(&p.c, buf ? buf : "", len, swap);
	if (!buf && len)
		return fail(&p, 0, "no buffer");
	pd_features_init(&t);
	t.nr_cpus_avail = f->nr_cpus_avail;	/* sizes CPU_TOPOLOGY's per-CPU part */
	rc = feats[id].parse(&p, &t, id);
	if (rc && p.limit)
		rc = -2;
	if (!rc)
		take(f, &t, id);
	pd_features_free(&t);
	return rc;
}
