/* The version of this perfdb, generated at build time from VERSION and,
 * in a git checkout, the commit it was built from (see the Makefile). */
#ifndef PERFDB_VERSION_H
#define PERFDB_VERSION_H

/* perfdb_version: "0.6.0"; perfdb_commit: the abbreviated commit with
 * "-dirty" when the tree had changes, or "" outside a git checkout. */
extern const char perfdb_version[];
extern const char perfdb_commit[];
#endif
