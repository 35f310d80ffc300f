/*
 * cgdiff_work: the test program of `perfdb cgdiff`, built in two variants
 * from this one file (tests/integration/cgdiff.sh builds both with cc):
 *
 *   cc -O0 -g -fno-omit-frame-pointer -o a/cgdiffwork cgdiff_work.c
 *   cc -O0 -g -fno-omit-frame-pointer -DVARIANT_B -o b/cgdiffwork cgdiff_work.c
 *   cc -O0 -g -fno-omit-frame-pointer -DVARIANT_HALF -o h/cgdiffwork cgdiff_work.c
 *
 * (-O0: gcc 12 at -O1 and above leaves leaf functions without a frame
 * pointer, so perf's frame-pointer unwinding would skip their callers.)
 *
 * For --seconds S (default 1) of CPU time, main() -> run() repeats one
 * cycle of five equal units of CPU work: work_a(), work_b(), work_c(),
 * helper() and recurse(3), which calls itself down to depth 0 and does its
 * unit there. (CPU time, so that a busy machine delays the run rather than
 * thinning its cpu-clock samples: about 999 a second at -F 999.)
 * Variant A gives each 20% of the time. Variant B makes work_b() three
 * times slower (3 units), so B's shares are work_b 3/7 = 42.9% and 1/7 =
 * 14.3% for each other one: work_b is the function cgdiff must point at.
 *
 * Variant H (VARIANT_HALF) does half of work_a()'s unit and the same work
 * elsewhere: with --cycles N (a fixed number of cycles instead of a time)
 * each run of H does the same work as A's but half of work_a's, so work_a
 * shrinks in absolute terms (cgdiff --per run) while every other share
 * grows (20% -> 22.2%).
 *
 * helper() carries a compiler clone suffix in its symbol name,
 * helper.constprop.0 in A and helper.isra.0 in B, so the two builds only
 * match when frames are keyed by normalized names. Both binaries should be
 * given the same file name (comm) so one --comm selects either.
 *
 * Output: "cycles=N seconds=S variant=A|B|H" and the metric line
 * "metric=cgdiffwork_cycles value=N unit=ops" (as perfdb record and bench
 * read it) on stdout. Exit 0 ok, 1 usage error.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime with -std=c11 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(VARIANT_B)
#define VARIANT "B"
#define B_UNITS 3
#define A_HALVES 2
#define HELPER_SYM "helper.isra.0"
#elif defined(VARIANT_HALF)
#define VARIANT "H"
#define B_UNITS 1
#define A_HALVES 1
#define HELPER_SYM "helper.isra.0"
#else
#define VARIANT "A"
#define B_UNITS 1
#define A_HALVES 2
#define HELPER_SYM "helper.constprop.0"
#endif

/* One unit of work: about 10 microseconds of additions. */
#define UNIT 8000UL

static volatile unsigned long sink;

/* spin_half(halves): burns halves half-units of CPU time in the calling
 * function's frame; spin(units): whole units. */
static inline __attribute__((always_inline)) void spin_half(unsigned long halves)
{
	for (unsigned long i = 0; i < halves * (UNIT / 2); i++)
		sink += i;
}
#define spin(units) spin_half(2 * (units))

/* work_a / work_b / work_c: one unit each, work_b B_UNITS units, work_a
 * half a unit in variant H. */
__attribute__((noinline)) void work_a(void)
{
	spin_half(A_HALVES);
}

__attribute__((noinline)) void work_b(void)
{
	spin(B_UNITS);
}

__attribute__((noinline)) void work_c(void)
{
	spin(1);
}

/* helper: one unit, under a clone-suffixed symbol name (see the top). */
void helper(void) __asm__(HELPER_SYM);
__attribute__((noinline)) void helper(void)
{
	spin(1);
}

/* recurse(depth): calls itself depth times, then does one unit. */
__attribute__((noinline)) void recurse(int depth)
{
	if (depth > 0)
		recurse(depth - 1);
	else
		spin(1);
	sink += (unsigned long)depth;	/* not a tail call: keeps every frame */
}

/* now_s: the process's CPU time in seconds. */
static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* run(seconds, cycles): repeats the cycle for seconds of CPU time, or
 * exactly cycles times when cycles > 0; returns the cycle count. */
__attribute__((noinline)) unsigned long run(double seconds, unsigned long cycles)
{
	double end = now_s() + seconds;
	unsigned long n = 0;
	do {
		for (int i = 0; i < 128 && (!cycles || n < cycles); i++, n++) {	/* about 2 ms */
			work_a();
			work_b();
			work_c();
			helper();
			recurse(3);
		}
	} while (cycles ? n < cycles : now_s() < end);
	return n;
}

/* main: parses --seconds or --cycles, runs the cycle, prints the result
 * lines. */
int main(int argc, char **argv)
{
	double seconds = 1, cycles = 0;
	unsigned long n;
	char *end;
	int good = argc == 1;
	if (argc == 2 && !strcmp(argv[1], "--help")) {
		printf("Usage: cgdiffwork [--seconds S | --cycles N]\n");
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "--seconds")) {
		seconds = strtod(argv[2], &end);
		good = !*end && seconds > 0 && seconds <= 600;
	}
	if (argc == 3 && !strcmp(argv[1], "--cycles")) {
		cycles = strtod(argv[2], &end);
		good = !*end && cycles >= 1 && cycles <= 1e9 && cycles == (double)(unsigned long)cycles;
	}
	if (!good) {
		fprintf(stderr, "Usage: cgdiffwork [--seconds S | --cycles N]\n");
		return 1;
	}
	n = run(seconds, (unsigned long)cycles);
	printf("cycles=%lu seconds=%g variant=%s\n", n, cycles ? 0 : seconds, VARIANT);
	printf("metric=cgdiffwork_cycles value=%lu unit=ops\n", n);
	return 0;
}
