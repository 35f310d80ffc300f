#!/bin/sh
# The README's main job on a fresh machine: installs what perfdb needs,
# builds it, benches the built-in yield workload twice -- threads of one
# process (shared mm) and one process per CPU (private mm), 1 and 2 CPUs,
# 3 bare runs a cell and a recorded run with the sched and profile recipes
# -- into demo.db, prints the results and the machine's pulse per sitting,
# and writes the A/B report of the two
# labels as demo-report.md (with its pictures in demo-report.assets/) and
# demo-report.html.
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
echo "database: $(pwd)/$db  (try: sqlite3 $db 'SELECT * FROM bench_metrics')"
echo "report:   $(pwd)/$report.md and $(pwd)/$report.html"
