#!/usr/bin/env python3
"""An independent classifier of TLB-flush IPIs, from `perf script` text only
(none of perfdb's code or database): the oracle of tests/integration/ipis.sh.

Input: the output of
    perf script -i FILE --ns --show-task-events -F pid,tid,cpu,time,event,trace
Output (stdout): one JSON object: "ipis", "classes" {running, lazy, other,
unknown, unverified}, "matrix" {class: {reason1, reason5, reason0, none}},
"received", "mismatches" (received IPIs whose class contradicts the
receiver's reason: other without reason 5, reason 5 without other, running
with reason 0 or 5, lazy without reason 0), "examples" (a few of those),
"remote_flushes" (flush attempts, tlb_flush reason 4, of a user task while a
task of the same mm was current on another CPU: each must reach that CPU,
by IPI or, on a kernel that flushes by hypercall, without one).

The rules, from the kernel (arch/x86/mm/tlb.c) and perf's records:
- a flush IPI is a csd:csd_queue_cpu of flush_tlb_func; its flushed mm is
  the sending task's process (pid) in its exec generation at the send (an
  exiting task's too: it tears its mm down after sched_process_exit);
- its receiver is the target CPU's next csd_function_entry of
  flush_tlb_func with the same csd address (a csd is not queued again
  before its function ran, so a newer queue of it replaces an older one
  whose entry was not recorded); the receiver's verdict is the first
  tlb_flush on that CPU between that entry and its exit;
- kernel threads are pid 0, pid 2 and the tasks perf saw forked by pid 2
  (PERF_RECORD_FORK, synthesized for the tasks present at the start); a
  task after its sched_process_exit has no mm either;
- the class is what the receiver ran at its entry (the entry's pid/tid):
  a user task: running when it is the flushed mm, else other; a kernel
  thread or idle: the CPU holds, lazily, the mm of the last user task seen
  on that CPU (as the next or previous task of a sched_switch, or as any
  sample's task), unless a reason-0 tlb_flush came while a kernel thread or
  idle was current (the lazy CPU left for init_mm): lazy when that is the
  flushed mm, other when another or init_mm, unknown when no user task was
  seen yet; unknown too when the sender was a kernel thread; unverified
  without a receiver.
"""
import json
import re
import sys

LINE = re.compile(r'\s*(-?\d+)/(-?\d+)\s+\[(\d+)\]\s+(\d+)\.(\d+):\s+(\S+?):?\s+(.*)$')
FORK = re.compile(r'PERF_RECORD_FORK\((\d+):(\d+)\):\((\d+):(\d+)\)')
REASON = re.compile(r'\((\d+)\)\s*$')
CLASSES = ["running", "lazy", "other", "unknown", "unverified"]
VERDICTS = ["reason1", "reason5", "reason0", "none"]


def field(text, name):
    m = re.search(r'(?:^|[ ,])' + name + r'=(\S+?)(?:,|\s|$)', text)
    return m.group(1) if m else None


class World:
    """Who is who: pid of each tid, kernel threads, exec generations, exits."""

    def __init__(self):
        self.pid_of = {0: 0}
        self.parent = {}
        self.execs = {}     # pid -> [times of its execs]
        self.exited = set()

    def kernel_pid(self, tid):
        pid = self.pid_of.get(tid, tid)
        return pid in (0, 2) or self.parent.get(pid) == 2

    def kernel(self, tid):
        return self.kernel_pid(tid) or tid in self.exited

    def mm(self, tid, t, own=False):
        """(pid, exec generation) of task tid at time t, None for no mm;
        own: the task's own mm even after its exit (the one it tears down)."""
        if self.kernel(tid) and not (own and tid in self.exited and not self.kernel_pid(tid)):
            return None
        pid = self.pid_of.get(tid, tid)
        return (pid, sum(1 for x in self.execs.get(pid, []) if x <= t))


def parse(stream):
    """The events in perf's order: (time, cpu, pid, tid, event, text)."""
    for line in stream:
        if 'PERF_RECORD_' in line:
            m = FORK.search(line)
            if m:
                yield (None, None, None, None, 'fork', tuple(int(x) for x in m.groups()))
            continue
        m = LINE.match(line)
        if not m:
            continue
        pid, tid, cpu = int(m.group(1)), int(m.group(2)), int(m.group(3))
        t = int(m.group(4)) * 10**9 + int(m.group(5).ljust(9, '0')[:9])
        yield (t, cpu, pid, tid, m.group(6), m.group(7))


def remote_runner(w, cur, cpu, mm, t):
    """Whether a CPU other than cpu runs a task of mm (not None) at t."""
    return mm is not None and any(c != cpu and w.mm(x, t) == mm for c, x in cur.items())


def classify(stream, counts):
    """The flush IPIs of stream; counts["remote_flushes"] gets the flush
    attempts of an mm another CPU was running."""
    w = World()
    ipis = []            # [mm, class, verdict]
    pending = {}         # (target cpu, csd) -> ipi
    inside = {}          # cpu -> ipi whose function runs there
    cur = {}             # cpu -> tid current (last switch next or sample)
    last_user = {}       # cpu -> mm of the last user task seen there, or 'init'
    for t, cpu, pid, tid, ev, text in parse(stream):
        if ev == 'fork':
            cpid, ctid, ppid, _ = text
            w.pid_of[ctid] = cpid
            if cpid != ppid:
                w.parent[cpid] = ppid
            w.exited.discard(ctid)
            continue
        if tid >= 0:
            w.pid_of.setdefault(tid, pid)
        reason = None
        if ev == 'tlb:tlb_flush':
            m = REASON.search(text)
            reason = int(m.group(1)) if m else None
        # who ran: any sample's task (not switch_mm's reason-0 flush, traced
        # with the previous task still current), both sides of a switch
        if ev == 'sched:sched_switch':
            prev, nxt = int(field(text, 'prev_pid')), int(field(text, 'next_pid'))
            if w.mm(prev, t) is not None:
                last_user[cpu] = w.mm(prev, t)
            cur[cpu] = nxt
            if w.mm(nxt, t) is not None:
                last_user[cpu] = w.mm(nxt, t)
            continue
        if tid >= 0 and reason != 0:
            cur[cpu] = tid
            if w.mm(tid, t) is not None:
                last_user[cpu] = w.mm(tid, t)
        if ev == 'sched:sched_process_exec':
            w.execs.setdefault(pid, []).append(t)
            w.exited.discard(tid)
            last_user[cpu] = w.mm(tid, t)
        elif ev == 'sched:sched_process_exit':
            w.exited.add(tid)
        elif ev == 'sched:sched_process_fork':
            w.exited.discard(int(field(text, 'child_pid')))
        elif ev == 'tlb:tlb_flush':
            if reason == 0 and cpu in cur and w.kernel(cur[cpu]) and cpu in last_user:
                last_user[cpu] = 'init'
            if reason == 4 and remote_runner(w, cur, cpu, w.mm(tid, t), t):
                counts["remote_flushes"] += 1
            p = inside.get(cpu)
            if p is not None and p[2] is None and reason in (0, 1, 5):
                p[2] = 'reason%d' % reason
        elif ev == 'csd:csd_queue_cpu' and field(text, 'func') == 'flush_tlb_func':
            p = [w.mm(tid, t, own=True), 'unverified', None]
            ipis.append(p)
            pending[(int(field(text, 'cpu')), field(text, 'csd'))] = p
        elif ev == 'csd:csd_function_entry':
            inside.pop(cpu, None)
            p = pending.pop((cpu, field(text, 'csd')), None)
            if field(text, 'func') == 'flush_tlb_func' and p is not None:
                inside[cpu] = p
                p[1] = arrival_class(w, p[0], tid, t, last_user.get(cpu))
        elif ev == 'csd:csd_function_exit':
            inside.pop(cpu, None)
    return ipis


def arrival_class(w, flushed, tid, t, held):
    """The class of an IPI for mm flushed received by task tid at t on a
    CPU whose last user mm is held."""
    if flushed is None:
        return 'unknown'
    mine = w.mm(tid, t)
    if mine is not None:
        return 'running' if mine == flushed else 'other'
    if held is None:
        return 'unknown'
    return 'lazy' if held == flushed else 'other'


def agrees(cls, verdict):
    """The kernel's verdict for each class (flush_tlb_func): reason 5 where
    the loaded mm is another, 0 where it is held lazily, 1 or none (already
    up to date) where it runs."""
    if cls == 'other':
        return verdict == 'reason5'
    if cls == 'lazy':
        return verdict == 'reason0'
    if cls == 'running':
        return verdict in ('reason1', 'none')
    return True


def main():
    out = {"classes": {c: 0 for c in CLASSES},
           "matrix": {c: {v: 0 for v in VERDICTS} for c in CLASSES},
           "received": 0, "mismatches": 0, "examples": [], "remote_flushes": 0}
    ipis = classify(sys.stdin, out)
    out["ipis"] = len(ipis)
    for i, (mm, cls, verdict) in enumerate(ipis):
        v = verdict or 'none'
        out["classes"][cls] += 1
        out["matrix"][cls][v] += 1
        if cls == 'unverified':
            continue
        out["received"] += 1
        if not agrees(cls, v):
            out["mismatches"] += 1
            if len(out["examples"]) < 5:
                out["examples"].append({"ipi": i, "class": cls, "verdict": v})
    json.dump(out, sys.stdout, sort_keys=True)
    print()


if __name__ == '__main__':
    main()
