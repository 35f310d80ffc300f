/* The workloads' result lines. A workload prints on stdout, per result,
 *   metric=NAME value=V [unit=U] [better=higher|lower] [KEY=VALUE ...]
 * or, for one sample of a distribution (many in one run: one a fault),
 *   metric=NAME sample=V [unit=U] [better=higher|lower] [KEY=VALUE ...]
 * NAME is [A-Za-z0-9_.:-]+ (at most 63 bytes), V a finite decimal number;
 * words are separated by blanks; other keys are kept in the line only.
 * Every other stdout line is the workload's own and passes through. */
#ifndef PERFDB_METRIC_LINE_H
#define PERFDB_METRIC_LINE_H
#include <stdbool.h>
#include <stddef.h>

enum metric_better { BETTER_UNKNOWN, BETTER_HIGHER, BETTER_LOWER };

struct metric {
	char name[64];
	double value;
	char unit[32];		/* "" when not given */
	enum metric_better better;
	bool sample;		/* sample=V: one of many values of NAME in the run */
	char line[512];		/* the line as printed (cut at 511 bytes, no newline) */
};

/* metric_parse(line, m, err, errlen): whether line (a stdout line, with or
 * without its newline) is a metric line: 0 when it does not start with
 * "metric=", 1 with *m filled, -1 with what is wrong in err when it
 * starts so but is malformed (no or an empty name, neither or both of
 * value= and sample=, a value
 * that is not a finite number, better= other than higher or lower, a
 * unit longer than 31 bytes). */
int metric_parse(const char *line, struct metric *m, char *err, size_t errlen);

/* metric_better_name(b): "higher", "lower", or NULL for BETTER_UNKNOWN. */
const char *metric_better_name(enum metric_better b);

/* metric_better_parse(s): the enum of "higher" / "lower"; BETTER_UNKNOWN
 * for anything else, NULL included. */
enum metric_better metric_better_parse(const char *s);
#endif
