#!/bin/sh
# The layer rule of docs/architecture.md, checked from the #include lines:
# builtin -> {collect, analyze, reports} -> schema -> lib, collect, analyze
# and reports never include each other, reports never include schema; and
# no file includes itself through others (no include cycles). TAP.
cd "$(dirname "$0")/../.." || exit 1
exec python3 - <<'PY'
import os, re, sys

allowed = {
    "builtin": {"builtin", "collect", "analyze", "reports", "schema", "lib"},
    "collect": {"collect", "schema", "lib"},
    "analyze": {"analyze", "schema", "lib"},
    "reports": {"reports", "lib"},
    "schema": {"schema", "lib"},
    "lib": {"lib"},
}
files = ["perfdb.c"]
for d in allowed:
    files += [os.path.join(d, f) for f in sorted(os.listdir(d)) if f.endswith((".c", ".h"))]
inc = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
graph, bad = {}, []
for f in files:
    layer = f.split("/")[0] if "/" in f else "builtin"
    deps = []
    with open(f, encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            m = inc.match(line)
            if not m:
                continue
            target = m.group(1)
            tl = target.split("/")[0] if "/" in target else None
            deps.append(target)
            if tl not in allowed:
                bad.append("%s:%d includes %s, outside the layers" % (f, n, target))
            elif tl not in allowed[layer]:
                bad.append("%s:%d (%s) includes %s (%s)" % (f, n, layer, target, tl))
    graph[f] = deps
n = 0
def say(ok, what, det=()):
    global n
    n += 1
    print("%sok %d - %s" % ("" if ok else "not ", n, what))
    for d in det[:40]:
        print("#   " + d)
say(not bad, "every #include points down the layers (%d files)" % len(files), bad)
# cycles among headers
cyc, state = [], {}
def visit(f, path):
    if state.get(f) == 1:
        cyc.append(" -> ".join(path[path.index(f):] + [f]))
        return
    if state.get(f) == 2 or f not in graph:
        return
    state[f] = 1
    for d in graph[f]:
        visit(d, path + [f])
    state[f] = 2
for f in files:
    visit(f, [])
say(not cyc, "no include cycles", cyc)
# the generated schema and version C files are build outputs; every source
# file in these folders has a comment on its first line
nocomment = [f for f in files if not open(f, encoding="utf-8").readline().startswith("/*")]
say(not nocomment, "every source file opens with a comment saying its role", nocomment)
print("1..%d" % n)
PY
