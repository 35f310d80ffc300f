# The oracle of whether this machine's hardware write-watchpoints fire,
# one perfdb takes no part in (sourced, POSIX sh): perf stat's own
# watchpoint on the variable of tests/quirk/bpwrite, which writes it 1000
# times. Some machines accept watchpoints and never fire them: there it
# counts 0. Needs $B (the build directory).
# bp_caught [PRELOAD]: how many of the 1000 writes perf stat counted (a
# few more where the loader clears the variable's page), with PRELOAD in
# LD_PRELOAD when given; "" when perf cannot open the watchpoint.
bp_caught() {
	_q=$B/tests/quirk
	_a=0x$(nm "$_q/bpwrite" 2>/dev/null | awk '$3 == "bp_target" { print $1 }')
	env ${1:+LD_PRELOAD=$1} perf stat -x, -e "mem:$_a/8:w" -- "$_q/bpwrite" 1000 2>&1 >/dev/null |
		awk -F, '/mem:/ && $1 ~ /^[0-9]+$/ { print $1 }'
}
