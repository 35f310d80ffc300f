/* hostile: writes perf.data files that declare far more than they hold,
 * for tests/integration/hostile.sh. Each file is little-endian file mode,
 * written with pwrite at offsets so that the zero-filled parts (a sparse
 * id section, sections of empty strings, a table of zeroed attrs) stay
 * holes: a file of gigabytes costs nothing on disk.
 *
 *   hostile ids PATH APPARENT_MIB    65536 attrs each declaring 2^24 ids at
 *                                    one offset; the file APPARENT_MIB long
 *   hostile ids-shared PATH          65536 attrs whose 1-id sections are all
 *                                    the same 8 bytes
 *   hostile ids-many PATH            attrs of 2^20 disjoint ids each, 4 of
 *                                    them (more than the reader keeps)
 *   hostile cmdline PATH MIB         a CMDLINE section of MIB MiB of empty
 *                                    arguments
 *   hostile event_desc PATH MIB      an EVENT_DESC section of MIB MiB of
 *                                    nameless events without ids
 *   hostile attrs PATH N SIZE        N zeroed attrs of SIZE bytes
 *   hostile mmaps PATH N             one process, N mmaps, N samples
 *   hostile mmaps-chain PATH N       the same, the mmaps in the order that
 *                                    makes a treap whose priorities come
 *                                    from xorshift64 with perfdb's old
 *                                    fixed seed a chain N deep
 *   hostile forks PATH N             one process, N mmaps, then N forks of
 *                                    it (new processes), a sample in each
 *   hostile mmap-of PATH FILE [HEX]  one mmap naming FILE (MMAP2 with build
 *                                    id HEX when given) and a sample in it
 *   hostile cpu-far PATH CPU NRCPUS  samples on CPU 1 and on CPU, a LOST
 *                                    record after them and an NRCPUS
 *                                    feature of NRCPUS CPUs available and
 *                                    online (0: no NRCPUS feature)
 *
 * Exit 0, or 1 with a message on stderr. */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define HDR_SIZE	104
#define ATTR_SIZE	64		/* PERF_ATTR_SIZE_VER0 */
#define ATTR_ENTRY	(ATTR_SIZE + 16)
#define S_IP		1
#define S_TID		2
#define S_TIME		4
#define S_CPU		0x80
#define SAMPLE_ID_ALL	(1ULL << 18)
#define FEAT_NRCPUS	7
#define FEAT_CMDLINE	11
#define FEAT_EVENT_DESC	12
#define PID		4242

/* A file being written: the fd and its path for messages. */
struct out {
	int fd;
	const char *path;
};

static void die(const char *what, const char *path)
{
	fprintf(stderr, "hostile: %s: %s\n", path, what);
	exit(1);
}

static void le64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void le32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void le16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

/* put: writes n bytes at off. */
static void put(struct out *o, uint64_t off, const void *b, size_t n)
{
	if (pwrite(o->fd, b, n, (off_t)off) != (ssize_t)n)
		die("write failed", o->path);
}

/* put64: one little-endian u64 at off. */
static void put64(struct out *o, uint64_t off, uint64_t v)
{
	uint8_t b[8];
	le64(b, v);
	put(o, off, b, 8);
}

static struct out create(const char *path)
{
	struct out o = { open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600), path };
	if (o.fd < 0)
		die("cannot create", path);
	return o;
}

/* finish: sets the apparent size and closes. */
static void finish(struct out *o, uint64_t size)
{
	if (ftruncate(o->fd, (off_t)size) || close(o->fd))
		die("cannot finish", o->path);
}

/* header: the file header; feat is the one feature bit set (0: none). */
static void header(struct out *o, uint64_t attrs_off, uint64_t attrs_size,
		   uint64_t data_off, uint64_t data_size, int feat)
{
	uint8_t h[HDR_SIZE] = "PERFILE2";
	le64(h + 8, HDR_SIZE);
	le64(h + 16, ATTR_ENTRY);
	le64(h + 24, attrs_off);
	le64(h + 32, attrs_size);
	le64(h + 40, data_off);
	le64(h + 48, data_size);
	if (feat)
		le64(h + 72 + 8 * (feat / 64), 1ULL << (feat % 64));
	put(o, 0, h, sizeof(h));
}

/* attr: a cpu-clock attr (sample_type IP|TID|TIME, sample_id_all) at off
 * with its ids section {ids_off, ids_size}. */
static void attr(struct out *o, uint64_t off, uint64_t ids_off, uint64_t ids_size)
{
	uint8_t a[ATTR_ENTRY] = { 0 };
	le32(a, 1);
	le32(a + 4, ATTR_SIZE);
	le64(a + 16, 1000);
	le64(a + 24, S_IP | S_TID | S_TIME);
	le64(a + 40, SAMPLE_ID_ALL);
	le64(a + ATTR_SIZE, ids_off);
	le64(a + ATTR_SIZE + 8, ids_size);
	put(o, off, a, sizeof(a));
}

/* A FINISHED_ROUND record: the data section of the files whose point is
 * elsewhere (a data size of 0 would read as an unfinished recording). */
static const uint8_t round_rec[8] = { 68, 0, 0, 0, 0, 0, 8, 0 };

/* attrs_end: where attrs_file's data of n attrs ends. */
static uint64_t attrs_end(uint32_t n)
{
	return HDR_SIZE + (uint64_t)n * ATTR_ENTRY + sizeof(round_rec);
}

/* attrs_file: n attrs at HDR_SIZE, attr i's ids section {off(i), size},
 * a FINISHED_ROUND after the attrs; returns where the data ends. */
static uint64_t attrs_file(struct out *o, uint32_t n, uint64_t ids_base,
			   uint64_t ids_step, uint64_t ids_size)
{
	uint64_t data = HDR_SIZE + (uint64_t)n * ATTR_ENTRY;
	for (uint32_t i = 0; i < n; i++)
		attr(o, HDR_SIZE + (uint64_t)i * ATTR_ENTRY, ids_base + i * ids_step, ids_size);
	put(o, data, round_rec, sizeof(round_rec));
	header(o, HDR_SIZE, (uint64_t)n * ATTR_ENTRY, data, sizeof(round_rec), 0);
	return attrs_end(n);
}

/* feature_file: one attr without ids, a FINISHED_ROUND, and feature feat
 * of size bytes whose first bytes are head[0..n) (the rest zeros). */
static void feature_file(struct out *o, int feat, uint64_t size, const uint8_t *head,
			 size_t n)
{
	uint64_t data = HDR_SIZE + ATTR_ENTRY, index = data + sizeof(round_rec);
	uint64_t sec = index + 16;
	attr(o, HDR_SIZE, 0, 0);
	put(o, data, round_rec, sizeof(round_rec));
	header(o, HDR_SIZE, ATTR_ENTRY, data, sizeof(round_rec), feat);
	put64(o, index, sec);
	put64(o, index + 8, size);
	put(o, sec, head, n);
	finish(o, sec + size);
}

/* rec_head: a record header {type, misc, size}. */
static void rec_head(uint8_t *b, uint32_t type, uint16_t misc, uint16_t size)
{
	le32(b, type);
	le16(b + 4, misc);
	le16(b + 6, size);
}

/* trailer: sample_id_all's TID and TIME at b. */
static void trailer(uint8_t *b, uint64_t time)
{
	le32(b, PID);
	le32(b + 4, PID);
	le64(b + 8, time);
}

/* comm: COMM "hostile" of PID at time; its size. */
static size_t comm(uint8_t *b, uint64_t time)
{
	rec_head(b, 3, 0, 8 + 8 + 8 + 16);
	le32(b + 8, PID);
	le32(b + 12, PID);
	memcpy(b + 16, "hostile", 8);
	trailer(b + 24, time);
	return 40;
}

/* mmap_rec: an MMAP (or MMAP2 with build id bid of 20 bytes) of file at
 * addr (len 0x1000); its size. */
static size_t mmap_rec(uint8_t *b, uint64_t addr, const char *file, const uint8_t *bid,
		       uint64_t time)
{
	size_t name = (strlen(file) + 1 + 7) / 8 * 8, body = bid ? 64 : 32;
	size_t size = 8 + body + name + 16;
	memset(b, 0, size);
	rec_head(b, bid ? 10 : 1, bid ? 2 | (1 << 14) : 2, (uint16_t)size);
	le32(b + 8, PID);
	le32(b + 12, PID);
	le64(b + 16, addr);
	le64(b + 24, 0x1000);
	if (bid) {
		b[40] = 20;
		memcpy(b + 44, bid, 20);
		le32(b + 64, 5);	/* prot: read, exec */
		le32(b + 68, 2);	/* MAP_PRIVATE */
	}
	memcpy(b + 8 + body, file, strlen(file));
	trailer(b + 8 + body + name, time);
	return size;
}

/* sample: a user-mode SAMPLE at ip. */
static size_t sample(uint8_t *b, uint64_t ip, uint64_t time)
{
	rec_head(b, 9, 2, 32);
	le64(b + 8, ip);
	trailer(b + 16, time);
	return 32;
}

/* records_file: one attr and the records in recs[0..len) as the data. */
static void records_file(struct out *o, const uint8_t *recs, size_t len)
{
	uint64_t data = HDR_SIZE + ATTR_ENTRY;
	attr(o, HDR_SIZE, 0, 0);
	put(o, data, recs, len);
	header(o, HDR_SIZE, ATTR_ENTRY, data, len, 0);
	finish(o, data + len);
}

static const uint64_t *chain_prio;

/* by_prio_desc: qsort order of indexes into chain_prio, highest first. */
static int by_prio_desc(const void *a, const void *b)
{
	uint64_t x = chain_prio[*(const long *)a], y = chain_prio[*(const long *)b];
	return x < y ? 1 : x > y ? -1 : 0;
}

/* chain_slots: for the i-th of n inserts, the address slot that puts it
 * below every earlier one in a treap whose i-th node gets the i-th value
 * of xorshift64 from 0x9E3779B97F4A7C15 (the higher the priority, the
 * lower the address): a chain, each insert walking all of it. */
static long *chain_slots(long n)
{
	uint64_t *prio = malloc((size_t)n * sizeof(*prio)), x = 0x9E3779B97F4A7C15ULL;
	long *ix = malloc((size_t)n * sizeof(*ix)), *slot = malloc((size_t)n * sizeof(*slot));
	if (!prio || !ix || !slot)
		return NULL;
	for (long i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		prio[i] = x;
		ix[i] = i;
	}
	chain_prio = prio;
	qsort(ix, (size_t)n, sizeof(*ix), by_prio_desc);
	for (long r = 0; r < n; r++)
		slot[ix[r]] = r;
	free(prio);
	free(ix);
	return slot;
}

/* mmaps: n mmaps of one process, in address order or (chain) in
 * chain_slots' order, and n samples spread over them. */
static void mmaps(struct out *o, long n, int chain)
{
	uint8_t *b = malloc((size_t)n * 120 + 64);
	long *slot = chain ? chain_slots(n) : NULL;
	size_t len = 0;
	uint64_t t = 1000;
	if (!b || (chain && !slot))
		die("out of memory", o->path);
	len += comm(b, t++);
	for (long i = 0; i < n; i++)
		len += mmap_rec(b + len, 0x10000000 + (uint64_t)(slot ? slot[i] : i) * 0x2000,
				"/nonexistent/h.so", NULL, t++);
	free(slot);
	for (long i = 0; i < n; i++)
		len += sample(b + len, 0x10000000 + (uint64_t)((i * 7919) % n) * 0x2000 + 0x10, t++);
	records_file(o, b, len);
	free(b);
}

/* fork_rec: a FORK of process PID into the new process child. */
static size_t fork_rec(uint8_t *b, uint32_t child, uint64_t time)
{
	rec_head(b, 7, 0, 48);
	le32(b + 8, child);
	le32(b + 12, PID);
	le32(b + 16, child);
	le32(b + 20, PID);
	le64(b + 24, time);
	trailer(b + 32, time);
	le32(b + 32, child);	/* the trailer is the child's */
	le32(b + 36, child);
	return 48;
}

/* child_sample: a user-mode SAMPLE of process pid at ip. */
static size_t child_sample(uint8_t *b, uint32_t pid, uint64_t ip, uint64_t time)
{
	size_t n = sample(b, ip, time);
	le32(b + 16, pid);
	le32(b + 20, pid);
	return n;
}

static void forks(struct out *o, long n)
{
	uint8_t *b = malloc((size_t)n * 200 + 64);
	size_t len = 0;
	uint64_t t = 1000;
	if (!b)
		die("out of memory", o->path);
	len += comm(b, t++);
	for (long i = 0; i < n; i++)
		len += mmap_rec(b + len, 0x10000000 + (uint64_t)i * 0x2000, "/nonexistent/h.so",
				NULL, t++);
	for (long i = 0; i < n; i++) {
		len += fork_rec(b + len, 100000 + (uint32_t)i, t++);
		len += child_sample(b + len, 100000 + (uint32_t)i,
				    0x10000000 + (uint64_t)i * 0x2000 + 0x10, t++);
	}
	records_file(o, b, len);
	free(b);
}

/* hex_bid: HEX (40 digits) into bid. */
static void hex_bid(const char *hex, uint8_t *bid, const char *path)
{
	if (strlen(hex) != 40)
		die("build id must be 40 hex digits", path);
	for (int i = 0; i < 20; i++) {
		unsigned v;
		if (sscanf(hex + 2 * i, "%2x", &v) != 1)
			die("bad build id", path);
		bid[i] = (uint8_t)v;
	}
}

static void mmap_of(struct out *o, const char *file, const char *hex)
{
	uint8_t b[4096 + 256], bid[20];
	size_t len = 0;
	if (strlen(file) > 4000)
		die("file name too long", o->path);
	if (hex)
		hex_bid(hex, bid, o->path);
	len += comm(b, 1000);
	len += mmap_rec(b + len, 0x400000, file, hex ? bid : NULL, 1001);
	len += sample(b + len, 0x400010, 1002);
	records_file(o, b, len);
}

/* cpu_sample: a SAMPLE of IP|TID|TIME|CPU on cpu, at time; its size. */
static size_t cpu_sample(uint8_t *b, uint32_t cpu, uint64_t time)
{
	rec_head(b, 9, 2, 40);
	le64(b + 8, 0x400010);
	trailer(b + 16, time);
	le32(b + 32, cpu);
	le32(b + 36, 0);
	return 40;
}

/* cpu_far: an attr of IP|TID|TIME|CPU samples; samples on CPU 1 and on
 * cpu, then a LOST record of 5 (its trailer on cpu); the NRCPUS feature
 * {nr, nr} when nr is not 0. */
static void cpu_far(struct out *o, uint32_t cpu, uint32_t nr)
{
	uint8_t b[256], a[ATTR_ENTRY] = { 0 }, cpus[8];
	uint64_t data = HDR_SIZE + ATTR_ENTRY, index, sec;
	size_t len = 0;
	le32(a, 1);
	le32(a + 4, ATTR_SIZE);
	le64(a + 16, 1000);
	le64(a + 24, S_IP | S_TID | S_TIME | S_CPU);
	le64(a + 40, SAMPLE_ID_ALL);
	put(o, HDR_SIZE, a, sizeof(a));
	len += cpu_sample(b + len, 1, 1000);
	len += cpu_sample(b + len, cpu, 1001);
	rec_head(b + len, 2, 0, 8 + 16 + 24);	/* LOST {id, lost} + trailer */
	le64(b + len + 8, 0);
	le64(b + len + 16, 5);
	trailer(b + len + 24, 1002);
	le32(b + len + 40, cpu);
	le32(b + len + 44, 0);
	len += 48;
	put(o, data, b, len);
	header(o, HDR_SIZE, ATTR_ENTRY, data, len, nr ? FEAT_NRCPUS : 0);
	index = data + len;
	sec = index + 16;
	if (nr) {
		le32(cpus, nr);
		le32(cpus + 4, nr);
		put64(o, index, sec);
		put64(o, index + 8, sizeof(cpus));
		put(o, sec, cpus, sizeof(cpus));
	}
	finish(o, nr ? sec + sizeof(cpus) : index);
}

static unsigned long num(const char *s)
{
	return strtoul(s, NULL, 0);
}

int main(int argc, char **argv)
{
	const char *c = argc > 2 ? argv[1] : "";
	struct out o;
	uint8_t head[8] = { 0 };
	if (argc < 3) {
		fprintf(stderr, "usage: hostile CASE PATH [ARGS]\n");
		return 1;
	}
	o = create(argv[2]);
	if (!strcmp(c, "ids") && argc == 4) {
		/* the ids at the file's end, each attr's 2^27 bytes */
		uint64_t size = (uint64_t)num(argv[3]) << 20, sec = 1ULL << 27;
		if (size < sec + (64ULL << 20))
			die("APPARENT_MIB too small", argv[2]);
		attrs_file(&o, 65536, size - sec, 0, sec);
		finish(&o, size);
	} else if (!strcmp(c, "ids-shared")) {
		uint64_t end = attrs_end(65536);
		attrs_file(&o, 65536, end, 0, 8);
		finish(&o, end + 8);
	} else if (!strcmp(c, "ids-many")) {
		uint64_t end = attrs_end(4), sec = 8ULL << 20;
		attrs_file(&o, 4, end, sec, sec);
		finish(&o, end + 4 * sec);
	} else if (!strcmp(c, "cmdline") && argc == 4) {
		uint64_t size = (uint64_t)num(argv[3]) << 20;
		le32(head, (uint32_t)(size / 4 - 1));
		feature_file(&o, FEAT_CMDLINE, size, head, 4);
	} else if (!strcmp(c, "event_desc") && argc == 4) {
		uint64_t size = (uint64_t)num(argv[3]) << 20;
		le32(head, (uint32_t)((size - 8) / 24));
		le32(head + 4, 16);
		feature_file(&o, FEAT_EVENT_DESC, size, head, 8);
	} else if (!strcmp(c, "attrs") && argc == 5) {
		uint64_t n = num(argv[3]), sz = num(argv[4]), data = HDR_SIZE + n * sz;
		uint8_t h[HDR_SIZE] = "PERFILE2";
		le64(h + 8, HDR_SIZE);
		le64(h + 16, sz);
		le64(h + 24, HDR_SIZE);
		le64(h + 32, n * sz);
		le64(h + 40, data);
		le64(h + 48, sizeof(round_rec));
		put(&o, 0, h, sizeof(h));
		put(&o, data, round_rec, sizeof(round_rec));
		finish(&o, data + sizeof(round_rec));
	} else if (!strcmp(c, "mmaps") && argc == 4) {
		mmaps(&o, (long)num(argv[3]), 0);
	} else if (!strcmp(c, "mmaps-chain") && argc == 4) {
		mmaps(&o, (long)num(argv[3]), 1);
	} else if (!strcmp(c, "forks") && argc == 4) {
		forks(&o, (long)num(argv[3]));
	} else if (!strcmp(c, "cpu-far") && argc == 5) {
		cpu_far(&o, (uint32_t)num(argv[3]), (uint32_t)num(argv[4]));
	} else if (!strcmp(c, "mmap-of") && (argc == 4 || argc == 5)) {
		mmap_of(&o, argv[3], argc == 5 ? argv[4] : NULL);
	} else {
		die("unknown case or wrong arguments", argv[2]);
	}
	return 0;
}
