#!/bin/sh
# A workload for tests/integration/bench.sh: bench_work.sh LOG A B [MODE]
# prints "metric=work value=V unit=ops/s better=higher a=A b=B" with V a
# random number (different every run) and appends "PPID A B V" to LOG, so
# the test knows what each run printed and which perfdb ran it. MODE:
# fail (exit 3 after printing), nometric (print another line only),
# twice (the metric twice), bad (a non-numeric value), slow (sleep 0.4 s
# first), hang (sleep 30 s first), closed (close stdout and stderr, then
# hang), orphan (leave a 30 s sleep behind holding stdout; its pid goes to
# LOG.orphan), stdin (read stdin to its end first).
log=$1 a=$2 b=$3 mode=${4:-ok}
case $mode in
slow) sleep 0.4 ;;
hang) sleep 30 ;;
closed) exec >&- 2>&-; sleep 30 ;;
orphan) sleep 30 & echo $! >"$log.orphan" ;;
stdin) cat >/dev/null ;;
esac
v=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
case $mode in
nometric) echo "no metric here"; echo "$PPID $a $b -" >>"$log"; exit 0 ;;
bad) echo "metric=work value=x$v"; echo "$PPID $a $b -" >>"$log"; exit 0 ;;
esac
echo "metric=work value=$v unit=ops/s better=higher a=$a b=$b"
[ "$mode" = twice ] && echo "metric=work value=1"
echo "other output of the workload"
echo "$PPID $a $b $v" >>"$log"
[ "$mode" = fail ] && exit 3
exit 0
