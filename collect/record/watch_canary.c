/* The watch recipe's canary: a variable of perfdb's own process, watched
 * beside the user's fields and written a known number of times while the
 * watchpoints are armed, so that watchpoints the kernel accepts but never
 * fires are told from quiet fields (see watch.h). Also the counting probe
 * of it that record falls back on and perfdb doctor fires. */
#include <errno.h>
#include <inttypes.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "collect/record/watch_spec.h"
#include "lib/cpulist.h"
#include "lib/alloc.h"

/* Two candidate canaries on lines of their own: the first whose bytes no
 * user watch covers is used (a user's window at the same address would
 * catch perfdb's writes, and the canary the workload's). */
#define SLOT_WORDS 8
static _Alignas(64) volatile uint64_t slots[2 * SLOT_WORDS];

/* overlaps(ws, addr): whether a watch of ws covers a byte of [addr, addr+8). */
static bool overlaps(const struct watch_set *ws, uint64_t addr)
{
	for (size_t i = 0; ws && i < ws->n; i++)
		if (ws->w[i].addr < addr + 8 && addr < ws->w[i].addr + (uint64_t)ws->w[i].len)
			return true;
	return false;
}

/* pick_cpu(cpus): the first CPU of the list that perfdb may run on; -1
 * without a list (any CPU is recorded), -2 when none is. */
static int pick_cpu(const char *cpus)
{
	int *list, n, cpu = -2;
	cpu_set_t mine;
	if (!cpus)
		return -1;
	if (sched_getaffinity(0, sizeof(mine), &mine))
		return -2;
	list = xcalloc(WATCH_MAX_CPUS, sizeof(*list));
	n = cpulist_parse(cpus, list, WATCH_MAX_CPUS);
	for (int i = 0; i < n && cpu == -2; i++)
		if (list[i] < CPU_SETSIZE && CPU_ISSET(list[i], &mine))
			cpu = list[i];
	free(list);
	return cpu;
}

/* watch_canary_init: see watch.h. */
void watch_canary_init(struct watch_canary *c, const struct watch_set *ws, const char *cpus)
{
	uint64_t addr = (uintptr_t)&slots[0];
	if (overlaps(ws, addr))
		addr = (uintptr_t)&slots[SLOT_WORDS];
	*c = (struct watch_canary){ .addr = addr, .len = 8, .pid = getpid(), .cpu = pick_cpu(cpus) };
	c->how = (!ws || ws->n < WATCH_MAX) && c->cpu != -2 ? WATCH_CANARY_RECORDED
							       : WATCH_CANARY_PROBE;
}

/* mono_ns: CLOCK_MONOTONIC in ns. */
static int64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* write_n: n stores to the canary at addr (one of the slots). */
static void write_n(uint64_t addr, long long n)
{
	volatile uint64_t *v = &slots[addr == (uintptr_t)&slots[0] ? 0 : SLOT_WORDS];
	for (long long i = 1; i <= n; i++)
		*v = (uint64_t)i;
}

/* watch_canary_write: see watch.h. */
int watch_canary_write(struct watch_canary *c)
{
	cpu_set_t old, one;
	bool pinned = c->cpu >= 0;
	int64_t t0;
	if (pinned) {
		CPU_ZERO(&one);
		CPU_SET(c->cpu, &one);
		if (sched_getaffinity(0, sizeof(old), &old) || sched_setaffinity(0, sizeof(one), &one))
			return -1;
	}
	t0 = mono_ns();
	write_n(c->addr, WATCH_CANARY_WRITES);
	c->write_ns = mono_ns() - t0;
	c->writes = WATCH_CANARY_WRITES;
	if (pinned)
		sched_setaffinity(0, sizeof(old), &old);
	return 0;
}

/* watch_canary_probe: see watch.h. */
int watch_canary_probe(struct watch_canary *c, char *err, size_t errlen)
{
	struct perf_event_attr a = { .type = PERF_TYPE_BREAKPOINT, .size = sizeof(a),
		.bp_type = HW_BREAKPOINT_W, .bp_addr = c->addr, .bp_len = HW_BREAKPOINT_LEN_8,
		.disabled = 1, .exclude_kernel = 1, .exclude_hv = 1 };
	int fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC), rc = 0;
	uint64_t count = 0;
	char ev[64];
	if (fd < 0)
		return snprintf(err, errlen, "perf_event_open(PERF_TYPE_BREAKPOINT %s, perfdb's own "
				"task): %s", watch_canary_event(c, ev, sizeof(ev)), strerror(errno)), -1;
	c->cpu = -1;	/* a watchpoint of the task: any CPU */
	if (ioctl(fd, PERF_EVENT_IOC_RESET, 0) || ioctl(fd, PERF_EVENT_IOC_ENABLE, 0))
		rc = snprintf(err, errlen, "enabling the canary's watchpoint: %s", strerror(errno));
	else
		watch_canary_write(c);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	if (!rc && read(fd, &count, sizeof(count)) != (ssize_t)sizeof(count))
		rc = snprintf(err, errlen, "reading the canary's count: %s", strerror(errno));
	close(fd);
	c->seen = (long long)count;
	return rc ? -1 : 0;
}

/* watch_canary_short: see watch.h. */
bool watch_canary_short(const struct watch_canary *c)
{
	return c->seen + c->lost < c->writes;
}

/* watch_canary_said: see watch.h. */
const char *watch_canary_said(const struct watch_canary *c, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%lld of %lld writes to a watched variable were caught",
			 c->seen, c->writes);
	if (c->lost && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, ", %lld of its samples lost", c->lost);
	return buf;
}

/* watch_canary_event: see watch.h. */
const char *watch_canary_event(const struct watch_canary *c, char *buf, size_t len)
{
	snprintf(buf, len, "mem:0x%" PRIx64 "/%d:w", c->addr, c->len);
	return buf;
}
