#!/bin/sh
# The project stands on its own, and its text speaks of no one machine:
#  - README.md and docs/*.md link only inside the repository (a relative
#    link must name a file or directory of the clone) or to public http(s)
#    pages; nothing names ../shared or an absolute path of the machine the
#    project was made on; the word "seed" appears only as bench's --seed
#    (the random seed of a run order) and a fuzzer's seed corpus, never as
#    a name for a case.
#  - README names every Debian package of .ci/packages.
#  - The binary's strings, perfdb --help, every verb's --help and every man
#    page make no claim about one machine in prose: a kernel release next
#    to guest/kernel/host ("6.18 guest", "kernel 6.1"), "this guest", "as
#    here", "this VM", a CPU model (EPYC, Xeon), "2-vCPU"; the sources'
#    comments neither. (perfdb doctor describing the machine it runs on,
#    "on this kernel and boot" of bench, are about where perfdb runs.)
#  - What a user reads at the prompt (#28): every verb's man page has
#    EXIT STATUS, FILES and EXAMPLES (and ENVIRONMENT where it reads one),
#    its --help the examples and exit statuses; the statuses are each
#    verb's true ones (record: the workload's, 128+N; import: 128+N; bench:
#    130; doctor: 0 whatever it finds); every environment variable the
#    sources read (each getenv) is on perfdb(1) and in the README, and
#    record, import, push and pull name theirs; every example's perfdb
#    command gets past the parser (its options and values exist: run with
#    --help put before its workload); groff reads every page without a
#    warning.
set -u
. "$(dirname "$0")/lib/setup.sh"
ROOT=$(pwd -P)
DOCS="README.md $(ls docs/*.md)"

# --- links -------------------------------------------------------------------------
bad=
for f in $DOCS; do
	dir=$(dirname "$f")
	# inline links [text](target) and reference definitions [x]: target
	{ grep -oE '\]\([^) ]+' "$f" | sed 's/^](//'
	  grep -oE '^\[[^]]+\]: *[^ ]+' "$f" | sed 's/^[^:]*: *//'; } >"$T/links"
	while IFS= read -r l; do
		case "$l" in
		http://*|https://*) continue ;;
		mailto:*|'#'*) continue ;;
		*://*) bad="$bad $f:$l"; continue ;;
		esac
		p=${l%%#*}
		[ -n "$p" ] || continue
		case "$p" in /*) bad="$bad $f:$l"; continue ;; esac
		if [ ! -e "$dir/$p" ]; then bad="$bad $f:$l(missing)"; continue; fi
		real=$(cd "$(dirname "$dir/$p")" && pwd -P)
		case "$real/" in "$ROOT"/*) ;; *) bad="$bad $f:$l(outside)" ;; esac
	done <"$T/links"
done
[ -z "$bad" ] && ok "README and docs link only inside the repository or to http(s) pages" ||
	not_ok "links outside the repository or to nothing:$bad"

hits=$(grep -nE '\.\./shared|/work/' $DOCS)
[ -z "$hits" ] && ok "README and docs never name ../shared or a path of another machine" ||
	{ not_ok "README and docs name paths outside the repository"; echo "$hits" | sed 's/^/# /'; }

hits=$(grep -niwE 'seeds?' $DOCS | grep -viE -- '--seed|random seed|`seed`|seed corpus')
[ -z "$hits" ] && ok "README and docs speak of no 'seed' (but bench's --seed)" ||
	{ not_ok "README and docs say 'seed' in prose"; echo "$hits" | sed 's/^/# /'; }

# the README names every Debian package .ci/packages lists (the one list
# .ci/deps.sh installs and perfdb doctor checks)
missing=
for p in $(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' -e 's/[[:space:]].*//' .ci/packages); do
	grep -qw -- "$p" README.md || missing="$missing $p"
done
[ -z "$missing" ] && ok "README names every package of .ci/packages" ||
	not_ok "README does not name:$missing"

# --- claims about one machine ---------------------------------------------------------
MACHINE='(linux|kernel|guest|host) v?[2-7]\.[0-9]+\b|\b[2-7]\.[0-9]+(\.[0-9]+)?[ -](guest|kernel|host|vm)\b'
MACHINE="$MACHINE|this (guest|vm|box|host)\b|\bas here\b|\bEPYC\b|\bXeon\b|[0-9][ -]vCPU"
{
	# a sanitizer build carries the sanitizer runtime's own text (which
	# speaks of kernel releases): then perfdb's objects stand for the binary
	if nm "$PERFDB" 2>/dev/null | grep -q __asan_init; then
		strings "$B/perfdb.o" "$B/libperfdb.a"
	else
		strings "$PERFDB"
	fi
	"$PERFDB" --help
	for v in $("$PERFDB" --verbs); do "$PERFDB" "$v" --help; done
} >"$T/text" 2>&1
if ! grep -q "perfdb VERB" "$T/text"; then
	not_ok "the binary's strings and help could be read"
else
	hits=$(grep -inE "$MACHINE" "$T/text")
	[ -z "$hits" ] && ok "the binary's strings and every --help claim nothing about one machine" ||
		{ not_ok "the binary or its help speaks of one machine"; echo "$hits" | sed 's/^/# /' | head; }
fi
if [ -d "$B/man" ] && ls "$B"/man/*.1 >/dev/null 2>&1; then
	hits=$(grep -inE "$MACHINE" "$B"/man/*.1)
	[ -z "$hits" ] && ok "the man pages claim nothing about one machine" ||
		{ not_ok "a man page speaks of one machine"; echo "$hits" | sed 's/^/# /' | head; }
else
	not_ok "the man pages were built ($B/man)"
fi
hits=$(grep -rinE "$MACHINE" --include='*.c' --include='*.h' --include='*.sql' \
	perfdb.c lib schema collect analyze reports builtin workloads)
[ -z "$hits" ] && ok "the sources' comments and strings speak of no one machine" ||
	{ not_ok "the sources speak of one machine"; echo "$hits" | sed 's/^/# /' | head; }

# --- what a user reads at the prompt -------------------------------------------------
cat >"$T/pages.py" <<'PY'
"""pages.py PERFDB MANDIR README SRCDIRS...: the sections, statuses,
environment and examples of the man pages and --help. ok/not ok lines."""
import os, re, shlex, subprocess, sys, tempfile

perfdb, mandir, readme, srcs = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]


def say(good, what, why=()):
    print(('ok - ' if good else 'not ok - ') + what)
    for w in ([] if good else list(why)[:5]):
        print('#   %s' % w)


def run(args, cwd=None):
    p = subprocess.run([perfdb] + args, capture_output=True, cwd=cwd, stdin=subprocess.DEVNULL, timeout=60)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def sections(page):
    """{".SH name": roff text} of a page."""
    out, name = {}, None
    for line in open(os.path.join(mandir, page)).read().splitlines():
        if line.startswith('.SH '):
            name = line[4:].strip('"')
            out[name] = ''
        elif name:
            out[name] += line + '\n'
    return out


def plain(roff):
    return re.sub(r'\\f[BIR]', '', roff).replace('\\-', '-').replace('\\e', '\\').replace('\\&', '')


def commands(roff):
    """The commands of an EXAMPLES section: its .nf blocks, a line ending
    with a backslash continued."""
    out = []
    for block in re.findall(r'^\.nf\n(.*?)^\.fi$', roff, re.M | re.S):
        out.append(re.sub(r'\\\n\s*', ' ', plain(block)).strip())
    return out


verbs = run(['--verbs'])[1].split()
scratch = tempfile.mkdtemp()
for v in verbs:
    s = sections('perfdb-%s.1' % v)
    want = ['EXIT STATUS', 'FILES', 'EXAMPLES']
    rc, text, err = run([v, '--help'])
    missing = [w for w in want if not s.get(w, '').strip()]
    missing += ['--help: %s' % h for h in ('examples:', 'exit status:') if '\n%s\n' % h not in text]
    say(not missing, 'perfdb-%s(1) has EXIT STATUS, FILES and EXAMPLES, its --help examples and '
        'exit status' % v, missing)
    bad = []
    for cmd in commands(s.get('EXAMPLES', '')):
        words = shlex.split(cmd)
        words = words[words.index('perfdb') + 1:] if 'perfdb' in words else []
        for stop in ('|', '>'):
            words = words[:words.index(stop)] if stop in words else words
        if not words or words[0] != v:
            bad.append('not a perfdb %s command: %s' % (v, cmd))
            continue
        args = words[:words.index('--')] + ['--help'] + words[words.index('--'):] if '--' in words \
            else words + ['--help']
        rc, out, err = run(args, cwd=scratch)
        if rc != 0 or not out.startswith('usage: perfdb %s' % v):
            bad.append('%s: exit %d %s' % (cmd, rc, err.strip()[:160]))
    say(not bad, 'perfdb-%s(1): each of its %d examples gets past the parser'
        % (v, len(commands(s.get('EXAMPLES', '')))), bad)
top = sections('perfdb.1')
bad = []
for cmd in commands(top.get('EXAMPLES', '')):
    words = shlex.split(cmd)
    words = words[1:words.index('--')] + ['--help'] if '--' in words else words[1:] + ['--help']
    rc, out, err = run(words, cwd=scratch)
    if rc != 0:
        bad.append('%s: exit %d %s' % (cmd, rc, err.strip()[:160]))
say(top.get('EXAMPLES') and not bad, 'perfdb(1) has EXAMPLES, and each gets past the parser', bad)

# the true exit statuses
status = {v: plain(sections('perfdb-%s.1' % v).get('EXIT STATUS', '')) for v in verbs}
for v, must, must_not in (('record', ['128+N', "workload's exit status"], ['missing events']),
                          ('import', ['128+N'], ['missing events']),
                          ('bench', ['130', 'every run ended well'], ['missing events']),
                          ('doctor', ['whatever they found'], ['missing events', 'bad input'])):
    bad = ['says no %r' % m for m in must if m not in status[v]]
    bad += ['says %r' % m for m in must_not if m in status[v]]
    say(not bad, 'perfdb-%s(1): EXIT STATUS is its own (%s)' % (v, ', '.join(must)), bad)
say('perfdb-record' in plain(top.get('EXIT STATUS', '')) and 'perfdb-bench' in plain(top.get('EXIT STATUS', '')),
    'perfdb(1): EXIT STATUS names the verbs whose statuses are their own')

# the environment: every getenv of the sources documented, once on perfdb(1)
names = set()
for d in srcs:
    for root, dirs, files in os.walk(d):
        for f in files:
            if f.endswith('.c'):
                names |= set(re.findall(r'getenv\("([A-Z_0-9]+)"\)', open(os.path.join(root, f)).read()))
env = plain(top.get('ENVIRONMENT', ''))
text = open(readme).read().split('\n## Environment\n', 1)[-1].split('\n## ', 1)[0]
bad = ['%s not on perfdb(1)' % n for n in sorted(names) if not re.search(r'^%s$' % n, env, re.M)]
bad += ['%s not in the README\'s Environment' % n for n in sorted(names) if '`%s`' % n not in text]
say(len(names) >= 8 and not bad, 'the %d variables the sources read (%s) are on perfdb(1) and in the '
    'README' % (len(names), ', '.join(sorted(names))), bad)
# the README's table says the same verbs read each as perfdb(1) does
bad, rows = [], re.findall(r'^\| `([A-Z_*]+)` \| ([a-z, ]+) \|', text, re.M)
for name, readers in rows:
    m = re.search(r'^%s\n(.*?)(?=^\.TP|\Z)' % re.escape(name), env, re.M | re.S)
    page = set(re.findall(r'read by ([a-z, ]+)', m.group(1).replace('\n', ' '))[0].replace(' ', '').split(',')) \
        if m and 'read by' in m.group(1) else set()
    if set(readers.replace(' ', '').split(',')) != page:
        bad.append('%s: README %s, perfdb(1) %s' % (name, readers, sorted(page)))
say(len(rows) > len(names) and not bad, "the README's Environment names the verbs perfdb(1) says read "
    "each of its %d variables" % len(rows), bad)
for v, vs in (('record', ['PERFDB_PERF', 'PERFDB_EXTRA_EVENTS']), ('import', ['PERFDB_SYNC_WRITES', 'TMPDIR']),
              ('bench', ['PERFDB_PERF']), ('doctor', ['PERFDB_PERF']), ('push', ['PERFDB_LIBPQ']),
              ('pull', ['PERFDB_LIBPQ'])):
    e = plain(sections('perfdb-%s.1' % v).get('ENVIRONMENT', ''))
    rc, h, err = run([v, '--help'])
    bad = ['%s not on the page' % n for n in vs if not re.search(r'^%s$' % n, e, re.M)]
    bad += ['%s not in --help' % n for n in vs if not re.search(r'^  %s ' % n, h.split('\nenvironment:\n')[-1], re.M)]
    say(not bad, 'perfdb-%s(1) and its --help name %s' % (v, ', '.join(vs)), bad)
PY
if [ -d "$B/man" ]; then
	python3 "$T/pages.py" "$PERFDB" "$B/man" README.md perfdb.c builtin collect analyze schema reports lib \
		>"$T/pages.out" 2>&1 || echo "not ok - pages.py failed" >>"$T/pages.out"
	while IFS= read -r l; do
		case "$l" in
		"ok - "*) ok "${l#ok - }" ;;
		"not ok - "*) not_ok "${l#not ok - }" ;;
		*) echo "# $l" ;;
		esac
	done <"$T/pages.out"
	warn=$(for f in "$B"/man/*.1; do groff -man -ww -z "$f" 2>&1 | sed "s|^|$f: |"; done)
	[ -z "$warn" ] && ok "groff reads every man page without a warning" ||
		{ not_ok "groff warns"; echo "$warn" | sed 's/^/# /' | head; }
fi

# the patterns catch what they are for
for s in "e.g. CPU 1 leaving idle on this 6.18 guest" "as here, kernel 6.18" "a 2-vCPU AMD EPYC"; do
	echo "$s" | grep -qiE "$MACHINE" && ok "the check catches '$s'" || not_ok "the check misses '$s'"
done
[ "$failed" -eq 0 ]
