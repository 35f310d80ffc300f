/* Unit tests of the machine's pulse and load (collect/pulse.c: parsing
 * /proc/stat, the load between two readings) and of the comparison of two
 * sides' machines (analyze/bench/machine.c): when the machine changed, which way,
 * and which changes of a comparison it could explain, on hand-built sides
 * whose answers follow from the definitions in machine.h; plus one real
 * probe of this machine (its rates are positive and finite). */
#include <math.h>
#include <stdlib.h>
#include "analyze/bench/machine.h"
#include "collect/pulse.h"
#include "tests/unit/tap.h"

/* side(s, ints, mems, caps, n): a side of n probes and n runs (each run
 * one CPU second, caps[k] of it left to the workload). */
static void side(struct machine_side *s, const double *ints, const double *mems, const double *caps,
		 size_t n)
{
	const double *src[MI_N] = { ints, mems, caps };
	for (int i = 0; i < MI_N; i++) {
		s->v[i] = calloc(n + 1, sizeof(double));
		s->n[i] = src[i] ? n : 0;
		for (size_t k = 0; src[i] && k < n; k++)
			s->v[i][k] = src[i][k];
	}
	s->runs = n;
	s->taken = s->capacity = s->tick_var = 0;
	for (size_t k = 0; caps && k < n; k++) {
		s->taken += 1 - caps[k];
		s->capacity += 1;
		s->tick_var += MACHINE_TICK_S * MACHINE_TICK_S;
	}
}

/* cmp(a, b, m): compares and frees both sides. */
static void cmp(struct machine_side *a, struct machine_side *b, struct machine_cmp *m)
{
	machine_compare(a, b, m);
	machine_side_free(a);
	machine_side_free(b);
}

/* iv(lo, hi): an interval. */
static struct interval iv(double lo, double hi)
{
	return (struct interval){ lo, hi };
}

/* test_proc_stat: the aggregate line's busy and steal times. */
static void test_proc_stat(void)
{
	const char *text = "cpu  100 5 50 1000 7 3 2 11 40 0\ncpu0 50 2 25 500 3 1 1 5 20 0\nintr 1 2\n";
	struct cpu_clock c = { 0 };
	ok(!proc_stat_parse(text, 10000000, &c), "/proc/stat: the cpu line parses");
	is_int(c.busy_ns, (100 + 5 + 50 + 3 + 2) * 10000000LL, "busy: user + nice + system + irq + softirq");
	is_int(c.steal_ns, 11 * 10000000LL, "steal: its own column");
	ok(proc_stat_parse("cpu0 1 2 3\n", 10000000, &c) == -1, "no aggregate line: -1");
	ok(proc_stat_parse("intr 5\ncpu  1 2\n", 10000000, &c) == -1, "a short cpu line: -1");
}

/* test_load: what others took between two readings. */
static void test_load(void)
{
	struct cpu_clock a = { 1000, 0, 100, true }, b = { 5000, 0, 600, true };
	struct run_load l;
	run_load_between(&a, &b, &l);
	is_int(l.others_ns, 3500, "others: busy 4000 less ours 500");
	is_int(l.steal_ns, -1, "steal still 0 since boot: unknown");
	b.steal_ns = 40;
	a.steal_ns = 10;
	b.ours_ns = 6000;
	run_load_between(&a, &b, &l);
	is_int(l.others_ns, -1900, "ours above busy (ticks against exact rusage): negative, as measured");
	is_int(l.steal_ns, 30, "steal: the difference");
	a.ok = false;
	run_load_between(&a, &b, &l);
	ok(l.others_ns == INT64_MIN && l.steal_ns == -1, "a failed reading: unknown");
}

/* test_unchanged: the same pulse on both sides. */
static void test_unchanged(void)
{
	double x[] = { 100, 101, 99, 100.5, 99.5 }, y[] = { 100.2, 99.8, 100, 101, 99 };
	struct machine_side a, b;
	struct machine_cmp m;
	side(&a, x, x, NULL, 5);
	side(&b, y, y, NULL, 5);
	cmp(&a, &b, &m);
	ok(m.known && !m.changed && m.dir == 0 && m.band == 0, "same pulse: known, unchanged, no band");
	ok(fabs(m.drift - fmax(fabs(m.ind[MI_INT].ci.lo), fabs(m.ind[MI_INT].ci.hi))) < 1e-9 && m.drift < 2,
	   "its drift: the far end of the integer pulse's interval (%g)", m.drift);
	is_int(machine_explains(&m, 1, iv(-30, -10), true, true), 0, "a change beyond the drift: the kernel's");
	is_int(machine_explains(&m, 1, iv(-1, -0.5), true, true), 2, "one within the drift, tested on runs: drift");
	is_int(machine_explains(&m, 1, iv(0.5, 1), true, true), 2, "... either way");
	is_int(machine_explains(&m, 1, iv(-1, -0.5), true, false), 0, "tested on sittings: the drift is in its interval");
}

/* test_slower: a pulse 20% lower, beyond its noise. */
static void test_slower(void)
{
	double x[] = { 100, 101, 99, 100.5, 99.5 }, y[] = { 80, 81, 79, 80.5, 79.5 };
	struct machine_side a, b;
	struct machine_cmp m;
	side(&a, x, NULL, NULL, 5);
	side(&b, y, NULL, NULL, 5);
	cmp(&a, &b, &m);
	ok(m.changed && m.dir == -1, "20%% lower pulse: changed, slower");
	ok(fabs(m.ind[MI_INT].pct + 20) < 1e-9, "its change is -20%% (%g)", m.ind[MI_INT].pct);
	ok(m.ind[MI_INT].ci.lo < -20 && m.ind[MI_INT].ci.hi > -20, "its interval holds -20%%");
	ok(fabs(m.band - MACHINE_ELASTICITY_PULSE * fabs(m.ind[MI_INT].ci.lo)) < 1e-9,
	   "band: the interval's far end times the pulse's elasticity (%g)", m.band);
	is_int(machine_explains(&m, 1, iv(-30, -10), true, false), 1, "a rate 10-30%% lower: the machine's change");
	is_int(machine_explains(&m, 1, iv(-60, -38), true, true), 0, "a rate 38-60%% lower: beyond band and drift, the kernel's");
	is_int(machine_explains(&m, 1, iv(5, 15), true, false), 0, "a rate higher on a slower machine: not its change");
	is_int(machine_explains(&m, 1, iv(5, 15), true, true), 2, "... though on the runs of one sitting, within its drift");
	is_int(machine_explains(&m, -1, iv(5, 15), true, false), 1, "a time longer on a slower machine: its change");
	is_int(machine_explains(&m, -1, iv(-15, -5), true, false), 0, "a time shorter on a slower machine: not its change");
	ok(machine_explains(&m, 0, iv(5, 15), true, false) == 1 && machine_explains(&m, 0, iv(-15, -5), true, false) == 1,
	   "a metric of unknown direction: either way");
	is_int(machine_explains(&m, 1, iv(-900, -500), false, false), 1, "no percentage (base 0): any change it pushes");
	is_int(machine_explains(&m, 1, iv(-900, -500), false, true), 1, "... on runs too (drift has no unit to compare)");
	is_int(machine_explains(&m, 1, iv(NAN, NAN), true, true), 0, "no interval: nothing to explain");
}

/* test_small: a significant change below MACHINE_MIN_PCT. */
static void test_small(void)
{
	double x[] = { 100, 100.1, 99.9, 100, 100.05 }, y[] = { 99, 99.1, 98.9, 99, 99.05 };
	struct machine_side a, b;
	struct machine_cmp m;
	side(&a, x, NULL, NULL, 5);
	side(&b, y, NULL, NULL, 5);
	cmp(&a, &b, &m);
	ok(stats_excludes(m.ind[MI_INT].ci, 0), "a 1%% change with little noise is beyond it");
	ok(!m.changed, "but below %g%%: the machine did not change", MACHINE_MIN_PCT);
}

/* test_single: one probe a side, no interval. */
static void test_single(void)
{
	double x[] = { 100 }, y1[] = { 92 }, y2[] = { 88 };
	struct machine_side a, b;
	struct machine_cmp m;
	side(&a, x, NULL, NULL, 1);
	side(&b, y1, NULL, NULL, 1);
	cmp(&a, &b, &m);
	ok(!m.changed && isnan(m.ind[MI_INT].ci.lo), "one probe a side, 8%% apart: no interval, not changed");
	side(&a, x, NULL, NULL, 1);
	side(&b, y2, NULL, NULL, 1);
	cmp(&a, &b, &m);
	ok(m.changed && m.dir == -1 && fabs(m.band - 12) < 1e-9, "12%% apart: changed, band 12%% (%g)", m.band);
}

/* test_mixed: one loop faster, the capacity lower. */
static void test_mixed(void)
{
	double x[] = { 100, 101, 99, 100.5, 99.5 }, y[] = { 110, 111, 109, 110.5, 109.5 };
	double c0[] = { 0.99, 0.98, 0.99, 0.985, 0.99 }, c1[] = { 0.5, 0.52, 0.48, 0.5, 0.51 };
	struct machine_side a, b;
	struct machine_cmp m;
	side(&a, x, NULL, c0, 5);
	side(&b, y, NULL, c1, 5);
	cmp(&a, &b, &m);
	ok(m.changed && m.dir == 0, "faster loops, half the CPU left: changed, both ways");
	ok(m.ind[MI_CAP].changed && m.ind[MI_CAP].pct < -45, "the capacity's change is about -49%% (%g)",
	   m.ind[MI_CAP].pct);
	ok(fabs(m.band - MACHINE_ELASTICITY_LOAD * fabs(m.ind[MI_CAP].ci.lo)) < 1e-9,
	   "band: twice the CPU left's far end (%g)", m.band);
	ok(machine_explains(&m, 1, iv(5, 15), true, false) == 1 && machine_explains(&m, 1, iv(-15, -5), true, false) == 1,
	   "both ways: any direction within the band");
	ok(fabs(m.busy[0] - 1.3) < 1e-9 && fabs(m.busy[1] - 49.8) < 1e-9, "busy: 1.3%% and 49.8%% of the CPUs taken (%g, %g)",
	   m.busy[0], m.busy[1]);
	ok(m.busy_any, "a side at %g%% or more is busy", MACHINE_BUSY_PCT);
}

/* test_busy: both sides equally busy: no change, but busy. */
static void test_busy(void)
{
	double c0[] = { 0.85, 0.86, 0.84 }, c1[] = { 0.95, 0.96, 0.95 };
	struct machine_side a, b;
	struct machine_cmp m;
	side(&a, NULL, NULL, c0, 3);
	side(&b, NULL, NULL, c0, 3);
	cmp(&a, &b, &m);
	ok(!m.changed && m.busy_any, "15%% of the CPUs taken on both sides: unchanged, busy");
	is_int(machine_explains(&m, 1, iv(-28, -20), true, true), 3, "a change within twice the share taken, on runs: busy");
	is_int(machine_explains(&m, 1, iv(-60, -35), true, true), 0, "one beyond it: the kernel's");
	is_int(machine_explains(&m, 1, iv(-28, -20), true, false), 0, "tested on sittings: their means carry the load");
	is_int(machine_explains(&m, 1, iv(-9e9, -1e9), false, true), 3, "no percentage, on runs: busy");
	side(&a, NULL, NULL, c1, 3);
	side(&b, NULL, NULL, c1, 3);
	cmp(&a, &b, &m);
	ok(!m.busy_any, "under %g%% taken: not busy (%g)", MACHINE_BUSY_PCT, m.busy[0]);
	side(&a, NULL, NULL, c0, 3);
	side(&b, NULL, NULL, c0, 3);
	a.taken = b.taken = 0.015;	/* 15% of 3 runs of 33 ms of one CPU: within the ticks */
	a.capacity = b.capacity = 0.1;
	cmp(&a, &b, &m);
	ok(!m.busy_any, "15%% of 0.1 s taken, within what 3 runs' ticks can count: not busy");
}

/* test_edges: each threshold at its value (a change of exactly
 * MACHINE_MIN_PCT beyond the noise, or MACHINE_SINGLE_PCT with one probe,
 * is one; a side at exactly MACHINE_BUSY_PCT is busy), the interval of a
 * positive quantity bounded at -100%, the drift of the integer pulse
 * alone, and a busy machine judged by the busier side. */
static void test_edges(void)
{
	double x[] = { 99, 100, 101, 100, 100 }, y[] = { 101, 102, 103, 102, 102 };
	double one[] = { 100 }, ninety[] = { 90 };
	double fall[] = { 1, 50, 2 }, flat[] = { 100, 101, 99 }, caps[] = { 0.9, 0.9, 0.9 };
	double quiet[] = { 100, 101, 99, 100.5, 99.5 }, loud_a[] = { 10, 20, 5, 15, 10 }, loud_b[] = { 12, 4, 18, 9, 11 };
	struct machine_side a, b;
	struct machine_cmp m;
	side(&a, x, NULL, NULL, 5);
	side(&b, y, NULL, NULL, 5);
	cmp(&a, &b, &m);
	ok(m.ind[MI_INT].pct == 2 && m.changed, "exactly %g%% beyond the noise: changed", MACHINE_MIN_PCT);
	side(&a, one, NULL, NULL, 1);
	side(&b, ninety, NULL, NULL, 1);
	cmp(&a, &b, &m);
	ok(m.ind[MI_INT].pct == -10 && m.changed, "one probe a side, exactly %g%% apart: changed", MACHINE_SINGLE_PCT);
	side(&a, flat, NULL, NULL, 3);
	side(&b, fall, NULL, NULL, 3);
	cmp(&a, &b, &m);
	ok(m.ind[MI_INT].ci.lo == -100 && m.ind[MI_INT].ci.hi > -100, "a pulse falls by 100%% at most: the interval "
	   "stops at -100%% (%g..%g)", m.ind[MI_INT].ci.lo, m.ind[MI_INT].ci.hi);
	side(&a, quiet, loud_a, NULL, 5);
	side(&b, quiet, loud_b, NULL, 5);
	cmp(&a, &b, &m);
	ok(!m.changed && fabs(m.drift - fmax(fabs(m.ind[MI_INT].ci.lo), fabs(m.ind[MI_INT].ci.hi))) < 1e-12 &&
	   m.drift < 2 && fmax(fabs(m.ind[MI_MEM].ci.lo), fabs(m.ind[MI_MEM].ci.hi)) > 20,
	   "the drift is the integer pulse's (%g%%), however noisy the memory stream", m.drift);
	side(&a, NULL, NULL, caps, 3);
	side(&b, NULL, NULL, caps, 3);
	a.taken = 0.5, a.capacity = 5;	/* exactly 10% */
	b.taken = 0, b.capacity = 5;
	cmp(&a, &b, &m);
	ok(m.busy[0] == MACHINE_BUSY_PCT && m.busy_any, "exactly %g%% of the CPUs taken: busy", MACHINE_BUSY_PCT);
	side(&a, NULL, NULL, caps, 3);
	side(&b, NULL, NULL, caps, 3);
	a.taken = 0.75, a.capacity = 5;	/* 15% */
	b.taken = 2, b.capacity = 5;	/* 40% */
	cmp(&a, &b, &m);
	is_int(machine_explains(&m, 1, iv(50, 60), true, true), 3,
	       "busy sides (15%%, 40%%): a change within twice the larger share (80%%) is the load's");
}

/* test_unknown: sides without pulse or load. */
static void test_unknown(void)
{
	struct machine_side a, b;
	struct machine_cmp m;
	side(&a, NULL, NULL, NULL, 3);
	side(&b, NULL, NULL, NULL, 3);
	cmp(&a, &b, &m);
	ok(!m.known && !m.changed, "no pulse, no load: unknown, not changed");
}

/* test_probe: a real probe. */
static void test_probe(void)
{
	struct pulse_probe *p = pulse_probe_new();
	struct pulse x = { NAN, NAN };
	if (!ok(p != NULL, "a probe can be made"))
		return;
	ok(pulse_probe_cpus(p) >= 1 && pulse_probe_cpus(p) <= PULSE_MAX_CPUS, "it runs on 1..%d CPUs",
	   PULSE_MAX_CPUS);
	ok(!pulse_measure(p, &x) && x.int_rate > 0 && isfinite(x.int_rate) && x.mem_rate > 0 &&
	   isfinite(x.mem_rate), "it measures positive rates (%.1f M/s, %.2f GB/s)", x.int_rate, x.mem_rate);
	pulse_probe_free(p);
}

int main(void)
{
	test_proc_stat();
	test_load();
	test_unchanged();
	test_slower();
	test_small();
	test_single();
	test_mixed();
	test_busy();
	test_edges();
	test_unknown();
	test_probe();
	printf("1..%d\n", tap_n);
	return tap_failed != 0;
}
