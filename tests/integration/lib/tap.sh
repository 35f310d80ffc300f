# TAP helpers for the integration tests (sourced, POSIX sh).
# ok/not_ok/skip print numbered TAP lines; check runs a command (on a
# failure showing the last lines of $TAP_ERR, when set); tap_end prints
# the plan and exits (1 when a check failed);
# tap_results numbers the "ok - X" / "not ok - X" / "skip - X # why" lines
# that lib/perfdb_oracle.py prints and passes "# ..." comments through.
# A test ends with: [ "$failed" -eq 0 ] (its exit status).
n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $*"; }
skip() { n=$((n + 1)); echo "ok $n - # SKIP $*"; }
check() { # check DESCRIPTION COMMAND...: ok if COMMAND succeeds
	desc=$1; shift
	if "$@"; then ok "$desc"; else
		not_ok "$desc"
		if [ -n "${TAP_ERR:-}" ]; then sed 's/^/#   /' "$TAP_ERR" 2>/dev/null | tail -4; fi
	fi
}
tap_end() { echo "1..$n"; [ "$failed" -eq 0 ] && exit 0; exit 1; }

# tap_results FILE: numbers the result lines in FILE; a line that is none
# of those (a traceback, say) makes one failure, shown as comments.
tap_results() {
	_bad=0
	while IFS= read -r _l; do
		case "$_l" in
		"ok - "*) ok "${_l#ok - }" ;;
		"not ok - "*) not_ok "${_l#not ok - }" ;;
		"skip - "*) _w=${_l#skip - }; n=$((n + 1)); echo "ok $n - ${_w%% \# *} # SKIP ${_w#* \# }" ;;
		"#"*) echo "$_l" ;;
		*) echo "# $_l"; _bad=1 ;;
		esac
	done <"$1"
	if [ $_bad -ne 0 ]; then not_ok "oracle output of $1 has unexpected lines (see above)"; fi
}

# oracle SUBCOMMAND ARGS...: runs lib/perfdb_oracle.py and numbers its results.
oracle() {
	python3 "$LIB/perfdb_oracle.py" "$@" >"$T/oracle.out" 2>&1
	_rc=$?
	tap_results "$T/oracle.out"
	if [ $_rc -ne 0 ]; then not_ok "perfdb_oracle.py $1 exited $_rc"; fi
}
