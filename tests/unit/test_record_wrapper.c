/* Unit tests of collect/record/record_wrapper.c's wrapper_status_live_pid: the
 * pid a stop signal is passed to comes from the status file's "started
 * PID" only while the file records no end (exit, signal, exec): once the
 * wrapper wrote it, it exits and its pid may be reused, however long perf
 * runs on after it. Files of a few bytes and past one read's 1 KB. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "collect/record/record_wrapper.h"
#include "tests/unit/tap.h"

static char path[] = "/tmp/perfdb-test-wrapper-XXXXXX";

/* live(text): wrapper_status_live_pid of a status file holding text. */
static long live(const char *text)
{
	FILE *f = fopen(path, "w");
	if (!f || fputs(text, f) == EOF || fclose(f))
		return -2;
	return (long)wrapper_status_live_pid(path);
}

int main(void)
{
	char big[4096 + 64];
	int fd = mkstemp(path);
	if (fd < 0)
		return 1;
	close(fd);
	is_int(live("started 4242\n"), 4242, "started: its pid");
	is_int(live("started 4242\nmetric ops=3\nstart 17\nusage 1 2 3 4 5 6\n"), 4242,
	       "metric, start and usage lines: still its pid");
	is_int(live("started 4242\nmetric ops=3\nusage 1 2 3 4 5 6\nexit 0\n"), 0, "after exit 0: none");
	is_int(live("started 4242\nsignal 2\n"), 0, "after signal 2: none");
	is_int(live("started 4242\nexec 2\n"), 0, "after exec 2: none");
	is_int(live("started 42x\n"), 0, "a malformed pid: none");
	is_int(live("metric a=1\n"), 0, "no started line: none");
	memset(big, 0, sizeof(big));
	strcpy(big, "started 4242\nout-tail ");
	memset(big + strlen(big), 'a', 2000);
	strcat(big, "\nexit 1\n");
	is_int(live(big), 0, "exit after a 2 KB line: none");
	big[strlen(big) - 7] = 0;
	is_int(live(big), 4242, "a 2 KB line and no end: its pid");
	unlink(path);
	return tap_done();
}
