#!/bin/sh
# The tools' formats of --parse (collect/parse/fmt_{perf_bench,hackbench,
# stress_ng,fio}.c) over what the real tools print here and now: each
# tool runs a second or two (skipped, one skip a tool, where it is not
# installed or cannot run), tests/tools/parse_file reads its output, and
# every metric it yields is compared with the tool's own number, taken out
# of the output independently: by awk from perf bench's, hackbench's and
# stress-ng's lines (mem's rates converted with perf's units, 1024's) and
# its YAML file, by python3's json from fio's report. A format must yield
# exactly the metrics the oracle finds, no more.
set -u
. "$(dirname "$0")/lib/setup.sh"
PF=$B/tests/tools/parse_file
if [ ! -x "$PF" ]; then
	not_ok "$PF is missing (run make first)"
	exit 1
fi

# compare WHAT PARSED WANTED: each "NAME VALUE" line of WANTED is a metric
# of PARSED (parse_file's output) of the same value (as doubles; with
# "NAME VALUE TOL", within TOL), and PARSED has no other metric.
compare() {
	awk -v what="$1" '
	FILENAME == ARGV[1] { if ($1 == "metric") got[$2] = $3; next }
	{ want[$1] = $2; tol[$1] = NF > 2 ? $3 : 0 }
	END {
		for (m in want) {
			if (!(m in got)) { bad = bad " " m " missing"; continue }
			d = got[m] - want[m]
			if (d < 0) d = -d
			if (d > tol[m]) bad = bad " " m "=" got[m] " (the tool: " want[m] ")"
			n++
		}
		for (m in got) if (!(m in want)) bad = bad " " m " not the tool'"'"'s"
		if (bad != "" || n == 0) { printf "not ok - %s:%s\n", what, bad; exit 1 }
		printf "ok - %s: %d metrics as the tool printed them\n", what, n
	}' "$2" "$3" >"$T/cmp"
	case $(cat "$T/cmp") in
	"ok - "*) ok "$(sed 's/^ok - //' "$T/cmp")" ;;
	*) not_ok "$(sed 's/^not ok - //' "$T/cmp")"; sed 's/^/#   /' "$2" | head -20 ;;
	esac
}

# parsed FORMAT OUT ARGV...: parse_file's output of OUT for ARGV, in $T/parsed; 0 when it parsed.
parsed() {
	f=$1 out=$2
	shift 2
	"$PF" "$f" "$out" -- "$@" >"$T/parsed" 2>"$T/err" && return 0
	not_ok "parse_file $f $(basename "$out") -- $*: $(cat "$T/err")"
	return 1
}

# --- perf bench -----------------------------------------------------------------
# the oracle of the default format: NAME VALUE per result line
perf_oracle() {
	awk '
	/Total time:/ { printf "seconds %.17g\n", $3 }
	$2 == "usecs/op" { printf "usecs_per_op %.17g\n", $1 }
	$2 == "ops/sec" { printf "ops_per_sec %.17g\n", $1 }
	/^Averaged [0-9]+ operations\/sec/ { printf "ops_per_sec %.17g\n", $2 }
	/^# function / { f = $3; gsub("'"'"'", "", f) }
	$2 ~ /^([KMG]B|bytes)\/sec$/ {
		# (perf prints KB/sec as "%lfd": awk reads the number before the d)
		m = $2 == "KB/sec" ? 1024 : $2 == "MB/sec" ? 1048576 : $2 == "GB/sec" ? 1073741824 : 1
		r[++n] = f; val[n] = $1 * m
	}
	END { for (i = 1; i <= n; i++) printf "%s%s %.17g\n", (n > 1 ? r[i] "." : ""), "bytes_per_sec", val[i] }' "$1"
}

if ! command -v perf >/dev/null 2>&1 || ! perf bench sched pipe -l 10 >/dev/null 2>&1; then
	skip "perf bench is not installed or does not run"
else
	for b in "sched pipe -l 5000" "sched messaging -g 1 -l 20" "futex hash -r 1 -t 2 -s" \
		"mem memcpy -s 1MB -l 5" "mem memset -f default -s 4MB"; do
		# shellcheck disable=SC2086 # the benchmark's words
		perf bench $b >"$T/out" 2>/dev/null
		perf_oracle "$T/out" >"$T/want"
		# shellcheck disable=SC2086
		parsed perf-bench "$T/out" perf bench $b && compare "perf bench $b" "$T/parsed" "$T/want"
	done
	# --format=simple: one number, the seconds or the bytes/sec
	perf bench --format=simple sched pipe -l 5000 >"$T/out" 2>/dev/null
	awk 'NF == 1 { printf "seconds %.17g\n", $1 }' "$T/out" >"$T/want"
	parsed perf-bench "$T/out" perf bench --format=simple sched pipe -l 5000 &&
		compare "perf bench --format=simple sched pipe" "$T/parsed" "$T/want"
	perf bench --format=simple mem memset -f default -s 4MB >"$T/out" 2>/dev/null
	awk '/^[0-9.]+$/ { printf "bytes_per_sec %.17g\n", $1 }' "$T/out" >"$T/want"
	parsed perf-bench "$T/out" perf bench --format=simple mem memset -f default -s 4MB &&
		compare "perf bench --format=simple mem memset" "$T/parsed" "$T/want"
fi

# --- hackbench --------------------------------------------------------------------
if ! command -v hackbench >/dev/null 2>&1; then
	skip "hackbench (rt-tests) is not installed"
else
	hackbench -g 2 -l 100 >"$T/out" 2>/dev/null
	awk '$1 == "Time:" { printf "seconds %.17g\n", $2 }' "$T/out" >"$T/want"
	parsed hackbench "$T/out" hackbench -g 2 -l 100 && compare "hackbench -g 2 -l 100" "$T/parsed" "$T/want"
fi

# --- stress-ng --------------------------------------------------------------------
# its YAML file, read by awk: STRESSOR.NAME VALUE for the two rates and
# the keys past the common ones
yaml_oracle() {
	awk '
	$1 == "-" && $2 == "stressor:" { s = $3; next }
	s != "" && /^      [a-z0-9-]+: / {
		k = $1; sub(/:$/, "", k)
		if (k ~ /^(bogo-ops|wall-clock-time|user-time|system-time|cpu-usage-per-instance|max-rss)$/) next
		if (k == "bogo-ops-per-second-real-time") k = "bogo_ops_per_sec_real"
		if (k == "bogo-ops-per-second-usr-sys-time") k = "bogo_ops_per_sec_cpu"
		printf "%s.%s %.17g\n", s, k, $2
	}
	/^[^ -]/ { s = "" }' "$1"
}
# its stdout, rounded to 2 decimals: the same rates (columns 9 and 10 of
# a stressor's metrc line) and the misc metric of switch
stdout_oracle() {
	awk '
	$2 == "metrc:" && $4 ~ /^[a-z]/ && NF == 12 && $5 ~ /^[0-9]+$/ {
		printf "%s.bogo_ops_per_sec_real %s 0.0051\n%s.bogo_ops_per_sec_cpu %s 0.0051\n", $4, $9, $4, $10
	}
	$2 == "metrc:" && $4 == "switch" && $6 == "nanosecs" {
		printf "switch.nanosecs-per-context-switch-pipe-method %s 0.0051\n", $5
	}' "$1"
}
if ! command -v stress-ng >/dev/null 2>&1; then
	skip "stress-ng is not installed"
else
	set -- stress-ng --cpu 1 --switch 1 --timeout 1 --metrics --yaml "$T/s.yaml"
	"$@" >"$T/out" 2>&1
	yaml_oracle "$T/s.yaml" >"$T/want"
	stdout_oracle "$T/out" >"$T/want2"
	if parsed stress-ng /dev/null "$@"; then
		compare "stress-ng --cpu 1 --switch 1, its YAML file" "$T/parsed" "$T/want"
		compare "stress-ng --cpu 1 --switch 1, its printed columns (2 decimals)" "$T/parsed" "$T/want2"
	fi
fi

# --- fio ---------------------------------------------------------------------------
if ! command -v fio >/dev/null 2>&1 || ! command -v python3 >/dev/null 2>&1; then
	skip "fio (or python3, its oracle) is not installed"
else
	set -- fio --name=mixed --filename="$T/fio.dat" --rw=randrw --rwmixread=70 --bs=4k --size=8M \
		--runtime=1 --time_based --ioengine=psync --output-format=json
	"$@" >"$T/out" 2>/dev/null
	python3 - "$T/out" >"$T/want" <<'PY' || not_ok "python3 could not read fio's report"
import json, sys
text = open(sys.argv[1]).read()
doc = json.loads(text[text.index('\n{') + 1:] if not text.startswith('{') else text)
for job in doc['jobs']:
    for d in ('read', 'write', 'trim'):
        x = job[d]
        if x['io_bytes'] == 0:
            continue
        clat = x['clat_ns']
        rows = [('iops', x['iops']), ('bw_bytes', x['bw_bytes']), ('clat_mean_us', clat['mean'] / 1000)]
        for key, v in clat.get('percentile', {}).items():
            if float(key) in (50, 99):
                rows.append(('clat_p%d_us' % float(key), v / 1000))
        for what, v in rows:
            print('%s.%s.%s %r' % (job['jobname'], d, what, float(v)))
PY
	parsed fio "$T/out" "$@" && compare "fio randrw: iops, bw_bytes, clat per direction" "$T/parsed" "$T/want"
fi
[ "$failed" -eq 0 ]
