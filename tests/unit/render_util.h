/* What the unit tests of tables (test_table.c) and of their rendering
 * (test_render.c) share: a table or document rendered into a string,
 * Python 3 as an oracle, exact-output checks, the json envelope
 * render_doc writes, and checks that a misuse aborts. Static inline, so
 * that each test counts its checks with its own tap.h counters. */
#ifndef PERFDB_TEST_RENDER_UTIL_H
#define PERFDB_TEST_RENDER_UTIL_H
#include "lib/doc.h"
#include "lib/table.h"
#include "lib/version.h"
#include "reports/format.h"
#include "reports/render.h"
#include "tests/unit/tap.h"

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* render(t, f): the malloc'd output of render_table(t, f). */
static inline char *render(const struct table *t, enum out_format f)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int rc = render_table(t, f, m);
	fclose(m);
	if (rc) {
		free(buf);
		buf = strdup("(render_table failed)");
	}
	return buf;
}

/* render_d(d, f, only): the malloc'd output of render_doc(d, f, only). */
static inline char *render_d(const struct doc *d, enum out_format f, const char *only)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int rc = render_doc(d, f, only, m);
	fclose(m);
	if (rc) {
		free(buf);
		buf = strdup("(render_doc failed)");
	}
	return buf;
}

/* python(script, input, len): runs `python3 -c 'script'` with input on its
 * stdin and returns true when it exits 0. The script must not contain a
 * single quote; it may print "# ..." diagnostics, which TAP shows. */
static inline bool python(const char *script, const char *input, size_t len)
{
	char *cmd;
	if (asprintf(&cmd, "python3 -c '%s'", script) < 0)
		return false;
	fflush(stdout);
	FILE *p = popen(cmd, "w");
	free(cmd);
	if (!p)
		return false;
	fwrite(input, 1, len, p);
	int st = pclose(p);
	return st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

/* json_valid(s): whether Python decodes s as strict UTF-8 and parses it
 * as one JSON document. */
static inline bool json_valid(const char *s)
{
	return python("import json,sys; json.loads(sys.stdin.buffer.read().decode(\"utf-8\"))",
		      s, strlen(s));
}

/* in_order(s, parts, n): whether the strings parts[0..n-1] all occur in
 * s, each after the previous one. */
static inline bool in_order(const char *s, const char *const *parts, size_t n)
{
	for (size_t i = 0; i < n && s; i++)
		if ((s = strstr(s, parts[i])))
			s += strlen(parts[i]);
	return s != NULL;
}

/* envelope(verb, title, findings, warnings, notes): the malloc'd json
 * envelope render_doc writes, around the given pretty members (each
 * already indented as it is inside the envelope). */
static inline char *envelope(const char *verb, const char *title, const char *findings,
		      const char *warnings, const char *notes)
{
	char *s = NULL, *t = NULL;
	if (title && asprintf(&t, "  \"title\": \"%s\",\n", title) < 0)
		t = NULL;
	if (asprintf(&s,
		     "{\n  \"perfdb\": \"%s\",\n  \"verb\": \"%s\",\n%s  \"sessions\": [],\n"
		     "  \"findings\": %s,\n  \"warnings\": %s,\n  \"notes\": %s\n}\n",
		     perfdb_version, verb, t ? t : "", findings, warnings, notes) < 0)
		s = NULL;
	free(t);
	return s;
}

/* check(t, f, want, what): the output of t in format f is exactly want;
 * JSON output must also be valid JSON. */
static inline void check(const struct table *t, enum out_format f, const char *want, const char *what)
{
	char *s = render(t, f);
	is_str(s, want, "%s (%s)", what, out_format_name(f));
	if (f == FMT_JSON)
		ok(json_valid(s), "%s: json output is valid JSON", what);
	free(s);
}

/* one_row(name, title, v): a table of one integer column "x" holding v. */
static inline struct table *one_row(const char *name, const char *title, long long v)
{
	struct table *t = table_new(name, title);
	table_col(t, "x", COL_INT, 0);
	table_add_row(t);
	table_set_int(t, 0, v);
	return t;
}

/* What every programming error's message starts with. */
#define BUG "perfdb: internal error: "

/* expect_abort(fn, msg): runs fn in a child; it must die of SIGABRT after
 * writing a stderr line that contains msg. */
static inline void expect_abort(void (*fn)(void), const char *msg)
{
	int fd[2];
	char buf[512] = "";
	if (pipe(fd)) {
		ok(0, "pipe for %s", msg);
		return;
	}
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		dup2(fd[1], 2);
		close(fd[0]);
		fn();
		_exit(0);
	}
	close(fd[1]);
	size_t n = 0;
	ssize_t r;
	while (n < sizeof(buf) - 1 && (r = read(fd[0], buf + n, sizeof(buf) - 1 - n)) > 0)
		n += (size_t)r;
	buf[n] = '\0';
	close(fd[0]);
	int st = 0;
	waitpid(pid, &st, 0);
	ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT && strstr(buf, msg),
	   "aborts with '%s'", msg);
}

#endif
