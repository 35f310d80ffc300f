/* The Debian packages perfdb uses (.ci/packages, embedded at build time:
 * the list .ci/deps.sh installs) and which of them are installed on the
 * machine perfdb runs on, by dpkg-query. */
#ifndef PERFDB_DEBIAN_PACKAGES_H
#define PERFDB_DEBIAN_PACKAGES_H
#include <stdbool.h>
#include <stddef.h>

/* .ci/packages as one string (generated build/packages.c). */
extern const char perfdb_debian_packages[];

/* One package of the list. */
struct deb_package {
	char name[64];
	char role[16];		/* "run", "build" or "test" */
	bool installed;
};

/* deb_packages(p, max, why, len): the list into p (at most max entries;
 * the number is returned), each marked installed or not by one
 * dpkg-query; -1 when dpkg-query could not be run (why says so, and
 * nothing is marked). */
int deb_packages(struct deb_package *p, size_t max, char *why, size_t len);
#endif
