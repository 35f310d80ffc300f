/* Unit tests of lib/outfile.c: a file replaced only when complete, the
 * refusals (directory, SQLite database, perf.data, the file to keep, a
 * FIFO or a device, without blocking), a symbolic link replaced and never
 * followed, the permissions, an aborted write leaving the old file alone,
 * and files replaced together (outfiles): all, or none after a failure. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lib/alloc.h"
#include "lib/outfile.h"
#include "tests/unit/tap.h"

static char dir[] = "/tmp/perfdb-outfile-XXXXXX";

/* put(name, bytes, n): writes n bytes into dir/name; returns the path. */
static char *put(const char *name, const char *bytes, size_t n)
{
	char *path = xasprintf("%s/%s", dir, name);
	FILE *f = fopen(path, "wb");
	fwrite(bytes, 1, n, f);
	fclose(f);
	return path;
}

/* slurp(path, buf, cap): the file's text into buf. */
static const char *slurp(const char *path, char *buf, size_t cap)
{
	FILE *f = fopen(path, "rb");
	size_t n = f ? fread(buf, 1, cap - 1, f) : 0;
	if (f)
		fclose(f);
	buf[n] = 0;
	return buf;
}

/* entries(): how many files dir holds (temporary files left behind show). */
static int entries(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;
	while (d && (e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	if (d)
		closedir(d);
	return n;
}

static void test_replace(void)
{
	char *p = put("report.md", "old", 3), err[256], buf[64];
	struct outfile o;
	struct stat st;
	ok(!outfile_open(&o, p, 0640, NULL, err, sizeof(err)), "opens over a text file");
	fputs("new text", o.f);
	is_str(slurp(p, buf, sizeof(buf)), "old", "the target is untouched until commit");
	ok(!outfile_commit(&o, err, sizeof(err)), "commits");
	is_str(slurp(p, buf, sizeof(buf)), "new text", "the target holds the new text");
	ok(!stat(p, &st) && (st.st_mode & 0777) == (0640u & ~(unsigned)umask(022)), "mode 0640 less the umask");
	umask(022);
	ok(!outfile_open(&o, p, 0644, NULL, err, sizeof(err)), "opens again");
	fputs("half", o.f);
	outfile_abort(&o);
	is_str(slurp(p, buf, sizeof(buf)), "new text", "an aborted write leaves the old file");
	unlink(p);
	ok(!entries(), "no temporary file is left behind");
	free(p);
}

static void test_refusals(void)
{
	char *db = put("perfdb.db", "SQLite format 3\0rest", 20), *pd = put("perf.data", "PERFILE2....", 12);
	char *txt = put("notes.txt", "x", 1), *link = xasprintf("%s/alias.db", dir), err[512], buf[64];
	struct outfile o;
	ok(symlink(txt, link) == 0, "a second name for notes.txt");
	ok(outfile_open(&o, db, 0644, NULL, err, sizeof(err)) && strstr(err, "an SQLite database") &&
	   strstr(err, db), "refuses an SQLite database: %s", err);
	ok(outfile_open(&o, pd, 0644, NULL, err, sizeof(err)) && strstr(err, "a perf.data recording"),
	   "refuses a perf.data recording: %s", err);
	ok(outfile_open(&o, dir, 0644, NULL, err, sizeof(err)) && strstr(err, "is a directory"),
	   "refuses a directory: %s", err);
	ok(outfile_open(&o, link, 0644, txt, err, sizeof(err)) && strstr(err, "database being read"),
	   "refuses the file to keep under another name: %s", err);
	is_str(slurp(db, buf, sizeof(buf)), "SQLite format 3", "the database is as it was");
	ok(!outfile_open(&o, txt, 0644, db, err, sizeof(err)), "a different file than the one to keep is fine");
	outfile_abort(&o);
	ok(outfile_open(&o, "/nonexistent-dir/x.md", 0644, NULL, err, sizeof(err)) &&
	   strstr(err, "/nonexistent-dir/x.md"), "a missing directory names the path: %s", err);
	ok(!file_holds_data(txt) && !file_holds_data("/nonexistent"), "text and missing files hold no data");
	unlink(db), unlink(pd), unlink(txt), unlink(link);
	free(db), free(pd), free(txt), free(link);
}

/* A FIFO or a device is refused, unopened: a FIFO's open would wait for a
 * writer (the alarm turns a hang into a failure), and a rename over
 * /dev/null would replace the device. */
static void test_not_regular(void)
{
	char *fifo = xasprintf("%s/fifo.md", dir), err[512];
	struct outfile o;
	int rc;
	ok(mkfifo(fifo, 0600) == 0, "a FIFO");
	alarm(10);
	rc = outfile_open(&o, fifo, 0644, NULL, err, sizeof(err));
	alarm(0);
	ok(rc && strstr(err, "not a regular file") && strstr(err, fifo), "refuses a FIFO at once: %s",
	   rc ? err : "opened");
	if (!rc)
		outfile_abort(&o);
	ok(!file_holds_data(fifo), "a FIFO holds no data (and is not opened)");
	rc = outfile_open(&o, "/dev/null", 0644, NULL, err, sizeof(err));
	ok(rc && strstr(err, "/dev/null: is not a regular file"), "refuses a device: %s", rc ? err : "opened");
	if (!rc)
		outfile_abort(&o);
	unlink(fifo);
	free(fifo);
}

/* A target that is a symbolic link is replaced: the file it names keeps
 * its text. */
static void test_symlink(void)
{
	char *victim = put("victim.txt", "precious", 8), *link = xasprintf("%s/link.svg", dir), err[512], buf[64];
	struct outfile o;
	struct stat st;
	ok(symlink("victim.txt", link) == 0, "link.svg names victim.txt");
	ok(!outfile_open(&o, link, 0644, NULL, err, sizeof(err)), "opens over the link");
	fputs("<svg/>", o.f);
	ok(!outfile_commit(&o, err, sizeof(err)), "commits");
	is_str(slurp(victim, buf, sizeof(buf)), "precious", "the file the link named is as it was");
	ok(!lstat(link, &st) && S_ISREG(st.st_mode), "the link is now a regular file");
	is_str(slurp(link, buf, sizeof(buf)), "<svg/>", "holding the new text");
	unlink(victim), unlink(link);
	free(victim), free(link);
}

/* outfile_close then commit or abort; files replaced together. */
static void test_close(void)
{
	char *p = put("a.md", "old", 3), err[512], buf[64];
	struct outfile o;
	ok(!outfile_open(&o, p, 0644, NULL, err, sizeof(err)) && fputs("closed", o.f) >= 0 &&
	   !outfile_close(&o, err, sizeof(err)) && !o.f, "closes without committing");
	is_str(slurp(p, buf, sizeof(buf)), "old", "the target is untouched until commit");
	ok(!outfile_commit(&o, err, sizeof(err)), "a closed file commits");
	is_str(slurp(p, buf, sizeof(buf)), "closed", "the target holds the new text");
	ok(!outfile_open(&o, p, 0644, NULL, err, sizeof(err)) && !outfile_close(&o, err, sizeof(err)),
	   "closes again");
	outfile_abort(&o);
	is_str(slurp(p, buf, sizeof(buf)), "closed", "an aborted closed file leaves the target");
	unlink(p);
	ok(!entries(), "no temporary file is left behind");
	free(p);
}

/* set_of(s, names, n, text): s with a file per name, text written, closed
 * but for the last. */
static void set_of(struct outfiles *s, char **paths, int n, const char *text)
{
	char err[512];
	for (int i = 0; i < n; i++) {
		struct outfile o;
		ok(!outfile_open(&o, paths[i], 0644, NULL, err, sizeof(err)), "opens %d", i);
		fputs(text, o.f);
		if (i + 1 < n)
			ok(!outfile_close(&o, err, sizeof(err)), "closes %d", i);
		outfiles_add(s, &o);
	}
}

static void test_set(void)
{
	char *p[3] = { put("1.svg", "old", 3), put("2.svg", "old", 3), put("3.md", "old", 3) };
	char err[512], buf[64];
	struct outfiles s = { 0 };
	set_of(&s, p, 3, "new");
	outfiles_abort(&s);
	ok(!strcmp(slurp(p[0], buf, sizeof(buf)), "old") && !strcmp(slurp(p[2], buf, sizeof(buf)), "old") &&
	   entries() == 3, "an aborted set leaves every target and no temporary file");
	set_of(&s, p, 3, "new");
	ok(!outfiles_commit(&s, err, sizeof(err)) && !s.n, "a set commits");
	ok(!strcmp(slurp(p[0], buf, sizeof(buf)), "new") && !strcmp(slurp(p[2], buf, sizeof(buf)), "new") &&
	   entries() == 3, "every target replaced");
	set_of(&s, p, 3, "newer");
	unlink(s.v[1].tmp);	/* the second rename fails */
	ok(outfiles_commit(&s, err, sizeof(err)) && strstr(err, p[1]), "a failed rename fails the set: %s", err);
	is_str(slurp(p[0], buf, sizeof(buf)), "newer", "the files before it are replaced");
	is_str(slurp(p[2], buf, sizeof(buf)), "new", "the files after it are not");
	ok(entries() == 3, "no temporary file is left behind");
	for (int i = 0; i < 3; i++) {
		unlink(p[i]);
		free(p[i]);
	}
}

int main(void)
{
	if (!mkdtemp(dir))
		return 1;
	umask(022);
	test_replace();
	test_refusals();
	test_not_regular();
	test_symlink();
	test_close();
	test_set();
	rmdir(dir);
	return tap_done();
}
