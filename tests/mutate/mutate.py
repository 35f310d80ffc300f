#!/usr/bin/env python3
# Mutation testing of perfdb's numbers (tests/mutate/README.md): applies the
# mutants of tests/mutate/mutants.txt one at a time to a copy of the tree,
# rebuilds, runs the tests tests/mutate/map.txt names for the mutated file,
# and prints which mutants the tests killed, which survived and which did
# not compile (stillborn), per file and in all.
#
#   mutate.py [--full] [--check] [--only SUBSTR] [--list] [--build DIR]
#
# --full runs every mutant and every mapped test (default: the fast
# subset: mutants marked fast, tests not marked full:); --check exits 1
# when the kill rate is below tests/mutate/threshold (or on any error);
# --only keeps the mutants whose file or why contains SUBSTR; --list
# prints the mutants and checks that each applies, without building.
# The copy lives in DIR/src (default build-mutate/src), built there into
# its own build/; the tree's files and build/ are never written. A mutant
# whose text is not found exactly once in its file is an ERROR.
import argparse
import os
import shutil
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


class Mutant:
    """One mutant: in file, old (an exact text found once) becomes new."""

    def __init__(self, file, fast, equivalent, why, line):
        self.file, self.fast, self.equivalent, self.why, self.line = file, fast, equivalent, why, line
        self.old, self.new = [], []
        self.result, self.detail, self.secs = None, "", 0.0

    def text(self):
        return "\n".join(self.old), "\n".join(self.new)


def die(msg):
    print("mutate: " + msg, file=sys.stderr)
    sys.exit(2)


def parse_mutants(path):
    """The mutants of path: blocks '@ FILE | fast|full[,equivalent] | why'
    then '- OLD' lines and '+ NEW' lines (each without its '- ' or '+ ';
    several make a text of several lines; no '+' line: OLD is deleted)."""
    out, cur = [], None
    with open(path, encoding="utf-8") as f:
        for no, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if line.startswith("@ "):
                parts = [p.strip() for p in line[2:].split("|", 2)]
                if len(parts) != 3 or not parts[2]:
                    die("%s:%d: want '@ FILE | fast|full[,equivalent] | why'" % (path, no))
                flags = set(parts[1].split(","))
                if not flags <= {"fast", "full", "equivalent"} or ("fast" in flags) == ("full" in flags):
                    die("%s:%d: flags are fast or full, and maybe equivalent" % (path, no))
                cur = Mutant(parts[0], "fast" in flags, "equivalent" in flags, parts[2], no)
                out.append(cur)
            elif line.startswith("-") and cur is not None and not cur.new:
                cur.old.append(line[2:] if line.startswith("- ") else line[1:])
            elif line.startswith("+") and cur is not None:
                cur.new.append(line[2:] if line.startswith("+ ") else line[1:])
            elif line.strip() and not line.startswith("#"):
                die("%s:%d: not a mutant line: %s" % (path, no, line))
    for m in out:
        if not m.old:
            die("%s:%d: a mutant without a '- ' line" % (path, m.line))
    return out


def parse_map(path):
    """file -> [(test, full_only)] from 'FILE: TEST ...' lines (a test
    'full:NAME' runs only with --full)."""
    tests = {}
    with open(path, encoding="utf-8") as f:
        for no, raw in enumerate(f, 1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            if ":" not in line:
                die("%s:%d: want 'FILE: TEST ...'" % (path, no))
            file, rest = line.split(":", 1)
            lst = tests.setdefault(file.strip(), [])
            for t in rest.split():
                full = t.startswith("full:")
                lst.append((t[5:] if full else t, full))
    return tests


def tree_files():
    """The tree's files as git sees them (tracked and untracked, not
    ignored); outside a git checkout every file but the build folders."""
    try:
        out = subprocess.run(["git", "-C", ROOT, "ls-files", "-co", "--exclude-standard", "-z"],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=True).stdout.decode()
        names = out.split("\0")
    except (OSError, subprocess.CalledProcessError):
        names = []
        for d, subs, files in os.walk(ROOT):
            rel = os.path.relpath(d, ROOT)
            subs[:] = [x for x in subs if not (rel == "." and (x.startswith("build") or x == ".git"))]
            names += [os.path.normpath(os.path.join(rel, f)) for f in files]
    return sorted(p for p in names if p and os.path.isfile(os.path.join(ROOT, p)))


def sync_copy(src):
    """src mirrors the tree: files that differ are copied (a new mtime, so
    make rebuilds what they feed), files gone from the tree are removed."""
    files = tree_files()
    listed = os.path.join(src, ".mutate-files")
    old = set(open(listed).read().split("\0")) if os.path.exists(listed) else set()
    for p in files:
        a, b = os.path.join(ROOT, p), os.path.join(src, p)
        if os.path.exists(b) and not os.path.islink(a):
            with open(a, "rb") as fa, open(b, "rb") as fb:
                if fa.read() == fb.read():
                    continue
        os.makedirs(os.path.dirname(b), exist_ok=True)
        if os.path.lexists(b):
            os.remove(b)
        if os.path.islink(a):
            os.symlink(os.readlink(a), b)
        else:
            shutil.copyfile(a, b)
            shutil.copymode(a, b)
    for p in old - set(files) - {""}:
        if os.path.lexists(os.path.join(src, p)):
            os.remove(os.path.join(src, p))
    with open(listed, "w") as f:
        f.write("\0".join(files))


class Runner:
    """Builds and tests the copy; one child process group at a time, killed
    on a timeout or when the harness is stopped."""

    def __init__(self, src, shared):
        self.src, self.shared, self.child = src, shared, None

    def run(self, argv, timeout, log):
        env = dict(os.environ, PERFDB_BUILD="build", PERFDB=os.path.join(self.src, "build", "perfdb"),
                   PERFDB_SHARED=self.shared, LC_ALL="C")
        with open(log, "wb") as out:
            self.child = subprocess.Popen(argv, cwd=self.src, stdout=out, stderr=subprocess.STDOUT,
                                          stdin=subprocess.DEVNULL, env=env, start_new_session=True)
            try:
                rc = self.child.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.kill()
                rc = None
            self.child = None
        return rc

    def kill(self):
        if self.child and self.child.poll() is None:
            try:
                os.killpg(self.child.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.child.wait()

    def make(self, targets, log):
        return self.run(["make", "-j2"] + targets, 900, log) == 0

    def test(self, name, timeout, log):
        """(passed, why): runs unit binary test_* or integration script *.sh."""
        if name.endswith(".sh"):
            argv = ["sh", "tests/integration/" + name]
        else:
            argv = ["build/tests/" + name]
        rc = self.run(argv, timeout, log)
        if rc is None:
            return False, "timed out after %.0f s" % timeout
        with open(log, "rb") as f:
            text = f.read().decode("utf-8", "replace")
        bad = [l for l in text.splitlines() if l.startswith("not ok")]
        if bad:
            return False, bad[0][:160]
        if rc != 0:
            return False, "exit %d" % rc
        return True, ""


def targets_for(src, tests):
    """What make builds for tests: the unit binaries, and for integration
    scripts perfdb and the programs they run (tests/tools, workloads,
    tests/quirk); not the man pages and the other unit tests."""
    t = ["build/tests/" + n for n in tests if not n.endswith(".sh")]
    if any(n.endswith(".sh") for n in tests):
        t.append("build/perfdb")
        for folder, out in (("tests/tools", "build/tests/tools/"), ("workloads", "build/workloads/")):
            t += [out + f[:-2] for f in sorted(os.listdir(os.path.join(src, folder))) if f.endswith(".c")]
        t += ["build/tests/quirk/deafbp.so", "build/tests/quirk/bpwrite"]
    return t


def try_mutant(m, tests, runner, src, log, base_secs):
    """m's result and detail: each test built just before it runs (unit
    tests first, fastest first: most mutants die in the first, and linking
    the others would be wasted); the first test that fails kills; a build
    that fails (the first one: the mutated file is compiled there) makes
    the mutant stillborn."""
    for t in sorted(tests, key=lambda t: (t.endswith(".sh"), base_secs[t])):
        if not runner.make(targets_for(src, [t]), log):
            return "STILLBORN", "does not compile (%s)" % os.path.relpath(log, src)
        ok, why = runner.test(t, max(30.0, 4 * base_secs[t] + 20), log)
        if not ok:
            return "KILLED", "%s: %s" % (t, why)
    return "SURVIVED", ""


def apply(m, src):
    """The mutated text of m's file in the copy, or an ERROR string."""
    path = os.path.join(src, m.file)
    if not os.path.isfile(path):
        return None, "no file %s" % m.file
    text = open(path, encoding="utf-8").read()
    old, new = m.text()
    if old == new:
        return None, "its replacement is the same text"
    count = text.count(old)
    if count != 1:
        return None, "its text is found %d times in %s, not once: %r" % (count, m.file, old[:80])
    return text.replace(old, new), None


def object_of(src, file):
    return os.path.join(src, "build", os.path.splitext(file)[0] + ".o")


def main():
    ap = argparse.ArgumentParser(description="mutation testing of perfdb's numbers")
    ap.add_argument("--full", action="store_true")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--only", default="")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--build", default="build-mutate")
    a = ap.parse_args()
    t_start = time.time()
    mutants = parse_mutants(os.path.join(HERE, "mutants.txt"))
    tmap = parse_map(os.path.join(HERE, "map.txt"))
    threshold = float(open(os.path.join(HERE, "threshold")).read().split()[0])
    chosen = [m for m in mutants if (a.full or m.fast) and (a.only in m.file or a.only in m.why)]
    errors = []
    for m in chosen:
        tests = [t for t, full in tmap.get(m.file, []) if a.full or not full]
        if not tests:
            m.result, m.detail = "ERROR", "no %stest maps this file" % ("" if a.full else "fast ")
            errors.append("%s (mutants.txt:%d): %s" % (m.file, m.line, m.detail))
    base = os.path.join(ROOT, a.build) if not os.path.isabs(a.build) else a.build
    src = os.path.join(base, "src")
    os.makedirs(src, exist_ok=True)
    sync_copy(src)
    for m in chosen:
        _, err = apply(m, src)
        if err and m.result is None:
            m.result, m.detail = "ERROR", err
            errors.append("%s (mutants.txt:%d): %s" % (m.file, m.line, err))
    if a.list:
        for m in chosen:
            print("%-6s %-44s %s%s" % (m.result or "ok", m.file, m.why, " (equivalent)" if m.equivalent else ""))
        for e in errors:
            print("ERROR " + e)
        return 1 if errors else 0
    shared = os.environ.get("PERFDB_SHARED", os.path.join(os.path.dirname(ROOT), "shared"))
    runner = Runner(src, shared)
    logs = os.path.join(base, "logs")
    os.makedirs(logs, exist_ok=True)
    restore = {}

    def stop(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGHUP, stop)
    try:
        return run_all(a, chosen, tmap, runner, src, logs, restore, errors, threshold, t_start)
    except KeyboardInterrupt:
        print("mutate: stopped; the copy's files are put back", file=sys.stderr)
        return 130
    finally:
        runner.kill()
        for path, text in restore.items():
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            if os.path.exists(object_of(src, os.path.relpath(path, src))):
                os.remove(object_of(src, os.path.relpath(path, src)))


def run_all(a, chosen, tmap, runner, src, logs, restore, errors, threshold, t_start):
    live = [m for m in chosen if m.result is None]
    files = sorted({m.file for m in live})
    needed = sorted({t for f in files for t, full in tmap.get(f, []) if a.full or not full})
    print("# mutate: %d mutants of %d files (%s), %d tests; copy in %s" %
          (len(live), len(files), "all" if a.full else "fast subset", len(needed), os.path.relpath(src, ROOT)))
    sys.stdout.flush()
    if not runner.make(targets_for(src, needed), os.path.join(logs, "build.log")):
        print("mutate: the unmutated copy does not build (see %s)" % os.path.join(logs, "build.log"))
        return 2
    base_secs = {}
    for t in needed:
        t0 = time.time()
        ok, why = runner.test(t, 1800, os.path.join(logs, "baseline-" + t + ".log"))
        base_secs[t] = time.time() - t0
        if not ok:
            print("mutate: test %s fails without a mutant (%s): nothing can be measured" % (t, why))
            return 2
    print("# baseline: every test passes unmutated (%.0f s)" % sum(base_secs.values()))
    for i, m in enumerate(live, 1):
        path = os.path.join(src, m.file)
        text, err = apply(m, src)
        original = open(path, encoding="utf-8").read()
        tests = sorted((t for t, full in tmap[m.file] if a.full or not full), key=lambda t: base_secs[t])
        t0 = time.time()
        restore[path] = original
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        m.result, m.detail = try_mutant(m, tests, runner, src, os.path.join(logs, "mutant-%d.log" % m.line),
                                        base_secs)
        with open(path, "w", encoding="utf-8") as f:
            f.write(original)
        del restore[path]
        if os.path.exists(object_of(src, m.file)):
            os.remove(object_of(src, m.file))
        m.secs = time.time() - t0
        tag = m.result + (" (equivalent)" if m.equivalent and m.result == "SURVIVED" else "")
        print("%-9s %3d/%d %s:%d %s [%.1f s]%s" % (tag, i, len(live), m.file, m.line, m.why, m.secs,
                                                 "\n          " + ("by " if m.result == "KILLED" else "") + m.detail
                                                 if m.detail else ""))
        sys.stdout.flush()
    runner.make(targets_for(src, needed), os.path.join(logs, "build.log"))	# the copy's build unmutated again
    return report(a, chosen, errors, threshold, time.time() - t_start)


def report(a, chosen, errors, threshold, secs):
    rows = {}
    for m in chosen:
        r = rows.setdefault(m.file, {"KILLED": 0, "SURVIVED": 0, "STILLBORN": 0, "ERROR": 0, "equiv": 0})
        r[m.result] += 1
        r["equiv"] += m.result == "SURVIVED" and m.equivalent
    print("\n%-44s %6s %8s %9s %5s" % ("file", "killed", "survived", "stillborn", "error"))
    tot = {"KILLED": 0, "SURVIVED": 0, "STILLBORN": 0, "ERROR": 0, "equiv": 0}
    for f in sorted(rows):
        r = rows[f]
        print("%-44s %6d %8d %9d %5d" % (f, r["KILLED"], r["SURVIVED"], r["STILLBORN"], r["ERROR"]))
        for k in tot:
            tot[k] += r[k]
    print("%-44s %6d %8d %9d %5d" % ("total", tot["KILLED"], tot["SURVIVED"], tot["STILLBORN"], tot["ERROR"]))
    judged = tot["KILLED"] + tot["SURVIVED"]
    rate = tot["KILLED"] / judged if judged else 0.0
    print("\nsurvivors:")
    for m in chosen:
        if m.result == "SURVIVED":
            print("  %s:%d %s%s" % (m.file, m.line, m.why,
                                    " (equivalent: tests/mutate/README.md)" if m.equivalent else " (NOT EXPLAINED)"))
    for e in errors:
        print("ERROR " + e)
    machine = ""
    try:
        machine = [l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")][0]
    except (OSError, IndexError):
        pass
    print("# machine: %s, %d CPUs online, kernel %s" % (machine, os.cpu_count() or 0, os.uname().release))
    print("mutation score (%s): %d killed of %d (%.1f%%); %d survived (%d listed as equivalent), "
          "%d stillborn, %d errors; %.1f min" % ("all" if a.full else "fast subset", tot["KILLED"], judged,
                                                 100 * rate, tot["SURVIVED"], tot["equiv"], tot["STILLBORN"],
                                                 len(errors), secs / 60))
    if a.check:
        if errors:
            print("mutate: FAIL: %d errors" % len(errors))
            return 1
        if rate < threshold:
            print("mutate: FAIL: the kill rate %.1f%% is below tests/mutate/threshold (%.1f%%)" %
                  (100 * rate, 100 * threshold))
            return 1
        print("mutate: the kill rate %.1f%% is at or above tests/mutate/threshold (%.1f%%)" %
              (100 * rate, 100 * threshold))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
