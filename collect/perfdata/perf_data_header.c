/* perf.data reader: opening a file. Recognises the magic (PERFILE2 either
 * endianness, the old PERFFILE, pipe mode), reads the file header, the attrs
 * section with each attr's ids, and the feature sections (tracing data
 * included) that follow the data section. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <traceevent/event-parse.h>
#include "lib/alloc.h"
#include "lib/bytes.h"
#include "collect/perfdata/perf_data_int.h"
#include "collect/perfdata/tracing_data.h"

#define MAGIC2		"PERFILE2"
#define MAGIC2_SWAPPED	"2ELIFREP"
#define MAGIC1		"PERFFILE"
#define FILE_HEADER_SIZE 104
#define PIPE_HEADER_SIZE 16
#define MAX_FEATURE	(256u << 20)
#define FEAT_TRACING_DATA 1
#define FIFO_WAIT_MS	2000	/* for a writer of a named FIFO */

/* in_file: 0 when the n bytes at offset off lie inside the file (or its
 * size is unknown), else -1 with an error at field, where the file says
 * that they are there. */
static int in_file(struct pd_reader *r, uint64_t field, uint64_t off, uint64_t n)
{
	if (r->file_size && (off > r->file_size || n > r->file_size - off))
		return pd_errorf(r, field, "%llu bytes at offset %llu lie beyond the end of the file (%llu bytes)",
				 (unsigned long long)n, (unsigned long long)off,
				 (unsigned long long)r->file_size);
	return 0;
}

/* read_at: reads exactly n bytes at offset off of the file; field is where
 * the file says that the bytes are there (named when they are not). */
static int read_at(struct pd_reader *r, uint64_t field, uint64_t off, void *buf, size_t n)
{
	if (in_file(r, field, off, n))
		return -1;
	if (fseeko(r->fp, (off_t)off, SEEK_SET) || fread(buf, 1, n, r->fp) != n)
		return pd_errorf(r, off, "read failed: %s",
				 ferror(r->fp) ? strerror(errno) : "unexpected end of file");
	return 0;
}

/* read_alloc: reads n bytes at off into a new buffer (NULL on error);
 * field is where the file gives off and n. n, from the file, is checked
 * against the file's size before anything is allocated. */
static uint8_t *read_alloc(struct pd_reader *r, uint64_t field, uint64_t off, uint64_t n)
{
	uint8_t *b;
	if (n > MAX_FEATURE) {
		pd_errorf(r, field, "section of %llu bytes is implausibly large",
			  (unsigned long long)n);
		return NULL;
	}
	if (in_file(r, field, off, n))
		return NULL;
	b = xmalloc((size_t)n);
	if (read_at(r, field, off, b, (size_t)n)) {
		free(b);
		return NULL;
	}
	return b;
}

/* detect_magic: sets the mode and byte order from the first 16 bytes. */
static int detect_magic(struct pd_reader *r, const uint8_t *h)
{
	uint64_t size;
	if (!memcmp(h, MAGIC2, 8) || !memcmp(h, MAGIC2_SWAPPED, 8)) {
		r->swap = memcmp(h, MAGIC2, 8) != 0;
	} else if (!memcmp(h, MAGIC1, 8)) {
		/* v1 wrote the magic as a string: the size field tells the order */
		size = rd64(h + 8, false);
		r->swap = !(size >= PIPE_HEADER_SIZE && size <= 4096);
		r->v1_magic = true;
	} else {
		return pd_errorf(r, 0, "not a perf.data file (bad magic)");
	}
	r->big_endian = (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__) != r->swap;
	size = rd64(h + 8, r->swap);
	if (size == PIPE_HEADER_SIZE) {
		r->pipe_mode = true;
		return 0;
	}
	if (size < FILE_HEADER_SIZE - 32 || size > 4096)
		return pd_errorf(r, 8, "header size %llu is not a perf.data header",
				 (unsigned long long)size);
	return 0;
}

/* One attr's ids section as the attr table gives it: at is the offset
 * of its {offset, size} entry, named in messages. */
struct ids_sec {
	uint64_t off, size, at;
	int64_t attr;		/* the attr's index */
};

/* sec_cmp: orders ids sections by offset, then by entry. */
static int sec_cmp(const void *a, const void *b)
{
	const struct ids_sec *x = a, *y = b;
	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	return x->at < y->at ? -1 : x->at > y->at;
}

/* check_ids_secs: the n ids sections lie in the file, hold at most
 * PD_MAX_IDS ids together, and no two overlap (perf writes one section per
 * attr; a hostile file pointing every attr at one section would otherwise
 * cost the section's size once per attr). Sorts s. */
static int check_ids_secs(struct pd_reader *r, struct ids_sec *s, size_t n)
{
	uint64_t total = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i].size % 8)
			return pd_errorf(r, s[i].at, "attr ids section size %llu is not a multiple of 8",
					 (unsigned long long)s[i].size);
		if (in_file(r, s[i].at, s[i].off, s[i].size))
			return -1;
		total += s[i].size / 8;		/* <= file size / 8: no overflow */
		if (total > PD_MAX_IDS)
			return pd_errorf(r, s[i].at, "attrs declare more than %u sample ids together",
					 PD_MAX_IDS);
	}
	qsort(s, n, sizeof(*s), sec_cmp);
	for (size_t i = 1, j = 0; i < n; i++) {
		if (!s[i].size)
			continue;
		if (s[j].size && s[i].off < s[j].off + s[j].size)
			return pd_errorf(r, s[i].at > s[j].at ? s[i].at : s[j].at,
					 "attr ids section [%llu, +%llu) overlaps another attr's",
					 (unsigned long long)s[i].off, (unsigned long long)s[i].size);
		j = i;
	}
	return 0;
}

/* read_ids: reads the size bytes of ids at off (checked by
 * check_ids_secs) into e; at is the attr's ids entry. */
static int read_ids(struct pd_reader *r, struct pd_evsel *e, uint64_t off,
		    uint64_t size, uint64_t at)
{
	size_t n = (size_t)(size / 8);
	uint64_t *ids;
	if (!n)
		return 0;
	ids = xreallocarray(NULL, n, sizeof(*ids));
	if (read_at(r, at, off, ids, (size_t)size)) {
		free(ids);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		ids[i] = rd64((const uint8_t *)&ids[i], r->swap);
	pd_evsel_add_ids(r, e, ids, n);
	free(ids);
	return 0;
}

/* attrs_count: the number of attr_size-byte entries in the attrs section
 * of size bytes at off, or -1 (an error) when it cannot be a table perfdb
 * reads. */
static int64_t attrs_count(struct pd_reader *r, uint64_t attr_size, uint64_t off,
			   uint64_t size)
{
	if (attr_size < 64 + 16 || attr_size > 4096)
		return pd_errorf(r, 16, "attr_size %llu is invalid",
				 (unsigned long long)attr_size);
	if (size % attr_size)
		return pd_errorf(r, 32, "attrs section size %llu is not a multiple of attr_size %llu",
				 (unsigned long long)size, (unsigned long long)attr_size);
	if (size / attr_size > PD_MAX_ATTRS)
		return pd_errorf(r, 32, "attrs section holds %llu attrs, more than the %d perfdb reads",
				 (unsigned long long)(size / attr_size), PD_MAX_ATTRS);
	if (in_file(r, 24, off, size))
		return -1;
	return (int64_t)(size / attr_size);
}

/* An attrs table being read in chunks of whole entries. */
#define ATTRS_CHUNK (1u << 20)

/* read_entries: reads the n attr_size-byte entries of the table at off
 * in chunks into buf (ATTRS_CHUNK bytes) and calls fn on each (its index
 * and offset) until one fails. */
static int read_entries(struct pd_reader *r, uint64_t attr_size, uint64_t off, int64_t n,
			uint8_t *buf, int (*fn)(struct pd_reader *, const uint8_t *,
						uint64_t, int64_t, uint64_t, void *),
			void *ctx)
{
	int64_t per = (int64_t)(ATTRS_CHUNK / attr_size);
	for (int64_t i = 0; i < n; i += per) {
		int64_t k = n - i < per ? n - i : per;
		uint64_t at = off + (uint64_t)i * attr_size;
		if (read_at(r, 24, at, buf, (size_t)((uint64_t)k * attr_size)))
			return -1;
		for (int64_t j = 0; j < k; j++)
			if (fn(r, buf + (uint64_t)j * attr_size, attr_size, i + j,
			       at + (uint64_t)j * attr_size, ctx))
				return -1;
	}
	return 0;
}

/* note_ids: keeps attr i's ids entry in the ids_sec array ctx. */
static int note_ids(struct pd_reader *r, const uint8_t *a, uint64_t attr_size, int64_t i,
		    uint64_t at, void *ctx)
{
	struct ids_sec *secs = ctx;
	secs[i] = (struct ids_sec){ rd64(a + attr_size - 16, r->swap),
				    rd64(a + attr_size - 8, r->swap), at + attr_size - 16, i };
	return 0;
}

/* add_attr: the evsel of the attr a, at offset at, with its ids: those
 * check_ids_secs checked (ctx: the ids_sec array in attr order), not the
 * entry as read again (the file may have changed between the passes). */
static int add_attr(struct pd_reader *r, const uint8_t *a, uint64_t attr_size, int64_t i,
		    uint64_t at, void *ctx)
{
	const struct ids_sec *s = (const struct ids_sec *)ctx + i;
	struct pd_evsel *e = pd_evsel_add(r, a, (size_t)attr_size - 16);
	if (!e)
		return pd_errorf(r, at, "attr is invalid");
	return read_ids(r, e, s->off, s->size, s->at);
}

/* by_attr: orders ids sections by their attr's index. */
static int by_attr(const void *a, const void *b)
{
	const struct ids_sec *x = a, *y = b;
	return x->attr < y->attr ? -1 : x->attr > y->attr;
}

/* read_attrs: the attrs section: attr_size-byte entries, each an attr
 * followed by the {offset, size} of its ids. Read in chunks, twice (the
 * ids sections are checked together before any is read): memory follows
 * the attrs the file holds, not the size it declares. */
static int read_attrs(struct pd_reader *r, uint64_t attr_size, uint64_t off,
		      uint64_t size)
{
	int64_t n = attrs_count(r, attr_size, off, size);
	struct ids_sec *secs;
	uint8_t *buf;
	int rc;
	if (n <= 0)
		return (int)n;
	secs = xreallocarray(NULL, (size_t)n, sizeof(*secs));
	buf = xmalloc(ATTRS_CHUNK);
	rc = read_entries(r, attr_size, off, n, buf, note_ids, secs);
	if (!rc)
		rc = check_ids_secs(r, secs, (size_t)n);
	if (!rc) {
		qsort(secs, (size_t)n, sizeof(*secs), by_attr);
		rc = read_entries(r, attr_size, off, n, buf, add_attr, secs);
	}
	free(secs);
	free(buf);
	return rc;
}

/* How tracing data is vetted (pd_set_tracing_vet): fork by default. */
static enum pd_tracing_vet tracing_vet = PD_VET_FORK;

/* pd_set_tracing_vet: see perf_data.h. */
void pd_set_tracing_vet(enum pd_tracing_vet v)
{
	tracing_vet = v;
}

/* run_child: the child of pd_child_survives: fn with stderr silenced (a
 * sanitizer's report of a crash is the parent's verdict, not output),
 * then the verdict "ok" on fd once fn came back. */
static void run_child(void (*fn)(const uint8_t *, size_t), const uint8_t *buf, size_t len, int fd)
{
	int null = open("/dev/null", O_WRONLY);
	if (null >= 0)
		dup2(null, 2);
	fn(buf, len);
	_exit(write(fd, "ok", 2) == 2 ? 0 : 3);
}

/* pd_child_survives: see perf_data_int.h. */
int pd_child_survives(void (*fn)(const uint8_t *, size_t), const uint8_t *buf, size_t len,
		      char *why, size_t whylen)
{
	char verdict[2] = { 0 };
	int status = 0, fds[2];
	ssize_t got;
	pid_t pid;
	if (pipe2(fds, O_CLOEXEC)) {
		snprintf(why, whylen, "cannot check it in a child process (pipe: %s)", strerror(errno));
		return -1;
	}
	fflush(NULL);	/* the child must not write the parent's buffers twice */
	pid = fork();
	if (pid < 0) {
		snprintf(why, whylen, "cannot check it in a child process (fork: %s)", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		close(fds[0]);
		run_child(fn, buf, len, fds[1]);
	}
	close(fds[1]);
	do
		got = read(fds[0], verdict, sizeof(verdict));
	while (got < 0 && errno == EINTR);
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (got == 2 && !memcmp(verdict, "ok", 2) && WIFEXITED(status) && !WEXITSTATUS(status))
		return 0;
	if (WIFSIGNALED(status))
		snprintf(why, whylen, "it dies of signal %d", WTERMSIG(status));
	else
		snprintf(why, whylen, "it exits with status %d", WEXITSTATUS(status));
	return -1;
}

/* parse_and_free: what the vetting child does: the whole tracing-data
 * parse, its result dropped. */
static void parse_and_free(const uint8_t *buf, size_t len)
{
	struct tep_handle *tep = NULL;
	char why[256];
	if (!tracing_data_parse(buf, len, &tep, why, sizeof(why)))
		tep_free(tep);
}

/* pd_set_tracing_data: parses a TRACING_DATA blob found at offset. */
int pd_set_tracing_data(struct pd_reader *r, const uint8_t *buf, size_t len,
			uint64_t offset)
{
	char why[256];
	if (r->tep || tracing_vet == PD_VET_SKIP)
		return 0;	/* only the first one counts (or none) */
	/* libtraceevent can still crash on some corrupted formats that
	 * tracing_data_parse's checks let through: the blob is tried in a
	 * child process first */
	if (tracing_vet == PD_VET_FORK &&
	    pd_child_survives(parse_and_free, buf, len, why, sizeof(why)))
		return pd_errorf(r, offset, "tracing data: an event format is corrupt "
				 "(libtraceevent fails on it: %s)", why);
	if (tracing_data_parse(buf, len, &r->tep, why, sizeof(why)))
		return pd_errorf(r, offset, "%s", why);
	return 0;
}

/* parse_feature: hands one feature section (its {offset, size} entry at
 * entry) to its parser. A malformed descriptive section is a warning;
 * malformed tracing data, or a section past a limit, is an error. */
static int parse_feature(struct pd_reader *r, int bit, uint64_t entry, uint64_t off,
			 uint64_t size)
{
	char why[256];
	uint8_t *buf = read_alloc(r, entry, off, size);
	int rc = 0;
	if (!buf)
		return -1;
	if (bit == FEAT_TRACING_DATA) {
		rc = pd_set_tracing_data(r, buf, (size_t)size, off);
	} else {
		rc = pd_feature_parse(&r->features, bit, buf, (size_t)size, r->swap,
				      why, sizeof(why));
		if (rc == -2) {
			rc = pd_errorf(r, off, "%s", why);	/* a limit passed */
		} else if (rc) {
			pd_warnf(r, off, "%s", why);
			rc = 0;
		}
	}
	free(buf);
	return rc;
}

/* read_features: the {offset,size} table after the data section, one entry
 * per set bit of the header's 256-bit feature bitmap, in bit order. */
static int read_features(struct pd_reader *r, const uint8_t *h, uint64_t hsize)
{
	uint64_t bits[4] = { 0 }, at = r->data_offset + r->data_size;
	uint8_t ent[16];
	if (hsize < FILE_HEADER_SIZE)
		return 0;
	for (int i = 0; i < 4; i++)
		bits[i] = rd64(h + 72 + 8 * i, r->swap);
	for (int bit = 1; bit < 256; bit++) {
		if (!(bits[bit / 64] >> (bit % 64) & 1))
			continue;
		if (read_at(r, at, at, ent, sizeof(ent)))
			return -1;
		if (parse_feature(r, bit, at, rd64(ent, r->swap), rd64(ent + 8, r->swap)))
			return -1;
		at += sizeof(ent);
	}
	return 0;
}

/* open_file_mode: header sections of a seekable (non-pipe) file. */
static int open_file_mode(struct pd_reader *r, const uint8_t *h)
{
	uint64_t hsize = rd64(h + 8, r->swap);
	uint8_t full[FILE_HEADER_SIZE] = { 0 };
	if (read_at(r, 8, 0, full, hsize < FILE_HEADER_SIZE ? (size_t)hsize : FILE_HEADER_SIZE))
		return -1;
	r->data_offset = rd64(full + 40, r->swap);
	r->data_size = rd64(full + 48, r->swap);
	if (r->data_offset > r->file_size || r->data_size > r->file_size - r->data_offset)
		return pd_errorf(r, 40, "data section [%llu, +%llu) lies beyond the end of the file (%llu bytes)",
				 (unsigned long long)r->data_offset,
				 (unsigned long long)r->data_size,
				 (unsigned long long)r->file_size);
	if (!r->data_size && r->data_offset >= hsize) {
		/* perf record writes the data size, and the feature sections
		 * after the data, when it finishes: what follows the data
		 * offset is records only */
		r->unfinished = true;
		r->data_size = r->file_size - r->data_offset;
		pd_warnf(r, 48, "data size is 0: perf record did not finish this file (was it killed?); "
			 "records read to the end of the file, without the feature sections "
			 "(event names, tracing data, build ids)");
	}
	if (read_attrs(r, rd64(full + 16, r->swap), rd64(full + 24, r->swap),
		       rd64(full + 32, r->swap)))
		return -1;
	if (!r->unfinished && read_features(r, full, hsize))
		return -1;
	return fseeko(r->fp, (off_t)r->data_offset, SEEK_SET) ?
		pd_errorf(r, r->data_offset, "seek failed") : 0;
}

/* fifo_writer: waits up to FIFO_WAIT_MS for a writer of the FIFO open
 * non-blocking at fd. 1 when there is one (a byte it sent already read
 * into *c: *got), 0 when none came. A named FIFO is pipe-mode input only
 * while something writes to it; open(2) would wait for that forever. */
static int fifo_writer(int fd, int *c, bool *got)
{
	unsigned char b;
	for (int waited = 0; waited <= FIFO_WAIT_MS; waited += 20) {
		ssize_t n = read(fd, &b, 1);
		if (n == 1) {
			*c = b;
			*got = true;
			return 1;
		}
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return 1;	/* a writer, nothing sent yet */
		if (n < 0 && errno != EINTR)
			return 0;
		usleep(20 * 1000);	/* n == 0: no writer (yet) */
	}
	return 0;
}

/* open_path: opens path without blocking; a FIFO only with a writer
 * (then read as a pipe); the stream, or NULL with the error set. */
static FILE *open_path(struct pd_reader *r, const char *path, int *c, bool *got)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY), flags;
	FILE *fp;
	if (fd < 0 || fstat(fd, &st)) {
		snprintf(r->in->err, r->in->errlen, "%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	if (S_ISDIR(st.st_mode)) {
		snprintf(r->in->err, r->in->errlen, "%s: %s", path, strerror(EISDIR));
		close(fd);
		return NULL;
	}
	if (S_ISFIFO(st.st_mode) && !fifo_writer(fd, c, got)) {
		snprintf(r->in->err, r->in->errlen, "%s: a FIFO with no writer (a pipe-mode "
			 "recording is read from a FIFO while perf writes it: perf record -o - ... > %s)",
			 path, path);
		close(fd);
		return NULL;
	}
	flags = fcntl(fd, F_GETFL);
	if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) || !(fp = fdopen(fd, "rb"))) {
		snprintf(r->in->err, r->in->errlen, "%s: %s", path, strerror(errno));
		close(fd);
		return NULL;
	}
	return fp;
}

/* open_stream: opens path ("-" = stdin) with a large buffer. */
static int open_stream(struct pd_reader *r, const char *path)
{
	struct stat st;
	bool got = false;
	int c = 0;
	r->fp = strcmp(path, "-") ? open_path(r, path, &c, &got) : stdin;
	if (!r->fp)
		return -1;
	setvbuf(r->fp, NULL, _IOFBF, 1 << 20);
	if (got)
		ungetc(c, r->fp);
	if (!fstat(fileno(r->fp), &st) && S_ISREG(st.st_mode))
		r->file_size = (uint64_t)st.st_size;
	return 0;
}

/* pd_open: see perf_data.h. */
struct pd_reader *pd_open(const char *path, char *err, size_t errlen)
{
	struct pd_reader *r = xcalloc(1, sizeof(*r));
	uint8_t h[16];
	r->in = xcalloc(1, sizeof(*r->in));
	oq_init(&r->in->q);
	r->path = path;
	r->in->err = err;
	r->in->errlen = errlen;
	pd_features_init(&r->features);
	if (open_stream(r, path))
		goto fail;
	if (fread(h, 1, sizeof(h), r->fp) != sizeof(h)) {
		pd_errorf(r, 0, "file too short for a perf.data header");
		goto fail;
	}
	if (detect_magic(r, h))
		goto fail;
	if (r->pipe_mode) {
		r->data_offset = PIPE_HEADER_SIZE;
		return r;
	}
	if (!r->file_size) {
		pd_errorf(r, 0, "a file-mode perf.data must be a regular file");
		goto fail;
	}
	if (open_file_mode(r, h))
		goto fail;
	return r;
fail:
	pd_close(r);
	return NULL;
}

/* pd_close: see perf_data.h. */
void pd_close(struct pd_reader *r)
{
	if (!r)
		return;
	if (r->fp && r->fp != stdin)
		fclose(r->fp);
	pd_evsels_free(r);
	pd_features_free(&r->features);
	if (r->tep)
		tep_free(r->tep);
	for (size_t i = 0; i < r->nr_warnings; i++)
		free(r->warnings[i]);
	free(r->warnings);
	if (r->in) {
		oq_free(&r->in->q);
		pd_zstd_free(r);
		free(r->in->rec);
		free(r->in->ibuf);
		hm_free(&r->in->read_last);
		hm_free(&r->in->id_cpu);
		free(r->in);
	}
	free(r);
}
