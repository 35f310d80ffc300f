/* The bounds of a struct-layout walk: see layout_walk.h. */
#include "collect/layout/layout_walk.h"

/* layout_visit: see layout_walk.h. */
enum layout_step layout_visit(struct layout_bounds *b, bool anonymous, bool composite)
{
	if (b->over)
		return LAYOUT_SKIP;
	if (++b->visits > LAYOUT_MAX_VISITS) {
		b->over = "more than 1048576 members to walk (types sharing members fan out)";
		return LAYOUT_SKIP;
	}
	if (!anonymous)
		return LAYOUT_NAMED;
	if (!composite)
		return LAYOUT_SKIP;
	if (b->anon >= LAYOUT_MAX_ANON) {
		b->over = "anonymous members nested deeper than 16 (a type containing itself)";
		return LAYOUT_SKIP;
	}
	b->anon++;
	return LAYOUT_ENTER_ANON;
}

/* layout_leave_anon: see layout_walk.h. */
void layout_leave_anon(struct layout_bounds *b)
{
	b->anon--;
}
