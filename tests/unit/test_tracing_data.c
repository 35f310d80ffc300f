/* Unit test for collect/perfdata/tracing_data.c: parses TRACING_DATA blobs taken from
 * a perf.data recorded here (when perf can record), from the shared sample
 * files (file and pipe mode), and from hand-built blobs in both byte
 * orders; checks every truncation and some corruptions fail cleanly. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "collect/perfdata/tracing_data.h"
#include "tests/unit/tap.h"

#define FEAT_TRACING_DATA 1
#define REC_HEADER_TRACING_DATA 66

/* slurp: the whole file in a malloc'd buffer (*len bytes), or NULL. */
static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	long size;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) > 0 &&
	    fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)size)) &&
	    fread(buf, 1, (size_t)size, f) != (size_t)size) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	*len = buf ? (size_t)size : 0;
	return buf;
}

/* le64: the little-endian u64 at p (the sample files are all x86_64). */
static uint64_t le64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* feature_section: in a file-mode perf.data, the bytes of feature `bit`
 * (its {offset,size} is the n-th entry after the data section, n = number
 * of set bits below it), or NULL when absent or out of bounds. */
static const uint8_t *feature_section(const uint8_t *f, size_t flen, int bit,
				      size_t *size)
{
	uint64_t data_end, off, sz, idx = 0;

	if (flen < 104 || memcmp(f, "PERFILE2", 8))
		return NULL;
	if (!(le64(f + 72 + 8 * (bit / 64)) >> (bit % 64) & 1))
		return NULL;
	for (int b = 0; b < bit; b++)
		idx += le64(f + 72 + 8 * (b / 64)) >> (b % 64) & 1;
	data_end = le64(f + 40) + le64(f + 48);
	if (data_end > flen || (flen - data_end) / 16 <= idx)
		return NULL;
	off = le64(f + data_end + 16 * idx);
	sz = le64(f + data_end + 16 * idx + 8);
	if (off > flen || sz > flen - off)
		return NULL;
	*size = (size_t)sz;
	return f + off;
}

/* pipe_tracing_data: in a pipe-mode perf.data, the payload that follows the
 * HEADER_TRACING_DATA record (its length is the record's u32 after the
 * 8-byte record header), or NULL. */
static const uint8_t *pipe_tracing_data(const uint8_t *f, size_t flen, size_t *size)
{
	size_t pos = 16;

	if (flen < 16 || memcmp(f, "PERFILE2", 8) || le64(f + 8) != 16)
		return NULL;
	while (flen - pos >= 12) {
		uint32_t type = f[pos] | f[pos + 1] << 8 | f[pos + 2] << 16 |
				(uint32_t)f[pos + 3] << 24;
		size_t rsize = f[pos + 6] | f[pos + 7] << 8;
		uint32_t payload = f[pos + 8] | f[pos + 9] << 8 | f[pos + 10] << 16 |
				   (uint32_t)f[pos + 11] << 24;

		if (rsize < 8 || rsize > flen - pos)
			return NULL;
		if (type == REC_HEADER_TRACING_DATA) {
			if (payload > flen - pos - rsize)
				return NULL;
			*size = payload;
			return f + pos + rsize;
		}
		pos += rsize;
	}
	return NULL;
}

/* has_field: whether event sys:name exists and has field `field` (common
 * or not) with all of the flag bits in `flags`. */
static bool has_field(struct tep_handle *tep, const char *sys, const char *name,
		      const char *field, unsigned long flags)
{
	struct tep_event *ev = tep_find_event_by_name(tep, sys, name);
	struct tep_format_field *f = ev ? tep_find_any_field(ev, field) : NULL;

	return f && (f->flags & flags) == flags;
}

/* check_truncations: parses prefixes of blob (every byte up to 4 KiB and
 * over the last 64 bytes, every 97 bytes between): each must fail with an
 * "offset" message and a NULL handle, or succeed (and is freed). */
static void check_truncations(const uint8_t *blob, size_t len, const char *label)
{
	size_t bad = 0, successes = 0, tried = 0;
	char err[256];

	for (size_t n = 0; n < len; n += (n < 4096 || len - n <= 64) ? 1 : 97) {
		struct tep_handle *tep = (struct tep_handle *)1;
		uint8_t *copy = malloc(n ? n : 1);	/* exact size: ASan sees overreads */

		memcpy(copy, blob, n);
		err[0] = '\0';
		int rc = tracing_data_parse(copy, n, &tep, err, sizeof(err));
		if (rc == 0 && tep) {
			successes++;
			tep_free(tep);
		} else if (rc != -1 || tep || !strstr(err, "offset")) {
			if (!bad++)
				printf("# prefix %zu: rc %d, err '%s'\n", n, rc, err);
		}
		free(copy);
		tried++;
	}
	ok(bad == 0, "%s: %zu truncated prefixes fail cleanly (%zu parsed)",
	   label, tried, successes);
}

/* parse_blob: tracing_data_parse with a diagnostic on failure. */
static struct tep_handle *parse_blob(const uint8_t *blob, size_t len, const char *label)
{
	struct tep_handle *tep = NULL;
	char err[256] = "";
	int rc = tracing_data_parse(blob, len, &tep, err, sizeof(err));

	if (!ok(rc == 0 && tep, "%s: TRACING_DATA (%zu bytes) parses", label, len))
		printf("#   %s\n", err);
	return rc == 0 ? tep : NULL;
}

/* test_recorded: records sched_switch, ipi_send_cpumask and csd_queue_cpu
 * with the installed perf and checks the formats come through. */
static void test_recorded(void)
{
	char path[] = "/tmp/perfdb-td-XXXXXX", cmd[512];
	const uint8_t *blob;
	size_t flen, blen;
	struct tep_handle *tep;
	uint8_t *file = NULL;
	int fd = mkstemp(path);

	if (fd >= 0)
		close(fd);
	snprintf(cmd, sizeof(cmd), "perf record -a -e sched:sched_switch,"
		 "ipi:ipi_send_cpumask,csd:csd_queue_cpu -o %s -- sleep 0.2 "
		 ">/dev/null 2>&1", path);
	if (fd < 0 || system(cmd) != 0 || !(file = slurp(path, &flen))) {
		ok(1, "# SKIP perf record failed (no perf, no permission or no such events)");
		unlink(path);
		return;
	}
	blob = feature_section(file, flen, FEAT_TRACING_DATA, &blen);
	if (ok(blob != NULL, "recorded: TRACING_DATA feature found") &&
	    (tep = parse_blob(blob, blen, "recorded"))) {
		ok(has_field(tep, "sched", "sched_switch", "prev_comm", TEP_FIELD_IS_ARRAY),
		   "recorded: sched:sched_switch has prev_comm[]");
		ok(has_field(tep, "sched", "sched_switch", "next_pid", 0),
		   "recorded: sched:sched_switch has next_pid");
		ok(has_field(tep, "ipi", "ipi_send_cpumask", "cpumask", TEP_FIELD_IS_DYNAMIC),
		   "recorded: ipi:ipi_send_cpumask has a __data_loc cpumask");
		ok(tep_find_event_by_name(tep, "csd", "csd_queue_cpu") != NULL,
		   "recorded: csd:csd_queue_cpu found");
		is_int(tep_get_page_size(tep), getpagesize(), "recorded: page size");
		is_int(tep_get_long_size(tep), (int)sizeof(long), "recorded: long size");
		tep_free(tep);
		check_truncations(blob, blen, "recorded");
	}
	free(file);
	unlink(path);
}

/* shared_path: PERFDB_SHARED/perfdata/name (default ../shared). */
static void shared_path(char *out, size_t n, const char *name)
{
	const char *dir = getenv("PERFDB_SHARED");

	snprintf(out, n, "%s/perfdata/%s", dir && *dir ? dir : "../shared", name);
}

/* test_shared: the TRACING_DATA of a shared sample file (pipe or file
 * mode) parses and has event sys:ev with field `field`. */
static void test_shared(const char *name, bool pipe, const char *sys,
			const char *ev, const char *field, bool truncations)
{
	char path[4096];
	size_t flen, blen;
	const uint8_t *blob;
	struct tep_handle *tep;
	uint8_t *file;

	shared_path(path, sizeof(path), name);
	if (!(file = slurp(path, &flen))) {
		ok(1, "# SKIP %s not found", path);
		return;
	}
	blob = pipe ? pipe_tracing_data(file, flen, &blen)
		    : feature_section(file, flen, FEAT_TRACING_DATA, &blen);
	if (ok(blob != NULL, "%s: TRACING_DATA found", name) &&
	    (tep = parse_blob(blob, blen, name))) {
		ok(has_field(tep, sys, ev, field, 0), "%s: %s:%s has field %s",
		   name, sys, ev, field);
		tep_free(tep);
		if (truncations)
			check_truncations(blob, blen, name);
	}
	free(file);
}

/* replace_nth: overwrites the occurrence `nth` (0-based) of `from` in
 * buf[0..len) with `to` (same length); false when there is none. */
static bool replace_nth(uint8_t *buf, size_t len, const char *from, const char *to, int nth)
{
	size_t n = strlen(from);

	for (size_t i = 0; i + n <= len; i++)
		if (memcmp(buf + i, from, n) == 0 && nth-- == 0) {
			memcpy(buf + i, to, n);
			return true;
		}
	return false;
}

/* test_guards: corruptions of sched_switch's format that crash
 * libtraceevent 1.7 when handed over (NULL dereference or SIGFPE) must
 * make the parse skip that event, not fail or crash. */
static void test_guards(void)
{
	static const struct { const char *from, *to; int nth; const char *what; } m[] = {
		{ "prev_state;", "prev_sXate;", 0, "print arg names an undefined field" },
		{ "prev_state;", "prev_\rtate;", 0, "control byte in a field name" },
		{ "TASK_COMM_LEN", "TASK_C'MM_LEN", 0, "quote in a field line" },
		{ "(0x0000 |", "(0x00/0 |", 0, "division by a literal zero" },
	};
	const char *name = "x86_64-perf5.18-zstd-dwarf-cycles-sched_switch.data";
	char path[4096];
	size_t flen, blen;
	const uint8_t *blob;
	uint8_t *file, *copy;

	shared_path(path, sizeof(path), name);
	if (!(file = slurp(path, &flen)) ||
	    !(blob = feature_section(file, flen, FEAT_TRACING_DATA, &blen))) {
		ok(1, "# SKIP %s not found", path);
		free(file);
		return;
	}
	copy = malloc(blen);
	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		struct tep_handle *tep = NULL;
		char err[256] = "";

		memcpy(copy, blob, blen);
		if (!ok(replace_nth(copy, blen, m[i].from, m[i].to, m[i].nth) &&
			tracing_data_parse(copy, blen, &tep, err, sizeof(err)) == 0 &&
			!tep_find_event_by_name(tep, "sched", "sched_switch"),
			"corrupted format skipped, not fatal: %s", m[i].what))
			printf("#   %s\n", err);
		if (tep)
			tep_free(tep);
	}
	free(copy);
	free(file);
}

/* A blob under construction in a chosen byte order. */
struct blob {
	uint8_t buf[8192];
	size_t n;
	bool be;
};

/* put: appends n raw bytes; putint: an integer of `width` bytes in the
 * blob's byte order; putsized: a size of `width` bytes, then the text. */
static void put(struct blob *b, const void *p, size_t n)
{
	memcpy(b->buf + b->n, p, n);
	b->n += n;
}

static void putint(struct blob *b, uint64_t v, int width)
{
	for (int i = 0; i < width; i++)
		b->buf[b->n++] = (uint8_t)(v >> 8 * (b->be ? width - 1 - i : i));
}

static void putsized(struct blob *b, int width, const char *text)
{
	putint(b, strlen(text), width);
	put(b, text, strlen(text));
}

static const char header_page[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:1;\n";

/* The fields of myev; event_format is them with their print line. */
#define MYEV_FIELDS \
	"name: myev\nID: 42\nformat:\n" \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n" \
	"\tfield:int value;\toffset:8;\tsize:4;\tsigned:1;\n" \
	"\tfield:__data_loc char[] name;\toffset:12;\tsize:4;\tsigned:0;\n\n"

static const char event_format[] =
	MYEV_FIELDS "print fmt: \"value=%d name=%s\", REC->value, __get_str(name)\n";

/* build_blob_with: a small complete blob: the event format `good`, one
 * that libtraceevent must refuse, two kallsyms, printk formats (one too
 * short to register) and, for version 0.6, a saved cmdline. */
static void build_blob_with(struct blob *b, bool be, const char *version, const char *good)
{
	b->n = 0;
	b->be = be;
	put(b, "\x17\x08\x44tracing", 10);
	put(b, version, strlen(version) + 1);
	putint(b, be, 1);
	putint(b, 8, 1);
	putint(b, 4096, 4);
	put(b, "header_page", 12);
	putsized(b, 8, header_page);
	put(b, "header_event", 13);
	putsized(b, 8, "# compressed entry header\n");
	putint(b, 0, 4);			/* no ftrace formats */
	putint(b, 1, 4);			/* one system ... */
	put(b, "test", 5);
	putint(b, 2, 4);			/* ... with two events */
	putsized(b, 8, "name: broken\nthis is not a format\n");
	putsized(b, 8, good);
	putsized(b, 4, "ffffffff81000000 T _text\nffffffff81001000 t foo\t[mymod]\n"
		    "ffffffff81002000 T _etext\n");
	putsized(b, 4, "0xffffffff82000000 : \"hello %d\\n\"\n0x1 : \"a\"\n: x\n");
	if (strcmp(version, "0.6") == 0)
		putsized(b, 8, "1234 my comm\n");
}

/* build_blob: build_blob_with myev's own format. */
static void build_blob(struct blob *b, bool be, const char *version)
{
	build_blob_with(b, be, version, event_format);
}

/* check_record: decodes a hand-made myev record written in the blob's
 * byte order: value 7 must read back as 7. */
static void check_record(struct tep_handle *tep, bool be, const char *label)
{
	struct tep_event *ev = tep_find_event_by_name(tep, "test", "myev");
	uint8_t data[24] = { 0 };
	struct tep_record rec = { .data = data, .size = sizeof(data) };
	unsigned long long val = 0;

	data[be ? 1 : 0] = 42;			/* common_type */
	data[be ? 11 : 8] = 7;			/* value */
	ok(ev && tep_get_field_val(NULL, ev, "value", &rec, &val, 0) == 0 && val == 7,
	   "%s: field value decodes in the file's byte order", label);
}

/* test_synthetic: the hand-built blob parses in either byte order; the
 * broken event is skipped, symbols and comms are registered. */
static void test_synthetic(bool be, const char *version)
{
	struct blob *b = malloc(sizeof(*b));
	struct tep_handle *tep;
	char label[64];

	snprintf(label, sizeof(label), "synthetic %s v%s", be ? "big-endian" : "little-endian",
		 version);
	build_blob(b, be, version);
	if ((tep = parse_blob(b->buf, b->n, label))) {
		ok(tep_is_file_bigendian(tep) == be, "%s: file byte order", label);
		ok(has_field(tep, "test", "myev", "name", TEP_FIELD_IS_DYNAMIC),
		   "%s: good event parsed, __data_loc field found", label);
		ok(!tep_find_event_by_name(tep, "test", "broken"),
		   "%s: refused event skipped", label);
		check_record(tep, be, label);
		if (strcmp(version, "0.6") == 0)
			is_str(tep_data_comm_from_pid(tep, 1234), "my comm", "%s: saved cmdline", label);
		is_str(tep_find_function(tep, 0xffffffff81001010ULL), "foo", "%s: kallsyms", label);
		tep_free(tep);
	}
	check_truncations(b->buf, b->n, label);
	free(b);
}

/* test_print_args: print args that libtraceevent 1.7 dereferences NULL
 * on (process_op) or leaks on are refused before it sees them, the event
 * skipped and the rest of the blob kept; their well-formed neighbours
 * parse. */
static void test_print_args(void)
{
	static const struct { const char *args; bool safe; } c[] = {
		{ "REC->value ? 1 : REC->value", true },
		{ "REC->value ? 1 : 2 + REC->value", true },
		{ "REC->value ? 1 : __rel REC->value", false },	/* operand after operand */
		{ "REC->value ? 1 : 2 3", false },
		{ "(REC->value ? 1 : 2), 3 4", true },		/* the ':' ended at ',' */
		{ "REC->value ? 1 : 2 ~ 3", true },
		{ "REC->value ? 1 : 2 = 3", false },		/* an operator of no priority */
		{ "REC->value[1] + 2", true },
		{ "REC->value[1] = 2", false },
		{ "[REC->value ? 1 : 2]", false },		/* a conditional ends at ']' */
		{ "REC->value ? {1} : 2", false },
		{ "value->x", false },				/* '->' after neither REC nor ')' */
		{ "(REC)->value", true },
		{ "REC->value +", false },			/* an operator without operand */
		{ "REC->value + , 1", false },
		{ "(void *)REC->value", true },
		{ "REC->value, \"open", false },		/* an unterminated string */
		{ "((REC->value)", false },			/* unbalanced */
		{ "({ 1; })", true },				/* the walk stops at "({" */
	};
	struct blob *b = malloc(sizeof(*b));
	char fmt[1024];

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct tep_handle *tep = NULL;
		char err[256] = "";
		int rc;

		snprintf(fmt, sizeof(fmt), MYEV_FIELDS "print fmt: \"v=%%d\", %s\n", c[i].args);
		build_blob_with(b, false, "0.6", fmt);
		rc = tracing_data_parse(b->buf, b->n, &tep, err, sizeof(err));
		if (!ok(rc == 0 && tep && !tep_find_event_by_name(tep, "test", "myev") == !c[i].safe &&
			tep_find_function(tep, 0xffffffff81001010ULL),
			"print args %s: %s", c[i].safe ? "kept" : "refused", c[i].args))
			printf("#   rc %d: %s\n", rc, err);
		if (tep)
			tep_free(tep);
	}
	free(b);
}

/* test_corruptions: bad magic, an impossible size, a bad endian byte and a
 * NULL buffer are rejected with an offset. */
static void test_corruptions(void)
{
	struct blob *b = malloc(sizeof(*b));
	struct tep_handle *tep = NULL;
	char err[256];

	build_blob(b, false, "0.6");
	b->buf[3] = 'T';
	ok(tracing_data_parse(b->buf, b->n, &tep, err, sizeof(err)) == -1 && !tep &&
	   strstr(err, "magic") && strstr(err, "offset 0"), "bad magic rejected: %s", err);

	build_blob(b, false, "0.6");
	memset(b->buf + 32, 0xff, 8);		/* header_page size */
	ok(tracing_data_parse(b->buf, b->n, &tep, err, sizeof(err)) == -1 && !tep &&
	   strstr(err, "offset 40"), "huge u64 size rejected: %s", err);

	build_blob(b, false, "0.6");
	b->buf[14] = 7;				/* endianness byte */
	ok(tracing_data_parse(b->buf, b->n, &tep, err, sizeof(err)) == -1 && !tep &&
	   strstr(err, "offset 14"), "bad endianness byte rejected: %s", err);

	ok(tracing_data_parse(NULL, 0, &tep, err, sizeof(err)) == -1 && !tep &&
	   strstr(err, "offset 0"), "NULL buffer rejected: %s", err);
	free(b);
}

/* test_add_kallsyms: symbols added after parsing resolve by address. */
static void test_add_kallsyms(void)
{
	/* libtraceevent matches the highest symbol only at its exact address,
	 * so "end" closes "beta". */
	static const uint64_t addrs[] = { 0xffffffff90000000ULL, 0xffffffff90000100ULL,
					  0xffffffff90000200ULL };
	static const char *const names[] = { "alpha", "beta", "end" };
	struct blob *b = malloc(sizeof(*b));
	struct tep_handle *tep;

	build_blob(b, false, "0.5");
	if ((tep = parse_blob(b->buf, b->n, "add_kallsyms"))) {
		is_int(tracing_data_add_kallsyms(tep, addrs, names, 3), 0, "add_kallsyms returns 0");
		is_str(tep_find_function(tep, 0xffffffff90000104ULL), "beta",
		       "added symbol resolves");
		is_str(tep_find_function(tep, 0xffffffff81000004ULL), "_text",
		       "blob symbol still resolves");
		tep_free(tep);
	}
	free(b);
}

int main(void)
{
	test_recorded();
	test_shared("x86_64-perf4.9-uprobe-tracepoint.data", false, "probe_untitled1",
		    "main", "__probe_ip", true);
	test_shared("x86_64-perf4.9-pipe-uprobe-tracepoint.data", true, "probe_untitled1",
		    "main", "__probe_ip", false);
	test_shared("x86_64-perf5.18-zstd-dwarf-cycles-sched_switch.data", false, "sched",
		    "sched_switch", "prev_comm", true);
	test_guards();
	test_synthetic(false, "0.6");
	test_synthetic(true, "0.6");
	test_synthetic(false, "0.5");
	test_print_args();
	test_corruptions();
	test_add_kallsyms();
	return tap_done();
}
