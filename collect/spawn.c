/* Running child processes the way record and bench need: forked with the
 * stop signals blocked until the pid is known, waited for through
 * signals, and a wrapper ending the way its child ended. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "collect/spawn.h"

/* hup_ignored(): whether SIGHUP was ignored when first asked (nohup). */
static bool hup_ignored(void)
{
	static int ignored = -1;
	struct sigaction old;
	if (ignored < 0)
		ignored = !sigaction(SIGHUP, NULL, &old) && old.sa_handler == SIG_IGN;
	return ignored;
}

/* proc_on_signals: see spawn.h. */
void proc_on_signals(void (*handler)(int))
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa = { 0 };
	bool hup_ign = hup_ignored();
	sa.sa_handler = handler;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < 3; i++)
		if (sigs[i] != SIGHUP || !hup_ign)
			sigaction(sigs[i], &sa, NULL);
}

/* proc_on_stop_signals: see spawn.h. */
void proc_on_stop_signals(void (*handler)(int, siginfo_t *, void *))
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };
	struct sigaction sa = { 0 };
	bool hup_ign = hup_ignored();
	sa.sa_sigaction = handler;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < 4; i++)
		if (sigs[i] != SIGHUP || !hup_ign)
			sigaction(sigs[i], &sa, NULL);
}

/* proc_block_signals: see spawn.h. */
void proc_block_signals(bool block)
{
	sigset_t s;
	sigemptyset(&s);
	sigaddset(&s, SIGINT);
	sigaddset(&s, SIGTERM);
	sigaddset(&s, SIGHUP);
	sigaddset(&s, SIGQUIT);
	sigprocmask(block ? SIG_BLOCK : SIG_UNBLOCK, &s, NULL);
}

/* proc_default_signals: see spawn.h. */
void proc_default_signals(void)
{
	proc_on_signals(SIG_DFL);
	signal(SIGQUIT, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);	/* perfdb record ignores it, and its perf */
}

/* exec_child: in the forked child: unblock signals and exec argv; an
 * exec failure's errno goes down errfd. Handlers reset at exec. */
static void exec_child(char *const argv[], int errfd)
{
	int e;
	proc_block_signals(false);
	execvp(argv[0], argv);
	e = errno;
	if (write(errfd, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

/* proc_spawn: forks argv with signals blocked; the parent stores the pid in
 * *pidp before they are unblocked. Returns 0, or the errno of the fork
 * or of the exec. */
int proc_spawn(char *const argv[], volatile pid_t *pidp, void (*child_setup)(void))
{
	int pipefd[2], e = 0;
	ssize_t n;
	pid_t pid;
	if (pipe2(pipefd, O_CLOEXEC))
		return errno;
	proc_block_signals(true);
	if ((pid = fork()) == 0) {
		if (child_setup)
			child_setup();
		exec_child(argv, pipefd[1]);
	}
	e = pid < 0 ? errno : 0;
	*pidp = pid > 0 ? pid : 0;
	proc_block_signals(false);
	close(pipefd[1]);
	while ((n = read(pipefd[0], &e, sizeof(e))) < 0 && errno == EINTR)
		;
	close(pipefd[0]);
	if (pid > 0 && n != (ssize_t)sizeof(e))
		e = 0;
	return e;
}

/* proc_wait: see spawn.h. */
int proc_wait(pid_t pid)
{
	int ws = 0;
	while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
		;
	return ws;
}

/* proc_end_like: see spawn.h. */
int proc_end_like(int ws)
{
	struct rlimit no_core = { 0, 0 };
	sigset_t s;
	int sig;
	if (WIFEXITED(ws))
		return WEXITSTATUS(ws);
	sig = WTERMSIG(ws);
	setrlimit(RLIMIT_CORE, &no_core);
	signal(sig, SIG_DFL);
	sigemptyset(&s);
	sigaddset(&s, sig);
	sigprocmask(SIG_UNBLOCK, &s, NULL);
	raise(sig);
	return 128 + sig;
}

/* proc_now_ns: see spawn.h. */
int64_t proc_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

