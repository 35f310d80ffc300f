/* Tests for collect/perfdata/features.c, the perf.data feature-section decoder:
 * hand-built sections (byte order, bounds, build-id layouts, optional
 * topology tails), a file recorded here with perf, every file-mode file in
 * $PERFDB_SHARED/perfdata, each checked against what `perf report
 * --header-only -I` and `perf buildid-list` print, and truncation and
 * byte-flip fuzzing of every real section. */
#include "collect/perfdata/features.h"
#include "lib/bytes.h"
#include "tap.h"

#include <ctype.h>
#include <dirent.h>
#include <stdarg.h>
#include <errno.h>
#include <stdlib.h>
#include <sys/utsname.h>
#include <unistd.h>

/* ---- hand-built sections ---- */

/* A section under construction, in little- or big-endian order. */
struct bb {
	uint8_t b[4096];
	size_t n;
	bool be;
};

/* bb_int: appends the low `size` bytes of v in the buffer's byte order. */
static void bb_int(struct bb *s, uint64_t v, int size)
{
	for (int i = 0; i < size; i++) {
		int shift = 8 * (s->be ? size - 1 - i : i);

		s->b[s->n++] = (uint8_t)(v >> shift);
	}
}

static void bb_u16(struct bb *s, uint16_t v) { bb_int(s, v, 2); }
static void bb_u32(struct bb *s, uint32_t v) { bb_int(s, v, 4); }
static void bb_u64(struct bb *s, uint64_t v) { bb_int(s, v, 8); }

/* bb_bytes: appends n raw bytes. */
static void bb_bytes(struct bb *s, const void *p, size_t n)
{
	memcpy(s->b + s->n, p, n);
	s->n += n;
}

/* bb_str: a perf string: u32 len, then str's bytes NUL-padded to len
 * (cut to len when str is longer, leaving it unterminated). */
static void bb_str(struct bb *s, const char *str, uint32_t len)
{
	size_t l = strlen(str) < len ? strlen(str) : len;

	bb_u32(s, len);
	bb_bytes(s, str, l);
	memset(s->b + s->n, 0, len - l);
	s->n += len - l;
}

/* bb_pstr: a string padded as perf pads it (to a multiple of 64). */
static void bb_pstr(struct bb *s, const char *str)
{
	bb_str(s, str, (uint32_t)((strlen(str) + 1 + 63) / 64 * 64));
}

/* parse_exact: pd_feature_parse on a heap copy of exactly len bytes, so
 * that AddressSanitizer and valgrind see any read past the end. */
static int parse_exact(struct pd_features *f, int id, const void *p, size_t len,
		       bool swap, char *err, size_t errlen)
{
	uint8_t *copy = malloc(len ? len : 1);
	int rc;

	memcpy(copy, p, len);
	rc = pd_feature_parse(f, id, copy, len, swap, err, errlen);
	free(copy);
	return rc;
}

/* parse_bb: parse_exact on a built section, in its byte order. */
static int parse_bb(struct pd_features *f, int id, const struct bb *s, char *err)
{
	return parse_exact(f, id, s->b, s->n, s->be, err, 256);
}

/* has_words: whether s contains every word given (NULL-terminated). */
static bool has_words(const char *s, ...)
{
	va_list ap;
	const char *w;
	bool all = true;

	va_start(ap, s);
	while ((w = va_arg(ap, const char *)))
		all = all && strstr(s, w);
	va_end(ap);
	return all;
}

static void test_names(void)
{
	is_str(pd_feature_name(PD_FEAT_HOSTNAME), "hostname", "name of 3");
	is_str(pd_feature_name(PD_FEAT_OSRELEASE), "osrelease", "name of 4");
	is_str(pd_feature_name(PD_FEAT_EVENT_DESC), "event_desc", "name of 12");
	is_str(pd_feature_name(PD_FEAT_PMU_CAPS), "pmu_caps", "name of 31");
	ok(pd_feature_name(0) == NULL, "no name for 0 (reserved)");
	ok(pd_feature_name(-1) == NULL && pd_feature_name(40) == NULL &&
	   pd_feature_name(255) == NULL, "no name for -1, 40, 255");
}

static void test_strings(void)
{
	struct pd_features f;
	char err[256];
	struct bb s = { .n = 0 };

	pd_features_init(&f);
	bb_pstr(&s, "box");
	is_int(parse_bb(&f, PD_FEAT_HOSTNAME, &s, err), 0, "hostname parses");
	is_str(f.hostname, "box", "hostname value");
	ok(pd_feature_has(&f, PD_FEAT_HOSTNAME) && !pd_feature_has(&f, PD_FEAT_ARCH),
	   "present bit for hostname only");
	s.n = 0;
	bb_str(&s, "abcdefgh", 5);	/* no NUL inside len */
	is_int(parse_bb(&f, PD_FEAT_ARCH, &s, err), 0, "unterminated string parses");
	is_str(f.arch, "abcde", "unterminated string is cut to len and terminated");
	s.n = 0;
	bb_u32(&s, 300);
	bb_bytes(&s, "abc", 3);
	is_int(parse_bb(&f, PD_FEAT_HOSTNAME, &s, err), -1, "string longer than section fails");
	ok(has_words(err, "hostname", "offset 0", NULL), "message names feature and offset: %s", err);
	is_str(f.hostname, "box", "failed parse keeps the earlier value");
	s.n = 0;
	bb_pstr(&s, "other");
	parse_bb(&f, PD_FEAT_HOSTNAME, &s, err);
	is_str(f.hostname, "other", "second parse replaces the value");
	is_int(parse_exact(&f, PD_FEAT_CPUID, "", 0, false, err, sizeof(err)), -1,
	       "empty string section fails");
	ok(has_words(err, "cpuid", "offset 0", NULL), "message: %s", err);
	pd_features_free(&f);
	ok(f.hostname == NULL && !pd_feature_has(&f, PD_FEAT_HOSTNAME), "free empties");
	pd_features_free(&f);
}

static void test_ignored(void)
{
	struct pd_features f;
	char err[64] = "x";

	pd_features_init(&f);
	is_int(pd_feature_parse(&f, PD_FEAT_TRACING_DATA, "\x17\x08", 2, false, err, sizeof(err)),
	       0, "TRACING_DATA ignored");
	is_int(pd_feature_parse(&f, 200, "zz", 2, false, err, sizeof(err)), 0, "unknown id ignored");
	is_int(pd_feature_parse(&f, -5, NULL, 0, false, NULL, 0), 0, "negative id ignored");
	is_int(pd_feature_parse(&f, PD_FEAT_CACHE, "", 0, false, err, sizeof(err)), 0,
	       "CACHE ignored");
	ok(!pd_feature_has(&f, PD_FEAT_TRACING_DATA) && !pd_feature_has(&f, 200) && !err[0],
	   "ignored ids leave no trace");
	is_int(pd_feature_parse(&f, PD_FEAT_NRCPUS, "\1\0", 2, false, NULL, 0), -1,
	       "errors without an err buffer");
	pd_features_free(&f);
}

static void test_scalars(void)
{
	struct pd_features f;
	char err[256];
	struct bb s = { .be = true };

	pd_features_init(&f);
	bb_u32(&s, 8);
	bb_u32(&s, 4);
	is_int(parse_bb(&f, PD_FEAT_NRCPUS, &s, err), 0, "big-endian NRCPUS with swap");
	ok(f.nr_cpus_avail == 8 && f.nr_cpus_online == 4, "nr_cpus avail 8 online 4");
	s = (struct bb){ .be = false };
	bb_u64(&s, 123456789);
	parse_bb(&f, PD_FEAT_TOTAL_MEM, &s, err);
	is_int(f.total_mem_kb, 123456789, "total_mem");
	s.n = 0;
	bb_u64(&s, 1000);
	bb_u64(&s, 2000);
	parse_bb(&f, PD_FEAT_SAMPLE_TIME, &s, err);
	ok(f.first_sample_time == 1000 && f.last_sample_time == 2000, "sample_time");
	s.n = 0;
	bb_u64(&s, 1);
	parse_bb(&f, PD_FEAT_CLOCKID, &s, err);
	is_int(f.clockid_res_ns, 1, "clockid resolution");
	s = (struct bb){ .be = true };
	bb_u32(&s, 1);
	bb_u32(&s, 4);
	bb_u64(&s, 1700000000123456789ULL);
	bb_u64(&s, 987654321);
	is_int(parse_bb(&f, PD_FEAT_CLOCK_DATA, &s, err), 0, "clock_data (big-endian)");
	ok(f.clock_data.version == 1 && f.clock_data.clockid == 4 &&
	   f.clock_data.wall_clock_ns == 1700000000123456789ULL &&
	   f.clock_data.clockid_time_ns == 987654321, "clock_data fields");
	s = (struct bb){ .n = 0 };
	for (int i = 1; i <= 5; i++)
		bb_u32(&s, (uint32_t)i);
	parse_bb(&f, PD_FEAT_COMPRESSED, &s, err);
	ok(f.compressed.version == 1 && f.compressed.type == 2 && f.compressed.level == 3 &&
	   f.compressed.ratio == 4 && f.compressed.mmap_len == 5, "compressed fields");
	is_int(parse_exact(&f, PD_FEAT_COMPRESSED, s.b, 19, false, err, sizeof(err)), -1,
	       "compressed cut short fails");
	ok(has_words(err, "compressed", "offset 16", NULL), "message: %s", err);
	pd_features_free(&f);
}

static void test_cmdline(void)
{
	struct pd_features f;
	char err[256];
	struct bb s = { .n = 0 };

	pd_features_init(&f);
	bb_u32(&s, 3);
	bb_pstr(&s, "/usr/bin/perf");
	bb_pstr(&s, "record");
	bb_pstr(&s, "-a");
	is_int(parse_bb(&f, PD_FEAT_CMDLINE, &s, err), 0, "cmdline parses");
	is_str(f.cmdline, "/usr/bin/perf record -a", "cmdline joined with spaces");
	ok(f.argc == 3 && !strcmp(f.argv[1], "record"), "argv kept");
	s.n = 0;
	bb_u32(&s, 0);
	parse_bb(&f, PD_FEAT_CMDLINE, &s, err);
	ok(f.argc == 0 && f.cmdline && !f.cmdline[0], "argc 0 gives empty cmdline");
	s.n = 0;
	bb_u32(&s, 0xffffffffu);
	bb_u32(&s, 0);
	is_int(parse_bb(&f, PD_FEAT_CMDLINE, &s, err), -1, "argc 4294967295 rejected");
	ok(has_words(err, "cmdline", "4294967295", "offset 0", NULL), "message: %s", err);
	pd_features_free(&f);
}

/* event_bb: an EVENT_DESC section with two events in s's byte order. */
static void event_bb(struct bb *s, uint32_t attr_sz)
{
	uint8_t zero[256] = { 0 };

	bb_u32(s, 2);
	bb_u32(s, attr_sz);
	for (uint32_t e = 0; e < 2; e++) {
		bb_u32(s, e ? 2 : 0);		/* type */
		bb_u32(s, attr_sz - 8 * e);	/* attr.size */
		bb_u64(s, e ? 0x13d : 0);	/* config */
		bb_bytes(s, zero, attr_sz - 16);
		bb_u32(s, e + 1);		/* nr_ids */
		bb_pstr(s, e ? "sched:sched_switch" : "cycles");
		for (uint32_t i = 0; i <= e; i++)
			bb_u64(s, 100 + i);
	}
}

static void test_event_desc(void)
{
	struct pd_features f;
	char err[256];
	struct bb s = { .be = true };

	pd_features_init(&f);
	event_bb(&s, 136);
	is_int(parse_bb(&f, PD_FEAT_EVENT_DESC, &s, err), 0, "event_desc (big-endian, attr 136)");
	if (ok(f.nr_events == 2, "two events")) {
		struct pd_event_desc *e = &f.events[1];

		is_str(f.events[0].name, "cycles", "event 0 name");
		is_str(e->name, "sched:sched_switch", "event 1 name");
		ok(e->type == 2 && e->config == 0x13d && e->attr_size == 128, "event 1 attr fields");
		ok(e->nr_ids == 2 && e->ids[0] == 100 && e->ids[1] == 101, "event 1 ids");
	}
	s = (struct bb){ .n = 0 };
	bb_u32(&s, 0xffffffffu);
	bb_u32(&s, 128);
	is_int(parse_bb(&f, PD_FEAT_EVENT_DESC, &s, err), -1, "4294967295 events rejected");
	ok(has_words(err, "event_desc", "offset 0", NULL), "message: %s", err);
	s.n = 0;
	bb_u32(&s, 1);
	bb_u32(&s, 8);
	bb_bytes(&s, "12345678", 8);
	is_int(parse_bb(&f, PD_FEAT_EVENT_DESC, &s, err), -1, "attr size 8 rejected");
	ok(has_words(err, "event_desc", "offset 4", NULL), "message: %s", err);
	is_int(f.nr_events, 2, "failed parses keep the earlier events");
	pd_features_free(&f);
}

/* topo_bb: CPU_TOPOLOGY for 2 CPUs, with `tails` optional parts (0-2). */
static void topo_bb(struct bb *s, int tails)
{
	bb_u32(s, 1);
	bb_pstr(s, "0-1");
	bb_u32(s, 2);
	bb_pstr(s, "0");
	bb_pstr(s, "1");
	if (tails < 1)
		return;
	bb_u32(s, 0); bb_u32(s, 0);	/* cpu0: core 0, socket 0 */
	bb_u32(s, 1); bb_u32(s, 0);	/* cpu1: core 1, socket 0 */
	if (tails < 2)
		return;
	bb_u32(s, 1);
	bb_pstr(s, "0-1");
	bb_u32(s, 0);
	bb_u32(s, 7);
}

static void test_cpu_topology(void)
{
	struct pd_features f;
	char err[256];
	struct bb s = { .n = 0 };

	pd_features_init(&f);
	topo_bb(&s, 2);
	is_int(parse_bb(&f, PD_FEAT_CPU_TOPOLOGY, &s, err), 0, "topology without NRCPUS parses");
	ok(f.nr_core_siblings == 1 && f.nr_thread_siblings == 2 && f.cpus == NULL,
	   "lists kept, per-CPU part skipped without nr_cpus_avail");
	f.nr_cpus_avail = 2;
	for (int tails = 0; tails <= 2; tails++) {
		s.n = 0;
		topo_bb(&s, tails);
		is_int(parse_bb(&f, PD_FEAT_CPU_TOPOLOGY, &s, err), 0, "topology with %d tails", tails);
		ok((f.cpus != NULL) == (tails >= 1) && f.has_die_ids == (tails == 2),
		   "per-CPU ids iff present (%d)", tails);
	}
	is_str(f.thread_siblings[1], "1", "thread siblings");
	ok(f.nr_cpus == 2 && f.cpus[1].core_id == 1 && f.cpus[1].die_id == 7 &&
	   f.nr_die_siblings == 1, "core, die ids");
	s.n = 0;
	topo_bb(&s, 2);
	is_int(parse_exact(&f, PD_FEAT_CPU_TOPOLOGY, s.b, s.n - 2, false, err, sizeof(err)), -1,
	       "cut into the die ids fails");
	ok(has_words(err, "cpu_topology", "die ids", NULL), "message: %s", err);
	s.n = 0;
	topo_bb(&s, 1);
	is_int(parse_exact(&f, PD_FEAT_CPU_TOPOLOGY, s.b, s.n - 4, false, err, sizeof(err)), -1,
	       "cut into the core ids fails");
	pd_features_free(&f);
}

/* bid_bb: one build-id record: pid, id bytes (n of them), name. */
static void bid_bb(struct bb *s, uint16_t misc, int32_t pid, int n, const char *name)
{
	uint8_t id[24] = { 0 };
	size_t nl = (strlen(name) + 1 + 7) / 8 * 8;
	uint8_t pad[64] = { 0 };

	for (int i = 0; i < n; i++)
		id[i] = (uint8_t)(0xa0 + i);
	if (misc & PD_BUILD_ID_MISC_SIZE)
		id[20] = (uint8_t)n;
	bb_u32(s, 67);
	bb_u16(s, misc);
	bb_u16(s, (uint16_t)(36 + nl));
	bb_u32(s, (uint32_t)pid);
	bb_bytes(s, id, 24);
	bb_bytes(s, name, strlen(name));
	bb_bytes(s, pad, nl - strlen(name));
}

static void test_build_id(void)
{
	struct pd_features f;
	char err[256];
	struct bb s = { .n = 0 };

	pd_features_init(&f);
	bid_bb(&s, 1, -1, 20, "[kernel.kallsyms]");
	bid_bb(&s, 2 | PD_BUILD_ID_MISC_SIZE, 1234, 16, "/lib/libc.so.6");
	is_int(parse_bb(&f, PD_FEAT_BUILD_ID, &s, err), 0, "build ids parse");
	if (ok(f.nr_build_ids == 2, "two build ids")) {
		is_str(f.build_ids[0].hex, "a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3", "20-byte id");
		is_str(f.build_ids[1].hex, "a0a1a2a3a4a5a6a7a8a9aaabacadaeaf", "16-byte id (MISC_SIZE)");
		is_str(f.build_ids[1].filename, "/lib/libc.so.6", "filename");
		ok(f.build_ids[0].pid == -1 && f.build_ids[1].pid == 1234, "pids");
	}
	/* old layout (no pid): header, 24 id bytes, name at 32 */
	s.n = 0;
	bb_u32(&s, 67); bb_u16(&s, 1); bb_u16(&s, 32 + 24);
	bb_bytes(&s, "\x11\x22\x33\x44\x55\x66\x77\x88\x99\x00\x11\x22\x33\x44\x55\x66\x77\x88\x99\x00\0\0\0\0", 24);
	bb_bytes(&s, "[kernel.kallsyms]\0\0\0\0\0\0\0", 24);
	is_int(parse_bb(&f, PD_FEAT_BUILD_ID, &s, err), 0, "old build-id layout parses");
	ok(f.nr_build_ids == 1 && !strcmp(f.build_ids[0].filename, "[kernel.kallsyms]") &&
	   f.build_ids[0].pid == -1 && !strncmp(f.build_ids[0].hex, "1122334455", 10),
	   "old layout: kernel name, host pid");
	s.n = 0;
	bb_u32(&s, 67); bb_u16(&s, 1); bb_u16(&s, 0);
	is_int(parse_bb(&f, PD_FEAT_BUILD_ID, &s, err), -1, "record size 0 rejected");
	ok(has_words(err, "build_id", "offset 0", NULL), "message: %s", err);
	s.n = 0;
	bid_bb(&s, 1, -1, 20, "[kernel.kallsyms]");	/* 60 bytes */
	bid_bb(&s, 1, -1, 20, "/bin/true");
	s.b[60 + 6] = 20;	/* the second record claims 20 bytes (little-endian) */
	is_int(parse_bb(&f, PD_FEAT_BUILD_ID, &s, err), -1, "record size 20 (< 36) rejected");
	ok(has_words(err, "build_id", "below 36", "offset 60", NULL), "message: %s", err);
	s.n = 0;
	bid_bb(&s, 1 | PD_BUILD_ID_MISC_SIZE, -1, 20, "x");
	s.b[8 + 4 + 20] = 21;
	is_int(parse_bb(&f, PD_FEAT_BUILD_ID, &s, err), -1, "build-id length 21 rejected");
	ok(has_words(err, "build_id", "offset 32", NULL), "message: %s", err);
	pd_features_free(&f);
}

static void test_lists(void)
{
	struct pd_features f;
	char err[256];
	struct bb s = { .n = 0 };

	pd_features_init(&f);
	bb_u32(&s, 2);
	bb_u32(&s, 0); bb_u64(&s, 1000); bb_u64(&s, 500); bb_pstr(&s, "0-3");
	bb_u32(&s, 1); bb_u64(&s, 2000); bb_u64(&s, 700); bb_pstr(&s, "4-7");
	is_int(parse_bb(&f, PD_FEAT_NUMA_TOPOLOGY, &s, err), 0, "numa parses");
	ok(f.nr_numa_nodes == 2 && f.numa_nodes[1].mem_total == 2000 &&
	   f.numa_nodes[1].mem_free == 700 && !strcmp(f.numa_nodes[1].cpus, "4-7"), "numa node 1");
	s.n = 0;
	bb_u32(&s, 2);
	bb_u32(&s, 4); bb_pstr(&s, "cpu");
	bb_u32(&s, 11); bb_pstr(&s, "ibs_op");
	is_int(parse_bb(&f, PD_FEAT_PMU_MAPPINGS, &s, err), 0, "pmu mappings parse");
	ok(f.nr_pmus == 2 && f.pmus[1].type == 11 && !strcmp(f.pmus[1].name, "ibs_op"), "ibs_op = 11");
	s.n = 0;
	bb_u32(&s, 100000);
	bb_u32(&s, 4);
	is_int(parse_bb(&f, PD_FEAT_NUMA_TOPOLOGY, &s, err), -1, "100000 nodes in 8 bytes rejected");
	ok(has_words(err, "numa_topology", "offset 0", NULL), "message: %s", err);
	pd_features_free(&f);
}

/* ---- perf.data files ---- */

/* One feature section of a file. */
struct section {
	int id;
	uint64_t off, size;
};

/* A perf.data file in memory with its feature sections located. */
struct pdfile {
	uint8_t *buf;
	size_t len;
	bool swap, pipe;
	int nsec;
	struct section sec[PD_FEAT_BITS];
};

/* read_all: the whole file into *buf, its size into *len; false when
 * unreadable. */
static bool read_all(const char *path, uint8_t **buf, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	long n;

	*buf = NULL;
	if (!fp)
		return false;
	if (fseek(fp, 0, SEEK_END) || (n = ftell(fp)) < 0 || fseek(fp, 0, SEEK_SET) ||
	    !(*buf = malloc(n ? (size_t)n : 1)) || fread(*buf, 1, (size_t)n, fp) != (size_t)n) {
		fclose(fp);
		free(*buf);
		*buf = NULL;
		return false;
	}
	fclose(fp);
	*len = (size_t)n;
	return true;
}

/* pdfile_magic: sets byte order from the magic ("PERFILE2" as a u64, or
 * v1 "PERFFILE" whose order shows in the header size); false if neither. */
static bool pdfile_magic(struct pdfile *pf)
{
	const uint64_t magic2 = 0x32454c4946524550ULL;
	uint64_t m = rd64(pf->buf, false);

	if (m == magic2 || m == __builtin_bswap64(magic2))
		pf->swap = m != magic2;
	else if (!memcmp(pf->buf, "PERFFILE", 8))
		pf->swap = rd64(pf->buf + 8, false) > 0xffffffffu;
	else
		return false;
	pf->pipe = rd64(pf->buf + 8, pf->swap) == 16;
	return true;
}

/* pdfile_sections: the feature index at data.offset + data.size: one
 * {offset, size} per set bit of the bitmap at 72, in bit order. */
static const char *pdfile_sections(struct pdfile *pf)
{
	uint64_t table = rd64(pf->buf + 40, pf->swap) + rd64(pf->buf + 48, pf->swap);

	for (int bit = 0; bit < PD_FEAT_BITS; bit++)
		if ((rd64(pf->buf + 72 + 8 * (bit / 64), pf->swap) >> (bit % 64)) & 1)
			pf->sec[pf->nsec++].id = bit;
	if (table > pf->len || (pf->len - table) / 16 < (uint64_t)pf->nsec)
		return "feature index outside the file";
	for (int k = 0; k < pf->nsec; k++) {
		struct section *s = &pf->sec[k];

		s->off = rd64(pf->buf + table + 16 * k, pf->swap);
		s->size = rd64(pf->buf + table + 16 * k + 8, pf->swap);
		if (s->off > pf->len || s->size > pf->len - s->off)
			return "feature section outside the file";
	}
	return NULL;
}

/* pdfile_load: reads path; NULL on success, else why not. */
static const char *pdfile_load(struct pdfile *pf, const char *path)
{
	memset(pf, 0, sizeof(*pf));
	if (!read_all(path, &pf->buf, &pf->len))
		return "unreadable";
	if (pf->len < 16 || !pdfile_magic(pf))
		return "no perf.data magic";
	if (pf->pipe)
		return NULL;
	if (pf->len < 104)
		return "header cut short";
	return pdfile_sections(pf);
}

/* pdfile_parse: hands every section to pd_feature_parse; returns the
 * number that failed, the first one's message in err. */
static int pdfile_parse(const struct pdfile *pf, struct pd_features *f, char *err, size_t n)
{
	char e[256];
	int bad = 0;

	err[0] = '\0';
	for (int k = 0; k < pf->nsec; k++) {
		const struct section *s = &pf->sec[k];

		if (pd_feature_parse(f, s->id, pf->buf + s->off, s->size, pf->swap, e, sizeof(e)))
			if (!bad++)
				snprintf(err, n, "%s", e);
	}
	return bad;
}

/* ---- perf's own view of a file ---- */

/* A list of output lines. */
struct lines {
	char **v;
	int n, cap;
};

/* lines_add: appends a copy of s (without its newline). */
static void lines_add(struct lines *l, const char *s)
{
	size_t n = strcspn(s, "\n");

	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 64;
		l->v = realloc(l->v, (size_t)l->cap * sizeof(char *));
	}
	l->v[l->n] = malloc(n + 1);
	memcpy(l->v[l->n], s, n);
	l->v[l->n++][n] = '\0';
}

/* lines_addf: lines_add of a formatted line. */
__attribute__((format(printf, 2, 3)))
static void lines_addf(struct lines *l, const char *fmt, ...)
{
	char buf[8192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	lines_add(l, buf);
}

static void lines_free(struct lines *l)
{
	for (int i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

/* run_perf: the stdout lines of `perf ARGS 'path'`; empty when perf is
 * missing or refuses the file. */
static void run_perf(struct lines *l, const char *args, const char *path)
{
	char cmd[4096], line[65536];
	FILE *p;

	memset(l, 0, sizeof(*l));
	if (strchr(path, '\''))
		return;
	snprintf(cmd, sizeof(cmd), "perf %s '%s' 2>/dev/null", args, path);
	if (!(p = popen(cmd, "r")))
		return;
	while (fgets(line, sizeof(line), p))
		lines_add(l, line);
	pclose(p);
}

/* render_strings: the simple "# name : value" lines of perf report. */
static void render_strings(const struct pd_features *f, struct lines *o)
{
	if (f->hostname) lines_addf(o, "# hostname : %s", f->hostname);
	if (f->osrelease) lines_addf(o, "# os release : %s", f->osrelease);
	if (f->version) lines_addf(o, "# perf version : %s", f->version);
	if (f->arch) lines_addf(o, "# arch : %s", f->arch);
	if (pd_feature_has(f, PD_FEAT_NRCPUS)) {
		lines_addf(o, "# nrcpus online : %u", f->nr_cpus_online);
		lines_addf(o, "# nrcpus avail : %u", f->nr_cpus_avail);
	}
	if (f->cpudesc) lines_addf(o, "# cpudesc : %s", f->cpudesc);
	if (f->cpuid) lines_addf(o, "# cpuid : %s", f->cpuid);
	if (pd_feature_has(f, PD_FEAT_TOTAL_MEM))
		lines_addf(o, "# total memory : %llu kB", (unsigned long long)f->total_mem_kb);
	if (pd_feature_has(f, PD_FEAT_COMPRESSED))
		lines_addf(o, "# compressed : %s, level = %u, ratio = %u",
			   f->compressed.type == 1 ? "Zstd" : "Unknown",
			   f->compressed.level, f->compressed.ratio);
}

/* render_cmdline: "# cmdline : " with each argument and a space after
 * it, single quotes written as \' (as perf prints them). */
static void render_cmdline(const struct pd_features *f, struct lines *o)
{
	char buf[8192];
	size_t n = 0;

	if (!f->cmdline)
		return;
	n += (size_t)snprintf(buf, sizeof(buf), "# cmdline : ");
	for (uint32_t i = 0; i < f->argc; i++) {
		for (const char *c = f->argv[i]; *c && n + 3 < sizeof(buf); c++) {
			if (*c == '\'')
				buf[n++] = '\\';
			buf[n++] = *c;
		}
		if (n + 2 < sizeof(buf))
			buf[n++] = ' ';
	}
	buf[n] = '\0';
	lines_add(o, buf);
}

/* render_events: the start of each "# event :" line: name, ids, and the
 * type, size and config fields (perf omits those that are 0). */
static void render_events(const struct pd_features *f, struct lines *o)
{
	for (uint32_t i = 0; i < f->nr_events; i++) {
		const struct pd_event_desc *e = &f->events[i];
		char buf[8192];
		size_t n = (size_t)snprintf(buf, sizeof(buf), "# event : name = %s, ", e->name);

		for (uint32_t j = 0; j < e->nr_ids && n < sizeof(buf) - 64; j++)
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s %llu", j ? "," : ", id = {",
					      (unsigned long long)e->ids[j]);
		if (e->nr_ids)
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, " }");
		if (e->type)
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, ", type = %u", e->type);
		if (e->attr_size)
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, ", size = %u", e->attr_size);
		if (e->config)
			snprintf(buf + n, sizeof(buf) - n, ", config = %#llx",
				 (unsigned long long)e->config);
		lines_add(o, buf);
	}
}

/* perf_sees_cpu_ids: perf (6.1 and later) decides whether per-CPU ids
 * follow the sibling lists by assuming every string is padded to 64
 * bytes; files whose strings are padded less (perf 5.17 from Google pads
 * to 8) have the ids, but perf says they are not available. */
static bool perf_sees_cpu_ids(const struct pd_features *f, uint64_t topo_size)
{
	uint64_t assumed = 8;

	for (uint32_t i = 0; i < f->nr_core_siblings; i++)
		assumed += (strlen(f->core_siblings[i]) + 1 + 63) / 64 * 64 + 4;
	for (uint32_t i = 0; i < f->nr_thread_siblings; i++)
		assumed += (strlen(f->thread_siblings[i]) + 1 + 63) / 64 * 64 + 4;
	return topo_size > assumed;
}

/* render_topology: perf report -I's CPU_TOPOLOGY lines, for a section of
 * topo_size bytes. */
static void render_topology(const struct pd_features *f, uint64_t topo_size, struct lines *o)
{
	uint32_t i;
	bool cpus = f->cpus && perf_sees_cpu_ids(f, topo_size);

	if (!pd_feature_has(f, PD_FEAT_CPU_TOPOLOGY))
		return;
	for (i = 0; i < f->nr_core_siblings; i++)
		lines_addf(o, "# sibling sockets : %s", f->core_siblings[i]);
	for (i = 0; i < f->nr_die_siblings; i++)
		lines_addf(o, "# sibling dies    : %s", f->die_siblings[i]);
	for (i = 0; i < f->nr_thread_siblings; i++)
		lines_addf(o, "# sibling threads : %s", f->thread_siblings[i]);
	if (!cpus)
		lines_addf(o, "# Core ID %sand Socket ID information is not available",
			   f->nr_die_siblings ? "Die ID " : "");
	for (i = 0; cpus && i < f->nr_cpus; i++)
		if (f->nr_die_siblings)
			lines_addf(o, "# CPU %u: Core ID %d, Die ID %d, Socket ID %d", i,
				   (int)f->cpus[i].core_id, (int)f->cpus[i].die_id,
				   (int)f->cpus[i].socket_id);
		else
			lines_addf(o, "# CPU %u: Core ID %d, Socket ID %d", i,
				   (int)f->cpus[i].core_id, (int)f->cpus[i].socket_id);
}

/* render_rest: NUMA nodes, PMU mappings and sample times. */
static void render_rest(const struct pd_features *f, struct lines *o)
{
	char buf[16384];
	size_t n = 0;

	for (uint32_t i = 0; i < f->nr_numa_nodes; i++) {
		const struct pd_numa_node *nd = &f->numa_nodes[i];

		lines_addf(o, "# node%u meminfo  : total = %llu kB, free = %llu kB", nd->node,
			   (unsigned long long)nd->mem_total, (unsigned long long)nd->mem_free);
		lines_addf(o, "# node%u cpu list : %s", nd->node, nd->cpus);
	}
	for (uint32_t i = 0; i < f->nr_pmus && n < sizeof(buf) - 300; i++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s = %u",
				      i ? ", " : "# pmu mappings: ", f->pmus[i].name, f->pmus[i].type);
	if (f->nr_pmus)
		lines_add(o, buf);
	if (pd_feature_has(f, PD_FEAT_SAMPLE_TIME)) {
		lines_addf(o, "# time of first sample : %llu.%06llu",
			   (unsigned long long)(f->first_sample_time / 1000000000),
			   (unsigned long long)(f->first_sample_time % 1000000000 / 1000));
		lines_addf(o, "# time of last sample : %llu.%06llu",
			   (unsigned long long)(f->last_sample_time / 1000000000),
			   (unsigned long long)(f->last_sample_time % 1000000000 / 1000));
	}
}

/* in_kind: whether line s belongs to the category `prefix`. */
static bool in_kind(const char *s, const char *prefix)
{
	if (strncmp(s, prefix, strlen(prefix)))
		return false;
	/* "# CPU 3: ..." but not "# CPU cache info:" */
	return strcmp(prefix, "# CPU ") || isdigit((unsigned char)s[6]);
}

/* same_kind: compares the lines of one category, ours against perf's;
 * `prefix_only` lets perf's lines go on after ours end. */
static void same_kind(const struct lines *perf, const struct lines *ours,
		      const char *prefix, bool prefix_only, const char *tag)
{
	int i = 0, j = 0, n = 0;
	const char *bad_p = NULL, *bad_o = NULL;

	for (;;) {
		while (i < perf->n && !in_kind(perf->v[i], prefix)) i++;
		while (j < ours->n && !in_kind(ours->v[j], prefix)) j++;
		if (i >= perf->n || j >= ours->n)
			break;
		if (prefix_only ? strncmp(perf->v[i], ours->v[j], strlen(ours->v[j]))
				: strcmp(perf->v[i], ours->v[j])) {
			bad_p = perf->v[i], bad_o = ours->v[j];
			break;
		}
		i++, j++, n++;
	}
	if (!bad_p && (i < perf->n || j < ours->n))
		bad_p = i < perf->n ? perf->v[i] : "(none)", bad_o = j < ours->n ? ours->v[j] : "(none)";
	if (!n && !bad_p)
		return;	/* the file has none of these */
	if (!ok(!bad_p, "%s: '%s' lines agree with perf report (%d)", tag, prefix, n))
		printf("#   perf: %.300s\n#   ours: %.300s\n", bad_p, bad_o);
}

/* topo_size: the size of pf's CPU_TOPOLOGY section, or 0. */
static uint64_t topo_size(const struct pdfile *pf)
{
	for (int k = 0; k < pf->nsec; k++)
		if (pf->sec[k].id == PD_FEAT_CPU_TOPOLOGY)
			return pf->sec[k].size;
	return 0;
}

/* compare_with_perf: every feature perf report -I prints and we decode. */
static void compare_with_perf(const struct pdfile *pf, const char *path,
			      const struct pd_features *f, const char *tag)
{
	static const char *const kinds[] = {
		"# hostname : ", "# os release : ", "# perf version : ", "# arch : ",
		"# nrcpus online : ", "# nrcpus avail : ", "# cpudesc : ", "# cpuid : ",
		"# total memory : ", "# cmdline : ", "# sibling ", "# CPU ", "# Core ID",
		"# node", "# pmu mappings: ", "# compressed : ", "# time of ",
	};
	struct lines perf, ours = { 0 };
	bool readable = false;

	run_perf(&perf, "report --header-only -I -i", path);
	for (int i = 0; i < perf.n; i++)
		readable |= in_kind(perf.v[i], "# missing features:");
	if (!readable) {
		skip("%s: perf report cannot read it", tag);
		lines_free(&perf);
		return;
	}
	render_strings(f, &ours);
	render_cmdline(f, &ours);
	render_events(f, &ours);
	render_topology(f, topo_size(pf), &ours);
	render_rest(f, &ours);
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
		same_kind(&perf, &ours, kinds[k], false, tag);
	same_kind(&perf, &ours, "# event : ", true, tag);
	lines_free(&perf);
	lines_free(&ours);
}

/* compare_build_ids: each "HEX NAME" line of perf buildid-list (but
 * blank ids, which perf fills in from elsewhere) is one of ours. */
static void compare_build_ids(const char *path, const struct pd_features *f, const char *tag)
{
	struct lines perf;
	int want = 0, found = 0;
	const char *missing = NULL;

	run_perf(&perf, "buildid-list -i", path);
	for (int i = 0; i < perf.n; i++) {
		const char *sp = strchr(perf.v[i], ' ');
		bool hit = false;

		if (!sp || sp == perf.v[i] || !isxdigit((unsigned char)perf.v[i][0]))
			continue;
		want++;
		for (uint32_t j = 0; j < f->nr_build_ids && !hit; j++)
			hit = strlen(f->build_ids[j].hex) == (size_t)(sp - perf.v[i]) &&
			      !strncmp(f->build_ids[j].hex, perf.v[i], (size_t)(sp - perf.v[i])) &&
			      !strcmp(f->build_ids[j].filename, sp + 1);
		found += hit;
		if (!hit && !missing)
			missing = perf.v[i];
	}
	if (want && !ok(found == want, "%s: all %d build ids of perf buildid-list found", tag, want))
		printf("#   missing: %s\n", missing);
	lines_free(&perf);
}

/* ---- fuzzing ---- */

/* touch_all: reads every string and array of f, so that a missing NUL or
 * a wrong count shows up under AddressSanitizer or valgrind. */
static size_t touch_all(const struct pd_features *f)
{
	size_t n = 0;

	n += f->hostname ? strlen(f->hostname) : 0;
	n += f->cmdline ? strlen(f->cmdline) : 0;
	for (uint32_t i = 0; i < f->nr_events; i++)
		n += strlen(f->events[i].name) + (f->events[i].nr_ids ?
						  f->events[i].ids[f->events[i].nr_ids - 1] : 0);
	for (uint32_t i = 0; i < f->nr_thread_siblings; i++)
		n += strlen(f->thread_siblings[i]);
	for (uint32_t i = 0; i < f->nr_cpus; i++)
		n += f->cpus[i].die_id;
	for (uint32_t i = 0; i < f->nr_build_ids; i++)
		n += strlen(f->build_ids[i].filename) + strlen(f->build_ids[i].hex);
	for (uint32_t i = 0; i < f->nr_pmus; i++)
		n += strlen(f->pmus[i].name);
	for (uint32_t i = 0; i < f->nr_numa_nodes; i++)
		n += strlen(f->numa_nodes[i].cpus);
	return n;
}

/* Fuzz tallies for one file. */
struct fuzz {
	long runs, rejected, bad_msg, bad_rc, accepted_cut;
	char first[320];
};

/* fuzz_one: parses buf/len as feature id into a fresh set (with NRCPUS
 * from the real file, as in a real read) and checks the outcome. */
static int fuzz_one(struct fuzz *z, int id, const uint8_t *buf, size_t len, bool swap,
		    uint32_t nr_cpus)
{
	struct pd_features f;
	char err[256];
	const char *name = pd_feature_name(id);
	int rc;

	pd_features_init(&f);
	f.nr_cpus_avail = nr_cpus;
	rc = parse_exact(&f, id, buf, len, swap, err, sizeof(err));
	z->runs++;
	touch_all(&f);
	pd_features_free(&f);
	if (rc == -1) {
		z->rejected++;
		if (strncmp(err, name, strlen(name)) || !strstr(err, " at offset ") || strchr(err, '\n'))
			if (!z->bad_msg++)
				snprintf(z->first, sizeof(z->first), "bad message: %s", err);
	} else if (rc != 0 && !z->bad_rc++) {
		snprintf(z->first, sizeof(z->first), "%s returned %d", name, rc);
	}
	return rc;
}

/* decoded: whether features.c decodes feature id (others return 0). */
static bool decoded(int id)
{
	return id >= PD_FEAT_BUILD_ID && id <= PD_FEAT_CLOCK_DATA &&
	       id != PD_FEAT_BRANCH_STACK && id != PD_FEAT_GROUP_DESC && id != PD_FEAT_AUXTRACE &&
	       id != PD_FEAT_STAT && id != PD_FEAT_CACHE && id != PD_FEAT_MEM_TOPOLOGY &&
	       id != PD_FEAT_DIR_FORMAT && id != PD_FEAT_BPF_PROG_INFO && id != PD_FEAT_BPF_BTF &&
	       id != PD_FEAT_CPU_PMU_CAPS;
}

/* strict: decoded features with no optional part: every strict prefix of
 * the section must be rejected. */
static bool strict(int id)
{
	return decoded(id) && id != PD_FEAT_BUILD_ID && id != PD_FEAT_CPU_TOPOLOGY;
}

/* fuzz_section: every truncation, and every byte set to a few values. */
static void fuzz_section(struct fuzz *z, int id, const uint8_t *sec, size_t size, bool swap,
			 uint32_t nr_cpus)
{
	static const uint8_t vals[] = { 0x00, 0xff, 0x7f, 0x80, 0x10 };
	uint8_t *copy = malloc(size ? size : 1);

	for (size_t len = 0; len < size; len++)
		if (fuzz_one(z, id, sec, len, swap, nr_cpus) == 0 && strict(id) && !z->accepted_cut++)
			snprintf(z->first, sizeof(z->first), "%s accepted a cut to %zu of %zu bytes",
				 pd_feature_name(id), len, size);
	memcpy(copy, sec, size);
	for (size_t i = 0; i < size; i++) {
		for (size_t v = 0; v <= sizeof(vals); v++) {
			copy[i] = v < sizeof(vals) ? vals[v] : (uint8_t)(sec[i] ^ 1);
			fuzz_one(z, id, copy, size, swap, nr_cpus);
		}
		copy[i] = sec[i];
	}
	fuzz_one(z, id, sec, size, !swap, nr_cpus);	/* the wrong byte order */
	free(copy);
}

/* fuzz_file: fuzz_section over every decoded section of pf. */
static void fuzz_file(const struct pdfile *pf, const struct pd_features *f, const char *tag)
{
	struct fuzz z = { 0 };
	bool ok_all;

	for (int k = 0; k < pf->nsec; k++) {
		const struct section *s = &pf->sec[k];

		if (decoded(s->id))
			fuzz_section(&z, s->id, pf->buf + s->off, s->size, pf->swap, f->nr_cpus_avail);
	}
	ok_all = !z.bad_msg && !z.bad_rc && !z.accepted_cut;
	if (!ok(ok_all && z.rejected, "%s: %ld cut/flipped sections, %ld rejected, each with a message",
		tag, z.runs, z.rejected))
		printf("#   %s\n", z.first);
}

/* ---- real files ---- */

/* Values from ../shared/perfdata/SOURCES.md. */
static const struct known {
	const char *file, *osrelease, *version, *arch;
	uint32_t nr_events;
} known[] = {
	{ "armv7l-perf3.4-hw-6events.data", "3.4.0", "3.4.2842.g784f12", "armv7l", 6 },
	{ "i686-perf3.2-PERFFILE-v1-cycles.data", "3.2.6-3.fc16.i686", "3.2.6-3.fc16.i686", "i686", 1 },
	{ "x86_64-perf3.4-cycles-callchain-branchstack.data", "3.4.0", "3.4.2642.g0aa604", "x86_64", 1 },
	{ "x86_64-perf4.4-mem-loads-datasrc.data", "4.4.0-104-generic", "4.4.98", "x86_64", 1 },
	{ "x86_64-perf4.9-uprobe-tracepoint.data", "4.9.0-3-amd64", "4.9.30", "x86_64", 1 },
	{ "x86_64-perf5.17-pebs-ldlat-weight_struct.data", "4.15.0-smp-923.44.0.0",
	  "5.17.0-3-GOOGLE-g92ebf5f91b4d", "x86_64", 2 },
	{ "x86_64-perf5.18-zstd-dwarf-cycles-sched_switch.data", "5.18.1-arch1-1",
	  "5.18.g4b0986a3613c", "x86_64", 2 },
	{ "x86_64-perf6.8-c2c-amd_ibs_op-datasrc.data", "6.8.0-124-generic", "6.8.12", "x86_64", 0 },
};

/* check_known: the SOURCES.md facts for the files it lists. */
static void check_known(const char *name, const struct pd_features *f)
{
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		const struct known *k = &known[i];

		if (strcmp(name, k->file))
			continue;
		is_str(f->osrelease, k->osrelease, "%s: os release", name);
		is_str(f->version, k->version, "%s: perf version", name);
		is_str(f->arch, k->arch, "%s: arch", name);
		if (k->nr_events)
			is_int(f->nr_events, k->nr_events, "%s: events", name);
	}
}

/* check_special: facts perf 6.1 cannot show (the 6.8 file) or that
 * SOURCES.md states beyond the header strings. */
static void check_special(const char *name, const struct pd_features *f)
{
	if (strstr(name, "perf6.8-c2c")) {
		ok(f->nr_events >= 1 && f->events[0].type == 11 && f->events[0].config == 0 &&
		   f->events[0].attr_size == 136, "%s: ibs_op event, type 11, attr.size 136", name);
		ok(f->cpudesc && strstr(f->cpudesc, "AMD EPYC 9254"), "%s: cpudesc", name);
		bool ibs = false;
		for (uint32_t i = 0; i < f->nr_pmus; i++)
			ibs |= f->pmus[i].type == 11 && !strcmp(f->pmus[i].name, "ibs_op");
		ok(ibs, "%s: pmu ibs_op = 11", name);
	}
	if (strstr(name, "perf5.18-zstd"))
		ok(f->compressed.type == 1 && f->compressed.level == 1, "%s: zstd level 1", name);
	if (strstr(name, "perf4.4-mem"))
		is_int(f->nr_numa_nodes, 4, "%s: 4 NUMA nodes", name);
	if (strstr(name, "perf5.17-pebs"))	/* sockets 0-27,56-83 and 28-55,84-111 */
		ok(f->nr_cpus == 112 && f->cpus[28].socket_id == 1 && f->cpus[83].socket_id == 0 &&
		   f->cpus[111].core_id == 30 && f->cpus[111].socket_id == 1,
		   "%s: per-CPU ids that perf 6.1 misses", name);
}

/* check_file: one file-mode file: parse, compare, fuzz. */
static void check_file(const char *path, const char *name)
{
	struct pdfile pf;
	struct pd_features f;
	char err[256];
	const char *why = pdfile_load(&pf, path);

	if (why || pf.pipe) {
		if (why)
			ok(0, "%s: %s", name, why);
		else
			skip("%s: pipe mode, no feature sections", name);
		free(pf.buf);
		return;
	}
	pd_features_init(&f);
	if (!ok(pdfile_parse(&pf, &f, err, sizeof(err)) == 0, "%s: %d sections parse", name, pf.nsec))
		printf("#   %s\n", err);
	ok(f.hostname && f.osrelease && f.nr_events, "%s: hostname, os release, events", name);
	check_known(name, &f);
	check_special(name, &f);
	compare_with_perf(&pf, path, &f, name);
	compare_build_ids(path, &f, name);
	fuzz_file(&pf, &f, name);
	pd_features_free(&f);
	free(pf.buf);
}

/* by_name: qsort comparator for file names. */
static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* test_shared: every *.data in $PERFDB_SHARED/perfdata (../shared). */
static void test_shared(void)
{
	const char *root = getenv("PERFDB_SHARED") ? getenv("PERFDB_SHARED") : "../shared";
	char dir[4096], path[8192], *names[256];
	int n = 0, files = 0;
	struct dirent *de;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/perfdata", root);
	if (!(d = opendir(dir)) && errno == ENOENT) {
		skip("no shared perf.data directory %s (set PERFDB_SHARED)", dir);
		return;
	}
	if (!ok(d != NULL, "shared perf.data directory %s", dir))
		return;
	while ((de = readdir(d)) && n < 256)
		if (strlen(de->d_name) > 5 && !strcmp(de->d_name + strlen(de->d_name) - 5, ".data"))
			names[n++] = strdup(de->d_name);
	closedir(d);
	qsort(names, (size_t)n, sizeof(names[0]), by_name);
	for (int i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		files += !strstr(names[i], "pipe");
		check_file(path, names[i]);
		free(names[i]);
	}
	ok(files >= 8, "%d file-mode perf.data files checked", files);
}

/* test_recorded: a file perf records here, against uname and perf. */
static void test_recorded(void)
{
	char path[] = "/tmp/perfdb-test-features-XXXXXX", cmd[512], err[256];
	struct pdfile pf;
	struct pd_features f;
	struct utsname u;
	int fd = mkstemp(path);

	snprintf(cmd, sizeof(cmd), "perf record -a -e sched:sched_switch -o %s -- sleep 0.1 "
		 ">/dev/null 2>&1", path);
	if (fd < 0 || (close(fd), system(cmd)) != 0 || pdfile_load(&pf, path)) {
		skip("perf record -a -e sched:sched_switch failed here");
		unlink(path);
		return;
	}
	pd_features_init(&f);
	if (!ok(pdfile_parse(&pf, &f, err, sizeof(err)) == 0, "recorded: %d sections parse", pf.nsec))
		printf("#   %s\n", err);
	uname(&u);
	is_str(f.hostname, u.nodename, "recorded: hostname is uname -n");
	is_str(f.osrelease, u.release, "recorded: os release is uname -r");
	is_str(f.arch, u.machine, "recorded: arch is uname -m");
	is_int(f.nr_cpus_online, sysconf(_SC_NPROCESSORS_ONLN), "recorded: nrcpus online");
	ok(f.cmdline && strstr(f.cmdline, " record -a -e sched:sched_switch -o ") &&
	   strstr(f.cmdline, "-- sleep 0.1"), "recorded: cmdline '%s'", f.cmdline);
	ok(f.nr_events >= 1 && !strcmp(f.events[0].name, "sched:sched_switch") &&
	   f.events[0].type == 2, "recorded: first event sched:sched_switch, tracepoint type");
	compare_with_perf(&pf, path, &f, "recorded");
	compare_build_ids(path, &f, "recorded");
	fuzz_file(&pf, &f, "recorded");
	pd_features_free(&f);
	free(pf.buf);
	unlink(path);
}

int main(void)
{
	test_names();
	test_strings();
	test_ignored();
	test_scalars();
	test_cmdline();
	test_event_desc();
	test_cpu_topology();
	test_build_id();
	test_lists();
	test_recorded();
	test_shared();
	return tap_done();
}
