/* Where a dso's symbols come from: see dso_load.h. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "lib/alloc.h"
#include "collect/symbols/buildid_cache.h"
#include "collect/symbols/dso_load.h"
#include "collect/symbols/elfsyms.h"

void build_id_hex(const uint8_t *id, size_t n, char *out)
{
	for (size_t i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", id[i]);
	out[2 * n] = 0;
}

bool recorded_here(const struct pd_reader *r)
{
	struct utsname u;
	return r->features.osrelease && !uname(&u) &&
	       !strcmp(u.release, r->features.osrelease);
}

/* set_dso_info: remembers a dso's build id and where its symbols came
 * from, for its row. */
static void set_dso_info(struct dso *d, const char *build_id, const char *symbols)
{
	free(d->build_id_hex);
	free(d->symbols);
	d->build_id_hex = xstrdup(build_id);	/* NULL stays NULL */
	d->symbols = xstrdup(symbols);
}

/* use_debug_file: takes d's symbols from its separate debug file
 * (/usr/lib/debug/.build-id/ab/cdef....debug, else /usr/lib/debug/PATH),
 * which has the full symbol table a stripped library lacks (start_thread
 * in libc, say), as perf does. Its symbols have the same addresses; ips
 * are still mapped through the mapped file's own segments. */
static bool use_debug_file(struct dso *d, const char *build_id)
{
	char path[PATH_MAX], err[256];
	struct elfsyms *e = NULL;
	if (strlen(build_id) > 2) {
		snprintf(path, sizeof(path), "/usr/lib/debug/.build-id/%.2s/%s.debug",
			 build_id, build_id + 2);
		e = elfsyms_open(path, err, sizeof(err));
	}
	if (!e && (size_t)snprintf(path, sizeof(path), "/usr/lib/debug%s", d->path) < sizeof(path))
		e = elfsyms_open(path, err, sizeof(err));
	if (!e || !symtab_count(elfsyms_symtab(e))) {
		elfsyms_close(e);
		return false;
	}
	d->debug = e;
	return true;
}

/* own_vdso_size: the size of this process's [vdso] mapping, or 0. */
static size_t own_vdso_size(uint64_t base)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	unsigned long long lo, hi;
	size_t size = 0;
	while (f && fgets(line, sizeof(line), f))
		if (strstr(line, "[vdso]") && sscanf(line, "%llx-%llx", &lo, &hi) == 2 && lo == base)
			size = (size_t)(hi - lo);
	if (f)
		fclose(f);
	return size;
}

/* open_own_vdso: the symbols of this process's vDSO, which is the
 * recording's when the recording was made on this kernel (perf does the
 * same); copied to a temporary file for libelf. NULL when unavailable. */
static struct elfsyms *open_own_vdso(char *err, size_t errlen)
{
	uint64_t base = getauxval(AT_SYSINFO_EHDR);
	size_t size = base ? own_vdso_size(base) : 0;
	char path[] = "/tmp/perfdb-vdso-XXXXXX";
	struct elfsyms *e = NULL;
	int fd;
	if (!size || (fd = mkstemp(path)) < 0)
		return NULL;
	if (write(fd, (const void *)(uintptr_t)base, size) == (ssize_t)size)
		e = elfsyms_open(path, err, errlen);
	close(fd);
	unlink(path);
	return e;
}

/* open_build: opens the ELF file path as d's, when it is the build
 * expected (any build when exp is NULL); else false with why. Adds its
 * separate debug file when there is one; symbols names the source. */
static bool open_build(struct dso *d, const char *path, const char *exp, const char *source,
		       char *why, size_t whylen)
{
	char have[2 * ELFSYMS_BUILD_ID_MAX + 1], how[PATH_MAX + 32];
	uint8_t id[ELFSYMS_BUILD_ID_MAX];
	size_t n = sizeof(id);
	if (!(d->elf = elfsyms_open(path, why, whylen)))
		return false;
	have[0] = 0;
	if (!elfsyms_build_id(d->elf, id, &n))
		build_id_hex(id, n, have);
	if (exp && strcmp(exp, have)) {
		elfsyms_close(d->elf);
		d->elf = NULL;
		snprintf(why, whylen, "build-id mismatch: file on disk is another build");
		return false;
	}
	d->loaded = 1;
	d->file = xstrdup(path);
	snprintf(how, sizeof(how), "%s%s", source, use_debug_file(d, have) ? "+debug" : "");
	set_dso_info(d, exp ? exp : (have[0] ? have : NULL), how);
	return true;
}

/* dso_load: see dso_load.h. The ELF file is used when it is on disk and,
 * when the recording knew its build id, is the same build; else the copy
 * of that build in perf's build-id cache, as perf report does. */
void dso_load(struct dso *d, const char *exp, bool this_kernel)
{
	char why[512], cached[4096], source[4200];
	bool vdso = !strcmp(d->path, "[vdso]");
	d->loaded = -1;
	if (vdso && this_kernel && (d->elf = open_own_vdso(why, sizeof(why)))) {
		d->loaded = 1;
		set_dso_info(d, exp, "vdso of this kernel");
		/* a file of it for the unwinder: perf record's copy in the cache */
		if (exp && buildid_cache_file(exp, "vdso", cached, sizeof(cached)))
			d->file = xstrdup(cached);
		return;
	}
	snprintf(why, sizeof(why), "not a file");
	if (d->path[0] == '/' && strncmp(d->path, "//", 2) &&
	    open_build(d, d->path, exp, "elf", why, sizeof(why)))
		return;
	if (exp && buildid_cache_file(exp, vdso ? "vdso" : "elf", cached, sizeof(cached))) {
		char ignored[512];
		snprintf(source, sizeof(source), "build-id cache %s", cached);
		if (open_build(d, cached, exp, source, ignored, sizeof(ignored)))
			return;
	}
	set_dso_info(d, exp, why);
}

const struct sym *dso_symbol(const struct dso *d, uint64_t start, uint64_t len,
			     uint64_t pgoff, uint64_t ip, uint64_t *off)
{
	bool ok = false;
	uint64_t vaddr = elfsyms_map_ip(d->elf, start, len, pgoff, ip, &ok);
	const struct sym *s;
	if (!ok)
		return NULL;
	/* the mapped file's PLT entries first (a debug file has none), then a
	 * debug file's symbols */
	if (d->debug && (s = elfsyms_find_plt(d->elf, vaddr, off)))
		return s;
	return elfsyms_find(d->debug ? d->debug : d->elf, vaddr, off);
}

void dso_free(struct dso *d)
{
	free(d->path);
	free(d->file);
	free(d->build_id_hex);
	free(d->symbols);
	elfsyms_close(d->elf);
	elfsyms_close(d->debug);
}
