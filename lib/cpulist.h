/* CPU lists as perf and sysfs write them ("0-3,8,10-11"). */
#ifndef PERFDB_CPULIST_H
#define PERFDB_CPULIST_H

/* cpulist_has(list, cpu): 1 when cpu is in list, 0 when not, -1 when list
 * is malformed (empty, a backwards range, a number past 2^20, anything
 * but digits, '-' and ','; a trailing newline is allowed). */
int cpulist_has(const char *list, int cpu);
#endif
