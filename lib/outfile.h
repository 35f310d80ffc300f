/* Output files that replace their target only when complete: written to a
 * temporary file next to the target and renamed over it on commit, so a
 * failed or interrupted write leaves the old file as it was, and a target
 * that is a symbolic link is replaced, never followed (the file it names
 * is left as it was). The open refuses targets that hold data the tool
 * must never overwrite by mistake: an SQLite database, a perf.data
 * recording, a file that is the same as a path the caller names (for
 * example the open database), or anything but a regular file (a
 * directory, a FIFO, a device: renaming over /dev/null would replace the
 * device). Every file perfdb writes for the user goes through here. */
#ifndef PERFDB_OUTFILE_H
#define PERFDB_OUTFILE_H
#include <stddef.h>
#include <stdio.h>

struct outfile {
	FILE *f;	/* where to write; NULL once closed */
	char *path;	/* the target */
	char *tmp;	/* the temporary file, renamed to path on commit */
	int mode;	/* the permissions the file gets */
};

/* outfile_open(o, path, mode, keep, err, errlen): opens o for writing
 * path with permissions mode (before the umask). Fails (-1, the reason
 * in err, naming path) when path (its link's target, when it is a
 * symbolic link) is a directory or another file that is not regular, an
 * SQLite database, a perf.data recording, or the same file as keep (when
 * keep is non-NULL and exists), or when the temporary file cannot be
 * created. Never blocks on what path names (a FIFO is refused unopened). */
int outfile_open(struct outfile *o, const char *path, int mode, const char *keep, char *err,
		 size_t errlen);

/* outfile_close(o, err, errlen): ends the writing of o: checks the
 * stream for write errors, gives the file its permissions and closes it,
 * leaving the temporary file for outfile_commit to rename (or
 * outfile_abort to remove); 0, or -1 with the reason in err, naming the
 * target (o is then aborted). */
int outfile_close(struct outfile *o, char *err, size_t errlen);

/* outfile_commit(o, err, errlen): closes o's file (outfile_close) unless
 * closed already and renames it over the target; 0, or -1 with the
 * reason in err (the temporary file is removed and the target left as it
 * was). Frees o's strings either way. */
int outfile_commit(struct outfile *o, char *err, size_t errlen);

/* outfile_abort(o): closes o's file if still open and removes the
 * temporary file, leaving the target as it was; frees o's strings. Safe
 * on a zeroed o. */
void outfile_abort(struct outfile *o);

/* Files that are replaced together: each is written and closed in turn
 * (outfile_close), then all are renamed over their targets at the end
 * (outfiles_commit), or none (outfiles_abort). A zeroed struct is empty. */
struct outfiles {
	struct outfile *v;
	size_t n, alloc;
};

/* outfiles_add(s, o): moves o (opened with outfile_open, open or closed)
 * into s; o is zeroed. */
void outfiles_add(struct outfiles *s, struct outfile *o);

/* outfiles_commit(s, err, errlen): commits the files of s in the order
 * they were added; at the first that fails, the rest are aborted (their
 * targets left as they were) and -1 returned with the reason in err;
 * else 0. s is empty after. */
int outfiles_commit(struct outfiles *s, char *err, size_t errlen);

/* outfiles_abort(s): aborts every file of s (outfile_abort); s is empty
 * after. Safe on a zeroed s. */
void outfiles_abort(struct outfiles *s);

/* file_holds_data(path): the kind of data path holds that must not be
 * overwritten by an output ("an SQLite database", "a perf.data
 * recording"), or NULL for anything else (a missing file, and anything
 * but a regular file, which is not opened: a FIFO would wait). */
const char *file_holds_data(const char *path);
#endif
