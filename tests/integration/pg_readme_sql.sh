#!/bin/sh
# The README's SQL examples run unchanged on PostgreSQL too: the
# recording and bench of readme_sql.sh, pushed to a throwaway PostgreSQL
# 15 cluster (tests/integration/lib/pgcluster.sh), and every ```sql block
# of README.md run with psql and with sqlite3; each must run without error
# on both and give the same rows (compared as sorted sets of lines after
# one rule: a real number is printed with its trailing .0 and zeros
# dropped on both, since sqlite3 prints 12.0 where PostgreSQL's numeric
# prints 12; LIMIT queries with ties may pick other rows, so for those the
# row count is compared). Where the kernel flushes other CPUs' TLBs
# without IPIs (lib/flush_ipis.sh on the recording), the fleet query of
# flush IPIs has no row on either engine, and perfdb ipis's rate is null:
# those checks say so instead. Run from the repository root.
set -u
. "$(dirname "$0")/lib/setup.sh"
. tests/integration/lib/pgcluster.sh
. tests/integration/lib/flush_ipis.sh
at_exit pg_stop
for tool in perf sqlite3 psql; do
	command -v $tool >/dev/null 2>&1 || { skip "no $tool here"; tap_end; }
done
pg_start_or_end "$T/pg"
ev=sched:sched_switch,sched:sched_wakeup,tlb:tlb_flush,csd:csd_queue_cpu
if ! perf record -q -a -m 1024 -e "$ev" -o "$T/r.data" -- "$B/workloads/tlbflush" --seconds 0.3 >/dev/null 2>&1; then
	skip "perf record failed"; tap_end
fi
"$PERFDB" import -q -o "$T/r.db" "$T/r.data" || { not_ok "import"; tap_end; }
seen=$(flush_ipis_of "$T/r.data")
csdq=$(perf script -i "$T/r.data" -F event 2>/dev/null | grep -c 'csd:csd_queue_cpu')
[ "${seen%% *}" = unseen ] && echo "# no flush IPI in perf script's text of the recording ($seen): this kernel flushes without IPIs"
"$PERFDB" bench -q -o "$T/r.db" -l readme --runs 2 -p cpus=1,2 -- "$B/workloads/yield" --cpus '{cpus}' --seconds 0.05 \
	>/dev/null 2>&1 || { not_ok "bench"; tap_end; }
"$PERFDB" push "$T/r.db" --to "$PGCONN" >/dev/null || { not_ok "push"; tap_end; }
awk -v dir="$T" '/^```sql/ { n++; f = dir "/q" n ".sql"; on = 1; next }
	/^```/ { on = 0 } on { print > f }' README.md
norm() { sed -E ':a; s/(^|\|)(-?[0-9]+)\.0+(\||$)/\1\2\3/; ta; :b; s/(^|\|)(-?[0-9]+\.[0-9]*[1-9])0+(\||$)/\1\2\3/; tb' | sort; }
count=0
for q in "$T"/q*.sql; do
	[ -e "$q" ] || continue
	count=$((count + 1))
	title=$(head -1 "$q" | sed 's/^-- //')
	lite=$(sqlite3 -bail "$T/r.db" < "$q" 2>&1); lrc=$?
	pg=$(psql -X -q -A -t -v ON_ERROR_STOP=1 "$PGCONN" -f "$q" 2>&1); prc=$?
	if [ $prc -eq 0 ] && [ $lrc -eq 0 ] && [ -z "$pg" ] && [ -z "$lite" ] && [ "${seen%% *}" = unseen ] &&
		echo "$title" | grep -q '^Fleet: TLB-flush IPIs'; then
		skip "README query on PostgreSQL: $title: no row on either engine, as there is no flush IPI on this machine (oracle: $seen)"
		continue
	fi
	if [ $prc -eq 0 ] && [ $lrc -eq 0 ] && [ -z "$pg" ] && [ -z "$lite" ] && [ "$csdq" = 0 ] &&
		echo "$title" | grep -q '^Which functions queue'; then
		skip "README query on PostgreSQL: $title: no row on either engine, as perf script shows no csd_queue_cpu in the recording"
		continue
	fi
	if [ $prc -ne 0 ] || [ -z "$pg" ]; then
		not_ok "PostgreSQL runs README query: $title"; echo "$pg" | sed 's/^/# /' | head -5; continue
	fi
	[ $lrc -eq 0 ] || { not_ok "sqlite3 runs README query: $title"; continue; }
	if grep -qi 'limit' "$q"; then
		[ "$(echo "$lite" | wc -l)" = "$(echo "$pg" | wc -l)" ] && same=1 || same=0
	else
		[ "$(echo "$lite" | norm)" = "$(echo "$pg" | norm)" ] && same=1 || same=0
	fi
	if [ $same = 1 ]; then
		ok "README query on PostgreSQL, the same rows as on SQLite: $title"
	else
		not_ok "README query on PostgreSQL, the same rows as on SQLite: $title"
		echo "$lite" | norm | head -3 | sed 's/^/# sqlite: /'; echo "$pg" | norm | head -3 | sed 's/^/# pg:     /'
	fi
done
# the first fleet query's IPI rate against perfdb ipis on the same session
fq=$(grep -l -- '-- Fleet: TLB-flush IPIs' "$T"/q*.sql | head -1)
if [ -n "$fq" ] && [ "${seen%% *}" = unseen ]; then
	"$PERFDB" ipis "$T/r.db" --format json >"$T/ipis.json" 2>/dev/null
	python3 -c 'import json, sys; f = json.load(open(sys.argv[1]))["findings"]
sys.exit(not (f["flush_ipis_visible"] is False and f["ipis_per_sec"] is None))' "$T/ipis.json" &&
		ok "no flush IPI here ($seen): perfdb ipis says they cannot be seen, its rate null, as the fleet query has no row" ||
		not_ok "no flush IPI here ($seen): perfdb ipis says they cannot be seen, its rate null, as the fleet query has no row"
elif [ -n "$fq" ]; then
	fleet=$(psql -X -q -A -t -v ON_ERROR_STOP=1 "$PGCONN" -f "$fq" | cut -d'|' -f4)
	ipis=$("$PERFDB" ipis "$T/r.db" --format json 2>/dev/null | python3 -c 'import json, sys; print("%.1f" % json.load(sys.stdin)["findings"]["ipis_per_sec"])')
	[ -n "$fleet" ] && [ "$fleet" = "$ipis" ] && ok "the fleet query's flush IPIs per second ($fleet) are perfdb ipis's ($ipis)" ||
		not_ok "the fleet query's flush IPIs per second ($fleet) are perfdb ipis's ($ipis)"
fi
[ "$count" -ge 3 ] && ok "README has $count SQL examples" || not_ok "README has only $count SQL examples"
tap_end
