/* The hidden wrapper of perfdb record and its status file (see
 * record_wrapper.h). */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "collect/record/record_wrapper.h"
#include "collect/spawn.h"
#include "lib/alloc.h"
#include "lib/prog.h"

static volatile pid_t workload_pid;
static volatile sig_atomic_t passed;	/* the workload was given a stop signal */

/* on_signal: a stop signal goes on to the workload, as the workload would
 * have got it without perf and perfdb between: one from the terminal
 * (the kernel's: Ctrl-C, a hangup) reached it already; one sent by a
 * process (perfdb passing on what it got, or kill) is passed on; perf's
 * SIGTERM, which perf sends when it stops, is passed on only when the
 * workload has been given no stop signal yet (perfdb's --timeout, perf
 * failing), so that a workload told SIGINT gets SIGINT alone. */
static void on_signal(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	if (si->si_code == SI_KERNEL) {
		passed = 1;
		return;
	}
	if (sig == SIGPIPE && si->si_pid == getpid())	/* a write of ours: EPIPE says it */
		return;
	if (sig == SIGTERM && si->si_pid == getppid() && passed)
		return;
	if (workload_pid > 0) {
		kill(workload_pid, sig);
		passed = 1;
	}
}

/* handlers: the wrapper's signal handlers (a SIGHUP ignored under nohup
 * stays ignored); a write to a stdout or stderr whose reader has gone
 * fails with EPIPE (and the workload then gets the SIGPIPE). */
static void handlers(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE };
	struct sigaction sa = { 0 }, old;
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(*sigs); i++)
		if (sigs[i] != SIGHUP || sigaction(SIGHUP, NULL, &old) || old.sa_handler != SIG_IGN)
			sigaction(sigs[i], &sa, NULL);
}

/* The wrapper's two files. */
struct wrapper_files {
	int status, out;
};

/* tee_line(line, arg): a stdout line of CMD, copied to the .out file;
 * a metric= line is a result line (kept off stdout when quiet). */
static int tee_line(const char *line, void *arg)
{
	const struct wrapper_files *f = arg;
	size_t n = strlen(line);
	if (f->out >= 0 && write(f->out, line, n) != (ssize_t)n)
		dprintf(f->status, "out-error %s\n", strerror(errno));
	return !strncmp(line, "metric=", 7);
}

/* wrapper_out_path: see record_wrapper.h. */
int wrapper_out_path(const char *status, char *buf, size_t len)
{
	return (size_t)snprintf(buf, len, "%s.out", status) < len ? 0 : -1;
}

/* write_hex(fd, key, s): "KEY HEX" of the string s (a line whatever s holds). */
static void write_hex(int fd, const char *key, const char *s)
{
	char buf[2 * WL_TAIL + 1];
	size_t n = 0;
	for (; *s && n + 2 < sizeof(buf); s++, n += 2)
		snprintf(buf + n, 3, "%02x", (unsigned char)*s);
	buf[n] = 0;
	dprintf(fd, "%s %s\n", key, buf);
}

/* write_end(fd, r): the usage, the output's ends and the end of the run. */
static void write_end(int fd, const struct wl_result *r)
{
	struct wl_usage u = wl_usage_of(r);
	dprintf(fd, "start %lld\n", (long long)r->start_ns);
	write_hex(fd, "out-tail", r->out_tail);
	write_hex(fd, "err-tail", r->err_tail);
	dprintf(fd, "usage %lld %lld %lld %lld %lld %lld\n", (long long)u.user_ns,
		(long long)u.sys_ns, (long long)u.wall_ns, u.max_rss_kb, u.nvcsw, u.nivcsw);
	if (WIFEXITED(r->status))
		dprintf(fd, "exit %d\n", WEXITSTATUS(r->status));
	else
		dprintf(fd, "signal %d\n", WTERMSIG(r->status));
}

/* record_exec_wrapper: see record_wrapper.h. */
int record_exec_wrapper(int argc, char **argv)
{
	struct wl_result r;
	struct wrapper_files f;
	char out[PATH_MAX];
	int fd;
	bool mute = argc > 2 && !strcmp(argv[2], "quiet-output");
	bool quiet = mute || (argc > 2 && !strcmp(argv[2], "quiet-metrics"));
	if (quiet) {	/* "__exec STATUS quiet-metrics|quiet-output -- CMD" */
		argv[2] = argv[1];
		argv++;
		argc--;
	}
	if (argc < 4 || strcmp(argv[2], "--")) {
		eprintf("usage: perfdb record __exec STATUSFILE -- CMD [ARG...]\n");
		return 127;
	}
	if ((fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600)) < 0) {
		eprintf("%s: %s\n", argv[1], strerror(errno));
		return 127;
	}
	f.status = fd;
	f.out = wrapper_out_path(argv[1], out, sizeof(out)) ? -1 :
		open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	handlers();
	dprintf(fd, "started %d\n", (int)getpid());
	struct wl_opts o = { .out_fd = 1, .err_fd = mute ? -1 : 2, .echo_results = !quiet, .on_line = tee_line,
			     .arg = &f, .pidp = &workload_pid, .pass_epipe = true };
	if (workload_run(argv + 3, &o, &r)) {
		dprintf(fd, "exec %d\n", r.exec_errno ? r.exec_errno : errno);
		close(fd);
		if (f.out >= 0)
			close(f.out);
		return 127;
	}
	if (f.out >= 0)
		close(f.out);
	write_end(fd, &r);
	close(fd);
	return proc_end_like(r.status);
}

/* read_hex(hex, out, cap): decodes the hex digits at hex into out (at most
 * cap - 1 bytes, NUL-terminated; stops at the first non-hex pair). */
static void read_hex(const char *hex, char *out, size_t cap)
{
	size_t n = 0;
	unsigned v;
	while (n + 1 < cap && isxdigit((unsigned char)hex[0]) && isxdigit((unsigned char)hex[1]) &&
	       sscanf(hex, "%2x", &v) == 1) {
		out[n++] = (char)v;
		hex += 2;
	}
	out[n] = 0;
}

/* one_line(s, line): one line of the file. */
static void one_line(struct wrapper_status *s, char *line)
{
	struct wl_usage *u = &s->usage;
	long long v[6];
	int n;
	line[strcspn(line, "\n")] = 0;
	if (!strncmp(line, "started", 7) && (!line[7] || line[7] == ' '))
		s->kind = WL_STARTED;
	else if (!strncmp(line, "out-tail ", 9))
		read_hex(line + 9, s->out_tail, sizeof(s->out_tail));
	else if (!strncmp(line, "err-tail ", 9))
		read_hex(line + 9, s->err_tail, sizeof(s->err_tail));
	else if (sscanf(line, "start %lld", &v[0]) == 1)
		s->start_ns = v[0];
	else if (sscanf(line, "usage %lld %lld %lld %lld %lld %lld", &v[0], &v[1], &v[2], &v[3],
			&v[4], &v[5]) == 6) {
		*u = (struct wl_usage){ v[0], v[1], v[2], v[3], v[4], v[5] };
		s->have_usage = true;
	} else if (sscanf(line, "exit %d", &n) == 1 || sscanf(line, "signal %d", &n) == 1 ||
		   sscanf(line, "exec %d", &n) == 1) {
		s->value = n;
		s->kind = line[1] == 'x' && line[2] == 'i' ? WL_EXIT : line[0] == 's' ? WL_SIGNAL : WL_EXEC;
	}
}

/* wrapper_status_read: see record_wrapper.h. */
void wrapper_status_read(const char *path, struct wrapper_status *s)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	memset(s, 0, sizeof(*s));
	while (f && getline(&line, &cap, f) > 0)
		one_line(s, line);
	free(line);
	if (f)
		fclose(f);
}

/* is_end_line(head, n): whether a line beginning with head (its first n
 * characters, at most 8 kept) is the wrapper's last, its end. */
static bool is_end_line(const char *head, int n)
{
	return (n >= 5 && !memcmp(head, "exit ", 5)) || (n >= 7 && !memcmp(head, "signal ", 7)) ||
	       (n >= 5 && !memcmp(head, "exec ", 5));
}

/* wrapper_status_live_pid: see record_wrapper.h. Reads with read(2) only,
 * into a stack buffer, a line's head at a time. */
pid_t wrapper_status_live_pid(const char *path)
{
	char buf[1024], head[8];
	int fd = open(path, O_RDONLY | O_CLOEXEC), hn = 0, line = 0;
	long pid = 0;
	ssize_t n;
	if (fd < 0)
		return 0;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		for (ssize_t i = 0; i < n; i++) {
			if (buf[i] != '\n') {
				if (line == 0 && hn >= 8 && pid >= 0)	/* -1: not "started DIGITS" */
					pid = buf[i] >= '0' && buf[i] <= '9' && pid < INT_MAX / 10 ?
					      pid * 10 + (buf[i] - '0') : -1;
				if (hn < (int)sizeof(head))
					head[hn++] = buf[i];
				continue;
			}
			if ((line == 0 && (hn < 8 || memcmp(head, "started ", 8))) || is_end_line(head, hn)) {
				close(fd);
				return 0;
			}
			line++;
			hn = 0;
		}
	close(fd);
	return line > 0 && pid > 0 ? (pid_t)pid : 0;
}
