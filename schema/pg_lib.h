/* libpq, loaded when perfdb first needs it. Only push and pull talk to
 * PostgreSQL; linking libpq would make every perfdb command load it and
 * the two dozen libraries it needs (TLS, Kerberos, LDAP), about 5 ms at
 * each start. The functions perfdb calls are pointers in `pq`, named as
 * libpq names them without the "PQ" prefix: pq.exec is PQexec. */
#ifndef PERFDB_PG_LIB_H
#define PERFDB_PG_LIB_H
#include <libpq-fe.h>
#include <stddef.h>

/* PG_LIB_FUNCS(X): X(return type, name without "PQ", parameter list) for
 * each libpq function perfdb calls. */
#define PG_LIB_FUNCS(X)                                                                        \
	X(PGconn *, connectdb, (const char *))                                                 \
	X(ConnStatusType, status, (const PGconn *))                                             \
	X(void, finish, (PGconn *))                                                            \
	X(int, setClientEncoding, (PGconn *, const char *))                                    \
	X(char *, errorMessage, (const PGconn *))                                              \
	X(PQconninfoOption *, conninfoParse, (const char *, char **))                          \
	X(void, conninfoFree, (PQconninfoOption *))                                            \
	X(void, freemem, (void *))                                                             \
	X(PGresult *, exec, (PGconn *, const char *))                                          \
	X(PGresult *, execParams, (PGconn *, const char *, int, const Oid *,                   \
				   const char *const *, const int *, const int *, int))        \
	X(int, sendQueryParams, (PGconn *, const char *, int, const Oid *, const char *const *, \
				 const int *, const int *, int))                               \
	X(PGresult *, getResult, (PGconn *))                                                   \
	X(int, putCopyData, (PGconn *, const char *, int))                                     \
	X(int, putCopyEnd, (PGconn *, const char *))                                           \
	X(ExecStatusType, resultStatus, (const PGresult *))                                    \
	X(char *, resultErrorMessage, (const PGresult *))                                      \
	X(void, clear, (PGresult *))                                                           \
	X(int, ntuples, (const PGresult *))                                                    \
	X(int, nfields, (const PGresult *))                                                    \
	X(char *, fname, (const PGresult *, int))                                              \
	X(Oid, ftype, (const PGresult *, int))                                                 \
	X(int, fformat, (const PGresult *, int))                                               \
	X(char *, getvalue, (const PGresult *, int, int))                                      \
	X(int, getlength, (const PGresult *, int, int))                                        \
	X(int, getisnull, (const PGresult *, int, int))                                        \
	X(char *, cmdTuples, (PGresult *))

#define PG_LIB_POINTER(ret, name, params) ret(*name) params;
/* The libpq functions, once pg_lib_load has succeeded. */
struct pg_lib {
	PG_LIB_FUNCS(PG_LIB_POINTER)
};
#undef PG_LIB_POINTER
extern struct pg_lib pq;

/* pg_lib_load(err, errlen): loads libpq (PERFDB_LIBPQ, default
 * libpq.so.5) and finds its functions, the first time; 0, or -1 with one
 * line in err ("cannot load libpq: ..."). Later calls return the first
 * call's result. Not thread-safe: call it before starting threads. */
int pg_lib_load(char *err, size_t errlen);
#endif
