/* Unit tests of analyze/perf_cmdline.c: a stored perf command line shown
 * as a user would type it, without perfdb record's wrapper and temporary
 * perf.data path. */
#include <stdlib.h>
#include "analyze/perf_cmdline.h"
#include "tests/unit/tap.h"

/* shown(line, want, what): perf_cmdline_shown(line) is want. */
static void shown(const char *line, const char *want, const char *what)
{
	char *s = perf_cmdline_shown(line);
	is_str(s, want, "%s", what);
	free(s);
}

/* test_wrapper(): the wrapper's words go, in each of its forms. */
static void test_wrapper(void)
{
	shown("perf record -a -e sched:sched_switch -- /usr/bin/perfdb record __exec /tmp/d/status -- "
	      "yield --seconds 0.2",
	      "perf record -a -e sched:sched_switch -- yield --seconds 0.2", "the wrapper goes");
	shown("perf record -g -- /w/build/perfdb record __exec /w/.perfdb-record-9-ab/status quiet-metrics -- "
	      "bench -n 3", "perf record -g -- bench -n 3", "quiet-metrics");
	shown("perf record -- /proc/77/exe record __exec s quiet-output -- w", "perf record -- w", "quiet-output");
	shown("perf record -- '/my dir/perfdb' record __exec '/my dir/.perfdb-record-1-x/status' -- "
	      "sh -c 'echo a -- b'", "perf record -- sh -c 'echo a -- b'", "quoted words with blanks");
	shown("perf record -- perfdb record __exec s -- w record __exec t -- v",
	      "perf record -- w record __exec t -- v", "only the first wrapper goes");
}

/* test_temp_output(): -o of a temporary directory's perf.data goes;
 * another -o stays. */
static void test_temp_output(void)
{
	shown("perf record -o /db/.perfdb-record-12-AbCdEf/perf.data -a -- /b/perfdb record __exec "
	      "/db/.perfdb-record-12-AbCdEf/status -- yield", "perf record -a -- yield", "the temporary -o goes");
	shown("perf record -o /db/run1.data -a -- /b/perfdb record __exec s -- yield",
	      "perf record -o /db/run1.data -a -- yield", "a placed -o (--perf-data) stays");
	shown("perf record -o /db/.perfdb-record-1-x/sub/perf.data -a", "perf record -o /db/.perfdb-record-1-x/sub/perf.data -a",
	      "not right inside the temporary directory: stays");
}

/* test_unchanged(): lines without the wrapper are copied as they are. */
static void test_unchanged(void)
{
	shown("/usr/bin/perf record -a  -g -- sleep 1", "/usr/bin/perf record -a  -g -- sleep 1", "an imported line");
	shown("perf record -- perfdb record __exec s", "perf record -- perfdb record __exec s", "no '--' after it");
	shown("perf record -- x record __exec s quiet-output w", "perf record -- x record __exec s quiet-output w",
	      "a word other than '--' after the mode");
	shown("", "", "empty");
	ok(perf_cmdline_shown(NULL) == NULL, "NULL gives NULL");
}

int main(void)
{
	test_wrapper();
	test_temp_output();
	test_unchanged();
	return tap_done();
}
