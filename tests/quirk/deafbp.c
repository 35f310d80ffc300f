/* deafbp.so: hardware write-watchpoints that the kernel accepts and that
 * never fire, for tests (LD_PRELOAD). Some virtual machines behave so:
 * perf_event_open(PERF_TYPE_BREAKPOINT) succeeds and the counts stay 0.
 * Preloaded into perfdb and the perf it runs, this library's syscall()
 * opens every breakpoint event as asked (so the kernel's refusals come
 * back as they are), closes it, and opens it again with its address moved
 * to a word of its own that nothing writes; the caller's attr is left as
 * it was, so perf writes the asked-for address into perf.data as it would
 * on such a machine. Everything else goes to the real syscall()
 * unchanged. Like glibc's syscall(), it takes six arguments whatever the
 * call. */
#include <dlfcn.h>
#include <linux/perf_event.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static _Alignas(64) volatile uint64_t nobody_writes[8];

typedef long (*syscall_fn)(long, ...);

/* deaf: a copy of the breakpoint attr a watching nobody_writes instead. */
static void deaf(const struct perf_event_attr *a, struct perf_event_attr *copy)
{
	size_t n = a->size && a->size < sizeof(*copy) ? a->size : sizeof(*copy);
	memset(copy, 0, sizeof(*copy));
	memcpy(copy, a, n);
	copy->bp_addr = (uintptr_t)nobody_writes;
}

/* syscall: see the top. */
long syscall(long nr, ...)
{
	static syscall_fn real;
	struct perf_event_attr copy;
	long x[6];
	va_list ap;
	va_start(ap, nr);
	for (int i = 0; i < 6; i++)
		x[i] = va_arg(ap, long);
	va_end(ap);
	if (!real)
		real = (syscall_fn)dlsym(RTLD_NEXT, "syscall");
	if (nr == SYS_perf_event_open && x[0] &&
	    ((const struct perf_event_attr *)x[0])->type == PERF_TYPE_BREAKPOINT) {
		long fd = real(nr, x[0], x[1], x[2], x[3], x[4]);
		if (fd < 0)
			return fd;
		close((int)fd);
		deaf((const struct perf_event_attr *)x[0], &copy);
		x[0] = (long)&copy;
	}
	return real(nr, x[0], x[1], x[2], x[3], x[4], x[5]);
}
