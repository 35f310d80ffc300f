/* perf record around a workload, imported as a session (record.h).
 *
 * How a recording runs (-r watch runs differently, see collect/record/watch_spec.h:
 * perfdb holds the workload itself, perf records system-wide without a
 * workload and writes no wrapper status; watch_run writes it):
 *  1. The recipes become a list of events (collect/recipes.c); tracepoints
 *     the running kernel lacks are left out with one warning; c2c stops
 *     here when the machine has no memory-sampling events. Nothing has
 *     run yet, so a refusal leaves no trace.
 *  2. perf runs as an argv (fork + execvp, no shell), writing perf.data
 *     into a fresh directory next to the database (or --perf-data FILE).
 *     Its workload is perfdb itself in a hidden wrapper mode,
 *       perfdb record __exec STATUS -- CMD [ARG...]
 *     which forks CMD, waits for it and writes "started PID", then "exit N",
 *     "signal N" or "exec ERRNO" into STATUS, and ends the way CMD ended
 *     (same exit code, or the same signal raised on itself) so perf sees
 *     what it would have seen. perf 6.1 does pass a workload's exit code
 *     through (and re-raises its fatal signal), but its own failures exit
 *     255 too, and when perf is interrupted it ends by the signal, so its
 *     status alone cannot tell a workload's 255 or death from a failed or
 *     interrupted perf; STATUS can.
 *  3. SIGINT, SIGTERM, SIGHUP or SIGPIPE to perfdb while perf runs goes
 *     to the workload as it is (through the wrapper, whose pid the status
 *     file's first line gives; one from the terminal reached the workload
 *     already) and stops perf with SIGINT: perf writes perf.data and
 *     exits once the workload has ended; perfdb then imports what was
 *     recorded and marks the session interrupted = 1. A signal during the
 *     import removes the temporary files and ends perfdb (the import
 *     transaction is rolled back). perfdb and perf ignore SIGPIPE
 *     otherwise: a closed stdout or stderr (perfdb record ... | head)
 *     loses their messages, not the recording; the workload gets its
 *     SIGPIPE from the wrapper as it would writing to the pipe itself.
 *     The temporary directory (.perfdb-record-PID-XXXXXX next to the
 *     database, 0700) is flock'ed while in use; one left by a killed
 *     perfdb (lock free, its pid gone) is removed by the next record.
 *  4. The import is ingest_file() with a snapshot of /proc/kallsyms taken
 *     just before perf started; in the same transaction the session row
 *     gets workload, exit_status, wall_ns (perf's run time), interrupted
 *     and perf_cmdline, and struct_layout gets mm_struct's BTF layout
 *     (read before the recording): a session is complete or absent. A
 *     -r watch recording whose canary fell short (collect/record/watch_spec.h: the
 *     watchpoints do not fire) stops there: the transaction is rolled
 *     back, one line says what was caught, exit status 2.
 * Exit status: the workload's (0..255, 128+N when signal N killed it),
 * also when interrupted; 2 when perf, the workload's start or the import
 * failed (then no session is added); 1 on a usage error.
 * Test hooks: PERFDB_PERF names the perf program; PERFDB_EXTRA_EVENTS adds
 * comma-separated events to the recipes' (checked like theirs). */
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "lib/alloc.h"
#include "lib/exit.h"
#include "lib/prog.h"
#include "collect/layout/btf_layout.h"
#include "schema/db.h"
#include "collect/import/ingest.h"
#include "collect/parse/parse_store.h"
#include "collect/recipes.h"
#include "collect/record/record.h"
#include "collect/record/record_data.h"
#include "collect/record/record_sweep.h"
#include "collect/record/record_wrapper.h"
#include "collect/spawn.h"
#include "collect/workload.h"
#include "collect/record/watch_spec.h"
#include "lib/cpulist.h"

/* The structs whose BTF layout each session keeps. */
static const char *const layout_structs[] = { "mm_struct" };
#define NLAYOUTS (sizeof(layout_structs) / sizeof(*layout_structs))


struct rec {
	struct record_args in;
	bool have_ksyms;
	struct recipe_plan plan;
	char perf[PATH_MAX], self[PATH_MAX], tmpdir[PATH_MAX - 64];
	char data[PATH_MAX], status[PATH_MAX], ksyms[PATH_MAX], out[PATH_MAX];
	char builtin[PATH_MAX];	/* the built-in workload found for workload[0] */
	char **perf_argv;
	sqlite3 *db;
	struct layout layouts[NLAYOUTS];
	int perf_ws;		/* perf's wait status */
	int64_t wall_ns;
	struct pulse pulse;	/* the machine's before the recording */
	struct run_load load;	/* other processes' during it */
	struct wrapper_status st;	/* what the wrapper said */
	struct parser *parser;		/* reads the workload's stdout (--parse) */
	struct parse_result result;	/* what it read */
	bool keep_data;		/* leave data behind (kept, or import failed) */
	bool placed;		/* data is at --perf-data's path */
	int tmpdir_fd;		/* tmpdir, flock'ed while it is in use; -1 */
	struct watch_set watch;	/* --watch: what -r watch watches */
	char canary_short[256];	/* what the watch canary saw when it fell short, or "" */
};

/* ---- signals ---- */

static volatile sig_atomic_t got_signal;
static volatile pid_t perf_pid;
/* Files removed by a signal during the import (async-signal-safe). */
static char cleanup_files[4][PATH_MAX], cleanup_dir[PATH_MAX];
/* The status file, where the handler finds the wrapper's pid (while the
 * file records no end: after it, the pid may be another process's). */
static char status_path[PATH_MAX];

/* on_stop: while perf runs, a stop signal goes to the workload as it is
 * (unless the terminal sent it to the workload too), and stops perf. A
 * SIGPIPE of perfdb's own write is not one: the write fails. */
static void on_stop(int sig, siginfo_t *si, void *uc)
{
	pid_t w;
	(void)uc;
	if (sig == SIGPIPE && si->si_pid == getpid())
		return;
	got_signal = sig;
	if (si->si_code != SI_KERNEL && (w = wrapper_status_live_pid(status_path)) > 0)
		kill(w, sig);
	if (perf_pid > 0)
		kill(perf_pid, SIGINT);
}

static volatile sig_atomic_t timed_out;

/* on_alarm: the recording's time is up: stop perf as Ctrl-C would (perf
 * then stops the workload with SIGTERM). */
static void on_alarm(int sig)
{
	timed_out = 1;
	got_signal = sig;
	if (perf_pid > 0)
		kill(perf_pid, SIGINT);
}

/* arm_timeout(s): SIGALRM after s seconds (0: disarmed). */
static void arm_timeout(double s)
{
	struct itimerval it = { .it_value = { (time_t)s, (suseconds_t)((s - (double)(time_t)s) * 1e6) } };
	struct sigaction sa = { .sa_handler = on_alarm };
	if (s <= 0) {
		setitimer(ITIMER_REAL, &it, NULL);
		return;
	}
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
}

/* The stop signal that arrived before perf started or during the import:
 * either stops, cleans up, and perfdb then dies of it. */
static volatile sig_atomic_t die_of;

/* cleanup_and_die: removes the temporary files, then dies of sig. */
static void cleanup_and_die(int sig)
{
	for (int i = 0; i < 4; i++)
		if (cleanup_files[i][0])
			unlink(cleanup_files[i]);
	if (cleanup_dir[0])
		rmdir(cleanup_dir);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* on_import_stop: a stop signal during the import stops it (rolled back;
 * record_run then cleans up and dies of it); a second one at once. */
static void on_import_stop(int sig)
{
	if (die_of)
		cleanup_and_die(sig);
	die_of = sig;
}

/* on_early_stop: a stop signal before perf runs: nothing is started,
 * what was made is removed, and record_run dies of it; a second one at
 * once (a stale temporary directory is swept by the next record). */
static void on_early_stop(int sig)
{
	if (die_of) {
		signal(sig, SIG_DFL);
		raise(sig);
	}
	die_of = got_signal = sig;
}

/* ---- planning: nothing has run yet ---- */

/* usage_error(fmt, ...): arguments that do not go together: one line
 * "PROG: ..." on stderr (lib/prog.h); EXIT_USAGE. */
static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int usage_error(const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "%s: ", prog_name());
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return EXIT_USAGE;
}

/* warn_missing: one line naming every event left out. */
static void warn_missing(const struct recipe_plan *p)
{
	eprintf("warning: this kernel lacks %zu event%s, recording without %s:",
		p->nmissing, p->nmissing == 1 ? "" : "s", p->nmissing == 1 ? "it" : "them");
	for (size_t i = 0; i < p->nmissing; i++)
		fprintf(stderr, "%s %s", i ? "," : "", p->missing[i]);
	fputc('\n', stderr);
}

/* has_tracepoints: whether the plan holds SYS:NAME events. */
static bool has_tracepoints(const struct recipe_plan *p)
{
	for (size_t i = 0; i < p->nevents; i++)
		if (strchr(p->events[i], ':'))
			return true;
	return false;
}

/* check_events: leaves out the tracepoints the kernel lacks. 0 or 2. */
static int check_events(struct rec *r)
{
	char tracefs[PATH_MAX] = "tracefs", why[256];
	if (has_tracepoints(&r->plan)) {
		if (!tracefs_mount_if_needed(tracefs, sizeof(tracefs), why, sizeof(why)))
			eprintf("warning: %s; tracepoints not checked\n", why);
		else
			recipe_plan_drop_missing(&r->plan, tracefs);
	}
	if (r->plan.nmissing)
		warn_missing(&r->plan);
	if (!r->plan.nevents && !(r->plan.recipes & (RECIPE_C2C | RECIPE_WATCH))) {
		eprintf("none of the recipes' %zu tracepoints was found in %s (the running kernel's "
			"events, listed above): nothing to record\n", r->plan.nmissing, tracefs);
		return EXIT_FAIL;
	}
	return 0;
}

/* check_c2c: refuses c2c, before anything runs, where perf cannot sample
 * memory accesses. 0 or 2. */
static int check_c2c(struct rec *r)
{
	char why[512], sysfs[256];
	if (!(r->plan.recipes & RECIPE_C2C) || mem_events_probe(r->perf, why, sizeof(why)) == 1)
		return 0;
	mem_events_sysfs(sysfs, sizeof(sysfs));
	eprintf("recipe c2c needs memory-sampling events (Intel PEBS mem-loads/"
		"mem-stores, AMD IBS, Arm SPE), which perf cannot open on the running kernel and CPU "
		"(perf: \"%s\"; sysfs: %s); nothing was run. Use -r watch (hardware watchpoints) "
		"instead.\n",
		why, *sysfs ? sysfs : "no mem-loads, ibs_op or arm_spe PMU");
	return EXIT_FAIL;
}

/* check_programs: perf and the workload can be run; a workload not in
 * PATH may be one of perfdb's built-in ones. 0 or 2. */
static int check_programs(struct rec *r)
{
	char path[PATH_MAX];
	int e;
	if ((e = find_program(perf_program(), r->perf, sizeof(r->perf)))) {
		eprintf("cannot run perf (%s): %s\n", perf_program(), strerror(e));
		return EXIT_FAIL;
	}
	if ((e = workload_find(r->in.workload[0], r->builtin, sizeof(r->builtin)))) {
		eprintf("cannot run '%s': %s\n", r->in.workload[0],
			e == ENOENT && !strchr(r->in.workload[0], '/') ? "command not found" : strerror(e));
		return EXIT_FAIL;
	}
	if (strcmp(r->builtin, r->in.workload[0]))
		r->in.workload[0] = r->builtin;
	(void)path;
	return 0;
}

/* plan_watch: -r watch and --watch go together; the fields resolved
 * (BTF, the workload's ELF symbols and DWARF); call graphs on. 0 or a
 * status. */
static int plan_watch(struct rec *r)
{
	char path[PATH_MAX], err[1024];
	bool recipe = r->plan.recipes & RECIPE_WATCH;
	int rc;
	if (!recipe && !r->in.watch.n && !r->in.watch.baseline && r->in.watch.mm_mode == WATCH_MM_EXEC)
		return 0;
	if (!recipe)
		return usage_error("--watch and its options need -r watch");
	if (!r->in.watch.n)
		return usage_error("-r watch needs --watch SPEC[,SPEC...]");
	if (find_program(r->in.workload[0], path, sizeof(path)))
		snprintf(path, sizeof(path), "%s", r->in.workload[0]);
	if ((rc = watch_resolve_static(&r->in.watch, path, err, sizeof(err)))) {
		eprintf("%s\n", err);
		return rc > 0 ? EXIT_USAGE : EXIT_FAIL;
	}
	if (r->in.po.callgraph == CG_NONE)
		r->in.po.callgraph = CG_FP;
	return 0;
}

/* check_cpus: -C names online CPUs only (else perf fails with "Failed to
 * initialize parallel data streaming masks"). 0, 1 (not a list) or 2. */
static int check_cpus(struct rec *r)
{
	static int want[WATCH_MAX_CPUS], online[WATCH_MAX_CPUS];
	char buf[4096] = "";
	int n, m;
	FILE *f;
	if (!r->in.po.cpus)
		return 0;
	if ((n = cpulist_parse(r->in.po.cpus, want, WATCH_MAX_CPUS)) <= 0)
		return usage_error("-C: '%s' is not a CPU list (e.g. 0,2-3)", r->in.po.cpus);
	if ((f = fopen("/sys/devices/system/cpu/online", "re"))) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = 0;
		fclose(f);
	}
	if ((m = cpulist_parse(buf, online, WATCH_MAX_CPUS)) <= 0)
		return 0;	/* unknown: perf will say */
	buf[strcspn(buf, "\n")] = 0;
	for (int i = 0; i < n; i++) {
		bool found = false;
		for (int j = 0; j < m && !found; j++)
			found = online[j] == want[i];
		if (!found) {
			eprintf("-C %s: CPU %d is not online (online CPUs: %s)\n",
				r->in.po.cpus, want[i], buf);
			return EXIT_FAIL;
		}
	}
	return 0;
}

/* plan: recipes to events, checked against this machine. 0 or a status. */
static int plan(struct rec *r)
{
	struct recipe_env env = { 0 };
	char why[256], err[512];
	int rc;
	if (r->in.po.freq && !strstr(r->in.spec ? r->in.spec : "profile", "profile"))
		return usage_error("-F applies to the profile recipe");
	env.have_cycles = pmu_has_cycles(why, sizeof(why));
	if (recipe_plan_make(&r->plan, r->in.spec, getenv("PERFDB_EXTRA_EVENTS"), &env, err, sizeof(err)))
		return usage_error("%s", err);
	if ((rc = check_cpus(r)) || (rc = check_programs(r)) || (rc = plan_watch(r)) || (rc = check_events(r)) ||
	    (rc = check_c2c(r)))
		return rc;
	return 0;
}

/* ---- preparing ---- */


/* make_tmpdir: a fresh directory next to the database for perf.data,
 * the status file and the kallsyms snapshot: 0700 whatever the umask,
 * flock'ed while this record uses it. 0 or 2. */
static int make_tmpdir(struct rec *r)
{
	const char *slash = strrchr(r->in.db_path, '/');
	int dirlen = slash ? (int)(slash - r->in.db_path) : 1;
	char dir[PATH_MAX - 128];
	if (dirlen + 40 >= (int)sizeof(dir)) {
		eprintf("%s: path too long\n", r->in.db_path);
		r->tmpdir[0] = 0;
		return EXIT_FAIL;
	}
	snprintf(dir, sizeof(dir), "%.*s", slash == r->in.db_path ? 1 : dirlen, slash ? r->in.db_path : ".");
	record_sweep(dir, r->in.quiet);
	snprintf(r->tmpdir, sizeof(r->tmpdir), "%s%s" RECORD_TMP_PREFIX "%d-XXXXXX", dir,
		 strcmp(dir, "/") ? "/" : "", (int)getpid());
	if (!mkdtemp(r->tmpdir)) {
		eprintf("%s: %s\n", r->tmpdir, strerror(errno));
		r->tmpdir[0] = 0;
		return EXIT_FAIL;
	}
	if ((r->tmpdir_fd = open(r->tmpdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0 ||
	    flock(r->tmpdir_fd, LOCK_EX) || fchmod(r->tmpdir_fd, 0700)) {
		eprintf("%s: %s\n", r->tmpdir, strerror(errno));
		return EXIT_FAIL;
	}
	snprintf(r->status, sizeof(r->status), "%s/status", r->tmpdir);
	wrapper_out_path(r->status, r->out, sizeof(r->out));
	snprintf(r->ksyms, sizeof(r->ksyms), "%s/kallsyms", r->tmpdir);
	snprintf(r->data, sizeof(r->data), "%s/perf.data", r->tmpdir);	/* --perf-data: placed after */
	return 0;
}

/* copy_kallsyms: /proc/kallsyms into dst; returns how many lines have a
 * non-zero address, or -1 (errno set). */
static long copy_kallsyms(const char *dst)
{
	FILE *in = fopen("/proc/kallsyms", "r"), *out;
	char *line = NULL;
	size_t cap = 0;
	long nonzero = 0;
	int bad;
	int fd;
	if (!in)
		return -1;
	if ((fd = open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600)) < 0 || !(out = fdopen(fd, "w"))) {
		if (fd >= 0)
			close(fd);
		fclose(in);
		return -1;
	}
	while (getline(&line, &cap, in) > 0) {
		fputs(line, out);
		if (strtoull(line, NULL, 16))
			nonzero++;
	}
	free(line);
	bad = ferror(in);
	fclose(in);
	if (fclose(out) || bad)
		return -1;
	return nonzero;
}

/* snapshot_kallsyms: the kallsyms snapshot, or a warning saying why not. */
static void snapshot_kallsyms(struct rec *r)
{
	long n;
	if (!r->in.snapshot)
		return;
	if ((n = copy_kallsyms(r->ksyms)) < 0)
		eprintf("warning: cannot save /proc/kallsyms: %s\n", strerror(errno));
	else if (!n)
		eprintf("warning: /proc/kallsyms shows no addresses "
			"(kernel.kptr_restrict); kernel symbols will not resolve\n");
	r->have_ksyms = n > 0;
	if (!r->have_ksyms)
		unlink(r->ksyms);
}

/* read_layouts: the BTF layouts kept with the session; a warning when
 * the kernel has no BTF. */
static void read_layouts(struct rec *r)
{
	char err[512];
	struct btf *btf = btf_layout_open(NULL, err, sizeof(err));
	for (size_t i = 0; btf && i < NLAYOUTS; i++)
		if (btf_layout_of(btf, layout_structs[i], &r->layouts[i], err, sizeof(err)))
			eprintf("warning: no layout of %s: %s\n", layout_structs[i], err);
	if (!btf)
		eprintf("warning: no struct layouts: %s\n", err);
	btf_layout_close(btf);
}

/* build_argv: perf's command line, with the wrapper as its workload. */
static int build_argv(struct rec *r)
{
	size_t n = 0;
	char **wl;
	ssize_t len = readlink("/proc/self/exe", r->self, sizeof(r->self) - 1);
	if (len <= 0) {
		eprintf("/proc/self/exe: %s\n", strerror(errno));
		return EXIT_FAIL;
	}
	r->self[len] = 0;
	if (strstr(r->self, " (deleted)") || access(r->self, X_OK))	/* replaced meanwhile */
		snprintf(r->self, sizeof(r->self), "/proc/%d/exe", (int)getpid());
	r->in.po.perf = r->perf;
	r->in.po.output = r->data;
	if (r->plan.recipes & RECIPE_WATCH) {	/* no workload: perfdb runs it */
		r->perf_argv = recipe_perf_argv(&r->plan, &r->in.po, (char *[]){ NULL });
		return 0;
	}
	char err[512];
	if (!(r->parser = parser_new(r->in.parse, r->in.workload, err, sizeof(err))))
		return eprintf("%s\n", err), EXIT_USAGE;
	char *const *cmd = parser_argv(r->parser, r->in.workload);
	while (cmd[n])
		n++;
	wl = xcalloc(n + 7, sizeof(*wl));
	wl[0] = r->self;
	wl[1] = "record";
	wl[2] = "__exec";
	wl[3] = r->status;
	bool quiet = r->in.hide_metrics || r->in.hide_stderr;
	wl[4] = r->in.hide_stderr ? "quiet-output" : quiet ? "quiet-metrics" : "--";
	wl[5] = "--";
	memcpy(wl + (quiet ? 6 : 5), cmd, n * sizeof(*wl));
	r->perf_argv = recipe_perf_argv(&r->plan, &r->in.po, wl);
	free(wl);
	return 0;
}

/* prepare: database, temporary files, kallsyms, layouts, perf's argv. */
static int prepare(struct rec *r)
{
	char err[1024];
	int rc;
	if (!(r->db = db_open(r->in.db_path, true, err, sizeof(err)))) {
		eprintf("%s\n", err);
		return EXIT_FAIL;
	}
	if ((rc = make_tmpdir(r)) || (rc = build_argv(r)))
		return rc;
	snapshot_kallsyms(r);
	read_layouts(r);
	return 0;
}

/* ---- running perf ---- */

/* run_watch: the watched run (collect/record/watch_spec.h); perf's final command
 * line replaces the recipes'. 0 or 2. */
static int run_watch(struct rec *r)
{
	struct watch_run_args a = { .perf_argv = r->perf_argv, .workload = r->in.workload,
		.status = r->status, .cpus = r->in.po.cpus, .quiet = r->in.quiet };
	struct watch_outcome out;
	int64_t t0 = proc_now_ns();
	int rc = watch_run(&r->in.watch, &a, &out);
	r->wall_ns = proc_now_ns() - t0;
	if (out.perf_argv) {
		argv_free(r->perf_argv);
		r->perf_argv = out.perf_argv;
	}
	r->perf_ws = out.perf_ws;
	if (out.interrupted)
		got_signal = SIGINT;
	return rc;
}

/* perf_child_setup: perf's signals: the default ones, SIGPIPE ignored
 * (a message to a closed stderr must not kill the recording; the
 * wrapper gives the workload its own SIGPIPE back), and SIGINT when
 * perfdb dies (SIGKILL): perf then stops, and stops the workload. */
static void perf_child_setup(void)
{
	proc_default_signals();
	signal(SIGPIPE, SIG_IGN);
	prctl(PR_SET_PDEATHSIG, SIGINT);
}

/* run_perf: runs perf to its end, passing stop signals on. 0 or 2. */
static int run_perf(struct rec *r)
{
	int64_t t0;
	int e;
	if (r->plan.recipes & RECIPE_WATCH)
		return run_watch(r);
	if (!r->in.quiet) {
		char *cmd = argv_join(r->perf_argv);
		eprintf("%s\n", cmd ? cmd : r->perf_argv[0]);
		free(cmd);
	}
	snprintf(status_path, sizeof(status_path), "%s", r->status);
	proc_on_stop_signals(on_stop);
	t0 = proc_now_ns();
	if ((e = proc_spawn(r->perf_argv, &perf_pid, perf_child_setup))) {
		eprintf("cannot run %s: %s\n", r->perf, strerror(e));
		if (perf_pid > 0)
			proc_wait(perf_pid);
		return EXIT_FAIL;
	}
	if (got_signal)	/* it came while perf was being started */
		kill(perf_pid, SIGINT);
	arm_timeout(r->in.timeout_s);
	r->perf_ws = proc_wait(perf_pid);
	arm_timeout(0);
	r->wall_ns = proc_now_ns() - t0;
	perf_pid = 0;
	signal(SIGPIPE, SIG_IGN);
	return 0;
}

/* describe: a wait status in words ("exit 3", "signal 2 (Interrupt)"). */
static const char *describe(int ws, char *buf, size_t len)
{
	if (WIFEXITED(ws))
		snprintf(buf, len, "exit status %d", WEXITSTATUS(ws));
	else if (WIFSIGNALED(ws))
		snprintf(buf, len, "signal %d (%s)", WTERMSIG(ws), strsignal(WTERMSIG(ws)));
	else
		snprintf(buf, len, "wait status %#x", ws);
	return buf;
}

/* perf_mirrors: whether perf ended as its workload did, as it does when
 * the recording went well. */
static bool perf_mirrors(const struct rec *r)
{
	if (r->plan.recipes & RECIPE_WATCH)	/* perf had no workload; perfdb stopped it */
		return watch_perf_ok(r->perf_ws);
	if (r->st.kind == WL_EXIT)
		return WIFEXITED(r->perf_ws) && WEXITSTATUS(r->perf_ws) == r->st.value;
	return WIFSIGNALED(r->perf_ws) && WTERMSIG(r->perf_ws) == r->st.value;
}

/* judge: whether there is a recording to import. 0, or 2 with a reason. */
static int judge(struct rec *r)
{
	char buf[96];
	wrapper_status_read(r->status, &r->st);
	if (r->st.kind == WL_EXEC) {
		eprintf("cannot run '%s': %s\n", r->in.workload[0], strerror(r->st.value));
		return EXIT_FAIL;
	}
	if (r->st.kind == WL_NONE) {
		if (got_signal && !r->in.stop_handler)
			die_of = got_signal;	/* as one before perf started */
		if (got_signal)
			eprintf("interrupted before the workload started; nothing recorded\n");
		else
			eprintf("perf failed before the workload started (%s); "
				"nothing recorded\n", describe(r->perf_ws, buf, sizeof(buf)));
		return EXIT_FAIL;
	}
	if (r->st.kind == WL_STARTED) {
		eprintf("the workload's end was not seen (perf: %s)\n",
			describe(r->perf_ws, buf, sizeof(buf)));
		return EXIT_FAIL;
	}
	if (!got_signal && !perf_mirrors(r)) {
		eprintf("perf failed while recording (%s); not imported\n",
			describe(r->perf_ws, buf, sizeof(buf)));
		return EXIT_FAIL;
	}
	if (access(r->data, R_OK)) {
		eprintf("%s: %s\n", r->data, strerror(errno));
		return EXIT_FAIL;
	}
	return 0;
}

/* parse_output(r): the workload's stdout (the wrapper's copy) through
 * the parser into r->result; output that does not parse is said in one
 * line and leaves no metric (the recording is imported all the same). */
static void parse_output(struct rec *r)
{
	FILE *f = fopen(r->out, "r");
	char *line = NULL;
	size_t cap = 0;
	struct parse_usage u = { r->st.usage.wall_ns, r->st.usage.user_ns, r->st.usage.sys_ns };
	if (!r->parser)
		return;
	while (f && getline(&line, &cap, f) > 0)
		parser_line(r->parser, line);
	free(line);
	if (f)
		fclose(f);
	if (parser_end(r->parser, r->st.have_usage ? &u : NULL, &r->result) && !r->in.quiet &&
	    (r->in.parse || strncmp(r->result.error, "printed no metric line", 22)))
		eprintf("the workload's output: %s; no metric stored\n", r->result.error);
}

/* ---- importing ---- */

/* workload_status: the workload's exit status as a shell shows it. */
static int workload_status(const struct rec *r)
{
	return r->st.kind == WL_EXIT ? r->st.value : 128 + r->st.value;
}

/* bind_machine(st, i, r): the pulse and load into parameters i .. i + 3
 * (NULL where unknown). */
static void bind_machine(sqlite3_stmt *st, int i, const struct rec *r)
{
	if (isfinite(r->pulse.int_rate))
		sqlite3_bind_double(st, i, r->pulse.int_rate);
	if (isfinite(r->pulse.mem_rate))
		sqlite3_bind_double(st, i + 1, r->pulse.mem_rate);
	if (r->load.others_ns != INT64_MIN)
		sqlite3_bind_int64(st, i + 2, r->load.others_ns);
	if (r->load.steal_ns >= 0)
		sqlite3_bind_int64(st, i + 3, r->load.steal_ns);
}

/* stored_cmdline(r): perf's command line as run, except that -o names
 * the file where the recording was kept (--perf-data), not the
 * temporary directory it was written in and which is gone; malloc'd. */
static char *stored_cmdline(const struct rec *r)
{
	size_t n = 0;
	while (r->perf_argv[n])
		n++;
	char **v = calloc(n + 1, sizeof(*v));
	char *cmd;
	if (!v)
		return NULL;
	for (size_t i = 0; i < n; i++)
		v[i] = r->placed && i > 0 && !strcmp(r->perf_argv[i - 1], "-o") ? (char *)r->data
										  : r->perf_argv[i];
	cmd = argv_join(v);
	free(v);
	return cmd;
}

/* update_session: the record-only columns of the session row. */
static int update_session(struct rec *r, int64_t id, char *err, size_t errlen)
{
	sqlite3_stmt *st = db_prepare(r->db, "UPDATE session SET workload = ?, exit_status = ?, "
		"wall_ns = ?, interrupted = ?, perf_cmdline = ?, source = ?, kallsyms_source = "
		"CASE WHEN kallsyms_source = ? THEN '/proc/kallsyms (snapshot at record time)' "
		"ELSE kallsyms_source END, pulse_int = ?, pulse_mem = ?, others_cpu_ns = ?, steal_ns = ? "
		"WHERE id = ?");
	char *wl = argv_join(r->in.workload), *cmd = stored_cmdline(r);
	int rc = -1;
	if (st) {
		sqlite3_bind_text(st, 1, wl, -1, SQLITE_STATIC);
		sqlite3_bind_int(st, 2, workload_status(r));
		sqlite3_bind_int64(st, 3, r->wall_ns);
		sqlite3_bind_int(st, 4, got_signal != 0);
		sqlite3_bind_text(st, 5, cmd, -1, SQLITE_STATIC);
		db_bind_text_or_null(st, 6, r->placed ? r->data : NULL);
		sqlite3_bind_text(st, 7, r->ksyms, -1, SQLITE_STATIC);
		bind_machine(st, 8, r);
		sqlite3_bind_int64(st, 12, id);
		rc = db_step_done(st, err, errlen);
	} else {
		snprintf(err, errlen, "%s", sqlite3_errmsg(r->db));
	}
	sqlite3_finalize(st);
	free(wl);
	free(cmd);
	return rc;
}

/* store_metrics: the workload's metric lines (the watch recipe stores
 * its own, with the baseline's). */
static int store_metrics(struct rec *r, int64_t id, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	int rc = 0;
	if (r->plan.recipes & RECIPE_WATCH || !r->result.nmetrics)
		return 0;
	st = db_prepare(r->db, "INSERT INTO workload_metric (session_id, name, value, watched, "
			"line, unit, better) VALUES (?, ?, ?, 1, ?, ?, ?)");
	for (size_t i = 0; st && !rc && i < r->result.nmetrics; i++) {
		const struct metric *m = &r->result.metrics[i];
		sqlite3_bind_int64(st, 1, id);
		sqlite3_bind_text(st, 2, m->name, -1, SQLITE_STATIC);
		sqlite3_bind_double(st, 3, m->value);
		sqlite3_bind_text(st, 4, m->line, -1, SQLITE_STATIC);
		db_bind_text_or_null(st, 5, m->unit[0] ? m->unit : NULL);
		db_bind_text_or_null(st, 6, metric_better_name(m->better));
		rc = db_step_done(st, err, errlen);
	}
	sqlite3_finalize(st);
	return st ? rc : -1;
}

/* store_layouts: the layouts read before the recording. */
static int store_layouts(struct rec *r, int64_t id, char *err, size_t errlen)
{
	if (!db_has_table(r->db, "struct_layout")) {
		eprintf("warning: %s predates the struct_layout table; "
			"layouts not kept\n", r->in.db_path);
		return 0;
	}
	for (size_t i = 0; i < NLAYOUTS; i++)
		if (r->layouts[i].n && btf_layout_store(r->db, id, &r->layouts[i], err, errlen))
			return -1;
	return 0;
}

/* finish_session: what only record knows, in the import's transaction
 * (ingest_opts.before_commit): the session is complete or absent. */
static int finish_session(sqlite3 *db, int64_t id, void *arg, char *err, size_t errlen)
{
	struct rec *r = arg;
	int rc;
	(void)db;
	if (update_session(r, id, err, errlen) || store_layouts(r, id, err, errlen) ||
	    store_metrics(r, id, err, errlen) ||
	    (!(r->plan.recipes & RECIPE_WATCH) &&
	     parse_store_dists(r->db, PARSE_SESSION, id, &r->result, err, errlen)))
		return -1;
	if (r->in.watch.n && (rc = watch_store(r->db, id, &r->in.watch, err, errlen))) {
		if (rc == 1)	/* the watchpoints do not fire: nothing is stored */
			snprintf(r->canary_short, sizeof(r->canary_short), "%s", err);
		return -1;
	}
	return 0;
}

/* describe_new(r, id): the objects and layouts the options ask for, in
 * the new session. 0, or EXIT_FAIL after one line (the session stays). */
static int describe_new(struct rec *r, int64_t id)
{
	struct describe_result *d;
	char err[4400];
	if (describe_sessions(r->db, &id, 1, r->in.describe, &d, err, sizeof(err))) {
		eprintf("session %lld recorded, but its layouts and objects were not "
			"stored: %s (perfdb layout %s -s %lld stores them)\n", (long long)id, err,
			r->in.db_path, (long long)id);
		return EXIT_FAIL;
	}
	if (d->warning)
		eprintf("warning: %s\n", d->warning);
	if (!r->in.quiet) {
		char *line = describe_result_line(d);
		eprintf("%s\n", line);
		free(line);
	}
	describe_results_free(d, 1);
	return 0;
}

/* arm_cleanup: from here a stop signal removes the temporary files (or
 * goes to the caller's handler, which lets the import finish). */
static void arm_cleanup(struct rec *r)
{
	if (r->in.stop_handler) {
		proc_on_signals(r->in.stop_handler);
		return;
	}
	snprintf(cleanup_files[0], PATH_MAX, "%s", r->status);
	snprintf(cleanup_files[1], PATH_MAX, "%s", r->ksyms);
	snprintf(cleanup_files[2], PATH_MAX, "%s", r->data);	/* in the temporary directory until placed */
	snprintf(cleanup_files[3], PATH_MAX, "%s", r->out);
	snprintf(cleanup_dir, PATH_MAX, "%s", r->tmpdir);
	proc_on_signals(on_import_stop);
}

/* keep_recording(r): a recording that failed to import is kept for a
 * look, out of the temporary directory (which the next record would
 * remove): moved to perfdb-record-PID.data beside the database. */
static void keep_recording(struct rec *r)
{
	char kept[PATH_MAX];
	const char *slash = strrchr(r->tmpdir, '/');
	if (r->placed)
		return;
	snprintf(kept, sizeof(kept), "%.*sperfdb-record-%d.data", slash ? (int)(slash - r->tmpdir + 1) : 0,
		 r->tmpdir, (int)getpid());
	r->keep_data = true;
	if (rename(r->data, kept) == 0)
		snprintf(r->data, sizeof(r->data), "%s", kept);
	chmod(r->data, 0600);
	eprintf("the recording is kept in %s\n", r->data);
}

/* import: the recording into the database as a new session. */
static int import(struct rec *r)
{
	struct ingest_opts o = { .label = r->in.label, .progress = !r->in.quiet,
				 .before_commit = finish_session, .arg = r };
	char err[1024];
	int64_t id;
	int rc;
	if (r->have_ksyms)
		o.kallsyms = r->ksyms;
	if (!r->in.stop_handler)
		o.stop = &die_of;
	if (ingest_file(r->db, r->data, &o, &id, err, sizeof(err))) {
		if (r->canary_short[0]) {
			eprintf("watch: hardware watchpoints do not fire here: %s "
				"(perfdb's canary, recorded beside the watches); the recording is not "
				"stored\n", r->canary_short);
			return EXIT_FAIL;
		}
		if (die_of) {
			eprintf("%s during the import: nothing imported\n", err);
			return EXIT_FAIL;
		}
		eprintf("import failed: %s\n", err);
		keep_recording(r);
		return EXIT_FAIL;
	}
	r->in.session = id;
	if (r->in.describe && (rc = describe_new(r, id)))
		return rc;
	if (!r->in.quiet)
		eprintf("session %lld in %s%s: workload %s %d, %.3f s\n",
			(long long)id, r->in.db_path, got_signal ? " (interrupted)" : "",
			r->st.kind == WL_EXIT ? "exit status" : "killed by signal", r->st.value,
			(double)r->wall_ns / 1e9);
	if ((r->plan.recipes & RECIPE_WATCH) && r->st.kind == WL_SIGNAL && r->st.value == SIGTRAP)
		eprintf("watch: the workload died of SIGTRAP while the write "
			"watchpoints were armed. A debug exception that no perf watchpoint claims "
			"reaches the process as SIGTRAP (some kernels and hypervisors deliver such "
			"exceptions now and then); the writes recorded until then are in session %lld. "
			"A workload whose SIGTRAP handler returns runs on: falseshare counts them as "
			"sigtraps=N.\n", (long long)id);
	return 0;
}

/* ---- the verb ---- */

/* remove_tmp: the temporary files and directory (data when not kept). */
static void remove_tmp(struct rec *r)
{
	if (!r->tmpdir[0])
		return;
	unlink(r->status);
	unlink(r->out);
	unlink(r->ksyms);
	if (!r->placed && !r->keep_data)
		unlink(r->data);
	rmdir(r->tmpdir);
	if (r->tmpdir_fd >= 0)
		close(r->tmpdir_fd);
}

/* rec_free: everything r holds. */
static void rec_free(struct rec *r)
{
	remove_tmp(r);
	recipe_plan_free(&r->plan);
	argv_free(r->perf_argv);
	for (size_t i = 0; i < NLAYOUTS; i++)
		btf_layout_free(&r->layouts[i]);
	watch_set_free(&r->in.watch);
	parser_free(r->parser);
	parse_result_free(&r->result);
	if (r->db) {
		bool created = db_created(r->db);
		db_close(r->db);
		if (created && !r->in.session)	/* made for nothing: gone again */
			db_remove_if_unused(r->in.db_path);
	}
}

/* measure_machine(r, c0): the machine's pulse (unless the caller gave
 * it), then the CPU counters the recording's load starts from. */
static void measure_machine(struct rec *r, struct cpu_clock *c0)
{
	struct pulse_probe *p;
	r->pulse = (struct pulse){ NAN, NAN };
	if (r->in.pulse)
		r->pulse = *r->in.pulse;
	else if ((p = pulse_probe_new())) {
		pulse_measure(p, &r->pulse);
		pulse_probe_free(p);
	}
	cpu_clock_read(c0);
}

/* place_data(r): the recording at --perf-data's path, when given (when
 * it cannot be put there it is kept beside the database, and said). */
static void place_data(struct rec *r)
{
	char err[PATH_MAX + 128];
	if (!r->in.perf_data)
		return;
	if (record_data_place(r->data, r->in.perf_data, err, sizeof(err))) {
		eprintf("%s\n", err);
		keep_recording(r);
		return;
	}
	snprintf(r->data, sizeof(r->data), "%s", r->in.perf_data);
	r->placed = true;
}

/* record: plan, prepare, run, judge, import. Returns the exit status. */
static int record(struct rec *r)
{
	struct cpu_clock c0, c1;
	char err[PATH_MAX + 128];
	int rc;
	if (r->in.perf_data && record_data_check(r->in.perf_data, r->in.db_path, err, sizeof(err)))
		return eprintf("%s\n", err), EXIT_FAIL;
	if ((rc = plan(r)) || (rc = prepare(r)))
		return rc;
	if (die_of)
		return eprintf("interrupted before the workload started; nothing "
			       "recorded\n"), EXIT_FAIL;
	measure_machine(r, &c0);
	rc = run_perf(r);
	cpu_clock_read(&c1);
	run_load_between(&c0, &c1, &r->load);
	if (rc)
		return rc;
	arm_cleanup(r);
	if ((rc = judge(r)))
		return rc;
	parse_output(r);
	place_data(r);
	if ((rc = import(r)))
		return rc;
	return workload_status(r);
}

/* record_args_init: see record.h. */
void record_args_init(struct record_args *a, const char *db_path)
{
	*a = (struct record_args){ .db_path = db_path, .snapshot = true };
}

/* record_run: see record.h. */
int record_run(struct record_args *a)
{
	struct rec r = { .in = *a, .tmpdir_fd = -1 };
	struct sigaction old_pipe, ign = { .sa_handler = SIG_IGN };
	int rc;
	got_signal = 0;
	timed_out = 0;
	die_of = 0;
	if (!a->stop_handler)	/* (a caller's handler stays: it knows what to do) */
		proc_on_signals(on_early_stop);
	sigemptyset(&ign.sa_mask);
	sigaction(SIGPIPE, &ign, &old_pipe);	/* a closed stderr loses messages only */
	rc = record(&r);
	sigaction(SIGPIPE, &old_pipe, NULL);
	a->session = r.in.session;
	a->interrupted = got_signal != 0;
	a->timed_out = timed_out != 0;
	a->status = r.st;
	a->result = r.result;	/* handed over: rec_free must not free it */
	r.result = (struct parse_result){ 0 };
	rec_free(&r);
	if (!a->stop_handler)
		proc_on_signals(SIG_DFL);
	if (die_of)	/* cleaned up: now die of the signal, as perf would */
		raise(die_of);
	return rc;
}
