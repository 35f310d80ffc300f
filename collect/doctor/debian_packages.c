/* Which of the Debian packages perfdb uses are installed (see
 * debian_packages.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include "collect/doctor/debian_packages.h"
#include "collect/recipes.h"
#include "lib/alloc.h"

/* parse_list(p, max): the embedded list's NAME ROLE pairs into p; their
 * number. Comments (#) and blank lines are skipped. */
static size_t parse_list(struct deb_package *p, size_t max)
{
	size_t n = 0;
	for (const char *l = perfdb_debian_packages; *l && n < max;) {
		size_t len = strcspn(l, "\n");
		char line[256];
		snprintf(line, sizeof(line), "%.*s", (int)(len < sizeof(line) ? len : sizeof(line) - 1), l);
		l += len + (l[len] == '\n');
		line[strcspn(line, "#")] = 0;
		if (sscanf(line, "%63s %15s", p[n].name, p[n].role) == 2)
			p[n++].installed = false;
	}
	return n;
}

/* mark_installed(p, n, out): marks the packages out (dpkg-query's
 * "NAME STATUS" lines) shows as installed ("ii"). */
static void mark_installed(struct deb_package *p, size_t n, const char *out)
{
	for (const char *l = out; *l;) {
		size_t len = strcspn(l, "\n");
		char name[64], status[8];
		char line[256];
		snprintf(line, sizeof(line), "%.*s", (int)(len < sizeof(line) ? len : sizeof(line) - 1), l);
		l += len + (l[len] == '\n');
		if (sscanf(line, "%63s %7s", name, status) != 2 || strcmp(status, "ii"))
			continue;
		name[strcspn(name, ":")] = 0;	/* NAME:ARCH */
		for (size_t i = 0; i < n; i++)
			if (!strcmp(p[i].name, name))
				p[i].installed = true;
	}
}

/* deb_packages: see debian_packages.h. */
int deb_packages(struct deb_package *p, size_t max, char *why, size_t len)
{
	size_t n = parse_list(p, max);
	char **argv = xcalloc(n + 4, sizeof(*argv));
	enum { OUTLEN = 1 << 16 };
	char *out = xmalloc(OUTLEN);
	int ws, rc = (int)n;
	argv[0] = (char *)"dpkg-query";
	argv[1] = (char *)"-W";
	argv[2] = (char *)"-f=${Package} ${db:Status-Abbrev}\\n";
	for (size_t i = 0; i < n; i++)
		argv[3 + i] = p[i].name;
	/* dpkg-query exits 1 when a package is unknown: its other lines hold */
	int r = run_capture(argv, out, OUTLEN, &ws);
	if (r || !WIFEXITED(ws) || WEXITSTATUS(ws) > 1) {
		out[strcspn(out, "\n")] = 0;
		snprintf(why, len, "dpkg-query: %s", r || *out ? out : "failed");
		rc = -1;
	} else {
		mark_installed(p, n, out);
	}
	free(out);
	free(argv);
	return rc;
}
