/* perf.data header feature sections (HOSTNAME, EVENT_DESC, CPU_TOPOLOGY,
 * BUILD_ID, ...): decodes each section's bytes into struct pd_features.
 * In file mode the sections follow the data section, one {u64 offset,
 * u64 size} per set bit of the header's 256-bit feature bitmap, in bit
 * order; in pipe mode each arrives as a PERF_RECORD_HEADER_FEATURE record
 * whose payload after the 8-byte header is a u64 feature id and then the
 * same section bytes. Either way the caller hands the bytes to
 * pd_feature_parse(). Formats: tools/perf/util/header.c (write_* and
 * process_*) and tools/perf/Documentation/perf.data-file-format.txt. */
#ifndef PERFDB_FEATURES_H
#define PERFDB_FEATURES_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Feature ids: bit numbers in the header's feature bitmap. */
enum pd_feature_id {
	PD_FEAT_TRACING_DATA = 1,	/* not decoded here (libtraceevent) */
	PD_FEAT_BUILD_ID = 2,
	PD_FEAT_HOSTNAME = 3,
	PD_FEAT_OSRELEASE = 4,
	PD_FEAT_VERSION = 5,
	PD_FEAT_ARCH = 6,
	PD_FEAT_NRCPUS = 7,
	PD_FEAT_CPUDESC = 8,
	PD_FEAT_CPUID = 9,
	PD_FEAT_TOTAL_MEM = 10,
	PD_FEAT_CMDLINE = 11,
	PD_FEAT_EVENT_DESC = 12,
	PD_FEAT_CPU_TOPOLOGY = 13,
	PD_FEAT_NUMA_TOPOLOGY = 14,
	PD_FEAT_BRANCH_STACK = 15,
	PD_FEAT_PMU_MAPPINGS = 16,
	PD_FEAT_GROUP_DESC = 17,
	PD_FEAT_AUXTRACE = 18,
	PD_FEAT_STAT = 19,
	PD_FEAT_CACHE = 20,
	PD_FEAT_SAMPLE_TIME = 21,
	PD_FEAT_MEM_TOPOLOGY = 22,
	PD_FEAT_CLOCKID = 23,
	PD_FEAT_DIR_FORMAT = 24,
	PD_FEAT_BPF_PROG_INFO = 25,
	PD_FEAT_BPF_BTF = 26,
	PD_FEAT_COMPRESSED = 27,
	PD_FEAT_CPU_PMU_CAPS = 28,
	PD_FEAT_CLOCK_DATA = 29,
	PD_FEAT_HYBRID_TOPOLOGY = 30,
	PD_FEAT_PMU_CAPS = 31,
	PD_FEAT_CPU_DOMAIN_INFO = 32,	/* perf 6.18+; named, not decoded */
	PD_FEAT_BITS = 256		/* size of the header bitmap */
};

/* header.misc bit of a build-id record: build_id[20] holds the length. */
#define PD_BUILD_ID_MISC_SIZE (1u << 15)
#define PD_BUILD_ID_MAX 20		/* bytes; sha1 */

/* One EVENT_DESC entry: an event as perf record named it. */
struct pd_event_desc {
	char *name;		/* e.g. "sched:sched_switch", "cycles" */
	uint32_t type;		/* perf_event_attr.type (PERF_TYPE_*) */
	uint32_t attr_size;	/* perf_event_attr.size, the attr's own field */
	uint64_t config;	/* perf_event_attr.config */
	uint64_t *ids;		/* sample ids of this event's instances */
	uint32_t nr_ids;
};

/* Per-CPU ids from CPU_TOPOLOGY, indexed by CPU number. */
struct pd_cpu_topo {
	uint32_t core_id;
	uint32_t socket_id;
	uint32_t die_id;	/* 0 when the file has no die ids */
};

/* One NUMA_TOPOLOGY node. */
struct pd_numa_node {
	uint32_t node;
	uint64_t mem_total;	/* kB */
	uint64_t mem_free;	/* kB */
	char *cpus;		/* CPU list, e.g. "0-7,16-23" */
};

/* One BUILD_ID table entry. */
struct pd_build_id {
	int32_t pid;		/* -1 host kernel, 0 default guest, or a pid */
	uint16_t misc;		/* record header misc: cpumode bits (kernel/user) */
	uint8_t size;		/* build id length in bytes, 0..20 (20 unless
				 * misc has PD_BUILD_ID_MISC_SIZE) */
	char hex[2 * PD_BUILD_ID_MAX + 1];	/* lower-case hex, size*2 digits */
	char *filename;		/* "[kernel.kallsyms]", "/lib/libc.so.6", ... */
};

/* One PMU_MAPPINGS entry: a PMU and the perf_event_attr.type it uses. */
struct pd_pmu_mapping {
	uint32_t type;
	char *name;		/* "cpu", "ibs_op", "uprobe", ... */
};

/*
 * Everything decoded from a file's feature sections. All fields are owned
 * by the struct (pd_features_free releases them); strings are always
 * NUL-terminated. A field stays zero/NULL until its feature is parsed, and
 * `present` says which were: bit id of present[id / 64] is set once
 * feature `id` has been parsed successfully. Parsing a feature again
 * replaces its earlier values.
 */
struct pd_features {
	uint64_t present[PD_FEAT_BITS / 64];

	/* HOSTNAME, OSRELEASE, VERSION, ARCH, CPUDESC, CPUID */
	char *hostname;		/* uname -n */
	char *osrelease;	/* uname -r */
	char *version;		/* perf version, e.g. "6.1.192" */
	char *arch;		/* uname -m */
	char *cpudesc;		/* /proc/cpuinfo model name */
	char *cpuid;		/* e.g. "GenuineIntel,6,85,4" */

	/* NRCPUS: nr_cpus_avail sizes the per-CPU part of CPU_TOPOLOGY, so
	 * parse NRCPUS first (bit order, as perf writes them, does); without
	 * it CPU_TOPOLOGY keeps only the sibling lists. */
	uint32_t nr_cpus_avail;	/* max present CPU + 1 */
	uint32_t nr_cpus_online;

	/* TOTAL_MEM */
	uint64_t total_mem_kb;

	/* CMDLINE: argv[0] is the perf binary's path */
	char **argv;
	uint32_t argc;
	char *cmdline;		/* argv joined with single spaces */

	/* EVENT_DESC, in the file's order (= attr order) */
	struct pd_event_desc *events;
	uint32_t nr_events;

	/* CPU_TOPOLOGY: sibling lists ("sibling sockets/dies/threads" in
	 * perf report -I), then per-CPU ids when the file has them. */
	char **core_siblings;	/* CPUs per package */
	uint32_t nr_core_siblings;
	char **thread_siblings;	/* CPUs per core */
	uint32_t nr_thread_siblings;
	char **die_siblings;	/* CPUs per die; only newer perf */
	uint32_t nr_die_siblings;
	struct pd_cpu_topo *cpus;	/* nr_cpus entries, or NULL */
	uint32_t nr_cpus;	/* nr_cpus_avail when per-CPU ids are present */
	bool has_die_ids;	/* cpus[].die_id came from the file */

	/* NUMA_TOPOLOGY */
	struct pd_numa_node *numa_nodes;
	uint32_t nr_numa_nodes;

	/* PMU_MAPPINGS */
	struct pd_pmu_mapping *pmus;
	uint32_t nr_pmus;

	/* BUILD_ID */
	struct pd_build_id *build_ids;
	uint32_t nr_build_ids;

	/* SAMPLE_TIME: perf clock ns */
	uint64_t first_sample_time;
	uint64_t last_sample_time;

	/* CLOCKID: resolution of the recording clock, ns */
	uint64_t clockid_res_ns;

	/* CLOCK_DATA: one pair of readings mapping perf time to wall time */
	struct {
		uint32_t version;
		uint32_t clockid;	/* CLOCK_* id of the perf clock */
		uint64_t wall_clock_ns;	/* time of day, ns since the epoch */
		uint64_t clockid_time_ns;	/* same instant on the perf clock */
	} clock_data;

	/* COMPRESSED (perf record -z) */
	struct {
		uint32_t version;
		uint32_t type;		/* 1 = zstd */
		uint32_t level;
		uint32_t ratio;
		uint32_t mmap_len;
	} compressed;
};

/* pd_features_init: an empty set (all zero), ready for pd_feature_parse. */
void pd_features_init(struct pd_features *f);

/* pd_features_free: releases everything f owns and leaves it empty
 * (re-initialized), so it may be freed again or reused. */
void pd_features_free(struct pd_features *f);

/*
 * pd_feature_parse: decodes one feature section. id is the HEADER_* bit
 * number, buf/len the section's bytes, swap true when the file's byte order
 * is not ours. Returns 0 on success; unknown or undecoded ids (TRACING_DATA,
 * CACHE, ...) are ignored and return 0. On malformed input returns -1,
 * leaves f as it was, and writes one line into err (errlen bytes, may be
 * 0) naming the feature and the byte offset within buf, e.g.
 * "hostname: string of 300 bytes overruns the 64 bytes left at offset 0
 * (section has 68 bytes)".
 * Never reads outside buf; counts are checked against the bytes left
 * before anything is allocated. Returns -2 (err set the same way) when a
 * count fits the bytes but passes a limit no real recording reaches
 * (arguments, events, ids, CPU lists, NUMA nodes, PMUs, build ids): the
 * caller should refuse the file rather than go on without the feature.
 */
int pd_feature_parse(struct pd_features *f, int id, const void *buf, size_t len,
		     bool swap, char *err, size_t errlen);

/* pd_feature_name: the lower-case name of feature id ("hostname",
 * "osrelease", "event_desc", ...), or NULL for an id perf does not define. */
const char *pd_feature_name(int id);

/* pd_feature_has: whether feature id has been parsed into f. */
static inline bool pd_feature_has(const struct pd_features *f, int id)
{
	return id >= 0 && id < PD_FEAT_BITS &&
	       (f->present[id / 64] >> (id % 64)) & 1;
}
#endif
