#!/bin/sh
# What a user reads at the prompt (#28), every verb:
#  - Every line perfdb prints on stderr while a verb runs starts with
#    "perfdb VERB: ", also the lines made below builtin/ (collect/,
#    schema/, reports/, lib/), which do not know the verb: no string of
#    theirs starts "perfdb: ", and record and import, made to succeed and
#    fail in several ways, print no line of their own without the verb
#    (perf's "[ perf record: ...]" lines are perf's).
#  - A mistyped verb or option gets the nearest ones in one line, exit 1,
#    nothing on stdout: perfdb shed (sched), perfdb --verison (--version),
#    perfdb sched --formt (--format), perfdb tree --slef (--self), perfdb
#    help shed; one near nothing (perfdb --bogus, perfdb frobnicate, perfdb
#    sched --bogus) says what it is without guessing.
#  - Usage errors come before the database is opened: every verb whose
#    every synopsis form needs an option or an operand (one outside
#    brackets: report's --base/--new, cgdiff's, push's --to, pull's --from,
#    bench's -l, record's CMD, import's FILE), run without them on a
#    database in a directory that does not exist, exits 1 with one line
#    that does not name the database; so do sched's --time and --latency
#    with --base/--new, and push's --to that libpq cannot read.
#  - The usage lines agree with the option tables, every verb: each option
#    written with its choices in a synopsis (--format md|html|json, --per
#    run|second|op) or in --help's options list names exactly the choices
#    of its table (read from the bash completion, which is generated from
#    the tables), and only choice options are written so; the README's
#    synopses too.
#  - -n means one thing everywhere: every verb that renders a findings
#    document (its options list has --tables), but doctor (a table as long
#    as its checks), has -n, --rows ROWS "at most ROWS rows in each long
#    table (TABLES...)", and its synopsis says [-n ROWS]; no other verb
#    takes -n. (verbs.sh checks what -n 1 keeps, on recorded sessions.)
# Prints TAP lines. Run from the repository root: sh tests/integration/prompt.sh
# Env: PERFDB (default $PWD/build/perfdb), PERFDB_BUILD (default build).
# shellcheck disable=SC2016,SC2154 # eval'd checks expand late; n, failed: lib/tap.sh
. "$(dirname "$0")/lib/setup.sh"
W=$(pwd)/$B/workloads

# --- every line on stderr names its verb -----------------------------------------
hits=$(grep -rnE '"(\\r)?perfdb: ' --include='*.c' collect analyze schema reports lib builtin)
[ -z "$hits" ] && ok "no message made below perfdb.c starts 'perfdb: ' (the verb is named)" ||
	{ not_ok "messages start 'perfdb: ' without the verb"; echo "$hits" | sed 's/^/# /' | head; }

# verb_lines VERB ARGS...: runs perfdb VERB ARGS in $T/run; ok when every
# line it printed on stderr, but perf's own, starts "perfdb VERB: ".
verb_lines() {
	_v=$1
	rm -rf "$T/run" && mkdir "$T/run"
	(cd "$T/run" && "$PERFDB" "$@" >/dev/null 2>"$T/err")
	_rc=$?
	_bad=$(grep -v -e "^perfdb $_v: " -e '^\[ perf record: ' "$T/err")
	if [ -s "$T/err" ] && [ -z "$_bad" ]; then
		ok "perfdb $*: exit $_rc, every line of its own starts 'perfdb $_v: '"
	else
		not_ok "perfdb $*: exit $_rc, lines without 'perfdb $_v: '"
		printf '%s\n' "${_bad:-(nothing on stderr)}" | sed 's/^/#   /' | head -5
	fi
}
echo "not a recording" >"$T/junk.data"
mkdir "$T/adir"
verb_lines record -o r.db -r sched -- true
verb_lines record -o r.db -r profile -- sh -c 'exit 3'
verb_lines record -o r.db -- /nonexistent/program
verb_lines record -o r.db --perf-data r.db -- true
verb_lines record -o "$T/adir" -- true
verb_lines record -o r.db -C 4095 -- true
verb_lines import -o i.db "$T/junk.data"
verb_lines import -o i.db /nonexistent.data
verb_lines import -o "$T/adir" "$T/junk.data"
verb_lines import -o i.db --kallsyms /nonexistent "$T/junk.data"
if "$PERFDB" record -q -o "$T/k.db" --perf-data "$T/k.data" -r sched -- true >/dev/null 2>&1; then
	verb_lines import -o i.db "$T/k.data"
	verb_lines import -o i.db -l x --btf "$T/junk.data" "$T/k.data"
else
	skip "import of a recording: perf cannot record here"
fi

# --- did you mean -----------------------------------------------------------------
# usage_line WANT_REGEX ARGS...: perfdb ARGS exits 1, one line matching
# WANT_REGEX on stderr, nothing on stdout.
usage_line() {
	_want=$1; shift
	(cd "$T" && "$PERFDB" "$@" >"$T/out" 2>"$T/err")
	_rc=$?
	if [ $_rc -eq 1 ] && [ ! -s "$T/out" ] && [ "$(wc -l <"$T/err")" -eq 1 ] && grep -qE "$_want" "$T/err"; then
		ok "perfdb $*: exit 1, one line: $(cat "$T/err")"
	else
		not_ok "perfdb $*: exit $_rc, wanted one line matching: $_want"
		sed 's/^/#   /' "$T/err" | head -3
	fi
}
usage_line "^perfdb: 'shed' is not a perfdb verb: did you mean 'sched'\?\$" shed
usage_line "^perfdb: 'shed' is not a perfdb verb: did you mean 'sched'\?\$" help shed
usage_line "^perfdb: 'recrod' is not a perfdb verb: did you mean 'record'\?\$" recrod -o x.db -- true
usage_line "^perfdb: unknown option '--verison': did you mean '--version'\?\$" --verison
usage_line "^perfdb: unknown option '--bogus' \(perfdb takes a verb, --help or --version" --bogus
usage_line "^perfdb: 'frobnicate' is not a perfdb verb \(perfdb --help lists them\)\$" frobnicate
usage_line "^perfdb sched: unknown option '--formt': did you mean '--format'\?\$" sched --formt md
usage_line "^perfdb tree: unknown option '--slef': did you mean '--self'\?\$" tree --slef
usage_line "^perfdb bench: unknown option '--rusn': did you mean '--runs'\?\$" bench --rusn 3 -l x -- true
usage_line "^perfdb sched: unknown option '--bogus'\$" sched --bogus

# --- usage errors before the database --------------------------------------------
cat >"$T/required.py" <<'PY'
"""required.py PERFDB NODB: for every verb whose every synopsis form
needs an option or an operand, "VERB DB-placement" with nothing else
exits 1, one line, not naming the database. Prints ok/not ok lines."""
import re, subprocess, sys

perfdb, nodb = sys.argv[1], sys.argv[2]


def run(args):
    p = subprocess.run([perfdb] + args, capture_output=True, stdin=subprocess.DEVNULL, timeout=60)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def forms(verb):
    """The synopsis forms of verb's --help, continuation lines joined."""
    out = []
    for line in run([verb, '--help'])[1].splitlines():
        if not line.strip():
            break
        m = re.match(r'^\s*(?:usage:|or:)\s+(.*)$', line)
        if m:
            out.append(m.group(1))
        elif out:
            out[-1] += ' ' + line.strip()
    return out


def needs(form):
    """The words of form outside brackets past "perfdb VERB" and the
    database: the options and operands it cannot do without."""
    depth, words = 0, []
    for w in form.split()[2:]:
        if depth == 0 and not w.startswith('[') and w not in ('DB', '|'):
            words.append(w)
        depth += w.count('[') - w.count(']')
    return words


for verb in run(['--verbs'])[1].split():
    fs = forms(verb)
    if not fs or not all(needs(f) for f in fs):
        continue
    db = ['-o', nodb] if '[-o DB]' in fs[0] else [nodb] if '[DB]' in fs[0] else []
    rc, out, err = run([verb] + db)
    lines = err.splitlines()
    good = rc == 1 and not out and len(lines) == 1 and nodb not in err
    print('%s - perfdb %s %s (it needs %s): exit %d before the database: %s'
          % ('ok' if good else 'not ok', verb, ' '.join(db), ' '.join(needs(fs[0])), rc,
             lines[0] if lines else '(nothing)'))
PY
python3 "$T/required.py" "$PERFDB" "$T/none/x.db" >"$T/required.out" 2>&1 || echo "not ok - required.py failed" >>"$T/required.out"
tap_results "$T/required.out"
NODB=$T/none/x.db
usage_line "^perfdb sched: --time does not go with --base/--new\$" sched "$NODB" --base a --new b --time 0,1
usage_line "^perfdb sched: --latency does not go with --base/--new\$" sched "$NODB" --base a --new b --latency
usage_line "^perfdb report: which labels\? give --base LABEL --new LABEL\$" report "$NODB" --base a
usage_line "^perfdb cgdiff: --base needs --new too\$" cgdiff "$NODB" --base a
if "$PERFDB" push "$NODB" --to 'host=x nosuchoption=1' 2>&1 | grep -q 'cannot load libpq'; then
	skip "push --to that libpq cannot read: no libpq here"
else
	usage_line "^perfdb push: --to: .*nosuchoption" push "$NODB" --to 'host=x nosuchoption=1'
fi

# --- usage lines against the option tables -----------------------------------------
cat >"$T/choices.py" <<'PY'
"""choices.py PERFDB: every verb's synopsis and options list against the
choices its option table has (from perfdb --bash-completion, generated
from the tables). Prints ok/not ok lines."""
import re, subprocess, sys

perfdb = sys.argv[1]


def out(args):
    return subprocess.run([perfdb] + args, capture_output=True, stdin=subprocess.DEVNULL,
                          timeout=60).stdout.decode()


# 'verb:-f|verb:--format)' then 'COMPREPLY=($(compgen -W "a b c" ...'
table = {}
arms = re.findall(r'^\t([\w:|-]+)\)\n\t\tCOMPREPLY=\(\$\(compgen -W "([^"]*)"', out(['--bash-completion']), re.M)
for names, words in arms:
    for n in names.split('|'):
        verb, opt = n.split(':', 1)
        table[(verb, opt)] = set(words.split())
OPT_CHOICES = re.compile(r'(?:^|[\s\[(,])(--?[A-Za-z0-9][\w-]*)[ =]([\w.-]+(?:\|[\w.-]+)+)(?=[\s\])]|$)')
for verb in out(['--verbs']).split():
    text = out([verb, '--help'])
    synopsis = text.split('\n\n', 1)[0]
    listed = [l for l in text.split('\noptions:\n', 1)[-1].splitlines() if l.startswith('  -')]
    bad, seen = [], 0
    for where, chunk in [('synopsis', synopsis)] + [('options list', l.strip().split('  ')[0]) for l in listed]:
        for opt, words in OPT_CHOICES.findall(chunk):
            seen += 1
            want = table.get((verb, opt))
            if want is None:
                # "-d, --display tot|lcl": the long name's table
                longs = re.findall(r'--[\w-]+', chunk)
                want = table.get((verb, longs[0])) if where != 'synopsis' and longs else None
            got = set(words.split('|'))
            if want is None:
                bad.append('%s: %s %s, but %s takes no choice in the table' % (where, opt, words, opt))
            elif got != want:
                bad.append('%s: %s %s, the table: %s' % (where, opt, words, '|'.join(sorted(want))))
    print('%s - %s: the %d options written with choices (synopsis, options list) name exactly '
          'their table\'s choices' % ('not ok' if bad else 'ok', verb, seen))
    for b in bad[:5]:
        print('#   ' + b)

# The README's synopses (code blocks: "perfdb VERB[|VERB...] ..." and the
# indented lines continuing one) name the same choices.
bad, seen, verbs, block = [], 0, [], False
for line in open(sys.argv[2]):
    if line.startswith('```'):
        block, verbs = not block, []
        continue
    m = re.match(r'^perfdb ([a-z|]+) ', line)
    if block and m:
        verbs = m.group(1).split('|')
    elif not (block and verbs and line.startswith(' ')):
        verbs = []
        continue
    for opt, words in OPT_CHOICES.findall(line):
        for verb in verbs:
            seen += 1
            want = table.get((verb, opt))
            if want is None or set(words.split('|')) != want:
                bad.append('perfdb %s: %s %s, the table: %s' % (verb, opt, words,
                           '|'.join(sorted(want)) if want else 'no choices'))
print('%s - README: the %d options its synopses write with choices name exactly their table\'s '
      'choices' % ('not ok' if bad else 'ok', seen))
for b in bad[:5]:
    print('#   ' + b)
PY
python3 "$T/choices.py" "$PERFDB" README.md >"$T/choices.out" 2>&1 || echo "not ok - choices.py failed" >>"$T/choices.out"
tap_results "$T/choices.out"

# --- -n ROWS, everywhere ----------------------------------------------------------
for v in $("$PERFDB" --verbs); do
	"$PERFDB" "$v" --help >"$T/help" 2>&1
	rows=$(grep -E '^  -n, --rows ROWS ' "$T/help")
	syn=$(sed '/^$/q' "$T/help")
	if grep -qE '^  --tables ' "$T/help" && [ "$v" != doctor ]; then
		case "$rows|$syn" in
		*"at most ROWS rows in each long table ("*"[-n ROWS]"*)
			ok "$v: -n, --rows ROWS: at most ROWS rows in each long table, in the synopsis too" ;;
		*) not_ok "$v: no -n ROWS as every verb with long tables has it: '${rows:-none}'" ;;
		esac
	else
		if [ -n "$rows" ] || printf '%s\n' "$syn" | grep -qE '(^|[[ |])-n( |]|$)'; then
			not_ok "$v: -n where there is no long table: $rows"
		else
			ok "$v: no -n (no long tables)"
		fi
	fi
done

echo "1..$n"
[ "$failed" -eq 0 ]
