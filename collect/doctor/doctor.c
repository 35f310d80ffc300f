/* perfdb doctor's checks: what perfdb record can use on this machine, and
 * why not (doctor.h). One row per check (check, status, detail): perf (path, version),
 * perf_event_paranoid, tracefs, each recipe's events present or missing,
 * the PMU's cycles, memory-sampling events, hardware breakpoints (the
 * watch recipe: one opened, and fired on a variable of perfdb's), BTF
 * (/sys/kernel/btf/vmlinux), kallsyms, whether flush IPIs can be seen (a
 * short live probe, flush_probe.h) and the Debian packages perfdb uses
 * (to run, build, test); status is ok, partial or no. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "collect/layout/btf_layout.h"
#include "collect/doctor/debian_packages.h"
#include "collect/recipes.h"
#include "collect/doctor/doctor.h"
#include "collect/record/watch_spec.h"
#include "collect/record/flush_probe.h"
#include "lib/kallsyms.h"
#include "lib/alloc.h"
#include "lib/strbuf.h"

/* The report under construction. */
struct checkup {
	struct table *t;
	int ccheck, cstatus, cdetail;
	char perf[PATH_MAX];	/* perf's path, "" when not found */
	char tracefs[PATH_MAX];	/* tracefs mount, "" when none */
	bool cycles;
};

/* row: one line of the report. */
static void row(struct checkup *d, const char *check, const char *status, const char *detail)
{
	table_add_row(d->t);
	table_set_str(d->t, d->ccheck, check);
	table_set_str(d->t, d->cstatus, status);
	table_set_str(d->t, d->cdetail, detail);
}

/* check_perf: perf's path and version. */
static void check_perf(struct checkup *d)
{
	char out[512], detail[PATH_MAX + 600];
	int e = find_program(perf_program(), d->perf, sizeof(d->perf)), ws;
	if (e) {
		snprintf(detail, sizeof(detail), "%s: %s", perf_program(), strerror(e));
		d->perf[0] = 0;
		row(d, "perf", "no", detail);
		return;
	}
	char *argv[] = { d->perf, "version", NULL };
	if (run_capture(argv, out, sizeof(out), &ws) || !WIFEXITED(ws) || WEXITSTATUS(ws))
		snprintf(out, sizeof(out), "'perf version' failed");
	out[strcspn(out, "\n")] = 0;
	snprintf(detail, sizeof(detail), "%s, %s", d->perf, out);
	row(d, "perf", "ok", detail);
}

/* paranoid_meaning: what a perf_event_paranoid value allows the unprivileged. */
static const char *paranoid_meaning(int v)
{
	return v <= -1 ? "no restrictions" :
	       v == 0 ? "unprivileged: CPU-wide events, no raw tracepoint data" :
	       v == 1 ? "unprivileged: user and kernel profiling of own tasks" :
	       v == 2 ? "unprivileged: user-space profiling of own tasks only" :
			"unprivileged: no perf_event_open at all";
}

/* check_paranoid: kernel.perf_event_paranoid and who we are. */
static void check_paranoid(struct checkup *d)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	char detail[256];
	int v = 0, root = geteuid() == 0, got = f && fscanf(f, "%d", &v) == 1;
	if (f)
		fclose(f);
	if (!got) {
		row(d, "perf_event_paranoid", "no", "/proc/sys/kernel/perf_event_paranoid unreadable");
		return;
	}
	snprintf(detail, sizeof(detail), "%d (%s); %s", v, paranoid_meaning(v),
		 root ? "running as root: not limited" : "not root: system-wide recipes need -1 or CAP_PERFMON");
	row(d, "perf_event_paranoid", root || v <= -1 ? "ok" : v <= 1 ? "partial" : "no", detail);
}

/* check_tracefs: where tracefs is mounted. */
static void check_tracefs(struct checkup *d)
{
	char detail[PATH_MAX + 64];
	if (!tracefs_mount(d->tracefs, sizeof(d->tracefs))) {
		d->tracefs[0] = 0;
		row(d, "tracefs", "partial", "not mounted: perfdb record mounts it on "
		    "/sys/kernel/tracing, as root (by hand: mount -t tracefs nodev /sys/kernel/tracing)");
		return;
	}
	snprintf(detail, sizeof(detail), "%s%s", d->tracefs,
		 tracepoint_exists(d->tracefs, "sched:sched_switch") < 0 ? " (not readable)" : "");
	row(d, "tracefs", "ok", detail);
}

/* events_detail: "N/M events present[; missing: a, b]" for a list; returns
 * how many are missing (all of them without tracefs). */
static size_t events_detail(const struct checkup *d, const char *const *ev, char *buf, size_t len)
{
	size_t n = 0, miss = 0, used;
	char missing[2048] = "";
	for (; ev[n]; n++) {
		if (d->tracefs[0] && tracepoint_exists(d->tracefs, ev[n]) != 0)
			continue;
		used = strlen(missing);
		snprintf(missing + used, sizeof(missing) - used, "%s%s", miss ? ", " : "", ev[n]);
		miss++;
	}
	snprintf(buf, len, "%zu/%zu events present%s%s", n - miss, n, miss ? "; missing: " : "", missing);
	return miss;
}

/* check_tracepoint_recipes: sched and tlb, event by event. */
static void check_tracepoint_recipes(struct checkup *d)
{
	static const unsigned bits[] = { RECIPE_SCHED, RECIPE_TLB };
	char check[32], detail[2200];
	for (size_t i = 0; i < 2; i++) {
		const char *const *ev = recipe_events(bits[i]);
		size_t n = 0, miss = events_detail(d, ev, detail, sizeof(detail));
		while (ev[n])
			n++;
		snprintf(check, sizeof(check), "recipe %s", recipe_name(bits[i]));
		row(d, check, !miss ? "ok" : miss < n ? "partial" : "no", detail);
	}
}

/* How long the flush-IPI probe drops pages, seconds. */
#define FLUSH_PROBE_S 0.1

/* flush_no_ipi_words(b): the flush functions /proc/kallsyms has that may
 * flush without IPIs, as a clause, into b (nothing when none or unreadable). */
static void flush_no_ipi_words(struct strbuf *b)
{
	size_t len = 0;
	char *text = kallsyms_read("/proc/kallsyms", &len);
	struct ksym_names n = { 0 };
	if (text && kallsyms_flush_no_ipi(text, len, &n)) {
		sb_puts(b, "; it has ");
		kallsyms_flush_no_ipi_words(&n, b);
	}
	ksym_names_free(&n);
	free(text);
}

/* check_flush_ipis: whether TLB-flush IPIs can be seen here (perfdb ipis
 * counts them): a short live probe of page drops beside a spinning thread
 * of the same process (collect/record/flush_probe.h). */
static void check_flush_ipis(struct checkup *d)
{
	struct flush_probe p;
	struct strbuf b = STRBUF_INIT;
	char why[512] = "";
	enum flush_seen v = flush_probe_run(d->tracefs, FLUSH_PROBE_S, &p, why, sizeof(why));
	for (int again = 0; again < 2 && v == FLUSH_IPIS_UNTOLD && p.drops; again++)	/* a busy machine */
		v = flush_probe_run(d->tracefs, FLUSH_PROBE_S, &p, why, sizeof(why));
	if (v == FLUSH_IPIS_UNTOLD) {
		sb_printf(&b, "cannot be checked: %s", why);
		row(d, "flush IPIs", "partial", sb_str(&b));
		sb_free(&b);
		return;
	}
	sb_printf(&b, "%s: %.2f s of page drops on CPU %d while a thread of the same mm spun on CPU %d "
		  "(%.0f%% of the time): %lld flush attempts (tlb_flush reason 4), %lld IPIs sent, %lld "
		  "flushes received by IPI on CPU %d (tlb_flush reason 1)", v == FLUSH_IPIS_SEEN ? "seen" :
		  "not seen", p.seconds, p.sender, p.target, p.seconds > 0 ? 100 * p.ran / p.seconds : 0.0,
		  p.attempts, p.sends, p.received, p.target);
	if (v == FLUSH_IPIS_NOT_SEEN) {
		sb_puts(&b, ": this kernel flushes other CPUs' TLBs without IPIs");
		flush_no_ipi_words(&b);
		sb_puts(&b, "; perfdb ipis cannot count flush IPIs here (it warns so)");
	}
	row(d, "flush IPIs", v == FLUSH_IPIS_SEEN ? "ok" : "no", sb_str(&b));
	sb_free(&b);
}

/* check_profile: which event profile samples. */
static void check_profile(struct checkup *d)
{
	char why[256], detail[512];
	d->cycles = pmu_has_cycles(why, sizeof(why));
	if (d->cycles)
		row(d, "recipe profile", "ok", "cycles, -F 999 -g");
	else {
		snprintf(detail, sizeof(detail), "cpu-clock, -F 999 -g (no PMU cycles: %s)", why);
		row(d, "recipe profile", "partial", detail);
	}
	row(d, "PMU cycles", d->cycles ? "ok" : "no", why);
}

/* check_c2c: memory-sampling events (perf's answer and sysfs) and c2c's
 * tracepoints. */
static void check_c2c(struct checkup *d)
{
	char why[512], sysfs[256], tps[2200], detail[3200];
	int mem = d->perf[0] ? mem_events_probe(d->perf, why, sizeof(why)) : -1;
	if (!d->perf[0])
		snprintf(why, sizeof(why), "perf not found");
	mem_events_sysfs(sysfs, sizeof(sysfs));
	snprintf(detail, sizeof(detail), "perf: %s; sysfs: %s", why,
		 *sysfs ? sysfs : "no mem-loads, ibs_op or arm_spe PMU");
	row(d, "memory events", mem == 1 ? "ok" : "no", detail);
	events_detail(d, recipe_events(RECIPE_C2C), tps, sizeof(tps));
	if (mem == 1)
		snprintf(detail, sizeof(detail), "perf c2c record; tracepoints %s", tps);
	else
		snprintf(detail, sizeof(detail), "no memory events (%s); use -r watch; tracepoints %s",
			 why, tps);
	row(d, "recipe c2c", mem == 1 ? "ok" : "no", detail);
}

/* check_btf: the kernel's BTF and mm_struct in it. */
static void check_btf(struct checkup *d)
{
	char err[512], detail[700];
	struct layout l;
	struct btf *btf;
	if (access("/sys/kernel/btf/vmlinux", R_OK)) {
		snprintf(detail, sizeof(detail), "/sys/kernel/btf/vmlinux: %s (CONFIG_DEBUG_INFO_BTF)",
			 strerror(errno));
		row(d, "BTF", "no", detail);
		return;
	}
	if (!(btf = btf_layout_open(NULL, err, sizeof(err)))) {
		row(d, "BTF", "no", err);
		return;
	}
	if (btf_layout_of(btf, "mm_struct", &l, err, sizeof(err)))
		row(d, "BTF", "partial", err);
	else {
		snprintf(detail, sizeof(detail), "/sys/kernel/btf/vmlinux; struct mm_struct: %lld bytes, "
			 "%zu members flattened", (long long)l.m[0].size, l.n - 1);
		row(d, "BTF", "ok", detail);
		btf_layout_free(&l);
	}
	btf_layout_close(btf);
}

/* check_kallsyms: /proc/kallsyms readable with real addresses. */
static void check_kallsyms(struct checkup *d)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[512], detail[256];
	long n = 0, nonzero = 0;
	if (!f) {
		snprintf(detail, sizeof(detail), "/proc/kallsyms: %s", strerror(errno));
		row(d, "kallsyms", "no", detail);
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		n++;
		if (strtoull(line, NULL, 16))
			nonzero++;
	}
	fclose(f);
	if (nonzero)
		snprintf(detail, sizeof(detail), "%ld symbols, %ld with addresses", n, nonzero);
	else
		snprintf(detail, sizeof(detail), "%ld symbols, all addresses zero (kernel.kptr_restrict; "
			 "run as root)", n);
	row(d, "kallsyms", nonzero ? "ok" : "no", detail);
}

/* check_breakpoints: whether a hardware write-watchpoint can be opened
 * and fires (what `-r watch` needs): the watch recipe's canary probe, a
 * counting watchpoint of this task on a variable of our own, written a
 * known number of times. */
static void check_breakpoints(struct checkup *d)
{
	struct watch_canary c;
	char detail[768], err[512];
	watch_canary_init(&c, NULL, NULL);
	if (watch_canary_probe(&c, err, sizeof(err))) {
		row(d, "recipe watch", "no", err);
		return;
	}
	if (watch_canary_short(&c)) {
		snprintf(detail, sizeof(detail), "hardware watchpoints are accepted but do not fire: "
			 "%lld of %lld writes caught (a watchpoint on a variable of perfdb's own)",
			 c.seen, c.writes);
		row(d, "recipe watch", "no", detail);
		return;
	}
	snprintf(detail, sizeof(detail), "hardware write-watchpoints (mem:ADDR/LEN:w), 4 debug "
		 "registers on x86; one on a variable of perfdb's caught %lld of %lld writes "
		 "(%.1f us a trapped write)", c.seen, c.writes,
		 c.writes ? (double)c.write_ns / 1e3 / (double)c.writes : 0.0);
	row(d, "recipe watch", "ok", detail);
}

/* package_row(d, p, n, role, missing): the row "packages (ROLE)": which
 * of role's packages are missing; each missing one is added to missing. */
static void package_row(struct checkup *d, const struct deb_package *p, int n, const char *role,
			struct strbuf *missing)
{
	struct strbuf names = STRBUF_INIT, detail = STRBUF_INIT;
	int total = 0, absent = 0;
	char check[64];
	for (int i = 0; i < n; i++) {
		if (strcmp(p[i].role, role))
			continue;
		total++;
		if (p[i].installed)
			continue;
		sb_printf(&names, "%s%s", absent++ ? " " : "", p[i].name);
		sb_printf(missing, " %s", p[i].name);
	}
	if (!absent)
		sb_printf(&detail, "all %d installed", total);
	else
		sb_printf(&detail, "%d of %d missing: %s (apt-get install %s)", absent, total,
			  sb_str(&names), sb_str(&names));
	snprintf(check, sizeof(check), "packages (%s)", role);
	row(d, check, !absent ? "ok" : absent < total ? "partial" : "no", sb_str(&detail));
	sb_free(&names);
	sb_free(&detail);
}

/* check_packages(d, out): the Debian packages perfdb uses to run, build
 * and test, one row each, and a note with the apt-get line that installs
 * all that is missing. */
static void check_packages(struct checkup *d, struct doc *out)
{
	enum { MAXPKG = 128 };
	struct deb_package *p = xcalloc(MAXPKG, sizeof(*p));
	struct strbuf missing = STRBUF_INIT;
	char why[512];
	int n = deb_packages(p, MAXPKG, why, sizeof(why));
	if (n < 0) {
		row(d, "packages", "no", why);
	} else {
		package_row(d, p, n, "run", &missing);
		package_row(d, p, n, "build", &missing);
		package_row(d, p, n, "test", &missing);
		if (missing.len)
			doc_note(out, "to install the Debian packages perfdb uses that are missing: "
				 "apt-get install -y%s", sb_str(&missing));
	}
	sb_free(&missing);
	free(p);
}

/* doctor_findings: see doctor.h. */
void doctor_findings(struct doc *out)
{
	struct checkup d = { .t = table_new("checks", "What perfdb record can use here") };
	d.ccheck = table_col(d.t, "check", COL_STR, 0);
	d.cstatus = table_col(d.t, "status", COL_STR, 0);
	d.cdetail = table_col(d.t, "detail", COL_STR, 0);
	check_perf(&d);
	check_paranoid(&d);
	check_tracefs(&d);
	check_tracepoint_recipes(&d);
	check_flush_ipis(&d);
	check_profile(&d);
	check_c2c(&d);
	check_breakpoints(&d);
	check_btf(&d);
	check_kallsyms(&d);
	check_packages(&d, out);
	dv_table(doc_findings(out), d.t);
}
