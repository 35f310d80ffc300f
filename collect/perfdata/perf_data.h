/* perf.data reader: the public types and entry points. A streaming reader for
 * file mode and pipe mode, native and foreign endianness, COMPRESSED records,
 * delivering records in time order (FINISHED_ROUND windows) to a callback.
 * The file is untrusted: every length is checked and every error names the
 * file offset it was found at. Memory stays bounded whatever the file size. */
#ifndef PERFDB_PERF_DATA_H
#define PERFDB_PERF_DATA_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "collect/perfdata/features.h"

struct tep_handle;

/* Record types (the kernel's and perf's user-space ones). */
enum {
	PD_MMAP = 1, PD_LOST = 2, PD_COMM = 3, PD_EXIT = 4, PD_THROTTLE = 5,
	PD_UNTHROTTLE = 6, PD_FORK = 7, PD_READ = 8, PD_SAMPLE = 9, PD_MMAP2 = 10,
	PD_AUX = 11, PD_ITRACE_START = 12, PD_LOST_SAMPLES = 13, PD_SWITCH = 14,
	PD_SWITCH_CPU_WIDE = 15, PD_NAMESPACES = 16, PD_KSYMBOL = 17,
	PD_BPF_EVENT = 18, PD_CGROUP = 19, PD_TEXT_POKE = 20,
	PD_AUX_OUTPUT_HW_ID = 21,
	PD_HEADER_ATTR = 64, PD_HEADER_EVENT_TYPE = 65,
	PD_HEADER_TRACING_DATA = 66, PD_HEADER_BUILD_ID = 67,
	PD_FINISHED_ROUND = 68, PD_ID_INDEX = 69, PD_AUXTRACE_INFO = 70,
	PD_AUXTRACE = 71, PD_AUXTRACE_ERROR = 72, PD_THREAD_MAP = 73,
	PD_CPU_MAP = 74, PD_STAT_CONFIG = 75, PD_STAT = 76, PD_STAT_ROUND = 77,
	PD_EVENT_UPDATE = 78, PD_TIME_CONV = 79, PD_HEADER_FEATURE = 80,
	PD_COMPRESSED = 81, PD_FINISHED_INIT = 82, PD_COMPRESSED2 = 83,
};

/* One event selector: an attr from the file plus its ids and name. */
struct pd_evsel {
	int idx;			/* position in the file's attr list */
	uint32_t type, size;		/* attr.type, attr.size as written */
	uint64_t config, config1, config2, sample_period;
	uint64_t sample_type, read_format, flags;	/* flags: the attr bitfield */
	uint64_t branch_sample_type, sample_regs_user, sample_regs_intr;
	uint32_t sample_stack_user, bp_type;
	char *name;			/* "sched:sched_switch", "cycles", ... */
	uint64_t *ids;
	size_t nr_ids;
	void *user;			/* for the consumer (e.g. its event row id) */
};

/* sample_type bits the reader's users look at. */
#define PD_SAMPLE_READ		(1ULL << 4)

/* attr.flags bits perfdb looks at. */
#define PD_ATTR_EXCLUDE_KERNEL	(1ULL << 5)
#define PD_ATTR_FREQ		(1ULL << 10)
#define PD_ATTR_SAMPLE_ID_ALL	(1ULL << 18)
/* The largest count a LOST or LOST_SAMPLES record may carry: 2^40 (ten
 * million events a second lost on one CPU for more than a day). A larger
 * one is not a count the kernel writes: pd_read refuses the file, so that
 * sums of counts stay exact in int64. */
#define PD_LOST_MAX		(1ULL << 40)

/* A decoded SAMPLE record. Pointers refer into the record's bytes and stay
 * valid only during the callback. Absent fields are zero. */
struct pd_sample {
	uint64_t id, ip, time, addr, stream_id, period;
	uint32_t pid, tid, cpu;
	uint64_t weight, data_src, transaction, phys_addr, cgroup;
	uint64_t data_page_size, code_page_size;
	uint32_t ins_lat;		/* WEIGHT_STRUCT var2 */
	uint64_t nr_callchain;
	const uint8_t *callchain;	/* nr_callchain u64s in file byte order */
	uint32_t raw_size;
	const uint8_t *raw;		/* tracepoint payload, file byte order */
	uint64_t nr_branches;
	const uint8_t *branches;	/* nr_branches {from,to,flags} u64 triples */
	uint64_t read_nr;		/* READ: counter values (group members) */
	const uint8_t *read;		/* first value; each read_stride bytes */
	uint32_t read_stride, read_id_off;	/* id at +read_id_off (0: none) */
	uint64_t regs_user_abi;		/* REGS_USER: 0 none, 1 32-bit, 2 64-bit */
	const uint8_t *regs_user;	/* one u64 per bit of sample_regs_user */
	uint64_t stack_user_size;	/* STACK_USER: bytes copied from the SP up */
	const uint8_t *stack_user;	/* ... of which stack_user_dyn are valid */
	uint64_t stack_user_dyn;
	bool has_time, has_cpu, has_tid;
};

/* A decoded side-band record (what ingest needs from each type). */
struct pd_sideband {
	uint32_t pid, tid, ppid, ptid;	/* COMM/FORK/EXIT/MMAP*, SWITCH_CPU_WIDE */
	uint64_t addr, len, pgoff;	/* MMAP/MMAP2, KSYMBOL (addr, len) */
	uint32_t prot, mflags;		/* MMAP2 */
	uint8_t build_id[20], build_id_size;	/* MMAP2 with MISC_MMAP_BUILD_ID */
	uint64_t lost, lost_id;		/* LOST, LOST_SAMPLES */
	uint64_t fork_time;		/* FORK/EXIT body time */
	const char *str;		/* COMM comm, MMAP filename, KSYMBOL name, CGROUP path */
};

/* One record as delivered to the consumer. */
struct pd_event {
	uint32_t type;
	uint16_t misc;
	uint64_t file_offset;		/* record (or enclosing COMPRESSED) offset */
	struct pd_evsel *evsel;		/* SAMPLE: its evsel; others: from trailer */
	struct pd_sample sample;	/* SAMPLE fields, or the sample_id_all trailer */
	struct pd_sideband sb;
};

/* The reader. All fields are read-only for consumers. */
struct pd_reader {
	const char *path;
	FILE *fp;
	bool pipe_mode, swap, big_endian, v1_magic;
	bool unfinished;		/* file mode, data size 0: perf record
					 * never finished the header (killed);
					 * records are read to the end of the
					 * file, the last one may be cut */
	uint64_t zstd_tail;		/* bytes of a record the compressed
					 * data ended inside of (left out) */
	uint64_t file_size;		/* 0 when unknown (pipe) */
	uint64_t data_offset, data_size;
	struct pd_evsel **evsels;
	size_t nr_evsels;
	struct pd_features features;
	struct tep_handle *tep;		/* from TRACING_DATA, or NULL */
	uint64_t nr_records, nr_samples, nr_lost, nr_lost_samples;
	uint64_t nr_lost_records;	/* LOST records (nr_lost: their counts) */
	uint64_t nr_unordered;		/* records older than the last flush */
	uint64_t nr_unknown_id;		/* samples whose id matched no attr */
	uint64_t bytes_done;		/* progress, in file bytes */
	char **warnings;		/* "PATH: offset N: what" for what was */
	size_t nr_warnings;		/* skipped, to show once the read succeeded */
	struct pd_internal *in;		/* reader internals (perf_data_*.c) */
};

/* Callbacks. Any that returns non-zero stops the read with that status. */
struct pd_ops {
	void *ctx;
	/* Called once, before the first record is delivered, when evsels,
	 * features and tracing data are known (pipe mode: at the first record
	 * that is not header material). */
	int (*begin)(void *ctx, struct pd_reader *r);
	int (*event)(void *ctx, struct pd_reader *r, const struct pd_event *ev);
	/* Called every few MiB with the bytes read so far; may be NULL. */
	void (*progress)(void *ctx, const struct pd_reader *r);
};

/* pd_open: opens path ("-" = stdin), reads the header, attrs and (file
 * mode) feature sections and tracing data. Returns NULL on error with a
 * message "PATH: offset N: what" in err. */
struct pd_reader *pd_open(const char *path, char *err, size_t errlen);

/* pd_read: reads every record and delivers them in time order. Returns 0,
 * a callback's non-zero status, or -1 with a message in err (offset named). */
int pd_read(struct pd_reader *r, const struct pd_ops *ops, char *err, size_t errlen);

/* How a TRACING_DATA blob is vetted before libtraceevent parses it in
 * this process. PD_VET_FORK (the default, what perfdb does): it is parsed
 * in a child process first, and refused unless the child came back with
 * its "ok" verdict (libtraceevent still crashes on some corrupted formats
 * that tracing_data_parse's own checks let through). PD_VET_INPROCESS:
 * parsed here at once, behind those checks only (the fuzzing harnesses,
 * where a crash is what is looked for, and a fork per input too slow).
 * PD_VET_SKIP: tracing data is ignored (r->tep stays NULL; the reader
 * alone, with no tracepoint decoding). */
enum pd_tracing_vet { PD_VET_FORK, PD_VET_INPROCESS, PD_VET_SKIP };

/* pd_set_tracing_vet(v): sets how every later pd_open/pd_read vets
 * tracing data (process-wide). */
void pd_set_tracing_vet(enum pd_tracing_vet v);

/* pd_close: frees the reader and everything it owns. NULL is a no-op. */
void pd_close(struct pd_reader *r);

/* pd_id_cpu(r, id): the CPU whose ring buffer sample id id wrote to, as
 * the recording's ID_INDEX says, or -1 (no ID_INDEX entry, or a per-thread
 * buffer). Known once the ID_INDEX record was read (perf writes it before
 * the samples). */
int pd_id_cpu(const struct pd_reader *r, uint64_t id);

/* pd_callchain_at: the i-th callchain entry of s, in host byte order. */
uint64_t pd_callchain_at(const struct pd_reader *r, const struct pd_sample *s, uint64_t i);

/* pd_u64_at / pd_u32_at: host-order loads from record bytes. */
uint64_t pd_u64_at(const struct pd_reader *r, const uint8_t *p);

/* Callchain context markers (values >= PD_MAX_CONTEXT are markers). */
#define PD_CONTEXT_HV		((uint64_t)-32)
#define PD_CONTEXT_KERNEL	((uint64_t)-128)
#define PD_CONTEXT_USER		((uint64_t)-512)
#define PD_CONTEXT_GUEST	((uint64_t)-2048)
#define PD_CONTEXT_GUEST_KERNEL	((uint64_t)-2176)
#define PD_CONTEXT_GUEST_USER	((uint64_t)-2560)
#define PD_CONTEXT_MAX		((uint64_t)-4095)

/* misc cpumode values (misc & 7). */
enum { PD_CPUMODE_KERNEL = 1, PD_CPUMODE_USER = 2, PD_CPUMODE_HV = 3,
       PD_CPUMODE_GUEST_KERNEL = 4, PD_CPUMODE_GUEST_USER = 5 };
#define PD_MISC_COMM_EXEC	(1 << 13)
#define PD_MISC_MMAP_BUILD_ID	(1 << 14)

#endif
