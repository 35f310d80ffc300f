/* Running child processes the way record and bench need them: forked
 * with the stop signals (SIGINT, SIGTERM, SIGHUP, SIGQUIT) blocked until
 * the pid is stored, so a handler never misses it; waited for through
 * signals; and a wrapper process that ends the way its child ended. */
#ifndef PERFDB_SPAWN_H
#define PERFDB_SPAWN_H
#include <stdbool.h>
#include <signal.h>
#include <stdint.h>
#include <sys/types.h>

/* proc_on_signals(handler): handler (or SIG_DFL) for SIGINT, SIGTERM and
 * SIGHUP; a SIGHUP ignored when first called (nohup) stays ignored, in
 * the children too. (A SIGINT ignored by a script's background job is
 * still handled: kill -INT is how such a bench is stopped.) */
void proc_on_signals(void (*handler)(int));

/* proc_on_stop_signals(handler): handler, with the sender's siginfo, for
 * SIGINT, SIGTERM, SIGHUP (kept ignored under nohup, as above) and
 * SIGPIPE. */
void proc_on_stop_signals(void (*handler)(int, siginfo_t *, void *));

/* proc_block_signals(block): blocks (true) or unblocks the stop signals. */
void proc_block_signals(bool block);

/* proc_default_signals(): default handling of the stop signals, SIGQUIT
 * and SIGPIPE (for a child before exec). */
void proc_default_signals(void);

/* proc_spawn(argv, pidp, child_setup): forks and execvp's argv (no
 * shell), calling child_setup (may be NULL) in the child first; the pid
 * is in *pidp before the stop signals are unblocked again. Returns 0, or
 * the errno of the fork or of the exec (then *pidp holds the dead child,
 * if any, to be waited for). */
int proc_spawn(char *const argv[], volatile pid_t *pidp, void (*child_setup)(void));

/* proc_wait(pid): waits for pid, through signals; its wait status. */
int proc_wait(pid_t pid);

/* proc_end_like(ws): ends the calling process the way wait status ws
 * says its child ended: returns the exit code for an exit, or raises the
 * same signal on itself (without a core dump) and returns 128 + signal
 * if that did not end it. */
int proc_end_like(int ws);

/* proc_now_ns(): CLOCK_MONOTONIC in ns (the clock perf records with -k
 * monotonic). */
int64_t proc_now_ns(void);
#endif
