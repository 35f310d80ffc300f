/* Symbol demangling: see demangle.h. libiberty's cplus_demangle with no
 * options is what perf's report and script print (no parameters, no
 * const); it keeps its own recursion limit for hostile names. */
#include <libiberty/demangle.h>
#include "collect/demangle.h"

char *sym_demangle(const char *name)
{
	if (!name || name[0] != '_' || (name[1] != 'Z' && name[1] != 'R'))
		return NULL;
	return cplus_demangle(name, DMGL_NO_OPTS);
}
