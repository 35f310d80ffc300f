#!/bin/sh
# perfdb report with several new sides (--new given more than once): the
# base against each of them in one report. One bench sweeps thp=a,b,c and
# x=1,2 with values a script queues, so every number is known; a second
# bench (label p) has the cell x=1 alone. Checked against the pairwise
# reports and against an independent Welch interval computed here (the t
# quantile by integrating Student's density): each side's columns are its
# pairwise report's means and %change, the family of the Bonferroni
# correction is every metric, cell and side (its rows and level said),
# each interval is Welch's at that level, the summary names the side of
# each line; --style mmtests and lkp put every side in a column, the
# pivot gives each side its group; the setup is one table with a column a
# side, and in chromium at 1280 px no column of the html is narrower
# than a word; more than 7 new sides is refused. Prints TAP lines. Run from the
# repository root.
# shellcheck disable=SC2016 # eval'd checks expand their variables late
. "$(dirname "$0")/lib/setup.sh"
. "$(dirname "$0")/lib/html_words.sh"
DB=$T/k.db
py() { python3 - "$@"; }
run() { "$PERFDB" "$@" >"$T/out" 2>"$T/err"; echo $? >"$T/rc"; }
rc_is() { [ "$(cat "$T/rc")" = "$1" ]; }

# next.sh DIR CELL prints the next value queued in DIR/CELL as a metric line.
# Cells x=1 print a second metric, only1: its table has no row for x=2.
cat >"$T/next.sh" <<'SH'
v=$(head -1 "$1/$2"); sed -i 1d "$1/$2"
echo "metric=lat value=$v unit=us better=lower"
case $2 in *1) echo "metric=only1 value=$v" ;; esac
SH
mkdir "$T/q"
printf '%s\n' 10 11 12 >"$T/q/a1"; printf '%s\n' 20 21 22 >"$T/q/a2"
printf '%s\n' 30 33 36 >"$T/q/b1"; printf '%s\n' 20 22 21 >"$T/q/b2"
printf '%s\n' 10 10.5 11.5 >"$T/q/c1"; printf '%s\n' 14 15 16 >"$T/q/c2"
printf '%s\n' 12 13 14 >"$T/q/p1"
run bench -q -o "$DB" -l k --runs 3 -p thp=a,b,c -p x=1,2 -- sh "$T/next.sh" "$T/q" '{thp}{x}'
check "a bench of 6 cells, 18 runs" eval 'rc_is 0 && [ "$(sqlite3 "$DB" "SELECT count(*) FROM bench_run WHERE status = '"'ok'"'")" = 18 ]'
run bench -q -o "$DB" -l p --runs 3 -p x=1 -- sh "$T/next.sh" "$T/q" 'p{x}'
check "a second bench, label p, the cell x=1 alone" rc_is 0
# The machine's readings are cleared: the values are the queue's.
sqlite3 "$DB" "UPDATE bench_run SET pulse_int = NULL, pulse_mem = NULL, others_cpu_ns = NULL, steal_ns = NULL"

run report "$DB" --base k:thp=a --new k:thp=b --new k:thp=c --format json
cp "$T/out" "$T/abc.json"
check "report with two new sides: exit 0" rc_is 0
"$PERFDB" report "$DB" --base k:thp=a --new k:thp=b --format json >"$T/ab.json"
"$PERFDB" report "$DB" --base k:thp=a --new k:thp=c --format json >"$T/ac.json"
check "each new side's columns are its pairwise report's means, %change and runs; the Bonferroni family is every metric, cell and side" \
	py "$T/abc.json" "$T/ab.json" "$T/ac.json" <<'PY'
import json, sys
d3, ab, ac = (json.load(open(f))["findings"] for f in sys.argv[1:4])
assert [r["x"] for r in d3["metric_only1"]] == ["1"], d3["metric_only1"]   # no row where no side has runs
# lat: 2 cells, only1: the 1 cell with runs (a cell without is no comparison)
assert d3["results_rows"] == ab["results_rows"] + ac["results_rows"] == 6, (d3["results_rows"], ab["results_rows"])
assert abs(d3["row_confidence"] - (1 - 0.05 / 6)) < 1e-12 and abs(ab["row_confidence"] - (1 - 0.05 / 3)) < 1e-12
assert [s["label"] for s in d3["sides"]] == ["k:thp=a", "k:thp=b", "k:thp=c"], d3["sides"]
assert [s["name"] for s in d3["sides"]] == ["base", "new", "new2"], d3["sides"]
for r in d3["metric_lat"]:
    p = [q for q in ab["metric_lat"] if q["x"] == r["x"]][0]
    c = [q for q in ac["metric_lat"] if q["x"] == r["x"]][0]
    for k in ("base", "new", "change_pct", "new_runs", "base_runs", "new_boots"):
        assert r[k] == p[k], (k, r, p)
    for k in ("new", "change_pct", "new_runs", "new_boots", "new_sittings", "tested_on"):
        assert r["new2" + k[3:] if k.startswith("new") else "new2_" + k] == c[k], (k, r, c)
    assert r["base"] == c["base"], (r, c)
PY
check "every interval is Welch's at 1 - 0.05/6 (recomputed here), the marks where it excludes 0" \
	py "$T/abc.json" "$DB" <<'PY'
import json, math, sqlite3, statistics as st, sys
f = json.load(open(sys.argv[1]))["findings"]
db = sqlite3.connect(sys.argv[2])
def runs(thp, x):
    return [v for (v,) in db.execute("SELECT m.value FROM run_metric m JOIN bench_run r ON r.id = m.run_id "
        "JOIN bench b ON b.id = r.bench_id AND b.label = 'k' "
        "JOIN bench_cell a ON a.bench_id = r.bench_id AND a.cell = r.cell AND a.name = 'thp' "
        "JOIN bench_cell c ON c.bench_id = r.bench_id AND c.cell = r.cell AND c.name = 'x' "
        "WHERE m.name = 'lat' AND a.value = ? AND c.value = ?", (thp, x))]
def pdf(x, df):
    return math.exp(math.lgamma((df + 1) / 2) - math.lgamma(df / 2)) / math.sqrt(df * math.pi) * \
        (1 + x * x / df) ** (-(df + 1) / 2)
def cdf(t, df, n=4000):     # Simpson's rule from 0 to t
    h = t / n
    s = pdf(0, df) + pdf(t, df) + sum((4 if i % 2 else 2) * pdf(i * h, df) for i in range(1, n))
    return 0.5 + s * h / 3
def quantile(p, df):
    lo, hi = 0.0, 200.0
    for _ in range(80):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if cdf(mid, df) < p else (lo, mid)
    return (lo + hi) / 2
level = 1 - 0.05 / f["results_rows"]
assert f["results_rows"] == 6
for r in f["metric_lat"]:
    a = runs("a", r["x"])
    for side, thp in (("", "b"), ("new2_", "c")):
        b = runs(thp, r["x"])
        va, vb = st.variance(a) / len(a), st.variance(b) / len(b)
        df = (va + vb) ** 2 / (va ** 2 / (len(a) - 1) + vb ** 2 / (len(b) - 1))
        q = quantile(1 - (1 - level) / 2, df)
        d, se = st.mean(b) - st.mean(a), math.sqrt(va + vb)
        lo, hi = 100 * (d - q * se) / st.mean(a), 100 * (d + q * se) / st.mean(a)
        assert abs(r[side + "ci_low_pct"] - lo) < 1e-6 and abs(r[side + "ci_high_pct"] - hi) < 1e-6, (side, r, lo, hi)
        assert r[side + "significant"] == (lo > 0 or hi < 0), (side, r)
sig = {(r["x"], s) for r in f["metric_lat"] for s in ("", "new2_") if r[s + "significant"]}
assert sig == {("1", ""), ("2", "new2_")}, sig
PY
check "the summary names the side of each line (lat and only1 x=1 for k:thp=b, lat x=2 for k:thp=c)" \
	py "$T/abc.json" <<'PY'
import json, sys
s = [r["change"] for r in json.load(open(sys.argv[1]))["findings"]["summary"]]
assert len(s) == 3 and any(l.startswith("k:thp=b: only1, x=1: +200.00%") for l in s) and any(l.startswith("k:thp=b: lat, x=1: +200.00%") for l in s) and \
    any(l.startswith("k:thp=c: lat, x=2: -28.57%") and l.endswith("(new2)") for l in s), s
PY
check "the chart has every side's runs under its label (6 each), the base's first" \
	py "$T/abc.json" <<'PY'
import collections, json, sys
rows = json.load(open(sys.argv[1]))["findings"]["chart_lat"]
n = collections.Counter(r["side"] for r in rows)
assert n == {"k:thp=a": 6, "k:thp=b": 6, "k:thp=c": 6} and rows[0]["side"] == "k:thp=a", n
assert sorted(r["value"] for r in rows if r["side"] == "k:thp=c") == [10, 10.5, 11.5, 14, 15, 16], rows
PY

run report "$DB" --base k:thp=a --new k:thp=b --new p --format json
check "a side without one of the base's cells: its group is empty there, and that row is not in the family" \
	py "$T/out" "$DB" <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))["findings"]
assert f["results_rows"] == 5, f["results_rows"]    # lat: 2 + 1, only1: 1 + 1
rows = {r["x"]: r for r in f["metric_lat"]}
assert rows["1"]["new2"] == 13 and rows["1"]["new2_runs"] == 3, rows["1"]
assert rows["2"]["new2"] is None and rows["2"]["new2_change_pct"] is None and rows["2"]["new"] == 21, rows["2"]
PY

# Sides tested on different units: bench s has two sittings (--again), so
# its cells compare on the sittings' means; label one has one sitting. In
# one report every side of a row is on the runs (the least any side
# allows), so each %change is against the base mean shown.
printf '%s\n' 10 12 20 22 >"$T/q/sa"; printf '%s\n' 15 17 25 27 >"$T/q/sb"; printf '%s\n' 30 31 >"$T/q/o"
"$PERFDB" bench -q -o "$DB" -l s --runs 2 -p v=a,b -- sh "$T/next.sh" "$T/q" 's{v}' >/dev/null 2>&1
"$PERFDB" bench -q -o "$DB" --resume -l s --again >/dev/null 2>&1
"$PERFDB" bench -q -o "$DB" -l one --runs 2 -- sh "$T/next.sh" "$T/q" o >/dev/null 2>&1
sqlite3 "$DB" "UPDATE bench_run SET pulse_int = NULL, pulse_mem = NULL, others_cpu_ns = NULL, steal_ns = NULL"
"$PERFDB" report "$DB" --base s:v=a --new s:v=b --metric lat --format json >"$T/s2.json" 2>/dev/null
"$PERFDB" report "$DB" --base s:v=a --new s:v=b --new one --metric lat --format json >"$T/s3.json" 2>/dev/null
check "a row's sides on one unit: the pair alone on the sittings' means, beside a side of one sitting all on the runs, each %change against the base mean shown" \
	py "$T/s2.json" "$T/s3.json" <<'PY'
import json, sys
two, three = (json.load(open(f))["findings"]["metric_lat"][0] for f in sys.argv[1:3])
assert two["tested_on"] == "sittings" and two["base_sittings"] == 2, two
assert three["tested_on"] == "runs" and three["new2_tested_on"] == "runs", three
assert three["base"] == 16 and three["new"] == 21 and three["new2"] == 30.5, three     # the runs' means
for pre, side in (("", "new"), ("new2_", "new2")):
    assert abs(three[pre + "change_pct"] - 100 * (three[side] - three["base"]) / three["base"]) < 1e-9, (pre, three)
PY

run report "$DB" --base k:thp=a --new k:thp=b --new k:thp=c --style mmtests --format json
check "--style mmtests: a column a side, each side's Amean with its gain against the base" \
	py "$T/out" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))["findings"]["mmtests"]
am = {r["metric"]: r for r in rows if r["stat"] == "Amean"}
# x=1: 11 | 33 (gain (11-33)/11 = -200%, marked) | 10.6667 (gain +3.03%)
assert am["lat x=1"]["base"] == "11.0000 (   0.00%)" and am["lat x=1"]["new"] == "33.0000 *-200.00%*", am
assert am["lat x=1"]["new2"] == "10.6667 (   3.03%)", am
# x=2: 21 | 21 | 15 (gain +28.57%, marked)
assert am["lat x=2"]["new2"] == "15.0000 *  28.57%*", am
assert [r["new2"] for r in rows if r["stat"] == "Duration"] and all(set(r) == {"stat", "metric", "base", "new", "new2"} for r in rows)
PY
run report "$DB" --base k:thp=a --new k:thp=b --new k:thp=c --style lkp --format json
check "--style lkp: base, then each side's %change and value, then the metric" \
	py "$T/out" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))["findings"]["lkp"]
got = [(r["base"], r["change"], r["new"], r["change_new2"], r["new2"], r["metric"]) for r in rows
       if r["metric"].startswith("lat.")]
assert [r["metric"] for r in rows] == ["lat.x=1", "lat.x=2", "only1.x=1"], rows
# c, x=1: 10 10.5 11.5: mean 10.6667, stddev 0.764 (7.2%), -3.0%; x=2: 14 15 16: 15 (6.7%), -28.6%, marked
want = [("11 \u00b1  9%", "+200.0% *", "33 \u00b1  9%", "-3.0%", "10.6667 \u00b1  7%", "lat.x=1"),
        ("21 \u00b1  5%", "+0.0%", "21 \u00b1  5%", "-28.6% *", "15 \u00b1  7%", "lat.x=2")]
assert got == want, got
PY
run report "$DB" --base k:thp=a --new k:thp=b --new k:thp=c --columns x --format json
check "--columns x: each value's group holds the base and every side's mean, %change and mark, as the long table" \
	py "$T/out" <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))["findings"]
long, piv = f["metric_lat"], f["pivot_lat"]
assert len(piv) == 1, piv
for k, row in enumerate(sorted(long, key=lambda r: r["x"]), 1):
    g = "g%d_" % k
    assert piv[0][g + "base"] == row["base"], (piv, row)
    for s, pre in (("new", ""), ("new2", "new2_")):
        mark = "*" if row[pre + "significant"] and not row[pre + "machine_explains"] else ""
        assert (piv[0][g + s], piv[0][g + pre + "change_pct"], piv[0][g + pre + "mark"]) == \
            (row[s], row[pre + "change_pct"], mark), (s, piv, row)
PY
run report "$DB" --base k:thp=a --new k:thp=b --new k:thp=c
check "md: one setup table headed by every label, a data quality section per pair, one reproduce command for the one bench" \
	eval 'grep -Eq "^\| fact +\| k:thp=a +\| k:thp=b +\| differs +\| k:thp=c +\| differs +\|$" "$T/out" &&
	grep -q "^## Data quality (k:thp=c against k:thp=a)" "$T/out" && grep -q "^## Data quality (k:thp=b against k:thp=a)" "$T/out" &&
	[ "$(grep -c "^- perfdb bench -o" "$T/out")" = 1 ] && grep -q "^# k:thp=b and k:thp=c against k:thp=a" "$T/out" &&
	grep -q "^- perfdb report .* --base k:thp=a --new k:thp=b --new k:thp=c -o report.md" "$T/out"'
run report "$DB" --base k:thp=a --new k:thp=b --new k:thp=c --format html
cp "$T/out" "$T/abc.html"
check "html of three sides: exit 0, one page" eval 'rc_is 0 && grep -q "</html>" "$T/abc.html"'
if command -v chromium >/dev/null 2>&1; then
	check "html of three sides in chromium at 1280 px: every table cell keeps its words whole" \
		html_words_whole "$T/abc.html"
else
	skip "chromium not installed"
fi
run report "$DB" --base k:thp=a --new k:thp=b --new k:thp=c --new k:thp=a --new k:thp=b --new k:thp=c --new k:thp=a --new k:thp=b --new k:thp=c
check "eight new sides: exit 2, one line saying the most" eval 'rc_is 2 && [ "$(wc -l <"$T/err")" = 1 ] && grep -q "1 to 7 new sides" "$T/err"'
run report "$DB" --base k:thp=a --new k:thp=b --new k:thp=a
check "a side given twice among several: exit 2, one line naming it" eval 'rc_is 2 && [ "$(wc -l <"$T/err")" = 1 ] && grep -q "k:thp=a. is given twice" "$T/err"'
run report "$DB" --base k:thp=a --new k:thp=b --new nosuch
check "a side that names nothing: exit 2, one line naming it" eval 'rc_is 2 && [ "$(wc -l <"$T/err")" = 1 ] && grep -q "nosuch" "$T/err"'
tap_end
