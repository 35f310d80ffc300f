/* CPU lists as perf and sysfs write them ("0-3,8,10-11"). */
#ifndef PERFDB_CPULIST_H
#define PERFDB_CPULIST_H

/* cpulist_has(list, cpu): 1 when cpu is in list, 0 when not, -1 when list
 * is malformed (empty, a backwards range, a number past 2^20, anything
 * but digits, '-' and ','; a trailing newline is allowed). */
int cpulist_has(const char *list, int cpu);

/* cpulist_parse(list, cpus, max): the CPUs of list ("0-3,8", as perf -C
 * and /sys/devices/system/cpu/online write it; numbers as strtol reads
 * them; it ends at its end or a newline) into cpus[0..max), in the order
 * written. Returns the count, or -1 when malformed (a negative number, a
 * backwards range, a character other than ',' after a number) or longer
 * than max. */
int cpulist_parse(const char *list, int *cpus, int max);
#endif
