/* Facts about the running machine, kernel and boot that a bench belongs
 * to: a bench's numbers are only comparable with others of the same
 * kernel build, and are summarized per boot. */
#ifndef PERFDB_SYSINFO_H
#define PERFDB_SYSINFO_H
#include <stddef.h>

struct sysinfo_facts {
	char hostname[256];
	char os_release[128];	/* uname -r */
	char os_version[256];	/* uname -v */
	char arch[64];
	char kernel_build_id[129];	/* hex, "" when unknown */
	char boot_id[64];	/* /proc/sys/kernel/random/boot_id, "" when unknown */
	char cpu_model[256];	/* /proc/cpuinfo's first "model name", "" when none */
	int cpus_online;
	long long mem_total_kb;	/* /proc/meminfo MemTotal, 0 when unknown */
};

/* sysinfo_read(f): the facts of the running system. */
void sysinfo_read(struct sysinfo_facts *f);

/* sysinfo_build_id(buf, n, hex, len): the GNU build id (note type 3,
 * name "GNU") in the ELF notes buf[0..n) (the format of
 * /sys/kernel/notes), as lower-case hex into hex. Returns 0, or -1 when
 * there is none or a note is cut short. */
int sysinfo_build_id(const unsigned char *buf, size_t n, char *hex, size_t len);
#endif
