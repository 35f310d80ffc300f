#!/bin/sh
# Samples in PLT entries against perf itself: tests/programs/plt_work.c
# calls memccpy through its own PLT and libc's memccpy calls memchr and
# memcpy through libc's (IRELATIVE entries), so a cpu-clock profile made
# here has many samples in both. For each build, every sample whose first
# frame perf puts in a PLT section (.plt, .plt.got, .plt.sec of the
# program and of libc, from readelf -S) has perf's name in perfdb
# (`perf script -F ...,ip,sym,dso`), at least LIBC_MIN of libc's (and,
# where its entries have names, MIN of the program's) are named NAME@plt
# where perf names them so (a recording with fewer to perf itself is made
# again, longer: see run), and every frame perf resolves has perf's
# symbol (lib/perfdb_oracle.py chains --syms):
#   a  stripped (-s): only .dynsym, which defines stderr (a copy
#      relocation): the program's entries are memccpy@plt, ...
#   b  unstripped: perf 6.1 has extended the size-0 _init over .plt
#      before it adds the PLT symbols, and names the program's entries
#      _init; perfdb must say the same
#   c  stripped, built for IBT (-fcf-protection -z ibtplt): calls go
#      through .plt.sec, which perf 6.1 leaves [unknown]
#   d  stripped, --call-graph dwarf
# Prints TAP lines. Run from the repository root: sh tests/integration/plt.sh
# Env: PERFDB (default ./build/perfdb), PLT_ITERATIONS (default
# 300000000, about 2 s: a count, not a duration), PLT_PERIOD (cpu-clock
# period in ns, default 100000), PLT_MIN (default 25) and PLT_LIBC_MIN
# (default 10).
. "$(dirname "$0")/lib/setup.sh"
SRC=$(pwd)/tests/programs/plt_work.c
ITER=${PLT_ITERATIONS:-300000000}
PERIOD=${PLT_PERIOD:-100000}
MIN=${PLT_MIN:-25}
LIBC_MIN=${PLT_LIBC_MIN:-10}
trap 'exit 130' INT TERM

for c in perf python3 gcc readelf; do
	if ! command -v $c >/dev/null 2>&1; then
		skip "plt: $c is not installed"
		tap_end
	fi
done
if [ ! -x "$PERFDB" ]; then
	not_ok "perfdb binary $PERFDB exists (make -s first)"
	tap_end
fi
if ! perf record -q -e cpu-clock -o "$T/probe.data" -- true >"$T/probe.err" 2>&1; then
	skip "plt: perf record -e cpu-clock fails here: $(head -1 "$T/probe.err")"
	tap_end
fi

# plt_ranges FILE: "--range FILE:OFFSET:SIZE" for each PLT section of
# FILE, at its file offsets (what perf prints for a user frame).
plt_ranges() {
	readelf -SW "$1" | sed 's/^ *\[ *[0-9]*\] *//' |
		awk -v f="$1" '$1 ~ /^\.plt/ { printf " --range %s:%s:%s", f, $4, $5 }'
}

# record LABEL BINARY ITERATIONS PERF-RECORD-OPTIONS...: records BINARY
# into $T/LABEL.data and has perf script print it as $T/LABEL.cc; false
# (saying why, as a failed check) when perf cannot.
record() {
	label=$1 bin=$2 iters=$3; shift 3
	if ! perf record -q -e cpu-clock -c "$PERIOD" "$@" -o "$T/$label.data" -- "$bin" "$iters" \
		>/dev/null 2>"$T/rec.err"; then
		not_ok "$label: perf record $* exits 0 ($(head -1 "$T/rec.err"))"
		return 1
	fi
	if ! perf script --no-inline --max-stack 65535 -i "$T/$label.data" \
		-F pid,tid,time,event,ip,sym,symoff,dso >"$T/$label.cc" 2>"$T/ps.err"; then
		not_ok "$label: perf script reads the profile ($(head -1 "$T/ps.err"))"
		return 1
	fi
}

# run LABEL BINARY PERF-RECORD-OPTIONS...: records BINARY, imports it and
# checks it; the program's own PLT must have MIN NAME@plt samples when
# OWN_MIN=yes, libc's LIBC_MIN. Where samples fall is up to the machine
# (one EPYC guest put 0.05% of them on libc's PLT jumps, another up to 4%), so
# a recording where perf itself names fewer is made again with twice the
# iterations, up to 4x: the minimums then check perfdb, not the sampling.
run() {
	label=$1 bin=$2; shift 2
	iters=$ITER
	while :; do
		record "$label" "$bin" "$iters" "$@" || return
		libc=$(sed -n 's/.* (\(\/[^()]*\/libc\.so\.6\))$/\1/p' "$T/$label.cc" | head -1)
		if [ -z "$libc" ]; then
			not_ok "$label: perf script shows frames in libc.so.6"
			return
		fi
		ranges="$(plt_ranges "$bin") $(plt_ranges "$libc")"
		mins="--min $libc:$LIBC_MIN"
		[ "$OWN_MIN" = yes ] && mins="$mins --min $bin:$MIN"
		# shellcheck disable=SC2086 # the ranges and minimums are word lists
		python3 "$LIB/perfdb_oracle.py" plt-perf "$T/$label.cc" cpu-clock $ranges $mins >"$T/count" &&
			break
		[ "$iters" -ge $((ITER * 4)) ] && break
		echo "# $label: $iters iterations: $(sed 's/^# //' "$T/count"); again with $((iters * 2))"
		iters=$((iters * 2))
	done
	cat "$T/count"
	ok "$label: perf record -e cpu-clock -c $PERIOD $* around $(basename "$bin") ($iters iterations)"
	if ! "$PERFDB" import -q -o "$T/$label.db" "$T/$label.data" 2>"$T/imp.err"; then
		not_ok "$label: perfdb import exits 0 ($(head -1 "$T/imp.err"))"
		return
	fi
	ok "$label: perfdb import exits 0"
	# shellcheck disable=SC2086 # the ranges and minimums are word lists
	oracle plt "$T/$label.db" 1 "$T/$label.cc" "$label" $ranges $mins
	oracle chains "$T/$label.db" 1 "$T/$label.cc" "$label" --cols pid,tid,time --syms
	rm -f "$T/$label".*
}

# build NAME GCC-OPTIONS...: builds plt_work as $T/NAME; false (saying
# why) when gcc cannot.
build() {
	name=$1; shift
	if gcc -O2 "$@" -o "$T/$name" "$SRC" 2>"$T/cc.err"; then
		return 0
	fi
	echo "# gcc $* cannot build plt_work: $(head -1 "$T/cc.err")"
	return 1
}

if build plt_work_s -s; then
	OWN_MIN=yes run a "$T/plt_work_s" -g
else
	not_ok "a: gcc -O2 -s builds $SRC"
fi
if build plt_work -g0; then
	OWN_MIN=no run b "$T/plt_work" -g
else
	not_ok "b: gcc -O2 builds $SRC"
fi
if build plt_work_ibt -s -fcf-protection=full -Wl,-z,ibtplt &&
	readelf -SW "$T/plt_work_ibt" | grep -q '\.plt\.sec'; then
	OWN_MIN=no run c "$T/plt_work_ibt" -g
else
	skip "c: this gcc/ld makes no .plt.sec (-fcf-protection -z ibtplt)"
fi
[ -x "$T/plt_work_s" ] && OWN_MIN=yes run d "$T/plt_work_s" --call-graph dwarf
tap_end
