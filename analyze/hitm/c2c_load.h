/* Loading a session's memory samples for `perfdb hitm` and grouping them
 * into cachelines the way `perf c2c report` does.
 *
 * perf c2c groups samples by the "dcacheline" sort key (sort.c's
 * sort__dcacheline_cmp): the sample's cpumode, then the data address's
 * map (none, or its backing file: maps of anonymous memory and other maps
 * without a device/inode compare equal), then, for a sample outside the
 * kernel in such an anonymous private map, the pid, and last the 64-byte
 * line of the map-relative address (the address itself in anonymous and
 * kernel memory, the file offset in a file mapping). The line's shown
 * address is the virtual line of its first sample. perfdb keeps no inode
 * numbers, so a file is anonymous when its path is not a real file path
 * ("//anon", "[heap]", "[stack]", "[vdso]", "/dev/zero", ...); a map is
 * found from the session's mmap rows of the sample's process (and, for a
 * process that has not exec'ed, its parents' maps from before its fork).
 * Samples of several sessions never share a line.
 *
 * Samples are not kept: each one, decoded, is counted into its line and
 * the totals and handed to the caller's sink (struct c2c_sink) while the
 * next is read, so what a load holds grows with lines and code sites, not
 * with samples. */
#ifndef PERFDB_C2C_LOAD_H
#define PERFDB_C2C_LOAD_H
#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

#include "analyze/hitm/c2c.h"

/* The largest CPU number a sample keeps: CPU sets are bitsets, and a
 * database may say anything (an import stores the CPU perf.data gives);
 * a sample on a CPU past it counts as on an unknown CPU (-1). */
#define C2C_CPU_MAX 65535

/* One memory sample, as a sink sees it (only while it is called). */
struct c2c_sample {
	int64_t time;
	uint64_t addr, ip;
	uint32_t weight;
	int32_t cpu, node;	/* CPU (-1 unknown) and its node in the topology, -1 */
	int32_t pid, tid;
	int32_t site;		/* code site (c2c_data.sites), -1 when unknown */
	int32_t line;		/* cacheline index (c2c_data.lines) */
	uint16_t session;	/* index in c2c_data.sessions */
	uint8_t cpumode;	/* 1 kernel, 2 user, ... */
	uint8_t cls;		/* enum c2c_class */
	uint8_t stc;		/* store levels: C2C_ST_L1HIT | L1MISS | NA */
};

#define C2C_ST_L1HIT	1
#define C2C_ST_L1MISS	2
#define C2C_ST_NA	4

/* One cacheline: the counters of the samples whose key it is. */
struct c2c_line {
	uint64_t address;	/* virtual line address of its first sample */
	int32_t group;		/* key group (session, cpumode, map kind, id) */
	uint16_t session;
	uint8_t cpumode;
	int32_t pid;		/* pid of an anonymous private user line, else -1 */
	struct c2c_stats st;
	size_t n;		/* how many samples it has */
};

struct c2c_data {
	int64_t *sessions;	/* session ids, as loaded */
	size_t nsessions;
	size_t n;		/* how many samples were loaded */
	struct c2c_line *lines;
	size_t nlines, lines_cap;
	char **sites;		/* "symbol+0xoff" or "0xaddr" strings */
	size_t nsites, sites_cap;
	struct c2c_stats total;	/* every sample */
	char **events;		/* names of the memory events seen */
	size_t nevents;
	int max_cpu;		/* largest CPU number seen, -1 none */
	int ngroups;
	void *priv;		/* the key index, while loading */
};

/* Who gets each sample: sample(ctx, d, s) is called once per sample, in
 * sample order, after s is counted in d->total and its line (s->line and
 * s->site set; d's lines and sites hold it). s is valid during the call. */
struct c2c_sink {
	void (*sample)(void *ctx, const struct c2c_data *d, const struct c2c_sample *s);
	void *ctx;
};

/* c2c_load(db, session, d, sink, err, errlen): adds the memory samples
 * (rows of mem_sample) of session to d (zero it before the first call;
 * sessions are added in call order), decoded and grouped into cachelines,
 * each handed to sink (NULL: none) and then dropped. Returns 0, or -1 with
 * a message in err. */
int c2c_load(sqlite3 *db, int64_t session, struct c2c_data *d, const struct c2c_sink *sink,
	     char *err, size_t errlen);

/* c2c_data_free(d): frees what d holds and zeroes it. */
void c2c_data_free(struct c2c_data *d);

/* c2c_anon_path(path): whether perf would see a mapping of path as
 * memory without a backing file (no device and inode numbers). */
int c2c_anon_path(const char *path);

/* c2c_identity_path(path): whether perf maps addresses of a mapping of
 * path to themselves (anonymous memory, heap, stack, SysV shm) rather
 * than to file offsets. */
int c2c_identity_path(const char *path);
#endif
