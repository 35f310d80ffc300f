/* Session metadata from the perf.data header: see session_meta.h. */
#include <stdio.h>
#include "schema/db.h"
#include "collect/import/session_meta.h"

#define FEAT_CLOCK_DATA 29

/* bind_u64_or_null: binds v, or NULL when v is 0. */
static void bind_nz(sqlite3_stmt *st, int i, uint64_t v)
{
	if (v)
		sqlite3_bind_int64(st, i, (int64_t)v);
	else
		sqlite3_bind_null(st, i);
}

/* write_session_row: the session's header columns. */
static int write_session_row(sqlite3 *db, int64_t session, const struct pd_reader *r,
			     uint64_t first, uint64_t last, char *err, size_t errlen)
{
	const struct pd_features *f = &r->features;
	sqlite3_stmt *st = db_prepare(db, "UPDATE session SET perf_version=?, hostname=?, "
		"os_release=?, arch=?, cpu_desc=?, cpuid=?, nr_cpus_online=?, nr_cpus_avail=?, "
		"total_mem_kb=?, perf_cmdline=?, pipe_mode=?, big_endian=?, first_time=?, "
		"last_time=?, duration_ns=?, nr_records=?, nr_samples=?, nr_lost=?, "
		"nr_lost_samples=?, nr_unordered=?, clock_id=?, clock_wall_ns=?, clock_ref_ns=?, "
		"nr_lost_records=? WHERE id=?");
	bool clk = pd_feature_has(f, FEAT_CLOCK_DATA);
	int rc;
	if (!st)
		return -1;
	db_bind_text_or_null(st, 1, f->version);
	db_bind_text_or_null(st, 2, f->hostname);
	db_bind_text_or_null(st, 3, f->osrelease);
	db_bind_text_or_null(st, 4, f->arch);
	db_bind_text_or_null(st, 5, f->cpudesc);
	db_bind_text_or_null(st, 6, f->cpuid);
	bind_nz(st, 7, f->nr_cpus_online);
	bind_nz(st, 8, f->nr_cpus_avail);
	bind_nz(st, 9, f->total_mem_kb);
	db_bind_text_or_null(st, 10, f->cmdline);
	sqlite3_bind_int(st, 11, r->pipe_mode);
	sqlite3_bind_int(st, 12, r->big_endian);
	bind_nz(st, 13, first);
	bind_nz(st, 14, last);
	sqlite3_bind_int64(st, 15, last > first ? (int64_t)(last - first) : 0);
	sqlite3_bind_int64(st, 16, (int64_t)r->nr_records);
	sqlite3_bind_int64(st, 17, (int64_t)r->nr_samples);
	sqlite3_bind_int64(st, 18, (int64_t)r->nr_lost);
	sqlite3_bind_int64(st, 19, (int64_t)r->nr_lost_samples);
	sqlite3_bind_int64(st, 20, (int64_t)r->nr_unordered);
	if (clk)
		sqlite3_bind_int64(st, 21, f->clock_data.clockid);
	else
		sqlite3_bind_null(st, 21);
	bind_nz(st, 22, clk ? f->clock_data.wall_clock_ns : 0);
	bind_nz(st, 23, clk ? f->clock_data.clockid_time_ns : 0);
	sqlite3_bind_int64(st, 24, (int64_t)r->nr_lost_records);
	sqlite3_bind_int64(st, 25, session);
	rc = db_step_done(st, err, errlen);
	sqlite3_finalize(st);
	return rc;
}

/* session_write_lost: see session_meta.h. */
int session_write_lost(sqlite3 *db, int64_t session, const struct lost_rec *v, size_t n,
		       char *err, size_t errlen)
{
	sqlite3_stmt *st = db_prepare(db, "INSERT INTO lost(session_id, kind, time, cpu, event_id, n, "
				      "file_offset, since) VALUES (?,?,?,?,?,?,?,?)");
	int rc = 0;
	if (!st)
		return snprintf(err, errlen, "lost: %s", sqlite3_errmsg(db)), -1;
	for (size_t i = 0; i < n && !rc; i++) {
		sqlite3_bind_int64(st, 1, session);
		sqlite3_bind_text(st, 2, v[i].samples ? "lost_samples" : "lost", -1, SQLITE_STATIC);
		if (v[i].time >= 0)
			sqlite3_bind_int64(st, 3, v[i].time);
		else
			sqlite3_bind_null(st, 3);
		if (v[i].cpu >= 0)
			sqlite3_bind_int(st, 4, v[i].cpu);
		else
			sqlite3_bind_null(st, 4);
		if (v[i].event)
			sqlite3_bind_int64(st, 5, v[i].event);
		else
			sqlite3_bind_null(st, 5);
		sqlite3_bind_int64(st, 6, (int64_t)v[i].n);
		sqlite3_bind_int64(st, 7, (int64_t)v[i].file_offset);
		if (v[i].since >= 0)
			sqlite3_bind_int64(st, 8, v[i].since);
		else
			sqlite3_bind_null(st, 8);
		rc = db_step_done(st, err, errlen);
	}
	sqlite3_finalize(st);
	return rc;
}

/* node_of_cpu: the NUMA node whose CPU list holds cpu, or -1. */
static int node_of_cpu(const struct pd_features *f, uint32_t cpu)
{
	for (uint32_t i = 0; i < f->nr_numa_nodes; i++) {
		const char *p = f->numa_nodes[i].cpus;
		while (p && *p) {
			unsigned a, b;
			int n = 0;
			if (sscanf(p, "%u-%u%n", &a, &b, &n) == 2 && n > 0) {
				/* range */
			} else if (sscanf(p, "%u%n", &a, &n) == 1 && n > 0) {
				b = a;
			} else {
				break;
			}
			if (cpu >= a && cpu <= b)
				return (int)f->numa_nodes[i].node;
			p += n;
			if (*p == ',')
				p++;
		}
	}
	return -1;
}

/* write_topology: cpu and numa_node rows. */
static int write_topology(sqlite3 *db, int64_t session, const struct pd_features *f,
			  char *err, size_t errlen)
{
	sqlite3_stmt *c = db_prepare(db, "INSERT INTO cpu(session_id, cpu, core_id, socket_id, die_id, node) VALUES (?,?,?,?,?,?)");
	sqlite3_stmt *n = db_prepare(db, "INSERT INTO numa_node(session_id, node, mem_total_kb, mem_free_kb, cpus) VALUES (?,?,?,?,?)");
	int rc = c && n ? 0 : -1;
	for (uint32_t i = 0; i < f->nr_cpus && !rc; i++) {
		int node = node_of_cpu(f, i);
		sqlite3_bind_int64(c, 1, session);
		sqlite3_bind_int(c, 2, (int)i);
		sqlite3_bind_int64(c, 3, f->cpus[i].core_id);
		sqlite3_bind_int64(c, 4, f->cpus[i].socket_id);
		sqlite3_bind_int64(c, 5, f->cpus[i].die_id);
		if (node >= 0)
			sqlite3_bind_int(c, 6, node);
		else
			sqlite3_bind_null(c, 6);
		rc = db_step_done(c, err, errlen);
	}
	for (uint32_t i = 0; i < f->nr_numa_nodes && !rc; i++) {
		sqlite3_bind_int64(n, 1, session);
		sqlite3_bind_int64(n, 2, f->numa_nodes[i].node);
		sqlite3_bind_int64(n, 3, (int64_t)f->numa_nodes[i].mem_total);
		sqlite3_bind_int64(n, 4, (int64_t)f->numa_nodes[i].mem_free);
		db_bind_text_or_null(n, 5, f->numa_nodes[i].cpus);
		rc = db_step_done(n, err, errlen);
	}
	sqlite3_finalize(c);
	sqlite3_finalize(n);
	return rc;
}

/* session_note_quality: see session_meta.h. */
int session_note_quality(sqlite3 *db, int64_t session, const char *what, uint64_t n,
			 char *err, size_t errlen)
{
	sqlite3_stmt *st;
	int rc;
	if (!n)
		return 0;
	if (!(st = db_prepare(db, "INSERT INTO data_quality(session_id, what, count) VALUES (?,?,?)")))
		return -1;
	sqlite3_bind_int64(st, 1, session);
	sqlite3_bind_text(st, 2, what, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, (int64_t)n);
	rc = db_step_done(st, err, errlen);
	sqlite3_finalize(st);
	return rc;
}

/* write_quality: counts of what the reader could not use, when non-zero. */
static int write_quality(sqlite3 *db, int64_t session, const struct pd_reader *r,
			 char *err, size_t errlen)
{
	struct { const char *what; uint64_t n; } q[] = {
		{ "lost events", r->nr_lost },
		{ "lost samples", r->nr_lost_samples },
		{ "samples with an unknown id", r->nr_unknown_id },
		{ "records behind the ordering window", r->nr_unordered },
		{ "unfinished file: data size 0, no feature sections", r->unfinished },
		{ "bytes of a partial record ending the compressed data (left out)", r->zstd_tail },
	};
	int rc = 0;
	for (size_t i = 0; i < sizeof(q) / sizeof(*q) && !rc; i++)
		rc = session_note_quality(db, session, q[i].what, q[i].n, err, errlen);
	return rc;
}

int session_write_meta(sqlite3 *db, int64_t session, const struct pd_reader *r,
		       uint64_t first, uint64_t last, char *err, size_t errlen)
{
	if (write_session_row(db, session, r, first, last, err, errlen) ||
	    write_topology(db, session, &r->features, err, errlen))
		return -1;
	return write_quality(db, session, r, err, errlen);
}
