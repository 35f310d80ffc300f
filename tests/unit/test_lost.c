/* Unit tests that pin what analyze/lost_note.c says perf lost, on lost
 * rows written here: a LOST record counts in a window when the span it
 * covers, (since, time], overlaps it, each end on both sides of the
 * window's (a record stamped exactly at the window's start counts, one
 * 1 ns before does not; one whose span starts exactly at the window's end
 * does not, 1 ns before does; a record without since covers everything
 * before it); LOST_SAMPLES count whole; sessions imported before the lost
 * table count their totals; the warning's words, the findings' numbers
 * per CPU and event, the note for losses outside the window, lost_cpus
 * and both sides of a comparison. */
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tests/unit/db_util.h"
#include "analyze/lost_note.h"
#include "lib/doc.h"
#include "schema/db.h"
#include "tests/unit/tap.h"

static sqlite3 *db;

/* sql(text, types, ...): one statement ('i' int64, 's' text, 'n' NULL). */
static int64_t sql(const char *text, const char *types, ...)
{
	va_list ap;
	va_start(ap, types);
	int64_t id = db_vsql(db, text, types, ap);
	va_end(ap);
	return id;
}

/* lost(session, cpu, since, time, n): a LOST record (since < 0: none). */
static void lost(int64_t session, int64_t cpu, int64_t since, int64_t time, int64_t n)
{
	if (since < 0)
		sql("INSERT INTO lost (session_id, kind, time, cpu, n, file_offset) VALUES (?, 'lost', ?, ?, ?, 0)",
		    "iiii", session, time, cpu, n);
	else
		sql("INSERT INTO lost (session_id, kind, time, cpu, n, file_offset, since) VALUES (?, 'lost', ?, ?, "
		    "?, 0, ?)", "iiiii", session, time, cpu, n, since);
}

/* num(d, key): a number of d's findings object "lost", -1 when absent. */
static long long num(const struct doc *d, const char *key)
{
	const struct dval *o = dv_get(doc_findings_c(d), "lost"), *v = o ? dv_get(o, key) : NULL;
	return v ? dv_int_of(v) : -1;
}

/* cpu_row(d, cpu, key): a number of the "cpus" row of cpu (-1: the
 * unknown CPU), -1 when absent. */
static long long cpu_row(const struct doc *d, int cpu, const char *key)
{
	const struct dval *o = dv_get(doc_findings_c(d), "lost"), *a = o ? dv_get(o, "cpus") : NULL;
	for (size_t i = 0; a && i < dv_len(a); i++) {
		const struct dval *r = dv_item(a, i), *c = dv_get(r, "cpu");
		if ((cpu < 0 && dv_kind(c) == DV_NULL) || (cpu >= 0 && dv_kind(c) == DV_INT && dv_int_of(c) == cpu))
			return dv_int_of(dv_get(r, key));
	}
	return -1;
}

/* warned(d, text): d has a warning starting with text. */
static bool warned(const struct doc *d, const char *text)
{
	for (size_t i = 0; i < doc_nwarnings(d); i++)
		if (!strncmp(doc_warning_at(d, i), text, strlen(text)))
			return true;
	return false;
}

/* test_window: session 1's LOST records against the window [1000, 2000]:
 * CPU 0 stamped at 1000 (counts) and 999 (before); CPU 1 covering
 * (1999, 2500] (counts) and (2000, 2500] (after); CPU 2 without since,
 * stamped at 5000 (covers the window); CPU 3 only before it; CPU unknown
 * at 1500; 3 samples lost by event cycles (whole). */
static void test_window(void)
{
	int64_t s = sql("INSERT INTO session (label) VALUES ('w')", "");
	int64_t ev = sql("INSERT INTO event (session_id, idx, name) VALUES (?, 0, 'cycles')", "i", s);
	lost(s, 0, 500, 1000, 7);
	lost(s, 0, 400, 999, 100);
	lost(s, 1, 1999, 2500, 11);
	lost(s, 1, 2000, 2500, 200);
	lost(s, 2, -1, 5000, 13);
	lost(s, 3, 10, 100, 19);
	sql("INSERT INTO lost (session_id, kind, time, n, file_offset, since) VALUES (?, 'lost', 1500, 17, 0, 1400)",
	    "i", s);
	sql("INSERT INTO lost (session_id, kind, event_id, n, file_offset) VALUES (?, 'lost_samples', ?, 3, 0)",
	    "ii", s, ev);
	struct doc *d = doc_new("t");
	ok(lost_note(db, &s, 1, 1000, 2000, "DOUBT", d), "the window [1000, 2000] lost something");
	is_int(num(d, "events"), 7 + 11 + 13 + 17, "events: the records whose span overlaps the window");
	is_int(num(d, "records"), 4, "4 LOST records inside");
	is_int(num(d, "samples"), 3, "3 samples (LOST_SAMPLES count whole)");
	ok(cpu_row(d, 0, "events") == 7 && cpu_row(d, 0, "records") == 1,
	   "CPU 0: the record stamped at the window's start, not the one 1 ns before");
	ok(cpu_row(d, 1, "events") == 11, "CPU 1: the span starting 1 ns before the window's end, not the one at it");
	ok(cpu_row(d, 2, "events") == 13, "CPU 2: a record without since covers the window");
	ok(cpu_row(d, -1, "events") == 17, "a record of no known CPU: its own row");
	ok(cpu_row(d, 3, "events") == -1, "CPU 3, which lost only before the window: no row");
	const struct dval *o = dv_get(doc_findings_c(d), "lost");
	ok(o && dv_bool_of(dv_get(o, "whole")), "whole: the samples count is the recording's");
	ok(warned(d, "the window lost 48 events (perf's LOST records: CPU 0: 7 in 1 records, CPU 1: 11 in 1 "
		  "records, CPU 2: 13 in 1 records, CPU unknown: 17 in 1 records) and 3 samples (perf's LOST_SAMPLES "
		  "over the whole recording: cycles 3): DOUBT"), "the warning says it all (%s)",
	   doc_nwarnings(d) ? doc_warning_at(d, 0) : "none");
	doc_free(d);
	long long out[3] = { 0, 0, 0 };
	ok(lost_cpus(db, &s, 1, 1000, 2000, out, 3) && out[0] == 7 && out[1] == 11 && out[2] == 13,
	   "lost_cpus: CPUs 0, 1, 2 lost 7, 11, 13 in the window");
	d = doc_new("t");
	ok(lost_note(db, &s, 1, 3000, 4000, "DOUBT", d) && num(d, "events") == 13 && num(d, "samples") == 3,
	   "the window [3000, 4000]: only CPU 2's record without since, and the samples");
	doc_free(d);
}

/* test_outside: a session that lost only outside the window: a note, no
 * warning; one that lost only samples: a warning. */
static void test_outside(void)
{
	int64_t s = sql("INSERT INTO session (label) VALUES ('o')", "");
	lost(s, 0, 10, 20, 5);
	struct doc *d = doc_new("t");
	ok(!lost_note(db, &s, 1, 1000, 2000, "DOUBT", d) && !doc_nwarnings(d) && doc_nnotes(d) == 1 &&
	   strstr(doc_note_at(d, 0), "lost 5 events outside the window"), "lost only before the window: a note");
	ok(dv_get(doc_findings_c(d), "lost") == NULL, "... and no findings");
	doc_free(d);
	int64_t t = sql("INSERT INTO session (label, nr_lost_samples) VALUES ('s', 4)", "");
	d = doc_new("t");
	ok(lost_note(db, &t, 1, INT64_MIN, INT64_MAX, "DOUBT", d) && num(d, "samples") == 4 &&
	   warned(d, "the recording lost 0 events and 4 samples: DOUBT"), "samples alone lost: the warning");
	doc_free(d);
}

/* test_totals: sessions imported before the lost table count their
 * totals; two sessions, and both sides of a comparison, add up. */
static void test_totals(void)
{
	int64_t a = sql("INSERT INTO session (label, nr_lost, nr_lost_samples, nr_lost_records) VALUES ('a', 40, "
			"0, 2)", "");
	int64_t b = sql("INSERT INTO session (label, nr_lost, nr_lost_samples, nr_lost_records) VALUES ('b', 2, "
			"0, 1)", "");
	int64_t both[2] = { a, b };
	struct doc *d = doc_new("t");
	ok(lost_note(db, both, 2, INT64_MIN, INT64_MAX, "DOUBT", d) && num(d, "events") == 42 &&
	   num(d, "records") == 3, "two older sessions: their totals, 42 events in 3 records");
	ok(warned(d, "the sessions lost 42 events and 0 samples: DOUBT"), "... said of the sessions");
	doc_free(d);
	d = doc_new("t");
	ok(lost_note_sides(db, &a, 1, &b, 1, INT64_MIN, INT64_MAX, "DOUBT", d) && num(d, "events") == 42,
	   "both sides of a comparison: 40 + 2");
	doc_free(d);
}

int main(void)
{
	char path[] = "/tmp/perfdb_test_lost_XXXXXX", err[256];
	int fd = mkstemp(path);
	if (fd < 0)
		return 1;
	close(fd);
	unlink(path);
	if (!(db = db_open(path, true, err, sizeof(err)))) {
		printf("# %s\n", err);
		return 1;
	}
	test_window();
	test_outside();
	test_totals();
	sqlite3_close(db);
	unlink(path);
	return tap_done();
}
