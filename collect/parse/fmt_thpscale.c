/* --parse thpscale: the output of mmtests' thpscale (thpscale NR_THREADS
 * MAPSIZE WORKFILE MADV_HUGEPAGE), which ends with a line per fault of
 * its second mapping, "fault THREAD huge|base USEC SEC.USEC LOCALITY":
 * USEC, the time to fault in and fill one huge page's worth, is a sample
 * of fault-KIND-N and of fault-both-N (N threads), as mmtests'
 * ExtractThpscale reads them. N is the command's NR_THREADS, else the
 * "Running with N threads" line's; with MAPSIZE known, a cut output (fewer
 * fault lines than it makes) fails the run. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "collect/parse/parse_int.h"
#include "lib/alloc.h"

#define MAX_THREADS 1000000
#define HPAGE (2u << 20)		/* thpscale's HPAGESIZE */
#define MAX_USEC 86400000000ULL		/* a day: more is a clock that stepped back */

struct thp_state {
	uint64_t threads;		/* N; 0 while unknown */
	bool from_argv;			/* N is the command's */
	uint64_t want;			/* the fault lines MAPSIZE makes; 0 unknown */
	uint64_t faults;		/* fault lines read */
};

/* whole_u64(s, v): s is exactly a decimal number (into *v). */
static bool whole_u64(const char *s, uint64_t *v)
{
	const char *p = parse_u64(s, v);
	return p && !*p;
}

/* take_argv(argv, t, err, errlen): N and the fault lines MAPSIZE makes
 * (as thpscale's main computes its pages per thread) from the first
 * "thpscale" argv runs, into t; -1 with why in err when its NR_THREADS
 * is not 1..MAX_THREADS. */
static int take_argv(char *const argv[], struct thp_state *t, char *err, size_t errlen)
{
	size_t i = 0;
	uint64_t size;
	char b[64];
	while (argv[i] && strcmp(strrchr(argv[i], '/') ? strrchr(argv[i], '/') + 1 : argv[i], "thpscale"))
		i++;
	if (!argv[i] || !argv[i + 1])
		return 0;
	if (!whole_u64(argv[i + 1], &t->threads) || t->threads < 1 || t->threads > MAX_THREADS) {
		snprintf(err, errlen, "--parse thpscale: NR_THREADS '%s' is not a thread count (1..%d)",
			 parse_shown(b, sizeof(b), argv[i + 1]), MAX_THREADS);
		return -1;
	}
	t->from_argv = true;
	if (argv[i + 2] && whole_u64(argv[i + 2], &size))
		t->want = size / t->threads / HPAGE / 2 * t->threads;
	return 0;
}

/* start: N (and the fault lines to come) from the command when it runs
 * thpscale; NULL with why in err on a bad NR_THREADS. */
static void *start(const char *arg, char *const argv[], char *err, size_t errlen)
{
	struct thp_state *t = xcalloc(1, sizeof(*t));
	(void)arg;
	if (argv && take_argv(argv, t, err, errlen) < 0) {
		free(t);
		return NULL;
	}
	return t;
}

/* running(t, s, out): "Running with N thread(s)": N, when the command
 * did not say it; a different one fails out. */
static void running(struct thp_state *t, const char *s, struct parse_result *out)
{
	uint64_t n;
	const char *p = parse_u64(s + 13, &n);
	char b[64];
	if (!p || strncmp(p, " thread", 7) || !(p[7] == 's' || p[7] == ' ') || !parse_at_end(p + 8) || n < 1 ||
	    n > MAX_THREADS) {
		parse_fail(out, "thpscale: '%s' is not Running with N threads (1..%d)", parse_shown(b, sizeof(b), s),
			   MAX_THREADS);
		return;
	}
	if (t->from_argv && n != t->threads)
		parse_fail(out, "thpscale: the output runs %llu threads, the command %llu", (unsigned long long)n,
			   (unsigned long long)t->threads);
	t->threads = n;
}

/* blanks(p): past the blanks at p (thpscale pads USEC to 12 columns). */
static const char *blanks(const char *p)
{
	return p + strspn(p, " \t");
}

struct fault {
	uint64_t thread, usec;
	bool huge;
};

/* take_fault(s, f): "fault THREAD huge|base USEC SEC.USEC LOCALITY"
 * (blanks between) into f; false when s is not all of one. */
static bool take_fault(const char *s, struct fault *f)
{
	uint64_t sec, frac;
	const char *p = parse_u64(blanks(s + 5), &f->thread);
	if (!p || (*p != ' ' && *p != '\t'))
		return false;
	p = blanks(p);
	f->huge = !strncmp(p, "huge", 4);
	if (!f->huge && strncmp(p, "base", 4))
		return false;
	if (p[4] != ' ' && p[4] != '\t')
		return false;
	if (!(p = parse_u64(blanks(p + 4), &f->usec)) || (*p != ' ' && *p != '\t'))
		return false;
	if (!(p = parse_u64(blanks(p), &sec)) || *p != '.' || !(p = parse_u64(p + 1, &frac)))
		return false;
	if (*p != ' ' && *p != '\t')
		return false;
	p = blanks(p);
	if (!strncmp(p, "-1", 2))
		p += 2;
	else if (*p == '0' || *p == '1')
		p++;
	else
		return false;
	return parse_at_end(p);
}

/* fault(t, s, out): a fault line: its latency, a sample of its kind's
 * distribution and of both's. */
static void fault(struct thp_state *t, const char *s, struct parse_result *out)
{
	struct fault f;
	char b[64], name[64];
	if (!take_fault(s, &f) || f.usec > MAX_USEC) {
		parse_fail(out, "thpscale: '%s' is not fault THREAD huge|base USEC SEC.USEC LOCALITY "
			   "(USEC up to a day)", parse_shown(b, sizeof(b), s));
		return;
	}
	if (!t->threads) {
		parse_fail(out, "thpscale: a fault line, and no thread count (no thpscale NR_THREADS in the "
			   "command, no Running with line before it)");
		return;
	}
	if (f.thread >= t->threads) {
		parse_fail(out, "thpscale: a fault of thread %llu, of %llu threads", (unsigned long long)f.thread,
			   (unsigned long long)t->threads);
		return;
	}
	t->faults++;
	snprintf(name, sizeof(name), "fault-%s-%llu", f.huge ? "huge" : "base", (unsigned long long)t->threads);
	parse_sample(out, name, (double)f.usec, "us", BETTER_LOWER, s);
	snprintf(name, sizeof(name), "fault-both-%llu", (unsigned long long)t->threads);
	parse_sample(out, name, (double)f.usec, "us", BETTER_LOWER, s);
}

/* line: the Running and fault lines; every line is the workload's own
 * (it shows as it was). */
static int line(void *state, const char *s, struct parse_result *out)
{
	struct thp_state *t = state;
	if (!strncmp(s, "fault", 5) && (s[5] == ' ' || s[5] == '\t'))
		fault(t, s, out);
	else if (!strncmp(s, "Running with ", 13))
		running(t, s, out);
	return 0;
}

/* end: no fault line, or fewer or more than MAPSIZE makes, fails out. */
static void end(void *state, const struct parse_usage *u, struct parse_result *out)
{
	struct thp_state *t = state;
	(void)u;
	if (!t->faults)
		parse_fail(out, "thpscale: no fault line in the output");
	else if (t->want && t->faults != t->want)
		parse_fail(out, "thpscale: %llu fault lines, where NR_THREADS and MAPSIZE make %llu (a cut output?)",
			   (unsigned long long)t->faults, (unsigned long long)t->want);
}

const struct parse_format parse_fmt_thpscale = {
	.name = "thpscale",
	.summary = "mmtests' thpscale NR_THREADS MAPSIZE FILE MADV: a line per fault, "
		   "fault THREAD huge|base USEC ...",
	.metrics = "samples fault-base-N, fault-huge-N, fault-both-N (us, lower: each fault's latency by its "
		   "kind, and every fault; N the thread count; a kind without a fault has none)",
	.start = start,
	.line = line,
	.end = end,
	.free = free,
};
