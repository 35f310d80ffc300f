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
# struct mm_struct (BTF) and falseshare's struct fs_shared (DWARF), from
# the layouts and objects `perfdb layout` stored (--btf, --dwarf,
# --object, the running kernel's BTF). hitm only reads: a database's bytes
# are the same after it, and it works on a read-only file. The JSON is the
# findings envelope (tables cachelines, fields, summary, types, offsets);
# csv prints one table. A session that sampled no store (or no load), was
# recorded on some CPUs alone, or recorded memory events and kept no
# sample, says so. perf 6.1 cannot open the IBS file (attr.size 136), so
# perf reads a copy whose attrs are rewritten to size 128.
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

def findings(path):
    """The findings of a perfdb JSON document."""
    return json.load(open(path))['findings']

def summary(d):
    """perf's trace event counters of the table summary, by counter."""
    return {r['counter']: r['count'] for r in d['summary']}

def lines(perf, pdb, what, manifest=None):
    rows, d = perf_lines(perf), findings(pdb)
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
    t = summary(findings(pdb))
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
    d = findings(pdb)
    fields = [f for f in d['types'] if f['type'] == typ and f['offset'] is not None]
    members = pahole(typ, list(cmd))
    if not ok(len(members) >= 3, '%s: pahole knows struct %s' % (what, typ)):
        return
    bad = [(f['field'], f['offset']) for f in fields if not check_name(f['field'], f['offset'], members, list(cmd))]
    ok(len(fields) >= 3 and not bad, '%s: %d field names at their offsets agree with pahole -C %s'
       % (what, len(fields), typ))
    if bad:
        print('disagree: %s' % bad[:6])

def line_fields(d, l):
    """The rows of table fields of cacheline l."""
    return [f for f in d['fields'] if f['idx'] == l['idx']]

def field_of(d, name):
    for f in d['fields']:
        if f['field'] == name:
            return [l for l in d['cachelines'] if l['idx'] == f['idx']][0], f
    return None, None

def falseshare(pdb, what):
    d = findings(pdb)
    l, f = field_of(d, 'packed.bitmap_c')
    ok(l and l['verdict'] == 'false sharing' and f['writer_cpus'] == '2' and f['writers'] == 1
       and f['offset'] == 16, '%s: packed words, one per CPU: false sharing' % what)
    l, f = field_of(d, 'bitmap')
    ok(l and l['verdict'] == 'true sharing' and f['writer_cpus'] == '0-3' and f['writers'] == 4
       and f['offset'] == 576, '%s: bitmap written by 4 CPUs: true sharing' % what)
    l, f = field_of(d, 'padded.bitmap_a')
    ok(l and l['verdict'] == 'no sharing seen' and f['offset'] == 64,
       '%s: padded.bitmap_a used by CPU 0 alone: no sharing' % what)
    ok(d['fields'] and all(f['type'] == 'fs_shared' for f in d['fields']),
       '%s: every sample is in fs_shared' % what)

def unknown(pdb, what):
    d = findings(pdb)
    l = [l for l in d['cachelines'] if l['address'] == '0xffff888200000040']
    fs = line_fields(d, l[0]) if l else []
    ok(l and fs and all(f['type'] == 'unknown object' and f['field'] == 'unknown object'
       for f in fs) and l[0]['records'] == 4 and l[0]['verdict'] == 'false sharing',
       '%s: an address in no object is counted under "unknown object"' % what)

def ibs(pdb, what):
    t = summary(findings(pdb))
    want = {'samples': 1521, 'loads': 330, 'stores': 101, 'hitm_local': 1, 'hitm_remote': 2,
            'unparsable': 1090}
    ok(all(t[k] == v for k, v in want.items()),
       '%s: 1521 samples, 330 loads, 101 stores, 1 local and 2 remote HITMs, 1090 N/A' % what)

def same(a, b, what):
    x, y = json.load(open(a)), json.load(open(b))
    ok(x == y and any(f['type'] == 'mm_struct' for f in x['findings']['fields']),
       '%s: the same mm_struct fields again' % what)

def without(a, typ, what):
    """No field of type typ in a, and a note naming the perfdb layout
    command that stores its layout."""
    x = json.load(open(a))
    ok(not any(f['type'] == typ for f in x['findings']['fields']) and
       any('no layout of struct %s' % typ in n and 'perfdb layout ' in n for n in x['notes']),
       '%s: no %s fields, a note names the perfdb layout command' % (what, typ))

def csv_one(csvf, jsonf, table, what):
    """csv holds one table: a header of table's columns and one record per
    row (one line each: no field of these tables holds a newline)."""
    rows = json.load(open(jsonf))['findings'][table]
    lines = open(csvf).read().splitlines()
    ok(rows and lines and lines[0] == ','.join(rows[0].keys()) and len(lines) == len(rows) + 1,
       '%s: csv is the table %s alone (%d rows)' % (what, table, len(rows)))

COMMON_LINES = ['idx', 'session', 'address', 'evidence', 'verdict', 'verdict_detail', 'fields',
                'cpus', 'cpu_list', 'objects']
COMMON_FIELDS = ['idx', 'session', 'evidence', 'line_offset', 'object', 'object_address', 'type',
                 'field', 'offset', 'size', 'writers', 'writer_cpus', 'code_sites']

def common(a, evidence, what):
    """Tables cachelines and fields of a: the common columns, filled."""
    d = findings(a)
    good = True
    for t, cols, filled in (('cachelines', COMMON_LINES, ['idx', 'session', 'address', 'verdict']),
                            ('fields', COMMON_FIELDS, ['idx', 'session', 'type', 'field'])):
        rows = d.get(t, [])
        good &= bool(rows) and all(c in r for r in rows for c in cols)
        good &= all(r['evidence'] == evidence and all(r[c] is not None for c in filled) for r in rows)
    ok(good, '%s: tables cachelines and fields with the common columns, evidence %s' % (what, evidence))

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
# on this kernel) that perfdb layout stores, then from --btf, against
# pahole. Before perfdb layout, hitm names no mm_struct field and its note
# says how to store the layout.
"$PERFDB" hitm "$tmp/intel.db" --show-all -f json > "$tmp/j.json"
check unknown "$tmp/j.json" "intel"
"$PERFDB" hitm "$tmp/arm.db" -f json | grep -q '"display": "peer"' &&
	say ok "arm64 session: lines sorted on peer snoops by default" ||
	say "not ok" "arm64 session: lines sorted on peer snoops by default"
if [ -r /sys/kernel/btf/vmlinux ] && command -v pahole >/dev/null 2>&1; then
	"$PERFDB" import -q -o "$tmp/intel2.db" "$tmp/intel.data"
	n_imp=$(sqlite3 "$tmp/intel2.db" "SELECT count(*) FROM struct_layout WHERE struct_name = 'mm_struct'")
	[ "$n_imp" -gt 50 ] && say ok "perfdb import stores the mm_struct layout a session of this kernel needs ($n_imp rows)" ||
		say "not ok" "perfdb import stores the mm_struct layout a session of this kernel needs ($n_imp rows)"
	# as a database imported before import stored layouts would be
	sqlite3 "$tmp/intel2.db" "DELETE FROM struct_layout"
	"$PERFDB" hitm "$tmp/intel2.db" -t mm_struct -f json > "$tmp/mm0.json" 2>"$tmp/err"
	check without "$tmp/mm0.json" mm_struct "intel before perfdb layout"
	"$PERFDB" layout "$tmp/intel2.db" > "$tmp/layout.out" 2>"$tmp/err"
	grep -q "^session 1: layouts stored: mm_struct (the running kernel's BTF)$" "$tmp/layout.out" &&
		say ok "perfdb layout: mm_struct layout stored from the running kernel's BTF" ||
		say "not ok" "perfdb layout: mm_struct layout stored from the running kernel's BTF: $(cat "$tmp/layout.out" "$tmp/err")"
	"$PERFDB" hitm "$tmp/intel2.db" -t mm_struct -f json > "$tmp/mm.json" 2>"$tmp/err"
	check names "$tmp/mm.json" mm_struct "intel, running BTF" pahole /sys/kernel/btf/vmlinux
	"$PERFDB" hitm "$tmp/intel2.db" -t mm_struct -f json > "$tmp/mm1.json"
	check same "$tmp/mm.json" "$tmp/mm1.json" "a second hitm run after perfdb layout"
	"$PERFDB" layout "$tmp/intel.db" --btf /sys/kernel/btf/vmlinux > "$tmp/layout.out" &&
		grep -q "layouts stored: mm_struct (BTF of /sys/kernel/btf/vmlinux)" "$tmp/layout.out" &&
		say ok "perfdb layout --btf: stored from that file" ||
		say "not ok" "perfdb layout --btf: stored from that file"
	"$PERFDB" hitm "$tmp/intel.db" -t mm_struct -f json > "$tmp/mm2.json"
	check names "$tmp/mm2.json" mm_struct "intel, --btf" pahole /sys/kernel/btf/vmlinux
	"$PERFDB" hitm "$tmp/amd.db" -t mm_struct --show-all -f json > "$tmp/obj0.json"
	check without "$tmp/obj0.json" mm_struct "amd before perfdb layout --object"
	"$PERFDB" layout "$tmp/amd.db" --object mm_struct@0xffff888100a40000 > "$tmp/layout.out" &&
		grep -q "^session 1: 1 object stored; layouts stored: mm_struct" "$tmp/layout.out" &&
		say ok "perfdb layout --object: the object and its layout stored" ||
		say "not ok" "perfdb layout --object: the object and its layout stored"
	"$PERFDB" hitm "$tmp/amd.db" -t mm_struct --show-all -f json > "$tmp/obj.json"
	check names "$tmp/obj.json" mm_struct "amd, --object mm_struct@ADDR" pahole /sys/kernel/btf/vmlinux
	"$PERFDB" hitm "$tmp/amd.db" -t mm_struct --show-all -f json > "$tmp/obj2.json"
	check same "$tmp/obj.json" "$tmp/obj2.json" "--object is stored in the session"
	n_rows=$(sqlite3 "$tmp/intel2.db" "SELECT count(*) FROM struct_layout WHERE struct_name = 'mm_struct'")
	[ "$n_rows" -gt 50 ] && say ok "the layout used is in the session ($n_rows rows)" ||
		say "not ok" "the layout used is in the session ($n_rows rows)"
	cp "$tmp/intel2.db" "$tmp/other.db"
	sqlite3 "$tmp/other.db" "UPDATE session SET os_release = '5.15.0-elsewhere'"
	"$PERFDB" layout "$tmp/other.db" -t task_struct > "$tmp/layout.out" 2>"$tmp/err"; rc=$?
	[ $rc -eq 0 ] && [ "$(wc -l < "$tmp/err")" -eq 1 ] &&
		grep -q "^perfdb layout: warning: session 1 was recorded on kernel 5.15.0-elsewhere, not on the running one" "$tmp/err" &&
		grep -q "task_struct (the running kernel's BTF)" "$tmp/layout.out" &&
		say ok "a layout from the running kernel's BTF for another kernel's session: one warning line" ||
		say "not ok" "a layout from the running kernel's BTF for another kernel's session: one warning line (rc $rc)"
else
	say ok "# SKIP no /sys/kernel/btf/vmlinux or pahole: the BTF layout checks"
fi

# falseshare: the DWARF path through perfdb layout --dwarf; hitm then
# repeats the analysis from what perfdb layout stored in the session, with
# no option and on a copy.
fs=$(cd "$BUILD/workloads" && pwd)/falseshare
"$PERFDB" hitm "$tmp/falseshare.db" -t fs_shared -f json > "$tmp/fs0.json" 2>"$tmp/err"
check without "$tmp/fs0.json" fs_shared "falseshare before perfdb layout"
"$PERFDB" layout "$tmp/falseshare.db" --dwarf "$fs" > "$tmp/layout.out" 2>"$tmp/err" &&
	grep -q "objects stored; layouts stored: fs_shared (DWARF of $fs)" "$tmp/layout.out" &&
	say ok "perfdb layout --dwarf falseshare" || say "not ok" "perfdb layout --dwarf falseshare: $(head -1 "$tmp/err")"
"$PERFDB" hitm "$tmp/falseshare.db" -t fs_shared --show-all -f json > "$tmp/fs.json" 2>"$tmp/err" &&
	say ok "hitm after perfdb layout --dwarf falseshare" ||
	say "not ok" "hitm after perfdb layout --dwarf falseshare: $(head -1 "$tmp/err")"
check falseshare "$tmp/fs.json" "falseshare --dwarf"
command -v pahole >/dev/null 2>&1 &&
	check names "$tmp/fs.json" fs_shared "falseshare" pahole "$fs"
cp "$tmp/falseshare.db" "$tmp/copy.db"
"$PERFDB" hitm "$tmp/copy.db" -t fs_shared --show-all -f json > "$tmp/fs2.json"
check falseshare "$tmp/fs2.json" "falseshare, stored objects and layout"
check common "$tmp/fs2.json" c2c "falseshare"

# hitm never writes: the database's bytes are the same after every kind of
# run, no journal is left, and a read-only file gives the same answer.
cp "$tmp/falseshare.db" "$tmp/ro.db"
before=$(sha256sum < "$tmp/ro.db")
for args in "" "-f json" "-f csv" "-f md" "--show-all -t fs_shared" "-d rmt -n 1" "--table fields -f csv"; do
	# shellcheck disable=SC2086 # the arguments are words
	"$PERFDB" hitm "$tmp/ro.db" $args > /dev/null 2>&1 || echo "failed: $args" >> "$tmp/rofail"
done
[ "$(sha256sum < "$tmp/ro.db")" = "$before" ] && [ ! -e "$tmp/rofail" ] &&
	[ -z "$(ls "$tmp" | grep '^ro\.db-')" ] &&
	say ok "hitm leaves the database's bytes as they were (sha256), no journal" ||
	say "not ok" "hitm leaves the database's bytes as they were (sha256), no journal: $(cat "$tmp/rofail" 2>/dev/null)"
chmod 0444 "$tmp/ro.db"
"$PERFDB" hitm "$tmp/ro.db" --show-all -t fs_shared -f json > "$tmp/ro.json" 2>"$tmp/err" &&
	cmp -s "$tmp/ro.json" "$tmp/fs2.json" &&
	say ok "hitm on a read-only (0444) file: the same document" ||
	say "not ok" "hitm on a read-only (0444) file: the same document: $(head -1 "$tmp/err")"
chmod 0644 "$tmp/ro.db"

# csv: exactly one table, the main one unless --table names another.
"$PERFDB" hitm "$tmp/intel.db" --show-all -f json > "$tmp/all.json"
"$PERFDB" hitm "$tmp/intel.db" --show-all -f csv > "$tmp/all.csv"
check csv_one "$tmp/all.csv" "$tmp/all.json" cachelines "hitm -f csv"
"$PERFDB" hitm "$tmp/intel.db" --show-all -f csv --table fields > "$tmp/fields.csv"
check csv_one "$tmp/fields.csv" "$tmp/all.json" fields "hitm -f csv --table fields"
check common "$tmp/all.json" c2c "intel"
"$PERFDB" hitm "$tmp/intel.db" --tables > "$tmp/tables"
[ "$(cut -f1 "$tmp/tables" | tr '\n' ' ')" = "summary cachelines fields types offsets " ] &&
	say ok "hitm --tables: summary cachelines fields types offsets" ||
	say "not ok" "hitm --tables: summary cachelines fields types offsets (got $(cut -f1 "$tmp/tables" | tr '\n' ' '))"
"$PERFDB" hitm "$tmp/intel.db" --show-all -n 2 -f json > "$tmp/n2.json"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))["findings"]; sys.exit(0 if len(d["cachelines"]) == 2 and {f["idx"] for f in d["fields"]} == {0, 1} else 1)' "$tmp/n2.json" &&
	say ok "hitm -n 2: two cachelines and their fields" || say "not ok" "hitm -n 2: two cachelines and their fields"

# The real AMD IBS recording: perfdb reads the original, perf a copy.
ibs="$SHARED/perfdata/x86_64-perf6.8-c2c-amd_ibs_op-datasrc.data"
if [ -r "$ibs" ]; then
	python3 - "$ibs" "$tmp/ibs61.data" <<'PY'
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
PY
	"$PERFDB" import -q -o "$tmp/ibs.db" "$ibs" && say ok "IBS file imports" || say "not ok" "IBS file imports"
	"$PERFDB" hitm "$tmp/ibs.db" -f json > "$tmp/j.json"
	check ibs "$tmp/j.json" "IBS"
	perf c2c report --stdio --no-source -i "$tmp/ibs61.data" > "$tmp/p.txt" 2>/dev/null
	check totals "$tmp/p.txt" "$tmp/j.json" "IBS" all
	compare "$tmp/ibs61.data" "$tmp/ibs.db" "IBS" ""
else
	say ok "# SKIP $ibs not found (real perf.data files: PERFDB_SHARED)"
fi

# Exit statuses, each with one line on stderr.
one_line() { [ "$(wc -l < "$tmp/err")" -eq 1 ]; }
"$PERFDB" hitm "$tmp/intel.db" -d bogus >/dev/null 2>"$tmp/err"; [ $? -eq 1 ] && one_line &&
	say ok "bad -d: exit 1" || say "not ok" "bad -d: exit 1"
"$PERFDB" hitm "$tmp/intel.db" -s 99 >/dev/null 2>"$tmp/err"; [ $? -eq 2 ] && one_line &&
	say ok "unknown session: exit 2" || say "not ok" "unknown session: exit 2"
"$PERFDB" hitm "$tmp/intel.db" --dwarf "$fs" >/dev/null 2>"$tmp/err"; [ $? -eq 1 ] && one_line &&
	say ok "hitm --dwarf (moved to perfdb layout): a usage error, exit 1" ||
	say "not ok" "hitm --dwarf (moved to perfdb layout): a usage error, exit 1"
cp "$tmp/intel.db" "$tmp/w.db"
before=$(sha256sum < "$tmp/w.db")
"$PERFDB" layout "$tmp/w.db" --dwarf "$fs" >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && one_line && grep -q "not mapped in session" "$tmp/err" &&
	say ok "perfdb layout --dwarf of a binary the session never mapped: exit 2" ||
	say "not ok" "perfdb layout --dwarf of a binary the session never mapped: exit 2 (got $rc)"
"$PERFDB" layout "$tmp/w.db" --object 'nonsense' >/dev/null 2>"$tmp/err"; [ $? -eq 1 ] && one_line &&
	say ok "perfdb layout: bad --object: exit 1" || say "not ok" "perfdb layout: bad --object: exit 1"
"$PERFDB" layout "$tmp/w.db" --btf "$tmp/no-such-btf" >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && one_line && grep -q "^perfdb layout: .*no-such-btf" "$tmp/err" &&
	say ok "perfdb layout: a missing --btf file: exit 2, one line" ||
	say "not ok" "perfdb layout: a missing --btf file: exit 2, one line (got $rc: $(cat "$tmp/err"))"
"$PERFDB" layout "$tmp/w.db" -t task_struct --dwarf "$tmp/no-such-binary" >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && one_line && grep -q "no-such-binary" "$tmp/err" &&
	say ok "perfdb layout: a missing --dwarf file: exit 2, one line" ||
	say "not ok" "perfdb layout: a missing --dwarf file: exit 2, one line (got $rc)"
[ "$(sha256sum < "$tmp/w.db")" = "$before" ] &&
	say ok "a failed perfdb layout stores nothing" || say "not ok" "a failed perfdb layout stores nothing"
# Loads without stores (perf mem record -t load) see no line's writers,
# stores without loads no HITM: each is said (a warning, findings.unseen),
# and a session with both says nothing of the kind.
for op in store load; do
	ev=2; [ $op = load ] && ev=1
	cp "$tmp/intel.db" "$tmp/no$op.db"
	sqlite3 "$tmp/no$op.db" "DELETE FROM mem_sample WHERE sample_id IN (SELECT id FROM sample WHERE event_id = $ev);
		DELETE FROM sample WHERE event_id = $ev; UPDATE event SET nr_samples = 0 WHERE id = $ev"
	"$PERFDB" hitm "$tmp/no$op.db" -f json > "$tmp/no$op.json" 2>"$tmp/err"
	python3 - "$tmp/no$op.json" "$op" <<'PY' && say ok "no $op sampled: a warning and findings.unseen no_${op}_samples naming the memory events" || say "not ok" "no $op sampled: a warning and findings.unseen no_${op}_samples naming the memory events"
import json, sys
d = json.load(open(sys.argv[1]))
u = d["findings"].get("unseen", [])
assert [x["what"] for x in u] == ["no_%s_samples" % sys.argv[2]] and u[0]["session"] == 1, u
assert u[0]["warning"] in d["warnings"] and "session 1 sampled no %s (its memory events: cpu/mem-loads,ldlat=30/P" % sys.argv[2] in u[0]["warning"], u
PY
done
"$PERFDB" hitm "$tmp/intel.db" -f json | python3 -c 'import json, sys; sys.exit("unseen" in json.load(sys.stdin)["findings"])' &&
	say ok "loads and stores sampled: no findings.unseen" || say "not ok" "loads and stores sampled: no findings.unseen"
# Recorded on some CPUs alone (perf c2c record -C): the others are unseen.
cp "$tmp/intel.db" "$tmp/c03.db"
sqlite3 "$tmp/c03.db" "UPDATE session SET perf_cmdline = 'perf c2c record -C 0-3 -- ./workload'"
"$PERFDB" hitm "$tmp/c03.db" -f json | python3 -c '
import json, sys
d = json.load(sys.stdin)
u = d["findings"].get("unseen", [])
sys.exit(not (len(u) == 1 and u[0]["what"] == "cpus_not_recorded" and u[0]["recorded"] == "0-3" and u[0]["warning"] in d["warnings"]))' &&
	say ok "perf c2c record -C 0-3: a warning that the other CPUs are unseen (findings.unseen cpus_not_recorded)" ||
	say "not ok" "perf c2c record -C 0-3: a warning that the other CPUs are unseen (findings.unseen cpus_not_recorded)"

# Memory events recorded, no memory sample kept: perf lost them all, or
# they never fired; neither is a session without memory events (which
# recipe records them).
cp "$tmp/intel.db" "$tmp/none.db"
sqlite3 "$tmp/none.db" "DELETE FROM mem_sample; DELETE FROM sample WHERE event_id IN (1, 2);
	UPDATE event SET nr_samples = 0 WHERE id IN (1, 2);
	INSERT INTO lost (session_id, kind, time, cpu, event_id, n, file_offset) VALUES (1, 'lost_samples', NULL, 0, 1, 1125, 0);
	UPDATE session SET nr_lost_samples = 1125"
"$PERFDB" hitm "$tmp/none.db" >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && one_line && grep -q "session 1 recorded cpu/mem-loads,ldlat=30/P and cpu/mem-stores/P but holds none of their samples: perf lost 0 events (LOST records) and 1125 samples of them (LOST_SAMPLES)" "$tmp/err" &&
	say ok "memory events recorded, every sample lost: exit 2, says perf lost them" ||
	say "not ok" "memory events recorded, every sample lost: exit 2, says perf lost them (got $rc: $(cat "$tmp/err"))"
sqlite3 "$tmp/none.db" "DELETE FROM lost; UPDATE session SET nr_lost_samples = 0"
"$PERFDB" hitm "$tmp/none.db" >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && one_line && grep -q "session 1 recorded cpu/mem-loads,ldlat=30/P and cpu/mem-stores/P, which never fired there, and perf lost nothing: a measured zero" "$tmp/err" &&
	say ok "memory events recorded, no sample, nothing lost: exit 2, a measured zero" ||
	say "not ok" "memory events recorded, no sample, nothing lost: exit 2, a measured zero (got $rc: $(cat "$tmp/err"))"
sqlite3 "$tmp/none.db" "DELETE FROM event WHERE id IN (1, 2)"
"$PERFDB" hitm "$tmp/none.db" >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && one_line && grep -q "session 1 has no memory samples and no watchpoint samples (record them with perfdb record -r c2c, or -r watch" "$tmp/err" &&
	say ok "no memory event recorded: exit 2, the recipes named" ||
	say "not ok" "no memory event recorded: exit 2, the recipes named (got $rc: $(cat "$tmp/err"))"
plain="$SHARED/perfdata/x86_64-perf4.9-uprobe-tracepoint.data"
if [ -r "$plain" ] && "$PERFDB" import -q -o "$tmp/plain.db" "$plain"; then
	"$PERFDB" hitm "$tmp/plain.db" >/dev/null 2>"$tmp/err"; rc=$?
	[ $rc -eq 2 ] && one_line && grep -q "no memory samples and no watchpoint samples (record them with perfdb record -r c2c, or -r watch" "$tmp/err" &&
		say ok "a session without memory or watchpoint samples: exit 2, the recipes named" ||
		say "not ok" "a session without memory or watchpoint samples: exit 2, the recipes named (got $rc)"
	"$PERFDB" watch "$tmp/plain.db" >/dev/null 2>"$tmp/err"; rc=$?
	[ $rc -eq 2 ] && one_line && grep -q "has no watchpoint (mem:ADDR/LEN:w) events (record them with perfdb record -r watch" "$tmp/err" &&
		say ok "perfdb watch on a session that watched nothing: exit 2" ||
		say "not ok" "perfdb watch on a session that watched nothing: exit 2 (got $rc)"
else
	say ok "# SKIP $plain not found (real perf.data files: PERFDB_SHARED)"
fi
echo "1..$n"
