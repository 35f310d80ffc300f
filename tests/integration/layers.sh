#!/bin/sh
# The layer rule of docs/architecture.md, checked from the #include lines:
# builtin -> {collect, analyze, reports} -> schema -> lib, collect, analyze
# and reports never include each other, reports never include schema; the
# rooms of a layer (its subfolders: collect/record, analyze/report, ...)
# include each other one way only (no cycle among them), and the files at
# a layer's root (what every room shares) include none of them; no file includes
# itself through others (no include cycles); no folder holds more than 25
# units directly. TAP.
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
    for root, dirs, names in os.walk(d):
        dirs.sort()
        files += [os.path.join(root, f) for f in sorted(names) if f.endswith((".c", ".h"))]
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
# rooms: a file's room is its folder below the layer (none at the layer's root)
def room(f):
    parts = f.split("/")
    return "/".join(parts[:2]) if len(parts) > 2 else None
edges = {}
for f, deps in graph.items():
    for d in deps:
        a, b = room(f), room(d)
        if a and b and a != b and a.split("/")[0] == b.split("/")[0]:
            edges.setdefault(a, {}).setdefault(b, "%s includes %s" % (f, d))
rcyc, rstate = [], {}
def rvisit(r, path):
    if rstate.get(r) == 1:
        loop = path[path.index(r):] + [r]
        rcyc.append(" -> ".join(loop) + " (" + "; ".join(edges[x][y] for x, y in zip(loop, loop[1:])) + ")")
        return
    if rstate.get(r) == 2:
        return
    rstate[r] = 1
    for b in sorted(edges.get(r, {})):
        rvisit(b, path + [r])
    rstate[r] = 2
for r in sorted(edges):
    rvisit(r, [])
say(not rcyc, "the rooms of a layer include each other one way only (%d rooms)" %
    len({room(f) for f in files if room(f)}), rcyc)
rootbad = ["%s includes %s" % (f, d) for f, deps in graph.items() for d in deps
           if f.count("/") == 1 and f.split("/")[0] in ("collect", "analyze") and room(d)
           and room(d).split("/")[0] == f.split("/")[0]]
say(not rootbad, "the files at collect/'s and analyze/'s root include no room", rootbad)
units = {}
for f in files:
    units.setdefault(os.path.dirname(f) or ".", set()).add(os.path.basename(f).rsplit(".", 1)[0])
big = ["%s: %d units" % (d, len(u)) for d, u in sorted(units.items()) if len(u) > 25]
say(not big, "no folder holds more than 25 units directly", big)
# the generated schema and version C files are build outputs; every source
# file in these folders has a comment on its first line
nocomment = [f for f in files if not open(f, encoding="utf-8").readline().startswith("/*")]
say(not nocomment, "every source file opens with a comment saying its role", nocomment)
print("1..%d" % n)
PY
