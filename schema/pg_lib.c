/* Loading libpq at run time: see pg_lib.h. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "schema/pg_lib.h"

struct pg_lib pq;

/* The name and place in struct pg_lib of each function. */
#define PG_LIB_ENTRY(ret, name, params) { "PQ" #name, offsetof(struct pg_lib, name) },
static const struct {
	const char *sym;
	size_t off;
} funcs[] = { PG_LIB_FUNCS(PG_LIB_ENTRY) };
#undef PG_LIB_ENTRY

/* Each pointer has the type of libpq's own declaration (libpq-fe.h). */
#define PG_LIB_SAME_TYPE(ret, name, params)                                               \
	_Static_assert(__builtin_types_compatible_p(__typeof__(&PQ##name), ret(*) params),  \
		       "pg_lib.h: PQ" #name " is declared otherwise in libpq-fe.h");
PG_LIB_FUNCS(PG_LIB_SAME_TYPE)
#undef PG_LIB_SAME_TYPE

/* The first load's outcome: 0 not tried, 1 loaded, -1 failed (why). */
static int state;
static char why[512];

/* load(): dlopens libpq and fills pq; 1, or -1 with why set. */
static int load(void)
{
	const char *path = getenv("PERFDB_LIBPQ");
	void *h;
	if (!path || !*path)
		path = "libpq.so.5";
	if (!(h = dlopen(path, RTLD_NOW | RTLD_LOCAL))) {
		const char *e = dlerror();
		snprintf(why, sizeof(why), "cannot load libpq: %s (Debian package libpq5)",
			 e ? e : path);
		return -1;
	}
	for (size_t i = 0; i < sizeof(funcs) / sizeof(funcs[0]); i++) {
		void *f = dlsym(h, funcs[i].sym);
		if (!f) {
			snprintf(why, sizeof(why), "cannot load libpq: %s has no %s", path, funcs[i].sym);
			memset(&pq, 0, sizeof(pq));
			dlclose(h);
			return -1;
		}
		memcpy((char *)&pq + funcs[i].off, &f, sizeof(f));
	}
	return 1;	/* h stays open for the process's life */
}

/* pg_lib_load: see pg_lib.h. */
int pg_lib_load(char *err, size_t errlen)
{
	if (!state)
		state = load();
	if (state < 0 && err && errlen)
		snprintf(err, errlen, "%s", why);
	return state < 0 ? -1 : 0;
}
