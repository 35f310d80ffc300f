/* User-space call stacks of samples recorded with `--call-graph dwarf`:
 * the kernel copies the user registers and the top of the user stack into
 * each sample, and the frames are recovered from the mapped binaries' CFI
 * (.eh_frame / .debug_frame) with libdwfl, as perf report does. x86-64
 * only. */
#ifndef PERFDB_UNWIND_H
#define PERFDB_UNWIND_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One file-backed map of a process, with the ELF file to read CFI from. */
struct umap {
	const char *file;
	uint64_t start, end, pgoff;
};

/* What one sample gives: perf's x86 user registers (PERF_REG_X86_*
 * numbering: AX BX CX DX SI DI BP SP IP FLAGS CS SS DS ES FS GS R8..R15),
 * which of them it has, and the stack copied from SP up. */
struct uregs {
	uint64_t reg[24];
	uint64_t have;			/* bit per reg[] entry */
	const uint8_t *stack;		/* len valid bytes, file byte order */
	size_t len;
	bool swap;			/* the file's byte order is foreign */
};

struct unwinder;

/* unwinder_new: an unwinder (never NULL), with a small cache of
 * per-process libdwfl sessions. unwinder_free(u): frees it and its
 * sessions (NULL: no-op). */
struct unwinder *unwinder_new(void);
void unwinder_free(struct unwinder *u);

/* unwind_user: the user frames of one sample of process proc (whose maps,
 * at generation gen, are maps[0..nmaps) -- asked for through get_maps only
 * when the cache has no session for (proc, gen)), innermost first: the
 * sample's IP, then each caller's return address - 1 (as perf: the call
 * site), at most max. Returns the count (0 when the registers lack IP or
 * SP, or nothing can be unwound). get_maps returns the count and sets
 * *maps (freed by the unwinder), or -1. tid names the thread. */
int unwind_user(struct unwinder *u, int64_t proc, uint64_t gen, int tid,
		long (*get_maps)(void *ctx, struct umap **maps), void *ctx,
		const struct uregs *regs, uint64_t *ips, int max);
#endif
