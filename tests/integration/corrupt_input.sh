#!/bin/sh
# Robustness of `perfdb import` against damaged perf.data files. Inputs: three
# recordings made here (file mode, file mode with -z zstd, pipe mode; system-
# wide sched_switch, tlb_flush, ipi_send_cpumask, csd_queue_cpu around sleep
# 0.2; a --call-graph dwarf profile of falseshare), every file in
# $PERFDB_SHARED/perfdata/, and two more recordings for one kind each (exec
# events: struct; a large one: rollback). For each input,
# damaged copies:
#   truncate  the file cut at every offset of its first 256 bytes, then ~40
#             chosen offsets (data section start, record boundaries and the
#             middle of record headers, the feature table, each feature
#             section, the tracing data, evenly spread ones);
#   flip      ~60 single-byte changes at seeded random positions (header and
#             attrs, record headers, anywhere in the data, feature sections or
#             tracing data), to 0x00, 0xff or the byte xor 0x80;
#   struct    targeted damage: attr_size 0/huge, attrs/ids/data sections
#             beyond the file, feature table entries, record sizes 0/7/65535,
#             record types, COMPRESSED payloads of garbage, a zstd stream
#             repacked with broken inner records, fields inside the tracing
#             data (sizes and counts made huge), HEADER_TRACING_DATA's size
#             (pipe), HEADER_ATTR's attr size (pipe), tracepoint payloads
#             (RAW size, common_type, __data_loc fields);
#   stdin     (pipe inputs) some of the above read from standard input ('-');
#   rollback  (a ~1M-sample recording made here) the last record, or one 90%
#             of the way through, given a bad size: the import fails after
#             writing more rows than SQLite's page cache holds, so the
#             rollback has to undo writes that reached the database file.
# Each import goes into a database that already holds one good session. A
# case passes when perfdb exits 0 or 2 (no signal, no other status, no hang,
# no "runtime error"/AddressSanitizer text); on 2: exactly one stderr line
# "perfdb import: FILE: offset N: what", and the database file byte-for-byte as
# before (its sqlite3 .dump too), with no journal left; on 0: a new session
# for the file exists. Damage that makes a file certainly invalid (a file
# cut short of a section its header names, sizes below a record header, ...)
# must give 2. One TAP line per input and kind; failing cases as "# " lines.
#
# Env: PERFDB (the perfdb binary; `make asan` runs the sanitizer build),
# PERFDB_SHARED, PERFDB_FUZZ_SCALE (fraction of the truncation and flip cases,
# default 0.6 (a tenth of the suite's time; 1 for every case), 0.25 when $PERFDB is under build-asan), PERFDB_FUZZ_KEEP=DIR
# (keep each failing input there, to reproduce with
# `perfdb import -q -o DB DIR/FILE`), PERFDB_FUZZ_JOBS (parallel imports),
# PERFDB_FUZZ_SEED (other flip positions; default 0, the fixed set),
# PERFDB_FUZZ_VERBOSE=1 (time and accepted count per line).
# Run from the repository root: sh tests/integration/corrupt_input.sh
. "$(dirname "$0")/lib/setup.sh"
SHARED=${PERFDB_SHARED:-$(pwd)/../shared}
trap 'exit 2' HUP INT TERM
export PERFDB

if [ ! -x "$PERFDB" ]; then
	echo "not ok 1 - perfdb binary $PERFDB is missing (run make first)"
	exit 1
fi
# run a private copy, so that a rebuild during the run cannot mix binaries
PERFDB_RUN=$T/bin/perfdb
mkdir "$T/bin" && cp "$PERFDB" "$PERFDB_RUN" || exit 2
export PERFDB_RUN

# The recordings. A failed recording is reported as a skipped input.
EV=sched:sched_switch,tlb:tlb_flush,ipi:ipi_send_cpumask,csd:csd_queue_cpu
YIELD=$(dirname "$PERFDB")/workloads/yield
set --
record() { # record NAME STDOUT PERF-RECORD-ARGS...: input NAME is $T/NAME.data
	name=$1 out=$2
	shift 2
	if command -v perf >/dev/null 2>&1 &&
		perf record -q "$@" >"$out" 2>"$T/perf.err" && [ -s "$T/$name.data" ]; then
		input="$name=$T/$name.data"
	else
		echo "# perf record for $name failed: $(grep -v '^ ' "$T/perf.err" 2>/dev/null | tail -1)"
		input="$name="
	fi
}
record local-file /dev/null -a -e "$EV" -o "$T/local-file.data" -- sleep 0.2
set -- "$@" "$input"
record local-zstd /dev/null -a -z -e "$EV" -o "$T/local-zstd.data" -- sleep 0.2
set -- "$@" "$input"
record local-pipe "$T/local-pipe.data" -a -e "$EV" -o - -- sleep 0.2
set -- "$@" "$input"
# exec events carry a __data_loc field (the file name)
record local-exec /dev/null -a -e sched:sched_process_exec,sched:sched_switch \
	-o "$T/local-exec.data" -- sh -c 'for i in 1 2 3; do /bin/true; done'
set -- "$@" "$input"
# large enough that the import's writes outgrow SQLite's page cache and
# reach the database file before the transaction ends
[ -x "$YIELD" ] || make -s BUILD="$(dirname "$(dirname "$YIELD")")" "$YIELD" >&2
record local-big /dev/null -a -m 2048 -e sched:sched_switch -o "$T/local-big.data" \
	-- "$YIELD" --seconds 1
set -- "$@" "$input"
# --call-graph dwarf: register dumps and stack copies, unwound with the
# local binaries' CFI, so damaged ones reach the unwinder
FALSESHARE=$(dirname "$PERFDB")/workloads/falseshare
[ -x "$FALSESHARE" ] || make -s BUILD="$(dirname "$(dirname "$FALSESHARE")")" "$FALSESHARE" >&2
record local-dwarf /dev/null -e cpu-clock -F 499 --call-graph dwarf,4096 -o "$T/local-dwarf.data" \
	-- "$FALSESHARE" --seconds 0.1
set -- "$@" "$input"
for f in "$SHARED"/perfdata/*.data; do
	[ -e "$f" ] || continue
	set -- "$@" "$(basename "$f" .data)=$f"
done
BASE_INPUT="$SHARED/perfdata/x86_64-perf5.18-zstd-dwarf-cycles-sched_switch.data"
# without the shared files (a clone elsewhere), a recording made here
[ -e "$BASE_INPUT" ] || BASE_INPUT=$T/local-file.data

python3 - "$T" "$BASE_INPUT" "$@" <<'PY'
import hashlib, os, random, re, shutil, signal, sqlite3, struct, subprocess
import sys, threading, time, zlib
from concurrent.futures import ThreadPoolExecutor

PERFDB = os.environ["PERFDB_RUN"]
TMP, BASE_INPUT, INPUTS = sys.argv[1], sys.argv[2], sys.argv[3:]
ASAN = "build-asan" in os.environ["PERFDB"]
SCALE = float(os.environ.get("PERFDB_FUZZ_SCALE") or (0.25 if ASAN else 0.6))
TIMEOUT = 180 if ASAN else 30
JOBS = int(os.environ.get("PERFDB_FUZZ_JOBS") or min(4, os.cpu_count() or 1))
KEEP = os.environ.get("PERFDB_FUZZ_KEEP")
SEED = int(os.environ.get("PERFDB_FUZZ_SEED") or 0)
HAVE_ZSTD = shutil.which("zstd") is not None
T0 = time.time()
tap_n = 0
nfailed = 0


def tap(ok, what, notes=()):
    global tap_n, nfailed
    tap_n += 1
    print("%s %d - %s" % ("ok" if ok else "not ok", tap_n, what))
    nfailed += not ok
    for line in notes:
        print("#   " + line)
    sys.stdout.flush()


def sha(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def dump_sha(db):
    p = subprocess.run(["sqlite3", db, ".dump"], stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL)
    return hashlib.sha256(p.stdout).hexdigest()


def sessions(db):
    c = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
    try:
        return c.execute("SELECT id, source, nr_samples FROM session ORDER BY id").fetchall()
    finally:
        c.close()


def partial_noted(db):
    """Whether the last session has the data_quality row of a half record
    left out at the end of the compressed data."""
    c = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
    try:
        return c.execute("SELECT count(*) FROM data_quality WHERE session_id = "
                         "(SELECT max(id) FROM session) AND what LIKE "
                         "'bytes of a partial record ending the compressed data%' "
                         "AND count > 0").fetchone()[0] == 1
    finally:
        c.close()


INTACT_SAMPLES = {}     # input name -> samples of its undamaged import


# ---- reading a perf.data file's layout --------------------------------------
class Layout:
    """Where things are in a perf.data file: records, sections, tracing data."""

    def __init__(self, data):
        self.data = data
        self.e = ">" if data[:8] == b"2ELIFREP" else "<"
        self.hsize = self.u64(8)
        self.pipe = self.hsize == 16
        self.records = []       # top-level (offset, type, size)
        self.boundaries = set() # offsets where a top-level record starts or the stream ends
        self.features = []      # (bit, table entry offset, section offset, size)
        self.attrs = []         # (attr offset, ids {offset,size} offset)
        self.td = None          # (offset, length) of the tracing data
        self.td_rec = None      # pipe: offset of the HEADER_TRACING_DATA record
        self.meta_end = 0       # end of the header material (attrs, features)
        if self.pipe:
            self._pipe()
        else:
            self._file()
        self.compressed = [r for r in self.records if r[1] in (81, 83)]
        self.evsels = self._evsels()    # [(type, config, sample_type, ids)]

    def u64(self, o):
        return struct.unpack_from(self.e + "Q", self.data, o)[0]

    def u32(self, o):
        return struct.unpack_from(self.e + "I", self.data, o)[0]

    def _walk(self, pos, end):
        d = self.data
        while pos + 8 <= end:
            t, _, s = struct.unpack_from(self.e + "IHH", d, pos)
            if s < 8 or pos + s > end:
                break
            self.records.append((pos, t, s))
            self.boundaries.add(pos)
            if self.pipe and t == 66 and s >= 12:
                n = self.u32(pos + 8)
                self.td, self.td_rec = (pos + s, n), pos
                pos += s + n + (8 - n % 8) % 8
            else:
                pos += s
        self.boundaries.add(pos)
        return pos

    def _pipe(self):
        self._walk(16, len(self.data))
        kernel = [r[0] for r in self.records if r[1] < 64]
        self.meta_end = kernel[0] if kernel else len(self.data)
        self.data_range = (16, len(self.data))
        self.required_end = 16

    def _file(self):
        d = self.data
        self.attr_size = self.u64(16)
        ao, asz, do, dsz = self.u64(24), self.u64(32), self.u64(40), self.u64(48)
        self.data_range = (do, do + dsz)
        ends = [do + dsz]
        if self.attr_size:
            for i in range(asz // self.attr_size):
                a = ao + i * self.attr_size
                io = a + self.attr_size - 16
                self.attrs.append((a, io))
                if self.u64(io + 8):
                    ends.append(self.u64(io) + self.u64(io + 8))
        ends.append(ao + asz)
        self._walk(do, do + dsz)
        at = do + dsz
        if self.hsize >= 104:
            bits = [self.u64(72 + 8 * i) for i in range(4)]
            for bit in range(1, 256):
                if bits[bit // 64] >> (bit % 64) & 1:
                    off, size = self.u64(at), self.u64(at + 8)
                    self.features.append((bit, at, off, size))
                    if bit == 1:
                        self.td = (off, size)
                    ends += [at + 16, off + size]
                    at += 16
        self.meta_end = do
        # a file cut anywhere before this lacks a part that perfdb reads
        self.required_end = max(ends)

    def _evsels(self):
        ev = []
        if self.pipe:
            for o, t, sz in self.records:
                if t == 64 and sz >= 8 + 64:
                    asz = self.u32(o + 12) or 64
                    ids = [self.u64(o + 8 + asz + 8 * k) for k in range((sz - 8 - asz) // 8)]
                    ev.append((self.u32(o + 8), self.u64(o + 16), self.u64(o + 32), ids))
        else:
            for a, io in self.attrs:
                n = self.u64(io + 8) // 8
                ids = [self.u64(self.u64(io) + 8 * k) for k in range(n)]
                ev.append((self.u32(a), self.u64(a + 8), self.u64(a + 24), ids))
        return ev

    def sample_raw(self, pos, size):
        """(evsel, offset of the RAW size field) of the SAMPLE at pos, or None."""
        if len(self.evsels) == 0:
            return None
        st = self.evsels[0][2]     # perf gives all evsels the same id position
        p, ident = pos + 8, None
        if st & (1 << 16):
            ident = self.u64(p)
            p += 8
        for bit in (1, 2, 4, 8, 64, 512, 128, 256):
            if st & bit:
                if bit == 64:
                    ident = self.u64(p)
                p += 8
        ev = [e for e in self.evsels if ident in e[3]] if ident is not None else self.evsels[:1]
        if len(ev) != 1 or not ev[0][2] & 1024 or ev[0][2] & (16 | 32):
            return None         # READ or CALLCHAIN before RAW: not handled here
        return (ev[0], p) if p + 4 <= pos + size else None

    def tp_formats(self):
        """{tracepoint id: [(field declaration, offset, size)]} from the
        tracing data's event formats."""
        if not self.td:
            return {}
        text = self.data[self.td[0]:self.td[0] + self.td[1]].decode("latin-1")
        out = {}
        for m in re.finditer(r"\nID: (\d+)\n(.*?)\nprint fmt", text, re.S):
            out[int(m.group(1))] = [(f.group(1).strip(), int(f.group(2)), int(f.group(3)))
                                    for f in re.finditer(r"field:([^;]*);\s*offset:(\d+);\s*size:(\d+);",
                                                         m.group(2))]
        return out

    def td_fields(self):
        """Offsets and widths of the size and count fields in the tracing data."""
        if not self.td:
            return {}
        d, (p, n) = self.data, self.td
        end, f = p + n, {}
        try:
            if d[p:p + 10] != b"\x17\x08\x44tracing":
                return {}
            f["magic"] = (p, 10)
            p = d.index(b"\0", p + 10) + 1
            e = ">" if d[p] else "<"
            p += 2
            f["page_size"] = (p, 4)
            p += 4

            def u(o, w):
                return struct.unpack_from(e + ("I" if w == 4 else "Q"), d, o)[0]
            for tag in (b"header_page\0", b"header_event\0"):
                p += len(tag)
                f[tag[:-1].decode() + "_size"] = (p, 8)
                p += 8 + u(p, 8)
            f["ftrace_count"] = (p, 4)
            cnt, p = u(p, 4), p + 4
            for i in range(cnt):
                if i == 0:
                    f["ftrace_format_size"] = (p, 8)
                p += 8 + u(p, 8)
            f["system_count"] = (p, 4)
            nsys, p = u(p, 4), p + 4
            for s in range(nsys):
                p = d.index(b"\0", p) + 1
                if s == 0:
                    f["event_count"] = (p, 4)
                cnt, p = u(p, 4), p + 4
                for i in range(cnt):
                    if s == 0 and i == 0:
                        f["event_format_size"] = (p, 8)
                        f["event_format_text"] = (p + 8, u(p, 8))
                    p += 8 + u(p, 8)
            f["kallsyms_size"] = (p, 4)
            p += 4 + u(p, 4)
            f["printk_size"] = (p, 4)
            p += 4 + u(p, 4)
            if p + 8 <= end:
                f["cmdlines_size"] = (p, 8)
        except (IndexError, ValueError, struct.error):
            pass
        return f


# ---- cases -------------------------------------------------------------------
class Case:
    def __init__(self, label, build, expect="any", stdin=False):
        self.label, self.build, self.expect, self.stdin = label, build, expect, stdin
        self.accepted = False
        self.db_growth = 0


def truncated(data, n):
    return lambda: data[:n]


def patched(data, *edits):
    """A copy of data with (offset, bytes) edits applied (same length)."""
    def build():
        b = bytearray(data)
        for off, val in edits:
            b[off:off + len(val)] = val
        return bytes(b)
    return build


def spread(items, n):
    """n of the items, evenly spaced in their order."""
    if len(items) <= n:
        return items
    return [items[i * len(items) // n] for i in range(n)]


def truncation_cases(L):
    d, n = L.data, len(L.data)
    step = max(1, round(1 / SCALE))
    offs = list(range(0, min(256, n), step))
    want = max(8, round(40 * SCALE))
    lo, hi = L.data_range
    prio = [lo - 1, lo, lo + 4, lo + 8, L.meta_end, hi - 1, hi, hi + 8, n - 1]
    if not L.pipe:
        prio += [hi + 16]
        for bit, at, off, size in L.features[:8]:
            prio += [off, off + size // 2, off + size - 1]
    if L.td:
        off, size = L.td
        prio += [off, off + 10, off + size // 3, off + size - 1]
        if L.td_rec is not None:
            prio += [L.td_rec + 8, L.td_rec + 12]
    for pos, t, s in spread(L.records, max(4, want // 4)):
        prio += [pos, pos + 3, pos + 8]
    for c in L.compressed[len(L.compressed) // 2:][:1]:
        prio += [c[0] + 20]
    prio = [o for o in dict.fromkeys(prio) if 256 <= o < n]
    extra = prio[:want]
    k = 0
    while len(extra) < want and k < want:
        o = 256 + (n - 256) * (2 * k + 1) // (2 * want)
        k += 1
        if 256 <= o < n and o not in extra:
            extra.append(o)
    cases = []
    for o in sorted(set(offs + extra)):
        if L.pipe:
            bad = o < 16 or o not in L.boundaries
        else:
            bad = o < L.required_end
        cases.append(Case("truncate %d" % o, truncated(d, o), "fail" if bad else "any"))
    return cases


def flip_value(orig, i):
    for v in ((0x00, 0xff, orig ^ 0x80)[(i + j) % 3] for j in range(3)):
        if v != orig:
            return v
    return orig ^ 0x80


def flip_cases(L, name):
    d, n = L.data, len(L.data)
    rnd = random.Random(zlib.crc32(name.encode()) ^ SEED)
    count = max(6, round(60 * SCALE))
    lo, hi = L.data_range
    regions = [(0, max(L.meta_end, 16))]
    if L.pipe and L.td:
        regions.append((L.td[0], L.td[0] + L.td[1]))
    elif L.features:
        regions.append((L.features[0][1], n))
    regions.append((lo, hi))
    cases, seen = [], set()
    for i in range(count):
        # in turn: header material, a record header, features or tracing
        # data, anywhere in the data
        where = i % 4
        if where == 1 and L.records:
            pos = rnd.choice(L.records)[0] + rnd.randrange(8)
        else:
            a, b = regions[min({0: 0, 1: 0, 2: 1, 3: 2}[where], len(regions) - 1)]
            pos = rnd.randrange(a, max(a + 1, min(b, n)))
        if pos >= n or pos in seen:
            continue
        seen.add(pos)
        v = flip_value(d[pos], i)
        cases.append(Case("flip @%d 0x%02x->0x%02x" % (pos, d[pos], v),
                          patched(d, (pos, bytes([v])))))
    return cases


def zstd_inner(L):
    """The decompressed inner records of a -z file (None when unavailable).
    perf flushes its zstd frame at each COMPRESSED record but never ends
    it, and `zstd -d` (1.5) on such a frame stops at the end of its input
    ("premature end") without writing out what its decoder still holds:
    when the last 128 KiB output buffer had filled, the rest of the stream
    was lost (a 172440-byte stream came back as 131072 bytes, its last 326
    samples missing). So the frame is ended first, with an empty last block
    (3 bytes: last, raw, size 0), and the whole stream must decode, into
    whole records."""
    if not HAVE_ZSTD or not L.compressed or any(t != 81 for _, t, _ in L.compressed):
        return None
    payload = b"".join(L.data[o + 8:o + s] for o, _, s in L.compressed)
    why = None
    if payload[:4] != b"\x28\xb5\x2f\xfd" or len(payload) < 5 or payload[4] & 4:
        why = "the COMPRESSED payloads are not one zstd frame without a checksum"
    else:
        for end in (b"", b"\x01\x00\x00"):     # an ended frame needs nothing
            p = subprocess.run(["zstd", "-q", "-dc"], input=payload + end,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            if p.returncode == 0:
                break
        else:
            why = "zstd -d failed on the COMPRESSED payloads: %s" % (
                p.stderr.decode("utf-8", "replace").strip()[:120])
    if why:
        print("# zstd repacked cases left out: %s" % why)
        return None
    inner, recs, pos = p.stdout, [], 0
    while pos + 8 <= len(inner):
        t, _, s = struct.unpack_from(L.e + "IHH", inner, pos)
        if s < 8 or pos + s > len(inner):
            break
        recs.append((pos, t, s))
        pos += s
    if pos != len(inner):
        print("# zstd repacked cases left out: the decompressed stream holds no record"
              " at %d of its %d bytes" % (pos, len(inner)))
        return None
    return (inner, recs) if len(recs) > 10 else None


def repacked(L, inner_bytes, cut_frame=0):
    """L's file with its COMPRESSED records replaced by one fresh zstd frame
    of inner_bytes, split into 7000-byte COMPRESSED records (so inner records
    straddle them); the other top-level records follow, the header and the
    feature table are moved to match."""
    def build():
        d, e = L.data, L.e
        comp = subprocess.run(["zstd", "-q", "-c", "-1"], input=inner_bytes,
                              stdout=subprocess.PIPE).stdout
        if cut_frame:
            comp = comp[:-cut_frame]
        recs = b"".join(struct.pack(e + "IHH", 81, 0, 8 + len(comp[i:i + 7000])) + comp[i:i + 7000]
                        for i in range(0, len(comp), 7000))
        lo, hi = L.data_range
        first = L.compressed[0][0]
        rest = b"".join(d[o:o + s] for o, t, s in L.records if o > first and t != 81)
        new = d[lo:first] + recs + rest
        delta = len(new) - (hi - lo)
        out = bytearray(d[:lo] + new + d[hi:])
        struct.pack_into(e + "Q", out, 48, len(new))
        for bit, at, off, size in L.features:
            struct.pack_into(e + "Q", out, at + delta, off + delta if off >= hi else off)
        for a, io in L.attrs:
            if L.u64(io) >= hi:
                struct.pack_into(e + "Q", out, io, L.u64(io) + delta)
        return bytes(out)
    return build


def struct_cases(L):
    d, e, n = L.data, L.e, len(L.data)
    q = lambda v: struct.pack(e + "Q", v)
    u = lambda v: struct.pack(e + "I", v)
    h = lambda v: struct.pack(e + "H", v)
    HUGE = 0x7fffffffffffffff
    c = []
    C = lambda label, edits, expect="fail": c.append(Case(label, patched(d, *edits), expect))
    if not L.pipe:
        lo, hi = L.data_range
        C("attr_size 0", [(16, q(0))])
        C("attr_size huge", [(16, q(HUGE))])
        C("attr_size 2^32+attr_size", [(16, q((1 << 32) + L.attr_size))])
        C("attrs.size huge", [(32, q(HUGE))])
        C("attrs.offset beyond the file", [(24, q(n + 4096))])
        C("data.size beyond the file", [(48, q(n))])
        C("data.size 2^64-1", [(48, q((1 << 64) - 1))])
        C("data.offset 2^64-8", [(40, q((1 << 64) - 8))])
        C("data.size one byte short", [(48, q(hi - lo - 1))], "any")
        C("feature bitmap all ones", [(72, b"\xff" * 32)], "any")
        C("header size 0", [(8, q(0))])
        C("header size huge", [(8, q(HUGE))])
        if L.attrs:
            a, io = L.attrs[0]
            C("attr[0].size 0", [(a + 4, u(0))], "any")
            C("attr[0].size 0xffffffff", [(a + 4, u(0xffffffff))], "any")
            C("attr[0].sample_type all ones", [(a + 24, q((1 << 64) - 1))], "any")
            C("attr[0] ids offset huge", [(io, q(HUGE)), (io + 8, q(8))])
            C("attr[0] ids size 7", [(io + 8, q(7))])
            C("attr[0] ids size huge", [(io + 8, q(1 << 40))])
        if L.features:
            bit, at, off, size = L.features[0]
            C("feature %d size huge" % bit, [(at + 8, q(HUGE))])
            C("feature %d offset beyond the file" % bit, [(at, q(n + 1))])
            bit, at, off, size = L.features[-1]
            C("feature %d (last) size +1 past the file" % bit, [(at + 8, q(n - off + 1))])
    else:
        C("pipe header size 17", [(8, q(17))])
        C("pipe header size huge", [(8, q(HUGE))])
        attrs = [r for r in L.records if r[1] == 64]
        if attrs:
            o = attrs[0][0]
            C("HEADER_ATTR attr.size 0xffff", [(o + 12, u(0xffff))])
            C("HEADER_ATTR attr.size 0", [(o + 12, u(0))], "any")
            C("HEADER_ATTR record size 7", [(o + 6, h(7))])
            C("HEADER_ATTR record size 16", [(o + 6, h(16))], "any")
        if L.td_rec is not None:
            o = L.td_rec
            C("HEADER_TRACING_DATA size 0xffffffff", [(o + 8, u(0xffffffff))])
            C("HEADER_TRACING_DATA size 0x0fffffff", [(o + 8, u(0x0fffffff))])
            C("HEADER_TRACING_DATA size past the end", [(o + 8, u(n))])
            C("HEADER_TRACING_DATA size +4096", [(o + 8, u(L.td[1] + 4096))], "any")
            C("HEADER_TRACING_DATA size -8", [(o + 8, u(L.td[1] - 8))], "any")
            C("HEADER_TRACING_DATA size 0", [(o + 8, u(0))], "any")
            C("HEADER_TRACING_DATA record size 8", [(o + 6, h(8))], "any")
    # record headers: the first, a middle one, the last
    recs = [r for r in L.records if not (L.pipe and r[1] in (64, 66))]
    if recs:
        end = L.data_range[1]
        picks = [("first", recs[0]), ("middle", recs[len(recs) // 2]), ("last", recs[-1])]
        for where, (o, t, s) in picks:
            # pipe mode stops quietly at a record that looks like trailing
            # junk (size < 8) once some record was read: only the first fails
            small = "fail" if not L.pipe or o == L.records[0][0] else "any"
            C("%s record (type %d @%d) size 0" % (where, t, o), [(o + 6, h(0))], small)
            C("%s record (type %d @%d) size 7" % (where, t, o), [(o + 6, h(7))], small)
            C("%s record (type %d @%d) size 65535" % (where, t, o), [(o + 6, h(65535))],
              "fail" if o + 65535 > end else "any")
            C("%s record (type %d @%d) type 0xffffffff" % (where, t, o), [(o, u(0xffffffff))], "any")
            C("%s record (type %d @%d) type 63" % (where, t, o), [(o, u(63))], "any")
        samples = [r for r in recs if r[1] == 9]
        if samples:
            o, t, s = samples[len(samples) // 2]
            C("sample @%d body all 0xff" % o, [(o + 8, b"\xff" * (s - 8))], "any")
            C("sample @%d body all 0x00" % o, [(o + 8, b"\0" * (s - 8))], "any")
    # tracepoint payloads: the RAW size, common_type, __data_loc fields of
    # one sample of each tracepoint event
    formats, done = L.tp_formats(), set()
    for o, t, s in L.records:
        if t != 9 or len(done) >= 3:
            continue
        sr = L.sample_raw(o, s)
        if not sr or sr[0][0] != 2 or sr[0][1] in done:
            continue
        (etype, config, st, ids), at = sr
        done.add(config)
        raw, rsz = at + 4, L.u32(at)
        tag = "tracepoint %d sample @%d" % (config, o)
        C("%s: RAW size 0" % tag, [(at, u(0))], "any")
        C("%s: RAW size 0xffffffff" % tag, [(at, u(0xffffffff))])
        C("%s: RAW size past the record" % tag, [(at, u(o + s - raw + 8))])
        if rsz >= 2:
            C("%s: common_type 0xffff" % tag, [(raw, h(0xffff))], "any")
            other = [e[1] for e in L.evsels if e[0] == 2 and e[1] != config]
            if other:
                C("%s: common_type of tracepoint %d" % (tag, other[0]),
                  [(raw, h(other[0] & 0xffff))], "any")
        for decl, off, size in formats.get(config, []):
            if not decl.startswith("__data_loc") or size != 4 or off + 4 > rsz:
                continue
            field = decl.split()[-1]
            loc = L.u32(raw + off)
            for v, what in ((0xffffffff, "0xffffffff"), ((0x100 << 16) | (rsz - 2), "len past the payload"),
                            ((loc & 0xffff0000) | 0xfff0, "offset past the payload"),
                            (loc & 0xffff, "len 0"), ((8 << 16) | 0, "over the common fields")):
                C("%s: __data_loc %s = %s" % (tag, field, what), [(raw + off, u(v))], "any")
    # COMPRESSED records
    if L.compressed:
        rnd = random.Random(81)
        for where, (o, t, s) in (("first", L.compressed[0]),
                                 ("middle", L.compressed[len(L.compressed) // 2])):
            junk = bytes(rnd.randrange(256) for _ in range(s - 8))
            C("%s COMPRESSED @%d payload garbage" % (where, o), [(o + 8, junk)],
              "fail" if where == "first" else "any")
            C("%s COMPRESSED @%d payload zeroed" % (where, o), [(o + 8, b"\0" * (s - 8))],
              "fail" if where == "first" else "any")
        z = zstd_inner(L) if not L.pipe else None
        if z:
            inner, irecs = z
            def inner_edit(*edits):
                b = bytearray(inner)
                for off, val in edits:
                    b[off:off + len(val)] = val
                return bytes(b)
            c.append(Case("zstd repacked, intact (same sample count)", repacked(L, inner), "same"))
            mo = irecs[len(irecs) // 2][0]
            for sz in (0, 7):
                c.append(Case("zstd repacked, inner record @%d size %d" % (mo, sz),
                              repacked(L, inner_edit((mo + 6, h(sz)))), "fail"))
            c.append(Case("zstd repacked, inner record @%d size 65535" % mo,
                          repacked(L, inner_edit((mo + 6, h(65535)))), "any"))
            c.append(Case("zstd repacked, inner record @%d type COMPRESSED" % mo,
                          repacked(L, inner_edit((mo, u(81)))), "fail"))
            # perf record itself writes such files, and perf drops the half
            # record: read, with a warning and a data_quality row
            c.append(Case("zstd repacked, inner stream ends inside a record",
                          repacked(L, inner[:-5]), "partial"))
            # a frame cut at a block boundary that is also a record boundary
            # looks like a shorter stream: nothing to detect then
            c.append(Case("zstd repacked, zstd frame cut short by 64 bytes",
                          repacked(L, inner, cut_frame=64), "any"))
    # tracing data internals
    for fname, (off, width) in L.td_fields().items():
        if fname == "magic":
            C("tracing data: bad magic", [(off, b"\x17\x08\x44TRACING")])
        elif fname == "event_format_text":
            C("tracing data: first event format text all 0xff", [(off, b"\xff" * width)], "any")
            C("tracing data: first event format text zeroed", [(off, b"\0" * width)], "any")
        elif fname == "page_size":
            C("tracing data: page size 0", [(off, b"\0" * 4)])
        else:
            C("tracing data: %s huge" % fname, [(off, b"\xff" * width)])
            if fname.endswith("count"):
                v = struct.unpack_from("<I", d, off)[0]
                C("tracing data: %s + 1" % fname, [(off, struct.pack("<I", v + 1))], "any")
    return c


def rollback_cases(L):
    """A large file damaged near its end: the import fails after writing
    (almost) all of its rows."""
    d, h = L.data, lambda v: struct.pack(L.e + "H", v)
    last, late = L.records[-1][0], L.records[len(L.records) * 9 // 10][0]
    return [Case("intact copy", lambda: d, "ok"),
            Case("last record (@%d) size 0" % last, patched(d, (last + 6, h(0))), "fail"),
            Case("record @%d (90%% through) size 7" % late, patched(d, (late + 6, h(7))), "fail")]


def stdin_cases(L, name):
    """Pipe inputs read from standard input: a sample of the other cases."""
    pick = spread(truncation_cases(L), max(4, round(12 * SCALE)))
    pick += spread(flip_cases(L, name), max(3, round(8 * SCALE)))
    pick += [x for x in struct_cases(L) if "TRACING_DATA size" in x.label][:3]
    for x in pick:
        x.stdin = True
    return pick


# ---- running one case --------------------------------------------------------
tls = threading.local()
wid = iter(range(1000))
wlock = threading.Lock()
BASE_DB = os.path.join(TMP, "base.db")
BASE_SHA = BASE_DUMP = None
WORKERS = []
LINE = re.compile(r"^perfdb import: (.*): offset (\d+): (.+)$")


def worker():
    w = getattr(tls, "w", None)
    if w is None:
        with wlock:
            i = next(wid)
        w = tls.w = {"dir": os.path.join(TMP, "w%d" % i), "fresh": False}
        WORKERS.append(w)
        os.makedirs(os.path.join(w["dir"], "db"))
        w["db"] = os.path.join(w["dir"], "db", "perfdb.db")
        w["in"] = os.path.join(w["dir"], "in")
        os.makedirs(w["in"])
    if not w["fresh"]:
        shutil.copyfile(BASE_DB, w["db"])
        os.chmod(w["db"], 0o600)  # as perfdb makes it (else: a warning, a 2nd line)
        w["fresh"] = True
    return w


def sanitizer_summary(err):
    lines = err.splitlines()
    head = next((l for l in lines if "ERROR: AddressSanitizer" in l or "runtime error" in l
                 or "ERROR: LeakSanitizer" in l), lines[0] if lines else "")
    frames = [m.group(1) for m in (re.search(r"#\d+ 0x[0-9a-f]+ in (\S+ \S+)", l) for l in lines)
              if m and "/compiler-rt/" not in m.group(1) and "libsanitizer" not in m.group(1)]
    return "%s%s" % (head.strip()[:160], (" | " + " <- ".join(frames[:4])) if frames else "")


def run_case(name, kind, case):
    w = worker()
    data = case.build()
    path = os.path.join(w["in"], "%s.data" % name)
    with open(path, "wb") as f:
        f.write(data)
    arg = "-" if case.stdin else path
    cmd = [PERFDB, "import", "-q", "-o", w["db"], arg]
    stdin = open(path, "rb") if case.stdin else subprocess.DEVNULL
    problem = None
    try:
        p = subprocess.run(cmd, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=TIMEOUT)
        rc, err = p.returncode, p.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        rc, err = None, ""
        problem = "hang: still running after %d s (killed)" % TIMEOUT
    finally:
        if case.stdin:
            stdin.close()
    if problem:
        pass
    elif rc < 0:
        problem = "killed by signal %s" % signal.Signals(-rc).name
        if err.strip():
            problem += ": " + sanitizer_summary(err)
    elif re.search(r"AddressSanitizer|LeakSanitizer|runtime error", err):
        problem = "exit %d, sanitizer report: %s" % (rc, sanitizer_summary(err))
    elif rc not in (0, 2):
        problem = "exit %d: %s" % (rc, err.strip().splitlines()[-1][:160] if err.strip() else "")
    elif rc == 2:
        lines = err.splitlines()
        m = LINE.match(lines[0]) if len(lines) == 1 and err.endswith("\n") else None
        if not lines:
            problem = "exit 2 with nothing on stderr"
        elif len(lines) > 1:
            problem = "exit 2 with %d lines on stderr, not 1: first %r, last %r" % (
                len(lines), lines[0][:120], lines[-1][:160])
        elif not m or m.group(1) != arg:
            problem = "exit 2 but stderr is not 'perfdb import: %s: offset N: what': %r" % (
                "FILE" if not case.stdin else "-", err[:200])
        elif case.expect in ("ok", "same", "partial"):
            problem = "intact input refused: " + lines[0] if case.expect != "partial" else \
                "a file perf reads (a half record ending the compressed data) refused: " + lines[0]
        else:
            w["offsets"] = w.get("offsets", 0) + (int(m.group(2)) > len(data))
        files = sorted(os.listdir(os.path.dirname(w["db"])))
        if files != ["perfdb.db"]:
            problem = (problem + "; " if problem else "") + "left beside the database: %s" % files
        elif sha(w["db"]) != BASE_SHA:
            same = dump_sha(w["db"]) == BASE_DUMP
            problem = (problem + "; " if problem else "") + (
                "failed import changed the database file (its .dump is %s)" %
                ("unchanged" if same else "CHANGED"))
    else:
        try:
            s = sessions(w["db"])
        except sqlite3.Error as ex:
            s = [("?", str(ex))]
        if len(s) != 2 or s[-1][1] != arg:
            problem = "exit 0 but the new session is missing (sessions: %s)" % (s,)
        elif case.expect == "fail":
            problem = "exit 0: corrupt input accepted as a good session"
        elif case.expect == "partial" and not partial_noted(w["db"]):
            problem = "exit 0 without the data_quality row of the half record left out"
        elif case.expect == "ok" and kind == "intact":
            INTACT_SAMPLES[name] = s[-1][2]
        elif case.expect == "same" and s[-1][2] != INTACT_SAMPLES.get(name):
            problem = "%s samples imported, the undamaged file gave %s" % (
                s[-1][2], INTACT_SAMPLES.get(name))
    case.accepted = rc == 0
    if rc == 0:
        case.db_growth = os.path.getsize(w["db"]) - os.path.getsize(BASE_DB)
    if rc != 2 or problem:
        w["fresh"] = False      # the next case starts from a clean copy
    if problem and KEEP:
        os.makedirs(KEEP, exist_ok=True)
        keep = "%s-%s-%s.data" % (name, kind, re.sub(r"[^A-Za-z0-9_.-]+", "_", case.label))
        shutil.copyfile(path, os.path.join(KEEP, keep))
    return problem


# ---- main --------------------------------------------------------------------
# the database every import goes into: one good session
p = subprocess.run([PERFDB, "import", "-q", "-o", BASE_DB, BASE_INPUT],
                   stdout=subprocess.PIPE, stderr=subprocess.PIPE)
ok = p.returncode == 0 and os.path.exists(BASE_DB) and len(sessions(BASE_DB)) == 1
tap(ok, "base database holds one good session (%s)" % os.path.basename(BASE_INPUT),
    [] if ok else ["exit %d: %s" % (p.returncode, p.stderr.decode()[:300])])
if not ok:
    sys.exit(1)
BASE_SHA, BASE_DUMP = sha(BASE_DB), dump_sha(BASE_DB)

pool = ThreadPoolExecutor(max_workers=JOBS)
ncases = 0
for spec in INPUTS:
    name, _, path = spec.partition("=")
    if not path:
        tap(True, "# SKIP %s: no recording (perf record failed or perf is missing)" % name)
        continue
    with open(path, "rb") as f:
        data = f.read()
    L = Layout(data)
    mode = "pipe" if L.pipe else "file"
    kinds = [("intact", [Case("intact copy", lambda: data, "ok")]),
             ("truncate", truncation_cases(L)),
             ("flip", flip_cases(L, name)),
             ("struct", struct_cases(L))]
    if L.pipe:
        kinds.append(("stdin", stdin_cases(L, name)))
    if name == "local-exec":
        kinds = [kinds[0], kinds[3]]
    if name == "local-big":
        kinds = [("rollback", rollback_cases(L))]
    for kind, cases in kinds:
        t = time.time()
        results = list(pool.map(lambda c: run_case(name, kind, c), cases))
        ncases += len(cases)
        bad = [(c, r) for c, r in zip(cases, results) if r]
        notes = ["%s: %s" % (c.label, r) for c, r in bad[:5]]
        if len(bad) > 5:
            notes.append("... and %d more failing cases" % (len(bad) - 5))
        nfail = sum(1 for c in cases if c.expect == "fail")
        checks = ": exit 0 or 2, one-line error with offset, database unchanged"
        if kind == "intact":
            what, checks = "the undamaged file imports (exit 0, one new session)", ""
        elif kind == "truncate":
            what = "%d truncated copies (%d must be refused)" % (len(cases), nfail)
        elif kind == "flip":
            what = "%d copies with one byte changed" % len(cases)
        elif kind == "struct":
            what = "%d copies with targeted damage (%d must be refused)" % (len(cases), nfail)
        elif kind == "stdin":
            what = "%d damaged copies read from stdin" % len(cases)
        else:
            grew = cases[0].db_growth / 1048576.0
            what = ("%d samples; the intact file imports, copies damaged near the end"
                    " fail after the import wrote %.0f MiB (over its 32 MiB page cache)" % (
                        sum(1 for r in L.records if r[1] == 9), grew))
            checks = ": database unchanged"
            if grew < 34:
                notes.append("the intact import added only %.1f MiB: the rollback may "
                             "not have touched the file" % grew)
        tap(not bad, "%s (%s mode): %s%s" % (name, mode, what, checks), notes)
        if os.environ.get("PERFDB_FUZZ_VERBOSE"):
            print("#   %.1f s, %d accepted (exit 0)" % (time.time() - t, sum(
                1 for c in cases if c.accepted)))
pool.shutdown()

# a database that saw only failed imports since its copy still dumps as the base
changed = [w["dir"] for w in WORKERS if w["fresh"] and dump_sha(w["db"]) != BASE_DUMP]
tap(not changed, "databases that saw only failed imports dump as before (sqlite3 .dump)",
    ["%s differs" % x for x in changed])
beyond = sum(w.get("offsets", 0) for w in WORKERS)
if beyond:
    print("# note: %d error messages name an offset beyond the end of the file" % beyond)
print("# %d cases, %d parallel imports, scale %g, %.0f s" % (ncases, JOBS, SCALE, time.time() - T0))
sys.exit(1 if nfailed else 0)
PY
