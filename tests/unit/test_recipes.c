/* Tests for collect/recipes.c (recipe plans, the perf command line, shell
 * quoting, the machine probes, with a fake tracefs for missing events) and
 * collect/layout/btf_layout.c: the flattened layouts of several kernel structs
 * (mm_struct, mm_context_t, vm_area_struct, restart_block, perf_event_attr)
 * checked member by member against what `pahole -C NAME
 * /sys/kernel/btf/vmlinux` prints, nested dotted names and bitfields
 * included. */
#include "collect/layout/btf_layout.h"
#include "collect/recipes.h"
#include "tap.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const struct recipe_env no_pmu = { .have_cycles = false };
static const struct recipe_env pmu = { .have_cycles = true };

/* ---- plans ---- */

/* count_of: how many times ev is in p's events. */
static int count_of(const struct recipe_plan *p, const char *ev)
{
	int n = 0;
	for (size_t i = 0; i < p->nevents; i++)
		n += !strcmp(p->events[i], ev);
	return n;
}

static void test_plans(void)
{
	struct recipe_plan p;
	char err[256];
	bool dup = false;
	ok(!recipe_plan_make(&p, "sched", NULL, &no_pmu, err, sizeof(err)), "plan sched");
	is_int(p.nevents, 8, "sched has 8 events");
	is_str(p.events[0], "sched:sched_switch", "sched starts with sched_switch");
	is_str(p.events[7], "sched:sched_process_exit", "sched ends with sched_process_exit");
	ok(p.system_wide && !p.profile_event, "sched is system-wide, no profile event");
	recipe_plan_free(&p);

	ok(!recipe_plan_make(&p, " sched , tlb,sched", NULL, &no_pmu, err, sizeof(err)), "plan sched,tlb");
	is_int(p.nevents, 18, "sched+tlb merge to 18 events (4 shared)");
	for (size_t i = 0; i < p.nevents; i++)
		dup |= count_of(&p, p.events[i]) != 1;
	ok(!dup, "merged events have no duplicates");
	is_str(p.events[8], "tlb:tlb_flush", "tlb's own events follow sched's");
	ok(count_of(&p, "irq_vectors:call_function_single_exit") == 1, "tlb has call_function_single_exit");
	recipe_plan_free(&p);

	ok(!recipe_plan_make(&p, NULL, NULL, &no_pmu, err, sizeof(err)), "no recipe: profile");
	ok(p.nevents == 1 && p.profile_event && !strcmp(p.profile_event, "cpu-clock") && !p.system_wide,
	   "profile without a PMU samples cpu-clock, per workload");
	recipe_plan_free(&p);
	ok(!recipe_plan_make(&p, "profile", NULL, &pmu, err, sizeof(err)) &&
	   !strcmp(p.profile_event, "cycles"), "profile with a PMU samples cycles");
	recipe_plan_free(&p);

	ok(!recipe_plan_make(&p, "c2c", "nosuch:event,sched:sched_switch,mmap:exit_mmap", &no_pmu,
			     err, sizeof(err)), "plan c2c with extra events");
	is_int(p.nevents, 6, "c2c's 4 events + 2 new extras (duplicate dropped)");
	is_str(p.events[4], "nosuch:event", "extras follow the recipes' events");
	ok(p.recipes == RECIPE_C2C && p.system_wide, "c2c is system-wide");
	recipe_plan_free(&p);

	ok(recipe_plan_make(&p, "sched,bogus", NULL, &no_pmu, err, sizeof(err)) == -1,
	   "unknown recipe refused");
	ok(strstr(err, "'bogus'") && strstr(err, "sched, tlb, profile, c2c, watch"),
	   "the message names it and lists the recipes: %s", err);
	ok(p.nevents == 0 && !p.events, "a refused plan is empty");
	ok(recipe_plan_make(&p, "watch", NULL, &no_pmu, err, sizeof(err)) == 0 &&
	   p.recipes == RECIPE_WATCH && p.nevents == 0 && p.system_wide,
	   "watch plans no events of its own, system-wide: %s", err);
	recipe_plan_free(&p);
	ok(recipe_plan_make(&p, ",", NULL, &no_pmu, err, sizeof(err)) == -1, "no recipe at all refused");
}

/* ---- command lines ---- */

/* joined: the plan's perf command line for workload "w a", as one string. */
static char *joined(const char *spec, const struct recipe_env *env, struct perf_opts *o)
{
	char *wl[] = { "w", "a b", NULL }, err[256], **argv, *s;
	struct recipe_plan p;
	if (recipe_plan_make(&p, spec, NULL, env, err, sizeof(err)))
		return strdup(err);
	o->perf = "perf";
	o->output = "/t/perf.data";
	argv = recipe_perf_argv(&p, o, wl);
	s = argv ? argv_join(argv) : NULL;
	argv_free(argv);
	recipe_plan_free(&p);
	return s;
}

/* check_cmd: the command line of spec with options o is want. */
static void check_cmd(const char *spec, const struct recipe_env *env, struct perf_opts o,
		      const char *want, const char *what)
{
	char *got = joined(spec, env, &o);
	is_str(got, want, "%s", what);
	free(got);
}

static void test_argv(void)
{
	check_cmd("sched", &no_pmu, (struct perf_opts){ 0 },
		  "perf record -o /t/perf.data -a -m 1024 -e sched:sched_switch -e sched:sched_waking "
		  "-e sched:sched_wakeup -e sched:sched_wakeup_new -e sched:sched_migrate_task "
		  "-e sched:sched_process_fork -e sched:sched_process_exec -e sched:sched_process_exit "
		  "-- w 'a b'", "sched: system-wide, -m 1024, each event once");
	check_cmd("profile", &no_pmu, (struct perf_opts){ 0 },
		  "perf record -o /t/perf.data -m 1024 -F 999 -e cpu-clock -g -- w 'a b'",
		  "profile: cpu-clock -F 999 -g, not system-wide");
	check_cmd("profile", &pmu, (struct perf_opts){ .freq = 4000, .callgraph = CG_DWARF, .cpus = "0-1",
						       .mmap_pages = 64 },
		  "perf record -o /t/perf.data -C 0-1 -m 64 -F 4000 -e cycles --call-graph dwarf -- w 'a b'",
		  "profile: cycles, -F, -C, -m and --call-graph dwarf");
	check_cmd("profile,c2c", &no_pmu, (struct perf_opts){ 0 },
		  "perf c2c record -- -o /t/perf.data -a -m 1024 -e cpu-clock/freq=999,call-graph=fp/ "
		  "-e mmap_lock:mmap_lock_start_locking -e mmap_lock:mmap_lock_acquire_returned "
		  "-e mmap_lock:mmap_lock_released -e mmap:exit_mmap -- w 'a b'",
		  "c2c: perf c2c record, record options after its --, profile as event terms");
	check_cmd("tlb,profile", &no_pmu, (struct perf_opts){ .callgraph = CG_FP },
		  "perf record -o /t/perf.data -a -m 1024 -e tlb:tlb_flush -e ipi:ipi_send_cpu "
		  "-e ipi:ipi_send_cpumask -e csd:csd_queue_cpu -e csd:csd_function_entry "
		  "-e csd:csd_function_exit -e irq_vectors:call_function_entry "
		  "-e irq_vectors:call_function_exit -e irq_vectors:call_function_single_entry "
		  "-e irq_vectors:call_function_single_exit -e sched:sched_switch "
		  "-e sched:sched_process_fork -e sched:sched_process_exec -e sched:sched_process_exit "
		  "-e cpu-clock/freq=999,call-graph=fp/ -g -- w 'a b'",
		  "tlb+profile: no global -F (tracepoints keep period 1), -g asked for applies to all");
	check_cmd("sched", &no_pmu, (struct perf_opts){ .callgraph = CG_DWARF },
		  "perf record -o /t/perf.data -a -m 1024 -e sched:sched_switch -e sched:sched_waking "
		  "-e sched:sched_wakeup -e sched:sched_wakeup_new -e sched:sched_migrate_task "
		  "-e sched:sched_process_fork -e sched:sched_process_exec -e sched:sched_process_exit "
		  "--call-graph dwarf -- w 'a b'", "sched with --call-graph dwarf");
}

static void test_quoting(void)
{
	char *a1[] = { "plain", "a b", "it's", "", "$HOME", "x=1,y:2/@%+-_.", "*", NULL };
	char *s = argv_join(a1);
	is_str(s, "plain 'a b' 'it'\\''s' '' '$HOME' x=1,y:2/@%+-_. '*'", "shell quoting");
	free(s);
	s = argv_join((char *[]){ NULL });
	is_str(s, "", "empty argv joins to an empty string");
	free(s);
}

/* ---- probes ---- */

/* make_dirs: mkdir -p of path. */
static void make_dirs(const char *path)
{
	char buf[1024];
	snprintf(buf, sizeof(buf), "%s", path);
	for (char *p = buf + 1; *p; p++)
		if (*p == '/') {
			*p = 0;
			mkdir(buf, 0755);
			*p = '/';
		}
	mkdir(buf, 0755);
}

static void test_fake_tracefs(void)
{
	char dir[] = "/tmp/perfdb-test-tracefs-XXXXXX", path[256], err[256];
	struct recipe_plan p;
	int moved;
	if (!ok(mkdtemp(dir) != NULL, "temporary tracefs"))
		return;
	snprintf(path, sizeof(path), "%s/events/sched/sched_switch", dir);
	make_dirs(path);
	snprintf(path, sizeof(path), "%s/events/sched/sched_waking", dir);
	make_dirs(path);
	is_int(tracepoint_exists(dir, "sched:sched_switch"), 1, "sched_switch exists");
	is_int(tracepoint_exists(dir, "sched:sched_wakeup"), 0, "sched_wakeup does not");
	is_int(tracepoint_exists(dir, "sched:sched_switch/call-graph=fp/"), 1, "event terms ignored");
	is_int(tracepoint_exists(dir, "cpu-clock"), -1, "not a tracepoint: -1");
	is_int(tracepoint_exists("/nonexistent", "sched:sched_switch"), -1, "unreadable tracefs: -1");
	recipe_plan_make(&p, "sched,profile", "nosuch:event", &no_pmu, err, sizeof(err));
	moved = recipe_plan_drop_missing(&p, dir);
	is_int(moved, 7, "6 sched events and the extra are missing");
	is_int(p.nevents, 3, "sched_switch, sched_waking and cpu-clock stay");
	ok(p.nevents == 3 && !strcmp(p.events[2], "cpu-clock") && p.profile_event == p.events[2],
	   "the profile event is kept and still marked");
	ok(p.nmissing == 7 && !strcmp(p.missing[6], "nosuch:event"), "missing events listed in order");
	recipe_plan_free(&p);
	recipe_plan_make(&p, "sched", NULL, &no_pmu, err, sizeof(err));
	is_int(recipe_plan_drop_missing(&p, "/nonexistent"), 0, "unreadable tracefs drops nothing");
	recipe_plan_free(&p);
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	ok(system(path) == 0, "temporary tracefs removed");
}

static void test_probes(void)
{
	char buf[4096], tracefs[4096], file[] = "/tmp/perfdb-test-noexec-XXXXXX";
	int ws, fd;
	is_int(find_program("sh", buf, sizeof(buf)), 0, "sh found in PATH");
	ok(buf[0] == '/' || buf[0] == '.', "its path: %s", buf);
	is_int(find_program("perfdb-no-such-program", buf, sizeof(buf)), ENOENT, "unknown program: ENOENT");
	is_int(find_program("/nonexistent/x", buf, sizeof(buf)), ENOENT, "missing path: ENOENT");
	is_int(find_program("/tmp", buf, sizeof(buf)), EACCES, "a directory: EACCES");
	if ((fd = mkstemp(file)) >= 0) {
		close(fd);
		is_int(find_program(file, buf, sizeof(buf)), EACCES, "a file without x: EACCES");
		unlink(file);
	}
	ok(!run_capture((char *[]){ "sh", "-c", "echo out; echo err >&2; exit 3", NULL }, buf,
			sizeof(buf), &ws), "run_capture runs sh");
	ok(WIFEXITED(ws) && WEXITSTATUS(ws) == 3, "exit status 3 seen");
	is_str(buf, "out\nerr\n", "stdout and stderr captured");
	ok(run_capture((char *[]){ "perfdb-no-such-program", NULL }, buf, sizeof(buf), &ws) == -1 &&
	   strstr(buf, "No such file"), "run_capture of a missing program fails: %s", buf);
	if (!tracefs_mount(tracefs, sizeof(tracefs))) {
		ok(1, "# SKIP no tracefs mounted");
		return;
	}
	is_int(tracepoint_exists(tracefs, "sched:sched_switch"), 1, "%s has sched:sched_switch", tracefs);
	is_int(tracepoint_exists(tracefs, "nosuch:event"), 0, "and no nosuch:event");
}

/* ---- BTF layouts against pahole ---- */

/* A member as pahole prints it. */
struct pmember {
	char name[256], type[256];
	long off, size;
	int bit, bits;		/* -1 when not a bitfield */
};

/* Members parsed so far, and the open braces: each open block remembers
 * where its members start so a named close can prefix them. */
struct pparse {
	struct pmember m[2048];
	int n;
	int start[32];
	int depth;
};

/* squeeze: s without blanks, into out (for comparing type names). */
static void squeeze(const char *s, char *out, size_t len)
{
	size_t n = 0;
	for (; *s && n + 1 < len; s++)
		if (!isspace((unsigned char)*s))
			out[n++] = *s;
	out[n] = 0;
}

/* strip_attrs: removes "__attribute__((...))" from s. */
static void strip_attrs(char *s)
{
	char *a;
	while ((a = strstr(s, "__attribute__((")) != NULL) {
		char *e = strstr(a, "))");
		if (!e)
			break;
		memmove(a, e + 2, strlen(e + 2) + 1);
	}
}

/* parse_comment: "OFF SIZE" or "OFF:BIT SIZE" after the "/ *" at c. */
static bool parse_comment(const char *c, struct pmember *m)
{
	m->bit = -1;
	if (sscanf(c, "/* %ld:%d %ld", &m->off, &m->bit, &m->size) == 3)
		return true;
	m->bit = -1;
	return sscanf(c, "/* %ld %ld", &m->off, &m->size) == 2;
}

/* parse_decl: "TYPE NAME[N]:BITS" into m's name, type and bits. */
static bool parse_decl(char *d, struct pmember *m)
{
	char *end = d + strlen(d), *name, *colon, *br;
	m->bits = -1;
	if (strchr(d, '('))		/* function pointers: no simple name */
		return false;
	if ((colon = strrchr(d, ':'))) {
		m->bits = atoi(colon + 1);
		*colon = 0;
		end = colon;
	}
	while (end > d && isspace((unsigned char)end[-1]))
		*--end = 0;
	br = strchr(d, '[');
	name = br ? br : end;
	while (name > d && (isalnum((unsigned char)name[-1]) || name[-1] == '_'))
		name--;
	if (name == d)
		return false;
	snprintf(m->name, sizeof(m->name), "%.*s", (int)((br ? br : end) - name), name);
	snprintf(m->type, sizeof(m->type), "%.*s%s", (int)(name - d), d, br ? br : "");
	if (!strcmp(m->type + strlen(m->type) - (br ? strlen(br) : 0), "[]"))
		strcpy(m->type + strlen(m->type) - 2, "[0]");
	return true;
}

/* close_block: "} NAME;" ends a block: its members get "NAME." (an array
 * of blocks loses them: the layout does not expand arrays) and the block
 * itself becomes a member. */
static void close_block(struct pparse *pp, char *line, const char *comment, bool is_union)
{
	int start = pp->start[--pp->depth];
	struct pmember blk;
	char name[256] = "";
	strip_attrs(line);
	if (sscanf(line, " } %255[A-Za-z0-9_[]", name) != 1 || !pp->depth)
		return;		/* anonymous (or the outermost struct) */
	if (strchr(name, '[')) {
		pp->n = start;
		return;
	}
	for (int i = start; i < pp->n; i++) {
		char tmp[256];
		snprintf(tmp, sizeof(tmp), "%s.%s", name, pp->m[i].name);
		snprintf(pp->m[i].name, sizeof(pp->m[i].name), "%s", tmp);
	}
	if (!comment || !parse_comment(comment, &blk) || pp->n >= 2048)
		return;
	snprintf(blk.name, sizeof(blk.name), "%s", name);
	snprintf(blk.type, sizeof(blk.type), "%s {...}", is_union ? "union" : "struct");
	blk.bits = -1;
	memmove(&pp->m[start + 1], &pp->m[start], (size_t)(pp->n - start) * sizeof(blk));
	pp->m[start] = blk;
	pp->n++;
}

/* parse_line: one line of pahole's output into pp. unions[] remembers
 * which open block is a union. */
static void parse_line(struct pparse *pp, char *line, bool *unions)
{
	char *comment = strstr(line, "/*"), *t = line;
	struct pmember m;
	while (isspace((unsigned char)*t))
		t++;
	if (!*t || t == comment)
		return;
	if (strchr(t, '{') && !strchr(t, '}')) {
		if (pp->depth < 32) {
			unions[pp->depth] = strstr(t, "union") == t;
			pp->start[pp->depth++] = pp->n;
		}
		return;
	}
	if (*t == '}') {
		if (pp->depth > 0)
			close_block(pp, t, comment, unions[pp->depth - 1]);
		return;
	}
	if (!comment || !parse_comment(comment, &m))
		return;
	*comment = 0;
	if ((comment = strrchr(t, ';')))
		*comment = 0;
	if (parse_decl(t, &m) && pp->n < 2048)
		pp->m[pp->n++] = m;
}

/* pahole_members: the members of NAME as pahole prints them; -1 when
 * pahole cannot be run. */
static int pahole_members(const char *name, struct pparse *pp)
{
	char cmd[256], line[1024];
	bool unions[32] = { false };
	FILE *f;
	snprintf(cmd, sizeof(cmd), "pahole -C %s /sys/kernel/btf/vmlinux 2>/dev/null", name);
	if (!(f = popen(cmd, "r")))
		return -1;
	memset(pp, 0, sizeof(*pp));
	while (fgets(line, sizeof(line), f))
		parse_line(pp, line, unions);
	return pclose(f) == 0 && pp->n > 0 ? 0 : -1;
}

/* same_member: whether layout member l says what pahole's p says. */
static bool same_member(const struct layout_member *l, const struct pmember *p, bool types)
{
	char a[256], b[256];
	if (l->offset != p->off || l->size != p->size || l->bit_offset != p->bit ||
	    l->bit_size != p->bits)
		return false;
	squeeze(l->type_name, a, sizeof(a));
	squeeze(p->type, b, sizeof(b));
	return !types || !strcmp(a, b);
}

/* compare_struct: every member pahole prints for name is in the layout
 * with the same offset, size, bits and type. */
static void compare_struct(const struct btf *btf, const char *name, struct pparse *pp)
{
	struct layout l;
	char err[256];
	int bad = 0, shown = 0;
	if (pahole_members(name, pp)) {
		ok(1, "# SKIP pahole -C %s gives nothing", name);
		return;
	}
	if (!ok(!btf_layout_of(btf, name, &l, err, sizeof(err)), "layout of %s", name))
		return;
	for (int i = 0; i < pp->n; i++) {
		const struct layout_member *m = btf_layout_find(&l, pp->m[i].name);
		if (m && same_member(m, &pp->m[i], true))
			continue;
		bad++;
		if (shown++ < 5)
			printf("#   %s.%s: pahole %ld+%ld bit %d:%d '%s'; layout %lld+%lld bit %d:%d '%s'\n",
			       name, pp->m[i].name, pp->m[i].off, pp->m[i].size, pp->m[i].bit,
			       pp->m[i].bits, pp->m[i].type, m ? (long long)m->offset : -1LL,
			       m ? (long long)m->size : -1LL, m ? m->bit_offset : 0,
			       m ? m->bit_size : 0, m ? m->type_name : "(none)");
	}
	ok(!bad, "%s: all %d members pahole prints match (%d differ)", name, pp->n, bad);
	btf_layout_free(&l);
}

/* pahole_find: pahole's member called name, or NULL. */
static const struct pmember *pahole_find(const struct pparse *pp, const char *name)
{
	for (int i = 0; i < pp->n; i++)
		if (!strcmp(pp->m[i].name, name))
			return &pp->m[i];
	return NULL;
}

/* test_nested: mm_struct's context.* = context's offset + mm_context_t's. */
static void test_nested(const struct btf *btf, struct pparse *mm, struct pparse *ctx)
{
	const struct pmember *c, *tg, *bm;
	const struct layout_member *m;
	struct layout l;
	char err[256], dotted[300];
	int bad = 0;
	if (pahole_members("mm_struct", mm) || pahole_members("mm_context_t", ctx) ||
	    !(c = pahole_find(mm, "context")) || !(tg = pahole_find(ctx, "tlb_gen")) ||
	    btf_layout_of(btf, "mm_struct", &l, err, sizeof(err))) {
		ok(1, "# SKIP no pahole or no mm_struct.context here");
		return;
	}
	m = btf_layout_find(&l, "context.tlb_gen");
	ok(m && m->offset == c->off + tg->off && m->size == tg->size,
	   "mm_struct context.tlb_gen at %ld = context %ld + tlb_gen %ld (layout: %lld)",
	   c->off + tg->off, c->off, tg->off, m ? (long long)m->offset : -1LL);
	for (int i = 0; i < ctx->n; i++) {
		snprintf(dotted, sizeof(dotted), "context.%s", ctx->m[i].name);
		m = btf_layout_find(&l, dotted);
		bad += !m || m->offset != c->off + ctx->m[i].off || m->size != ctx->m[i].size;
	}
	ok(!bad, "every mm_context_t member is at context + its offset (%d differ)", bad);
	m = btf_layout_find(&l, "context.tlb_gen.counter");
	ok(m && m->offset == c->off + tg->off, "nested through a typedef: context.tlb_gen.counter");
	bm = pahole_find(mm, "lru_gen.bitmap");
	m = btf_layout_find(&l, "lru_gen.bitmap");
	if (bm)
		ok(m && m->offset == bm->off, "lru_gen.bitmap at %ld", bm->off);
	else
		ok(!m, "# SKIP no lru_gen in this kernel's mm_struct (CONFIG_LRU_GEN off)");
	ok(l.n && !strcmp(l.m[0].member, "") && l.m[0].offset == 0 && !strcmp(l.m[0].type_name, "struct mm_struct"),
	   "first row is the whole struct (%lld bytes)", l.n ? (long long)l.m[0].size : -1LL);
	btf_layout_free(&l);
}

static void test_btf(void)
{
	static struct pparse a, b;
	struct layout l;
	char err[512];
	struct btf *btf;
	if (access("/sys/kernel/btf/vmlinux", R_OK) || system("pahole --version >/dev/null 2>&1")) {
		ok(1, "# SKIP no /sys/kernel/btf/vmlinux or no pahole");
		return;
	}
	btf = btf_layout_open(NULL, err, sizeof(err));
	if (!ok(btf != NULL, "vmlinux BTF loads%s%s", btf ? "" : ": ", btf ? "" : err))
		return;
	compare_struct(btf, "mm_struct", &a);
	compare_struct(btf, "mm_context_t", &a);
	compare_struct(btf, "vm_area_struct", &a);
	compare_struct(btf, "restart_block", &a);
	compare_struct(btf, "perf_event_attr", &a);
	test_nested(btf, &a, &b);
	ok(btf_layout_of(btf, "no_such_struct_xyz", &l, err, sizeof(err)) == -1 &&
	   strstr(err, "no struct no_such_struct_xyz") && l.n == 0, "unknown struct: %s", err);
	btf_layout_close(btf);
	ok(!btf_layout_open("/nonexistent/btf", err, sizeof(err)) && strstr(err, "/nonexistent/btf"),
	   "a missing BTF file: %s", err);
}

int main(void)
{
	test_plans();
	test_argv();
	test_quoting();
	test_fake_tracefs();
	test_probes();
	test_btf();
	return tap_done();
}
