/* Facts about the running system (see sysinfo.h). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "collect/bench/sysinfo.h"
#include "lib/bytes.h"

/* sysinfo_build_id: see sysinfo.h. */
int sysinfo_build_id(const unsigned char *buf, size_t n, char *hex, size_t len)
{
	size_t at = 0;
	while (at + 12 <= n) {
		uint32_t namesz = rd32(buf + at, false), descsz = rd32(buf + at + 4, false);
		uint32_t type = rd32(buf + at + 8, false);
		size_t name_at = at + 12, desc_at = name_at + ((namesz + 3u) & ~3u);
		if (namesz > n || descsz > n || desc_at > n || desc_at + descsz > n)
			return -1;
		if (type == 3 && namesz == 4 && !memcmp(buf + name_at, "GNU", 4)) {
			if (descsz == 0 || 2 * (size_t)descsz + 1 > len)
				return -1;
			for (uint32_t i = 0; i < descsz; i++)
				snprintf(hex + 2 * i, 3, "%02x", buf[desc_at + i]);
			return 0;
		}
		at = desc_at + ((descsz + 3u) & ~3u);
	}
	return -1;
}

/* first_line(path, out, len): the first line of a small file, "" when it
 * cannot be read. */
static void first_line(const char *path, char *out, size_t len)
{
	FILE *f = fopen(path, "r");
	out[0] = 0;
	if (f && fgets(out, (int)len, f))
		out[strcspn(out, "\n")] = 0;
	if (f)
		fclose(f);
}

/* field_of(path, key, out, len): the value after "key" and ':' on the
 * first such line of path, trimmed; "" when none. */
static void field_of(const char *path, const char *key, char *out, size_t len)
{
	FILE *f = fopen(path, "r");
	char line[512];
	size_t k = strlen(key);
	out[0] = 0;
	while (f && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');
		if (strncmp(line, key, k) || !colon)
			continue;
		colon += 1 + strspn(colon + 1, " \t");
		colon[strcspn(colon, "\n")] = 0;
		snprintf(out, len, "%s", colon);
		break;
	}
	if (f)
		fclose(f);
}

/* read_build_id(f): the running kernel's build id from /sys/kernel/notes. */
static void read_build_id(struct sysinfo_facts *f)
{
	unsigned char buf[4096];
	FILE *fp = fopen("/sys/kernel/notes", "rb");
	size_t n = fp ? fread(buf, 1, sizeof(buf), fp) : 0;
	if (fp)
		fclose(fp);
	if (sysinfo_build_id(buf, n, f->kernel_build_id, sizeof(f->kernel_build_id)))
		f->kernel_build_id[0] = 0;
}

/* sysinfo_read: see sysinfo.h. */
void sysinfo_read(struct sysinfo_facts *f)
{
	struct utsname u;
	char mem[64];
	memset(f, 0, sizeof(*f));
	if (!uname(&u)) {
		snprintf(f->hostname, sizeof(f->hostname), "%.255s", u.nodename);
		snprintf(f->os_release, sizeof(f->os_release), "%.127s", u.release);
		snprintf(f->os_version, sizeof(f->os_version), "%.255s", u.version);
		snprintf(f->arch, sizeof(f->arch), "%.63s", u.machine);
	}
	read_build_id(f);
	first_line("/proc/sys/kernel/random/boot_id", f->boot_id, sizeof(f->boot_id));
	field_of("/proc/cpuinfo", "model name", f->cpu_model, sizeof(f->cpu_model));
	f->cpus_online = (int)sysconf(_SC_NPROCESSORS_ONLN);
	field_of("/proc/meminfo", "MemTotal", mem, sizeof(mem));
	sscanf(mem, "%lld", &f->mem_total_kb);
}
