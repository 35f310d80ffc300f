#!/bin/sh
# The README's main job on a fresh machine: installs what perfdb needs,
# builds it, benches the built-in yield workload twice -- threads of one
# process (shared mm) and one process per CPU (private mm), 1 and 2 CPUs,
# 3 bare runs a cell and a recorded run with the sched and profile recipes
# -- into demo.db, prints the results and the machine's pulse per sitting,
# and writes the A/B report of the two
# labels as demo-report.md (with its pictures in demo-report.assets/) and
# demo-report.html. As root, where THP can be set: a real A/B of this
# kernel too -- the built-in faults workload with THP enabled=never
# against always, swept by --set inside one sitting (interleaved, 3 runs a
# cell and one recorded with the profile recipe), its report
# demo-thp-report.md and .html: the per-fault latency change with its
# interval and the call-graph evidence; the THP setting is put back.
set -eu
cd "$(dirname "$0")/.."
if [ "${PERFDB_SKIP_DEPS:-}" != 1 ]; then
	sh .ci/deps.sh --if-missing >/dev/null
fi
make -s -j2
db=${PERFDB_DEMO_DB:-demo.db}
seconds=${PERFDB_DEMO_SECONDS:-0.5}
rm -f "$db"
for mm in shared private; do
	./build/perfdb bench -o "$db" -l $mm --runs 3 -p cpus=1,2 -r sched,profile --record-every 3 \
		-- yield --cpus '{cpus}' --$mm-mm --seconds "$seconds"
done
./build/perfdb results "$db" --table results
./build/perfdb results "$db" --table sittings
report=${db%.db}-report
./build/perfdb report "$db" --base shared --new private -o "$report.md"
./build/perfdb report "$db" --base shared --new private --format html -o "$report.html"
thp=/sys/kernel/mm/transparent_hugepage/enabled
if [ "$(id -u)" = 0 ] && [ -w "$thp" ]; then
	./build/perfdb bench -o "$db" -l thp --runs 3 -p thp=never,always --set "$thp={thp}" \
		-r profile --record-every 3 -- faults --size 128M --fragment 256M
	./build/perfdb report "$db" --base thp:thp=never --new thp:thp=always -o "${db%.db}-thp-report.md"
	./build/perfdb report "$db" --base thp:thp=never --new thp:thp=always --format html \
		-o "${db%.db}-thp-report.html"
	echo "THP A/B:  $(pwd)/${db%.db}-thp-report.md and .html (THP enabled is back to: $(cat "$thp"))"
else
	echo "THP A/B:  left out (it sets $thp: root, and a kernel with THP)"
fi
echo "database: $(pwd)/$db  (try: sqlite3 $db 'SELECT * FROM bench_metrics')"
echo "report:   $(pwd)/$report.md and $(pwd)/$report.html"
