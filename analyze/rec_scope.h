/* What a recording's perf command line says perf looked at: every CPU,
 * some CPUs (-C LIST), or only some tasks (perf record of a workload or
 * of -p, -t, -u, without -a or -C: the events of other tasks, and the
 * CPUs' idle time, were never recorded). The analyzers read it to tell a
 * CPU or task perf did not record from one that did nothing. */
#ifndef PERFDB_REC_SCOPE_H
#define PERFDB_REC_SCOPE_H
#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>

enum rec_scope_kind {
	SCOPE_UNKNOWN,	/* no command line, or not one this parser knows */
	SCOPE_ALL,	/* every CPU (-a, perf sched record, no target) */
	SCOPE_CPUS,	/* the CPUs of the list -C gave */
	SCOPE_TASKS,	/* the workload's tasks, or -p/-t/-u's */
};

struct rec_scope {
	enum rec_scope_kind kind;
	char cpus[128];		/* SCOPE_CPUS: the list as given ("0,2-3") */
};

/* rec_scope_parse(cmdline, s): the scope of a perf command line (words
 * separated by spaces, as the import stores it: "/usr/bin/perf record -a
 * -C 0 -e ... -- CMD"). perf record, c2c record and mem record record a
 * workload's tasks unless -a or -C says otherwise; other commands that
 * record (sched, lock, kmem ...) record every CPU unless -C. */
void rec_scope_parse(const char *cmdline, struct rec_scope *s);

/* rec_scope_of(db, id, s): rec_scope_parse of session id's perf command
 * line (SCOPE_UNKNOWN when it has none). */
void rec_scope_of(sqlite3 *db, int64_t id, struct rec_scope *s);

/* rec_scope_cpu(s, cpu): false when s says perf did not record cpu (a
 * CPU outside -C's list), else true. */
bool rec_scope_cpu(const struct rec_scope *s, int cpu);
#endif
