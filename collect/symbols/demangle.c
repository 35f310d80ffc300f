/* Symbol demangling: see demangle.h. libiberty's cplus_demangle with no
 * options is what perf's report and script print (no parameters, no
 * const); it keeps its own recursion limit for hostile names. */
#include <stdlib.h>
#include <string.h>
#include <libiberty/demangle.h>
#include "collect/symbols/demangle.h"
#include "lib/alloc.h"

#define PLT_SUFFIX "@plt"

/* demangle_plt(name, n): NAME@plt (n bytes of NAME) as demangled NAME
 * plus "@plt", or NULL when NAME does not demangle. */
static char *demangle_plt(const char *name, size_t n)
{
	char *base = xstrndup(name, n), *plain = sym_demangle(base), *out = NULL;

	if (plain)
		out = xasprintf("%s" PLT_SUFFIX, plain);
	free(plain);
	free(base);
	return out;
}

char *sym_demangle(const char *name)
{
	size_t n;

	if (!name || name[0] != '_' || (name[1] != 'Z' && name[1] != 'R'))
		return NULL;
	n = strlen(name);
	if (n > strlen(PLT_SUFFIX) && !strcmp(name + n - strlen(PLT_SUFFIX), PLT_SUFFIX))
		return demangle_plt(name, n - strlen(PLT_SUFFIX));
	return cplus_demangle(name, DMGL_NO_OPTS);
}
