#!/bin/sh
# The import's writer thread must store exactly what a synchronous import
# stores: the same rows, ids and values (sessions' import times aside).
set -u
PERFDB=${PERFDB:-$(pwd)/build/perfdb}
SHARED=${PERFDB_SHARED:-../shared}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
n=0
say() { n=$((n + 1)); echo "$1 $n - $2"; }
files=""
if perf record -q -a -g -m 1024 -e sched:sched_switch,tlb:tlb_flush,csd:csd_queue_cpu \
	-o "$tmp/rec.data" -- sleep 0.3 >/dev/null 2>&1; then
	files="$tmp/rec.data"
fi
for f in "$SHARED"/perfdata/*.data; do [ -e "$f" ] && files="$files $f"; done
for f in $files; do
	rm -f "$tmp/a.db" "$tmp/b.db"
	"$PERFDB" import -q -o "$tmp/a.db" "$f" && "$PERFDB" import -q -o "$tmp/a.db" "$f"
	PERFDB_SYNC_WRITES=1 "$PERFDB" import -q -o "$tmp/b.db" "$f" &&
		PERFDB_SYNC_WRITES=1 "$PERFDB" import -q -o "$tmp/b.db" "$f"
	sqlite3 "$tmp/a.db" .dump | grep -v '^INSERT INTO session' > "$tmp/a.sql"
	sqlite3 "$tmp/b.db" .dump | grep -v '^INSERT INTO session' > "$tmp/b.sql"
	rows=$(wc -l < "$tmp/a.sql")
	if [ "$rows" -gt 50 ] && cmp -s "$tmp/a.sql" "$tmp/b.sql"; then
		say ok "threaded and synchronous imports store the same $rows rows: $(basename "$f")"
	else
		say "not ok" "threaded and synchronous imports differ: $(basename "$f")"
		diff "$tmp/a.sql" "$tmp/b.sql" | head -5 | sed 's/^/# /'
	fi
done
