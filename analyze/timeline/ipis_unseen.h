/* Sessions whose flush IPIs cannot be seen (analyze/timeline/ipis.h's guard): a
 * kernel that flushes other CPUs' TLBs with a hypercall or a broadcast
 * sends no IPI, and a recording of it shows flushes of an mm other CPUs
 * were running and no flush IPI to them. ipis_findings gathers the
 * sessions' guard counts here; this file names the paravirtualized flush
 * functions of their kallsyms (lib/kallsyms.h) and says, as a warning and in the findings,
 * that their IPI figures are no measurement. Reads the database only. */
#ifndef PERFDB_IPIS_UNSEEN_H
#define PERFDB_IPIS_UNSEEN_H
#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "analyze/timeline/ipis.h"
#include "lib/doc.h"
#include "lib/kallsyms.h"

/* One session whose flush IPIs were not seen. */
struct unseen_session {
	int64_t id;
	struct ipi_seen seen;
	bool kallsyms;		/* the session stores kallsyms */
	struct ksym_names pv;	/* their flush functions (kallsyms_flush_no_ipi) */
};

/* The sessions of one analysis. */
struct ipis_unseen {
	struct ipi_seen all;	/* over every session */
	struct unseen_session *v;	/* those whose flush IPIs were not seen */
	size_t n, cap;
	int nseen;		/* sessions whose flush IPIs were seen */
};

/* ipis_unseen_add(u, db, session, s): adds one session's guard counts s
 * (ipis_visibility): a session whose flush IPIs were not seen is kept,
 * with the flush functions its kallsyms name. */
void ipis_unseen_add(struct ipis_unseen *u, sqlite3 *db, int64_t session, const struct ipi_seen *s);

/* ipis_unseen_any(u): whether a session's flush IPIs were not seen. */
bool ipis_unseen_any(const struct ipis_unseen *u);

/* ipis_unseen_all(u): whether a session's flush IPIs were not seen and no
 * session's were seen: the IPI figures then measure nothing. */
bool ipis_unseen_all(const struct ipis_unseen *u);

/* ipis_unseen_has(u, session): whether session's flush IPIs were not seen. */
bool ipis_unseen_has(const struct ipis_unseen *u, int64_t session);

/* ipis_unseen_ids(u): "3" or "3, 5": the sessions whose flush IPIs were
 * not seen, malloc'ed. */
char *ipis_unseen_ids(const struct ipis_unseen *u);

/* ipis_unseen_findings(u, f): when ipis_unseen_any, the findings
 * flush_ipis_visible (false) and flush_ipi_check {min_flushes, sessions:
 * [{session, flushes_remote_running, ipis_to_remote_running,
 * pv_flush_functions (null: no kallsyms stored)}]}; else nothing. */
void ipis_unseen_findings(const struct ipis_unseen *u, struct dval *f);

/* ipis_unseen_warn(u, d): when ipis_unseen_any, the warning: in which
 * sessions how many flushes of an mm another CPU was running sent no (or
 * almost no) flush IPI to such a CPU, that the kernel flushed without
 * IPIs, the flush functions its kallsyms name, and that the IPI figures
 * are not measurements (all sessions) or count only the other sessions'
 * IPIs. */
void ipis_unseen_warn(const struct ipis_unseen *u, struct doc *d);

/* ipis_unseen_free(u): frees what u holds. */
void ipis_unseen_free(struct ipis_unseen *u);
#endif
