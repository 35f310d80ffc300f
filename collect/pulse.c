/* The machine's pulse and the load of other processes (see pulse.h). */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#include "collect/pulse.h"
#include "lib/alloc.h"

#define INT_CHUNK 20000			/* loop iterations between clock reads */
#define MEM_CHUNK (1u << 20)		/* bytes read between clock reads */

/* One probe thread: its CPU, its buffer, what it measured. */
struct pulse_thread {
	struct pulse_probe *p;
	int cpu;
	uint64_t *buf;
	double int_rate, mem_rate;
	int failed;
};

struct pulse_probe {
	struct pulse_thread *t;
	int n;
	pthread_mutex_t lock;	/* the gate: the threads wait until every one is started */
	pthread_cond_t open;
	int gate;		/* 0 shut, 1 open, -1 give up (a thread could not start) */
	pthread_barrier_t mid;	/* between the phases */
};

/* now_ns(): CLOCK_MONOTONIC. */
static int64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* The results of the loops go here, so that no compiler drops them. */
static volatile uint64_t sink;

/* int_chunk(x): INT_CHUNK rounds of a dependent xorshift-multiply chain. */
static uint64_t int_chunk(uint64_t x)
{
	for (int i = 0; i < INT_CHUNK; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		x *= 0x2545F4914F6CDD1DULL;
	}
	return x;
}

/* mem_chunk(w, n): the sum of n words. */
static uint64_t mem_chunk(const uint64_t *w, size_t n)
{
	uint64_t s = 0;
	for (size_t i = 0; i < n; i++)
		s += w[i];
	return s;
}

/* int_phase(): million iterations a second of int_chunk over a phase. */
static double int_phase(void)
{
	int64_t t0 = now_ns(), t;
	uint64_t x = (uint64_t)t0 | 1, chunks = 0;
	do {
		x = int_chunk(x);
		chunks++;
	} while ((t = now_ns()) - t0 < PULSE_PHASE_NS);
	sink = x;
	return (double)chunks * INT_CHUNK / ((double)(t - t0) / 1e9) / 1e6;
}

/* mem_phase(buf): GB a second read from buf over a phase, after one
 * untimed pass (so that whatever the last run left in the caches does not
 * decide the rate: the timed passes find the buffer where the machine
 * keeps it). */
static double mem_phase(const uint64_t *buf)
{
	size_t words = MEM_CHUNK / sizeof(uint64_t), nchunks = PULSE_MEM_BYTES / MEM_CHUNK, k = 0;
	uint64_t s = mem_chunk(buf, PULSE_MEM_BYTES / sizeof(uint64_t)), bytes = 0;
	int64_t t0 = now_ns(), t;
	do {
		s += mem_chunk(buf + k * words, words);
		bytes += MEM_CHUNK;
		k = (k + 1) % nchunks;
	} while ((t = now_ns()) - t0 < PULSE_PHASE_NS);
	sink = s;
	return (double)bytes / ((double)(t - t0) / 1e9) / 1e9;
}

/* wait_gate(p): 1 when the gate opens, 0 when the probe is given up. */
static int wait_gate(struct pulse_probe *p)
{
	int g;
	pthread_mutex_lock(&p->lock);
	while (!(g = p->gate))
		pthread_cond_wait(&p->open, &p->lock);
	pthread_mutex_unlock(&p->lock);
	return g > 0;
}

/* set_gate(p, g): opens the gate (1) or gives the probe up (-1). */
static void set_gate(struct pulse_probe *p, int g)
{
	pthread_mutex_lock(&p->lock);
	p->gate = g;
	pthread_cond_broadcast(&p->open);
	pthread_mutex_unlock(&p->lock);
}

/* probe_thread(arg): pins itself, waits for the gate, runs both phases
 * together with the others. */
static void *probe_thread(void *arg)
{
	struct pulse_thread *t = arg;
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(t->cpu, &set);
	t->failed = pthread_setaffinity_np(pthread_self(), sizeof(set), &set) != 0;
	if (!wait_gate(t->p))
		return NULL;
	t->int_rate = int_phase();
	pthread_barrier_wait(&t->p->mid);
	t->mem_rate = mem_phase(t->buf);
	return NULL;
}

/* pick_cpus(cpus, max): the CPUs perfdb may run on, at most max of them
 * spread evenly over the set; returns how many. */
static int pick_cpus(int *cpus, int max)
{
	cpu_set_t set;
	int all[CPU_SETSIZE], n = 0;
	if (sched_getaffinity(0, sizeof(set), &set))
		return 0;
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set))
			all[n++] = c;
	if (n <= max) {
		memcpy(cpus, all, (size_t)n * sizeof(int));
		return n;
	}
	for (int i = 0; i < max; i++)
		cpus[i] = all[(size_t)i * (size_t)n / (size_t)max];
	return max;
}

/* pulse_probe_new: see pulse.h. */
struct pulse_probe *pulse_probe_new(void)
{
	int cpus[PULSE_MAX_CPUS], n = pick_cpus(cpus, PULSE_MAX_CPUS);
	struct pulse_probe *p;
	struct pulse warm;
	if (n <= 0) {
		errno = ESRCH;
		return NULL;
	}
	p = xcalloc(1, sizeof(*p));
	p->t = xcalloc((size_t)n, sizeof(*p->t));
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->open, NULL);
	for (int i = 0; i < n; i++) {
		void *m = mmap(NULL, PULSE_MEM_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (m == MAP_FAILED) {
			pulse_probe_free(p);
			return NULL;
		}
		madvise(m, PULSE_MEM_BYTES, MADV_NOHUGEPAGE);
		memset(m, 0x5a, PULSE_MEM_BYTES);
		p->t[p->n++] = (struct pulse_thread){ .p = p, .cpu = cpus[i], .buf = m };
	}
	pulse_measure(p, &warm);	/* the first run of the loops warms caches and code */
	return p;
}

/* pulse_measure: see pulse.h. */
int pulse_measure(struct pulse_probe *p, struct pulse *out)
{
	pthread_t *th = xcalloc((size_t)p->n, sizeof(*th));
	int started = 0, failed = 0;
	double ir = 0, mr = 0;
	*out = (struct pulse){ NAN, NAN };
	p->gate = 0;
	for (; started < p->n; started++)
		if (pthread_create(&th[started], NULL, probe_thread, &p->t[started]))
			break;
	int mid = started == p->n && !pthread_barrier_init(&p->mid, NULL, (unsigned)p->n);
	failed = !mid;
	set_gate(p, mid ? 1 : -1);
	for (int i = 0; i < started; i++) {
		pthread_join(th[i], NULL);
		failed |= p->t[i].failed;
		ir += p->t[i].int_rate;
		mr += p->t[i].mem_rate;
	}
	if (mid)
		pthread_barrier_destroy(&p->mid);
	free(th);
	if (failed)
		return -1;
	*out = (struct pulse){ ir / p->n, mr / p->n };
	return 0;
}

/* pulse_probe_cpus: see pulse.h. */
int pulse_probe_cpus(const struct pulse_probe *p)
{
	return p ? p->n : 0;
}

/* pulse_probe_free: see pulse.h. */
void pulse_probe_free(struct pulse_probe *p)
{
	if (!p)
		return;
	for (int i = 0; i < p->n; i++)
		munmap(p->t[i].buf, PULSE_MEM_BYTES);
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->open);
	free(p->t);
	free(p);
}

/* proc_stat_parse: see pulse.h. */
int proc_stat_parse(const char *text, int64_t tick_ns, struct cpu_clock *c)
{
	unsigned long long v[8] = { 0 };
	const char *line = text;
	while (line && strncmp(line, "cpu ", 4)) {
		line = strchr(line, '\n');
		line = line ? line + 1 : NULL;
	}
	/* user nice system idle iowait irq softirq steal (guest time is in user) */
	if (!line || sscanf(line + 4, "%llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2],
			    &v[3], &v[4], &v[5], &v[6], &v[7]) < 7)
		return -1;
	c->busy_ns = (int64_t)(v[0] + v[1] + v[2] + v[5] + v[6]) * tick_ns;
	c->steal_ns = (int64_t)v[7] * tick_ns;
	return 0;
}

/* rusage_ns(who): user + system time of who, in ns. */
static int64_t rusage_ns(int who)
{
	struct rusage ru;
	if (getrusage(who, &ru))
		return 0;
	return ((int64_t)ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000 +
	       ((int64_t)ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000;
}

/* cpu_clock_read: see pulse.h. */
void cpu_clock_read(struct cpu_clock *c)
{
	char buf[4096];
	long hz = sysconf(_SC_CLK_TCK);
	FILE *f = fopen("/proc/stat", "re");
	size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
	if (f)
		fclose(f);
	buf[n] = 0;
	*c = (struct cpu_clock){ 0 };
	c->ok = hz > 0 && !proc_stat_parse(buf, 1000000000 / (hz > 0 ? hz : 100), c);
	c->ours_ns = rusage_ns(RUSAGE_SELF) + rusage_ns(RUSAGE_CHILDREN);
}

/* run_load_between: see pulse.h. */
void run_load_between(const struct cpu_clock *a, const struct cpu_clock *b, struct run_load *out)
{
	out->others_ns = INT64_MIN;
	out->steal_ns = -1;
	if (!a->ok || !b->ok)
		return;
	out->others_ns = (b->busy_ns - a->busy_ns) - (b->ours_ns - a->ours_ns);
	if (b->steal_ns > 0)
		out->steal_ns = b->steal_ns - a->steal_ns;
}
