/* Recipes, the perf command line made from them, and the probes of the
 * running machine they depend on: see recipes.h. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "lib/alloc.h"
#include "lib/strbuf.h"
#include "collect/recipes.h"

#define DEFAULT_FREQ 999
#define DEFAULT_PAGES 1024

const char recipe_names_text[] = "sched, tlb, profile, c2c, watch";

static const char *const sched_events[] = {
	"sched:sched_switch", "sched:sched_waking", "sched:sched_wakeup",
	"sched:sched_wakeup_new", "sched:sched_migrate_task", "sched:sched_process_fork",
	"sched:sched_process_exec", "sched:sched_process_exit", NULL,
};

static const char *const tlb_events[] = {
	"tlb:tlb_flush", "ipi:ipi_send_cpu", "ipi:ipi_send_cpumask",
	"csd:csd_queue_cpu", "csd:csd_function_entry", "csd:csd_function_exit",
	"irq_vectors:call_function_entry", "irq_vectors:call_function_exit",
	"irq_vectors:call_function_single_entry", "irq_vectors:call_function_single_exit",
	"sched:sched_switch", "sched:sched_process_fork", "sched:sched_process_exec",
	"sched:sched_process_exit", NULL,
};

static const char *const c2c_events[] = {
	"mmap_lock:mmap_lock_start_locking", "mmap_lock:mmap_lock_acquire_returned",
	"mmap_lock:mmap_lock_released", "mmap:exit_mmap", NULL,
};

static const char *const no_events[] = { NULL };

static const struct recipe {
	const char *name;
	unsigned bit;
	const char *const *events;
} recipes[] = {
	{ "sched", RECIPE_SCHED, sched_events },
	{ "tlb", RECIPE_TLB, tlb_events },
	{ "profile", RECIPE_PROFILE, no_events },
	{ "c2c", RECIPE_C2C, c2c_events },
	{ "watch", RECIPE_WATCH, no_events },
};

#define NRECIPES (sizeof(recipes) / sizeof(*recipes))

/* recipe_events: see recipes.h. */
const char *const *recipe_events(unsigned bit)
{
	for (size_t i = 0; i < NRECIPES; i++)
		if (recipes[i].bit == bit)
			return recipes[i].events;
	return no_events;
}

/* recipe_name: see recipes.h. */
const char *recipe_name(unsigned bit)
{
	for (size_t i = 0; i < NRECIPES; i++)
		if (recipes[i].bit == bit)
			return recipes[i].name;
	return "?";
}

/* ---- plans ---- */

/* has_event: whether list[0..n) holds ev. */
static bool has_event(char **list, size_t n, const char *ev)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(list[i], ev))
			return true;
	return false;
}

/* add_event: appends a copy of ev to p's events unless it is there;
 * returns the copy (or the one already there). */
static const char *add_event(struct recipe_plan *p, const char *ev)
{
	for (size_t i = 0; i < p->nevents; i++)
		if (!strcmp(p->events[i], ev))
			return p->events[i];
	p->events = xreallocarray(p->events, p->nevents + 1, sizeof(*p->events));
	p->events[p->nevents] = xstrdup(ev);
	return p->events[p->nevents++];
}

/* add_recipe: recipe r's events into p. */
static void add_recipe(struct recipe_plan *p, const struct recipe *r, const struct recipe_env *env)
{
	p->recipes |= r->bit;
	if (r->bit == RECIPE_PROFILE) {
		p->profile_event = add_event(p, env->have_cycles ? "cycles" : "cpu-clock");
		return;
	}
	p->system_wide = true;
	for (const char *const *e = r->events; *e; e++)
		add_event(p, *e);
}

/* add_named: the recipe called name (len bytes) into p; 0, or -1 when
 * there is none (message in err). */
static int add_named(struct recipe_plan *p, const char *name, size_t len,
		     const struct recipe_env *env, char *err, size_t errlen)
{
	for (size_t i = 0; i < NRECIPES; i++)
		if (strlen(recipes[i].name) == len && !strncmp(recipes[i].name, name, len)) {
			add_recipe(p, &recipes[i], env);
			return 0;
		}
	snprintf(err, errlen, "unknown recipe '%.*s' (recipes: %s)", (int)len, name,
		 recipe_names_text);
	return -1;
}

/* add_list: each comma-separated word of s through add(p, word, len). */
static int add_list(struct recipe_plan *p, const char *s, const struct recipe_env *env,
		    char *err, size_t errlen, bool events)
{
	while (s && *s) {
		size_t len = strcspn(s, ","), skip = strspn(s, " ");
		int rc = 0;
		if (len > skip) {
			char word[256];
			size_t wl = len - skip;
			while (wl && s[skip + wl - 1] == ' ')
				wl--;
			snprintf(word, sizeof(word), "%.*s", (int)wl, s + skip);
			if (events)
				add_event(p, word);
			else
				rc = add_named(p, word, strlen(word), env, err, errlen);
		}
		if (rc)
			return -1;
		s += len + (s[len] == ',');
	}
	return 0;
}

/* recipe_plan_make: see recipes.h. */
int recipe_plan_make(struct recipe_plan *p, const char *spec, const char *extra,
		     const struct recipe_env *env, char *err, size_t errlen)
{
	*p = (struct recipe_plan){ 0 };
	if (!spec || !*spec)
		spec = "profile";
	if (add_list(p, spec, env, err, errlen, false) ||
	    add_list(p, extra, env, err, errlen, true)) {
		recipe_plan_free(p);
		return -1;
	}
	if (!p->recipes) {
		snprintf(err, errlen, "no recipe given (recipes: %s)", recipe_names_text);
		recipe_plan_free(p);
		return -1;
	}
	return 0;
}

/* recipe_plan_free: see recipes.h. */
void recipe_plan_free(struct recipe_plan *p)
{
	for (size_t i = 0; i < p->nevents; i++)
		free(p->events[i]);
	for (size_t i = 0; i < p->nmissing; i++)
		free(p->missing[i]);
	free(p->events);
	free(p->missing);
	*p = (struct recipe_plan){ 0 };
}

/* recipe_plan_drop_missing: see recipes.h. */
int recipe_plan_drop_missing(struct recipe_plan *p, const char *tracefs)
{
	size_t kept = 0;
	int moved = 0;
	for (size_t i = 0; i < p->nevents; i++) {
		char *ev = p->events[i];
		if (!tracefs || ev == p->profile_event || tracepoint_exists(tracefs, ev) != 0) {
			p->events[kept++] = ev;
			continue;
		}
		if (!has_event(p->missing, p->nmissing, ev)) {
			p->missing = xreallocarray(p->missing, p->nmissing + 1, sizeof(*p->missing));
			p->missing[p->nmissing++] = ev;
		} else {
			free(ev);
		}
		moved++;
	}
	p->nevents = kept;
	return moved;
}

/* ---- the perf command line ---- */

/* A growing NULL-terminated argv of malloc'ed strings. */
struct args {
	char **v;
	size_t n, cap;
};

/* push: appends the printf output of fmt. */
static void push(struct args *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void push(struct args *a, const char *fmt, ...)
{
	struct strbuf s = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	sb_vprintf(&s, fmt, ap);
	va_end(ap);
	ALLOC_GROW(a->v, a->n + 2, a->cap);
	a->v[a->n++] = sb_take(&s);
	a->v[a->n] = NULL;
}

/* push_events: -e for every event; a profile event next to others carries
 * its frequency and call graph as event terms. */
static void push_events(struct args *a, const struct recipe_plan *p, const struct perf_opts *o,
			bool mixed, unsigned freq)
{
	for (size_t i = 0; i < p->nevents; i++) {
		push(a, "-e");
		if (p->events[i] == p->profile_event && mixed)
			push(a, "%s/freq=%u,call-graph=%s/", p->events[i], freq,
			     o->callgraph == CG_DWARF ? "dwarf" : "fp");
		else
			push(a, "%s", p->events[i]);
	}
}

/* global_callgraph: the call graph for every event: profile alone takes
 * fp unless dwarf is asked for; next to other events, a profile's dwarf
 * stays on its own event (dwarf stacks on every tracepoint would be
 * 8 KiB each). */
static enum callgraph global_callgraph(const struct recipe_plan *p, const struct perf_opts *o,
				       bool mixed)
{
	if (!p->profile_event)
		return o->callgraph;
	if (!mixed)
		return o->callgraph == CG_DWARF ? CG_DWARF : CG_FP;
	return o->callgraph == CG_FP ? CG_FP : CG_NONE;
}

/* recipe_perf_argv: see recipes.h. */
char **recipe_perf_argv(const struct recipe_plan *p, const struct perf_opts *o,
			char *const workload[])
{
	struct args a = { 0 };
	bool c2c = p->recipes & RECIPE_C2C;
	bool mixed = p->profile_event && (p->nevents > 1 || c2c || (p->recipes & RECIPE_WATCH));
	unsigned freq = o->freq ? o->freq : DEFAULT_FREQ;
	enum callgraph cg = global_callgraph(p, o, mixed);
	push(&a, "%s", o->perf);
	if (c2c) {
		push(&a, "c2c");
		push(&a, "record");
		push(&a, "--");
	} else {
		push(&a, "record");
	}
	push(&a, "-o");
	push(&a, "%s", o->output);
	if (o->quiet)
		push(&a, "-q");
	if (p->system_wide)
		push(&a, "-a");
	if (o->cpus) {
		push(&a, "-C");
		push(&a, "%s", o->cpus);
	}
	push(&a, "-m");
	push(&a, "%u", o->mmap_pages ? o->mmap_pages : DEFAULT_PAGES);
	if (p->profile_event && !mixed) {
		push(&a, "-F");
		push(&a, "%u", freq);
	}
	push_events(&a, p, o, mixed, freq);
	if (cg == CG_FP)
		push(&a, "-g");
	if (cg == CG_DWARF) {
		push(&a, "--call-graph");
		push(&a, "dwarf");
	}
	push(&a, "--");
	for (size_t i = 0; workload[i]; i++)
		push(&a, "%s", workload[i]);
	return a.v;
}

/* argv_free: see recipes.h. */
void argv_free(char **argv)
{
	for (size_t i = 0; argv && argv[i]; i++)
		free(argv[i]);
	free(argv);
}

/* needs_quotes: whether a POSIX shell would split or expand word. */
static bool needs_quotes(const char *w)
{
	if (!*w)
		return true;
	for (; *w; w++)
		if (!((*w >= 'a' && *w <= 'z') || (*w >= 'A' && *w <= 'Z') ||
		      (*w >= '0' && *w <= '9') || strchr("@%+=:,./-_", *w)))
			return true;
	return false;
}

/* argv_join: see recipes.h. */
char *argv_join(char *const argv[])
{
	struct strbuf b = STRBUF_INIT;
	for (size_t i = 0; argv[i]; i++) {
		const char *w = argv[i];
		if (i)
			sb_putc(&b, ' ');
		if (!needs_quotes(w)) {
			sb_puts(&b, w);
			continue;
		}
		sb_putc(&b, '\'');
		for (; *w; w++)
			if (*w == '\'')
				sb_puts(&b, "'\\''");
			else
				sb_putc(&b, *w);
		sb_putc(&b, '\'');
	}
	return sb_take(&b);
}

/* ---- probes ---- */

/* perf_program: see recipes.h. */
const char *perf_program(void)
{
	const char *p = getenv("PERFDB_PERF");
	return p && *p ? p : "perf";
}

/* executable: 0 when path is an executable regular file, else an errno. */
static int executable(const char *path)
{
	struct stat st;
	if (stat(path, &st))
		return errno;
	if (!S_ISREG(st.st_mode))
		return EACCES;
	return access(path, X_OK) ? errno : 0;
}

/* find_program: see recipes.h. */
int find_program(const char *name, char *buf, size_t len)
{
	const char *path = getenv("PATH"), *p;
	int why = ENOENT;
	if (!*name)
		return ENOENT;
	if (strchr(name, '/')) {
		snprintf(buf, len, "%s", name);
		return executable(name);
	}
	for (p = path ? path : "/usr/local/bin:/bin:/usr/bin"; ; p++) {
		size_t n = strcspn(p, ":");
		int e;
		snprintf(buf, len, "%.*s%s%s", (int)n, n ? p : ".", "/", name);
		if (!(e = executable(buf)))
			return 0;
		if (e == EACCES)
			why = EACCES;
		p += n;
		if (!*p)
			break;
	}
	return why;
}

/* has_events_dir: whether dir/events is a directory. */
static bool has_events_dir(const char *dir)
{
	char path[PATH_MAX + 16];
	struct stat st;
	snprintf(path, sizeof(path), "%s/events", dir);
	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/* tracefs_mount: see recipes.h. */
const char *tracefs_mount(char *buf, size_t len)
{
	static const char *const fallback[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	FILE *f = fopen("/proc/mounts", "r");
	char dev[256], mnt[4096], type[64];
	bool found = false;
	while (f && !found && fscanf(f, "%255s %4095s %63s%*[^\n]", dev, mnt, type) == 3)
		if (!strcmp(type, "tracefs") && has_events_dir(mnt)) {
			snprintf(buf, len, "%s", mnt);
			found = true;
		}
	if (f)
		fclose(f);
	for (size_t i = 0; !found && i < 2; i++)
		if (has_events_dir(fallback[i])) {
			snprintf(buf, len, "%s", fallback[i]);
			found = true;
		}
	return found ? buf : NULL;
}

/* tracefs_mount_if_needed: see recipes.h. */
const char *tracefs_mount_if_needed(char *buf, size_t len, char *err, size_t errlen)
{
	int why = 0;
	if (tracefs_mount(buf, len))
		return buf;
	if (mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL))
		why = errno;
	else if (tracefs_mount(buf, len))
		return buf;
	snprintf(err, errlen, "no tracefs mounted, and mounting it on /sys/kernel/tracing "
		 "failed (%s)", strerror(why ? why : ENOENT));
	return NULL;
}

/* tracepoint_exists: see recipes.h. */
int tracepoint_exists(const char *tracefs, const char *event)
{
	char path[4096];
	size_t sys = strcspn(event, ":"), name;
	struct stat st;
	if (!event[sys] || !sys)
		return -1;
	name = strcspn(event + sys + 1, ":/");
	if (!name)
		return -1;
	snprintf(path, sizeof(path), "%s/events/%.*s/%.*s", tracefs, (int)sys, event,
		 (int)name, event + sys + 1);
	if (!stat(path, &st))
		return 1;
	if (errno != ENOENT)
		return -1;
	snprintf(path, sizeof(path), "%s/events", tracefs);
	return access(path, R_OK | X_OK) ? -1 : 0;
}

/* pmu_has_cycles: see recipes.h. */
bool pmu_has_cycles(char *why, size_t len)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_HARDWARE,
		.size = sizeof(a),
		.config = PERF_COUNT_HW_CPU_CYCLES,
		.disabled = 1,
		.exclude_kernel = 1,
		.exclude_hv = 1,
	};
	long fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
	if (fd < 0) {
		snprintf(why, len, "perf_event_open(cycles): %s", strerror(errno));
		return false;
	}
	close((int)fd);
	snprintf(why, len, "cycles counts");
	return true;
}

/* first_line: s cut at its first newline, blanks trimmed at the end. */
static void first_line(char *s)
{
	size_t n = strcspn(s, "\n");
	s[n] = 0;
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		s[--n] = 0;
}

/* mem_events_probe: see recipes.h. */
int mem_events_probe(const char *perf, char *why, size_t len)
{
	char *argv[] = { (char *)perf, "mem", "record", "-e", "list", NULL };
	char out[4096];
	int ws;
	if (run_capture(argv, out, sizeof(out), &ws)) {
		snprintf(why, len, "%s", out);
		return -1;
	}
	if (WIFEXITED(ws) && !WEXITSTATUS(ws) &&
	    (strstr(out, ": available") || strstr(out, "[ok]"))) {
		snprintf(why, len, "perf mem lists available memory events");
		return 1;
	}
	first_line(out);
	snprintf(why, len, "%s", *out ? out : "perf mem record lists no available events");
	return 0;
}

/* append_name: ", name" (or "name" first) onto buf. */
static void append_name(char *buf, size_t len, const char *name)
{
	size_t n = strlen(buf);
	snprintf(buf + n, len - n, "%s%s", n ? ", " : "", name);
}

/* mem_events_sysfs: see recipes.h. */
const char *mem_events_sysfs(char *buf, size_t len)
{
	static const char *const files[] = {
		"cpu/events/mem-loads", "cpu/events/mem-stores",
		"cpu_core/events/mem-loads", "cpu_core/events/mem-stores",
	};
	const char *base = "/sys/bus/event_source/devices";
	char path[512];
	DIR *d;
	struct dirent *e;
	buf[0] = 0;
	for (size_t i = 0; i < sizeof(files) / sizeof(*files); i++) {
		snprintf(path, sizeof(path), "%s/%s", base, files[i]);
		if (!access(path, F_OK))
			append_name(buf, len, files[i]);
	}
	if (!(d = opendir(base)))
		return buf;
	while ((e = readdir(d)))
		if (!strncmp(e->d_name, "ibs_op", 6) || !strncmp(e->d_name, "arm_spe", 7))
			append_name(buf, len, e->d_name);
	closedir(d);
	return buf;
}

/* child_exec: in a forked child: stdin from /dev/null, stdout and stderr
 * to out, then argv; an exec failure's errno goes down errfd. */
static void child_exec(char *const argv[], int out, int errfd)
{
	int null = open("/dev/null", O_RDONLY), e;
	if (null >= 0)
		dup2(null, 0);
	dup2(out, 1);
	dup2(out, 2);
	execvp(argv[0], argv);
	e = errno;
	if (write(errfd, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

/* read_all: reads fd to its end into out (cut to len-1, NUL-terminated). */
static void read_all(int fd, char *out, size_t len)
{
	size_t n = 0;
	char sink[512];
	for (;;) {
		char *dst = n + 1 < len ? out + n : sink;
		size_t room = n + 1 < len ? len - 1 - n : sizeof(sink);
		ssize_t r = read(fd, dst, room);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		if (dst != sink)
			n += (size_t)r;
	}
	out[n] = 0;
}

/* run_capture: see recipes.h. */
int run_capture(char *const argv[], char *out, size_t len, int *wstatus)
{
	int pipe_out[2], pipe_err[2], e = 0;
	pid_t pid;
	if (pipe2(pipe_out, O_CLOEXEC))
		return snprintf(out, len, "pipe: %s", strerror(errno)), -1;
	if (pipe2(pipe_err, O_CLOEXEC)) {
		close(pipe_out[0]);
		close(pipe_out[1]);
		return snprintf(out, len, "pipe: %s", strerror(errno)), -1;
	}
	if ((pid = fork()) == 0)
		child_exec(argv, pipe_out[1], pipe_err[1]);
	close(pipe_out[1]);
	close(pipe_err[1]);
	read_all(pipe_out[0], out, len);
	close(pipe_out[0]);
	if (pid > 0 && read(pipe_err[0], &e, sizeof(e)) != (ssize_t)sizeof(e))
		e = 0;
	close(pipe_err[0]);
	if (pid < 0)
		return snprintf(out, len, "fork: %s", strerror(errno)), -1;
	while (waitpid(pid, wstatus, 0) < 0 && errno == EINTR)
		;
	if (e)
		return snprintf(out, len, "cannot run %s: %s", argv[0], strerror(e)), -1;
	return 0;
}
