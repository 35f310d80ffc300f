/* The live flush-IPI probe of perfdb doctor (see flush_probe.h): a spinning
 * thread, a thread dropping pages beside it, and tracepoint counters of
 * both opened with perf_event_open (counting, no ring buffer). */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "collect/record/flush_probe.h"

#define PAGES 64

/* The spinning thread's side. */
struct spinner {
	int cpu;
	atomic_int tid;		/* 0 until it runs on its CPU, -1: it could not */
	atomic_bool stop;
	atomic_long spins;
};

/* Counters: on the dropping thread, tlb_flush reason 4, ipi_send_cpu and
 * ipi_send_cpumask; on the spinning one, tlb_flush reason 1 and its run
 * time (task-clock, ns). -1: none. */
enum { C_ATTEMPT, C_SEND, C_SENDMASK, C_RECEIVED, C_RAN, C_N };

/* now_s(): CLOCK_MONOTONIC in seconds. */
static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* pin(cpu): the calling thread runs on cpu only; 0 or -1. */
static int pin(int cpu)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/* spin(arg): the spinning thread: runs the process's mm on its CPU until
 * told to stop. */
static void *spin(void *arg)
{
	struct spinner *s = arg;
	if (pin(s->cpu)) {
		atomic_store(&s->tid, -1);
		return NULL;
	}
	atomic_store(&s->tid, (int)syscall(SYS_gettid));
	while (!atomic_load_explicit(&s->stop, memory_order_relaxed))
		atomic_fetch_add_explicit(&s->spins, 1, memory_order_relaxed);
	return NULL;
}

/* tp_id(tracefs, event): the id of tracepoint "sys/name", or -1. */
static long tp_id(const char *tracefs, const char *event)
{
	char path[4096];
	long id = -1;
	snprintf(path, sizeof(path), "%s/events/%s/id", tracefs, event);
	FILE *f = fopen(path, "r");
	if (f && fscanf(f, "%ld", &id) != 1)
		id = -1;
	if (f)
		fclose(f);
	return id;
}

/* counter(type, id, tid, filter): a disabled counter of event id of type
 * (a tracepoint's id, or a software event) in task tid (0: the caller),
 * with filter (or NULL); the fd, or -1. */
static int counter(unsigned type, long id, int tid, const char *filter)
{
	struct perf_event_attr a = { .type = type, .size = sizeof(a),
		.config = (unsigned long long)id, .disabled = 1, .sample_period = 0 };
	long fd = id < 0 ? -1 : syscall(SYS_perf_event_open, &a, tid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd >= 0 && filter && ioctl((int)fd, PERF_EVENT_IOC_SET_FILTER, filter)) {
		int e = errno;
		close((int)fd);
		errno = e;
		return -1;
	}
	return (int)fd;
}

/* two_cpus(p): the first two CPUs this thread may run on, into p; false
 * when there are not two. */
static bool two_cpus(struct flush_probe *p, cpu_set_t *saved)
{
	p->sender = p->target = -1;
	if (sched_getaffinity(0, sizeof(*saved), saved))
		return false;
	for (int c = 0; c < CPU_SETSIZE && p->target < 0; c++)
		if (CPU_ISSET(c, saved)) {
			if (p->sender < 0)
				p->sender = c;
			else
				p->target = c;
		}
	return p->target >= 0;
}

/* open_counters(tracefs, spinner, fd, why, len): the four counters; 0, or
 * -1 with why (the ipi_send ones may be missing). */
static int open_counters(const char *tracefs, int spinner, int *fd, char *why, size_t len)
{
	long flush = tp_id(tracefs, "tlb/tlb_flush");
	if (flush < 0) {
		snprintf(why, len, "no tlb:tlb_flush tracepoint in %s", tracefs);
		return -1;
	}
	fd[C_ATTEMPT] = counter(PERF_TYPE_TRACEPOINT, flush, 0, "reason == 4");
	fd[C_RECEIVED] = fd[C_ATTEMPT] < 0 ? -1 : counter(PERF_TYPE_TRACEPOINT, flush, spinner, "reason == 1");
	if (fd[C_ATTEMPT] < 0 || fd[C_RECEIVED] < 0) {
		snprintf(why, len, "perf_event_open of tlb:tlb_flush with a reason filter: %s", strerror(errno));
		return -1;
	}
	fd[C_RAN] = counter(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, spinner, NULL);
	if (fd[C_RAN] < 0) {
		snprintf(why, len, "perf_event_open of task-clock: %s", strerror(errno));
		return -1;
	}
	fd[C_SEND] = counter(PERF_TYPE_TRACEPOINT, tp_id(tracefs, "ipi/ipi_send_cpu"), 0, NULL);
	fd[C_SENDMASK] = counter(PERF_TYPE_TRACEPOINT, tp_id(tracefs, "ipi/ipi_send_cpumask"), 0, NULL);
	return 0;
}

/* drop_pages(p, seconds, fd): writes and drops pages for seconds with the
 * counters on; the drops into p. */
static void drop_pages(struct flush_probe *p, double seconds, const int *fd)
{
	long page = sysconf(_SC_PAGESIZE);
	char *m = mmap(NULL, (size_t)page * PAGES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return;
	for (int c = 0; c < C_N; c++)
		if (fd[c] >= 0)
			ioctl(fd[c], PERF_EVENT_IOC_ENABLE, 0);
	double t0 = now_s(), t = t0;
	while (t - t0 < seconds) {
		for (int i = 0; i < PAGES; i++) {
			m[(size_t)page * (size_t)i] = 1;
			madvise(m + (size_t)page * (size_t)i, (size_t)page, MADV_DONTNEED);
		}
		p->drops += PAGES;
		t = now_s();
	}
	for (int c = 0; c < C_N; c++)
		if (fd[c] >= 0)
			ioctl(fd[c], PERF_EVENT_IOC_DISABLE, 0);
	p->seconds = t - t0;
	munmap(m, (size_t)page * PAGES);
}

/* count(fd): a counter's value (0 without one). */
static long long count(int fd)
{
	unsigned long long v = 0;
	return fd >= 0 && read(fd, &v, sizeof(v)) == (ssize_t)sizeof(v) ? (long long)v : 0;
}

/* measure(tracefs, seconds, p, s, why, len): with the spinner running,
 * opens the counters and drops pages; 0, or -1 with why. */
static int measure(const char *tracefs, double seconds, struct flush_probe *p, struct spinner *s,
		   char *why, size_t len)
{
	int fd[C_N] = { -1, -1, -1, -1, -1 }, rc = -1;
	while (!atomic_load(&s->tid) || (atomic_load(&s->tid) > 0 && !atomic_load(&s->spins)))
		sched_yield();
	if (atomic_load(&s->tid) < 0)
		snprintf(why, len, "a thread cannot be put on CPU %d", p->target);
	else if (!open_counters(tracefs, atomic_load(&s->tid), fd, why, len)) {
		drop_pages(p, seconds, fd);
		p->attempts = count(fd[C_ATTEMPT]);
		p->sends = count(fd[C_SEND]) + count(fd[C_SENDMASK]);
		p->received = count(fd[C_RECEIVED]);
		p->ran = (double)count(fd[C_RAN]) / 1e9;
		rc = 0;
	}
	for (int c = 0; c < C_N; c++)
		if (fd[c] >= 0)
			close(fd[c]);
	return rc;
}

/* flush_probe_verdict: see flush_probe.h. */
enum flush_seen flush_probe_verdict(const struct flush_probe *p, char *why, size_t len)
{
	if (p->received > 0)
		return FLUSH_IPIS_SEEN;
	if (p->ran < p->seconds / 2) {
		snprintf(why, len, "the spinning thread ran %.0f%% of the %.2f s on CPU %d (the machine is "
			 "busy): run it again", p->seconds > 0 ? 100 * p->ran / p->seconds : 0.0, p->seconds,
			 p->target);
		return FLUSH_IPIS_UNTOLD;
	}
	if (p->drops >= 100 && !p->sends)
		return FLUSH_IPIS_NOT_SEEN;
	snprintf(why, len, "%lld page drops, %lld IPIs sent and no flush traced on CPU %d: cannot tell",
		 p->drops, p->sends, p->target);
	return FLUSH_IPIS_UNTOLD;
}

/* flush_probe_run: see flush_probe.h. */
enum flush_seen flush_probe_run(const char *tracefs, double seconds, struct flush_probe *p,
				char *why, size_t len)
{
	struct spinner s = { 0 };
	cpu_set_t saved;
	pthread_t th;
	int rc;
	memset(p, 0, sizeof(*p));
	p->cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (p->cpus < 2 || !two_cpus(p, &saved)) {
		snprintf(why, len, "%d CPU%s online%s: a flush has no other CPU to reach", p->cpus,
			 p->cpus == 1 ? "" : "s", p->cpus < 2 ? "" : ", this process may run on one only");
		return FLUSH_IPIS_UNTOLD;
	}
	if (!tracefs || !*tracefs) {
		snprintf(why, len, "tracefs is not mounted");
		return FLUSH_IPIS_UNTOLD;
	}
	s.cpu = p->target;
	if (pin(p->sender) || pthread_create(&th, NULL, spin, &s)) {
		snprintf(why, len, "cannot run a thread on CPU %d beside one on CPU %d", p->target, p->sender);
		sched_setaffinity(0, sizeof(saved), &saved);
		return FLUSH_IPIS_UNTOLD;
	}
	rc = measure(tracefs, seconds, p, &s, why, len);
	atomic_store(&s.stop, true);
	pthread_join(th, NULL);
	sched_setaffinity(0, sizeof(saved), &saved);
	return rc ? FLUSH_IPIS_UNTOLD : flush_probe_verdict(p, why, len);
}
