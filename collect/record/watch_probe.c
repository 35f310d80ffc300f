/* What the watch recipe asks the running kernel directly: the
 * mmap_lock_acquire_returned tracepoint opened with perf_event_open for
 * one task (to learn its mm_struct's address), the load bias of the
 * workload's binary (/proc/PID/maps and its ELF segments), and a trial
 * perf_event_open of every hardware watchpoint on every CPU (so the
 * kernel's refusal is reported before anything is recorded). See watch.h. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "collect/symbols/elfsyms.h"
#include "collect/recipes.h"
#include "collect/record/watch_spec.h"
#include "lib/cpulist.h"

#define WATCH_TP_PAGES 64	/* 256 KiB: a fork or an exec locks a few dozen times */
#define TP_EVENT "mmap_lock/mmap_lock_acquire_returned"

/* ---- pure parsers ---- */

/* watch_format_field: see watch.h. */
int watch_format_field(const char *format, const char *field, int *off, int *size)
{
	size_t flen = strlen(field);
	for (const char *p = strstr(format, "field:"); p; p = strstr(p + 6, "field:")) {
		const char *semi = strchr(p, ';'), *o, *z;
		if (!semi || (size_t)(semi - p) < flen + 1)
			continue;
		if (strncmp(semi - flen, field, flen) || !strchr(" *", semi[-(long)flen - 1]))
			continue;
		if (!(o = strstr(semi, "offset:")) || !(z = strstr(semi, "size:")))
			return -1;
		*off = atoi(o + 7);
		*size = atoi(z + 5);
		return 0;
	}
	return -1;
}

/* ring_copy: n bytes from position pos of a ring of size bytes into out. */
static void ring_copy(const unsigned char *data, uint64_t size, uint64_t pos, void *out, size_t n)
{
	unsigned char *o = out;
	for (size_t i = 0; i < n; i++)
		o[i] = data[(pos + i) & (size - 1)];
}

/* watch_ring_last_mm: see watch.h. */
uint64_t watch_ring_last_mm(const unsigned char *data, uint64_t size, uint64_t tail,
			    uint64_t head, int mm_off, long long *lost)
{
	uint64_t mm = 0;
	while (head - tail >= sizeof(struct perf_event_header)) {
		struct perf_event_header h;
		ring_copy(data, size, tail, &h, sizeof(h));
		if (h.size < sizeof(h) || h.size > head - tail)
			break;
		if (h.type == PERF_RECORD_SAMPLE && h.size >= sizeof(h) + 4 + (unsigned)mm_off + 8) {
			uint32_t raw;
			ring_copy(data, size, tail + sizeof(h), &raw, 4);
			if (raw >= (uint32_t)mm_off + 8)
				ring_copy(data, size, tail + sizeof(h) + 4 + (uint64_t)mm_off, &mm, 8);
		} else if (h.type == PERF_RECORD_LOST && h.size >= sizeof(h) + 16) {
			uint64_t n;
			ring_copy(data, size, tail + sizeof(h) + 8, &n, 8);
			*lost += (long long)n;
		}
		tail += h.size;
	}
	return mm;
}

/* ---- the mmap_lock tracepoint ---- */

/* read_small: the text of a small file into buf (NUL-terminated). 0 or -1. */
static int read_small(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n, got = 0;
	if (fd < 0)
		return -1;
	while ((size_t)got + 1 < len && (n = read(fd, buf + got, len - 1 - (size_t)got)) > 0)
		got += n;
	close(fd);
	buf[got] = 0;
	return got > 0 ? 0 : -1;
}

/* tp_describe: the tracepoint's id and mm offset from tracefs. 0 or -1. */
static int tp_describe(uint64_t *id, int *mm_off, char *err, size_t errlen)
{
	char tracefs[PATH_MAX - 128], path[PATH_MAX], text[8192];
	char why[256];
	int size;
	if (!tracefs_mount_if_needed(tracefs, sizeof(tracefs), why, sizeof(why)))
		return snprintf(err, errlen, "%s: the mm address comes from the " TP_EVENT
				" tracepoint", why), -1;
	snprintf(path, sizeof(path), "%s/events/" TP_EVENT "/id", tracefs);
	if (read_small(path, text, sizeof(text)))
		return snprintf(err, errlen, "%s: %s (this kernel lacks the mmap_lock tracepoints "
				"that give the mm address)", path, strerror(errno ? errno : ENOENT)), -1;
	*id = strtoull(text, NULL, 10);
	snprintf(path, sizeof(path), "%s/events/" TP_EVENT "/format", tracefs);
	if (read_small(path, text, sizeof(text)) || watch_format_field(text, "mm", mm_off, &size) ||
	    size != 8 || *mm_off < 0)
		return snprintf(err, errlen, "%s: no 8-byte field 'mm'", path), -1;
	return 0;
}

/* tp_filter: the kernel-side filter "mm != 0x..." on fd. 0 or -1. */
static int tp_filter(int fd, uint64_t not_mm, char *err, size_t errlen)
{
	char f[64];
	snprintf(f, sizeof(f), "mm != 0x%" PRIx64, not_mm);
	if (!ioctl(fd, PERF_EVENT_IOC_SET_FILTER, f))
		return 0;
	return snprintf(err, errlen, "filter '%s' on " TP_EVENT ": %s", f, strerror(errno)), -1;
}

/* watch_tp_open: see watch.h. */
int watch_tp_open(struct watch_tp *tp, pid_t pid, uint64_t not_mm, char *err, size_t errlen)
{
	struct perf_event_attr a = { .type = PERF_TYPE_TRACEPOINT, .size = sizeof(a),
		.sample_period = 1, .sample_type = PERF_SAMPLE_RAW, .disabled = 1 };
	long page = sysconf(_SC_PAGESIZE);
	uint64_t id;
	*tp = (struct watch_tp){ .fd = -1 };
	if (tp_describe(&id, &tp->mm_off, err, errlen))
		return -1;
	a.config = id;
	tp->fd = (int)syscall(SYS_perf_event_open, &a, pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (tp->fd < 0)
		return snprintf(err, errlen, "perf_event_open(" TP_EVENT ", pid %d): %s", (int)pid,
				strerror(errno)), -1;
	tp->ring_len = (size_t)page * (1 + WATCH_TP_PAGES);
	tp->ring = mmap(NULL, tp->ring_len, PROT_READ | PROT_WRITE, MAP_SHARED, tp->fd, 0);
	if (tp->ring == MAP_FAILED) {
		tp->ring = NULL;
		snprintf(err, errlen, "mmap of the " TP_EVENT " ring: %s", strerror(errno));
	} else if ((!not_mm || !tp_filter(tp->fd, not_mm, err, errlen)) &&
		   !ioctl(tp->fd, PERF_EVENT_IOC_ENABLE, 0)) {
		return 0;
	} else if (!*err) {
		snprintf(err, errlen, "enabling " TP_EVENT ": %s", strerror(errno));
	}
	watch_tp_close(tp);
	return -1;
}

/* watch_tp_last_mm: see watch.h. */
uint64_t watch_tp_last_mm(struct watch_tp *tp)
{
	struct perf_event_mmap_page *meta = tp->ring;
	uint64_t head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE), mm;
	mm = watch_ring_last_mm((const unsigned char *)tp->ring + meta->data_offset,
				meta->data_size, meta->data_tail, head, tp->mm_off, &tp->lost);
	__atomic_store_n(&meta->data_tail, head, __ATOMIC_RELEASE);
	return mm;
}

/* watch_tp_close: see watch.h. */
void watch_tp_close(struct watch_tp *tp)
{
	if (tp->ring)
		munmap(tp->ring, tp->ring_len);
	if (tp->fd >= 0)
		close(tp->fd);
	tp->ring = NULL;
	tp->fd = -1;
}

/* ---- the binary's load bias ---- */

/* first_mapping: start and file offset of pid's first mapping of path. */
static int first_mapping(pid_t pid, const char *path, uint64_t *start, uint64_t *pgoff)
{
	char maps[64], line[PATH_MAX + 128], file[PATH_MAX];
	FILE *f;
	int found = -1;
	snprintf(maps, sizeof(maps), "/proc/%d/maps", (int)pid);
	if (!(f = fopen(maps, "re")))
		return -1;
	while (found && fgets(line, sizeof(line), f)) {
		unsigned long long a, b, off;
		file[0] = 0;
		if (sscanf(line, "%llx-%llx %*s %llx %*s %*s %4095[^\n]", &a, &b, &off, file) == 4 &&
		    !strcmp(file, path)) {
			*start = a;
			*pgoff = off;
			found = 0;
		}
	}
	fclose(f);
	return found;
}

/* watch_load_bias: see watch.h. */
int watch_load_bias(pid_t pid, uint64_t *bias, char *err, size_t errlen)
{
	char link[64], exe[PATH_MAX];
	ssize_t n;
	uint64_t start, pgoff;
	struct elfsyms *e;
	snprintf(link, sizeof(link), "/proc/%d/exe", (int)pid);
	if ((n = readlink(link, exe, sizeof(exe) - 1)) <= 0)
		return snprintf(err, errlen, "%s: %s", link, strerror(errno)), -1;
	exe[n] = 0;
	if (first_mapping(pid, exe, &start, &pgoff))
		return snprintf(err, errlen, "/proc/%d/maps: no mapping of %s", (int)pid, exe), -1;
	if (!(e = elfsyms_open(exe, err, errlen)))
		return -1;
	for (size_t i = 0; i < elfsyms_nsegments(e); i++) {
		const struct elf_seg *s = elfsyms_segment(e, i);
		if (pgoff >= (s->offset & ~0xfffULL) && pgoff - (s->offset & ~0xfffULL) <
		    (s->filesz ? s->filesz : 1)) {
			*bias = start - pgoff + (s->offset & ~0xfffULL) - (s->vaddr & ~0xfffULL);
			elfsyms_close(e);
			return 0;
		}
	}
	elfsyms_close(e);
	return snprintf(err, errlen, "%s: no ELF segment at file offset %#" PRIx64, exe, pgoff), -1;
}

/* ---- a trial of the watchpoints ---- */

/* bp_open: one write watchpoint of len bytes at addr on cpu, disabled;
 * fd or -1. */
static int bp_open(uint64_t addr, int len, int cpu)
{
	struct perf_event_attr a = { .type = PERF_TYPE_BREAKPOINT, .size = sizeof(a),
		.bp_type = HW_BREAKPOINT_W, .bp_addr = addr, .bp_len = (uint64_t)len,
		.sample_period = 1, .disabled = 1 };
	return (int)syscall(SYS_perf_event_open, &a, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

/* bp_why: what an errno of perf_event_open(PERF_TYPE_BREAKPOINT) means. */
static const char *bp_why(int e)
{
	switch (e) {
	case ENOSPC: return "no free debug register on that CPU (x86 has 4, shared with "
			    "debuggers and other perf sessions)";
	case EINVAL: return "the kernel refused the address or length (lengths 1, 2, 4 or 8, "
			    "aligned; x86 allows none in the CPU entry area)";
	case EACCES:
	case EPERM: return "not permitted (run as root, or lower kernel.perf_event_paranoid)";
	case ENOENT:
	case ENODEV:
	case EOPNOTSUPP: return "hardware breakpoints are not supported here";
	default: return "perf_event_open failed";
	}
}

/* cpus_of: the CPUs to check: list, or the online ones. Count or -1. */
static int cpus_of(const char *list, int *cpus, char *err, size_t errlen)
{
	char online[4096];
	int n;
	if (!list && read_small("/sys/devices/system/cpu/online", online, sizeof(online)))
		return snprintf(err, errlen, "/sys/devices/system/cpu/online: %s", strerror(errno)), -1;
	if ((n = cpulist_parse(list ? list : online, cpus, WATCH_MAX_CPUS)) <= 0)
		return snprintf(err, errlen, "bad CPU list '%s'", list ? list : online), -1;
	return n;
}

/* check_cpu: every watch of ws at once on cpu, the recorded canary last.
 * 0 or -1 with a message. */
static int check_cpu(const struct watch_set *ws, int cpu, char *err, size_t errlen)
{
	bool canary = ws->canary.how == WATCH_CANARY_RECORDED;
	int fds[WATCH_MAX + 1], rc = 0;
	size_t n = 0, all = ws->n + canary;
	char ev[64];
	for (; n < all; n++) {
		bool c = n == ws->n;
		fds[n] = c ? bp_open(ws->canary.addr, ws->canary.len, cpu)
			   : bp_open(ws->w[n].addr, ws->w[n].len, cpu);
		if (fds[n] < 0) {
			int e = errno;
			snprintf(err, errlen, "perf_event_open(PERF_TYPE_BREAKPOINT %s, cpu %d) for "
				 "%s: %s: %s", c ? watch_canary_event(&ws->canary, ev, sizeof(ev)) :
				 watch_event_name(&ws->w[n], ev, sizeof(ev)), cpu,
				 c ? "perfdb's canary" : ws->w[n].name, strerror(e), bp_why(e));
			rc = -1;
			break;
		}
	}
	while (n--)
		close(fds[n]);
	return rc;
}

/* watch_check_breakpoints: see watch.h. */
int watch_check_breakpoints(const struct watch_set *ws, const char *cpus, char *err, size_t errlen)
{
	static int list[WATCH_MAX_CPUS];
	int n = cpus_of(cpus, list, err, errlen);
	for (int i = 0; i < n; i++)
		if (check_cpu(ws, list[i], err, errlen))
			return -1;
	return n < 0 ? -1 : 0;
}
