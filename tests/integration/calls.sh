#!/bin/sh
# No circles of calls among the .c files (docs/architecture.md, "Rooms"):
# the call graph comes from the built objects, not the sources. nm of each
# $PERFDB_BUILD/X.o (default build/) for every X.c of collect/, analyze/,
# reports/, schema/, lib/ and builtin/ says which file defines each global
# symbol and which files use it; file a calls file b when a uses a symbol b
# defines. Within every folder (a layer's root, or a room such as
# collect/perfdata) the files must call each other one way only: no file
# calls, through others of its folder, back into itself. Neither may a
# circle run through several folders, and the rooms of a layer call each
# other one way only, as they include each other (layers.sh). A circle is
# shown with the symbols behind each of its calls. Skipped, saying why,
# when nm is missing or the objects are missing or older than their
# sources (run make first). TAP.
cd "$(dirname "$0")/../.." || exit 1
exec python3 - "${PERFDB_BUILD:-build}" <<'PY'
import os, shutil, subprocess, sys

build = sys.argv[1]
n = failed = 0
def say(ok, what, det=()):
    global n, failed
    n += 1
    failed += not ok
    print("%sok %d - %s" % ("" if ok else "not ", n, what))
    for d in det[:40]:
        print("#   " + d)
def skip_all(why):
    print("ok 1 - # SKIP no circles of calls: %s" % why)
    print("1..1")
    sys.exit(0)

srcs = []
for top in ("collect", "analyze", "reports", "schema", "lib", "builtin"):
    for root, dirs, names in os.walk(top):
        dirs.sort()
        srcs += [os.path.join(root, f) for f in sorted(names) if f.endswith(".c")]
obj = {s: os.path.join(build, s[:-2] + ".o") for s in srcs}
if not shutil.which("nm"):
    skip_all("nm is not installed")
missing = [s for s in srcs if not os.path.exists(obj[s])]
stale = [s for s in srcs if s not in missing and os.path.getmtime(obj[s]) < os.path.getmtime(s)]
if missing:
    skip_all("%s/ has no object for %d of %d sources (%s ...): run make" %
             (build, len(missing), len(srcs), missing[0]))
if stale:
    skip_all("%d source files are newer than their objects in %s/ (%s ...): run make" %
             (len(stale), build, stale[0]))

# nm -P -A: "FILE: NAME TYPE [VALUE SIZE]"; upper-case types but U are
# global definitions (text, data, bss, read-only, common, weak)
out = subprocess.run(["nm", "-P", "-A"] + [obj[s] for s in srcs],
                     capture_output=True, text=True, check=True).stdout
src_of = {obj[s]: s for s in srcs}
defs, uses = {}, {s: set() for s in srcs}
for line in out.splitlines():
    path, _, rest = line.partition(": ")
    f = rest.split()
    if path not in src_of or len(f) < 2:
        continue
    if f[1] == "U":
        uses[src_of[path]].add(f[0])
    elif f[1] in "TDBRCVWGS":
        defs.setdefault(f[0], src_of[path])
calls = {s: {} for s in srcs}	# a -> b -> the symbols a uses of b
for s, us in uses.items():
    for u in us:
        d = defs.get(u)
        if d and d != s:
            calls[s].setdefault(d, []).append(u)
print("# %d files, %d calls between them (from nm of %s/)" %
      (len(srcs), sum(len(v) for v in calls.values()), build))

def circles(graph):
    """The strongly connected parts of graph with two nodes or more
    (Tarjan's algorithm, iterative), each sorted."""
    index, low, on, stack, found, nxt = {}, {}, set(), [], [], [0]
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = nxt[0]; nxt[0] += 1
        stack.append(root); on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = nxt[0]; nxt[0] += 1
                    stack.append(w); on.add(w)
                    work.append((w, iter(sorted(graph.get(w, ())))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                part = []
                while True:
                    w = stack.pop(); on.discard(w); part.append(w)
                    if w == v:
                        break
                if len(part) > 1:
                    found.append(sorted(part))
    return found

def shown(part, graph, why):
    lines = ["circle: " + " ".join(part)]
    for a in part:
        for b in part:
            if b in graph.get(a, {}):
                lines.append("  %s -> %s: %s" % (a, b, why(a, b)))
    return lines

def syms(a, b):
    return " ".join(sorted(calls[a][b])[:6]) + (" ..." if len(calls[a][b]) > 6 else "")

folder = lambda s: os.path.dirname(s)
parts = circles(calls)
for d in sorted({folder(s) for s in srcs}):
    inside = [p for p in parts if all(folder(s) == d for s in p)]
    det = [l for p in inside for l in shown(p, calls, syms)]
    say(not inside, "no circle among the .c files of %s/ (%d files)" %
        (d, sum(folder(s) == d for s in srcs)), det)
across = [p for p in parts if len({folder(s) for s in p}) > 1]
say(not across, "no circle of calls runs through several folders",
    [l for p in across for l in shown(p, calls, syms)])

# rooms: collect/X and analyze/X; a room calls another when one of its
# files calls one of the other's
def room(s):
    p = s.split("/")
    return "/".join(p[:2]) if len(p) > 2 and p[0] in ("collect", "analyze") else None
rcalls = {}
for a, bs in calls.items():
    for b in bs:
        ra, rb = room(a), room(b)
        if ra and rb and ra != rb:
            rcalls.setdefault(ra, {}).setdefault(rb, []).append("%s -> %s" % (a, b))
rparts = circles(rcalls)
say(not rparts, "the rooms of collect/ and analyze/ call each other one way only (%d rooms)" %
    len({room(s) for s in srcs if room(s)}),
    [l for p in rparts for l in shown(p, rcalls, lambda a, b: "; ".join(rcalls[a][b][:3]))])
print("1..%d" % n)
sys.exit(1 if failed else 0)
PY
