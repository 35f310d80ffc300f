/* Running a workload once and keeping what it said: its stdout lines are
 * handed to the caller's hook line by line (which tells the result
 * lines from the others) and pass through, its stderr passes through, the last bytes of both are
 * kept, and its process tree's resource usage, wall time and end are
 * measured. Used by perfdb bench for each run and by perfdb record's
 * wrapper around the recorded workload. */
#ifndef PERFDB_WORKLOAD_H
#define PERFDB_WORKLOAD_H
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

#define WL_TAIL 2048	/* bytes of stdout and stderr kept */

struct wl_opts {
	double timeout_s;	/* 0: none; past it: SIGTERM to the run, SIGKILL 2 s later */
	bool own_pgroup;	/* a process group of its own (the terminal's Ctrl-C
				 * reaches only perfdb), stdin from /dev/null; signals
				 * go to the whole group, and what is left in it when
				 * the workload exits is killed */
	int out_fd;		/* where its stdout lines go (but result lines); -1: nowhere */
	int err_fd;		/* where its stderr goes; -1: nowhere */
	bool echo_results;	/* result lines go to out_fd too */
	bool pass_epipe;	/* once out_fd's (err_fd's) reader is gone (EPIPE), the
				 * run's own stdout (stderr) is closed too, so that it
				 * gets SIGPIPE as if it wrote to that pipe itself */
	/* on_line(line, arg): each stdout line as it comes (NUL-terminated,
	 * with its newline; a line longer than 4 KiB comes in pieces); 1
	 * when it is a result line (kept off out_fd unless echo_results),
	 * else 0. May be NULL. */
	int (*on_line)(const char *line, void *arg);
	void *arg;
	volatile pid_t *pidp;	/* holds the child's pid while it runs (for handlers); may be NULL */
	volatile sig_atomic_t *stop;	/* becoming non-zero stops the run (SIGINT to it, as
					 * a terminal would); may be NULL */
};

struct wl_result {
	int status;		/* wait status */
	int exec_errno;		/* the command could not be started: its errno; else 0 */
	bool timed_out, stopped;
	bool leftovers;		/* own_pgroup: something still held its stdout or stderr
				 * when it exited (its group was killed) */
	int64_t start_ns;	/* CLOCK_REALTIME when it started */
	int64_t wall_ns;	/* CLOCK_MONOTONIC from start to end */
	struct rusage ru;	/* of the workload and its waited-for descendants */
	char out_tail[WL_TAIL + 1], err_tail[WL_TAIL + 1];	/* NUL-terminated */
};

/* What a run cost, from its resource usage and clock. */
struct wl_usage {
	int64_t user_ns, sys_ns, wall_ns;
	long long max_rss_kb, nvcsw, nivcsw;
};

/* wl_usage_of(r): r's usage in those units. */
struct wl_usage wl_usage_of(const struct wl_result *r);

/* workload_run(argv, o, r): runs argv (execvp, no shell) to its end as o
 * says, filling *r (from empty). Returns 0 when it ran (whatever its exit
 * status), or -1 when it could not be started (r->exec_errno says why)
 * or a pipe or fork failed (errno). */
int workload_run(char *const argv[], const struct wl_opts *o, struct wl_result *r);

/* workload_find(name, buf, len): what to exec for a workload name: name
 * itself when it is in PATH (or a path to a program), else the built-in
 * workload (yield, tlbflush, falseshare, faults) of that name next to this
 * perfdb (BUILD/workloads/ in a build tree, PREFIX/libexec/perfdb/
 * installed), into buf. 0, or the errno of the PATH search when neither
 * exists. */
int workload_find(const char *name, char *buf, size_t len);

/* wl_exit_code(status): a wait status as a shell shows it: the exit code,
 * or 128 + N for signal N. */
int wl_exit_code(int status);
#endif
