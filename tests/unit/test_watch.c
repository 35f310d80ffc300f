/* Unit tests of the watch recipe (collect/record/watch*.c) and its analysis
 * (analyze/hitm/watch_load.c): --watch spec parsing and the 4-register limit, the
 * watched window of a field (alignment, partly watched fields), metric
 * lines, CPU lists, tracefs format fields, reading the mm pointer out of a
 * wrapped perf ring buffer; the analysis on hand-made sample sequences
 * (false sharing, true sharing, padded, check-first stores, both),
 * store-site names (ip - 1), and a store/load round trip through a fresh
 * database, also for a recording without watch rows; the canary (its
 * variable and CPU, recorded or probe, the count of its samples by
 * perfdb's pid against its writes less perf's lost samples, nothing
 * stored when it falls short) and the analysis's answer to it: no verdict
 * where the watchpoints did not fire or no write at all was caught
 * without a canary, and the canary's event never a watched field. */
#include <limits.h>
#include <linux/perf_event.h>
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "analyze/hitm/hitm_findings.h"
#include "analyze/hitm/hitm_watch.h"
#include "analyze/hitm/watch_load.h"
#include "schema/db.h"
#include "collect/record/watch_spec.h"
#include "lib/cpulist.h"
#include "tests/unit/tap.h"

/* ---- specs ---- */

/* parse: one spec; its kind, or -1 when refused (message in err). */
static int parse(const char *text, struct watch_spec *s, char *err)
{
	if (watch_parse_one(text, strlen(text), s, err, 256))
		return -1;
	return (int)s->kind;
}

static void test_specs(void)
{
	struct watch_spec s;
	char err[256];
	is_int(parse("mm_struct.mm_count", &s, err), WATCH_MM, "mm_struct.FIELD is the workload's mm");
	is_str(s.field, "mm_count", "its field");
	watch_spec_free(&s);
	is_int(parse(" mm_struct.context.tlb_gen ", &s, err), WATCH_MM, "dotted nested field, blanks trimmed");
	is_str(s.field, "context.tlb_gen", "the dotted field is kept whole");
	watch_spec_free(&s);
	is_int(parse("fs_shared.packed.bitmap_a", &s, err), WATCH_SYMBOL, "SYMBOL.FIELD");
	ok(!strcmp(s.object, "fs_shared") && !strcmp(s.field, "packed.bitmap_a"), "symbol and field split");
	watch_spec_free(&s);
	is_int(parse("fs_shared+8:4", &s, err), WATCH_SYMBOL, "SYMBOL+OFFSET:LEN");
	ok(s.plus == 8 && s.has_plus && s.want_len == 4 && !*s.field, "offset 8, length 4");
	watch_spec_free(&s);
	is_int(parse("mm_struct.mm_count@0xffff888100000000:8", &s, err), WATCH_ADDR, "TYPE.FIELD@ADDR:LEN");
	ok(s.at == 0xffff888100000000ULL && s.want_len == 8 && !strcmp(s.object, "mm_struct"),
	   "address and length after '@'");
	watch_spec_free(&s);
	ok(parse("fs_shared:3", &s, err) < 0 && strstr(err, "1, 2, 4 or 8"), "LEN 3 refused: %s", err);
	ok(parse("fs_shared:16", &s, err) < 0, "LEN 16 refused");
	ok(parse("x@zz", &s, err) < 0 && strstr(err, "address"), "bad address refused: %s", err);
	ok(parse("a b", &s, err) < 0 && strstr(err, "bad watch"), "blank inside refused: %s", err);
	ok(parse("+8", &s, err) < 0, "no object refused");
}

static void test_limit(void)
{
	struct watch_set ws = { .n = 0 };
	char err[256];
	ok(!watch_add_specs(&ws, "a,b,c,d", err, sizeof(err)) && ws.n == 4, "four watches accepted");
	ok(watch_add_specs(&ws, "e", err, sizeof(err)) && ws.n == 4 &&
	   strstr(err, "at most 4") && strstr(err, "debug registers") && strstr(err, "(5 given)"),
	   "a fifth (second --watch) refused: %s", err);
	watch_set_free(&ws);
	ok(watch_add_specs(&ws, "a,b,c,d,e", err, sizeof(err)) && ws.n == 0, "five in one refused, none kept");
	ok(watch_add_specs(&ws, " , ", err, sizeof(err)), "an empty list refused");
	ok(!watch_add_specs(&ws, "a,,b", err, sizeof(err)) && ws.n == 2, "empty words skipped");
	watch_set_free(&ws);
}

/* ---- the watched bytes ---- */

/* win: watch_window as "ADDR/LEN flags". */
static const char *win(uint64_t a, int64_t size, int want)
{
	static char buf[64];
	uint64_t addr;
	int len;
	unsigned f = watch_window(a, size, want, &addr, &len);
	snprintf(buf, sizeof(buf), "%llx/%d%s%s", (unsigned long long)addr, len,
		 f & WATCH_PARTIAL ? " partial" : "", f & WATCH_WIDER ? " wider" : "");
	return buf;
}

static void test_window(void)
{
	struct watch_spec s = { .addr = 0xffff888100a3c04cULL, .len = 4 };
	char buf[64];
	is_str(win(0x104c, 4, 0), "104c/4", "an aligned int: exactly its 4 bytes");
	is_str(win(0x1000, 8, 0), "1000/8", "an aligned long: 8 bytes");
	is_str(win(0x1003, 1, 0), "1003/1", "a byte: 1 byte");
	is_str(win(0x1000, 16, 0), "1000/8 partial", "16 bytes: the first aligned 8, partly");
	is_str(win(0x1004, 16, 0), "1000/8 partial wider", "16 bytes at +4: the aligned 8 holding its start");
	is_str(win(0x1001, 2, 0), "1000/4 wider", "2 bytes at an odd address: the aligned 4 around them");
	is_str(win(0x1006, 4, 0), "1000/8 partial wider", "4 bytes across an 8-byte boundary");
	is_str(win(0x1004, 4, 8), "1000/8 wider", ":8 forces 8 aligned bytes");
	is_str(win(0x1008, 8, 2), "1008/2 partial", ":2 on a long watches its first 2 bytes");
	is_str(watch_event_name(&s, buf, sizeof(buf)), "mem:0xffff888100a3c04c/4:w", "perf's event name");
}

static void test_metric(void)
{
	struct watch_metric m = { .watched = true };
	ok(watch_parse_metric("metric=falseshare_ops_per_sec value=116143 per_thread=5 x=y\n", &m) &&
	   !strcmp(m.name, "falseshare_ops_per_sec") && m.value == 116143 && m.watched,
	   "a metric line: name and value");
	ok(!strchr(m.line, '\n') && !strncmp(m.line, "metric=", 7), "the line kept without newline");
	ok(!watch_parse_metric("yield: shared mm\n", &m), "other lines are not metrics");
	ok(!watch_parse_metric("metric=x value=\n", &m), "a metric without a value is not one");
}

static void test_cpu_list(void)
{
	int c[8];
	is_int(cpulist_parse("0-3,6\n", c, 8), 5, "0-3,6: five CPUs");
	ok(c[3] == 3 && c[4] == 6, "in order");
	is_int(cpulist_parse("1", c, 8), 1, "one CPU");
	is_int(cpulist_parse("3-1", c, 8), -1, "a backwards range refused");
	is_int(cpulist_parse("0-9", c, 8), -1, "longer than the array refused");
	is_int(cpulist_parse("x", c, 8), -1, "garbage refused");
}

static const char format_text[] =
	"name: mmap_lock_acquire_returned\nID: 675\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:struct mm_struct * mm;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:u64 memcg_id;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:bool write;\toffset:24;\tsize:1;\tsigned:0;\n";

static void test_format(void)
{
	int off = -1, size = -1;
	ok(!watch_format_field(format_text, "mm", &off, &size) && off == 8 && size == 8,
	   "mm at offset 8, 8 bytes (6.18's format)");
	ok(!watch_format_field(format_text, "write", &off, &size) && off == 24 && size == 1, "write at 24");
	ok(watch_format_field(format_text, "pid", &off, &size), "pid is not common_pid");
	ok(watch_format_field(format_text, "nosuch", &off, &size), "a missing field");
}

/* put: a record of size bytes at *pos of a 256-byte ring, wrapping. */
static void put(unsigned char *ring, uint64_t *pos, const void *rec, size_t size)
{
	for (size_t i = 0; i < size; i++)
		ring[(*pos + i) & 255] = ((const unsigned char *)rec)[i];
	*pos += size;
}

/* sample_rec: a RAW-only sample whose raw data holds mm at offset 8. */
static void sample_rec(unsigned char *ring, uint64_t *pos, uint64_t mm)
{
	struct { struct perf_event_header h; uint32_t size; unsigned char raw[28]; } __attribute__((packed)) r =
		{ { PERF_RECORD_SAMPLE, 0, sizeof(r) }, 28, { 0 } };
	memcpy(r.raw + 8, &mm, 8);
	put(ring, pos, &r, sizeof(r));
}

static void test_ring(void)
{
	unsigned char ring[256];
	struct { struct perf_event_header h; uint64_t id, lost; } lost = { { PERF_RECORD_LOST, 0, 24 }, 1, 5 };
	uint64_t start = 200, pos = start;
	long long nlost = 0;
	sample_rec(ring, &pos, 0xffff888100000040ULL);
	put(ring, &pos, &lost, sizeof(lost));
	sample_rec(ring, &pos, 0xffff8881deadbe00ULL);	/* wraps past 256 */
	ok(pos > 256 + 0, "the records wrap around the ring");
	ok(watch_ring_last_mm(ring, 256, start, pos, 8, &nlost) == 0xffff8881deadbe00ULL,
	   "the last sample's mm, read across the wrap");
	is_int(nlost, 5, "LOST records counted");
	ok(watch_ring_last_mm(ring, 256, pos, pos, 8, &nlost) == 0, "an empty ring: 0");
	ok(watch_ring_last_mm(ring, 256, start, start + 20, 8, &nlost) == 0,
	   "a record cut by head is not read");
}

/* ---- the analysis ---- */

static struct watch_def defs2[2];
static struct watch_data data;

/* setup: n defs at addrs, no samples yet. */
static void setup(const uint64_t *addrs, size_t n)
{
	static char *names[] = { "a", "b", "c", "d" };
	for (size_t i = 0; i < n; i++)
		defs2[i] = (struct watch_def){ .field = names[i], .addr = addrs[i], .len = 8,
					       .size = 8, .event_id = (int64_t)i };
	free(data.s);
	data = (struct watch_data){ .defs = defs2, .ndefs = n, .t0 = 0, .t1 = 1000000000, .ncpus = 2,
				    .has_window = true };
}

/* hit: one sample of field w on cpu at time t from site s. */
static void hit(int64_t t, int cpu, int w, int s)
{
	if (data.n == data.cap) {
		data.cap = data.cap ? 2 * data.cap : 64;
		data.s = realloc(data.s, data.cap * sizeof(*data.s));
	}
	data.s[data.n++] = (struct watch_sample){ t, cpu, w, s };
}

/* verdict: the analysis of data; the verdict of its line i. */
static enum share_verdict verdict(struct watch_result *r, size_t i)
{
	watch_analyze(&data, WATCH_MIN_TRANSFERS, r);
	if (i >= r->nlines)
		return (enum share_verdict)-1;
	return r->lines[i].verdict;
}

static void test_false_sharing(void)
{
	struct watch_result r;
	setup((uint64_t[]){ 0x1000, 0x1008 }, 2);
	for (int i = 0; i < 100; i++)
		hit(i * 10, i % 2, i % 2, 0);	/* cpu 0 writes a, cpu 1 writes b */
	is_int(verdict(&r, 0), SHARE_FALSE, "packed, one field per CPU: false sharing");
	ok(r.nlines == 1 && r.lines[0].nfields == 2, "both fields on one line");
	ok(r.fields[0].writes == 50 && r.fields[0].transfers == 0 && r.fields[0].writer_cpus == 1,
	   "a field written by one CPU has no transfers of its own");
	ok(r.lines[0].transfers == 99 && r.lines[0].cross_field == 99 && !r.lines[0].same_field,
	   "the line moved 99 times, between fields");
	ok(fabs(r.seconds - 1.0) < 1e-9 && r.fields[1].cpu_writes[1] == 50, "per-CPU writes, 1 s window");
	watch_result_free(&r);
}

static void test_true_sharing(void)
{
	struct watch_result r;
	setup((uint64_t[]){ 0x2040 }, 1);
	data.nsites = 3;
	for (int i = 0; i < 100; i++)
		hit(i, (i / 2) % 2, 0, i % 3);	/* pairs of writes per CPU */
	is_int(verdict(&r, 0), SHARE_TRUE, "one field written by both CPUs in turn: true sharing");
	ok(r.fields[0].transfers == 49 && r.fields[0].writer_cpus == 2, "49 transfers, 2 writer CPUs");
	ok(r.lines[0].same_field == 49 && r.lines[0].addr == 0x2040, "all on the field's own line");
	ok(r.fields[0].nsites == 3 && r.fields[0].sites[0].writes == 34 && r.fields[0].sites[0].site == 0,
	   "sites by writes, most first");
	watch_result_free(&r);
}

static void test_padded_and_check(void)
{
	struct watch_result r;
	setup((uint64_t[]){ 0x1040, 0x1000 }, 2);
	for (int i = 0; i < 100; i++)
		hit(i, i % 2, i % 2, 0);
	ok(verdict(&r, 0) == SHARE_NONE && r.nlines == 2, "padded: two lines, no sharing");
	ok(r.lines[0].addr == 0x1000 && r.lines[0].fields[0] == 1, "lines in address order");
	watch_result_free(&r);
	setup((uint64_t[]){ 0x1000, 0x1008 }, 2);
	hit(1, 0, 0, 0);
	hit(2, 1, 1, 0);
	is_int(verdict(&r, 0), SHARE_NONE, "check-first stores: one write each, no verdict");
	is_int(r.lines[0].transfers, 1, "one transfer seen");
	watch_result_free(&r);
	watch_analyze(&data, 1, &r);
	ok(r.lines[0].verdict == SHARE_FALSE,
	   "min_transfers 1 calls that false sharing");
	watch_result_free(&r);
}

static void test_both(void)
{
	struct watch_result r;
	setup((uint64_t[]){ 0x1000, 0x1008 }, 2);
	for (int i = 0; i < 60; i++)
		hit(i, i % 2, i % 3 == 2, 0);
	is_int(verdict(&r, 0), SHARE_BOTH, "a field shared and a neighbour written: true+false");
	is_str(share_verdict_name(SHARE_BOTH), "true and false sharing", "its name");
	is_str(share_verdict_name(SHARE_FALSE), "false sharing",
	       "the verdict column's value of false sharing (as memory samples name it)");
	watch_result_free(&r);
	setup((uint64_t[]){ 0x1000 }, 1);
	hit(5, 0, 0, -1);
	hit(2000000000, 1, 0, -1);	/* never in s: the loader drops it; here still counted */
	watch_analyze(&data, 10, &r);
	ok(r.fields[0].writes == 2 && r.fields[0].nsites == 0,
	   "samples without a site count without one");
	watch_result_free(&r);
}

static void test_site_names(void)
{
	char b[128];
	is_str(watch_site_name(b, sizeof(b), "worker", 0x132d, 0x200, 0x14d1), "worker+0x1a3",
	       "the function and offset of ip - 1");
	is_str(watch_site_name(b, sizeof(b), "__schedule", 0x1000, 0x100, 0x1000), "before __schedule",
	       "ip at a function's start: the store ended the one before");
	is_str(watch_site_name(b, sizeof(b), "[unknown]", 0, 0, 0x4001), "0x4000", "no symbol: the address");
	is_str(watch_site_name(b, sizeof(b), NULL, 0, 0, 0x4001), "0x4000", "NULL symbol: the address");
	is_str(watch_site_name(b, sizeof(b), "f", 0x1000, 0x10, 0x2000), "f", "outside the symbol: its name");
}

/* ---- store and load ---- */

/* exec_sql: runs sql on db; true on success. */
static bool exec_sql(sqlite3 *db, const char *sql)
{
	char err[256];
	if (db_exec(db, sql, err, sizeof(err))) {
		printf("# %s\n", err);
		return false;
	}
	return true;
}

/* fixture: a session 1 with one breakpoint event and 4 samples (one
 * outside the window), a kernel symbol; session 2 with a bare event. */
static bool fixture(sqlite3 *db)
{
	return exec_sql(db,
		"INSERT INTO session (id, workload, first_time, last_time, first_sample_id, "
		"last_sample_id, nr_cpus_avail) VALUES (1, 'yield', 0, 900, 1, 4, 2),"
		"(2, 'imported', 0, 100, 5, 5, 2);"
		"INSERT INTO event (id, session_id, idx, name, type, config1, config2) VALUES "
		"(1, 1, 0, 'mem:0xffff888100000000', 5, -131387344551936, 4),"
		"(2, 2, 0, 'mem:0x1000', 5, 4096, 8);"
		"INSERT INTO dso (id, session_id, path, kernel) VALUES (1, 1, '[kernel.kallsyms]', 1);"
		"INSERT INTO symbol (id, dso_id, name, start, size) VALUES "
		"(1, 1, '__schedule', -2118524928, 4096), (2, 1, 'finish_task_switch', -2118590464, 512);"
		"INSERT INTO sample (id, session_id, event_id, time, cpu, ip, symbol_id, cpumode) VALUES "
		"(1, 1, 1, 100, 0, -2118524928 + 2903, 1, 1), (2, 1, 1, 200, 1, -2118590464 + 182, 2, 1),"
		"(3, 1, 1, 300, 0, -2118524928 + 2903, 1, 1), (4, 1, 1, 800, 1, -2118524928 + 2903, 1, 1),"
		"(5, 2, 2, 50, 1, 4096, NULL, 2);");
}

/* stored_set: the watch set perfdb record would store for session 1. */
static void stored_set(struct watch_set *ws)
{
	char err[256];
	*ws = (struct watch_set){ .mm = 0xffff888100000000ULL, .pid = 77, .armed_ns = 50,
				  .ended_ns = 500, .mm_mode = WATCH_MM_FORK };
	watch_add_specs(ws, "mm_struct.mm_count", err, sizeof(err));
	ws->w[0].name = strdup("mm_struct.mm_count");
	ws->w[0].field_type = strdup("atomic_t");
	ws->w[0].size = 4;
	watch_place(ws, 0);
	ws->metrics[0] = (struct watch_metric){ "ctxsw_per_sec_per_cpu", 877100, true, "metric=..." };
	ws->metrics[1] = (struct watch_metric){ "ctxsw_per_sec_per_cpu", 740036, false, "metric=..." };
	ws->nmetrics = 2;
}

static void test_store_load(const char *dir)
{
	char path[PATH_MAX], err[512] = "";
	struct watch_set ws;
	struct watch_data d;
	sqlite3 *db;
	snprintf(path, sizeof(path), "%s/w.db", dir);
	if (!ok((db = db_open(path, true, err, sizeof(err))) != NULL, "a fresh database: %s", err))
		return;
	ok(fixture(db), "fixture rows");
	stored_set(&ws);
	ok(!watch_store(db, 1, &ws, err, sizeof(err)), "watch rows stored: %s", err);
	is_int(watch_load(db, 1, &d, err, sizeof(err)), 1, "session 1 loads");
	ok(d.ndefs == 1 && !strcmp(d.defs[0].field, "mm_struct.mm_count") && d.defs[0].event_id == 1 &&
	   d.defs[0].len == 4, "the watch row, matched to its event by address and length");
	ok(d.defs[0].kind && !strcmp(d.defs[0].kind, "mm"), "its kind: the watched mm");
	ok(d.has_window && d.t0 == 50 && d.t1 == 500 && d.n == 3 && d.outside == 1,
	   "the window from the rows: 3 samples in, 1 outside");
	ok(d.pid == 77 && d.mm_mode && !strcmp(d.mm_mode, "fork"), "pid and --watch-mm kept");
	ok(d.nsites == 2 && !strcmp(d.sites[0], "__schedule+0xb56") &&
	   !strcmp(d.sites[1], "finish_task_switch+0xb5"), "kernel store sites at ip - 1: %s, %s",
	   d.nsites > 1 ? d.sites[0] : "", d.nsites > 1 ? d.sites[1] : "");
	ok(d.nrates == 1 && d.rates[0].watched == 877100 && d.rates[0].unwatched == 740036 &&
	   d.rates[0].unwatched_session == 1, "the watched and baseline rates");
	watch_data_free(&d);
	is_int(watch_load(db, 2, &d, err, sizeof(err)), 1, "a session without watch rows loads its mem: event");
	ok(d.ndefs == 1 && !strcmp(d.defs[0].field, "mem:0x1000") && d.n == 1 && !d.has_window &&
	   !d.defs[0].kind, "named by its event, of no kind");
	watch_data_free(&d);
	ok(watch_load(db, 9, &d, err, sizeof(err)) == -1 && strstr(err, "no session"), "no session 9");
	ok(hitm_watched(db, 1) && hitm_watched(db, 2) && !hitm_watched(db, 9),
	   "sessions 1 (watch rows) and 2 (a bare mem: event) watched something, 9 nothing");
	watch_set_free(&ws);
	sqlite3_close(db);
}

/* ---- the canary ---- */

/* allowed_cpu: a CPU this process may run on, or -1. */
static int allowed_cpu(void)
{
	cpu_set_t m;
	if (sched_getaffinity(0, sizeof(m), &m))
		return -1;
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &m))
			return c;
	return -1;
}

static void test_canary_choice(void)
{
	struct watch_set ws = { .n = 0 };
	struct watch_canary c, d;
	char err[256], buf[160];
	int cpu = allowed_cpu();
	watch_canary_init(&c, NULL, NULL);
	ok(c.how == WATCH_CANARY_RECORDED && c.len == 8 && c.pid == getpid() && c.cpu == -1 &&
	   c.addr && !(c.addr & 7) && !c.writes && !c.seen, "a canary: recorded, 8 aligned bytes of "
	   "perfdb's, written on any CPU, nothing written yet");
	ok(!watch_add_specs(&ws, "a", err, sizeof(err)), "one watch");
	ws.w[0].addr = c.addr + 4;
	ws.w[0].len = 4;
	watch_canary_init(&d, &ws, NULL);
	ok(d.how == WATCH_CANARY_RECORDED && (d.addr + 8 <= ws.w[0].addr || d.addr >= ws.w[0].addr + 4),
	   "a watch on the first canary's bytes: the other variable, whose bytes it does not cover");
	ok(!watch_add_specs(&ws, "b,c,d", err, sizeof(err)), "four watches");
	watch_canary_init(&d, &ws, NULL);
	is_int(d.how, WATCH_CANARY_PROBE, "four watches take every debug register: a probe");
	watch_set_free(&ws);
	snprintf(buf, sizeof(buf), "%d", cpu);
	watch_canary_init(&d, NULL, buf);
	ok(cpu >= 0 && d.how == WATCH_CANARY_RECORDED && d.cpu == cpu,
	   "-C naming a CPU perfdb may run on: written there (CPU %d)", cpu);
	watch_canary_init(&d, NULL, "4095");
	ok(allowed_cpu() == 4095 || d.how == WATCH_CANARY_PROBE,
	   "-C naming only CPUs perfdb may not run on: a probe");
	ok(!watch_canary_write(&c) && c.writes == WATCH_CANARY_WRITES && c.write_ns > 0,
	   "written %d times, the time taken kept", WATCH_CANARY_WRITES);
	c.seen = 0;
	ok(watch_canary_short(&c), "0 caught of 1000: short");
	is_str(watch_canary_said(&c, buf, sizeof(buf)), "0 of 1000 writes to a watched variable were caught",
	       "what was seen, in words");
	c.seen = 990;
	c.lost = 10;
	ok(!watch_canary_short(&c), "990 caught and 10 lost by perf's count: not short");
	c.lost = 9;
	ok(watch_canary_short(&c), "990 caught and 9 lost: short");
	is_str(watch_canary_said(&c, buf, sizeof(buf)), "990 of 1000 writes to a watched variable were "
	       "caught, 9 of its samples lost", "losses said");
	ok(!strncmp(watch_canary_event(&c, buf, sizeof(buf)), "mem:0x", 6) && strstr(buf, "/8:w"),
	   "its event: %s", buf);
}

/* canary_fixture: session 3: a watched field (event 3) and the canary's
 * event (4, at 0x7000/8) with 3 samples by perfdb (pid 500) and 2 by
 * another process that happens to write that address (pid 600), one
 * canary sample perf lost. */
static bool canary_fixture(sqlite3 *db)
{
	return exec_sql(db,
		"INSERT INTO session (id, workload, first_time, last_time, first_sample_id, "
		"last_sample_id, nr_cpus_avail) VALUES (3, 'falseshare', 0, 900, 10, 15, 2);"
		"INSERT INTO event (id, session_id, idx, name, type, config1, config2) VALUES "
		"(3, 3, 0, 'mem:0x1000', 5, 4096, 8), (4, 3, 1, 'mem:0x7000', 5, 28672, 8);"
		"INSERT INTO process (id, session_id, pid) VALUES (1, 3, 500), (2, 3, 600);"
		"INSERT INTO thread (id, session_id, process_id, pid, tid) VALUES "
		"(1, 3, 1, 500, 500), (2, 3, 2, 600, 601);"
		"INSERT INTO sample (id, session_id, event_id, time, cpu, thread_id) VALUES "
		"(10, 3, 4, 10, 0, 1), (11, 3, 4, 11, 0, 1), (12, 3, 4, 12, 1, 2),"
		"(13, 3, 4, 13, 0, 1), (14, 3, 4, 14, 1, 2), (15, 3, 3, 100, 1, 2);"
		"INSERT INTO lost (session_id, kind, event_id, n, file_offset) VALUES "
		"(3, 'lost_samples', 4, 1, 0), (3, 'lost_samples', 3, 50, 0);");
}

/* canary_set: a watch set of one field at 0x1000 and a recorded canary at
 * 0x7000 of pid 500 written writes times. */
static void canary_set(struct watch_set *ws, long long writes)
{
	char err[256];
	*ws = (struct watch_set){ .pid = 600, .armed_ns = 50, .ended_ns = 500 };
	watch_add_specs(ws, "fs_shared", err, sizeof(err));
	ws->w[0].name = strdup("fs_shared");
	ws->w[0].size = 8;
	ws->w[0].addr = ws->w[0].object_addr = 0x1000;
	ws->w[0].len = 8;
	ws->canary = (struct watch_canary){ .how = WATCH_CANARY_RECORDED, .addr = 0x7000, .len = 8,
					    .pid = 500, .writes = writes };
}

/* rows_of(db, sql): the count sql gives. */
static long long rows_of(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st = db_prepare(db, sql);
	long long n = -1;
	if (st && sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}

static void test_canary_store(sqlite3 *db)
{
	struct watch_set ws;
	char err[512] = "";
	ok(canary_fixture(db), "canary fixture rows");
	canary_set(&ws, 5);
	is_int(watch_store(db, 3, &ws, err, sizeof(err)), 1, "5 writes, 3 caught by perfdb's pid and 1 "
	       "lost: short (the other process's 2 samples do not count)");
	is_str(err, "3 of 5 writes to a watched variable were caught, 1 of its samples lost",
	       "what was seen");
	ok(ws.canary.seen == 3 && ws.canary.lost == 1, "seen 3, lost 1");
	ok(rows_of(db, "SELECT count(*) FROM watch WHERE session_id = 3") == 0 &&
	   rows_of(db, "SELECT count(*) FROM watch_canary") == 0, "nothing stored");
	watch_set_free(&ws);
	canary_set(&ws, 4);
	ok(!watch_store(db, 3, &ws, err, sizeof(err)), "4 writes, 3 caught and 1 lost: stored: %s", err);
	ok(rows_of(db, "SELECT count(*) FROM watch_canary WHERE session_id = 3 AND how = 'recorded' "
		   "AND event = 'mem:0x7000/8:w' AND addr = 28672 AND len = 8 AND pid = 500 AND "
		   "writes = 4 AND seen = 3") == 1, "its watch_canary row");
	watch_set_free(&ws);
}

/* no_verdict_fixture: sessions 4-8, each watching one field at 0x2000
 * with no write caught, and their canaries: 4 a recorded one caught 0 of
 * 1000 times; 5 none; 6 a probe that caught all 1000; 7 a recorded one
 * caught 990 times with 10 samples lost; 8 a recorded canary's event
 * only, with no watch rows (and 9 a field's event beside it). */
static bool no_verdict_fixture(sqlite3 *db)
{
	return exec_sql(db,
		"INSERT INTO session (id, workload, first_time, last_time, first_sample_id, "
		"last_sample_id, nr_cpus_avail) VALUES (4, 'w', 0, 900, 1, 0, 2), (5, 'w', 0, 900, 1, 0, 2),"
		"(6, 'w', 0, 900, 1, 0, 2), (7, 'w', 0, 900, 20, 20, 2), (8, 'w', 0, 900, 21, 22, 2),"
		"(9, 'w', 0, 900, 23, 25, 2);"
		"INSERT INTO event (id, session_id, idx, name, type, config1, config2) VALUES "
		"(40, 4, 0, 'mem:0x2000', 5, 8192, 8), (41, 4, 1, 'mem:0x7000', 5, 28672, 8),"
		"(50, 5, 0, 'mem:0x2000', 5, 8192, 8), (60, 6, 0, 'mem:0x2000', 5, 8192, 8),"
		"(70, 7, 0, 'mem:0x2000', 5, 8192, 8), (71, 7, 1, 'mem:0x7000', 5, 28672, 8),"
		"(80, 8, 0, 'mem:0x7000', 5, 28672, 8),"
		"(90, 9, 0, 'mem:0x2000', 5, 8192, 8), (91, 9, 1, 'mem:0x7000', 5, 28672, 8);"
		"INSERT INTO sample (id, session_id, event_id, time, cpu) VALUES (20, 7, 71, 10, 0),"
		"(21, 8, 80, 10, 0), (22, 8, 80, 11, 1), (23, 9, 91, 10, 0), (24, 9, 91, 11, 1),"
		"(25, 9, 90, 12, 1);"
		"INSERT INTO lost (session_id, kind, event_id, n, file_offset) VALUES "
		"(7, 'lost_samples', 71, 10, 0);"
		"INSERT INTO watch (session_id, idx, spec, kind, field, object_addr, offset, size, addr, "
		"len, partial, wider, event, pid, mm_mode, armed_ns, ended_ns) VALUES "
		"(4, 0, 'v', 'symbol', 'v', 8192, 0, 8, 8192, 8, 0, 0, 'mem:0x2000/8:w', 9, 'exec', 0, 900),"
		"(5, 0, 'v', 'symbol', 'v', 8192, 0, 8, 8192, 8, 0, 0, 'mem:0x2000/8:w', 9, 'exec', 0, 900),"
		"(6, 0, 'v', 'symbol', 'v', 8192, 0, 8, 8192, 8, 0, 0, 'mem:0x2000/8:w', 9, 'exec', 0, 900),"
		"(7, 0, 'v', 'symbol', 'v', 8192, 0, 8, 8192, 8, 0, 0, 'mem:0x2000/8:w', 9, 'exec', 0, 900);"
		"INSERT INTO watch_canary (session_id, how, event, addr, len, pid, writes, seen) VALUES "
		"(4, 'recorded', 'mem:0x7000/8:w', 28672, 8, 500, 1000, 0),"
		"(6, 'probe', NULL, 28672, 8, 500, 1000, 1000),"
		"(7, 'recorded', 'mem:0x7000/8:w', 28672, 8, 500, 1000, 990),"
		"(8, 'recorded', 'mem:0x7000/8:w', 28672, 8, 500, 1000, 2),"
		"(9, 'recorded', 'mem:0x7000/8:w', 28672, 8, 500, 1000, 1000);");
}

/* cell_of(t, row, name): the cell of column name in row, or NULL. */
static const struct cell *cell_of(const struct table *t, size_t row, const char *name)
{
	int c = t ? table_find_col(t, name) : -1;
	return c >= 0 && row < table_nrows(t) ? table_cell(t, row, c) : NULL;
}

/* text_of(t, row, name): the string in column name ("" for NULL). */
static const char *text_of(const struct table *t, size_t row, const char *name)
{
	const struct cell *c = cell_of(t, row, name);
	return c && c->kind == CELL_STR ? c->v.s : "";
}

/* warned(d, text): whether a warning of d holds text. */
static bool warned(const struct doc *d, const char *text)
{
	for (size_t i = 0; i < doc_nwarnings(d); i++)
		if (strstr(doc_warning_at(d, i), text))
			return true;
	return false;
}

/* findings_of(db, id): watch's document of session id (NULL on error). */
static struct doc *findings_of(sqlite3 *db, int64_t id)
{
	struct hitm_watch_opts o = { .min_transfers = WATCH_MIN_TRANSFERS, .site_rows = 5 };
	struct doc *d = doc_new("watch");
	char err[512];
	if (!watch_findings(db, &id, 1, &o, d, err, sizeof(err)))
		return d;
	printf("# session %lld: %s\n", (long long)id, err);
	doc_free(d);
	return NULL;
}

/* firing_of(db, id): watch_firing of session id, -1 when it does not load. */
static int firing_of(sqlite3 *db, int64_t id)
{
	struct watch_data d;
	char err[256];
	int f = watch_load(db, id, &d, err, sizeof(err)) == 1 ? (int)watch_firing(&d) : -1;
	watch_data_free(&d);
	return f;
}

/* check_no_verdict(db, id, firing, warning): session id's document has
 * no verdict, says firing in windows and warns with warning. */
static void check_no_verdict(sqlite3 *db, int64_t id, const char *firing, const char *warning)
{
	struct doc *d = findings_of(db, id);
	const struct table *l = d ? doc_table(d, "cachelines") : NULL, *w = d ? doc_table(d, "windows") : NULL;
	const struct cell *v = cell_of(l, 0, "verdict");
	ok(l && table_nrows(l) == 1 && v && v->kind == CELL_NULL &&
	   !strncmp(text_of(l, 0, "verdict_detail"), "no verdict: ", 12),
	   "session %lld: its line has no verdict (%s)", (long long)id, text_of(l, 0, "verdict_detail"));
	is_str(text_of(w, 0, "watchpoints"), firing, "session %lld: windows says the watchpoints %s",
	       (long long)id, firing);
	ok(d && warned(d, warning), "session %lld warns: %s", (long long)id, warning);
	doc_free(d);
}

/* check_hitm_no_verdict(db, id): hitm's document of session id (what
 * perfdb hitm and the report's evidence show) has no verdict either. */
static void check_hitm_no_verdict(sqlite3 *db, int64_t id)
{
	struct hitm_opts o = { .c2c = { .display = -1, .dbpath = "x.db" },
		.watch = { .min_transfers = WATCH_MIN_TRANSFERS, .site_rows = 3, .rows = 10 } };
	struct doc *d = doc_new("hitm");
	char err[512];
	const struct table *l;
	ok(!hitm_findings(db, &id, 1, &o, d, err, sizeof(err)) && (l = doc_table(d, "cachelines")) &&
	   table_nrows(l) == 1 && cell_of(l, 0, "verdict")->kind == CELL_NULL &&
	   warned(d, "no verdict: the watchpoints did not fire"),
	   "session %lld: hitm's document (the report's evidence) gives no verdict either",
	   (long long)id);
	doc_free(d);
}

static void test_no_verdict(sqlite3 *db)
{
	struct watch_data wd = { .n = 0 };
	struct doc *d;
	ok(no_verdict_fixture(db), "no-verdict fixture rows");
	is_int(watch_firing(&wd), WATCH_FIRING_UNKNOWN, "no canary, no sample: unknown");
	wd.outside = 1;
	is_int(watch_firing(&wd), WATCH_FIRING_TRAPS, "no canary, a write caught (even outside): fired");
	wd.canary = (struct watch_canary_row){ .present = true, .writes = 1000, .seen = 999 };
	is_int(watch_firing(&wd), WATCH_FIRING_NOT, "a canary short by one: do not fire");
	ok(!watch_gives_verdict(WATCH_FIRING_NOT) && !watch_gives_verdict(WATCH_FIRING_UNKNOWN) &&
	   watch_gives_verdict(WATCH_FIRING_VERIFIED) && watch_gives_verdict(WATCH_FIRING_TRAPS),
	   "a verdict only where the watchpoints are verified or caught writes");
	is_int(firing_of(db, 4), WATCH_FIRING_NOT, "session 4: canary 0 of 1000: do not fire");
	check_no_verdict(db, 4, "do not fire", "no verdict: the watchpoints did not fire: 0 of 1000 "
			 "writes to a watched variable (perfdb's canary, recorded beside them) were caught");
	check_hitm_no_verdict(db, 4);
	is_int(firing_of(db, 5), WATCH_FIRING_UNKNOWN, "session 5: no canary, no write: unverified");
	check_no_verdict(db, 5, "unverified", "no verdict: no write was caught by any watchpoint, and "
			 "this session has no canary to tell a quiet field from watchpoints that do not fire");
	is_int(firing_of(db, 6), WATCH_FIRING_VERIFIED, "session 6: a probe caught 1000 of 1000: verified");
	d = findings_of(db, 6);
	ok(d && !strcmp(text_of(doc_table(d, "cachelines"), 0, "verdict"), "no sharing seen") &&
	   !warned(d, "no verdict") && !strcmp(text_of(doc_table(d, "windows"), 0, "canary"), "probe"),
	   "verified and quiet: no sharing seen, no warning, canary probe");
	doc_free(d);
	is_int(firing_of(db, 7), WATCH_FIRING_VERIFIED, "session 7: 990 caught and 10 lost: verified");
	ok(hitm_watched(db, 7) && !hitm_watched(db, 8), "session 8's only breakpoint event is the "
	   "canary's: nothing watched");
	d = findings_of(db, 9);
	ok(d && table_nrows(doc_table(d, "fields")) == 1 &&
	   !strcmp(text_of(doc_table(d, "fields"), 0, "field"), "unknown object") &&
	   cell_of(doc_table(d, "fields"), 0, "writes")->v.i == 1,
	   "no watch rows: the canary's event is no field (one field, its 1 write)");
	doc_free(d);
}

static void test_canary_db(const char *dir)
{
	char path[PATH_MAX], err[512] = "";
	sqlite3 *db;
	snprintf(path, sizeof(path), "%s/canary.db", dir);
	if (!ok((db = db_open(path, true, err, sizeof(err))) != NULL, "a fresh database: %s", err))
		return;
	test_canary_store(db);
	test_no_verdict(db);
	sqlite3_close(db);
}

int main(void)
{
	char dir[] = "/tmp/perfdb-watch-XXXXXX", cmd[64];
	test_specs();
	test_limit();
	test_window();
	test_metric();
	test_cpu_list();
	test_format();
	test_ring();
	test_false_sharing();
	test_true_sharing();
	test_padded_and_check();
	test_both();
	test_site_names();
	test_canary_choice();
	free(data.s);
	if (mkdtemp(dir)) {
		test_store_load(dir);
		test_canary_db(dir);
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd))
			printf("# could not remove %s\n", dir);
	}
	return tap_done();
}
