/* The watched run of `perfdb record -r watch`: hold the workload before
 * its exec, learn its mm (or its first fork's), check the watchpoints
 * (the canary's too, or fire its probe), start perf disabled, enable it
 * through its control pipe and wait for the ack, write the canary,
 * release the workload, pass its stdout through (keeping metric
 * lines), wait for it, stop perf. See watch.h for the whole story.
 *
 * Processes: the workload is perfdb's own child, traced (PTRACE_TRACEME,
 * PTRACE_O_EXITKILL: it dies with perfdb until released) from its fork to
 * the exec or fork stop, then detached; perf is another child, running
 * system-wide with no workload of its own. The status file gets what the
 * __exec wrapper of an ordinary recording writes ("started", then "exit N"
 * or "signal N"), so perfdb record judges both alike. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "lib/alloc.h"
#include "lib/exit.h"
#include "lib/prog.h"
#include "collect/recipes.h"
#include "collect/record/watch_spec.h"

#define ACK_TIMEOUT_MS 120000	/* perf synthesizes every process before it listens */

/* One run in progress. */
struct run {
	struct watch_set *ws;
	const struct watch_run_args *a;
	pid_t wl, forked, perf;	/* workload, its traced fork, perf; 0 when none */
	bool traced;		/* wl (and forked) still under ptrace */
	int out_r, err_r;	/* workload's stdout, its exec-error pipe */
	int ctl_w, ack_r;	/* perf's control and ack pipes */
	int status_fd;
	bool watched;		/* metric lines are from the watched run */
	char line[1024];
	size_t linelen;
	struct watch_tp tp;
	char **argv;		/* perf's command line */
	int wl_status;
};

static volatile sig_atomic_t wsig;

/* on_stop: SIGINT, SIGTERM, SIGHUP: remembered; the loops act on it. */
static void on_stop(int sig)
{
	wsig = sig;
}

/* on_child: SIGCHLD only interrupts the waits (no SA_RESTART). */
static void on_child(int sig)
{
	(void)sig;
}

static const int handled[] = { SIGINT, SIGTERM, SIGHUP, SIGCHLD, SIGPIPE };
#define NHANDLED (sizeof(handled) / sizeof(*handled))

/* set_handlers: installs the run's handlers (the old ones into old), or
 * with restore puts old back. */
static void set_handlers(struct sigaction *old, bool restore)
{
	for (size_t i = 0; i < NHANDLED; i++) {
		struct sigaction sa = { 0 };
		if (restore) {
			sigaction(handled[i], &old[i], NULL);
			continue;
		}
		sa.sa_handler = handled[i] == SIGCHLD ? on_child : handled[i] == SIGPIPE ? SIG_IGN
			: on_stop;
		sigemptyset(&sa.sa_mask);
		sigaction(handled[i], &sa, &old[i]);
	}
}

/* child_defaults: in a forked child: default dispositions, nothing blocked. */
static void child_defaults(void)
{
	sigset_t none;
	for (size_t i = 0; i < NHANDLED; i++)
		signal(handled[i], SIG_DFL);
	signal(SIGQUIT, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

/* now_ns: CLOCK_MONOTONIC in ns (perf records with -k monotonic). */
static int64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* close_fd: closes *fd when open and marks it closed. */
static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* wait_any: waitpid through EINTR; returns the pid or -1. */
static pid_t wait_any(pid_t pid, int *st, int flags)
{
	pid_t p;
	while ((p = waitpid(pid, st, flags)) < 0 && errno == EINTR)
		;
	return p;
}

/* ---- the workload's stdout ---- */

/* take_line: one complete stdout line of the workload: a metric kept. */
static void take_line(struct run *r)
{
	struct watch_metric m = { .watched = r->watched };
	r->line[r->linelen] = 0;
	if (r->ws->nmetrics < WATCH_MAX_METRICS && watch_parse_metric(r->line, &m))
		r->ws->metrics[r->ws->nmetrics++] = m;
	r->linelen = 0;
}

/* pump: passes what the workload wrote on to perfdb's stdout, keeping
 * metric lines; at EOF the pipe is closed. Returns bytes read. */
static ssize_t pump(struct run *r)
{
	char buf[4096];
	ssize_t n = read(r->out_r, buf, sizeof(buf));
	if (n <= 0) {
		if (!n || errno != EINTR) {
			if (r->linelen)
				take_line(r);
			close_fd(&r->out_r);
		}
		return n < 0 ? 0 : n;
	}
	for (ssize_t off = 0, w = 0; off < n; off += w > 0 ? w : n)
		w = write(STDOUT_FILENO, buf + off, (size_t)(n - off));
	for (ssize_t i = 0; i < n; i++) {
		if (buf[i] == '\n')
			take_line(r);
		else if (r->linelen + 1 < sizeof(r->line))
			r->line[r->linelen++] = buf[i];
	}
	return n;
}

/* drain: what is left in the pipe once the workload has ended (children
 * that still hold it are not waited for). */
static void drain(struct run *r)
{
	if (r->out_r < 0)
		return;
	fcntl(r->out_r, F_SETFL, O_NONBLOCK);
	while (r->out_r >= 0 && pump(r) > 0)
		;
	close_fd(&r->out_r);
}

/* wait_workload: waits for r->wl, passing its stdout on; a stop signal
 * sends it SIGTERM once (as perf does to its workload). Sets wl_status. */
static void wait_workload(struct run *r)
{
	bool termed = false;
	int st = 0;
	for (;;) {
		if (wsig && !termed) {
			kill(r->wl, SIGTERM);
			termed = true;
		}
		if (waitpid(r->wl, &st, r->out_r >= 0 ? WNOHANG : 0) == r->wl)
			break;
		if (r->out_r >= 0) {
			struct pollfd p = { .fd = r->out_r, .events = POLLIN };
			if (poll(&p, 1, 100) > 0)
				pump(r);
		}
	}
	r->wl_status = st;
	r->wl = 0;
	drain(r);
}

/* ---- the unwatched baseline run ---- */

/* spawn_plain: forks argv with stdout into a pipe (r->out_r); 0 or errno. */
static int spawn_plain(struct run *r, char *const argv[], bool traced)
{
	int out[2], err[2];
	pid_t pid;
	if (pipe2(out, O_CLOEXEC))
		return errno;
	if (pipe2(err, O_CLOEXEC)) {
		close(out[0]);
		close(out[1]);
		return errno;
	}
	fflush(NULL);
	if ((pid = fork()) == 0) {
		int e;
		child_defaults();
		dup2(out[1], STDOUT_FILENO);
		if (traced && (ptrace(PTRACE_TRACEME, 0, NULL, NULL) || raise(SIGSTOP)))
			_exit(127);
		execvp(argv[0], argv);
		e = errno;
		if (write(err[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(out[1]);
	close(err[1]);
	r->out_r = out[0];
	r->err_r = err[0];
	r->wl = pid > 0 ? pid : 0;
	return pid < 0 ? errno : 0;
}

/* exec_errno: the errno the child reported for a failed exec, or 0. */
static int exec_errno(struct run *r)
{
	int e = 0;
	if (r->err_r >= 0 && read(r->err_r, &e, sizeof(e)) != (ssize_t)sizeof(e))
		e = 0;
	close_fd(&r->err_r);
	return e;
}

/* run_baseline: --watch-baseline: CMD once, unwatched and unrecorded,
 * for its metric lines. 0, or EXIT_FAIL (cannot run, interrupted). */
static int run_baseline(struct run *r)
{
	int e;
	if (!r->a->quiet)
		eprintf("watch: unwatched baseline run of the workload first\n");
	if ((e = spawn_plain(r, r->a->workload, false))) {
		eprintf("cannot run '%s': %s\n", r->a->workload[0], strerror(e));
		return EXIT_FAIL;
	}
	r->watched = false;
	wait_workload(r);
	if ((e = exec_errno(r)))
		return eprintf("cannot run '%s': %s\n", r->a->workload[0],
			       strerror(e)), EXIT_FAIL;
	if (wsig)
		return eprintf("interrupted during the baseline run; nothing "
			       "recorded\n"), EXIT_FAIL;
	if (!WIFEXITED(r->wl_status) || WEXITSTATUS(r->wl_status))
		eprintf("warning: the baseline run did not exit 0\n");
	r->watched = true;
	return 0;
}

/* ---- holding the workload ---- */

/* wait_event: continues traced pid until its ptrace event ev (re-injecting
 * other signals). 0 at the event, -1 when it ended (wl_status set), -2
 * when perfdb was told to stop. */
static int wait_event(struct run *r, pid_t pid, int ev)
{
	int st;
	for (;;) {
		if (wsig)
			return -2;
		if (waitpid(pid, &st, __WALL) < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (WIFEXITED(st) || WIFSIGNALED(st)) {
			r->wl_status = st;
			return -1;
		}
		if (WIFSTOPPED(st) && st >> 8 == (SIGTRAP | ev << 8))
			return 0;
		if (WIFSTOPPED(st))
			ptrace(PTRACE_CONT, pid, NULL,
			       (void *)(long)(st >> 16 || WSTOPSIG(st) == SIGTRAP ? 0 : WSTOPSIG(st)));
	}
}

/* start_held: the workload forked, stopped before its exec, traced. */
static int start_held(struct run *r)
{
	long opts = PTRACE_O_TRACEEXEC | PTRACE_O_EXITKILL;
	int e, st;
	if (r->ws->mm_mode == WATCH_MM_FORK)
		opts |= PTRACE_O_TRACEFORK;
	if ((e = spawn_plain(r, r->a->workload, true)))
		return eprintf("cannot run '%s': %s\n", r->a->workload[0],
			       strerror(e)), EXIT_FAIL;
	r->traced = true;
	if (wait_any(r->wl, &st, __WALL) != r->wl || !WIFSTOPPED(st) ||
	    ptrace(PTRACE_SETOPTIONS, r->wl, NULL, (void *)opts))
		return eprintf("cannot hold the workload before its exec "
			       "(ptrace: %s)\n", strerror(errno)), EXIT_FAIL;
	return 0;
}

/* ended_early: the message for a workload that ended (or perfdb was told
 * to stop, rc -2) before the watchpoints could be set. */
static int ended_early(struct run *r, int rc, const char *before)
{
	int e = rc == -1 ? exec_errno(r) : 0;
	if (rc == -1)
		r->wl = 0;
	if (e)
		eprintf("cannot run '%s': %s\n", r->a->workload[0], strerror(e));
	else if (rc == -2)
		eprintf("interrupted before the workload started; nothing recorded\n");
	else
		eprintf("the workload ended before %s; nothing recorded\n", before);
	return EXIT_FAIL;
}

/* needs_mm: whether a spec is a field of the workload's mm. */
static bool needs_mm(const struct watch_set *ws)
{
	for (size_t i = 0; i < ws->n; i++)
		if (ws->w[i].kind == WATCH_MM)
			return true;
	return false;
}

/* to_exec: runs the held workload to its exec stop; the mm it locked
 * last there into *mm (0 without mm specs). 0 or EXIT_FAIL. */
static int to_exec(struct run *r, uint64_t *mm)
{
	char err[512];
	int rc;
	*mm = 0;
	if (needs_mm(r->ws) && watch_tp_open(&r->tp, r->wl, 0, err, sizeof(err)))
		return eprintf("watch: %s\n", err), EXIT_FAIL;
	ptrace(PTRACE_CONT, r->wl, NULL, NULL);
	if ((rc = wait_event(r, r->wl, PTRACE_EVENT_EXEC)))
		return ended_early(r, rc, "its exec");
	close_fd(&r->err_r);
	if (r->tp.fd >= 0 && !(*mm = watch_tp_last_mm(&r->tp)))
		return eprintf("watch: no mm_struct seen in %s during the exec\n",
			       "mmap_lock_acquire_returned"), EXIT_FAIL;
	watch_tp_close(&r->tp);
	return 0;
}

/* to_fork: --watch-mm fork: runs the workload to its first fork; the new
 * process (stopped, traced) and the mm the fork made. 0 or EXIT_FAIL. */
static int to_fork(struct run *r, uint64_t exec_mm)
{
	char err[512];
	unsigned long child;
	int rc, st;
	if (exec_mm && watch_tp_open(&r->tp, r->wl, exec_mm, err, sizeof(err)))
		return eprintf("watch: %s\n", err), EXIT_FAIL;
	ptrace(PTRACE_CONT, r->wl, NULL, NULL);
	if ((rc = wait_event(r, r->wl, PTRACE_EVENT_FORK)))
		return ended_early(r, rc, "it forked (--watch-mm fork)");
	if (ptrace(PTRACE_GETEVENTMSG, r->wl, NULL, &child) ||
	    wait_any((pid_t)child, &st, __WALL) != (pid_t)child)
		return eprintf("watch: cannot hold the workload's child: %s\n",
			       strerror(errno)), EXIT_FAIL;
	r->forked = (pid_t)child;
	if (exec_mm && !(r->ws->mm = watch_tp_last_mm(&r->tp)))
		return eprintf("watch: no new mm_struct seen in the fork\n"),
		       EXIT_FAIL;
	watch_tp_close(&r->tp);
	return 0;
}

/* say_target: where the watches are (stderr); the partial ones always. */
static void say_target(const struct run *r)
{
	const struct watch_set *ws = r->ws;
	char buf[768];
	if (!r->a->quiet && ws->mm)
		eprintf("watch: pid %d, mm_struct at 0x%" PRIx64 " (%s)\n",
			(int)ws->pid, ws->mm, ws->mm_mode == WATCH_MM_FORK ?
			"the mm of the workload's first fork" : "the workload's mm after its exec");
	for (size_t i = 0; i < ws->n; i++)
		if (!r->a->quiet || (ws->w[i].flags & WATCH_PARTIAL))
			eprintf("watch: %s\n", watch_describe(&ws->w[i], buf, sizeof(buf)));
}

/* say_canary: how the canary is watched (stderr, unless quiet). */
static void say_canary(const struct run *r)
{
	const struct watch_canary *c = &r->ws->canary;
	char ev[64];
	if (r->a->quiet)
		return;
	watch_canary_event(c, ev, sizeof(ev));
	if (c->how == WATCH_CANARY_RECORDED)
		eprintf("watch: canary %s, a variable of perfdb (pid %d), written %d "
			"times once perf has armed the watchpoints\n", ev, (int)c->pid,
			WATCH_CANARY_WRITES);
	else
		eprintf("watch: canary %s, a variable of perfdb, counted apart before "
			"perf starts (%s)\n", ev, r->ws->n >= WATCH_MAX ? "the watches take every debug "
			"register" : "no debug register or recorded CPU left for it");
}

/* check_watchpoints: the watches and the recorded canary tried on every
 * CPU; when only the canary finds no room, it becomes a probe. 0 or
 * EXIT_FAIL. */
static int check_watchpoints(struct run *r)
{
	struct watch_set *ws = r->ws;
	char err[1024];
	if (!watch_check_breakpoints(ws, r->a->cpus, err, sizeof(err)))
		return 0;
	if (ws->canary.how == WATCH_CANARY_RECORDED) {
		ws->canary.how = WATCH_CANARY_PROBE;
		if (!watch_check_breakpoints(ws, r->a->cpus, err, sizeof(err)))
			return 0;
	}
	return eprintf("watch: %s; nothing recorded\n", err), EXIT_FAIL;
}

/* learn_target: the held workload to the point where it is watched from,
 * the addresses placed, the watchpoints tried. 0 or EXIT_FAIL. */
static int learn_target(struct run *r)
{
	struct watch_set *ws = r->ws;
	uint64_t mm, bias = 0;
	char err[1024];
	int rc;
	if ((rc = to_exec(r, &mm)))
		return rc;
	ws->mm = mm;
	ws->pid = r->wl;
	if (ws->mm_mode == WATCH_MM_FORK) {
		if ((rc = to_fork(r, mm)))
			return rc;
		ws->pid = r->forked;
	}
	for (size_t i = 0; i < ws->n; i++)
		if (ws->w[i].kind == WATCH_SYMBOL && watch_load_bias(r->wl, &bias, err, sizeof(err)))
			return eprintf("watch: %s\n", err), EXIT_FAIL;
	watch_place(ws, bias);
	watch_canary_init(&ws->canary, ws, r->a->cpus);
	say_target(r);
	if ((rc = check_watchpoints(r)))
		return rc;
	say_canary(r);
	return 0;
}

/* probe_canary: a probe canary fired just before perf starts; one that
 * falls short ends the run. 0 or EXIT_FAIL. */
static int probe_canary(struct run *r)
{
	struct watch_canary *c = &r->ws->canary;
	char err[512];
	if (c->how != WATCH_CANARY_PROBE)
		return 0;
	if (watch_canary_probe(c, err, sizeof(err)))
		return eprintf("watch: the canary: %s; nothing recorded\n", err),
		       EXIT_FAIL;
	if (watch_canary_short(c))
		return eprintf("watch: hardware watchpoints do not fire here: %s "
			       "(perfdb's canary, counted apart); nothing recorded\n",
			       watch_canary_said(c, err, sizeof(err))), EXIT_FAIL;
	return 0;
}

/* ---- perf ---- */

/* perf_argv: perf's command line: the recipes' (less the final "--"),
 * the watchpoints, disabled until enabled through fd:CTL,ACK, on the
 * monotonic clock (NULL-terminated, every string malloc'ed). */
static char **perf_argv(const struct run *r, int ctl, int ack)
{
	size_t n = 0, k = 0;
	char **v;
	while (r->a->perf_argv[n])
		n++;
	if (n && !strcmp(r->a->perf_argv[n - 1], "--"))
		n--;
	v = xcalloc(n + 2 * r->ws->n + 10, sizeof(*v));
	for (size_t i = 0; i < n; i++)
		v[k++] = xstrdup(r->a->perf_argv[i]);
	for (size_t i = 0; i < r->ws->n; i++) {
		char ev[64];
		v[k++] = xstrdup("-e");
		v[k++] = xstrdup(watch_event_name(&r->ws->w[i], ev, sizeof(ev)));
	}
	if (r->ws->canary.how == WATCH_CANARY_RECORDED) {
		char ev[64];
		v[k++] = xstrdup("-e");
		v[k++] = xstrdup(watch_canary_event(&r->ws->canary, ev, sizeof(ev)));
	}
	v[k++] = xstrdup("-D");
	v[k++] = xstrdup("-1");
	v[k++] = xstrdup("--control");
	v[k++] = xasprintf("fd:%d,%d", ctl, ack);
	v[k++] = xstrdup("-k");
	v[k++] = xstrdup("monotonic");
	return v;
}

/* perf_child: in the forked child: the control fds kept across exec. */
static void perf_child(char **argv, int ctl, int ack)
{
	child_defaults();
	fcntl(ctl, F_SETFD, 0);
	fcntl(ack, F_SETFD, 0);
	execvp(argv[0], argv);
	eprintf("cannot run %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

/* start_perf: perf running, events disabled. 0 or EXIT_FAIL. */
static int start_perf(struct run *r)
{
	int ctl[2], ack[2];
	pid_t pid;
	if (pipe2(ctl, O_CLOEXEC))
		return eprintf("pipe: %s\n", strerror(errno)), EXIT_FAIL;
	if (pipe2(ack, O_CLOEXEC)) {
		close(ctl[0]);
		close(ctl[1]);
		return eprintf("pipe: %s\n", strerror(errno)), EXIT_FAIL;
	}
	r->ctl_w = ctl[1];
	r->ack_r = ack[0];
	r->argv = perf_argv(r, ctl[0], ack[1]);
	if (!r->a->quiet) {
		char *cmd = argv_join(r->argv);
		eprintf("%s\n", cmd);
		free(cmd);
	}
	fflush(NULL);
	if ((pid = fork()) == 0)
		perf_child(r->argv, ctl[0], ack[1]);
	close(ctl[0]);
	close(ack[1]);
	if (pid < 0)
		return eprintf("fork: %s\n", strerror(errno)), EXIT_FAIL;
	r->perf = pid;
	return 0;
}

/* read_ack: waits for perf's "ack" line. 1 got it, 0 perf ended, -1
 * timed out, -2 told to stop. */
static int read_ack(struct run *r)
{
	char buf[64];
	size_t got = 0;
	for (int waited = 0; waited < ACK_TIMEOUT_MS; ) {
		struct pollfd p = { .fd = r->ack_r, .events = POLLIN };
		ssize_t n;
		if (wsig)
			return -2;
		if (poll(&p, 1, 200) <= 0) {
			waited += 200;
			continue;
		}
		if ((n = read(r->ack_r, buf + got, sizeof(buf) - 1 - got)) < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return 0;
		got += (size_t)n;
		buf[got] = 0;
		if (strstr(buf, "ack\n"))
			return 1;
		if (got + 1 >= sizeof(buf))
			got = 0;
	}
	return -1;
}

/* write_canary: the recorded canary written, now that perf has armed
 * the watchpoints. 0 or EXIT_FAIL. */
static int write_canary(struct run *r)
{
	struct watch_canary *c = &r->ws->canary;
	if (c->how != WATCH_CANARY_RECORDED)
		return 0;
	if (watch_canary_write(c))
		return eprintf("watch: cannot run on CPU %d to write the canary: %s; "
			       "nothing recorded\n", c->cpu, strerror(errno)), EXIT_FAIL;
	if (!r->a->quiet)
		eprintf("watch: canary written %lld times in %.3f ms\n", c->writes,
			(double)c->write_ns / 1e6);
	return 0;
}

/* arm: enables perf's events, waits for the ack and writes the canary.
 * 0 or EXIT_FAIL. */
static int arm(struct run *r)
{
	static const char enable[] = "enable\n";
	int rc, st;
	if (write(r->ctl_w, enable, sizeof(enable) - 1) != (ssize_t)sizeof(enable) - 1)
		rc = 0;
	else
		rc = read_ack(r);
	if (rc == 1)
		return write_canary(r);
	if (rc == -2)
		return eprintf("interrupted before the workload started; nothing "
			       "recorded\n"), EXIT_FAIL;
	if (rc == -1)
		return eprintf("watch: perf did not acknowledge 'enable' within "
			       "%d s; nothing recorded\n", ACK_TIMEOUT_MS / 1000), EXIT_FAIL;
	if (wait_any(r->perf, &st, 0) == r->perf)
		r->perf = 0;
	eprintf("watch: perf ended before arming the watchpoints (%s %d; its "
		"message is above); nothing recorded\n", WIFEXITED(st) ? "exit status" : "signal",
		WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
	return EXIT_FAIL;
}

/* stop_perf: SIGINT to perf, then its wait status (-1 if it never ran). */
static int stop_perf(struct run *r, int sig)
{
	int st = -1;
	if (r->perf <= 0)
		return -1;
	kill(r->perf, sig);
	if (wait_any(r->perf, &st, 0) != r->perf)
		st = -1;
	r->perf = 0;
	close_fd(&r->ctl_w);
	close_fd(&r->ack_r);
	return st;
}

/* ---- release and the end ---- */

/* release: the watchpoints are armed: the workload goes on. */
static void release(struct run *r)
{
	r->ws->armed_ns = now_ns();
	if (r->status_fd >= 0)
		dprintf(r->status_fd, "started\n");
	if (r->forked)
		ptrace(PTRACE_DETACH, r->forked, NULL, NULL);
	ptrace(PTRACE_DETACH, r->wl, NULL, NULL);
	r->traced = false;
	r->forked = 0;
}

/* finish: the workload's end in the status file. */
static void finish(struct run *r)
{
	r->ws->ended_ns = now_ns();
	if (r->status_fd < 0)
		return;
	if (WIFEXITED(r->wl_status))
		dprintf(r->status_fd, "exit %d\n", WEXITSTATUS(r->wl_status));
	else
		dprintf(r->status_fd, "signal %d\n", WTERMSIG(r->wl_status));
}

/* abandon: after a failure: the workload killed and reaped, perf stopped. */
static void abandon(struct run *r)
{
	int st;
	if (r->forked) {
		kill(r->forked, SIGKILL);
		wait_any(r->forked, &st, __WALL);
	}
	if (r->wl > 0) {
		kill(r->wl, SIGKILL);
		wait_any(r->wl, &st, __WALL);
	}
	stop_perf(r, SIGTERM);
	watch_tp_close(&r->tp);
	close_fd(&r->out_r);
	close_fd(&r->err_r);
}

/* watch_perf_ok: see watch.h. */
bool watch_perf_ok(int ws)
{
	return (WIFSIGNALED(ws) && WTERMSIG(ws) == SIGINT) || (WIFEXITED(ws) && !WEXITSTATUS(ws));
}

/* steps: the run from the baseline to perf's stop. 0 or EXIT_FAIL. */
static int steps(struct run *r, struct watch_outcome *out)
{
	int rc;
	if ((r->ws->baseline && (rc = run_baseline(r))) || (rc = start_held(r)) ||
	    (rc = learn_target(r)) || (rc = probe_canary(r)) || (rc = start_perf(r)) ||
	    (rc = arm(r)))
		return rc;
	release(r);
	wait_workload(r);
	finish(r);
	out->perf_ws = stop_perf(r, SIGINT);
	out->interrupted = wsig != 0;
	return 0;
}

/* watch_run: see watch.h. */
int watch_run(struct watch_set *ws, const struct watch_run_args *a, struct watch_outcome *out)
{
	struct run r = { .ws = ws, .a = a, .out_r = -1, .err_r = -1, .ctl_w = -1, .ack_r = -1,
			 .tp = { .fd = -1 }, .watched = true };
	struct sigaction old[NHANDLED];
	int rc;
	*out = (struct watch_outcome){ .perf_ws = -1 };
	wsig = 0;
	ws->nmetrics = 0;
	if ((r.status_fd = open(a->status, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600)) < 0)
		return eprintf("%s: %s\n", a->status, strerror(errno)), EXIT_FAIL;
	set_handlers(old, false);
	if ((rc = steps(&r, out)))
		abandon(&r);
	set_handlers(old, true);
	close(r.status_fd);
	out->perf_argv = r.argv;
	return rc;
}
