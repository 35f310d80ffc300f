/* The bounds every struct-layout walk keeps whatever the file says (BTF:
 * btf_layout.c, DWARF: dwarf_layout.c): anonymous members nested deeper
 * than LAYOUT_MAX_ANON (a type that contains itself anonymously would
 * recurse for ever), and LAYOUT_MAX_VISITS members in all (types that
 * share members fan out). Real structs stay far below both. A walk past a
 * bound stops and stores nothing. */
#ifndef PERFDB_LAYOUT_WALK_H
#define PERFDB_LAYOUT_WALK_H
#include <stdbool.h>
#include <stddef.h>

#define LAYOUT_MAX_ANON 16
#define LAYOUT_MAX_VISITS (1u << 20)

struct layout_bounds {
	int anon;		/* anonymous members entered, nested */
	size_t visits;		/* members walked so far */
	const char *over;	/* the bound the walk reached, or NULL */
};

/* What a walk does with the member it reached (layout_visit). */
enum layout_step {
	LAYOUT_SKIP,		/* nothing: past a bound, or an anonymous non-composite */
	LAYOUT_ENTER_ANON,	/* walk its members at this level, then layout_leave_anon */
	LAYOUT_NAMED,		/* a named member: its row (and its members, if any) */
};

/* layout_visit(b, anonymous, composite): counts one member in b and says
 * what to do with it: an anonymous (nameless) member of composite type is
 * entered unless that nests past LAYOUT_MAX_ANON; past either bound, b->over
 * says which and every later member is skipped. */
enum layout_step layout_visit(struct layout_bounds *b, bool anonymous, bool composite);

/* layout_leave_anon(b): the anonymous member layout_visit entered is done. */
void layout_leave_anon(struct layout_bounds *b);

#endif
