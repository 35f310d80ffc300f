/* Unit tests of the call-graph diff (analyze/callgraph/calltree.c, cgdiff.c,
 * cgdiff_findings.c, cgdiff_flame.c, cgdiff_folded.c, reports/svg_flame.c)
 * on small databases written here row by row: shares and intervals,
 * symbol suffix normalization across builds, paths present on one side
 * only, recursion counted once per sample per node (and per frame in
 * --children), [unknown] frames merged per DSO, the `=>` rule,
 * --percent-limit, straight-chain elision, the comm-at-the-time, pid and
 * event selections, period weighting, run-level intervals, samples
 * without a callchain, the callchain check, errors, and the rendered
 * findings: text, csv (one table, a constant field count, no elision
 * rows), json (the envelope; checked by Python's parser), folded lines and
 * the SVG (checked by Python's XML parser). */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tests/unit/db_util.h"
#include "analyze/callgraph/cgdiff.h"
#include "analyze/callgraph/cgdiff_findings.h"
#include "analyze/report/report.h"
#include "lib/doc.h"
#include "reports/render.h"
#include "reports/svg_flame.h"
#include "schema/db.h"
#include "tests/unit/tap.h"

static sqlite3 *db;
static int64_t cur_session, first_sample, next_sample = 1, cur_thread, cur_thread2;

/* ins(sql, types, ...): runs one statement with bound parameters (types:
 * 'i' int64, 'd' double, 's' text, 'n' NULL, one letter per '?') and returns the last
 * rowid; aborts on error. */
static int64_t ins(const char *sql, const char *types, ...)
{
	va_list ap;
	va_start(ap, types);
	int64_t id = db_vsql(db, sql, types, ap);
	va_end(ap);
	return id;
}

/* lookup(sql, types, ...): the first column of the first row, or 0. */
static int64_t lookup(const char *sql, const char *types, ...)
{
	sqlite3_stmt *st = db_prepare(db, sql);
	int64_t v = 0;
	va_list ap;
	va_start(ap, types);
	for (int i = 0; types[i]; i++) {
		if (types[i] == 'i')
			sqlite3_bind_int64(st, i + 1, va_arg(ap, int64_t));
		else
			sqlite3_bind_text(st, i + 1, va_arg(ap, const char *), -1, SQLITE_TRANSIENT);
	}
	va_end(ap);
	if (st && sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* begin_session(label): a new session with events cpu-clock (callchains)
 * and sched:x (none), thread 100 "work" (renamed "late" at time 5000) and
 * thread 200 "other". */
static void begin_session(const char *label)
{
	int64_t p1, p2;
	cur_session = ins("INSERT INTO session(label) VALUES (?)", label ? "s" : "n", label);
	first_sample = next_sample;
	ins("INSERT INTO event(session_id, idx, name, sample_type) VALUES (?, 0, 'cpu-clock', ?)",
	    "ii", cur_session, (int64_t)(0x20 | 0x100));
	ins("INSERT INTO event(session_id, idx, name, sample_type) VALUES (?, 1, 'sched:x', 0x100)",
	    "i", cur_session);
	p1 = ins("INSERT INTO process(session_id, pid, comm) VALUES (?, 100, 'work')", "i", cur_session);
	p2 = ins("INSERT INTO process(session_id, pid, comm) VALUES (?, 200, 'other')", "i", cur_session);
	cur_thread = ins("INSERT INTO thread(session_id, process_id, pid, tid, comm) "
			 "VALUES (?, ?, 100, 100, 'late')", "ii", cur_session, p1);
	cur_thread2 = ins("INSERT INTO thread(session_id, process_id, pid, tid, comm) "
			  "VALUES (?, ?, 200, 200, 'other')", "ii", cur_session, p2);
	ins("INSERT INTO comm(thread_id, time, comm, exec) VALUES (?, NULL, 'work', 0)", "i", cur_thread);
	ins("INSERT INTO comm(thread_id, time, comm, exec) VALUES (?, 5000, 'late', 0)", "i", cur_thread);
}

/* end_session: records the session's sample id range and each event's
 * sample count. */
static void end_session(void)
{
	ins("UPDATE session SET first_sample_id = ?, last_sample_id = ?, nr_samples = ? WHERE id = ?",
	    "iiii", first_sample, next_sample - 1, next_sample - first_sample, cur_session);
	ins("UPDATE event SET nr_samples = (SELECT count(*) FROM sample WHERE event_id = event.id) "
	    "WHERE session_id = ?", "i", cur_session);
}

/* sym(frame): the symbol row of "name" or "name@dso" (default dso
 * /bin/prog) in the current session, created when new. */
static int64_t sym(const char *frame)
{
	char name[256];
	const char *at = strchr(frame, '@'), *dso = at ? at + 1 : "/bin/prog";
	int64_t d, s;
	snprintf(name, sizeof(name), "%.*s", at ? (int)(at - frame) : (int)strlen(frame), frame);
	if (!(d = lookup("SELECT id FROM dso WHERE session_id = ? AND path = ?", "is", cur_session, dso)))
		d = ins("INSERT INTO dso(session_id, path) VALUES (?, ?)", "is", cur_session, dso);
	if (!(s = lookup("SELECT id FROM symbol WHERE dso_id = ? AND name = ?", "is", d, name)))
		s = ins("INSERT INTO symbol(dso_id, name) VALUES (?, ?)", "is", d, name);
	return s;
}

/* stack_of(path): the innermost stack node of "a;b;c" (outermost first). */
static int64_t stack_of(const char *path, int64_t *leaf_sym)
{
	char buf[1024], *save = NULL;
	int64_t parent = 0, depth = 0, node = 0;
	snprintf(buf, sizeof(buf), "%s", path);
	for (char *f = strtok_r(buf, ";", &save); f; f = strtok_r(NULL, ";", &save), depth++) {
		int64_t s = sym(f);
		node = lookup("SELECT id FROM stack WHERE parent_id IS ? AND symbol_id = ?", "ii",
			      parent, s);
		if (parent == 0)
			node = lookup("SELECT id FROM stack WHERE parent_id IS NULL AND symbol_id = ?", "i", s);
		if (!node)
			node = parent ? ins("INSERT INTO stack(parent_id, symbol_id, depth) VALUES (?,?,?)",
					    "iii", parent, s, depth) :
				 ins("INSERT INTO stack(parent_id, symbol_id, depth) VALUES (NULL,?,?)",
				     "ii", s, depth);
		parent = node;
		*leaf_sym = s;
	}
	return node;
}

/* add(path, n, period, thread, time, event): n samples on path (NULL
 * stack when path starts with '!': the rest is the sample's symbol). */
static void add_ex(const char *path, int n, int64_t period, int64_t thread, int64_t time,
		   int event_idx)
{
	int64_t leaf = 0, stack = path[0] == '!' ? 0 : stack_of(path, &leaf);
	int64_t ev = lookup("SELECT id FROM event WHERE session_id = ? AND idx = ?", "ii",
			    cur_session, (int64_t)event_idx);
	if (path[0] == '!')
		leaf = sym(path + 1);
	for (int i = 0; i < n; i++) {
		if (stack)
			ins("INSERT INTO sample(id, session_id, event_id, time, thread_id, symbol_id, period, stack_id) "
			    "VALUES (?,?,?,?,?,?,?,?)", "iiiiiiii", next_sample, cur_session, ev, time,
			    thread, leaf, period, stack);
		else
			ins("INSERT INTO sample(id, session_id, event_id, time, thread_id, symbol_id, period) "
			    "VALUES (?,?,?,?,?,?,?)", "iiiiiii", next_sample, cur_session, ev, time,
			    thread, leaf, period);
		next_sample++;
	}
}

/* add(path, n): n cpu-clock samples of thread "work" at time 1000, period 1. */
static void add(const char *path, int n)
{
	add_ex(path, n, 1, cur_thread, 1000, 0);
}

/* opts(): default options: tree mode, no limit, 95%. */
static struct cg_opts opts(void)
{
	return (struct cg_opts){ .filter = { .pid = -1, .tid = -1 }, .mode = CG_TREE, .conf = 0.95 };
}

/* The sessions of a spec, as builtin/run.c picks them. */
struct picked {
	struct cg_pick p;
	int64_t *ids;
};

/* pick(spec, out): out's sessions of spec (an id or a label); false
 * (reported) when it names none. */
static bool pick(const char *spec, struct picked *out)
{
	char err[256];
	int n = db_pick_sessions(db, spec, &out->ids, err, sizeof(err));
	if (n < 0)
		printf("# %s\n", err);
	out->p = (struct cg_pick){ spec, out->ids, n };
	return n > 0;
}

/* run_spec(base, new, o, d, err, errlen): cgdiff_run on the sessions the
 * specs name (new NULL: one side); its status, -2 when a spec names none. */
static int run_spec(const char *base, const char *new, struct cg_opts o, struct cgdiff **d,
		    char *err, size_t errlen)
{
	struct picked b = { 0 }, n = { 0 };
	int rc = -2;
	*d = NULL;
	if (pick(base, &b) && (!new || pick(new, &n)))
		rc = cgdiff_run(db, &b.p, new ? &n.p : NULL, &o, d, err, errlen);
	free(b.ids);
	free(n.ids);
	return rc;
}

/* diff(base, new, o): the diff or NULL (failure reported). */
static struct cgdiff *diff(const char *base, const char *new, struct cg_opts o)
{
	struct cgdiff *d = NULL;
	char err[512] = "";
	int rc = run_spec(base, new, o, &d, err, sizeof(err));
	if (rc)
		printf("# cgdiff_run %s %s: %d %s\n", base, new ? new : "-", rc, err);
	return d;
}

/* row(d, path): the row whose path (tree) or symbol (flat) is path. */
static const struct cg_row *row(const struct cgdiff *d, const char *path)
{
	for (size_t i = 0; i < d->nrows; i++) {
		char buf[1024] = "";
		int32_t fr[64];
		size_t len = d->o.mode == CG_TREE ? ct_path(d->t, d->rows[i].node, fr, 64) : 0;
		for (size_t k = 0; k < len; k++)
			snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s", k ? ";" : "",
				 d->t->frames[fr[k]]);
		if (!len)
			snprintf(buf, sizeof(buf), "%s", cgdiff_row_name(d, &d->rows[i]));
		if (!strcmp(buf, path))
			return &d->rows[i];
	}
	return NULL;
}

/* near(a, b): |a - b| < 1e-9. */
static int near(double a, double b)
{
	return fabs(a - b) < 1e-9;
}

/* render_findings(doc, f): doc rendered in format f, malloc'ed; frees doc. */
static char *render_findings(struct doc *doc, enum out_format f)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	render_doc(doc, f, NULL, m);
	fclose(m);
	doc_free(doc);
	return buf;
}

/* render(d, f): d's findings rendered in format f, malloc'ed. */
static char *render(const struct cgdiff *d, enum out_format f)
{
	struct doc *doc = doc_new("cgdiff");
	cgdiff_findings(d, doc);
	return render_findings(doc, f);
}

/* line_of(text, name): the line of text that ends in "  name" (the call
 * path column), copied into buf (len bytes); NULL when there is none. */
static const char *line_of(const char *text, const char *name, char *buf, size_t len)
{
	char end[256];
	snprintf(end, sizeof(end), "  %s\n", name);
	for (const char *p = text, *nl; p && *p; p = nl ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) + 1 : strlen(p);
		if (n >= strlen(end) && !strncmp(p + n - strlen(end), end, strlen(end))) {
			snprintf(buf, len, "%.*s", (int)n, p);
			return buf;
		}
	}
	return NULL;
}

/* python_ok(script, input): whether python3 -c script exits 0 reading
 * input (script without single quotes). */
static int python_ok(const char *script, const char *input)
{
	char *cmd;
	FILE *p;
	if (asprintf(&cmd, "python3 -c '%s'", script) < 0)
		return 0;
	fflush(stdout);
	p = popen(cmd, "w");
	free(cmd);
	if (!p)
		return 0;
	fputs(input, p);
	return pclose(p) == 0;
}

/* Sessions: 1 "base" and 2 "new" (the main pair), 3..5 "rb" and 6..8 "rn"
 * (three runs each), 9 "mixed" (periods, events, no callchain). */
static void build(void)
{
	begin_session("base");
	add("main;f.isra.0;g", 300);		/* normalization: f.isra.0 ~ f.constprop.2 */
	add("main;onlybase", 100);		/* absent in new */
	add("main;rec;rec;rec", 100);		/* recursion */
	add("main;[unknown]@/lib/libx.so;[unknown]@/lib/libx.so;[unknown]@/lib/liby.so", 100);
	add("main;c1;c2;c3;c4;c5", 400);	/* straight chain */
	end_session();
	begin_session("new");
	add("main;f.constprop.2;g", 600);
	add("main;onlynew", 100);
	add("main;rec;rec;rec", 100);
	add("main;[unknown]@/lib/libx.so;[unknown]@/lib/liby.so", 100);
	add("main;c1;c2;c3;c4;c5", 100);
	end_session();
	for (int s = 0; s < 6; s++) {
		begin_session(s < 3 ? "rb" : "rn");
		add("main;a", s < 3 ? 50 + 2 * s : 70 + 2 * s);
		add("main;b", 50);
		end_session();
	}
	begin_session("mixed");
	add_ex("main;heavy", 10, 3, cur_thread, 1000, 0);	/* period 3 */
	add_ex("main;light", 10, 1, cur_thread, 1000, 0);
	add_ex("main;late", 20, 1, cur_thread, 6000, 0);	/* after the rename */
	add_ex("main;other", 20, 1, cur_thread2, 1000, 0);
	add_ex("!nochain", 10, 1, cur_thread, 1000, 0);	/* no callchain */
	add_ex("main;tp", 5, 1, cur_thread, 1000, 1);	/* other event */
	end_session();
}

/* test_shares: shares, normalization, one-side paths, recursion, unknowns. */
static void test_shares(void)
{
	struct cgdiff *d = diff("base", "new", opts());
	const struct cg_row *r;
	if (!ok(d != NULL, "cgdiff base new"))
		return;
	ok(!d->run_level && d->side[0].samples == 1000 && d->side[1].samples == 1000,
	   "one run a side: pooled, 1000 samples each");
	r = row(d, "main;f;g");
	ok(r && near(r->base_pct, 30) && near(r->new_pct, 60) && near(r->delta_pct, 30),
	   "f.isra.0 and f.constprop.2 are one frame f: 30%% -> 60%%");
	ok(!row(d, "main;f.isra.0") && !row(d, "main;f.constprop.2"), "no suffixed names left");
	r = row(d, "main;onlybase");
	ok(r && r->in_base && !r->in_new && near(r->new_pct, 0) && near(r->delta_pct, -10),
	   "a path only in base: new absent, delta -10");
	r = row(d, "main;onlynew");
	ok(r && !r->in_base && r->in_new && near(r->base_pct, 0), "a path only in new: base absent");
	r = row(d, "main;rec;rec;rec");
	ok(r && near(r->base_pct, 10) && row(d, "main;rec") && near(row(d, "main;rec")->base_pct, 10),
	   "recursion: each rec node 10%%, counted once per sample");
	ok(row(d, "main;[unknown] (libx.so);[unknown] (liby.so)") &&
	   near(row(d, "main;[unknown] (libx.so);[unknown] (liby.so)")->base_pct, 10) &&
	   !row(d, "main;[unknown] (libx.so);[unknown] (libx.so)"),
	   "consecutive [unknown] of one DSO merge; other DSOs stay apart");
	r = row(d, "main");
	ok(r && near(r->base_pct, 100) && near(r->new_pct, 100) && !r->significant,
	   "the root frame is 100%% on both sides, not significant");
	cgdiff_free(d);
}

/* test_intervals: the Newcombe interval at the Bonferroni level. */
static void test_intervals(void)
{
	struct cgdiff *d = diff("base", "new", opts());
	const struct cg_row *r;
	struct interval want;
	if (!d)
		return;
	r = row(d, "main;f;g");
	want = stats_newcombe(0.3, 1000, 0.6, 1000, 1 - 0.05 / (double)d->nrows);
	ok(r && near(r->ci.lo, 100 * want.lo) && near(r->ci.hi, 100 * want.hi) && r->significant,
	   "interval: Newcombe at level 1 - 0.05/rows, excludes 0");
	ok(near(d->row_conf, 1 - 0.05 / (double)d->nrows), "row_conf is Bonferroni over %zu rows", d->nrows);
	cgdiff_free(d);
}

/* test_marks: the `=>` rule. */
static void test_marks(void)
{
	struct cgdiff *d = diff("base", "new", opts());
	int up = 0, down = 0;
	if (!d)
		return;
	for (size_t i = 0; i < d->nrows; i++) {
		up += d->rows[i].mark > 0;
		down += d->rows[i].mark < 0;
	}
	ok(up == 1 && down == 1, "one increase mark, one decrease mark");
	ok(row(d, "main;f;g") && row(d, "main;f;g")->mark == 1,
	   "increase: from f (+30) down to g (+30, keeps all of it)");
	ok(row(d, "main;c1;c2;c3;c4;c5") && row(d, "main;c1;c2;c3;c4;c5")->mark == -1,
	   "decrease: from c1 (-30) down the chain to c5");
	cgdiff_free(d);
}

/* test_marks_stop: descent stops below half of the starting change. */
static void test_marks_stop(void)
{
	struct cgdiff *d;
	int64_t s0 = next_sample;
	(void)s0;
	begin_session("stop_b");
	add("m;x;y1", 100);
	add("m;x;y2", 100);
	add("m;z", 800);
	end_session();
	begin_session("stop_n");
	add("m;x;y1", 200);
	add("m;x;y2", 200);
	add("m;x", 200);		/* x's own time: y1, y2 get +10 each of x's +40 */
	add("m;z", 400);
	end_session();
	d = diff("stop_b", "stop_n", opts());
	if (!d)
		return;
	ok(row(d, "m;x") && row(d, "m;x")->mark == 1, "no child keeps half of +40: x itself is marked");
	ok(row(d, "m;z") && row(d, "m;z")->mark == -1, "z is the decrease");
	cgdiff_free(d);
}

/* pair(label, base, new): a base and a new session of label_b and
 * label_n, each a list of "path", samples ..., NULL. */
static void pair(const char *label, const char *const *base, const int *nb, const char *const *new,
		 const int *nn)
{
	char l[64];
	snprintf(l, sizeof(l), "%s_b", label);
	begin_session(l);
	for (int i = 0; base[i]; i++)
		add(base[i], nb[i]);
	end_session();
	snprintf(l, sizeof(l), "%s_n", label);
	begin_session(l);
	for (int i = 0; new[i]; i++)
		add(new[i], nn[i]);
	end_session();
}

/* marked(label, path): the mark of path in label_b against label_n. */
static int marked(const char *label, const char *path)
{
	char b[64], n[64];
	snprintf(b, sizeof(b), "%s_b", label);
	snprintf(n, sizeof(n), "%s_n", label);
	struct cgdiff *d = diff(b, n, opts());
	int m = d && row(d, path) ? row(d, path)->mark : 99;
	cgdiff_free(d);
	return m;
}

/* test_marks_half: the `=>` rule on both sides of half, with 1024 samples
 * a side so that every share and change is exact in binary: x rises
 * from 25% and its child y keeps 2/3 of the rise (=> descends to y),
 * exactly 1/2 (descends), 0.4 (stays on x); a grandchild that keeps more
 * than half under a child that keeps less is not reached (=> stays). */
static void test_marks_half(void)
{
	static const char *const paths[] = { "m;x;y", "m;x", "m;z", NULL };
	static const int base[] = { 128, 128, 768 }, third2[] = { 384, 256, 384 }, half[] = { 384, 384, 256 };
	static const int fifth2[] = { 384, 512, 128 };
	static const char *const gb[] = { "m;x", "m;x;y", "m;z", NULL }, *const gn[] = { "m;x", "m;x;y", "m;x;y;g",
		"m;z", NULL };
	static const int gbn[] = { 100, 300, 624 }, gnn[] = { 400, 100, 300, 224 };
	pair("h23", paths, base, paths, third2);
	pair("h12", paths, base, paths, half);
	pair("h04", paths, base, paths, fifth2);
	pair("hg", gb, gbn, gn, gnn);
	is_int(marked("h23", "m;x;y"), 1, "x +37.5 points, its child y +25 (2/3 of it): => on y");
	is_int(marked("h12", "m;x;y"), 1, "x +50, y +25 (exactly half): => on y");
	is_int(marked("h04", "m;x"), 1, "x +62.5, y +25 (0.4 of it): => stays on x");
	is_int(marked("hg", "m;x"), 1, "a grandchild keeping more than half under a child keeping less: => stays on x");
}

/* test_thresholds: each threshold of the diff at its value: a node at
 * exactly --percent-limit is kept (tree and flat), a row with exactly
 * CG_MIN_ROW_SAMPLES effective samples and a side with exactly
 * CG_MIN_SIDE_SAMPLES have intervals, 2 runs a side are pooled (3 are run
 * level: test_runs), children come by their larger share, and a straight
 * chain with one middle row is not elided. */
static void test_thresholds(void)
{
	static const char *const paths[] = { "m;p;q;r", "m;edge", "m;ten", "m;big", NULL };
	static const int nb[] = { 20, 5, 4, 971 }, nn[] = { 30, 3, 6, 961 };
	static const char *const two[] = { "m;s", "m;t", NULL };
	static const int tb[] = { 60, 40 }, tn[] = { 70, 30 };
	struct cg_opts o = opts();
	struct cgdiff *d;
	pair("lim", paths, nb, paths, nn);
	o.limit = 0.5;
	if ((d = diff("lim_b", "lim_n", o))) {
		ok(row(d, "m;edge") != NULL, "a node at exactly --percent-limit 0.5 (5 of 1000) is kept");
		const struct cg_row *r = row(d, "m;ten");
		ok(r && !r->few && !isnan(r->ci.lo), "a row of exactly %d samples (4 + 6) has an interval",
		   CG_MIN_ROW_SAMPLES);
		ok(!d->few_side, "sides of 1000 samples are not too few");
		r = row(d, "m;p");
		ok(r && r->elide == 0, "p > q > r, straight: one middle row is not elided");
		ok(row(d, "m;big") && row(d, "m;p") && row(d, "m;big") < row(d, "m;p") && row(d, "m;p") < row(d, "m;ten"),
		   "children by their larger share: big, p, ten");
		cgdiff_free(d);
	}
	o.mode = CG_SELF;
	if ((d = diff("lim_b", "lim_n", o))) {
		ok(row(d, "edge") != NULL, "--self: a frame at exactly --percent-limit is kept");
		cgdiff_free(d);
	}
	begin_session("s100_b");
	add("m;s", 60), add("m;t", 40);
	end_session();
	begin_session("s100_n");
	add("m;s", 80), add("m;t", 20);
	end_session();
	if ((d = diff("s100_b", "s100_n", opts()))) {
		ok(!d->few_side && row(d, "m;s") && !isnan(row(d, "m;s")->ci.lo),
		   "sides of exactly %d samples have intervals", CG_MIN_SIDE_SAMPLES);
		cgdiff_free(d);
	}
	for (int s = 0; s < 4; s++) {
		begin_session(s < 2 ? "two_b" : "two_n");
		add(two[0], s < 2 ? tb[0] + s : tn[0] + s), add(two[1], s < 2 ? tb[1] : tn[1]);
		end_session();
	}
	if ((d = diff("two_b", "two_n", opts()))) {
		ok(!d->run_level, "2 runs a side: pooled, not run level");
		cgdiff_free(d);
	}
}

/* test_limit_elide: --limit pruning and straight-chain elision. */
static void test_limit_elide(void)
{
	struct cg_opts o = opts();
	struct cgdiff *d;
	char *text;
	o.limit = 15;
	if (!(d = diff("base", "new", o)))
		return;
	ok(row(d, "main;f;g") && row(d, "main;c1;c2;c3;c4;c5") && !row(d, "main;onlybase") &&
	   !row(d, "main;rec"), "--limit 15 drops rows below 15%% on both sides, keeps the rest");
	ok(row(d, "main") != NULL, "ancestors are kept");
	text = render(d, FMT_TEXT);
	ok(text && strstr(text, "[3 frames]") && !strstr(text, " c2\n"),
	   "the chain c1..c5 prints as c1, [3 frames], c5");
	ok(text && strstr(text, "=> ") && strstr(text, "  g\n"), "text has the => rows");
	free(text);
	cgdiff_free(d);
	o.limit = 0;
	if (!(d = diff("base", "new", o)))
		return;
	text = render(d, FMT_TEXT);
	char line[512], absent[8] = "";
	double b = 0, dl = 0;
	ok(text && line_of(text, "onlybase", line, sizeof(line)) &&
	   sscanf(line, " %lf %7s %lf", &b, absent, &dl) == 3 && near(b, 10) &&
	   !strcmp(absent, "-") && near(dl, -10) && strstr(line, " -10.00 "),
	   "absent side prints as -: base 10.00, new -, delta -10.00");
	free(text);
	cgdiff_free(d);
}

/* test_flat: --self and --children. */
static void test_flat(void)
{
	struct cg_opts o = opts();
	struct cgdiff *d;
	o.mode = CG_CHILDREN;
	if (!(d = diff("base", "new", o)))
		return;
	ok(row(d, "rec") && near(row(d, "rec")->base_pct, 10),
	   "--children: rec 10%%, once per sample though it appears 3 times");
	ok(row(d, "main") && near(row(d, "main")->base_pct, 100), "--children: main 100%%");
	cgdiff_free(d);
	o.mode = CG_SELF;
	if (!(d = diff("base", "new", o)))
		return;
	ok(row(d, "g") && near(row(d, "g")->base_pct, 30) && near(row(d, "g")->new_pct, 60) &&
	   near(fabs(d->rows[0].delta_pct), 30) && row(d, "g")->mark == 1 &&
	   row(d, "c5") && row(d, "c5")->mark == -1,
	   "--self: g 30%% -> 60%% marked up, c5 marked down, largest |delta| first");
	ok(!row(d, "main") || near(row(d, "main")->base_pct, 0), "--self: main has no self time");
	cgdiff_free(d);
}

/* test_selection: comm at the time, pid, tid, event, periods, no callchain. */
static void test_selection(void)
{
	struct cg_opts o = opts();
	struct cgdiff *d;
	if ((d = diff("mixed", NULL, o))) {
		ok(!strcmp(d->event, "cpu-clock") && d->side[0].samples == 70,
		   "default event: the callchain one; 70 samples");
		ok(row(d, "main;heavy") && near(row(d, "main;heavy")->base_pct, 100.0 * 30 / 90),
		   "shares weighted by period (heavy: 30 of 90)");
		ok(row(d, "nochain") && near(row(d, "nochain")->base_pct, 100.0 * 10 / 90),
		   "a sample without callchain is its symbol alone");
		ok(near(d->side[0].neff, 90.0 * 90 / (10 * 9 + 60)), "effective sample size");
		cgdiff_free(d);
	}
	o.filter.comm = "work";
	if ((d = diff("mixed", NULL, o))) {
		ok(d->side[0].samples == 30 && !row(d, "main;late") && !row(d, "main;other"),
		   "--comm work: the samples before the rename only");
		cgdiff_free(d);
	}
	o.filter.comm = "late";
	if ((d = diff("mixed", NULL, o))) {
		ok(d->side[0].samples == 20 && row(d, "main;late"), "--comm late: after the rename");
		cgdiff_free(d);
	}
	o.filter.comm = NULL;
	o.filter.pid = 200;
	if ((d = diff("mixed", NULL, o))) {
		ok(d->side[0].samples == 20 && row(d, "main;other"), "--pid 200");
		cgdiff_free(d);
	}
	o.filter.pid = -1;
	o.filter.tid = 100;
	o.filter.event = "sched:x";
	if ((d = diff("mixed", NULL, o))) {
		ok(d->side[0].samples == 5 && row(d, "main;tp"), "--event sched:x --tid 100");
		cgdiff_free(d);
	}
}

/* floored(v, cnt, n): the summary of run shares v[0..n) of runs of cnt[]
 * samples (period 1), its variance raised to the mean binomial variance. */
static struct summary floored(const double *v, const double *cnt, size_t n)
{
	struct summary s = stats_summary(v, n);
	double f = 0;
	for (size_t i = 0; i < n; i++)
		f += v[i] * (1 - v[i]) / cnt[i] / (double)n;
	if (s.var < f)
		s.var = f;
	return s;
}

/* test_runs: three runs a side: run means and Student intervals (here on
 * the binomial variance floor: the runs agree better than sampling
 * allows); 3 against 4 runs (spread above the floor): Welch. */
static void test_runs(void)
{
	struct cgdiff *d = diff("rb", "rn", opts());
	const struct cg_row *r;
	double b[3], bn[3], n[3], nn[3], w[4], wn[4];
	struct interval want;
	if (!ok(d && d->run_level && d->side[0].nsessions == 3, "labels with 3 runs: run level"))
		return;
	for (int s = 0; s < 3; s++) {
		b[s] = (50.0 + 2 * s) / (bn[s] = 100 + 2 * s);
		n[s] = (76.0 + 2 * s) / (nn[s] = 126 + 2 * s);
	}
	want = stats_t_diff(floored(b, bn, 3), floored(n, nn, 3), true, 1 - 0.05 / (double)d->nrows);
	r = row(d, "main;a");
	ok(r && near(r->base_pct, 100 * stats_mean(b, 3)) && near(r->new_pct, 100 * stats_mean(n, 3)),
	   "run level: shares are means of the runs' shares");
	ok(stats_summary(b, 3).var < floored(b, bn, 3).var, "(the base runs agree too well)");
	ok(r && near(r->ci.lo, 100 * want.lo) && near(r->ci.hi, 100 * want.hi),
	   "run level, 3 runs a side: Student interval, variance at least binomial");
	cgdiff_free(d);
	for (int s = 0; s < 4; s++) {
		begin_session("rw");
		add("main;a", 70 + 5 * s * s);
		add("main;b", 50);
		end_session();
		w[s] = (70.0 + 5 * s * s) / (wn[s] = 120 + 5 * s * s);
	}
	if (!(d = diff("rb", "rw", opts())))
		return;
	ok(stats_summary(w, 4).var > floored(w, wn, 4).var - 1e-15, "(the rw runs spread more)");
	want = stats_t_diff(floored(b, bn, 3), floored(w, wn, 4), false, 1 - 0.05 / (double)d->nrows);
	r = row(d, "main;a");
	ok(d->run_level && r && near(r->ci.lo, 100 * want.lo) && near(r->ci.hi, 100 * want.hi),
	   "run level, 3 against 4 runs: Welch interval over the runs");
	cgdiff_free(d);
}

/* test_errors: unknown specs (picked before the analysis, by
 * db_pick_sessions) and empty selections. */
static void test_errors(void)
{
	struct cg_opts o = opts();
	struct cgdiff *d = NULL;
	int64_t *ids = NULL;
	char err[256];
	ok(db_pick_sessions(db, "nosuch", &ids, err, sizeof(err)) < 0 && !ids && strstr(err, "nosuch"),
	   "an unknown spec: no sessions, named in the message");
	o.filter.comm = "nobody";
	ok(run_spec("base", "new", o, &d, err, sizeof(err)) == 1 && !d && strstr(err, "comm nobody"),
	   "no selected samples: 1 (%s)", err);
	o.filter.comm = NULL;
	o.filter.event = "bogus";
	ok(run_spec("base", "new", o, &d, err, sizeof(err)) == 1 && !d && strstr(err, "bogus"),
	   "an event the sessions lack: 1");
}

/* event_of(spec, given, event, err): cgdiff_event on spec's sessions. */
static int event_of(const char *spec, const char *given, char *event, char *err)
{
	struct picked p = { 0 };
	int rc = pick(spec, &p) ? cgdiff_event(db, &p.p, 1, given, event, 256, err, 256) : -2;
	free(p.ids);
	return rc;
}

/* test_event_check: the event picked and the callchain check the verbs
 * make before the analysis. */
static void test_event_check(void)
{
	char event[256], err[256] = "";
	ok(event_of("mixed", NULL, event, err) == 0 && !strcmp(event, "cpu-clock"),
	   "the event picked: the one recorded with callchains (%s)", event);
	ok(event_of("mixed", "sched:x", event, err) == -1 &&
	   strstr(err, "session 9 has no sched:x samples with callchains"),
	   "an event recorded without callchains is refused (%s)", err);
	ok(event_of("base", "bogus", event, err) == -1 &&
	   strstr(err, "session 1 has no bogus samples with callchains"),
	   "an event the session lacks is refused (%s)", err);
	ins("INSERT INTO session(label) VALUES ('empty')", "");
	ok(event_of("empty", NULL, event, err) == -1 && strstr(err, "has no samples with callchains"),
	   "a session without events is refused (%s)", err);
}

/* test_json(d): the JSON envelope carries the numbers, every row and no
 * elision row. */
static void test_json(const struct cgdiff *d)
{
	char *json = render(d, FMT_JSON), script[1536];
	snprintf(script, sizeof(script),
		 "import json,sys\n"
		 "e=json.load(sys.stdin)\n"
		 "assert set(e)=={\"perfdb\",\"verb\",\"sessions\",\"findings\",\"warnings\",\"notes\"}\n"
		 "d=e[\"findings\"]\n"
		 "n=[x for x in d[\"nodes\"] if x[\"path\"]==\"main;f;g\"][0]\n"
		 "assert abs(n[\"base_pct\"]-30)<1e-9 and abs(n[\"new_pct\"]-60)<1e-9\n"
		 "assert n[\"marked\"]==1 and n[\"mark\"]==\"increase\" and n[\"ci95_low\"]>0\n"
		 "assert abs(n[\"delta_pct\"]-30)<1e-9 and n[\"symbol\"]==\"g\" and n[\"depth\"]==2\n"
		 "assert d[\"base\"][\"samples\"]==1000 and d[\"interval\"]==\"newcombe-pooled\"\n"
		 "assert d[\"event\"]==\"cpu-clock\" and d[\"base\"][\"sessions\"]==[1]\n"
		 "assert len(d[\"nodes\"])==%zu\n"
		 "assert not [x for x in d[\"nodes\"] if \"frames]\" in x[\"symbol\"]]\n"
		 "assert [x for x in d[\"nodes\"] if x[\"path\"]==\"main;c1;c2;c3\"]\n",
		 d->nrows);
	ok(json && python_ok(script, json),
	   "json: the envelope; nodes with path, shares, delta, ci95 ends, marks; all %zu rows, "
	   "the elided chain's middle too, no [N frames] row", d->nrows);
	free(json);
}

/* test_csv(d): one table, a constant field count, every row, no elision
 * row. */
static void test_csv(const struct cgdiff *d)
{
	char *csv = render(d, FMT_CSV), script[1024];
	snprintf(script, sizeof(script),
		 "import csv,sys\n"
		 "r=list(csv.reader(sys.stdin))\n"
		 "assert len(r)==1+%zu and len(set(len(x) for x in r))==1\n"
		 "h=r[0]\n"
		 "assert {\"symbol\",\"path\",\"base_pct\",\"ci95_low\",\"ci95_high\"}<=set(h)\n"
		 "assert \"arrow\" not in h and \"interval\" not in h and \"indent\" not in h\n"
		 "s=[x[h.index(\"symbol\")] for x in r[1:]]\n"
		 "assert \"c3\" in s and not [x for x in s if \"frames]\" in x]\n",
		 d->nrows);
	ok(csv && python_ok(script, csv),
	   "csv: one table, %zu rows of one field count, the elided rows there, no [N frames] row",
	   d->nrows);
	free(csv);
}

/* flame_svg(t, out): svg_flame_write of t into a malloc'ed string; its
 * status in *rc. */
static char *flame_svg(const struct table *t, int *rc)
{
	char *svg = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&svg, &len);
	*rc = svg_flame_write(m, t, 1200);
	fclose(m);
	return svg;
}

/* test_svg(d): the flame table and the SVG made from it. */
static void test_svg(const struct cgdiff *d)
{
	struct table *t = cgdiff_flame(d), *bad;
	int rc;
	char *svg = flame_svg(t, &rc);
	ok(rc == 0, "svg written");
	ok(svg && !strstr(svg, "<script") && strstr(svg, "<title>g\nbase 30.00%  new 60.00%") &&
	   python_ok("import sys,xml.etree.ElementTree as E; E.fromstring(sys.stdin.read())", svg),
	   "svg: well-formed XML, tooltips with both shares, no script");
	ok(svg && strstr(svg, "onlynew") && !strstr(svg, ">onlybase<"),
	   "svg: width from new (a base-only path has none)");
	ok(svg && strstr(svg, ">cgdiff: &quot;base&quot; (session 1) -&gt; &quot;new&quot; (session 2)<"),
	   "svg: the table's title is the graph's");
	free(svg);
	table_free(t);
	bad = table_new("flame", NULL);
	table_col(bad, "id", COL_INT, 0);
	table_col(bad, "parent", COL_INT, 0);
	table_add_row(bad);
	table_set_int(bad, 0, 0);
	svg = flame_svg(bad, &rc);
	ok(rc == -1, "svg: a table without the frame columns is refused");
	free(svg);
	table_free(bad);
}

/* test_forms: the rendered findings carry the numbers. */
static void test_forms(void)
{
	struct cgdiff *d = diff("base", "new", opts());
	if (!d)
		return;
	test_json(d);
	test_csv(d);
	test_svg(d);
	cgdiff_free(d);
}

/* folded_rows(spec, period, rows): the text form of perfdb folded -n rows
 * on spec's sessions, malloc'ed, or NULL. */
static char *folded_rows(const char *spec, bool period, long long rows)
{
	struct picked p = { 0 };
	struct cgdiff *d = NULL;
	struct cg_opts o = opts();
	char err[256];
	struct doc *doc;
	if (!pick(spec, &p) || cgdiff_load(db, &p.p, NULL, &o, &d, err, sizeof(err))) {
		free(p.ids);
		return NULL;
	}
	free(p.ids);
	doc = doc_new("folded");
	cgdiff_folded_findings(d, period, rows, doc);
	cgdiff_free(d);
	return render_findings(doc, FMT_TEXT);
}

/* folded(spec, period): every folded line of spec's sessions. */
static char *folded(const char *spec, bool period)
{
	return folded_rows(spec, period, 0);
}

/* test_folded: folded lines, sorted, with counts or periods. */
static void test_folded(void)
{
	char *text = folded("base", false);
	ok(text && !strcmp(text, "main;[unknown] (libx.so);[unknown] (liby.so) 100\n"
			   "main;c1;c2;c3;c4;c5 400\nmain;f;g 300\nmain;onlybase 100\n"
			   "main;rec;rec;rec 100\n"),
	   "folded: one 'a;b;c COUNT' line per path, sorted, frames as cgdiff keys them");
	free(text);
	text = folded("mixed", true);
	ok(text && !strcmp(text, "main;heavy 30\nmain;late 20\nmain;light 10\nmain;other 20\n"
			   "nochain 10\n"),
	   "folded --period: sums of periods (heavy: 10 x 3), every thread's samples");
	free(text);
	text = folded_rows("base", false, 2);
	ok(text && !strcmp(text, "main;c1;c2;c3;c4;c5 400\nmain;f;g 300\n"),
	   "folded -n 2: the two heaviest lines, still in text order");
	free(text);
}


/* test_extremes: share intervals within [-100, +100] points however few
 * and extreme the runs (3 runs a side, a path all of one run's samples on
 * one side and none on the other), and "too few samples" below the
 * minimums: 30-sample runs (fewer than CG_MIN_SIDE_SAMPLES), a row of 4
 * samples. */
static void test_extremes(void)
{
	struct cg_opts o = opts();
	struct cgdiff *d;
	bool inside = true, few = true;
	for (int s = 0; s < 6; s++) {
		begin_session(s < 3 ? "xb" : "xn");
		if (s == 0 || s == 4)
			add("main;spike", 30);
		else
			add("main;flat", 30);
		end_session();
	}
	for (int s = 0; s < 6; s++) {
		begin_session(s < 3 ? "yb" : "yn");
		add(s % 2 ? "main;p" : "main;q", 400);
		add("main;r", 100);
		if (s == 5)
			add("main;rare", 4);
		end_session();
	}
	if (!(d = diff("yb", "yn", o)))
		return;
	for (size_t i = 0; i < d->nrows; i++) {
		const struct cg_row *r = &d->rows[i];
		inside &= r->few || (r->ci.lo >= -100 && r->ci.hi <= 100 && r->ci.lo <= r->ci.hi);
	}
	ok(d->run_level && inside, "run level, runs of 100%% against 0%%: every interval within [-100, +100]");
	ok(row(d, "main;q") && row(d, "main;q")->ci.lo == -100 && !row(d, "main;q")->few,
	   "an interval that reaches past -100 points ends there");
	ok(row(d, "main;rare") && row(d, "main;rare")->few && isnan(row(d, "main;rare")->ci.lo) &&
	   !row(d, "main;rare")->significant, "a row of 4 samples: too few samples, no interval, not significant");
	char *text = render(d, FMT_TEXT), line[512];
	ok(text && line_of(text, "rare", line, sizeof(line)) && strstr(line, "too few samples"),
	   "text: the row says too few samples");
	free(text);
	cgdiff_free(d);
	if (!(d = diff("xb", "xn", o)))
		return;
	for (size_t i = 0; i < d->nrows; i++)
		few &= d->rows[i].few && isnan(d->rows[i].ci.lo) && !d->rows[i].mark;
	ok(d->few_side && few, "runs of 30 samples: every row too few samples, nothing marked");
	cgdiff_free(d);
}

/* test_per: --per run: each side's weight per run, its counting interval
 * (pooled) and t interval (3 runs), marks following it; a change of the
 * total said in shares. Base "pb": 3 runs of a 100, b 100, c 100; new
 * "pn": a 50, b 100, c 100 (a halved, the others' shares grow). */
static void test_per(void)
{
	struct cg_opts o = opts();
	struct cgdiff *d;
	const struct cg_row *r;
	for (int s = 0; s < 6; s++) {
		begin_session(s < 3 ? "pb" : "pn");
		add("main;a", s < 3 ? 1000 + 10 * s : 500 + 10 * s);
		add("main;b", 1000 + 7 * s);
		add("main;c", 1000 - 5 * s);
		end_session();
	}
	if (!(d = diff("pb", "pn", o)))
		return;
	ok(row(d, "main;b") && row(d, "main;b")->delta_pct > 0 && row(d, "main;c")->delta_pct > 0,
	   "shares: b and c grow when a halves");
	ok(d->totals_differ && near(d->total[0], 3012) && near(d->total[1], 2548),
	   "shares: the totals per run differ (3012 -> 2548), said");
	char *text = render(d, FMT_TEXT);
	ok(text && strstr(text, "the sides' totals differ") && strstr(text, "--per run"),
	   "text: the header says the totals differ and suggests --per");
	free(text);
	cgdiff_free(d);
	o.per = CG_PER_RUN;
	if (!(d = diff("pb", "pn", o)))
		return;
	r = row(d, "main;a");
	ok(r && near(r->base_abs, 1010) && near(r->new_abs, 540) && near(r->delta_abs, -470),
	   "--per run: a's samples per run, the runs' mean: 1010 -> 540");
	ok(r && r->significant && r->mark == -1, "--per run: a's decrease significant and marked");
	bool others = true;
	int marks = 0;
	for (size_t i = 0; i < d->nrows; i++) {
		marks += d->rows[i].mark != 0;
		if (strcmp(cgdiff_row_name(d, &d->rows[i]), "a") && strcmp(cgdiff_row_name(d, &d->rows[i]), "main"))
			others &= !d->rows[i].significant;
	}
	ok(others && marks == 1, "--per run: nothing else significant, one mark");
	struct table *ft = cgdiff_flame(d);
	int rc;
	char *svg = flame_svg(ft, &rc), want[256], ci[128];
	snprintf(want, sizeof(want), "<title>a\nbase %.4g  new %.4g  delta %+.4g %s", r->base_abs, r->new_abs,
		 r->delta_abs, d->unit.name);
	snprintf(ci, sizeof(ci), "95%% interval of delta [%+.4g, %+.4g], excludes 0", r->ci_abs.lo, r->ci_abs.hi);
	ok(rc == 0 && svg && strstr(svg, want) && strstr(strstr(svg, want), ci),
	   "--per run svg: a's tooltip gives both sides per run, the difference and its interval in %s",
	   d->unit.name);
	free(svg);
	table_free(ft);
	cgdiff_free(d);
	/* one run a side: the counting interval */
	if (!(d = diff("1", "2", o)))
		return;
	r = row(d, "main;f;g");
	double z = stats_norm_quantile(1 - (1 - d->row_conf) / 2), se = sqrt(300.0 + 600.0);
	ok(r && near(r->delta_abs, 300) && near(r->ci_abs.lo, 300 - z * se) && near(r->ci_abs.hi, 300 + z * se),
	   "--per run, one run a side: counting interval 300 +- z sqrt(300 + 600)");
	cgdiff_free(d);
}

/* test_per_op: --per op divides by a count metric, or a rate times the
 * recording's length; --per second by the length. */
static void test_per_op(void)
{
	struct cg_opts o = opts();
	struct cgdiff *d;
	begin_session("ob");
	add("main;a", 200);
	end_session();
	ins("UPDATE session SET duration_ns = 4000000000 WHERE id = ?", "i", cur_session);
	ins("INSERT INTO workload_metric(session_id, name, value, watched, line, unit) VALUES (?, 'n', 100, 0, "
	    "'metric=n', 'ops')", "i", cur_session);
	ins("INSERT INTO workload_metric(session_id, name, value, watched, line, unit) VALUES (?, 'r', 10, 0, "
	    "'metric=r', 'ops/s')", "i", cur_session);
	ins("INSERT INTO workload_metric(session_id, name, value, watched, line, unit) VALUES (?, 't', 10, 0, "
	    "'metric=t', 'ms')", "i", cur_session);
	begin_session("on");
	add("main;a", 300);
	end_session();
	ins("UPDATE session SET duration_ns = 2000000000 WHERE id = ?", "i", cur_session);
	ins("INSERT INTO workload_metric(session_id, name, value, watched, line, unit) VALUES (?, 'n', 300, 0, "
	    "'metric=n', 'ops')", "i", cur_session);
	ins("INSERT INTO workload_metric(session_id, name, value, watched, line, unit) VALUES (?, 'r', 50, 0, "
	    "'metric=r', 'ops/s')", "i", cur_session);
	ins("INSERT INTO workload_metric(session_id, name, value, watched, line, unit) VALUES (?, 't', 10, 0, "
	    "'metric=t', 'ms')", "i", cur_session);
	o.per = CG_PER_OP;
	if ((d = diff("ob", "on", o))) {
		ok(!strcmp(d->metric, "n") && !d->metric_rate && row(d, "main;a") &&
		   near(row(d, "main;a")->base_abs, 2) && near(row(d, "main;a")->new_abs, 1),
		   "--per op: the count metric first: 200 / 100, 300 / 300");
		cgdiff_free(d);
	}
	o.metric = "r";
	if ((d = diff("ob", "on", o))) {
		ok(d->metric_rate && near(row(d, "main;a")->base_abs, 200.0 / 40) &&
		   near(row(d, "main;a")->new_abs, 300.0 / 100), "--per op --metric r: a rate times the length");
		cgdiff_free(d);
	}
	o.metric = "t";
	char err[512] = "";
	ok(run_spec("ob", "on", o, &d, err, sizeof(err)) == 1 && !d && strstr(err, "metric t is not usable"),
	   "--per op --metric t (a time): refused (%s)", err);
	o.metric = NULL;
	o.per = CG_PER_SECOND;
	if ((d = diff("ob", "on", o))) {
		ok(near(row(d, "main;a")->base_abs, 50) && near(row(d, "main;a")->new_abs, 150),
		   "--per second: 200 / 4 s, 300 / 2 s");
		cgdiff_free(d);
	}
	ok(run_spec("base", "new", o, &d, err, sizeof(err)) == 1 && strstr(err, "no recording length"),
	   "--per second without a recording length: refused (%s)", err);
}

/* svg_frame(t, id, parent, name, width, delta, sig): one row of a
 * hand-made flame table. */
static void svg_frame(struct table *t, int id, int parent, const char *name, double width, double delta,
		      int sig)
{
	table_add_row(t);
	table_set_int(t, 0, id);
	if (parent >= 0)
		table_set_int(t, 1, parent);
	table_set_str(t, 2, name);
	table_set_real(t, 3, width);
	table_set_real(t, 4, 10);
	table_set_real(t, 5, 10 + delta);
	table_set_real(t, 6, delta);
	table_set_real(t, 7, delta - 1);
	table_set_real(t, 8, delta + 1);
	table_set_int(t, 9, 1);
	table_set_int(t, 10, sig);
}

/* test_svg_fit: labels fit their frames (checked by Python from the SVG's
 * own numbers at the renderer's advance of an 11px monospace character,
 * 6.62 for DejaVu Sans Mono), whole or with an ellipsis; frames without a
 * significant change in the one neutral colour; the scale from the
 * significant changes only. */
static void test_svg_fit(void)
{
	static const char *const cols[] = { "id", "parent", "name", "width", "base_pct", "new_pct",
		"delta_pct", "ci95_low", "ci95_high", "in_base", "significant" };
	struct table *t = table_new("flame", "fit");
	int rc;
	for (size_t c = 0; c < sizeof(cols) / sizeof(*cols); c++)
		table_col(t, cols[c], c == 2 ? COL_STR : c < 2 || c > 8 ? COL_INT : COL_REAL, -1);
	table_caption(t, "sel");
	table_caption(t, "base: B, 1 run, 10 samples");
	table_caption(t, "new: N, 1 run, 20 samples");
	svg_frame(t, 0, -1, "all", 1, 0, 0);
	svg_frame(t, 1, 0, "a_rather_long_function_name_that_cannot_fit", 0.1, 50, 0);
	svg_frame(t, 2, 0, "vfs_write", 0.4, -3, 1);
	svg_frame(t, 3, 0, "ab", 0.002, 1, 0);
	svg_frame(t, 4, 0, "mid_sized_name", 0.0085, 2, 1);
	svg_frame(t, 5, 0, "x", 0.4695, 0, 0);
	char *svg = flame_svg(t, &rc);
	ok(rc == 0 && svg && strstr(svg, "base: B, 1 run, 10 samples") && strstr(svg, "new: N, 1 run, 20 samples"),
	   "svg legend: both sides and their samples");
	ok(svg && strstr(svg, ">vfs_write<") && strstr(svg, "\xe2\x80\xa6<") && !strstr(svg, "..<"),
	   "svg labels: whole names where they fit, an ellipsis where they do not");
	ok(svg && python_ok(
		"import sys,re,xml.etree.ElementTree as E\n"
		"ns={\"s\":\"http://www.w3.org/2000/svg\"}\n"
		"r=E.fromstring(sys.stdin.read())\n"
		"n=0\n"
		"for g in r.iter(\"{http://www.w3.org/2000/svg}g\"):\n"
		" rect=g.find(\"s:rect\",ns); t=g.find(\"s:text\",ns)\n"
		" if t is None: continue\n"
		" n+=1\n"
		" x=float(rect.get(\"x\")); w=float(rect.get(\"width\")); tx=float(t.get(\"x\"))\n"
		" assert tx>=x and tx+len(t.text)*6.62<=x+w, (t.text,x,w)\n"
		"assert n>=3\n", svg),
	   "svg labels: never wider than their frame (computed from the SVG)");
	ok(svg && strstr(svg, "rgb(221,221,221)") && strstr(svg, "-3 points"),
	   "svg: a non-significant frame neutral (its +50 ignored); the scale: the largest significant change, 3");
	free(svg);
	table_free(t);
}

/* rate(v): the current session lasted 2 s and printed metric ops at v ops/s. */
static void rate(double v)
{
	ins("UPDATE session SET duration_ns = 2000000000 WHERE id = ?", "i", cur_session);
	ins("INSERT INTO workload_metric(session_id, name, value, watched, line, unit) VALUES (?, 'ops', ?, 0, "
	    "'metric=ops', 'ops/s')", "id", cur_session, v);
}

/* summary_has(d, want): whether a line of the report's summary starts
 * with want. */
static bool summary_has(const struct doc *d, const char *want)
{
	const struct table *t = doc_table(d, "summary");
	for (size_t r = 0; t && r < table_nrows(t); r++) {
		const struct cell *c = table_cell(t, r, 0);
		if (c->kind == CELL_STR && !strncmp(c->v.s, want, strlen(want)))
			return true;
	}
	if (t)
		for (size_t r = 0; r < table_nrows(t); r++)
			printf("#   summary: %s\n", table_cell(t, r, 0)->v.s);
	return false;
}

/* test_report_summary(): the report's call-graph cost per operation; its
 * summary names a changed call-graph
 * node by the shortest tail of its path that no other changed node shares,
 * its middle elided: two nodes ending in x > y are told apart by the frame
 * where their paths part. */
static void test_report_summary(void)
{
	struct report_opts o = { .base = "sum_base", .new = (const char *[]){ "sum_new" }, .nnew = 1, .comm = "work", .db_path = "t.db" };
	struct doc *d = doc_new("report");
	char err[256] = "";
	static const char *const a = "main;a;m1;m2;x;y", *b = "main;b;m1;m2;x;y";
	begin_session("sum_base");
	add(a, 300), add(b, 30), add("main;c", 300);
	end_session();
	rate(100);
	begin_session("sum_new");
	add(a, 30), add(b, 300), add("main;c", 300);
	end_session();
	rate(50);
	ok(!report_findings(db, &o, d, err, sizeof(err)), "report of two sessions%s%s", *err ? ": " : "", err);
	ok(summary_has(d, "call graph (cpu-clock): ... > a > ... > x > y -"),
	   "the summary: the node under a, told apart by a, its middle elided");
	ok(summary_has(d, "call graph (cpu-clock): ... > b > ... > x > y +"),
	   "the summary: the node under b, told apart by b");
	const struct table *t = doc_table(d, "cgdiff_cost");
	int bo = t ? table_find_col(t, "base_per_op") : -1, no = t ? table_find_col(t, "new_per_op") : -1;
	ok(t && table_nrows(t) && bo > 0 && no > 0 && near(table_cell(t, 0, bo)->v.r, 630.0 / 200) &&
	   near(table_cell(t, 0, no)->v.r, 630.0 / 100) && near(table_cell(t, 0, table_find_col(t, "change_pct"))->v.r, 100),
	   "the cost per operation: samples over the rate metric times the recording's length (630 / 200, 630 / 100)");
	doc_free(d);
}

/* cost_session(label, a, b, secs, ops): a session of label: a samples on
 * main;alpha, b on main;beta, secs seconds long, its workload printing ops (a
 * count; none when ops < 0). */
static void cost_session(const char *label, int a, int b, double secs, double ops)
{
	begin_session(label);
	add("main;alpha", a), add("main;beta", b);
	end_session();
	ins("UPDATE session SET duration_ns = ? WHERE id = ?", "ii", (int64_t)(secs * 1e9), cur_session);
	if (ops >= 0)
		ins("INSERT INTO workload_metric(session_id, name, value, watched, line, unit) VALUES (?, 'items', ?, "
		    "0, 'metric=items', 'items')", "id", cur_session, ops);
}

/* cost_row(d, path_end, col): the cost table's value of the row whose
 * symbol ends with path_end, NaN when none. */
static double cost_row(const struct doc *d, const char *name, const char *col)
{
	const struct table *t = doc_table(d, "cgdiff_cost");
	int s = t ? table_find_col(t, "symbol") : -1, c = t ? table_find_col(t, col) : -1;
	for (size_t i = 0; s >= 0 && c >= 0 && i < table_nrows(t); i++)
		if (table_cell(t, i, s)->kind == CELL_STR && strstr(table_cell(t, i, s)->v.s, name) &&
		    table_cell(t, i, c)->kind == CELL_REAL)
			return table_cell(t, i, c)->v.r;
	return NAN;
}

/* test_report_cost(): the report's absolute cost of each node, with 2
 * sessions a side: per operation (every session counted items), summed
 * over each side's sessions, and per second of recording (no session
 * counted any). */
static void test_report_cost(void)
{
	struct report_opts o = { .base = "cop_base", .new = (const char *[]){ "cop_new" }, .nnew = 1, .comm = "work", .db_path = "t.db" };
	struct doc *d = doc_new("report");
	char err[256] = "";
	cost_session("cop_base", 300, 100, 1, 100);
	cost_session("cop_base", 500, 100, 3, 300);
	cost_session("cop_new", 200, 200, 2, 50);
	cost_session("cop_new", 200, 400, 2, 150);
	if (ok(!report_findings(db, &o, d, err, sizeof(err)), "report, 2 sessions a side%s%s", *err ? ": " : "", err)) {
		ok(near(cost_row(d, "alpha", "base_per_op"), 800.0 / 400) && near(cost_row(d, "alpha", "new_per_op"), 400.0 / 200),
		   "per operation: a side's samples over all its sessions' items (800 / 400, 400 / 200)");
		ok(near(cost_row(d, "beta", "change_pct"), 100 * (600.0 / 200 - 200.0 / 400) / (200.0 / 400)),
		   "beta's %%change per operation");
		ok(near(cost_row(d, "alpha", "base_per_sec"), 800.0 / 4) && near(cost_row(d, "alpha", "new_per_sec"), 400.0 / 4),
		   "per second: over all its sessions' seconds (4 s a side)");
		ok(summary_has(d, "call graph (cpu-clock): main > beta +"),
		   "the summary names a changed node by 2 frames at least (main > beta)");
	}
	doc_free(d);
	o = (struct report_opts){ .base = "coz_base", .new = (const char *[]){ "coz_new" }, .nnew = 1, .comm = "work", .db_path = "t.db" };
	d = doc_new("report");
	for (int k = 0; k < 2; k++) {	/* a rate on both sides, the new side's length unknown */
		cost_session(k ? "coz_new" : "coz_base", 300, 100, k ? 0 : 1, -1);
		ins("INSERT INTO workload_metric(session_id, name, value, watched, line, unit) VALUES (?, 'rate', 100, "
		    "0, 'metric=rate', 'ops/s')", "i", cur_session);
	}
	if (ok(!report_findings(db, &o, d, err, sizeof(err)), "report, the new side's operations unknown%s%s",
	       *err ? ": " : "", err)) {
		const struct table *t = doc_table(d, "cgdiff_cost");
		ok(t && !strcmp(table_title(t), "Call graph in absolute terms: samples per second of recording"),
		   "a rate over a recording of unknown length counts no operations: not per operation");
	}
	doc_free(d);
	o = (struct report_opts){ .base = "cps_base", .new = (const char *[]){ "cps_new" }, .nnew = 1, .comm = "work", .db_path = "t.db" };
	d = doc_new("report");
	cost_session("cps_base", 300, 100, 1, -1);
	cost_session("cps_base", 500, 100, 3, -1);
	cost_session("cps_new", 200, 200, 1, -1);
	cost_session("cps_new", 200, 400, 1, -1);
	if (ok(!report_findings(db, &o, d, err, sizeof(err)), "report without a metric%s%s", *err ? ": " : "", err)) {
		ok(near(cost_row(d, "alpha", "new_per_sec"), 400.0 / 2) && isnan(cost_row(d, "alpha", "new_per_op")),
		   "no items: per second only (400 / 2 s)");
		ok(near(cost_row(d, "alpha", "change_pct"), 100 * (400.0 / 2 - 800.0 / 4) / (800.0 / 4)) &&
		   near(cost_row(d, "beta", "change_pct"), 100 * (600.0 / 2 - 200.0 / 4) / (200.0 / 4)),
		   "its %%change per second: alpha 0%%, beta +500%%");
	}
	doc_free(d);
}

/* test_report_comm(): without --comm the report's call graph is of the
 * workload's comm, its program's name cut to the kernel's 15 bytes. */
static void test_report_comm(void)
{
	struct report_opts o = { .base = "long_b", .new = (const char *[]){ "long_n" }, .nnew = 1, .db_path = "t.db" };
	struct doc *d = doc_new("report");
	char err[256] = "";
	for (int s = 0; s < 2; s++) {
		begin_session(s ? "long_n" : "long_b");
		int64_t p = ins("INSERT INTO process(session_id, pid, comm) VALUES (?, 300, 'averyveryverylo')", "i",
				cur_session);
		int64_t t = ins("INSERT INTO thread(session_id, process_id, pid, tid, comm) VALUES (?, ?, 300, 300, "
				"'averyveryverylo')", "ii", cur_session, p);
		ins("INSERT INTO comm(thread_id, time, comm, exec) VALUES (?, NULL, 'averyveryverylo', 1)", "i", t);
		ins("UPDATE session SET workload = '/usr/bin/averyveryverylongname --x' WHERE id = ?", "i", cur_session);
		add_ex("main;x", s ? 300 : 100, 1, t, 1000, 0);
		add_ex("main;y", 200, 1, t, 1000, 0);
		end_session();
	}
	if (ok(!report_findings(db, &o, d, err, sizeof(err)), "report of averyveryverylongname%s%s", *err ? ": " : "",
	       err))
		ok(doc_table(d, "cgdiff_nodes") != NULL, "its call graph: of comm averyveryverylo (15 bytes)");
	doc_free(d);
}

/* test_report_totals(): the report notes when the call graph's totals per
 * run differ (1000 against 400 samples, one run a side). */
static void test_report_totals(void)
{
	struct report_opts o = { .base = "tot_base", .new = (const char *[]){ "tot_new" }, .nnew = 1, .comm = "work", .db_path = "t.db" };
	struct doc *d = doc_new("report");
	char err[256] = "";
	bool found = false;
	begin_session("tot_base");
	add("main;a", 500), add("main;b", 500);
	end_session();
	begin_session("tot_new");
	add("main;a", 200), add("main;b", 200);
	end_session();
	ok(!report_findings(db, &o, d, err, sizeof(err)), "report of two sessions%s%s", *err ? ": " : "", err);
	for (size_t i = 0; i < doc_nnotes(d); i++)
		found |= !strncmp(doc_note_at(d, i), "call graph: the sides' totals differ (1000.00 -> 400.00 ns of cpu-clock", 71);
	ok(found, "the report notes that the call graph's totals per run differ");
	doc_free(d);
}

/* lkp_row(t, name, want): whether lkp table t has the row metric name
 * with the cells want (base, change, new, change_new2, new2; up to the
 * first NULL). */
static bool lkp_row(const struct table *t, const char *name, const char *const want[5])
{
	static const char *const cols[5] = { "base", "change", "new", "change_new2", "new2" };
	for (size_t r = 0; t && r < table_nrows(t); r++) {
		const struct cell *m = table_cell(t, r, table_find_col(t, "metric"));
		if (m->kind != CELL_STR || strcmp(m->v.s, name))
			continue;
		for (int i = 0; i < 5 && want[i]; i++) {
			const struct cell *c = table_cell(t, r, table_find_col(t, cols[i]));
			if (c->kind != CELL_STR || strcmp(c->v.s, want[i])) {
				printf("#   %s: %s is '%s', not '%s'\n", name, cols[i], c->kind == CELL_STR ? c->v.s : "(null)",
				       want[i]);
				return false;
			}
		}
		return true;
	}
	printf("#   no row %s\n", name);
	return false;
}

/* test_report_lkp(): --style lkp of three sides' recordings (no bench):
 * 0-day's perf-profile rows, the call paths perfdb's test marks with each
 * side's share of the samples and the change in points, worked out here:
 * a 300 -> 30 and b 30 -> 300 of 630 samples (47.62% <-> 4.76%, 42.9
 * points); the third side is the base's copy (its shares shown, +0.0,
 * no mark);
 * main and c, unchanged, get no row. */
static void test_report_lkp(void)
{
	struct report_opts o = { .base = "lkp_base", .new = (const char *[]){ "lkp_new", "lkp_same" }, .nnew = 2,
		.comm = "work", .db_path = "t.db", .style = REPORT_STYLE_LKP };
	struct doc *d = doc_new("report");
	char err[256] = "";
	begin_session("lkp_base");
	add("main;a", 300), add("main;b", 30), add("main;c", 300);
	end_session();
	begin_session("lkp_new");
	add("main;a", 30), add("main;b", 300), add("main;c", 300);
	end_session();
	begin_session("lkp_same");
	add("main;a", 300), add("main;b", 30), add("main;c", 300);
	end_session();
	ok(!report_findings(db, &o, d, err, sizeof(err)), "lkp report of three sides%s%s", *err ? ": " : "", err);
	const struct table *t = doc_table(d, "lkp");
	ok(t && table_nrows(t) == 2, "lkp: two perf-profile rows (a and b), none for main or c (%zu)", t ? table_nrows(t) : 0);
	ok(lkp_row(t, "perf-profile.calltrace.cpu-clock.a.main",
		   (const char *const[]){ "47.62", "-42.9 *", "4.76", "+0.0", "47.62" }),
	   "lkp: main > a: 47.62 -> 4.76, -42.9 points, marked; the copy of the base: +0.0, not marked");
	ok(lkp_row(t, "perf-profile.calltrace.cpu-clock.b.main",
		   (const char *const[]){ "4.76", "+42.9 *", "47.62", "+0.0", "4.76" }),
	   "lkp: main > b: 4.76 -> 47.62, +42.9 points, marked");
	doc_free(d);

	/* a deep path is named as 0-day names it: the frame, then 4 callers */
	struct report_opts o2 = { .base = "lkp2_base", .new = (const char *[]){ "lkp2_new" }, .nnew = 1,
		.comm = "work", .db_path = "t.db", .style = REPORT_STYLE_LKP };
	d = doc_new("report");
	begin_session("lkp2_base");
	add("r;s;t;u;v;w;x", 300), add("r;y", 300);
	end_session();
	begin_session("lkp2_new");
	add("r;s;t;u;v;w;x", 30), add("r;y", 300);
	end_session();
	ok(!report_findings(db, &o2, d, err, sizeof(err)), "lkp report of a deep path%s%s", *err ? ": " : "", err);
	t = doc_table(d, "lkp");
	/* x: 300 of 600 -> 30 of 330: 50% -> 9.09%, -40.9 points */
	ok(lkp_row(t, "perf-profile.calltrace.cpu-clock.x.w.v.u.t",
		   (const char *const[]){ "50.00", "-40.9 *", "9.09", NULL, NULL }),
	   "lkp: r > s > t > u > v > w > x is x.w.v.u.t, 50.00 -> 9.09");
	doc_free(d);
}

int main(void)
{
	char path[] = "/tmp/perfdb_test_cgdiff_XXXXXX", err[256];
	int fd = mkstemp(path);
	if (fd < 0)
		return 1;
	close(fd);
	unlink(path);
	if (!(db = db_open(path, true, err, sizeof(err)))) {
		printf("# %s\n", err);
		return 1;
	}
	/* the fixture's rows go in one statement each: no fsync after every one */
	db_exec(db, "PRAGMA synchronous = OFF", NULL, 0);
	build();
	test_shares();
	test_intervals();
	test_marks();
	test_marks_stop();
	test_marks_half();
	test_thresholds();
	test_limit_elide();
	test_flat();
	test_selection();
	test_runs();
	test_errors();
	test_forms();
	test_folded();
	test_event_check();
	test_report_summary();
	test_report_cost();
	test_report_comm();
	test_extremes();
	test_per();
	test_per_op();
	test_svg_fit();
	test_report_totals();
	test_report_lkp();
	sqlite3_close(db);
	unlink(path);
	return tap_done();
}
