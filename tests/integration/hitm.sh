#!/bin/sh
# `perfdb hitm` against the real `perf c2c report`: the fixtures that
# tests/unit/test_hitm writes (Intel mem-loads/mem-stores with mmap_lock
# tracepoints, AMD IBS-like, Arm SPE-like, workloads/falseshare's struct)
# and the real AMD IBS recording in ../shared/perfdata are imported and
# analyzed; per cacheline, perfdb's HITM (total/local/remote or peer),
# store (total, L1 hit, L1 miss, N/A), load-level and perf-style record
# and load counts must equal `perf c2c report --stdio`'s, for every
# display (-d) with and without --show-all; its true record counts must
# equal what the fixture wrote. Field names must match pahole's for
# struct mm_struct (BTF) and falseshare's struct fs_shared (DWARF).
# perf 6.1 cannot open the IBS file (attr.size 136), so perf reads a copy
# whose attrs are rewritten to size 128.
set -u
PERFDB=${PERFDB:-$(pwd)/build/perfdb}
BUILD=${PERFDB_BUILD:-build}
SHARED=${PERFDB_SHARED:-../shared}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
n=0
say() { n=$((n + 1)); echo "$1 $n - $2"; }
# tap: turns the checker's PASS/FAIL lines (stdin) into TAP lines.
tap() {
	while IFS= read -r line; do
		case "$line" in
		PASS*) say ok "${line#PASS }" ;;
		FAIL*) say "not ok" "${line#FAIL }" ;;
		*) echo "# $line" ;;
		esac
	done
}

# check ARGS...: runs the checker below and reports its lines.
check() { python3 "$tmp/check.py" "$@" > "$tmp/out" 2>&1; tap < "$tmp/out"; }

cat > "$tmp/check.py" <<'EOF'
import collections, json, re, subprocess, sys

def ok(cond, msg):
    print(("PASS " if cond else "FAIL ") + msg)
    return cond

COLS = ['hitm_total', 'hitm_local', 'hitm_remote', 'records_perf', 'loads_perf', 'stores',
        'stores_l1hit', 'stores_l1miss', 'stores_na', 'ld_fbhit', 'ld_l1hit', 'ld_l2hit',
        'ld_llchit', None, 'rmt_hit', None, 'lcl_dram', 'rmt_dram']

def perf_lines(path):
    """The Shared Data Cache Line Table of perf c2c report --stdio."""
    rows, peer, on = [], False, False
    for line in open(path, errors='replace'):
        if 'Shared Data Cache Line Table' in line:
            on = True
        elif 'Shared Cache Line Distribution Pareto' in line:
            break
        elif on and 'Load Peer' in line:
            peer = True
        elif on and re.match(r'^\s+\d+\s+0x[0-9a-f]+\s', line):
            f = line.split()
            r = {'address': f[1]}
            for k, v in zip(COLS, f[5:]):
                if k:
                    r[k] = int(v)
            if peer:
                for a, b in (('hitm_total', 'peer_total'), ('hitm_local', 'peer_local'),
                             ('hitm_remote', 'peer_remote')):
                    r[b] = r.pop(a)
            rows.append(r)
    return rows

def lines(perf, pdb, what, manifest=None):
    rows, d = perf_lines(perf), json.load(open(pdb))
    keys = [k for k in rows[0] if k != 'address'] if rows else []
    sig = lambda r: (r['address'],) + tuple(r[k] for k in keys)
    # perf counts tracepoint samples (address 0, no data source) in a line
    # of their own: an all-zero kernel line at 0x0 that perfdb has not
    P = collections.Counter(sig(r) for r in rows if not (r['address'] == '0x0' and
                            all(r[k] == 0 for k in keys) and not any(l['address'] == '0x0' and
                            l['cpumode'] == 'kernel' for l in d['cachelines'])))
    Q = collections.Counter(sig(l) for l in d['cachelines'])
    if manifest:
        ok(len(rows) > 0, '%s: perf shows cachelines (%d)' % (what, len(rows)))
    good = ok(P == Q, '%s: %d cachelines equal perf c2c report\'s %d columns' % (what, len(Q), len(keys)))
    if not good:
        print('only in perf: %s' % list((P - Q).elements())[:4])
        print('only in perfdb: %s' % list((Q - P).elements())[:4])
    if manifest:
        want = {}
        for m in open(manifest):
            a, pid, mode, recs = m.split()
            want[(a, int(pid), mode)] = int(recs)
        got = {(l['address'], -1 if l['pid'] is None else l['pid'], l['cpumode']): l['records']
               for l in d['cachelines']}
        bad = [(k, v, got.get(k)) for k, v in want.items() if got.get(k) != v]
        ok(not bad and len(got) >= len(want),
           '%s: records per line are the samples written (%d lines)' % (what, len(want)))
        if bad:
            print('records differ (line, want, got): %s' % bad[:4])

TOTALS = {'Load Operations': 'loads', 'Loads - no mapping': 'ld_noadrs', 'Load L1D hit': 'ld_l1hit',
          'Load L2D hit': 'ld_l2hit', 'Load Fill Buffer Hit': 'ld_fbhit',
          'Load Local HITM': 'hitm_local', 'Load Remote HITM': 'hitm_remote',
          'Load Remote HIT': 'rmt_hit', 'Load Local DRAM': 'lcl_dram', 'Load Remote DRAM': 'rmt_dram',
          'Load HIT Local Peer': 'peer_local', 'Load HIT Remote Peer': 'peer_remote',
          'Locked Load/Store Operations': 'locks', 'Store Operations': 'stores',
          'Store L1D Hit': 'stores_l1hit', 'Store L1D Miss': 'stores_l1miss',
          'Store No available memory level': 'stores_na', 'Store - no mapping': 'st_noadrs'}
ALL = dict(TOTALS, **{'Total records': 'samples', 'Unable to parse data source': 'unparsable'})

def totals(perf, pdb, what, every):
    t = json.load(open(pdb))['totals']
    want, got = {}, {}
    for line in open(perf, errors='replace'):
        m = re.match(r'^\s+(.*?)\s+:\s+(\d+)$', line)
        if m and m.group(1) in (ALL if every == 'all' else TOTALS):
            k = (ALL if every == 'all' else TOTALS)[m.group(1)]
            want[k], got[k] = int(m.group(2)), t[k]
    ok(len(want) >= len(TOTALS) and want == got,
       '%s: %d trace event counts equal perf\'s' % (what, len(want)))
    if want != got:
        print('perf %s' % want)
        print('perfdb %s' % got)

def pahole(typ, cmd):
    """pahole -C typ members: (dotted name, offset, size, type)."""
    try:
        out = subprocess.run(cmd + ['-C', typ], capture_output=True, text=True).stdout
    except OSError:
        return []
    m = re.match(r'^\s*typedef (?:struct|union) (\w+) \w+;', out)
    if m:
        return pahole(m.group(1), cmd)
    blocks = []
    for line in out.splitlines():
        s = re.sub(r'\s*__attribute__\(\((?:[^()]|\([^()]*\))*\)\)', '', line.strip())
        if not s or s.startswith('/*'):
            continue
        if s.endswith('{'):
            blocks.append([])
            continue
        m = re.match(r'^\}\s*(\w*)[^;]*;\s*/\*\s*(\d+)\s+(\d+)\s*\*/', s)
        if s.startswith('}') and blocks:
            inner = blocks.pop()
            if not blocks:
                return inner
            if not m:
                continue
            name = m.group(1)
            for mem in inner:
                blocks[-1].append(((name + '.' if name else '') + mem[0],) + mem[1:])
            if name:
                blocks[-1].append((name, int(m.group(2)), int(m.group(3)), ''))
            continue
        m = re.match(r'^(.*?)\s*\**\s*(\w+)((?:\[\d*\])*)(?::\d+)?;\s*/\*\s*(\d+)(?::\s*\d+)?\s+(\d+)\s*\*/', s)
        if m:
            blocks[-1].append((m.group(2), int(m.group(4)), int(m.group(5)), m.group(1).strip()))
    return []

def check_name(name, off, members, cmd, depth=0):
    """Whether perfdb's field name at offset off agrees with pahole's
    members: the most specific member holding off is name, or a prefix
    of it that pahole expands further (pahole -C of its type)."""
    if name.startswith('<') or '.<' in name:
        return True
    base = re.sub(r'\[\d+\]$', '', name.split(',')[0])
    cover = [m for m in members if m[1] <= off < m[1] + max(m[2], 1)]
    if not cover:
        return False
    best = max(cover, key=lambda m: (m[0].count('.'), -m[2]))
    if base == best[0]:
        return True
    if not base.startswith(best[0] + '.') or depth > 4:
        return False
    typ = re.sub(r'^(struct|union)\s+', '', best[3])
    inner = pahole(typ, cmd) if re.match(r'^\w+$', typ) else []
    rest = name[len(best[0]) + 1:]
    return bool(inner) and check_name(rest, off - best[1], inner, cmd, depth + 1)

def names(pdb, typ, what, *cmd):
    d = json.load(open(pdb))
    fields = [f for f in d['types'] if f['type'] == typ and f['offset'] is not None]
    members = pahole(typ, list(cmd))
    if not ok(len(members) >= 3, '%s: pahole knows struct %s' % (what, typ)):
        return
    bad = [(f['field'], f['offset']) for f in fields if not check_name(f['field'], f['offset'], members, list(cmd))]
    ok(len(fields) >= 3 and not bad, '%s: %d field names at their offsets agree with pahole -C %s'
       % (what, len(fields), typ))
    if bad:
        print('disagree: %s' % bad[:6])

def field_of(d, name):
    for l in d['cachelines']:
        for f in l['fields']:
            if f['field'] == name:
                return l, f
    return None, None

def falseshare(pdb, what):
    d = json.load(open(pdb))
    l, f = field_of(d, 'packed.bitmap_c')
    ok(l and l['verdict'] == 'false sharing' and f['writer_cpus'] == [2] and f['offset'] == 16,
       '%s: packed words, one per CPU: false sharing' % what)
    l, f = field_of(d, 'bitmap')
    ok(l and l['verdict'] == 'true sharing' and f['writer_cpus'] == [0, 1, 2, 3] and f['offset'] == 576,
       '%s: bitmap written by 4 CPUs: true sharing' % what)
    l, f = field_of(d, 'padded.bitmap_a')
    ok(l and l['verdict'] == 'no sharing seen' and f['offset'] == 64,
       '%s: padded.bitmap_a used by CPU 0 alone: no sharing' % what)
    ok(all(f['type'] == 'fs_shared' for l in d['cachelines'] for f in l['fields']),
       '%s: every sample is in fs_shared' % what)

def unknown(pdb, what):
    d = json.load(open(pdb))
    l = [l for l in d['cachelines'] if l['address'] == '0xffff888200000040']
    ok(l and l[0]['fields'] and all(f['type'] == 'unknown object' and f['field'] == 'unknown object'
       for f in l[0]['fields']) and l[0]['records'] == 4 and l[0]['verdict'] == 'false sharing',
       '%s: an address in no object is counted under "unknown object"' % what)

def ibs(pdb, what):
    t = json.load(open(pdb))['totals']
    want = {'samples': 1521, 'loads': 330, 'stores': 101, 'hitm_local': 1, 'hitm_remote': 2,
            'unparsable': 1090}
    ok(all(t[k] == v for k, v in want.items()),
       '%s: 1521 samples, 330 loads, 101 stores, 1 local and 2 remote HITMs, 1090 N/A' % what)

def same(a, b, what):
    x, y = json.load(open(a)), json.load(open(b))
    x.pop('notes'); y.pop('notes')
    ok(x == y and any(f['type'] == 'mm_struct' for l in x['cachelines'] for f in l['fields']),
       '%s: the same fields without the option' % what)

getattr(sys.modules[__name__], sys.argv[1])(*sys.argv[2:])
EOF

# compare FILE DB NAME MANIFEST: every display, with and without --show-all.
compare() {
	for d in "" tot lcl rmt peer; do
		for all in "" --show-all; do
			what="$3${d:+ -d $d}${all:+ $all}"
			perf c2c report --stdio --no-source ${d:+-d $d} $all -i "$1" > "$tmp/p.txt" 2>/dev/null
			"$PERFDB" hitm "$2" ${d:+-d $d} $all -f json > "$tmp/j.json" 2>"$tmp/err" ||
				{ say "not ok" "$what: perfdb hitm failed: $(head -1 "$tmp/err")"; continue; }
			check lines "$tmp/p.txt" "$tmp/j.json" "$what" ${all:+$4}
		done
	done
}

if ! command -v perf >/dev/null 2>&1 || ! command -v python3 >/dev/null 2>&1; then
	echo "# SKIP: perf and python3 are needed"; say "not ok" "perf and python3 present"; exit 1
fi
if "$BUILD/tests/test_hitm" --write-fixtures "$tmp"; then
	say ok "fixtures written"
else
	say "not ok" "fixtures written"; exit 1
fi
for f in intel amd arm falseshare; do
	if "$PERFDB" import -q -o "$tmp/$f.db" "$tmp/$f.data"; then
		say ok "$f fixture imports"
	else
		say "not ok" "$f fixture imports"; continue
	fi
	compare "$tmp/$f.data" "$tmp/$f.db" "$f" "$tmp/$f.data.lines"
	perf c2c report --stdio --no-source -i "$tmp/$f.data" > "$tmp/p.txt" 2>/dev/null
	"$PERFDB" hitm "$tmp/$f.db" -f json > "$tmp/j.json"
	every=all; [ $f = intel ] && every=mem	# perf counts the tracepoint samples too
	check totals "$tmp/p.txt" "$tmp/j.json" "$f" $every
done

# Intel: display default on x86, peer on arm64; unknown objects; mm_struct
# fields from the running kernel's BTF (the fixture says it was recorded
# on this kernel), then from --btf, against pahole.
"$PERFDB" hitm "$tmp/intel.db" --show-all -f json > "$tmp/j.json"
check unknown "$tmp/j.json" "intel"
"$PERFDB" hitm "$tmp/arm.db" -f json | grep -q '"display": "peer"' &&
	say ok "arm64 session: lines sorted on peer snoops by default" ||
	say "not ok" "arm64 session: lines sorted on peer snoops by default"
if [ -r /sys/kernel/btf/vmlinux ] && command -v pahole >/dev/null 2>&1; then
	"$PERFDB" import -q -o "$tmp/intel2.db" "$tmp/intel.data"
	"$PERFDB" hitm "$tmp/intel2.db" -t mm_struct -f json > "$tmp/mm.json" 2>"$tmp/err"
	grep -q "layout of struct mm_struct stored in session 1 from the running kernel's BTF" "$tmp/mm.json" &&
		say ok "mm_struct layout stored from the running kernel's BTF" ||
		say "not ok" "mm_struct layout stored from the running kernel's BTF"
	check names "$tmp/mm.json" mm_struct "intel, running BTF" pahole /sys/kernel/btf/vmlinux
	"$PERFDB" hitm "$tmp/intel.db" -t mm_struct --btf /sys/kernel/btf/vmlinux -f json > "$tmp/mm2.json"
	check names "$tmp/mm2.json" mm_struct "intel, --btf" pahole /sys/kernel/btf/vmlinux
	"$PERFDB" hitm "$tmp/amd.db" --object mm_struct@0xffff888100a40000 -t mm_struct --show-all \
		-f json > "$tmp/obj.json"
	check names "$tmp/obj.json" mm_struct "amd, --object mm_struct@ADDR" pahole /sys/kernel/btf/vmlinux
	"$PERFDB" hitm "$tmp/amd.db" -t mm_struct --show-all -f json > "$tmp/obj2.json"
	check same "$tmp/obj.json" "$tmp/obj2.json" "--object is stored in the session"
	n_rows=$(sqlite3 "$tmp/intel2.db" "SELECT count(*) FROM struct_layout WHERE struct_name = 'mm_struct'")
	[ "$n_rows" -gt 50 ] && say ok "the layout used is in the session ($n_rows rows)" ||
		say "not ok" "the layout used is in the session ($n_rows rows)"
else
	echo "# SKIP: no /sys/kernel/btf/vmlinux or pahole"
fi

# falseshare: the DWARF path; a second run without --dwarf repeats the
# analysis from what the first stored in the session.
fs=$(cd "$BUILD/workloads" && pwd)/falseshare
"$PERFDB" hitm "$tmp/falseshare.db" --dwarf "$fs" -t fs_shared --show-all -f json > "$tmp/fs.json" 2>"$tmp/err" &&
	say ok "hitm --dwarf falseshare" || say "not ok" "hitm --dwarf falseshare: $(head -1 "$tmp/err")"
check falseshare "$tmp/fs.json" "falseshare --dwarf"
command -v pahole >/dev/null 2>&1 &&
	check names "$tmp/fs.json" fs_shared "falseshare" pahole "$fs"
cp "$tmp/falseshare.db" "$tmp/copy.db"
"$PERFDB" hitm "$tmp/copy.db" -t fs_shared --show-all -f json > "$tmp/fs2.json"
check falseshare "$tmp/fs2.json" "falseshare, stored objects and layout"

# The real AMD IBS recording: perfdb reads the original, perf a copy.
ibs="$SHARED/perfdata/x86_64-perf6.8-c2c-amd_ibs_op-datasrc.data"
if [ -r "$ibs" ]; then
	python3 - "$ibs" "$tmp/ibs61.data" <<'EOF'
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
asize = struct.unpack_from('<Q', b, 16)[0]
aoff, alen = struct.unpack_from('<QQ', b, 24)
ents = []
for i in range(alen // asize):
    e = b[aoff + i * asize: aoff + (i + 1) * asize]
    a = bytearray(e[:128]); struct.pack_into('<I', a, 4, 128)
    ents.append(bytes(a) + bytes(e[asize - 16:]))
new = b''.join(ents)
b[aoff:aoff + len(new)] = new
struct.pack_into('<Q', b, 16, 144)
struct.pack_into('<QQ', b, 24, aoff, len(new))
open(sys.argv[2], 'wb').write(b)
EOF
	"$PERFDB" import -q -o "$tmp/ibs.db" "$ibs" && say ok "IBS file imports" || say "not ok" "IBS file imports"
	"$PERFDB" hitm "$tmp/ibs.db" -f json > "$tmp/j.json"
	check ibs "$tmp/j.json" "IBS"
	perf c2c report --stdio --no-source -i "$tmp/ibs61.data" > "$tmp/p.txt" 2>/dev/null
	check totals "$tmp/p.txt" "$tmp/j.json" "IBS" all
	compare "$tmp/ibs61.data" "$tmp/ibs.db" "IBS" ""
else
	echo "# SKIP: $ibs not found"
fi

# Exit statuses.
"$PERFDB" hitm "$tmp/intel.db" -d bogus >/dev/null 2>&1; [ $? -eq 1 ] &&
	say ok "bad -d: exit 1" || say "not ok" "bad -d: exit 1"
"$PERFDB" hitm "$tmp/intel.db" -s 99 >/dev/null 2>&1; [ $? -eq 2 ] &&
	say ok "unknown session: exit 2" || say "not ok" "unknown session: exit 2"
"$PERFDB" hitm "$tmp/intel.db" --dwarf "$fs" >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q "not mapped in session" "$tmp/err" &&
	say ok "--dwarf of a binary the session never mapped: exit 2" ||
	say "not ok" "--dwarf of a binary the session never mapped: exit 2 (got $rc)"
"$PERFDB" hitm "$tmp/intel.db" --object 'nonsense' >/dev/null 2>&1; [ $? -eq 1 ] &&
	say ok "bad --object: exit 1" || say "not ok" "bad --object: exit 1"
echo "1..$n"
