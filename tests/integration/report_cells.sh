#!/bin/sh
# A side narrowed to cells of one bench (LABEL:NAME=V,...: report and
# results). One bench sweeps thp=a,b and x=1,2 with values a script
# queues (so every number is known); `report --base k:thp=a --new
# k:thp=b` pairs the cells by x, each side's mean is its cell's runs'
# (recomputed from the rows), the note says the runs were interleaved,
# the reproduce command is the bench's own (-l k, both -p); results -l
# k:thp=a shows the x cells alone; --style mmtests lays the same runs out
# as compare-kernels does, every cell worked out here from the rows, and
# --style lkp as 0-day's mails do (worked out by hand); --columns x puts
# x's values as column groups, the same numbers as the long table's.
# Refusals: no such parameter, no such
# value, a label without a bench. Prints TAP lines. Run from the
# repository root.
# shellcheck disable=SC2016 # eval'd checks expand their variables late
. "$(dirname "$0")/lib/setup.sh"
DB=$T/k.db
py() { python3 - "$@"; }
run() { "$PERFDB" "$@" >"$T/out" 2>"$T/err"; echo $? >"$T/rc"; }
rc_is() { [ "$(cat "$T/rc")" = "$1" ]; }

# next.sh DIR CELL prints the next value queued in DIR/CELL as a metric line.
cat >"$T/next.sh" <<'SH'
v=$(head -1 "$1/$2"); sed -i 1d "$1/$2"
echo "metric=lat value=$v unit=us better=lower"
SH
mkdir "$T/q"
printf '%s\n' 10 11 12 >"$T/q/a1"; printf '%s\n' 20 21 22 >"$T/q/a2"
printf '%s\n' 30 33 36 >"$T/q/b1"; printf '%s\n' 20 22 21 >"$T/q/b2"
run bench -q -o "$DB" -l k --runs 3 -p thp=a,b -p x=1,2 -- sh "$T/next.sh" "$T/q" '{thp}{x}'
check "a bench of 4 cells, 12 runs" eval 'rc_is 0 && [ "$(sqlite3 "$DB" "SELECT count(*) FROM bench_run WHERE status = '"'ok'"'")" = 12 ]'
# The machine's readings are cleared: the values are the queue's.
sqlite3 "$DB" "UPDATE bench_run SET pulse_int = NULL, pulse_mem = NULL, others_cpu_ns = NULL, steal_ns = NULL"

run report "$DB" --base k:thp=a --new k:thp=b --format json
check "report of two cells of one bench: exit 0" rc_is 0
check "... a row per x, each side's mean its cells' runs', the note on interleaved runs" \
	py "$T/out" "$DB" <<'PY'
import json, sqlite3, statistics as st, sys
d = json.load(open(sys.argv[1]))
db = sqlite3.connect(sys.argv[2])
rows = d["findings"]["metric_lat"]
assert sorted(r["x"] for r in rows) == ["1", "2"] and all("thp" not in r for r in rows), rows
def runs(thp, x):
    return [v for (v,) in db.execute("SELECT m.value FROM run_metric m JOIN bench_run r ON r.id = m.run_id "
        "JOIN bench_cell a ON a.bench_id = r.bench_id AND a.cell = r.cell AND a.name = 'thp' "
        "JOIN bench_cell b ON b.bench_id = r.bench_id AND b.cell = r.cell AND b.name = 'x' "
        "WHERE a.value = ? AND b.value = ?", (thp, x))]
for r in rows:
    a, b = runs("a", r["x"]), runs("b", r["x"])
    assert len(a) == 3 and len(b) == 3 and r["base"] == st.mean(a) and r["new"] == st.mean(b), (r, a, b)
    assert abs(r["change_pct"] - 100 * (st.mean(b) - st.mean(a)) / st.mean(a)) < 1e-9, r
x1 = [r for r in rows if r["x"] == "1"][0]
assert x1["significant"] and x1["verdict"] == "regression", x1
assert any("interleaved in the same sittings" in n for n in d["notes"]), d["notes"]
PY
run report "$DB" --base k:thp=a --new k:thp=b
check "the reproduce command is the bench's: -l k and both parameters" \
	eval 'grep -q "perfdb bench -o .* -l k --runs 3 -p thp=a,b -p x=1,2 " "$T/out"'
run results "$DB" -l k:thp=a --format json
check "results -l k:thp=a: the two x cells of thp=a, labelled k:thp=a" \
	py "$T/out" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))["findings"]["results"]
assert [(r["label"], r["x"], r["median"]) for r in rows] == [("k:thp=a", "1", 11.0), ("k:thp=a", "2", 21.0)], rows
PY
run report "$DB" --base k:thp=a --new k:thp=b --style mmtests --format json
check "--style mmtests: compare-kernels' rows, each cell as worked out here from the runs (x=1 starred)" \
	py "$T/out" "$DB" <<'PY'
import json, math, sqlite3, statistics as st, sys
d = json.load(open(sys.argv[1]))
db = sqlite3.connect(sys.argv[2])
rows = d["findings"]["mmtests"]
def runs(thp, x):
    return sorted(v for (v,) in db.execute("SELECT m.value FROM run_metric m JOIN bench_run r ON r.id = m.run_id "
        "JOIN bench_cell a ON a.bench_id = r.bench_id AND a.cell = r.cell AND a.name = 'thp' "
        "JOIN bench_cell b ON b.bench_id = r.bench_id AND b.cell = r.cell AND b.name = 'x' "
        "WHERE a.value = ? AND b.value = ?", (thp, x)))
def cell(v, pct, star=False):
    return ("%.4f *%7.2f%%*" if star else "%.4f (%7.2f%%)") % (v, pct)
want = []
for x in ("1", "2"):
    a, b = runs("a", x), runs("b", x)       # lower is better: the best are the smallest
    k = max(1, len(a) * 95 // 100)
    stats = [("Amean", st.mean), ("Stddev", st.stdev), ("CoeffVar", lambda v: 100 * st.stdev(v) / st.mean(v)),
             ("Max", max), ("BAmean-95", lambda v: st.mean(v[:max(1, len(v) * 95 // 100)])),
             ("BAmean-99", lambda v: st.mean(v[:max(1, len(v) * 99 // 100)]))]
    for name, f in stats:
        va, vb = f(a), f(b)
        want.append([name, "lat x=" + x, cell(va, 0.0), cell(vb, 100 * (va - vb) / va, name == "Amean" and x == "1")])
want += [["Duration", w, None, None] for w in ("User", "System", "Elapsed")]
got = [[r["stat"], r["metric"], r["base"], r["new"]] for r in rows]
assert [g[:2] for g in got] == [w[:2] for w in want], (got, want)
for g, w in zip(got, want):
    if w[2] is not None:
        assert g[2:] == w[2:], (g, w)
print("# " + " | ".join(got[0]), file=sys.stderr)
PY
run report "$DB" --base k:thp=a --new k:thp=b --style mmtests
check "--style mmtests (md): the labels head the columns, the note says whose test starred" \
	eval 'grep -Eq "^\| +\| +\| k:thp=a +\| k:thp=b +\|$" "$T/out" && grep -q "not mmtests. or 0-day.s rules" "$T/out"'
run report "$DB" --base k:thp=a --new k:thp=b --style lkp --format json
check "--style lkp: 0-day's rows (mean, the stddev only above 2%, %change, metric.cell), as worked out by hand" \
	py "$T/out" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))["findings"]["lkp"]
got = [(r["base"], r["change"], r["new"], r["metric"]) for r in rows]
# x=1: 10 11 12 (mean 11, stddev 1: 9.1%) against 30 33 36 (33, 3: 9.1%): +200%, marked;
# x=2: 20 21 22 against 20 22 21 (21, 1: 4.8%): +0%.
want = [("11 \u00b1  9%", "+200.0% *", "33 \u00b1  9%", "lat.x=1"), ("21 \u00b1  5%", "+0.0%", "21 \u00b1  5%", "lat.x=2")]
assert got == want, got
PY
run report "$DB" --base k:thp=a --new k:thp=b --columns x --format json
check "--columns x: one row, x's values as column groups, the same numbers as the rows of one cell each" \
	py "$T/out" <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))["findings"]
long, piv = f["metric_lat"], f["pivot_lat"]
assert len(piv) == 1, piv
for k, row in enumerate(sorted(long, key=lambda r: r["x"]), 1):
    g = "g%d_" % k
    assert (piv[0][g + "base"], piv[0][g + "new"], piv[0][g + "change_pct"], piv[0][g + "mark"]) == \
        (row["base"], row["new"], row["change_pct"], "*" if row["significant"] and not row["machine_explains"] else ""), (piv, row)
PY
run report "$DB" --base k:thp=a --new k:thp=b --columns x --format text
check "--columns x (text): the pivot's heads, and not the table of one cell a row" \
	eval 'grep -q "x=1 base  *x=1 new  *x=1 %change  *x=1 sig  *x=2 base" "$T/out" && ! grep -Eq "^x +base +%stddev +new +%stddev +%change" "$T/out"'
run report "$DB" --base k:thp=a --new k:thp=b --columns thp
check "--columns naming a parameter the side no longer has (narrowed away): exit 2, one line" \
	eval 'rc_is 2 && [ "$(wc -l <"$T/err")" = 1 ] && grep -q "columns thp: the base.s bench has no such parameter" "$T/err"'
run report "$DB" --base k:nosuch=1 --new k:thp=b
check "a parameter the bench has not: exit 2, one line naming it" \
	eval 'rc_is 2 && [ "$(wc -l <"$T/err")" = 1 ] && grep -q "k:nosuch=1.: no such parameter" "$T/err"'
run report "$DB" --base k:thp=zz --new k:thp=b
check "a value no cell has: exit 2, one line" eval 'rc_is 2 && [ "$(wc -l <"$T/err")" = 1 ] && grep -q "no cell of its bench has those values" "$T/err"'
run report "$DB" --base none:thp=a --new k:thp=b
check "cells of a label without a bench: exit 2, one line" eval 'rc_is 2 && [ "$(wc -l <"$T/err")" = 1 ] && grep -q "has no bench to take cells of" "$T/err"'
run results "$DB" -l k:x
check "results -l LABEL:NAME without =V: exit 2, it says the form" eval 'rc_is 2 && grep -q "a cell is NAME=V" "$T/err"'
tap_end
