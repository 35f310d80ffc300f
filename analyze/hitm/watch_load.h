/* Analysis of hardware write-watchpoint samples (`perfdb record -r watch`,
 * or any recording with mem:ADDR/LEN:w events): per watched field, the
 * writes, writes per second per CPU, ownership transfers (consecutive
 * writes by different CPUs: a lower bound on how often the line moved
 * because of that field) and the code sites of the stores; per 64-byte
 * cacheline, the verdict across its watched fields.
 *
 * Store sites: a write watchpoint traps after the store has executed, so
 * a sample's ip is the instruction after the store. The site reported is
 * the function holding ip - 1 (a byte of the store itself) with ip - 1's
 * offset: "worker+0x40" means the store's last byte is at worker+0x40.
 *
 * Verdict of a line (writes only: watchpoints see no loads), with
 * transfers counted over the line's watched writes in time order, in the
 * words of hitm_doc.h:
 *   true sharing     one field written by several CPUs, alternating (its
 *                    own transfers >= min_transfers);
 *   false sharing    different fields of the line written by different
 *                    CPUs, alternating (transfers between writes of
 *                    different fields >= min_transfers);
 *   true and false sharing   both;
 *   no sharing seen  fewer transfers than min_transfers (one writer CPU at
 *                    a time, or too few writes to matter).
 *
 * No verdict at all when the session cannot tell a quiet field from
 * watchpoints that do not fire (watch_firing): its canary (a variable of
 * perfdb's own that perfdb record -r watch watched and wrote a known
 * number of times, table watch_canary) was caught fewer times than
 * written, less what perf lost of its samples; or it has no canary and
 * no watchpoint caught a single write. The canary's event is never one
 * of the watched fields.
 *
 * The core (watch_analyze, watch_judge, watch_site_name, watch_firing) is
 * pure: it works on arrays a test can build by hand. watch_load reads one
 * session's rows (SQL, read-only, bound parameters). */
#ifndef PERFDB_ANALYZE_WATCH_H
#define PERFDB_ANALYZE_WATCH_H
#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "analyze/hitm/hitm_doc.h"
#include "lib/hashmap.h"

#define WATCH_LINE 64
#define WATCH_PERF_TYPE_BREAKPOINT 5	/* event.type of mem:ADDR/LEN:w events */
#define WATCH_MIN_TRANSFERS 10	/* default min_transfers of a verdict */

/* One watched field (a row of the watch table, or a bare mem: event). */
struct watch_def {
	char *field;		/* mm_struct.mm_count; the event name without a watch row */
	char *spec;		/* --watch text, or NULL */
	char *kind;		/* "mm", "addr", "symbol"; NULL without a watch row */
	char *type_name, *field_type;	/* or NULL */
	uint64_t object_addr, addr;	/* the object; the watched address */
	int64_t offset, size;	/* of the field in the object */
	int len;		/* watched bytes */
	bool partial, wider;	/* see collect/record/watch_spec.h */
	int64_t event_id;	/* its event in the session, -1 when none */
};

/* One watchpoint hit. */
struct watch_sample {
	int64_t time;		/* ns */
	int cpu;
	int w;			/* index into defs */
	int32_t site;		/* index into sites, -1 when unknown */
};

struct watch_counts;

/* A session's canary, as perfdb record stored it (see collect/record/watch_spec.h). */
struct watch_canary_row {
	bool present;		/* the session has one */
	char how[16];		/* "recorded" (its event in the recording) or "probe" */
	uint64_t addr;		/* its address in perfdb's process */
	int len;
	int64_t event_id;	/* its event (recorded), -1 when none */
	long long writes, seen;	/* writes made while armed, writes caught */
	long long lost;		/* samples of its event perf says it lost */
};

/* Whether a session's watchpoints are known to fire (watch_firing). */
enum watch_firing {
	WATCH_FIRING_VERIFIED,	/* its canary's writes were all caught (or lost, by perf's word) */
	WATCH_FIRING_NOT,	/* its canary fell short: the watchpoints do not fire */
	WATCH_FIRING_TRAPS,	/* no canary, but the watchpoints caught writes */
	WATCH_FIRING_UNKNOWN,	/* no canary and no write caught: quiet, or deaf watchpoints */
};

/* Everything one session gives the analysis. */
struct watch_data {
	int64_t session;
	char *label, *workload;	/* or NULL */
	struct watch_def *defs;
	size_t ndefs;
	struct watch_sample *s;	/* time order, inside [t0, t1]: a test's (watch_load */
	size_t n, cap;		/* counts them into counts instead: s NULL, n their number) */
	struct watch_counts *counts;	/* watch_load's: the samples counted as
					 * they were read, or NULL */
	char **sites;		/* "func+0xoff" of each store site */
	uint64_t *site_ip;	/* a sample ip of that site */
	size_t nsites, sites_cap;
	int64_t t0, t1;		/* the watched window, ns */
	bool has_window;	/* t0, t1 from the watch rows (else the session's) */
	int ncpus;		/* > every cpu of s */
	long long outside;	/* samples outside [t0, t1], not in s */
	char *mm_mode;		/* exec / fork, or NULL */
	int pid;		/* watched process, 0 when unknown */
	struct watch_rate *rates;	/* the workload's metric lines */
	size_t nrates;
	struct watch_canary_row canary;	/* present false without one */
};

/* The workload's own rate: watched, and unwatched when known. */
struct watch_rate {
	char name[64];
	double watched, unwatched;	/* NAN when unknown */
	int64_t unwatched_session;	/* where the unwatched one came from: this
					 * session (--watch-baseline) or another */
};

/* One store site's count for a field. */
struct watch_site_count {
	int32_t site;
	long long writes;
};

/* Per watched field. */
struct watch_field {
	long long writes;
	long long *cpu_writes;	/* [ncpus] */
	int writer_cpus;	/* CPUs with a write */
	long long transfers;	/* consecutive writes (of this field) by different CPUs */
	struct watch_site_count *sites;	/* by writes, descending */
	size_t nsites;
};

/* Per 64-byte cacheline holding watched fields. */
struct watch_line {
	uint64_t addr;		/* line address */
	int *fields;		/* def indices, by address */
	size_t nfields;
	long long writes;
	long long transfers;	/* consecutive line writes by different CPUs */
	long long same_field;	/* ... of which both writes hit one field */
	long long cross_field;	/* ... of which they hit different fields */
	enum share_verdict verdict;
};

/* The analysis of one session. */
struct watch_result {
	double seconds;		/* t1 - t0 */
	struct watch_field *fields;	/* [nfields]: one per def */
	size_t nfields;
	struct watch_line *lines;	/* by address */
	size_t nlines;
};

/* The count of a session's samples while they are read (watch_load:
 * state per field, line, CPU and store site, not per sample). */
struct watch_last {
	int cpu, field;		/* the last writer of a field or line, -1 */
};
struct watch_counts {
	struct watch_result r;	/* the counts so far, lines made */
	size_t *line_of;	/* each def's line */
	struct watch_last *lf, *ll; /* per def, per line */
	struct hashmap sites;	/* (def, site) -> writes */
	int ncpus;		/* CPUs r's cpu_writes hold */
};

/* watch_analyze(d, min_transfers, r): counts d's samples (d->counts when
 * watch_load counted them, else d->s) into *r (filled from empty; free
 * with watch_result_free). */
void watch_analyze(const struct watch_data *d, long long min_transfers, struct watch_result *r);

/* watch_judge(line, fields, min_transfers): the verdict of a line whose
 * counts are set (see the top). */
enum share_verdict watch_judge(const struct watch_line *line, const struct watch_field *fields,
			       long long min_transfers);

/* watch_site_name(buf, len, name, start, size, at): the store site of a
 * sample whose ip is at in the symbol's address space (kernel: the ip;
 * user: ip - mapping start + file offset): "name+0xOFF" for at - 1 when
 * the symbol [start, start+size) holds it, "before name" when at is the
 * symbol's first byte (the store ended the function before), "0x..." of
 * at - 1 without a symbol (name NULL or "[unknown]"). Returns buf. */
const char *watch_site_name(char *buf, size_t len, const char *name, uint64_t start,
			    uint64_t size, uint64_t at);

/* watch_firing(d): whether d's watchpoints are known to fire, from its
 * canary (short when seen + lost < writes) or, without one, from whether
 * any watched write was caught (in the window or outside it). */
enum watch_firing watch_firing(const struct watch_data *d);

/* watch_firing_name(f): "verified", "do not fire", "fired", "unverified". */
const char *watch_firing_name(enum watch_firing f);

/* watch_gives_verdict(f): whether a line's verdict means anything: the
 * watchpoints were verified, or caught writes. */
bool watch_gives_verdict(enum watch_firing f);

/* watch_result_free(r) / watch_data_free(d): free and empty. */
void watch_result_free(struct watch_result *r);
void watch_data_free(struct watch_data *d);

/* watch_load(db, session, d, err, errlen): session's watch rows (or, for
 * a recording made without perfdb record -r watch, its PERF_TYPE_BREAKPOINT
 * events but the canary's), its canary, samples, store sites and metric
 * lines into *d. Returns 1 loaded, 0 when the session watched nothing,
 * -1 with a message in err. */
int watch_load(sqlite3 *db, int64_t session, struct watch_data *d, char *err, size_t errlen);
#endif
