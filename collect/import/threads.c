/* Thread and process identity during an import: see threads.h. Threads and
 * processes live in growable arrays indexed by (row id - base); hash maps
 * give the current row of a tid and of a pid. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/alloc.h"
#include "schema/batch.h"
#include "schema/db.h"
#include "lib/hashmap.h"
#include "collect/import/threads.h"

#define COMM_LEN 32
#define NO_TIME UINT64_MAX

struct thr {
	uint32_t pid, tid;
	int64_t process;	/* row id */
	uint64_t start, end;
	char comm[COMM_LEN];
};

struct proc {
	uint32_t pid;
	int64_t parent;		/* row id or 0 */
	int exec_gen;
	bool user_mm;		/* has a user address space */
	uint64_t start, end;
	char comm[COMM_LEN];
};

struct threads {
	sqlite3 *db;
	int64_t session;
	int64_t thr_base, proc_base;
	struct thr *thr;
	size_t nthr, cthr;
	struct proc *proc;
	size_t nproc, cproc;
	struct hashmap by_tid, by_pid;	/* -> row id */
	struct batch *comms;
};

static const char *const comm_cols[] = { "thread_id", "time", "comm", "exec" };

struct threads *threads_new(sqlite3 *db, int64_t session_id, struct sqlq *q)
{
	struct threads *t = xcalloc(1, sizeof(*t));
	t->db = db;
	t->session = session_id;
	t->thr_base = db_next_id(db, "thread");
	t->proc_base = db_next_id(db, "process");
	t->comms = batch_new(db, q, "comm", comm_cols, 4);
	hm_init(&t->by_tid);
	hm_init(&t->by_pid);
	if (!t->comms) {
		threads_free(t);
		return NULL;
	}
	return t;
}

void threads_free(struct threads *t)
{
	if (!t)
		return;
	free(t->thr);
	free(t->proc);
	hm_free(&t->by_tid);
	hm_free(&t->by_pid);
	batch_free(t->comms);
	free(t);
}

/* thr_at / proc_at: the in-memory record of a row id. */
static struct thr *thr_at(struct threads *t, int64_t row)
{
	return &t->thr[row - t->thr_base];
}

static struct proc *proc_at(struct threads *t, int64_t row)
{
	return &t->proc[row - t->proc_base];
}

/* new_proc: a new process row for pid; returns its id. */
static int64_t new_proc(struct threads *t, uint32_t pid, int64_t parent,
			int exec_gen, uint64_t start, const char *comm)
{
	struct proc *p;
	ALLOC_GROW(t->proc, t->nproc + 1, t->cproc);
	p = &t->proc[t->nproc];
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	p->parent = parent;
	p->exec_gen = exec_gen;
	p->start = start;
	p->end = NO_TIME;
	snprintf(p->comm, sizeof(p->comm), "%s", comm ? comm : "");
	hm_put(&t->by_pid, pid, 0, (uint64_t)(t->proc_base + (int64_t)t->nproc));
	return t->proc_base + (int64_t)t->nproc++;
}

/* new_thr: a new thread row for (pid, tid) in process row proc; its id. */
static int64_t new_thr(struct threads *t, uint32_t pid, uint32_t tid,
		       int64_t proc, uint64_t start, const char *comm)
{
	struct thr *h;
	ALLOC_GROW(t->thr, t->nthr + 1, t->cthr);
	h = &t->thr[t->nthr];
	memset(h, 0, sizeof(*h));
	h->pid = pid;
	h->tid = tid;
	h->process = proc;
	h->start = start;
	h->end = NO_TIME;
	snprintf(h->comm, sizeof(h->comm), "%s", comm ? comm : "");
	hm_put(&t->by_tid, tid, 0, (uint64_t)(t->thr_base + (int64_t)t->nthr));
	return t->thr_base + (int64_t)t->nthr++;
}

int64_t threads_current_process(struct threads *t, uint32_t pid)
{
	uint64_t row;
	if (hm_get(&t->by_pid, pid, 0, &row))
		return (int64_t)row;
	return new_proc(t, pid, 0, 0, NO_TIME, NULL);
}

int64_t threads_get(struct threads *t, uint32_t pid, uint32_t tid)
{
	uint64_t row;
	int64_t proc;
	if (hm_get(&t->by_tid, tid, 0, &row) && thr_at(t, (int64_t)row)->pid == pid)
		return (int64_t)row;
	proc = threads_current_process(t, pid);
	if (pid == 0 && !proc_at(t, proc)->comm[0])
		snprintf(proc_at(t, proc)->comm, COMM_LEN, "swapper");	/* idle, as perf names it */
	return new_thr(t, pid, tid, proc, NO_TIME, proc_at(t, proc)->comm);
}

int64_t threads_process_of(struct threads *t, int64_t thread_row)
{
	return thr_at(t, thread_row)->process;
}

int threads_comm(struct threads *t, uint32_t pid, uint32_t tid, const char *comm,
		 bool exec, uint64_t time)
{
	int64_t row = threads_get(t, pid, tid);
	struct thr *h = thr_at(t, row);
	if (exec) {
		struct proc *old = proc_at(t, h->process);
		int64_t np;
		old->end = time;
		np = new_proc(t, pid, old->parent, old->exec_gen + 1, time, comm);
		proc_at(t, np)->user_mm = true;
		h = thr_at(t, row);
		h->process = np;
	}
	snprintf(h->comm, sizeof(h->comm), "%s", comm ? comm : "");
	if (tid == pid)
		snprintf(proc_at(t, h->process)->comm, COMM_LEN, "%s", comm ? comm : "");
	batch_int(t->comms, 0, row);
	if (time)
		batch_int(t->comms, 1, (int64_t)time);
	batch_text(t->comms, 2, comm ? comm : "");
	batch_int(t->comms, 3, exec);
	return batch_row(t->comms);
}

void threads_fork(struct threads *t, uint32_t pid, uint32_t ppid, uint32_t tid,
		  uint32_t ptid, uint64_t time)
{
	int64_t parent = threads_get(t, ppid, ptid), proc;
	char comm[COMM_LEN];
	snprintf(comm, sizeof(comm), "%s", thr_at(t, parent)->comm);
	if (pid == ppid) {
		proc = thr_at(t, parent)->process;
	} else {
		proc = new_proc(t, pid, thr_at(t, parent)->process, 0, time, comm);
		proc_at(t, proc)->user_mm = proc_at(t, thr_at(t, parent)->process)->user_mm;
	}
	new_thr(t, pid, tid, proc, time, comm);
}

void threads_mark_user(struct threads *t, int64_t proc_row)
{
	proc_at(t, proc_row)->user_mm = true;
}

void threads_exit(struct threads *t, uint32_t pid, uint32_t tid, uint64_t time)
{
	int64_t row = threads_get(t, pid, tid);
	thr_at(t, row)->end = time;
	if (pid == tid)
		proc_at(t, thr_at(t, row)->process)->end = time;
}

/* bind_time: binds a time, or NULL when unknown. */
static void bind_time(sqlite3_stmt *st, int i, uint64_t v)
{
	if (v == NO_TIME)
		sqlite3_bind_null(st, i);
	else
		sqlite3_bind_int64(st, i, (int64_t)v);
}

/* write_procs: inserts every process row. */
static int write_procs(struct threads *t, char *err, size_t errlen)
{
	sqlite3_stmt *st = db_prepare(t->db, "INSERT INTO process(id, session_id, pid, parent_id, "
				      "exec_gen, comm, start_time, end_time, user_mm) VALUES (?,?,?,?,?,?,?,?,?)");
	int rc = st ? 0 : -1;
	for (size_t i = 0; i < t->nproc && !rc; i++) {
		struct proc *p = &t->proc[i];
		sqlite3_bind_int64(st, 1, t->proc_base + (int64_t)i);
		sqlite3_bind_int64(st, 2, t->session);
		sqlite3_bind_int64(st, 3, (int32_t)p->pid);	/* -1 as the kernel means it */
		if (p->parent)
			sqlite3_bind_int64(st, 4, p->parent);
		else
			sqlite3_bind_null(st, 4);
		sqlite3_bind_int(st, 5, p->exec_gen);
		sqlite3_bind_text(st, 6, p->comm, -1, SQLITE_STATIC);
		bind_time(st, 7, p->start);
		bind_time(st, 8, p->end);
		sqlite3_bind_int(st, 9, p->user_mm);
		rc = db_step_done(st, err, errlen);
	}
	sqlite3_finalize(st);
	return rc;
}

/* write_thrs: inserts every thread row. */
static int write_thrs(struct threads *t, char *err, size_t errlen)
{
	sqlite3_stmt *st = db_prepare(t->db, "INSERT INTO thread(id, session_id, process_id, pid, "
				      "tid, comm, start_time, end_time) VALUES (?,?,?,?,?,?,?,?)");
	int rc = st ? 0 : -1;
	for (size_t i = 0; i < t->nthr && !rc; i++) {
		struct thr *h = &t->thr[i];
		sqlite3_bind_int64(st, 1, t->thr_base + (int64_t)i);
		sqlite3_bind_int64(st, 2, t->session);
		sqlite3_bind_int64(st, 3, h->process);
		sqlite3_bind_int64(st, 4, (int32_t)h->pid);
		sqlite3_bind_int64(st, 5, (int32_t)h->tid);
		sqlite3_bind_text(st, 6, h->comm, -1, SQLITE_STATIC);
		bind_time(st, 7, h->start);
		bind_time(st, 8, h->end);
		rc = db_step_done(st, err, errlen);
	}
	sqlite3_finalize(st);
	return rc;
}

int threads_flush(struct threads *t)
{
	return batch_flush(t->comms);
}

int threads_write(struct threads *t, char *err, size_t errlen)
{
	return write_procs(t, err, errlen) || write_thrs(t, err, errlen) ? -1 : 0;
}
