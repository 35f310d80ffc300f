/* Caller-order call trees of a selection of samples, built in memory from
 * the database, for cgdiff, tree, folded and the flame graph.
 *
 * A tree holds one or more *runs* (sessions) side by side: its nodes are
 * the union of every run's call paths, and each run has its own weights
 * per node. A node is one frame under its caller node, from the outermost
 * caller (depth 0) down; node 0 is a root without a frame. Frames are keyed
 * by name, never by address, so different builds of a program or kernel
 * match: a resolved symbol by its name without compiler clone suffixes
 * (sym_normalize: .isra.N, .constprop.N, .part.N, .cold, .llvm.N), an
 * unresolved address by its DSO as "[unknown] (BASENAME)" ("[unknown]"
 * outside any mapping); consecutive [unknown] frames of one DSO are one
 * frame.
 *
 * Weights are sample periods (as perf report weights them), or sample
 * counts in a run whose periods are all zero. A sample adds its weight
 * once to every node of its path (so recursion counts once per node) and
 * once to every distinct frame of its path (once per sample, as perf
 * report --children counts a symbol). A sample without a callchain is a
 * path of its own symbol alone. */
#ifndef PERFDB_CALLTREE_H
#define PERFDB_CALLTREE_H
#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/hashmap.h"

/* Which samples of a session a run takes: those of one event, optionally
 * of one comm (the thread's name at the sample's time, as perf report
 * --comm selects), one pid, one tid. */
struct ct_filter {
	const char *event;	/* event name, required by ct_add_run */
	const char *comm;	/* NULL: any */
	long long pid, tid;	/* -1: any */
};

/* A node: a frame under its caller node. */
struct ct_node {
	int32_t parent;		/* -1 for the root (node 0) */
	int32_t frame;		/* index into calltree.frames; -1 for the root */
	int32_t first_child;	/* -1: none; children in no particular order */
	int32_t next_sibling;	/* -1: none */
	int32_t depth;		/* 0 for an outermost frame; -1 for the root */
};

/* One run: a session's selected samples. The by-node arrays have
 * calltree.nnodes entries and the by-frame arrays calltree.nframes, for
 * every run, whenever ct_add_run has returned. */
struct ct_run {
	int64_t session;
	int64_t samples;	/* selected samples */
	double weight;		/* their total weight */
	double weight_sq;	/* sum of squared weights: (weight^2 / weight_sq)
				 * is the effective sample size */
	bool by_count;		/* weights are counts (all periods were 0) */
	double *incl, *self;	/* by node: weight of samples through / ending at it */
	int64_t *nincl, *nself;	/* by node: the same as sample counts */
	double *fincl, *fself;	/* by frame: weight of samples whose path has the
				 * frame (once per sample) / ends in it */
	double *incl_sq;	/* by node: sum of the squared weights of the
				 * samples through it (a count's variance) */
	double *fincl_sq, *fself_sq;	/* by frame: the same for fincl, fself */
};

struct calltree {
	struct ct_node *nodes;
	size_t nnodes;
	char **frames;		/* frame names, as keyed */
	bool *frame_unknown;	/* by frame: an "[unknown] (DSO)" frame */
	size_t nframes;
	struct ct_run *runs;
	int nruns;
	/* private */
	size_t node_cap, frame_cap;
	struct hashmap child;	/* (parent node, frame) -> node */
	struct hashmap names;	/* (name hash, probe) -> frame */
};

/* ct_new(): an empty tree (the root node only). */
struct calltree *ct_new(void);

/* ct_free(t): frees t and everything it owns; NULL is allowed. */
void ct_free(struct calltree *t);

/* ct_pick_event(db, sessions, n, name, len): the name of the event to
 * analyze when none is given: among the events of the n sessions, those
 * recorded with callchains first, then the most samples in all, then the
 * name. Writes it to name (len bytes) and returns 0; -1 when the sessions
 * have no events. */
int ct_pick_event(sqlite3 *db, const int64_t *sessions, int n, char *name, size_t len);

/* ct_has_callchains(db, session, event): whether session has samples of
 * event recorded with callchains (perf record -g: PERF_SAMPLE_CALLCHAIN in
 * the event's sample_type). */
bool ct_has_callchains(sqlite3 *db, int64_t session, const char *event);

/* ct_add_run(t, db, session, f, err, errlen): loads the samples of session
 * that f selects as a new run of t (f->event must be set). Reads the
 * database only. Returns the run's index, or -1 with a one-line message in
 * err (a database error, a broken stack row, more than INT32_MAX nodes),
 * after which t may only be freed. A run may select no samples. */
int ct_add_run(struct calltree *t, sqlite3 *db, int64_t session,
	       const struct ct_filter *f, char *err, size_t errlen);

/* ct_path(t, node, frames, max): the frames from the outermost caller down
 * to node into frames[0..]; returns the path length (depth + 1), which may
 * exceed max (then only the first max are written). 0 for the root. */
size_t ct_path(const struct calltree *t, int32_t node, int32_t *frames, size_t max);

/* ct_child(t, parent, frame): the child of parent with that frame, or -1. */
int32_t ct_child(const struct calltree *t, int32_t parent, int32_t frame);

/* ct_frame(t, name): the frame called name, or -1. */
int32_t ct_frame(const struct calltree *t, const char *name);
#endif
