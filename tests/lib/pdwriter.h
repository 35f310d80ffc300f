/* pdwriter: a small perf.data WRITER for test fixtures, written from the
 * format description (tools/perf/Documentation/perf.data-file-format.txt and
 * the kernel's perf_event.h record layouts), not from perf's code.
 *
 * It builds a file in memory, in either byte order, in file mode
 *   [header 104][attr ids][attrs][data][feature index][feature sections]
 * or pipe mode
 *   [header 16][HEADER_ATTR...][HEADER_FEATURE...][HEADER_TRACING_DATA +
 *    payload][records...]
 * (HEADER_FEATURE records unpadded, as perf writes them, so later records
 * may sit at offsets that are only 4-aligned)
 * (features first with pdw_opts.pipe_features_first, as perf >= 5 does),
 * and writes it to a buffer or a path. Every field is written in the chosen
 * byte order, the attr bitfield included: a big-endian file gets the layout a
 * big-endian compiler gives (fields allocated from the most significant bit
 * of the u64, a multi-bit field keeping its own bit order), checked against
 * clang --target=powerpc64-linux-gnu on the uapi perf_event_attr.
 *
 * Records are appended in call order. pdw_compress_start() sends later
 * records into one zstd stream (ZSTD_e_flush per COMPRESSED record, never
 * ended, as perf record -z does); pdw_compress_flush(w, n) cuts a COMPRESSED
 * (or COMPRESSED2) record after exactly n pending bytes, so an inner record
 * can straddle two of them at any byte.
 *
 * Files meant for perf 6.1 (perf script, perf c2c report) should give every
 * attr the same size (<= 128), and set NRCPUS before CPU_TOPOLOGY and a
 * NUMA_TOPOLOGY for c2c. Functions return 0 (or an index) on success and -1
 * on misuse, with pdw_error() saying why; memory exhaustion aborts. */
#ifndef PERFDB_TESTS_PDWRITER_H
#define PERFDB_TESTS_PDWRITER_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* sample_type bits (PERF_SAMPLE_*). */
#define PDW_SAMPLE_IP			(1ULL << 0)
#define PDW_SAMPLE_TID			(1ULL << 1)
#define PDW_SAMPLE_TIME			(1ULL << 2)
#define PDW_SAMPLE_ADDR			(1ULL << 3)
#define PDW_SAMPLE_READ			(1ULL << 4)
#define PDW_SAMPLE_CALLCHAIN		(1ULL << 5)
#define PDW_SAMPLE_ID			(1ULL << 6)
#define PDW_SAMPLE_CPU			(1ULL << 7)
#define PDW_SAMPLE_PERIOD		(1ULL << 8)
#define PDW_SAMPLE_STREAM_ID		(1ULL << 9)
#define PDW_SAMPLE_RAW			(1ULL << 10)
#define PDW_SAMPLE_BRANCH_STACK		(1ULL << 11)
#define PDW_SAMPLE_REGS_USER		(1ULL << 12)
#define PDW_SAMPLE_STACK_USER		(1ULL << 13)
#define PDW_SAMPLE_WEIGHT		(1ULL << 14)
#define PDW_SAMPLE_DATA_SRC		(1ULL << 15)
#define PDW_SAMPLE_IDENTIFIER		(1ULL << 16)
#define PDW_SAMPLE_TRANSACTION		(1ULL << 17)
#define PDW_SAMPLE_REGS_INTR		(1ULL << 18)
#define PDW_SAMPLE_PHYS_ADDR		(1ULL << 19)
#define PDW_SAMPLE_AUX			(1ULL << 20)
#define PDW_SAMPLE_CGROUP		(1ULL << 21)
#define PDW_SAMPLE_DATA_PAGE_SIZE	(1ULL << 22)
#define PDW_SAMPLE_CODE_PAGE_SIZE	(1ULL << 23)
#define PDW_SAMPLE_WEIGHT_STRUCT	(1ULL << 24)

/* read_format bits (PERF_FORMAT_*). */
#define PDW_FORMAT_TOTAL_TIME_ENABLED	(1ULL << 0)
#define PDW_FORMAT_TOTAL_TIME_RUNNING	(1ULL << 1)
#define PDW_FORMAT_ID			(1ULL << 2)
#define PDW_FORMAT_GROUP		(1ULL << 3)
#define PDW_FORMAT_LOST			(1ULL << 4)

/* branch_sample_type bits that change the sample layout. */
#define PDW_BRANCH_ANY			(1ULL << 3)
#define PDW_BRANCH_HW_INDEX		(1ULL << 17)
#define PDW_BRANCH_COUNTERS		(1ULL << 19)

/* The attr bitfield, numbered as a little-endian compiler lays it out
 * (bit 0 = disabled). pdw writes big-endian files in the big-endian layout. */
#define PDW_ATTR_DISABLED		(1ULL << 0)
#define PDW_ATTR_INHERIT		(1ULL << 1)
#define PDW_ATTR_EXCLUDE_USER		(1ULL << 4)
#define PDW_ATTR_EXCLUDE_KERNEL		(1ULL << 5)
#define PDW_ATTR_EXCLUDE_HV		(1ULL << 6)
#define PDW_ATTR_MMAP			(1ULL << 8)
#define PDW_ATTR_COMM			(1ULL << 9)
#define PDW_ATTR_FREQ			(1ULL << 10)
#define PDW_ATTR_TASK			(1ULL << 13)
#define PDW_ATTR_PRECISE_IP(n)		((uint64_t)((n) & 3) << 15)
#define PDW_ATTR_MMAP_DATA		(1ULL << 17)
#define PDW_ATTR_SAMPLE_ID_ALL		(1ULL << 18)
#define PDW_ATTR_EXCLUDE_GUEST		(1ULL << 20)
#define PDW_ATTR_MMAP2			(1ULL << 23)
#define PDW_ATTR_COMM_EXEC		(1ULL << 24)
#define PDW_ATTR_SIGTRAP		(1ULL << 37)

/* Record types the writer builds (PERF_RECORD_*). */
enum {
	PDW_MMAP = 1, PDW_LOST = 2, PDW_COMM = 3, PDW_EXIT = 4, PDW_FORK = 7,
	PDW_SAMPLE = 9, PDW_MMAP2 = 10, PDW_LOST_SAMPLES = 13,
	PDW_HEADER_ATTR = 64, PDW_HEADER_TRACING_DATA = 66,
	PDW_FINISHED_ROUND = 68, PDW_HEADER_FEATURE = 80,
	PDW_COMPRESSED = 81, PDW_COMPRESSED2 = 83,
};
#define PDW_MISC_KERNEL		1
#define PDW_MISC_USER		2
#define PDW_MISC_COMM_EXEC	(1 << 13)
#define PDW_MISC_MMAP_BUILD_ID	(1 << 14)

/* Feature ids (header bitmap bits). */
enum {
	PDW_FEAT_TRACING_DATA = 1, PDW_FEAT_BUILD_ID = 2, PDW_FEAT_HOSTNAME = 3,
	PDW_FEAT_OSRELEASE = 4, PDW_FEAT_VERSION = 5, PDW_FEAT_ARCH = 6,
	PDW_FEAT_NRCPUS = 7, PDW_FEAT_CPUDESC = 8, PDW_FEAT_CPUID = 9,
	PDW_FEAT_TOTAL_MEM = 10, PDW_FEAT_CMDLINE = 11, PDW_FEAT_EVENT_DESC = 12,
	PDW_FEAT_CPU_TOPOLOGY = 13, PDW_FEAT_NUMA_TOPOLOGY = 14,
	PDW_FEAT_SAMPLE_TIME = 21, PDW_FEAT_COMPRESSED = 27,
};

struct pdw_opts {
	bool big_endian;		/* write every field big-endian */
	bool pipe;			/* pipe mode (16-byte header, header records) */
	bool v1_magic;			/* "PERFFILE" (perf <= 3.3) instead of PERFILE2 */
	bool pipe_features_first;	/* pipe: HEADER_FEATUREs before HEADER_ATTRs */
	uint32_t tracing_rec_size;	/* pipe HEADER_TRACING_DATA header.size: 12
					 * (perf <= 6.16, the default) or 16 */
	uint32_t attr_size;		/* default attr.size (0: 128) */
	int zstd_level;			/* 0: 1 */
};

/* One event selector. Fields past attr.size are not written, and the
 * writer then lays samples out as a reader must: as if they were zero
 * (no branch_sample_type below 80 bytes, no regs masks below 88/104). */
struct pdw_attr {
	uint32_t type, size;		/* size 0: pdw_opts.attr_size */
	uint64_t config, sample_period, sample_type, read_format;
	uint64_t flags;			/* PDW_ATTR_* */
	uint32_t wakeup_events, bp_type;
	uint64_t config1, config2;	/* bp_addr, bp_len */
	uint64_t branch_sample_type, sample_regs_user;
	uint32_t sample_stack_user;
	int32_t clockid;
	uint64_t sample_regs_intr;
	uint32_t aux_watermark;
	uint16_t sample_max_stack;
	uint32_t aux_sample_size;
	uint64_t sig_data, config3;
	const uint64_t *ids;		/* sample ids of this event (copied) */
	size_t nr_ids;
	const char *name;		/* EVENT_DESC name (copied); NULL: "" */
};

struct pdw_branch { uint64_t from, to, flags; };	/* flags: raw u64 */
struct pdw_read_entry { uint64_t value, id, lost; };

/* Values of a SAMPLE; what is written follows the evsel's sample_type. */
struct pdw_sample {
	uint64_t id;			/* IDENTIFIER and ID */
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t time, addr, stream_id;
	uint32_t cpu, cpu_res;
	uint64_t period;
	/* READ: time_enabled/running, then either one value (non-group) or,
	 * with PERF_FORMAT_GROUP, nr_read entries. */
	uint64_t read_time_enabled, read_time_running;
	struct pdw_read_entry read;
	const struct pdw_read_entry *read_group;
	uint64_t nr_read;
	const uint64_t *callchain;
	uint64_t nr_callchain;
	/* RAW: raw_size bytes, zero-padded so that the u32 size plus the data
	 * fill whole u64s; the size field holds the padded length. */
	const void *raw;
	uint32_t raw_size;
	const struct pdw_branch *branches;
	uint64_t nr_branches, branch_hw_idx;
	const uint64_t *branch_counters;	/* nr_branches, with COUNTERS */
	uint64_t regs_user_abi;		/* 0: no registers follow */
	const uint64_t *regs_user;	/* popcount(sample_regs_user) values */
	const void *stack_user;		/* stack_user_size bytes */
	uint64_t stack_user_size, stack_user_dyn_size;
	uint64_t weight;		/* WEIGHT: the u64; WEIGHT_STRUCT: var1 */
	uint16_t ins_lat, retire_lat;	/* WEIGHT_STRUCT var2, var3 */
	uint64_t data_src, transaction;
	uint64_t regs_intr_abi;
	const uint64_t *regs_intr;	/* popcount(sample_regs_intr) values */
	uint64_t phys_addr, cgroup, data_page_size, code_page_size;
	const void *aux;		/* AUX: aux_size bytes, padded to 8 */
	uint64_t aux_size;
};

/* The sample_id_all trailer of a side-band record (written after the body
 * when the record's evsel has PDW_ATTR_SAMPLE_ID_ALL, with the fields its
 * sample_type selects: TID, TIME, ID, STREAM_ID, CPU, IDENTIFIER). */
struct pdw_sid {
	uint32_t pid, tid;
	uint64_t time, id, stream_id;
	uint32_t cpu;
};

/* MMAP / MMAP2 bodies. MMAP2 writes maj/min/ino/ino_generation, or, when
 * build_id_size is set, the build id union (and PDW_MISC_MMAP_BUILD_ID). */
struct pdw_mmap {
	uint32_t pid, tid;
	uint64_t addr, len, pgoff;
	uint32_t maj, min;
	uint64_t ino, ino_generation;
	uint32_t prot, flags;
	uint8_t build_id[20], build_id_size;
	const char *filename;
};

struct pdw_cpu_ids { uint32_t core_id, socket_id; };
struct pdw_numa_node {
	uint32_t node;
	uint64_t mem_total, mem_free;	/* kB */
	const char *cpus;		/* "0-3" */
};

struct pdw;

/* pdw_new: an empty writer (opts NULL: little-endian file mode). */
struct pdw *pdw_new(const struct pdw_opts *opts);
void pdw_free(struct pdw *w);
const char *pdw_error(const struct pdw *w);

/* pdw_add_attr: adds an evsel; returns its index. All attrs must be added
 * before the first record. */
int pdw_add_attr(struct pdw *w, const struct pdw_attr *a);

/* Features. Strings are written as perf writes them (u32 length, NUL
 * padded to 64). In pipe mode they become HEADER_FEATURE records and must
 * be set before the first record; in file mode at any time. Setting one
 * again replaces it. */
int pdw_feat_string(struct pdw *w, int id, const char *s);	/* HOSTNAME.. CPUID */
int pdw_feat_nrcpus(struct pdw *w, uint32_t avail, uint32_t online);
int pdw_feat_total_mem(struct pdw *w, uint64_t kb);
int pdw_feat_cmdline(struct pdw *w, int argc, const char *const *argv);
int pdw_feat_event_desc(struct pdw *w);	/* from the attrs' names and ids */
/* CPU_TOPOLOGY: sibling lists; cpus (nr_cpus pairs) may be NULL for the
 * oldest layout; dies (with die_ids, nr_cpus values) may be NULL. */
int pdw_feat_cpu_topology(struct pdw *w, const char *const *cores, uint32_t nr_cores,
			  const char *const *threads, uint32_t nr_threads,
			  const struct pdw_cpu_ids *cpus, uint32_t nr_cpus,
			  const char *const *dies, uint32_t nr_dies,
			  const uint32_t *die_ids);
int pdw_feat_numa(struct pdw *w, const struct pdw_numa_node *nodes, uint32_t n);
int pdw_feat_sample_time(struct pdw *w, uint64_t first, uint64_t last);
/* COMPRESSED: perf needs it (mmap_len sizes its buffer) to read COMPRESSED
 * records. File mode adds {0, 1 (zstd), level, 1, 1 MiB} by itself when
 * compression was used and this was not called. */
int pdw_feat_compressed(struct pdw *w, uint32_t version, uint32_t type,
			uint32_t level, uint32_t ratio, uint32_t mmap_len);
/* TRACING_DATA: the blob as is (file mode: a feature section; pipe mode:
 * HEADER_TRACING_DATA, size rounded up to 8, then the blob and padding). */
int pdw_feat_tracing_data(struct pdw *w, const void *blob, size_t len);
/* Any feature section, bytes already in the file's byte order. */
int pdw_feat_raw(struct pdw *w, int id, const void *bytes, size_t len);

/* Records. evsel is an attr index; it picks the sample layout and, for
 * side-band records, the trailer (-1: no trailer). */
int pdw_sample(struct pdw *w, int evsel, uint16_t misc, const struct pdw_sample *s);
int pdw_comm(struct pdw *w, int evsel, uint16_t misc, uint32_t pid, uint32_t tid,
	     const char *comm, const struct pdw_sid *sid);
int pdw_fork(struct pdw *w, int evsel, uint32_t pid, uint32_t ppid, uint32_t tid,
	     uint32_t ptid, uint64_t time, const struct pdw_sid *sid);
int pdw_exit(struct pdw *w, int evsel, uint32_t pid, uint32_t ppid, uint32_t tid,
	     uint32_t ptid, uint64_t time, const struct pdw_sid *sid);
int pdw_mmap(struct pdw *w, int evsel, uint16_t misc, const struct pdw_mmap *m,
	     const struct pdw_sid *sid);
int pdw_mmap2(struct pdw *w, int evsel, uint16_t misc, const struct pdw_mmap *m,
	      const struct pdw_sid *sid);
int pdw_lost(struct pdw *w, int evsel, uint64_t id, uint64_t lost,
	     const struct pdw_sid *sid);
int pdw_lost_samples(struct pdw *w, int evsel, uint16_t misc, uint64_t lost,
		     const struct pdw_sid *sid);
int pdw_finished_round(struct pdw *w);
/* pdw_record: a record of any type: header (size 8 + len, unpadded; len
 * must keep it below 64 KiB) and body bytes in file order. */
int pdw_record(struct pdw *w, uint32_t type, uint16_t misc, const void *body, size_t len);
/* pdw_bytes: raw bytes into the current stream (junk, hand-made records). */
int pdw_bytes(struct pdw *w, const void *p, size_t n);

/* Compression. type is PDW_COMPRESSED or PDW_COMPRESSED2. While on,
 * records collect as pending bytes; pdw_compress_flush(w, n) compresses
 * the first n of them (SIZE_MAX: all) with ZSTD_e_flush into one COMPRESSED
 * record (more than one only when n exceeds 32 KiB). pdw_compress_stop
 * flushes the rest; a later start continues the same zstd stream. */
int pdw_compress_start(struct pdw *w, uint32_t type);
int pdw_compress_flush(struct pdw *w, size_t n);
size_t pdw_compress_pending(const struct pdw *w);
int pdw_compress_stop(struct pdw *w);

/* pdw_pos: the file offset the next top-level record will have (freezes
 * the attrs and, in pipe mode, the features). */
uint64_t pdw_pos(struct pdw *w);
/* pdw_data_offset: where the data section (file mode) or the first record
 * after the header material (pipe mode) starts. */
uint64_t pdw_data_offset(struct pdw *w);

/* pdw_finish: the whole file, malloc'd, in *out / *len (the caller frees).
 * Ends compression. The writer may not be used for records afterwards. */
int pdw_finish(struct pdw *w, uint8_t **out, size_t *len);
/* pdw_write: pdw_finish, then the bytes to path. */
int pdw_write(struct pdw *w, const char *path);

/* pdw_attr_bytes: attr a as the file stores it (size bytes, 0: 128) in the
 * given byte order, into out (room bytes, zero-filled past the attr). */
void pdw_attr_bytes(const struct pdw_attr *a, bool big_endian, uint8_t *out, size_t room);
/* pdw_attr_flags_bytes: the 8 bytes of the attr bitfield as written. */
void pdw_attr_flags_bytes(uint64_t flags, bool big_endian, uint8_t out[8]);
#endif
