#!/bin/sh
# Integration test of `perfdb report`: an A/B with a known effect (false
# sharing: falseshare's packed against padded layout) is marked with the
# right sign and its %change agrees with the runs; A/A comparisons drawn
# from a pool of real runs mark nothing at the stated rate (measured);
# every number equals what the verbs (results, sched) print for the same
# data; the markdown renders with cmark-gfm into tables, every SVG is
# well-formed, the html opens in headless chromium and its screenshot is
# not blank, and there no table cell breaks a word across lines; the
# setup shows the perf command line as typed; sides that differ in CPU
# count are warned of, a section one side has no events for is left out
# with a note saying why, what the evidence could not see is carried and
# listed in Data quality; a base mean of
# 0 is tested in the metric's unit, rows without spread are not tested,
# 3 boots a side are tested on (and show) the boots' means; -o never
# overwrites a database; the pictures are written as safely as the report
# (a link at a picture's name replaced, never followed; a picture or an
# --assets that cannot be written fails the command, the old report kept);
# usage errors.
# Prints TAP lines. Run from the repository root.
# shellcheck disable=SC2016 # eval'd checks expand their variables late
. "$(dirname "$0")/lib/setup.sh"
. "$(dirname "$0")/lib/html_words.sh"
private_perfdb workloads
DB=$T/r.db
rep() { "$PERFDB" report "$DB" "$@" >"$T/out" 2>"$T/err"; echo $? >"$T/rc"; }
rc_is() { [ "$(cat "$T/rc")" = "$1" ]; }
py() { python3 - "$@"; }

# --- a known effect ---------------------------------------------------------
for layout in packed padded; do
	"$PERFDB" bench -q -o "$DB" -l $layout --runs 5 -p threads=2 -r sched --record-every 5 \
		-- falseshare --threads '{threads}' --layout $layout --store always --seconds 0.2 >/dev/null 2>"$T/err" ||
		not_ok "bench $layout: $(head -1 "$T/err")"
done
rep --base packed --new padded --format json
cp "$T/out" "$T/ab.json"
check "A/B (packed -> padded): exit 0, one JSON envelope of verb report" \
	eval 'rc_is 0 && py "$T/ab.json" <<"PY"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["verb"] == "report" and d["title"] == "padded against packed"
PY'
# machine_said JSON: the verdict when perfdb withheld it for the machine
# (it changed, drifted or was busy under the runs), else nothing: then a
# known effect's mark cannot be asserted, only that perfdb said why.
machine_said() {
	py "$1" <<'PY'
import json, sys
row = json.load(open(sys.argv[1]))["findings"]["metric_falseshare_ops_per_sec"][0]
if row.get("machine_explains"):
    assert row["verdict"].startswith("machine ") and row["significant"] == 1, row
    print(row["verdict"])
PY
}
said=$(machine_said "$T/ab.json")
[ -z "$said" ] || skip "the known effect: perfdb withheld it as '$said' (the machine moved under the runs)"
[ -n "$said" ] || check "the known effect is marked: significant, an improvement, %change of the means as the runs give it" \
	py "$T/ab.json" "$DB" <<'PY'
import json, sqlite3, statistics as st, sys
d = json.load(open(sys.argv[1]))
db = sqlite3.connect(sys.argv[2])
def runs(label):
    return [r[0] for r in db.execute("SELECT m.value FROM bench_run r JOIN bench b ON b.id = r.bench_id "
        "JOIN run_metric m ON m.run_id = r.id WHERE b.label = ? AND r.kind = 'bare' AND r.status = 'ok'", (label,))]
a, b = runs("packed"), runs("padded")
row = d["findings"]["metric_falseshare_ops_per_sec"][0]
assert row["significant"] == 1 and row["verdict"] == "improvement", row
assert abs(row["base"] - st.mean(a)) < 1e-6 * st.mean(a) and abs(row["new"] - st.mean(b)) < 1e-6 * st.mean(b)
assert abs(row["change_pct"] - 100 * (st.mean(b) - st.mean(a)) / st.mean(a)) < 1e-9
assert abs(row["base_median"] - st.median(a)) < 1e-6 and abs(row["new_median"] - st.median(b)) < 1e-6
# the medians agree in sign with the %change and are of its order (a loaded
# machine moves single runs, and so the means more than the medians)
med = 100 * (st.median(b) - st.median(a)) / st.median(a)
assert med > 0 and row["change_pct"] / 3 < med < row["change_pct"] * 3, (med, row["change_pct"])
assert row["ci_low_pct"] > 0 and row["ci_low_pct"] <= row["change_pct"] <= row["ci_high_pct"]
assert any(l["change"].startswith("falseshare_ops_per_sec, threads=2: +") for l in d["findings"]["summary"])
print("# packed %.0f -> padded %.0f ops/s: %+.1f%% [%+.1f, %+.1f]" % (st.mean(a), st.mean(b), row["change_pct"], row["ci_low_pct"], row["ci_high_pct"]), file=sys.stderr)
PY
rep --base padded --new packed --format json
said=$(machine_said "$T/out")
[ -z "$said" ] || skip "the known effect the other way round: perfdb withheld it as '$said'"
[ -n "$said" ] || check "the other way round it is a regression, with the opposite sign" \
	py "$T/out" <<'PY'
import json, sys
row = json.load(open(sys.argv[1]))["findings"]["metric_falseshare_ops_per_sec"][0]
assert row["significant"] == 1 and row["verdict"] == "regression" and row["change_pct"] < 0
PY
"$PERFDB" results "$DB" --format json >"$T/res.json"
"$PERFDB" sched "$DB" --base packed --new padded -n 10 --format json >"$T/sched.json"
check "the report's numbers equal what perfdb results and perfdb sched --base/--new -n 10 print" \
	py "$T/ab.json" "$T/res.json" "$T/sched.json" <<'PY'
import json, sys
rep = json.load(open(sys.argv[1]))["findings"]
res = {(r["label"], r["metric"]): r for r in json.load(open(sys.argv[2]))["findings"]["results"]}
sch = json.load(open(sys.argv[3]))["findings"]["compare"]
row = rep["metric_falseshare_ops_per_sec"][0]
for side, label in (("base", "packed"), ("new", "padded")):
    r = res[(label, "falseshare_ops_per_sec")]
    assert row[side] == r["mean"] and row[side + "_median"] == r["median"] and row[side + "_runs"] == r["runs"]
    assert abs(row[side + "_stddev_pct"] - r["stddev_pct"]) < 1e-9
assert rep["sched_compare"] == sch, (rep["sched_compare"][:2], sch[:2])
dur = rep["durations"][0]
assert abs(dur["base_elapsed_s"] - res[("packed", "falseshare_ops_per_sec")]["elapsed_s"]) < 1e-9
assert len(rep["durations"]) == 1 and [t["side"] for t in rep["duration_totals"]] == ["base", "new"]
tot = rep["duration_totals"][0]["elapsed_s"]
assert abs(tot - 5 * dur["base_elapsed_s"]) < 1e-6 * tot, (tot, dur)
PY

# --- pictures, markdown, html -------------------------------------------------
rep --base packed --new padded -o "$T/ab.md"
check "-o FILE writes the markdown and its pictures next to it" \
	eval 'rc_is 0 && [ -s "$T/ab.md" ] && [ -s "$T/ab.assets/chart_falseshare_ops_per_sec.svg" ] && grep -q "](ab.assets/chart_falseshare_ops_per_sec.svg)" "$T/ab.md"'
check "the setup shows the perf command line as typed (no perfdb wrapper, no temporary perf.data), differs as true/false" \
	py "$T/ab.json" "$T/ab.md" <<'PY'
import json, sys
setup = {r["fact"]: r for r in json.load(open(sys.argv[1]))["findings"]["setup"]}
cmd = setup["perf command line"]
for side in ("base", "new"):
    assert "__exec" not in cmd[side] and ".perfdb-record-" not in cmd[side], cmd
    tail = cmd[side].rsplit(" -- ", 1)[-1]
    assert " record " in cmd[side] and "falseshare" in tail and tail.endswith("--store always --seconds 0.2"), cmd
assert cmd["differs"] is True and setup["kernel"]["differs"] is False and setup["perf version"]["differs"] is False, setup
md = open(sys.argv[2]).read()
assert "| kernel " in md and [l for l in md.splitlines() if l.startswith("| kernel ") and "| same" in l and "| no " in l], md[:2000]
PY
check "every SVG is well-formed XML; the chart has a point per bare run" \
	py "$T/ab.assets" <<'PY'
import glob, sys, xml.etree.ElementTree as ET
files = glob.glob(sys.argv[1] + "/*.svg")
assert files
for f in files:
    root = ET.parse(f).getroot()
    assert root.tag.endswith("svg"), f
c = ET.parse(sys.argv[1] + "/chart_falseshare_ops_per_sec.svg").getroot()
assert len(c.findall(".//{http://www.w3.org/2000/svg}circle")) == 10 + 2  # runs + legend
PY
if command -v cmark-gfm >/dev/null 2>&1; then
	cmark-gfm -e table "$T/ab.md" >"$T/ab.cmark.html"
	check "the markdown renders with cmark-gfm into tables whose cells hold the report's numbers" \
		py "$T/ab.cmark.html" "$T/ab.json" <<'PY'
import json, sys
from html.parser import HTMLParser
class P(HTMLParser):
    def __init__(s):
        super().__init__(); s.tables = []; s.cell = None
    def handle_starttag(s, t, a):
        if t == "table": s.tables.append([])
        if t == "tr": s.tables[-1].append([])
        if t in ("td", "th"): s.cell = ""
    def handle_endtag(s, t):
        if t in ("td", "th"): s.tables[-1][-1].append(s.cell.strip()); s.cell = None
    def handle_data(s, d):
        if s.cell is not None: s.cell += d
p = P(); p.feed(open(sys.argv[1]).read())
row = json.load(open(sys.argv[2]))["findings"]["metric_falseshare_ops_per_sec"][0]
t = [t for t in p.tables if "%change" in t[0]]
assert len(p.tables) >= 4 and t, [x[0] for x in p.tables]
cells = t[0][1]
assert "%.1f" % row["base"] in cells and "%.1f" % row["new"] in cells and "%.2f%%" % row["change_pct"] in cells, cells
PY
else
	skip "cmark-gfm not installed"
fi
rep --base packed --new padded --format html -o "$T/ab.html"
check "--format html is one self-contained page: inline SVG, no external files, no scripts" \
	eval 'rc_is 0 && grep -q "<svg" "$T/ab.html" && ! grep -Eiq "<script|src=|<link|href=\"[^#]" "$T/ab.html"'
if command -v chromium >/dev/null 2>&1; then
	timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$T/chromium" --window-size=1200,2000 --screenshot="$T/shot.png" \
		"file://$T/ab.html" >/dev/null 2>&1
	check "the html opens in headless chromium and its screenshot is not blank" \
		py "$T/shot.png" <<'PY'
import struct, sys, zlib
b = open(sys.argv[1], "rb").read()
assert b[:8] == b"\x89PNG\r\n\x1a\n"
i, idat, w = 8, b"", 0
while i < len(b):
    n, kind = struct.unpack(">I4s", b[i:i + 8]); data = b[i + 8:i + 8 + n]; i += 12 + n
    if kind == b"IHDR": w, h = struct.unpack(">II", data[:8])
    if kind == b"IDAT": idat += data
raw = zlib.decompress(idat)
dark = sum(1 for x in raw[::7] if x < 100)
assert w > 0 and dark > 2000, (w, dark)   # text and tables, not a white page
PY
	check "in chromium at 1280 px every table cell keeps its words whole (no column narrower than a word)" \
		html_words_whole "$T/ab.html"
else
	skip "chromium not installed"
fi

# --- warnings and errors ------------------------------------------------------
cp "$DB" "$T/cpus.db"
sqlite3 "$T/cpus.db" "UPDATE bench SET cpus_online = 64 WHERE label = 'padded'"
"$PERFDB" report "$T/cpus.db" --base packed --new padded --format json >"$T/cpus.json"
check "sides that differ in CPU count give the warning" \
	py "$T/cpus.json" <<'PY'
import json, sys
w = json.load(open(sys.argv[1]))["warnings"]
assert any("online CPUs is 2 on the base side and 64 on the new one" in x for x in w), w
PY
# One side without the events of a section: the section is left out, and a
# note (and findings.unseen evidence_left_out) says which side and why.
cp "$DB" "$T/ev.db"
sqlite3 "$T/ev.db" "DELETE FROM event WHERE name = 'sched:sched_switch' AND session_id IN
	(SELECT r.session_id FROM bench_run r JOIN bench b ON b.id = r.bench_id WHERE b.label = 'padded')"
"$PERFDB" report "$T/ev.db" --base packed --new padded --format json >"$T/ev.json"
check "a side without sched_switch: no context-switch section, a note naming the side, the session and the recipe" \
	py "$T/ev.json" "$T/ab.json" <<'PY'
import json, re, sys
d, ab = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert "sched_compare" in ab["findings"] and "sched_compare" not in d["findings"], list(d["findings"])
u = [x for x in d["findings"].get("unseen", []) if x["what"] == "evidence_left_out"]
assert len(u) == 1 and u[0]["part"] == "context-switch" and u[0]["side"] == "new" and u[0]["note"] in d["notes"], u
assert re.match(r"no context-switch evidence: base has it, but new \(padded\) does not: session \d+ has no "
                r"sched:sched_switch events \(record them with perfdb record -r sched\)$", u[0]["note"]), u
assert not [x for x in ab["findings"].get("unseen", []) if x["what"] == "evidence_left_out"], ab["findings"].get("unseen")
PY
# A side recorded on CPU 0 alone (its perf command lines say -C 0): the
# sched warning comes along, in findings.unseen, and Data quality lists it
# instead of "nothing doubtful seen".
cp "$DB" "$T/c0.db"
sqlite3 "$T/c0.db" "UPDATE session SET perf_cmdline = replace(perf_cmdline, ' -a ', ' -a -C 0 ') WHERE id IN
	(SELECT r.session_id FROM bench_run r JOIN bench b ON b.id = r.bench_id WHERE b.label = 'padded')"
"$PERFDB" report "$T/c0.db" --base packed --new padded --format json >"$T/c0.json"
check "a side recorded with -C 0: the sched warning, findings.unseen cpus_not_recorded, a Data quality row of the new side" \
	py "$T/c0.json" "$T/ab.json" <<'PY'
import json, sys
d, ab = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
f = d["findings"]
u = [x for x in f.get("unseen", []) if x["what"] == "cpus_not_recorded"]
assert u and all(x["part"] == "context switches" and x["warning"] in d["warnings"] and "recorded only CPU 0 (perf record -C 0)" in x["warning"] for x in u), u
q = [x for x in f["data_quality"] if x["what"] == "cpus_not_recorded"]
assert sorted(x["session"] for x in q) == sorted(x["session"] for x in u) and all(x["side"] == "new" for x in q), q
assert not [x for x in f["data_quality"] if x["what"] == "nothing doubtful seen"], f["data_quality"]
assert "unseen" not in ab["findings"], ab["findings"]["unseen"]
PY
rep --new padded
check "no --base: exit 1, one line" eval 'rc_is 1 && [ "$(wc -l <"$T/err")" = 1 ]'
rep --base nosuch --new padded
check "a label with neither a bench nor a session: exit 2, one line" eval 'rc_is 2 && [ "$(wc -l <"$T/err")" = 1 ] && grep -q nosuch "$T/err"'
rep --base packed --new padded --metric nosuch
check "--metric no run printed: exit 2, one line" eval 'rc_is 2 && [ "$(wc -l <"$T/err")" = 1 ]'
sum0=$(sha256sum <"$DB")
ln -s "$DB" "$T/alias.db"
rep --base packed --new padded -o "$T/alias.db"
check "-o naming the database (under another name) is refused, the database untouched" \
	eval 'rc_is 2 && grep -q "is the database being read" "$T/err" && [ "$(sha256sum <"$DB")" = "$sum0" ] && [ ! -e "$T/alias.assets" ]'
cp "$DB" "$T/other.db"
rep --base packed --new padded -o "$T/other.db"
check "-o naming another database is refused too" eval 'rc_is 2 && grep -q "holds an SQLite database" "$T/err" && cmp -s "$DB" "$T/other.db"'
# The pictures go through the same writer as the report (lib/outfile.h):
# a link at a picture's name is replaced, never followed (issue 28, row 2);
# a picture that cannot be written, or an --assets that is no directory
# (row 7), fails the command in one line and replaces nothing.
chart=chart_falseshare_ops_per_sec.svg
echo precious >"$T/victim"
rm -f "$T/ab.assets/$chart" && ln -s ../victim "$T/ab.assets/$chart"
rep --base packed --new padded -o "$T/ab.md"
check "a picture's name that is a link to another file: the link is replaced, the file it named left as it was" \
	eval 'rc_is 0 && [ "$(cat "$T/victim")" = precious ] && [ ! -L "$T/ab.assets/$chart" ] && grep -q "<svg" "$T/ab.assets/$chart"'
echo "old report" >"$T/ab.md"
rm -f "$T/ab.assets/$chart" && mkdir "$T/ab.assets/$chart"
rep --base packed --new padded -o "$T/ab.md"
check "a picture that cannot be written: exit 2, one line naming it, the old report kept, no temporary file left" \
	eval 'rc_is 2 && [ "$(wc -l <"$T/err")" = 1 ] && grep -q "ab.assets/$chart: is a directory" "$T/err" && [ "$(cat "$T/ab.md")" = "old report" ] && [ -z "$(ls "$T" | grep "^ab\.md\.")$(ls "$T/ab.assets" | grep "\.svg\.")" ]'
rmdir "$T/ab.assets/$chart"
echo "not a directory" >"$T/plain"
rep --base packed --new padded -o "$T/r7.md" --assets "$T/plain"
check "--assets naming a regular file: exit 2, one line, nothing claimed or written" \
	eval 'rc_is 2 && [ "$(wc -l <"$T/err")" = 1 ] && grep -q "plain: Not a directory" "$T/err" && ! grep -q wrote "$T/err" && [ ! -e "$T/r7.md" ] && [ "$(cat "$T/plain")" = "not a directory" ]'

# --- rows without a percentage or a spread; boots' means -----------------
# next.sh DIR CELL prints the next value queued in DIR/CELL as a metric line.
cat >"$T/next.sh" <<'SH'
v=$(head -1 "$1/$2"); sed -i 1d "$1/$2"
echo "metric=x value=$v unit=ms better=lower"
SH
queue() { mkdir -p "$T/q"; cell=$1; shift; printf '%s\n' "$@" >"$T/q/$cell"; }
E=$T/e.db
queue zero 0 0 0; queue flat 10 10 10
"$PERFDB" bench -q -o "$E" -l e0 --runs 3 --order sequential -p c=zero,flat -- sh "$T/next.sh" "$T/q" {c} >/dev/null 2>&1
queue zero 5 6 7; queue flat 12 12 12
"$PERFDB" bench -q -o "$E" -l e1 --runs 3 --order sequential -p c=zero,flat -- sh "$T/next.sh" "$T/q" {c} >/dev/null 2>&1
# The values are the queue's, whatever the machine does: its readings
# (pulse, others' load) are cleared so that only the arithmetic is tested.
sqlite3 "$E" "UPDATE bench_run SET pulse_int = NULL, pulse_mem = NULL, others_cpu_ns = NULL, steal_ns = NULL"
"$PERFDB" report "$E" --base e0 --new e1 --format json >"$T/e.json" 2>"$T/err"
check "a base mean of 0: the interval is of the difference in the metric's unit, marked, summarized" \
	py "$T/e.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))["findings"]
r = [x for x in d["metric_x"] if x["c"] == "zero"][0]
assert r["change_pct"] is None and r["ci_low_pct"] is None and r["significant"] == 1, r
assert r["verdict"] == "regression" and r["tested_on"] == "runs" and 0 < r["diff_low"] < 6 < r["diff_high"], r
assert any(l["change"].startswith("x, c=zero: from 0 to 6 ms") for l in d["summary"]), d["summary"]
PY
"$PERFDB" report "$E" --base e0 --new e1 >"$T/e.txt" 2>&1
check "no spread on either side: not tested, said so in the text" \
	eval 'py "$T/e.json" <<"PY" && grep -Eq "^\| flat .*\| no spread" "$T/e.txt"
import json, sys
r = [x for x in json.load(open(sys.argv[1]))["findings"]["metric_x"] if x["c"] == "flat"][0]
assert r["significant"] == 0 and r["diff_low"] is None and r["tested_on"] is None and abs(r["change_pct"] - 20) < 1e-9, r
PY'
for side in b0 b1; do
	for boot in 1 2 3; do
		if [ $side = b0 ]; then queue one 10 11 12 13; else queue one 20 21 22 23; fi
		"$PERFDB" bench -q -o "$E" -l $side --runs 4 -p c=one -- sh "$T/next.sh" "$T/q" {c} >/dev/null 2>&1
		sqlite3 "$E" "UPDATE bench SET boot_id = 'boot-$boot' WHERE label = '$side' AND boot_id NOT LIKE 'boot-%'"
	done
done
sqlite3 "$E" "DELETE FROM run_metric WHERE run_id IN (SELECT r.id FROM bench_run r JOIN bench b ON b.id = r.bench_id WHERE b.label = 'b0' AND b.boot_id = 'boot-1' AND r.run <= 2)"
sqlite3 "$E" "DELETE FROM bench_run WHERE id NOT IN (SELECT run_id FROM run_metric) AND bench_id IN (SELECT id FROM bench WHERE label = 'b0')"
"$PERFDB" report "$E" --base b0 --new b1 --format json >"$T/b.json" 2>"$T/err"
check "3 boots a side: tested on the boots' means, and the mean shown is theirs (not the pooled runs')" \
	py "$T/b.json" "$E" <<'PY'
import json, sqlite3, statistics as st, sys
r = json.load(open(sys.argv[1]))["findings"]["metric_x"][0]
db = sqlite3.connect(sys.argv[2])
def boot_means(label):
    return [st.mean(v for (v,) in db.execute("SELECT m.value FROM run_metric m JOIN bench_run r ON r.id = m.run_id "
        "JOIN bench b ON b.id = r.bench_id WHERE b.label = ? AND b.boot_id = ?", (label, bid)))
        for (bid,) in db.execute("SELECT DISTINCT boot_id FROM bench WHERE label = ?", (label,))]
a, b = boot_means("b0"), boot_means("b1")
assert r["tested_on"] == "boots" and r["base_boots"] == 3 and r["base_runs"] == 10, r
assert abs(r["base"] - st.mean(a)) < 1e-9 and abs(r["new"] - st.mean(b)) < 1e-9, (r["base"], a)
pooled = [v for (v,) in db.execute("SELECT m.value FROM run_metric m JOIN bench_run r ON r.id = m.run_id "
    "JOIN bench b ON b.id = r.bench_id WHERE b.label = 'b0'")]
assert len(pooled) == 10 and abs(r["base"] - st.mean(pooled)) > 0.1, (r["base"], st.mean(pooled))
PY

rnd='echo "metric=x value=$(od -An -N2 -tu2 /dev/urandom | tr -d " ")"'
"$PERFDB" bench -q -o "$E" -l o1 --runs 2 -p a=1 -p b=2 -- sh -c "$rnd" sh {a} {b} >/dev/null 2>&1
"$PERFDB" bench -q -o "$E" -l o2 --runs 2 -p b=2 -p a=1 -- sh -c "$rnd" sh {b} {a} >/dev/null 2>&1
"$PERFDB" report "$E" --base o1 --new o2 --format json >"$T/o.json" 2>"$T/err"
check "the same cell given with its parameters in another order is compared, durations too" \
	py "$T/o.json" <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))["findings"]
assert len(f["metric_x"]) == 1 and len(f["durations"]) == 1, (f["metric_x"], f["durations"])
PY

# --- A/A: the false-positive rate on real run-to-run noise --------------------
"$PERFDB" bench -q -o "$T/aa.db" -l pool --runs 40 -p cpus=1,2 -- yield --cpus '{cpus}' --seconds 0.03 >/dev/null 2>&1
py "$T/aa.db" 200 <<'PY'
# 200 A/A pairs of labels, each side 5 runs a cell drawn without
# replacement from the pool's 40 (real run-to-run noise), stored as benches
import random, sqlite3, sys
db = sqlite3.connect(sys.argv[1]); rnd = random.Random(11)
pool = db.execute("SELECT * FROM bench WHERE label = 'pool'").fetchone()
cols = [c[1] for c in db.execute("PRAGMA table_info(bench)")]
for i in range(int(sys.argv[2])):
    for side in ("a", "b"):
        row = dict(zip(cols, pool)); row["label"] = "aa%d%s" % (i, side); del row["id"]
        cur = db.execute("INSERT INTO bench (%s) VALUES (%s)" % (",".join(row), ",".join("?" * len(row))), list(row.values()))
        new = cur.lastrowid
        db.execute("INSERT INTO bench_param SELECT ?, pos, name, vpos, value FROM bench_param WHERE bench_id = ?", (new, pool[0]))
        db.execute("INSERT INTO bench_cell SELECT ?, cell, name, value FROM bench_cell WHERE bench_id = ?", (new, pool[0]))
    for cell in (0, 1):
        ids = [r[0] for r in db.execute("SELECT id FROM bench_run WHERE bench_id = ? AND cell = ? AND status = 'ok'", (pool[0], cell))]
        pick = rnd.sample(ids, 10)
        for side, part in (("a", pick[:5]), ("b", pick[5:])):
            bid = db.execute("SELECT id FROM bench WHERE label = ?", ("aa%d%s" % (i, side),)).fetchone()[0]
            for k, rid in enumerate(part):
                cur = db.execute("INSERT INTO bench_run (bench_id, cell, run, kind, seq, argv, status, wall_ns, user_ns, sys_ns) "
                                 "SELECT ?, cell, ?, kind, seq, argv, status, wall_ns, user_ns, sys_ns FROM bench_run WHERE id = ?", (bid, k + 1, rid))
                db.execute("INSERT INTO run_metric SELECT ?, name, value, unit, better, line FROM run_metric WHERE run_id = ?", (cur.lastrowid, rid))
db.commit()
PY
marked=0
for i in $(seq 0 199); do
	"$PERFDB" report "$T/aa.db" --base aa${i}a --new aa${i}b --format json 2>/dev/null |
		python3 -c 'import json,sys; f=json.load(sys.stdin)["findings"]; sys.exit(any(r["significant"] for r in f["metric_ctxsw_per_sec_per_cpu"]))' ||
		marked=$((marked + 1))
done
echo "# A/A: $marked of 200 reports (2 cells, 5 runs a side each, drawn from 40 real runs of yield) marked a change"
check "A/A comparisons of real run-to-run noise mark a change in at most 9% of reports (stated rate 5%; 200 draws)" \
	[ "$marked" -le 18 ]
echo "1..$n"
[ "$failed" -eq 0 ]
