/* Thread and process identity during an import. perf's COMM, FORK and EXIT
 * records (and samples of tasks never announced) become thread and process
 * rows with surrogate ids, since pids are reused; an exec starts a new
 * process row (a new exec generation: a new mm). Rows are written at the end. */
#ifndef PERFDB_THREADS_H
#define PERFDB_THREADS_H
#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>

struct threads;
struct sqlq;

/* threads_new: tracker for one session; ids continue after the database's
 * largest; comm rows are written through q. NULL when the comm insert
 * cannot be prepared. threads_free(t): frees it (NULL: no-op). */
struct threads *threads_new(sqlite3 *db, int64_t session_id, struct sqlq *q);
void threads_free(struct threads *t);

/* threads_comm: thread (pid, tid) is now called comm; exec: it exec'ed,
 * which starts a new process (mm) for pid. Returns 0, or -1 when writing
 * the comm row failed. */
int threads_comm(struct threads *t, uint32_t pid, uint32_t tid, const char *comm,
		 bool exec, uint64_t time);

/* threads_fork: task tid of pid was created by ptid of ppid at time. */
void threads_fork(struct threads *t, uint32_t pid, uint32_t ppid, uint32_t tid,
		  uint32_t ptid, uint64_t time);

/* threads_exit: task tid of pid exited at time. */
void threads_exit(struct threads *t, uint32_t pid, uint32_t tid, uint64_t time);

/* threads_get: the thread row id of (pid, tid), created when unknown
 * (a task that existed before the recording). */
int64_t threads_get(struct threads *t, uint32_t pid, uint32_t tid);

/* threads_mark_user: process row proc_row has a user address space (a
 * user mmap was seen for it). */
void threads_mark_user(struct threads *t, int64_t proc_row);

/* threads_process_of: the process row id that thread row tid_row is in. */
int64_t threads_process_of(struct threads *t, int64_t thread_row);

/* threads_current_process: the process row of pid now (created if new). */
int64_t threads_current_process(struct threads *t, uint32_t pid);

/* threads_flush: hands on the comm rows still batched. 0 or -1. */
int threads_flush(struct threads *t);

/* threads_write: inserts every thread, process and comm row. 0 or -1
 * (message in err). */
int threads_write(struct threads *t, char *err, size_t errlen);
#endif
