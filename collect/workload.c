/* Running a workload once, keeping what it said (see workload.h). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <limits.h>
#include "collect/recipes.h"
#include "collect/spawn.h"
#include "collect/workload.h"
#include "lib/alloc.h"

/* The child's ends of the pipes, for child_setup (one run at a time). */
static int child_out = -1, child_err = -1;
static bool child_pgroup;

/* child_setup: in the child before exec: its own group (with stdin from
 * /dev/null: a background group reading the terminal would be stopped),
 * the pipes. */
static void child_setup(void)
{
	int null;
	proc_default_signals();
	if (child_pgroup) {
		setpgid(0, 0);	/* not the terminal's foreground group: no terminal input */
		if ((null = open("/dev/null", O_RDONLY)) >= 0 && null != 0) {
			dup2(null, 0);
			close(null);
		}
	}
	dup2(child_out, 1);
	dup2(child_err, 2);
}

/* A stream being read: its fd, the partial line, the tail. */
struct stream {
	int fd;
	bool is_out;
	char line[4096];
	size_t len;
	char *tail;
	size_t tail_len;
	bool gone;		/* pass_epipe: the reader of its copy went away */
};

/* keep_tail(s, p, n): the last WL_TAIL bytes seen. */
static void keep_tail(struct stream *s, const char *p, size_t n)
{
	if (n >= WL_TAIL) {
		memcpy(s->tail, p + n - WL_TAIL, WL_TAIL);
		s->tail_len = WL_TAIL;
	} else {
		size_t keep = s->tail_len + n > WL_TAIL ? WL_TAIL - n : s->tail_len;
		memmove(s->tail, s->tail + s->tail_len - keep, keep);
		memcpy(s->tail + keep, p, n);
		s->tail_len = keep + n;
	}
	s->tail[s->tail_len] = 0;
}

/* write_all(fd, p, n): writes p to fd (when fd >= 0); false when the
 * reader of fd has gone (EPIPE); other errors are ignored. */
static bool write_all(int fd, const char *p, size_t n)
{
	while (fd >= 0 && n) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return !(w < 0 && errno == EPIPE);
		p += w;
		n -= (size_t)w;
	}
	return true;
}

/* copy_out(o, s, fd, p, n): s's bytes to fd; with pass_epipe, a reader
 * gone marks s gone (drain then closes the run's end). */
static void copy_out(const struct wl_opts *o, struct stream *s, int fd, const char *p, size_t n)
{
	if (!write_all(fd, p, n) && o->pass_epipe)
		s->gone = true;
}

/* out_line(o, s): one complete (or cut) stdout line in s->line: to the
 * hook, and on to out_fd unless it is a result line kept off it. */
static void out_line(const struct wl_opts *o, struct stream *s)
{
	s->line[s->len] = 0;
	if (!(o->on_line && o->on_line(s->line, o->arg) > 0) || o->echo_results)
		copy_out(o, s, o->out_fd, s->line, s->len);
	s->len = 0;
}

/* take(o, s, p, n): bytes read from stream s. */
static void take(const struct wl_opts *o, struct stream *s, const char *p, size_t n)
{
	keep_tail(s, p, n);
	if (!s->is_out) {
		copy_out(o, s, o->err_fd, p, n);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		s->line[s->len++] = p[i];
		if (p[i] == '\n' || s->len == sizeof(s->line) - 1)
			out_line(o, s);
	}
}

/* drain(o, s): reads what s has now; false at its end. */
static bool drain(const struct wl_opts *o, struct stream *s)
{
	char buf[8192];
	ssize_t n = read(s->fd, buf, sizeof(buf));
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return true;
	if (n <= 0)
		return false;
	take(o, s, buf, (size_t)n);
	if (s->gone) {	/* as a pipe whose reader exited: its next write gets SIGPIPE */
		close(s->fd);
		s->fd = -1;
		return false;
	}
	return true;
}

/* now_real(): CLOCK_REALTIME in ns. */
static int64_t now_real(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* signal_run(o, pid, sig): sig to the run (its group with own_pgroup). */
static void signal_run(const struct wl_opts *o, pid_t pid, int sig)
{
	kill(o->own_pgroup ? -pid : pid, sig);
}

/* The state of one run being watched. */
struct watch {
	int64_t t0, deadline, kill_at;
	bool exited;
};

/* police(o, r, w, pid): the timeout and the stop flag. */
static void police(const struct wl_opts *o, struct wl_result *r, struct watch *w, pid_t pid)
{
	int64_t now = proc_now_ns();
	if (w->exited)
		return;
	if (o->stop && *o->stop && !r->stopped) {
		r->stopped = true;
		signal_run(o, pid, SIGINT);
		w->kill_at = now + 2000000000LL;
	}
	if (w->deadline && now >= w->deadline && !r->timed_out) {
		r->timed_out = true;
		signal_run(o, pid, SIGTERM);
		w->kill_at = now + 2000000000LL;
	}
	if (w->kill_at && now >= w->kill_at) {
		signal_run(o, pid, SIGKILL);
		w->kill_at = 0;
	}
}

/* open_pidfd(pid): a descriptor that polls readable when pid exits, or -1
 * (then exits are seen at the next 100 ms tick). */
static int open_pidfd(pid_t pid)
{
#ifdef SYS_pidfd_open
	return (int)syscall(SYS_pidfd_open, pid, 0);
#else
	(void)pid;
	return -1;
#endif
}

/* ended(pid): whether pid has exited (a zombie not yet reaped: its pid,
 * and so its process group's id, cannot be reused yet). */
static bool ended(pid_t pid)
{
	siginfo_t si = { 0 };
	if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT))
		return errno == ECHILD;	/* reaped elsewhere: gone all the same */
	return si.si_pid == pid;
}

/* reap(o, r, w, pid, pipes_open): the run has exited: its wall time; with
 * own_pgroup whatever it left in its group is killed first (while the
 * zombie still holds the group's id), noted when something still held its
 * pipes; the pid is forgotten before it is reaped and can be reused. */
static void reap(const struct wl_opts *o, struct wl_result *r, struct watch *w, pid_t pid, bool pipes_open)
{
	r->wall_ns = proc_now_ns() - w->t0;
	w->exited = true;
	if (o->own_pgroup) {
		r->leftovers = pipes_open;
		kill(-pid, SIGKILL);
	}
	if (o->pidp)
		*o->pidp = 0;
	while (wait4(pid, &r->status, 0, &r->ru) < 0 && errno == EINTR)
		;
}

/* drain_ready(o, s, open): reads what the open streams hold now, until
 * nothing is left without waiting (at most 64 reads: a descendant that
 * keeps writing does not hold the run up). */
static void drain_ready(const struct wl_opts *o, struct stream *s, bool open[2])
{
	for (int round = 0; round < 64; round++) {
		struct pollfd p[2] = { { open[0] ? s[0].fd : -1, POLLIN, 0 }, { open[1] ? s[1].fd : -1, POLLIN, 0 } };
		if (poll(p, 2, 0) <= 0)
			return;
		for (int i = 0; i < 2; i++)
			if (p[i].revents && !drain(o, &s[i]))
				open[i] = false;
	}
}

/* pump(o, r, s, pid): reads both streams while the run lives, policing its
 * timeout and stop flag on every pass (also once the streams are closed);
 * once it has exited (seen at once through a pidfd), reads what its
 * streams still hold and reaps it. */
static void pump(const struct wl_opts *o, struct wl_result *r, struct stream *s, pid_t pid)
{
	struct watch w = { .t0 = proc_now_ns() };
	bool open[2] = { true, true };
	int pfd = open_pidfd(pid);
	if (o->timeout_s > 0)
		w.deadline = w.t0 + (int64_t)(o->timeout_s * 1e9);
	while (!w.exited) {
		struct pollfd p[3] = { { open[0] ? s[0].fd : -1, POLLIN, 0 },
				       { open[1] ? s[1].fd : -1, POLLIN, 0 }, { pfd, POLLIN, 0 } };
		int n = poll(p, 3, 100);
		for (int i = 0; n > 0 && i < 2; i++)
			if (p[i].revents && !drain(o, &s[i]))
				open[i] = false;
		if (ended(pid)) {
			drain_ready(o, s, open);
			reap(o, r, &w, pid, open[0] || open[1]);
		}
		police(o, r, &w, pid);
	}
	if (pfd >= 0)
		close(pfd);
	if (s[0].len)
		out_line(o, &s[0]);
}

/* workload_run: see workload.h. */
int workload_run(char *const argv[], const struct wl_opts *o, struct wl_result *r)
{
	int out[2], err[2], e;
	volatile pid_t pid = 0;
	struct stream s[2] = { { .is_out = true, .tail = r->out_tail }, { .tail = r->err_tail } };
	memset(r, 0, sizeof(*r));
	if (pipe2(out, O_CLOEXEC))
		return -1;
	if (pipe2(err, O_CLOEXEC)) {
		close(out[0]);
		close(out[1]);
		return -1;
	}
	child_out = out[1];
	child_err = err[1];
	child_pgroup = o->own_pgroup;
	r->start_ns = now_real();
	e = proc_spawn(argv, o->pidp ? o->pidp : &pid, child_setup);
	if (o->pidp)
		pid = *o->pidp;
	if (pid > 0 && o->own_pgroup)
		setpgid(pid, pid);	/* the child does too: whichever runs first */
	close(out[1]);
	close(err[1]);
	s[0].fd = out[0];
	s[1].fd = err[0];
	if (e) {
		r->exec_errno = e;
		if (o->pidp)
			*o->pidp = 0;
		if (pid > 0)
			while (wait4(pid, &r->status, 0, &r->ru) < 0 && errno == EINTR)
				;
	} else {
		pump(o, r, s, pid);
	}
	for (int i = 0; i < 2; i++)
		if (s[i].fd >= 0)
			close(s[i].fd);
	return e ? -1 : 0;
}

/* wl_exit_code: see workload.h. */
int wl_exit_code(int status)
{
	return WIFEXITED(status) ? WEXITSTATUS(status) : WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 255;
}

/* tv_ns(tv): a timeval in ns. */
static int64_t tv_ns(struct timeval tv)
{
	return (int64_t)tv.tv_sec * 1000000000 + (int64_t)tv.tv_usec * 1000;
}

/* wl_usage_of: see workload.h. */
struct wl_usage wl_usage_of(const struct wl_result *r)
{
	return (struct wl_usage){ tv_ns(r->ru.ru_utime), tv_ns(r->ru.ru_stime), r->wall_ns,
		r->ru.ru_maxrss, r->ru.ru_nvcsw, r->ru.ru_nivcsw };
}

/* find_builtin: the built-in workload (yield, tlbflush, falseshare,
 * faults) called name, next to this perfdb: BUILD/workloads/NAME in a
 * build tree, or PREFIX/libexec/perfdb/NAME when installed. 0 with the path in buf. */
static int find_builtin(const char *name, char *buf, size_t len)
{
	static const char *const dirs[] = { "workloads", "../libexec/perfdb" };
	char self[PATH_MAX], *slash;
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0 || strchr(name, '/'))
		return -1;
	self[n] = 0;
	if (!(slash = strrchr(self, '/')))
		return -1;
	*slash = 0;
	for (size_t i = 0; i < sizeof(dirs) / sizeof(*dirs); i++) {
		if ((size_t)snprintf(buf, len, "%s/%s/%s", self, dirs[i], name) < len &&
		    !access(buf, X_OK))
			return 0;
	}
	return -1;
}

/* workload_find: see workload.h. */
int workload_find(const char *name, char *buf, size_t len)
{
	int e = find_program(name, buf, len);
	if (!e) {
		snprintf(buf, len, "%s", name);
		return 0;
	}
	return find_builtin(name, buf, len) ? e : 0;
}
