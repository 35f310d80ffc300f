#!/bin/sh
# Runs every ```sql block of README.md against a database made from a fresh
# recording: each must run without error and return at least one row.
set -u
PERFDB=${PERFDB:-$(pwd)/build/perfdb}
B=${PERFDB_BUILD:-build}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
n=0
say() { n=$((n + 1)); echo "$1 $n - $2"; }
ev=sched:sched_switch,tlb:tlb_flush,csd:csd_queue_cpu
if ! perf record -q -a -m 1024 -e "$ev" -o "$tmp/r.data" -- "$B/workloads/tlbflush" --seconds 0.3 >/dev/null 2>&1; then
	say ok "# SKIP perf record failed"; exit 0
fi
"$PERFDB" import -q -o "$tmp/r.db" "$tmp/r.data" || { say "not ok" "import"; exit 1; }
# a small bench too, for the bench queries
"$PERFDB" bench -q -o "$tmp/r.db" -l readme --runs 2 -p cpus=1,2 -- "$B/workloads/yield" --cpus '{cpus}' --seconds 0.05 \
	>/dev/null 2>&1 || { say "not ok" "bench"; exit 1; }
awk -v dir="$tmp" '/^```sql/ { n++; f = dir "/q" n ".sql"; on = 1; next }
	/^```/ { on = 0 } on { print > f }' README.md
count=0
for q in "$tmp"/q*.sql; do
	[ -e "$q" ] || continue
	count=$((count + 1))
	title=$(head -1 "$q" | sed 's/^-- //')
	out=$(sqlite3 -bail "$tmp/r.db" < "$q" 2>&1)
	if [ $? -eq 0 ] && [ -n "$out" ] && ! echo "$out" | grep -q '^Error'; then
		say ok "README query: $title"
	else
		say "not ok" "README query: $title"; echo "$out" | sed 's/^/# /' | head -5
	fi
done
[ "$count" -ge 3 ] && say ok "README has $count SQL examples" || say "not ok" "README has only $count SQL examples"
