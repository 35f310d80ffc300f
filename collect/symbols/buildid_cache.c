/* perf's build-id cache lookups: see buildid_cache.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "collect/symbols/buildid_cache.h"

const char *buildid_cache_dir(char *buf, size_t len)
{
	const char *dir = getenv("PERF_BUILDID_DIR"), *home = getenv("HOME");
	if (dir && *dir)
		return snprintf(buf, len, "%s", dir) < (int)len ? buf : NULL;
	if (home && *home)
		return snprintf(buf, len, "%s/.debug", home) < (int)len ? buf : NULL;
	return NULL;
}

/* is_hex_id: whether s is a build id: 2 to 40 lower-case hex digits. */
static bool is_hex_id(const char *s)
{
	size_t n = strspn(s, "0123456789abcdef");
	return n >= 2 && n <= 40 && !s[n];
}

bool buildid_cache_file(const char *build_id, const char *leaf, char *out, size_t len)
{
	char dir[4096];
	int n;
	if (!build_id || !is_hex_id(build_id) || !buildid_cache_dir(dir, sizeof(dir)))
		return false;
	n = snprintf(out, len, "%s/.build-id/%.2s/%s/%s", dir, build_id, build_id + 2, leaf);
	return n > 0 && (size_t)n < len && access(out, R_OK) == 0;
}
