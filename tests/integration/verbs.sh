#!/bin/sh
# The house rules every perfdb verb keeps (docs/architecture.md), checked
# from the outside on sessions recorded here with the real perf: sched,tlb
# (tlbflush), sched alone (yield), two profile labels (yield), a watch
# session (falseshare, a hardware write-watchpoint), the c2c fixture
# tests/unit/test_hitm writes (as tests/integration/hitm.sh) and a bench.
#
#  - Every analyzer that renders findings (sessions, results, sched, sched
#    --base/--new, ipis, hitm, watch, cgdiff, tree, folded, doctor; report
#    too, but for --tables, which it does not have) in every
#    format: exit 0, nothing on stderr; json is one document with the
#    envelope (perfdb = VERSION, verb = the verb's name, sessions = objects
#    with id and label, the sessions analyzed; findings an object; warnings
#    and notes arrays of strings); csv is one table (every record has the
#    header's field count: a second table, a blank line or a stray line
#    breaks that); html is one balanced page (<!DOCTYPE html> ... </html>,
#    every tag closed in order: an unescaped '<' in a cell or a forgotten
#    close breaks it); text and md are not empty. --tables lists
#    [a-z0-9_]+ names; each name given to --table gives one csv table whose
#    header and rows are json's rows of that table, and json holding only
#    it; an unknown --table is one line, exit 1, naming the tables.
#  - --help of every verb: its options list, parsed from the text, is
#    exactly what builtin/VERB.c declares (OPT_* entries and the shared
#    macros of builtin/*.h, expanded; PO_HIDDEN ones left out); each listed
#    option (long, short, --no-) is accepted by the parser (a plausible
#    value given: no "unknown option"/"unknown switch" and no crash), and
#    probing them writes no file; --no-such-option is exit 1 and one line
#    naming it; every option the synopsis lines mention is listed.
#  - Usage errors are one line, exit 1, nothing on stdout: --format xml
#    (the exact line), bad -n values, --time 5,1, --base without --new, -s
#    or --time with --base/--new, an operand the verb does not take (doctor
#    used to ignore its operands), an unknown verb.
#  - The empty-analysis rule: an analyzer on sessions without its events
#    exits 2, prints nothing on stdout and one line naming the session, the
#    missing events and the recipe (perfdb record -r ...).
#  - -n ROWS means rows everywhere: for each analyzer, the long tables its
#    --help names for -n hold at most 1 row with -n 1 in json, and with -n
#    0 (all) at least as many as by default.
#  - perfdb --version and perfdb version print "perfdb X.Y.Z COMMIT": X.Y.Z
#    from VERSION, COMMIT a commit of this checkout.
# Prints TAP lines. Run from the repository root: sh tests/integration/verbs.sh
# Env: PERFDB (default $PWD/build/perfdb), PERFDB_BUILD (default build).
# shellcheck disable=SC2016,SC2154 # eval'd checks expand late; n, failed: lib/tap.sh
. "$(dirname "$0")/lib/setup.sh"
SRC=$(pwd)
DB=$T/v.db
mkdir "$T/scratch" "$T/fx"

cat >"$T/check.py" <<'EOF'
"""The checks of verbs.sh: each prints "ok - ..." or "not ok - ...", and
"# ..." lines saying why."""
import csv, io, json, os, re, subprocess, sys
from html.parser import HTMLParser

PERFDB = os.environ['PERFDB']
FORMATS = ['text', 'md', 'csv', 'json', 'html']


def result(good, what, why=()):
    print(('ok - ' if good else 'not ok - ') + what)
    if not good:
        for w in list(why)[:6]:
            for line in str(w).splitlines()[:3]:
                print('#   ' + line)
    return good


def run(args, cwd=None):
    """perfdb ARGS: (status, stdout, stderr)."""
    try:
        p = subprocess.run([PERFDB] + args, capture_output=True, cwd=cwd, timeout=60,
                           stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return -1, '', 'timed out'
    return p.returncode, p.stdout.decode('utf-8', 'replace'), p.stderr.decode('utf-8', 'replace')


# --- output formats ----------------------------------------------------------

def csv_problems(text):
    """Why text is not exactly one csv table: a header, then records with
    as many fields as it."""
    rows = list(csv.reader(io.StringIO(text, newline='')))
    if not rows or not rows[0] or not any(rows[0]):
        return ['no header row'], rows
    bad = ['record %d has %d fields, the header %d: %r' % (i, len(r), len(rows[0]), r[:4])
           for i, r in enumerate(rows[1:], 2) if len(r) != len(rows[0])]
    bad += ['record %d repeats the header (a second table?)' % i
            for i, r in enumerate(rows[1:], 2) if r == rows[0]]
    if not text.endswith('\n'):
        bad.append('the last record has no line end')
    return bad, rows


VOID = {'area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source',
        'track', 'wbr'}


class Page(HTMLParser):
    """html.parser, with every element closed in order (void ones never)."""
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.errs, self.decls, self.htmls = [], [], [], 0

    def handle_decl(self, d):
        self.decls.append(d)

    def handle_starttag(self, tag, attrs):
        self.htmls += tag == 'html'
        if tag not in VOID:
            self.stack.append((tag, self.getpos()))

    def handle_startendtag(self, tag, attrs):
        self.htmls += tag == 'html'

    def handle_endtag(self, tag):
        if tag in VOID:
            self.errs.append('</%s> of a void element at line %d' % (tag, self.getpos()[0]))
        elif not self.stack or self.stack[-1][0] != tag:
            self.errs.append('</%s> at line %d closes %s' % (tag, self.getpos()[0],
                             '<%s> of line %d' % (self.stack[-1][0], self.stack[-1][1][0])
                             if self.stack else 'nothing'))
            for i in range(len(self.stack) - 1, -1, -1):
                if self.stack[i][0] == tag:
                    del self.stack[i:]
                    break
        else:
            self.stack.pop()


def html_problems(text):
    bad = []
    if not text.startswith('<!DOCTYPE html>'):
        bad.append('does not start with <!DOCTYPE html>: %r' % text[:30])
    if not text.rstrip('\n').endswith('</html>'):
        bad.append('does not end with </html>: %r' % text[-30:])
    p = Page()
    try:
        p.feed(text)
        p.close()
    except Exception as e:  # an HTMLParser that raises
        bad.append('html.parser: %s' % e)
    bad += p.errs
    bad += ['<%s> of line %d never closed' % (t, pos[0]) for t, pos in p.stack]
    if p.decls != ['DOCTYPE html'] or p.htmls != 1:
        bad.append('%d doctype declarations, %d html elements: not one page' % (len(p.decls), p.htmls))
    return bad


def envelope_problems(text, verb, version, labels):
    """Why text is not one json document with the common envelope."""
    try:
        d = json.loads(text)
    except ValueError as e:
        return ['not one json document: %s' % e], None
    if not isinstance(d, dict):
        return ['not an object'], None
    bad = []
    want = ['perfdb', 'verb', 'sessions', 'findings', 'warnings', 'notes']
    keys = [k for k in d if k != 'title']
    if keys != want:
        bad.append('keys %s, not %s (and maybe title)' % (list(d), want))
    if d.get('perfdb') != version:
        bad.append('perfdb is %r, not %r' % (d.get('perfdb'), version))
    if d.get('verb') != verb:
        bad.append('verb is %r, not %r' % (d.get('verb'), verb))
    s = d.get('sessions')
    if not isinstance(s, list) or not all(isinstance(x, dict) and isinstance(x.get('id'), int)
                                          and 'label' in x for x in s):
        bad.append('sessions is not an array of objects with id and label: %r' % (s,))
    elif labels is not None and sorted(x['label'] for x in s) != sorted(labels):
        bad.append('sessions are those labelled %s, not %s' % (sorted(x['label'] for x in s),
                                                                 sorted(labels)))
    if not isinstance(d.get('findings'), dict):
        bad.append('findings is not an object')
    for k in ('warnings', 'notes'):
        if not isinstance(d.get(k), list) or not all(isinstance(x, str) for x in d[k]):
            bad.append('%s is not an array of strings' % k)
    return bad, d


def tables_in(v, out):
    """The arrays of row objects under v, by key (the tables in json)."""
    if isinstance(v, dict):
        for k, x in v.items():
            if isinstance(x, list) and all(isinstance(r, dict) for r in x):
                out.setdefault(k, x)
            tables_in(x, out)
    elif isinstance(v, list):
        for x in v:
            tables_in(x, out)
    return out


def formats(argv):
    """formats NAME VERSION LABELS VERB ARGS...: every format of perfdb VERB
    ARGS, --tables and each table."""
    name, version, labels, verb, args = argv[0], argv[1], argv[2], argv[3], argv[4:]
    labels = None if labels == '-' else [x for x in labels.split(',') if x]
    doc = None
    for f in FORMATS:
        rc, out, err = run([verb] + args + ['--format', f])
        bad = [] if rc == 0 else ['exit %d: %s' % (rc, err.strip())]
        if err:
            bad.append('stderr: %s' % err.strip())
        if f in ('text', 'md') and not out.strip():
            bad.append('empty output')
        elif f == 'csv':
            bad += csv_problems(out)[0]
        elif f == 'html':
            bad += html_problems(out)
        elif f == 'json':
            why, doc = envelope_problems(out, verb, version, labels)
            bad += why
        result(not bad, '%s --format %s: exit 0, %s' % (name, f, {
            'text': 'not empty', 'md': 'not empty', 'csv': 'exactly one table',
            'json': 'one document, the common envelope', 'html': 'one balanced page'}[f]), bad)
    # --tables, and each table alone (verbs whose --help has it)
    if not re.search(r'^  --tables ', run([verb, '--help'])[1], re.M):
        return
    rc, out, err = run([verb] + args + ['--tables'])
    lines = out.splitlines()
    names = [l.split('\t')[0] for l in lines]
    bad = [] if rc == 0 and not err else ['exit %d: %s' % (rc, err.strip())]
    bad += ['not NAME<tab>TITLE: %r' % l for l in lines if not re.match(r'^[a-z0-9_]+\t', l)]
    if not names or len(set(names)) != len(names):
        bad.append('no tables, or one twice: %s' % names)
    untitled = [l.split('\t')[0] for l in lines if l.endswith('\t')]
    if untitled:
        print('# %s: tables without a title: %s' % (name, ', '.join(untitled)))
    result(not bad, '%s --tables: %d names matching [a-z0-9_]+, each once' % (name, len(names)), bad)
    json_tables = tables_in(doc['findings'], {}) if doc and isinstance(doc.get('findings'), dict) else {}
    for t in names:
        bad = []
        rc, out, err = run([verb] + args + ['--format', 'csv', '--table', t])
        if rc or err:
            bad.append('csv: exit %d: %s' % (rc, err.strip()))
        why, rows = csv_problems(out)
        bad += why
        rc, jout, err = run([verb] + args + ['--format', 'json', '--table', t])
        why, d = envelope_problems(jout, verb, version, labels)
        bad += why if not rc else ['json: exit %d: %s' % (rc, err.strip())]
        if d is not None and (list(d.get('findings', {})) != [t] or
                              not isinstance(d['findings'][t], list)):
            bad.append('json --table %s: findings holds %s, not the table alone' %
                       (t, list(d.get('findings', {}))))
        full = json_tables.get(t)
        if full is None:
            bad.append('the whole json document has no table %s' % t)
        elif not why and rows:
            if len(rows) - 1 != len(full):
                bad.append('csv has %d records, json %d rows' % (len(rows) - 1, len(full)))
            if full and rows[0] != list(full[0]):
                bad.append('csv header %s, json columns %s' % (rows[0], list(full[0])))
        result(not bad, '%s --table %s: csv is that one table (json\'s rows and columns), '
               'json holds only it' % (name, t), bad)
    rc, out, err = run([verb] + args + ['--table', 'no_such_table'])
    el = err.splitlines()
    result(rc == 1 and not out and len(el) == 1 and "'no_such_table'" in err and
           all(t in err for t in names),
           '%s --table no_such_table: exit 1, one line naming the tables' % name,
           ['exit %d' % rc] + el)


# --- options: --help, the parser, the source ---------------------------------

def help_options(text):
    """The options --help lists: {long: negatable}, {short}, and the value
    name of each (by '--long' or '-s')."""
    longs, shorts, argh = {}, set(), {}
    on = False
    for line in text.splitlines():
        if line == 'options:':
            on = True
        if not on or not line.startswith('  -'):
            continue
        spec = re.split(r'\s{2,}', line.strip())[0]
        m = re.match(r'^(?:-([A-Za-z0-9])(?:, )?)?(?:--(\[no-\])?([a-z0-9][a-z0-9-]*))?(?: (\S+))?$',
                     spec)
        if not m or not (m.group(1) or m.group(3)):
            longs.setdefault('?unparsed: ' + spec, False)
            continue
        if m.group(1):
            shorts.add(m.group(1))
            argh['-' + m.group(1)] = m.group(4)
        if m.group(3):
            longs[m.group(3)] = bool(m.group(2))
            argh['--' + m.group(3)] = m.group(4)
    return longs, shorts, argh


def synopsis_options(text):
    """The options the usage lines (up to the first empty line) name."""
    lines = []
    for line in text.splitlines():
        if not line.strip():
            break
        lines.append(line)
    found = set()
    for line in lines:
        for dash, name in re.findall(r'(?:^|[\s\[|(])(--?)([A-Za-z0-9][\w-]*)', line):
            found.add(dash + name)
    return lines, found


def value_for(argh):
    """A plausible value for an option whose value is written argh."""
    if argh is None:
        return None
    if '|' in argh:
        return argh.split('|')[0]
    if argh == 'START,END':
        return '0,1'
    if '=' in argh:
        return 'n=1,2'
    if '@' in argh:
        return 'mm_struct@0xffff888100000000'
    if argh.startswith('SPEC'):
        return 'mm_struct.mm_count'
    if argh in ('N', 'ROWS', 'HZ', 'PAGES', 'US', 'PCT', 'P', 'T', 'K', 'S'):
        return '1'
    return 'x'


def c_split(s):
    """s split at its top-level commas (outside (), {}, [] and literals)."""
    parts, depth, cur, i = [], 0, '', 0
    while i < len(s):
        c = s[i]
        if c in '"\'':
            j = i + 1
            while j < len(s) and s[j] != c:
                j += 2 if s[j] == '\\' else 1
            cur += s[i:j + 1]
            i = j + 1
            continue
        if c in '({[':
            depth += 1
        elif c in ')}]':
            depth -= 1
        if c == ',' and depth == 0:
            parts.append(cur.strip())
            cur = ''
        else:
            cur += c
        i += 1
    if cur.strip():
        parts.append(cur.strip())
    return parts


def strip_c(text):
    """C text without comments, line continuations joined."""
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    text = re.sub(r'//[^\n]*', ' ', text)
    return text.replace('\\\n', ' ')


def macros(src):
    """#define OPT_X(...) bodies of the shared headers, by name."""
    out = {}
    for h in ('builtin/builtin.h', 'builtin/describe_args.h', 'builtin/callgraph_opts.h'):
        path = os.path.join(src, h)
        if not os.path.exists(path):
            continue
        for m in re.finditer(r'^#define (OPT_\w+)\(([^)]*)\)[ \t]*(.*)$', strip_c(open(path).read()), re.M):
            out[m.group(1)] = m.group(3)
    return out


PRIMITIVE = {'OPT_BOOL', 'OPT_BOOL_F', 'OPT_SET_INT', 'OPT_INT', 'OPT_DOUBLE', 'OPT_STRING',
             'OPT_STRING_LIST', 'OPT_CHOICE', 'OPT_CALLBACK'}


def entries(text, defs, out, depth=0):
    """The options of a table's text: (long name or None, short or None,
    hidden), expanding the shared macros."""
    for e in c_split(text):
        m = re.match(r'^(OPT_\w+)\s*\((.*)\)$', e, re.S)
        if m and m.group(1) in ('OPT_END', 'OPT_GROUP'):
            continue
        if m and m.group(1) in PRIMITIVE:
            a = c_split(m.group(2))
            lm = re.match(r'^"([^"]*)"$', a[1]) if len(a) > 1 else None
            sm = re.match(r"^'(.)'$", a[0]) if a else None
            out.append((lm.group(1) if lm else None, sm.group(1) if sm else None, 'PO_HIDDEN' in e))
        elif m and m.group(1) in defs and depth < 5:
            entries(defs[m.group(1)], defs, out, depth + 1)
        elif e.startswith('{'):
            lm = re.search(r'\.long_name\s*=\s*"([^"]*)"', e)
            sm = re.search(r"\.short_name\s*=\s*'(.)'", e)
            out.append((lm.group(1) if lm else None, sm.group(1) if sm else None, 'PO_HIDDEN' in e))
        else:
            out.append(('?unknown entry: ' + e[:40], None, False))
    return out


def declared(src, verb):
    """The options builtin/VERB.c declares: [(long, short, hidden)]."""
    text = strip_c(open(os.path.join(src, 'builtin', verb + '.c')).read())
    m = re.search(r'struct opt \w+\[\]\s*=\s*\{(.*?)\n\};', text, re.S)
    return entries(m.group(1), macros(src), []) if m else None


def options(argv):
    """options VERB SRC SCRATCH: --help against the parser and the source."""
    verb, src, scratch = argv
    rc, text, err = run([verb, '--help'])
    longs, shorts, argh = help_options(text)
    unparsed = [k for k in longs if k.startswith('?')]
    result(rc == 0 and not err and longs and not unparsed,
           '%s --help: exit 0, %d long and %d short options listed' % (verb, len(longs), len(shorts)),
           ['exit %d %s' % (rc, err)] + unparsed)
    # each listed option gets past the parser: with a plausible value, the
    # error (if any) is never about the option's name
    probes = []
    for name, neg in longs.items():
        if name.startswith('?'):
            continue
        v = value_for(argh.get('--' + name))
        probes.append(['--' + name] + ([v] if v is not None else []))
        if neg:
            probes.append(['--no-' + name])
    for s in sorted(shorts):
        v = value_for(argh.get('-' + s))
        probes.append(['-' + s] + ([v] if v is not None else []))
    bad = []
    for p in probes:
        rc, out, err = run([verb] + p, cwd=scratch)
        if rc not in (0, 1, 2) or re.search(r'unknown (option|switch)|ambiguous option|takes no value|needs a value', err):
            bad.append('%s: exit %d: %s' % (' '.join(p), rc, err.strip()[:200]))
    left = sorted(os.listdir(scratch))
    if left:
        bad.append('probing left files in an empty directory: %s' % left)
    result(not bad, '%s: each of the %d listed option forms is accepted (no unknown option, no '
           'crash, no file written)' % (verb, len(probes)), bad)
    rc, out, err = run([verb, '--no-such-option'], cwd=scratch)
    result(rc == 1 and not out and len(err.splitlines()) == 1 and '--no-such-option' in err,
           '%s --no-such-option: exit 1, one line naming it' % verb, ['exit %d' % rc] + err.splitlines())
    lines, syn = synopsis_options(text)
    missing = sorted(o for o in syn if not (
        (o.startswith('--') and (o[2:] in longs or (o.startswith('--no-') and longs.get(o[5:]))))
        or (not o.startswith('--') and o[1:] in shorts)))
    result(lines and lines[0].startswith('usage: perfdb %s' % verb) and syn and not missing,
           '%s: the %d options of the synopsis are all listed' % (verb, len(syn)),
           ['not listed: %s' % missing] + lines[:1])
    decl = declared(src, verb)
    if decl is None:
        result(False, '%s: builtin/%s.c has an options table' % (verb, verb))
        return
    shown_l = {l for l, s, h in decl if l and not h}
    shown_s = {s for l, s, h in decl if s and not h}
    hidden_l = {l for l, s, h in decl if l and h}
    bad = ['declared, not in --help: %s' % sorted(shown_l - set(longs))] if shown_l - set(longs) else []
    bad += ['in --help, not declared: %s' % sorted(set(longs) - shown_l)] if set(longs) - shown_l else []
    bad += ['short -%s declared, not in --help' % s for s in sorted(shown_s - shorts)]
    bad += ['short -%s in --help, not declared' % s for s in sorted(shorts - shown_s)]
    bad += ['hidden --%s shown' % h for h in sorted(hidden_l & set(longs))]
    bad += [l for l, s, h in decl if l and l.startswith('?')]
    result(not bad, '%s: --help lists exactly the %d options builtin/%s.c declares (%d hidden: %s)'
           % (verb, len(shown_l | shown_s), verb, len(hidden_l), ', '.join(sorted(hidden_l)) or '-'), bad)


# --- one-line errors -------------------------------------------------------------

def error(argv):
    """error NAME STATUS REGEX ARGS...: perfdb ARGS exits STATUS with
    nothing on stdout and one line on stderr matching REGEX."""
    name, status, rx, args = argv[0], int(argv[1]), argv[2], argv[3:]
    rc, out, err = run(args)
    el = err.splitlines()
    result(rc == status and not out and len(el) == 1 and re.search(rx, err),
           '%s: exit %d, one line' % (name, status),
           ['exit %d, %d bytes on stdout' % (rc, len(out))] + el + ['wanted: %s' % rx])


def rows(argv):
    """rows VERB ARGS...: the tables --help names for -n hold at most one
    row with -n 1, and with -n 0 at least as many as without -n."""
    verb, args = argv[0], argv[1:]
    m = re.search(r'-n, --rows ROWS\s+at most ROWS rows in each long table \(([^:;)]*)',
                  ' '.join(run([verb, '--help'])[1].split()))
    if not result(m is not None, '%s --help: -n names its long tables' % verb):
        return
    names = [x.strip() for x in m.group(1).split(',')]
    counts = {}
    for n in (None, '1', '0'):
        rc, out, err = run([verb] + args + (['-n', n] if n else []) + ['--format', 'json'])
        try:
            found = tables_in(json.loads(out).get('findings'), {}) if rc == 0 else {}
        except ValueError:
            found = {}
        counts[n] = {k: len(found[k]) for k in names if k in found}
    bad = [] if counts[None] else ['none of %s in the json without -n' % names]
    bad += ['-n 1: %s has %d rows' % (k, c) for k, c in counts['1'].items() if c > 1]
    bad += ['-n 0: %s' % counts['0']] if any(counts['0'].get(k, -1) < c for k, c in counts[None].items()) else []
    result(not bad, '%s -n 1: at most 1 row in %s (without -n: %s)' % (verb, ', '.join(names),
           ', '.join('%s %d' % kv for kv in sorted(counts[None].items()))), bad)


def version(argv):
    """version VERSION_FILE REPO: perfdb --version and perfdb version."""
    want = open(argv[0]).read().strip()
    git = subprocess.run(['git', '-C', argv[1], 'rev-parse', '--git-dir'], capture_output=True).returncode == 0
    outs = []
    for a in (['--version'], ['version']):
        rc, out, err = run(a)
        outs.append(out)
        m = re.match(r'^perfdb (\d+\.\d+\.\d+)(?: ([0-9a-f]{7,40})(-dirty)?)?\n$', out)
        bad = [] if rc == 0 and not err and m else ['exit %d: %r %r' % (rc, out, err)]
        if m and m.group(1) != want:
            bad.append('version %s, VERSION says %s' % (m.group(1), want))
        if m and git and not (m.group(2) and subprocess.run(
                ['git', '-C', argv[1], 'cat-file', '-e', m.group(2) + '^{commit}'],
                capture_output=True).returncode == 0):
            bad.append('no commit of this checkout in %r' % out)
        result(not bad, 'perfdb %s: "perfdb %s%s"' % (a[0], want, ' COMMIT' if git else ''), bad)
    result(outs[0] == outs[1], 'perfdb --version and perfdb version print the same line', outs)


if __name__ == '__main__':
    {'formats': formats, 'options': options, 'error': error, 'rows': rows,
     'version': version}[sys.argv[1]](sys.argv[2:])
EOF

# py SUBCOMMAND ARGS...: the checker above, its lines numbered.
py() {
	PERFDB=$PERFDB python3 "$T/check.py" "$@" >"$T/py.out" 2>&1
	_rc=$?
	tap_results "$T/py.out"
	[ $_rc -eq 0 ] || not_ok "check.py $1 $2 exited $_rc"
}
# rec LABEL ARGS...: perfdb record -q -o $DB -l LABEL ARGS (output in $T/rec.*)
rec() {
	_l=$1; shift
	"$PERFDB" record -q -o "$DB" -l "$_l" "$@" >"$T/rec.out" 2>"$T/rec.err" ||
		{ sed 's/^/#   /' "$T/rec.err" | tail -3; false; }
}
VERSION=$(cat VERSION)

for tool in perf python3; do
	command -v $tool >/dev/null 2>&1 || { skip "verbs: no $tool here"; echo "1..$n"; exit 0; }
done

# --- the sessions ---------------------------------------------------------------
# s1: sched and tlb tracepoints; s2: sched alone; p1, p2: profiles (cpu-clock
# with call graphs); w: a watchpoint on falseshare's shared field; c2c: the
# Intel memory-sample fixture; b: a bench of two cells.
check "record -r sched,tlb (s1)" rec s1 -r sched,tlb -- tlbflush --seconds 0.3
check "record -r sched (s2)" rec s2 -r sched -- yield --seconds 0.3
check "record -r profile (p1)" rec p1 -r profile -- yield --seconds 0.3
check "record -r profile (p2)" rec p2 -r profile -- yield --seconds 0.3
check "record -r watch (w)" rec w -r watch --watch fs_shared.bitmap -- falseshare --layout shared --seconds 0.3
check "the c2c fixture (test_hitm --write-fixtures) imports (c2c)" eval \
	'"$B/tests/test_hitm" --write-fixtures "$T/fx" >/dev/null 2>&1 && "$PERFDB" import -q -o "$DB" -l c2c "$T/fx/intel.data"'
check "bench -l b --runs 2 -p cpus=1,2" eval \
	'"$PERFDB" bench -q -o "$DB" -l b --runs 2 -p cpus=1,2 -- yield --cpus {cpus} --seconds 0.2 >/dev/null 2>"$T/bench.err"'

# --- every analyzer in every format ------------------------------------------------
py formats sessions "$VERSION" s1,s2,p1,p2,w,c2c sessions "$DB"
py formats results "$VERSION" - results "$DB"
py formats sched "$VERSION" s1 sched "$DB" -s s1
py formats "sched --base/--new" "$VERSION" s1,s2 sched "$DB" --base s1 --new s2
py formats ipis "$VERSION" s1 ipis "$DB" -s s1
py formats hitm "$VERSION" c2c hitm "$DB" -s c2c
py formats watch "$VERSION" w watch "$DB" -s w
py formats cgdiff "$VERSION" p1,p2 cgdiff "$DB" --base p1 --new p2
py formats tree "$VERSION" p1 tree "$DB" -s p1
py formats folded "$VERSION" p1 folded "$DB" -s p1
py formats doctor "$VERSION" "" doctor
# report renders a findings document too (to stdout), without --tables
py formats report "$VERSION" - report "$DB" --base p1 --new p2

# --- options: --help, the parser and the source agree ---------------------------------
for v in record import bench layout sessions results report sched ipis hitm watch cgdiff tree folded push pull doctor; do
	py options "$v" "$SRC" "$T/scratch"
done
check "perfdb --help lists exactly the 17 verbs" eval \
	'[ "$("$PERFDB" --help | sed -n "/^verbs:/,/^\$/s/^  \([a-z]*\) .*/\1/p" | tr "\n" " ")" = "record import bench layout sessions results report sched ipis hitm watch cgdiff tree folded push pull doctor " ]'
check "perfdb help sched is perfdb sched --help" eval \
	'[ "$("$PERFDB" help sched)" = "$("$PERFDB" sched --help)" ]'

# --- usage errors: one line, exit 1 ---------------------------------------------------
py error "sched --format xml" 1 "^perfdb sched: --format: 'xml' is not one of text, md, csv, json, html\$" \
	sched "$DB" --format xml
for v in sched ipis hitm watch; do
	py error "$v -n x" 1 "^perfdb $v: --rows: 'x' is not an integer\$" $v "$DB" -n x
	py error "$v -n -1" 1 "^perfdb $v: --rows: '-1' is less than 0\$" $v "$DB" -n -1
done
py error "sched --time 5,1" 1 "^perfdb sched: --time: '5,1' ends before it starts\$" sched "$DB" --time 5,1
py error "sched --base without --new" 1 "^perfdb sched: --base needs --new too\$" sched "$DB" --base s1
py error "cgdiff --base without --new" 1 "^perfdb cgdiff: --base needs --new too\$" cgdiff "$DB" --base p1
py error "sched -s with --base/--new" 1 "^perfdb sched: -s does not go with --base/--new\$" \
	sched "$DB" -s s1 --base s1 --new s2
py error "sched --time with --base/--new" 1 "^perfdb sched: --time does not go with --base/--new\$" \
	sched "$DB" --time 0,1 --base s1 --new s2
# An operand a verb does not take is refused, never ignored.
for v in sessions results sched ipis hitm watch; do
	py error "$v DB EXTRA" 1 "^perfdb $v: too many operands \('extra'\)" $v "$DB" extra
done
py error "report DB EXTRA" 1 "^perfdb report: too many operands \('extra'\)" report "$DB" extra --base p1 --new p2
py error "cgdiff DB BASE NEW EXTRA" 1 "^perfdb cgdiff: too many operands \('extra'\)" cgdiff "$DB" p1 p2 extra
py error "tree DB SESSION EXTRA" 1 "^perfdb tree: too many operands \('extra'\)" tree "$DB" p1 extra
py error "folded DB SESSION EXTRA" 1 "^perfdb folded: too many operands \('extra'\)" folded "$DB" p1 extra
py error "layout DB EXTRA" 1 "^perfdb layout: too many operands \('extra'\)" layout "$DB" extra
py error "doctor DB EXTRA (one database at most)" 1 "^perfdb doctor: too many operands \('extra'\)" doctor "$DB" extra
py error "doctor on a missing database" 2 "^perfdb doctor: .*nosuch.db: No such file or directory" doctor "$T/nosuch.db"
py error "an unknown verb" 1 "^perfdb: 'frobnicate' is not a perfdb verb" frobnicate "$DB"
py error "perfdb help of an unknown verb" 1 "^perfdb: 'frobnicate' is not a perfdb verb" help frobnicate

# --- files that are not databases: one line naming the file, exit 2 ------------------
echo "plain text" >"$T/notes.txt"
mkdir -p "$T/adir"
PD=$(ls "$PERFDB_SHARED"/perfdata/*.data 2>/dev/null | head -1)
[ -n "$PD" ] || { "$PERFDB" record -q -o "$T/pd.db" --perf-data "$T/kept.data" -r profile -- yield --seconds 0.1 >/dev/null 2>&1; PD=$T/kept.data; }
cp "$PD" "$T/rec.data"
for f in notes.txt:"not an SQLite database" adir:"is a directory, not a perfdb database" \
	rec.data:"a perf.data recording, not a perfdb database; import it with: perfdb import -o perfdb.db $T/rec.data"; do
	file=$T/${f%%:*} why=${f#*:}
	py error "sessions on ${f%%:*}" 2 "^perfdb sessions: $file: $why\$" sessions "$file"
	py error "import -o ${f%%:*}" 2 "^perfdb import: $file: $why\$" import -o "$file" /dev/null
	py error "bench -o ${f%%:*}" 2 "^perfdb bench: $file: $why\$" bench -o "$file" -l x -- true
done
check "the perf.data file is as it was" cmp -s "$PD" "$T/rec.data"

# --- the empty-analysis rule: exit 2, the events and the recipe named -------------------
py error "ipis on a profile-only session" 2 \
	"^perfdb ipis: $DB: session [0-9]+ has no csd:csd_queue_cpu, ipi:ipi_send_cpu or ipi:ipi_send_cpumask events \(record them with perfdb record -r tlb\)\$" \
	ipis "$DB" -s p1
py error "sched on a profile-only session" 2 \
	"^perfdb sched: $DB: session [0-9]+ has no sched:sched_switch events \(record them with perfdb record -r sched\)\$" \
	sched "$DB" -s p1
py error "sched --base/--new with a profile-only side" 2 \
	"^perfdb sched: $DB: session [0-9]+ has no sched:sched_switch events \(record them with perfdb record -r sched\)\$" \
	sched "$DB" --base s1 --new p2
py error "hitm on a sched session" 2 \
	"^perfdb hitm: $DB: session [0-9]+ has no memory samples and no watchpoint samples \(record them with perfdb record -r c2c, or -r watch" \
	hitm "$DB" -s s2
py error "watch on a sched session" 2 \
	"^perfdb watch: $DB: session [0-9]+ has no watchpoint \(mem:ADDR/LEN:w\) events \(record them with perfdb record -r watch --watch FIELD\)\$" \
	watch "$DB" -s s2
py error "cgdiff on sched-only sessions" 2 \
	"^perfdb cgdiff: $DB: session [0-9]+ has no [a-z_:]+ samples with callchains \(record them with perfdb record -r profile\)\$" \
	cgdiff "$DB" --base s2 --new s2
py error "cgdiff with a sched-only side" 2 \
	"^perfdb cgdiff: $DB: session [0-9]+ has no cpu-clock samples with callchains \(record them with perfdb record -r profile\)\$" \
	cgdiff "$DB" --base p1 --new s2
py error "tree on a sched-only session" 2 \
	"^perfdb tree: $DB: session [0-9]+ has no [a-z_:]+ samples with callchains \(record them with perfdb record -r profile\)\$" \
	tree "$DB" -s s2
py error "folded on a sched-only session" 2 \
	"^perfdb folded: $DB: session [0-9]+ has no [a-z_:]+ samples with callchains \(record them with perfdb record -r profile\)\$" \
	folded "$DB" -s s2

# --- -n ROWS: rows of the long tables, everywhere ---------------------------------------
py rows sessions "$DB"
py rows results "$DB"
py rows sched "$DB" -s s1
py rows ipis "$DB" -s s1
py rows hitm "$DB" -s c2c
py rows watch "$DB" -s w
py rows cgdiff "$DB" --base p1 --new p2
py rows tree "$DB" -s p1
py rows folded "$DB" -s p1

# --- the version --------------------------------------------------------------------------
py version VERSION "$SRC"

echo "1..$n"
[ "$failed" -eq 0 ]
