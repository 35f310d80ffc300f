/* perfdb bench's work (see bench.h). */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "collect/bench/bench.h"
#include "collect/bench/bench_knob.h"
#include "collect/bench/bench_store.h"
#include "collect/parse/parse.h"
#include "collect/pulse.h"
#include "collect/recipes.h"
#include "collect/record/record.h"
#include "collect/spawn.h"
#include "collect/bench/sysinfo.h"
#include "collect/workload.h"
#include "lib/alloc.h"
#include "lib/exit.h"
#include "schema/db.h"

/* Stop signals seen: 1 stops after the current run, 2 stops it too. */
static volatile sig_atomic_t stops;
static volatile sig_atomic_t stop_now;
static volatile pid_t run_pid;

/* on_stop: a stop signal. */
static void on_stop(int sig)
{
	static const char msg[] = "\nperfdb bench: stopping after the current run (again to stop it now)\n";
	(void)sig;
	if (++stops == 1) {
		if (write(2, msg, sizeof(msg) - 1) < 0)
			stops = 1;
	} else {
		stop_now = 1;
	}
}

/* Everything one invocation holds. */
struct bench {
	struct bench_args *a;
	sqlite3 *db;
	int64_t id;
	struct sysinfo_facts sys;
	struct slot *slots;
	size_t nslots, todo, ran, failed;
	bool *done;
	bool tty;
	int64_t t0, spent_ns;
	int sitting;			/* this invocation's */
	struct pulse_probe *probe;	/* NULL: the pulse is not measured */
	struct pulse pulse;		/* the last probe's */
	size_t probe_every, since_probe;	/* a probe before every probe_every-th run */
	size_t nprobes;
	int64_t probe_ns;		/* their time in all */
	char tail_out[WL_TAIL + 1], tail_err[WL_TAIL + 1];	/* the last bare run's output's ends */
	struct bench_knobs knobs;	/* --set */
};

/* describe_end(w, buf, len): how a run ended, in words. */
static const char *describe_end(int status, char *buf, size_t len)
{
	if (WIFEXITED(status))
		snprintf(buf, len, "exit status %d", WEXITSTATUS(status));
	else
		snprintf(buf, len, "killed by signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
	return buf;
}

/* judge(status, res, row, why, len): the run's status and error from
 * how it ended and what its output said (res: parser_end's). */
static void judge(int status, const struct parse_result *res, struct run_row *row, char *why, size_t len)
{
	row->status = "ok";
	row->error = NULL;
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		describe_end(status, why, len);
	} else if (res->error[0]) {
		snprintf(why, len, "%s", res->error);
	} else {
		return;
	}
	row->status = "failed";
	row->error = why;
}

/* on_line(line, p): a stdout line of a bare run, to its parser. */
static int on_line(const char *line, void *p)
{
	return parser_line(p, line);
}

/* run_bare(b, row, why, len, res): a bare run (or warm-up) of row->argv,
 * its output read into *res; 0, or 1 when a second stop signal stopped
 * it (nothing to store). */
static int run_bare(struct bench *b, struct run_row *row, char *why, size_t len, struct parse_result *res)
{
	struct wl_result wr = { 0 }, *r = &wr;
	struct parser *p = parser_new(b->a->plan.parse, row->argv, why, len);
	if (!p) {	/* checked before the bench began: only memory or a temporary file */
		row->status = "failed";
		row->error = why;
		return 0;
	}
	struct wl_opts o = { .timeout_s = b->a->plan.timeout_s, .own_pgroup = true, .out_fd = 1,
		.err_fd = b->a->quiet ? -1 : 2, .pidp = &run_pid, .stop = &stop_now,
		.on_line = on_line, .arg = p };
	int rc = workload_run(parser_argv(p, row->argv), &o, r);
	struct wl_usage u = wl_usage_of(r);
	parser_end(p, &(struct parse_usage){ u.wall_ns, u.user_ns, u.sys_ns }, res);
	parser_free(p);
	if (rc) {
		snprintf(why, len, "cannot run '%s': %s", row->argv[0], strerror(r->exec_errno ? r->exec_errno : errno));
		row->status = "failed";
		row->error = why;
		row->exit_status = -1;
		return 0;
	}
	if (r->stopped && !r->timed_out)
		return 1;	/* stopped by a second Ctrl-C: not a run */
	if (r->leftovers && !b->a->quiet)
		fprintf(stderr, "perfdb bench: %s exited leaving processes that held its output; "
			"killed its process group so they cannot disturb the next run\n", row->argv[0]);
	row->started_ns = r->start_ns;
	row->usage = wl_usage_of(r);
	row->exit_status = wl_exit_code(r->status);
	row->result = res;
	row->out_tail = b->tail_out;
	row->err_tail = b->tail_err;
	memcpy(b->tail_out, r->out_tail, sizeof(b->tail_out));	/* both WL_TAIL + 1 */
	memcpy(b->tail_err, r->err_tail, sizeof(b->tail_err));
	judge(r->status, res, row, why, len);
	if (r->timed_out) {
		snprintf(why, len, "timed out after %g s", b->a->plan.timeout_s);
		row->status = "timeout";
		row->error = why;
	}
	return 0;
}

/* run_recorded(b, row, why, len, ra): a run under perf record; 0, or 1
 * when a stop signal ended it before there was a session. A stop signal
 * during the import counts as one for the bench (stop after this run). */
static int run_recorded(struct bench *b, struct run_row *row, char *why, size_t len, struct record_args *ra)
{
	struct wrapper_status *st = &ra->status;
	size_t n = 0;
	int rc;
	while (row->argv[n])
		n++;
	char **wl = xcalloc(n + 1, sizeof(char *));	/* record may repoint [0] */
	memcpy(wl, row->argv, n * sizeof(char *));
	record_args_init(ra, b->a->db_path);
	ra->label = b->a->label;
	ra->spec = b->a->plan.recipes;
	ra->quiet = ra->po.quiet = true;
	ra->hide_metrics = true;
	ra->hide_stderr = b->a->quiet;
	ra->timeout_s = b->a->plan.timeout_s;
	ra->workload = wl;
	ra->stop_handler = on_stop;
	ra->pulse = &b->pulse;
	ra->parse = b->a->plan.parse;
	rc = record_run(ra);
	free(wl);
	proc_on_signals(on_stop);
	row->session = ra->session;
	row->started_ns = st->start_ns;
	row->out_tail = st->out_tail;
	row->err_tail = st->err_tail;
	row->usage = st->usage;
	row->result = &ra->result;
	row->exit_status = st->kind == WL_EXIT ? st->value : st->kind == WL_SIGNAL ? 128 + st->value : -1;
	if (ra->interrupted && !ra->timed_out) {
		stops = 2;	/* Ctrl-C reached perf and the workload: stop here */
		if (!ra->session)
			return 1;
	}
	if (!ra->session || (st->kind != WL_EXIT && st->kind != WL_SIGNAL)) {
		snprintf(why, len, "the recording failed (perfdb record's exit status %d)", rc);
		row->status = "failed";
		row->error = why;
		return 0;
	}
	judge(st->kind == WL_EXIT ? W_EXITCODE(st->value, 0) : W_EXITCODE(0, st->value),
	      &ra->result, row, why, len);
	if (ra->timed_out) {
		snprintf(why, len, "timed out after %g s (recorded until then)", b->a->plan.timeout_s);
		row->status = "timeout";
		row->error = why;
	} else if (ra->interrupted) {
		snprintf(why, len, "interrupted while recording");
		row->status = "failed";
		row->error = why;
	}
	return 0;
}

/* fmt_duration(ns, buf, len): "1:02:03" or "2:03" or "3.2 s". */
static const char *fmt_duration(int64_t ns, char *buf, size_t len)
{
	long s = (long)(ns / 1000000000);
	if (s < 60)
		snprintf(buf, len, "%.1f s", (double)ns / 1e9);
	else if (s < 3600)
		snprintf(buf, len, "%ld:%02ld", s / 60, s % 60);
	else
		snprintf(buf, len, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
	return buf;
}

/* first_result(res): the run's first metric (or its first distribution's
 * sample count), for the progress line. */
static void first_result(const struct parse_result *res)
{
	if (res->nmetrics)
		fprintf(stderr, "%s %g%s%s", res->metrics[0].name, res->metrics[0].value,
			res->metrics[0].unit[0] ? " " : "", res->metrics[0].unit);
	else
		fprintf(stderr, "%s: %zu samples", res->dists[0].name, res->dists[0].n);
}

/* progress(b, sl, row): one line per run at a terminal. */
static void progress(const struct bench *b, const struct slot *sl, const struct run_row *row)
{
	char eta[32], took[32], *cell = bench_cell_text(&b->a->plan, sl->cell);
	if (!b->tty || b->a->quiet) {
		free(cell);
		return;
	}
	int64_t left = b->ran ? b->spent_ns / (int64_t)b->ran * (int64_t)(b->todo - b->ran) : 0;
	fprintf(stderr, "perfdb bench: [%zu/%zu] %s%s%s run %d: ", b->ran, b->todo, cell, *cell ? " " : "",
		slot_kind_names[sl->kind], sl->run);
	if (!strcmp(row->status, "ok") && row->result && (row->result->nmetrics || row->result->ndists))
		first_result(row->result);
	else
		fprintf(stderr, "%s: %s", row->status, row->error ? row->error : "");
	fprintf(stderr, ", %s; about %s left\n", fmt_duration(row->usage.wall_ns, took, sizeof(took)),
		fmt_duration(left, eta, sizeof(eta)));
	free(cell);
}

/* take_pulse(b): the machine's pulse, before every probe_every-th run of
 * this invocation (before each round of the interleaved order). */
static void take_pulse(struct bench *b)
{
	int64_t t0 = proc_now_ns();
	int rc;
	if (!b->probe || b->since_probe++ % b->probe_every)
		return;
	rc = pulse_measure(b->probe, &b->pulse);
	b->probe_ns += proc_now_ns() - t0;
	b->nprobes++;
	if (rc && !b->a->quiet)
		fprintf(stderr, "perfdb bench: the machine's pulse could not be measured before this round\n");
}

/* start_sitting(b): this invocation's sitting and the pulse's probe. 0 or
 * EXIT_FAIL. */
static int start_sitting(struct bench *b)
{
	char err[512];
	if ((b->sitting = bench_store_sitting(b->db, b->id, err, sizeof(err))) < 0) {
		fprintf(stderr, "perfdb bench: %s: %s\n", b->a->db_path, err);
		return EXIT_FAIL;
	}
	b->pulse = (struct pulse){ NAN, NAN };
	b->probe_every = bench_ncells(&b->a->plan);
	if (!(b->probe = pulse_probe_new()) && !b->a->quiet)
		fprintf(stderr, "perfdb bench: the machine's pulse is not measured: %s\n", strerror(errno));
	return 0;
}

/* set_knobs(b, sl, row, why, len): the cell's knobs (--set) before a run,
 * their values in row; false when one could not be set: row is then a
 * failed run that did not run. */
static bool set_knobs(struct bench *b, const struct slot *sl, struct run_row *row, char *why, size_t len)
{
	struct timespec ts;
	if (!b->knobs.n)
		return true;
	int rc = bench_knobs_set(&b->knobs, b->db, b->id, &b->a->plan, sl->cell, why, len);
	row->knob_paths = b->knobs.paths;
	row->knob_values = b->knobs.values;
	row->nknobs = b->knobs.n;
	if (!rc)
		return true;
	clock_gettime(CLOCK_REALTIME, &ts);
	row->started_ns = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
	row->status = "failed";
	row->error = why;
	return false;
}

/* one_run(b, i): runs and stores slot i. 0, 1 when stopped (not stored),
 * or -1 when storing failed (message printed). */
static int one_run(struct bench *b, size_t i)
{
	const struct slot *sl = &b->slots[i];
	char why[512], err[512];
	char **argv = bench_argv(&b->a->plan, sl->cell), path[PATH_MAX];
	if (!workload_find(argv[0], path, sizeof(path)) && strcmp(path, argv[0])) {
		free(argv[0]);	/* a built-in workload: its path is what runs */
		argv[0] = xstrdup(path);
	}
	struct run_row row = { .slot = sl, .seq = (long)i, .argv = argv, .exit_status = -1 };
	struct parse_result res = { 0 };
	struct record_args ra = { 0 };
	struct cpu_clock c0, c1;
	int64_t t;
	int rc;
	take_pulse(b);
	row.sitting = b->sitting;
	row.pulse = b->pulse;
	t = proc_now_ns();
	cpu_clock_read(&c0);
	rc = !set_knobs(b, sl, &row, why, sizeof(why)) ? 0
	     : sl->kind == SLOT_RECORDED ? run_recorded(b, &row, why, sizeof(why), &ra)
					 : run_bare(b, &row, why, sizeof(why), &res);
	cpu_clock_read(&c1);
	run_load_between(&c0, &c1, &row.load);
	if (!rc) {
		b->ran++;
		b->spent_ns += proc_now_ns() - t;
		b->failed += strcmp(row.status, "ok") != 0;
		if (bench_store_run(b->db, b->id, &row, err, sizeof(err))) {
			fprintf(stderr, "perfdb bench: %s: %s\n", b->a->db_path, err);
			rc = -1;
		} else {
			progress(b, sl, &row);
		}
	}
	parse_result_free(&res);
	parse_result_free(&ra.result);
	bench_argv_free(argv);
	return rc;
}

/* perf_version(buf, len): "6.1.192" from perf version, "" when unknown. */
static void perf_version(char *buf, size_t len)
{
	char perf[PATH_MAX], out[256];
	int ws;
	buf[0] = 0;
	if (find_program(perf_program(), perf, sizeof(perf)))
		return;
	char *argv[] = { perf, (char *)"version", NULL };
	if (run_capture(argv, out, sizeof(out), &ws) || !WIFEXITED(ws) || WEXITSTATUS(ws))
		return;
	out[strcspn(out, "\n")] = 0;
	snprintf(buf, len, "%s", strncmp(out, "perf version ", 13) ? out : out + 13);
}

/* check_command(b): every cell's command can be run (a parameter may
 * pick the program), checked before anything is stored. 0 or EXIT_FAIL. */
static int check_command(struct bench *b)
{
	struct bench_plan *p = &b->a->plan;
	char path[PATH_MAX];
	int e = 0;
	for (size_t c = 0; c < bench_ncells(p) && !e; c++) {
		char **argv = bench_argv(p, c);
		if ((e = workload_find(argv[0], path, sizeof(path))))
			fprintf(stderr, "perfdb bench: cannot run '%s': %s\n", argv[0],
				e == ENOENT && !strchr(argv[0], '/') ? "command not found" : strerror(e));
		bench_argv_free(argv);
	}
	return e ? EXIT_FAIL : 0;
}

/* needs(b): per cell, what this boot still needs, when something was
 * done already (a resumed bench). */
static void needs(const struct bench *b)
{
	size_t cells = bench_ncells(&b->a->plan);
	for (size_t c = 0; c < cells && !b->a->quiet; c++) {
		size_t want = 0, have = 0;
		for (size_t i = 0; i < b->nslots; i++)
			if (b->slots[i].cell == c) {
				want++;
				have += b->done[i];
			}
		char *t = bench_cell_text(&b->a->plan, c);
		fprintf(stderr, "perfdb bench: %s%s%zu of %zu runs done, %zu to run\n", t, *t ? ": " : "",
			have, want, want - have);
		free(t);
	}
}

/* number_on(b): --again: the slots' runs numbered on after the ones the
 * bench has, kind by kind, so that none of them is done yet. */
static void number_on(struct bench *b)
{
	int last[3];
	for (int k = 0; k < 3; k++)
		last[k] = bench_store_last_run(b->db, b->id, slot_kind_names[k]);
	for (size_t i = 0; i < b->nslots; i++)
		b->slots[i].run += last[b->slots[i].kind];
}

/* open_knobs(b): the knobs dead benches of the database left changed
 * written back, and this plan's (--set) checked and taken. 0 or an exit
 * status. */
static int open_knobs(struct bench *b)
{
	char err[PATH_MAX + 512];
	if (b->a->resume && bench_knobs_check(&b->a->plan, err, sizeof(err))) {
		fprintf(stderr, "perfdb bench: %s: the stored plan: %s\n", b->a->db_path, err);
		return EXIT_FAIL;
	}
	if (bench_knobs_init(&b->knobs, b->db, b->sys.boot_id, &b->a->plan, err, sizeof(err))) {
		fprintf(stderr, "perfdb bench: %s\n", err);
		return EXIT_FAIL;
	}
	return 0;
}

/* open_bench(b): the database, the plan, the bench row, the slots. */
static int open_bench(struct bench *b)
{
	struct bench_plan *p = &b->a->plan;
	char err[8192], perf[256] = "";
	int made;
	if (!b->a->resume && (bench_plan_check(p, err, sizeof(err)) ||	/* before a file is made */
			      bench_knobs_check(p, err, sizeof(err)))) {
		fprintf(stderr, "perfdb bench: %s\n", err);
		return EXIT_USAGE;
	}
	if (!b->a->resume && check_command(b))	/* nor a plan stored */
		return EXIT_FAIL;
	if (!(b->db = db_open(b->a->db_path, !b->a->resume, err, sizeof(err)))) {	/* resume: no new file */
		fprintf(stderr, "perfdb bench: %s\n", err);
		return EXIT_FAIL;
	}
	sysinfo_read(&b->sys);
	if (!b->sys.boot_id[0])
		snprintf(b->sys.boot_id, sizeof(b->sys.boot_id), "unknown");
	bench_knobs_recover(b->db, b->sys.boot_id);	/* any label, before anything else */
	if (b->a->resume && (made = bench_store_load_plan(b->db, b->a->label, p, err, sizeof(err)))) {
		fprintf(stderr, "perfdb bench: %s: %s\n", b->a->db_path, err);
		return made > 0 ? EXIT_USAGE : EXIT_FAIL;
	}
	if (b->a->resume && bench_plan_check(p, err, sizeof(err))) {
		fprintf(stderr, "perfdb bench: %s: the stored plan: %s\n", b->a->db_path, err);
		return EXIT_FAIL;
	}
	if ((made = open_knobs(b)))
		return made;
	if (p->recipes)
		perf_version(perf, sizeof(perf));
	if ((made = bench_store_open(b->db, b->a->label, p, &b->sys, perf, &b->id, err, sizeof(err))) < 0) {
		fprintf(stderr, "perfdb bench: %s: %s\n", b->a->db_path, err);
		return EXIT_FAIL;
	}
	b->slots = bench_slots(p, &b->nslots);
	if (b->a->again)
		number_on(b);
	b->done = bench_store_done(b->db, b->id, b->slots, b->nslots);
	for (size_t i = 0; i < b->nslots; i++)
		b->todo += !b->done[i];
	if (!made && b->todo < b->nslots)
		needs(b);
	return b->a->resume ? check_command(b) : 0;
}

/* say_start(b): what is about to run. */
static void say_start(const struct bench *b)
{
	const struct bench_plan *p = &b->a->plan;
	if (b->a->quiet)
		return;
	fprintf(stderr, "perfdb bench: %s: %zu cell%s x %d run%s%s%s, %s order%s; %zu of %zu runs to do "
		"(boot %d of the label)\n", b->a->label, bench_ncells(p), bench_ncells(p) == 1 ? "" : "s",
		p->runs, p->runs == 1 ? "" : "s", p->warmup ? " + warm-ups" : "",
		p->recipes ? " + recorded" : "", bench_order_names[p->order],
		p->order == ORDER_RANDOM ? "" : "", b->todo, b->nslots, bench_store_boots(b->db, b->a->label));
	if (p->order == ORDER_RANDOM)
		fprintf(stderr, "perfdb bench: random order, seed %llu\n", (unsigned long long)p->seed);
}

/* say_end(b): the summary, and how to go on when stopped. */
static void say_end(const struct bench *b)
{
	char took[32];
	if (stops)
		fprintf(stderr, "perfdb bench: stopped after %zu of %zu runs; every finished run is kept. "
			"Resume with: perfdb bench -o %s --resume -l %s\n", b->ran, b->todo,
			b->a->db_path, b->a->label);
	else if (!b->a->quiet)
		fprintf(stderr, "perfdb bench: %s: %zu run%s in %s, %zu failed (sitting %d; the machine's pulse: "
			"%zu probe%s, %.3f s); perfdb results %s -l %s shows them\n", b->a->label, b->ran,
			b->ran == 1 ? "" : "s", fmt_duration(proc_now_ns() - b->t0, took, sizeof(took)), b->failed,
			b->sitting, b->nprobes, b->nprobes == 1 ? "" : "s", (double)b->probe_ns / 1e9,
			b->a->db_path, b->a->label);
}

/* bench_main: see bench.h. */
int bench_main(struct bench_args *a)
{
	struct bench b = { .a = a, .tty = isatty(2), .t0 = proc_now_ns() };
	int rc = open_bench(&b);
	bool unrestored = false;
	stops = stop_now = 0;
	if (!rc && b.todo)
		rc = start_sitting(&b);
	else if (!rc && !a->quiet)
		fprintf(stderr, "perfdb bench: %s: every run of the plan is done on this boot; --again "
			"runs it once more as a new sitting\n", a->label);
	if (!rc) {
		say_start(&b);
		proc_on_signals(on_stop);
		for (size_t i = 0; i < b.nslots && !rc && !stops; i++)
			if (!b.done[i] && one_run(&b, i) < 0)
				rc = EXIT_FAIL;
		unrestored = bench_knobs_restore(&b.knobs, b.db) != 0;	/* after the run a stop let finish */
		proc_on_signals(SIG_DFL);
		say_end(&b);
		if (!rc)
			rc = stops ? 130 : b.failed || unrestored ? EXIT_FAIL : EXIT_OK;
	}
	if (b.db)
		db_close(b.db);
	free(b.slots);
	free(b.done);
	pulse_probe_free(b.probe);
	bench_knobs_free(&b.knobs);
	bench_plan_free(&a->plan);
	return rc;
}
