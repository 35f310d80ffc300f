#!/usr/bin/env python3
"""Compares what perfdb stored for one session with what perf script prints.

Used by tests/integration/import_oracle.sh and shared_perfdata.sh. Each
subcommand prints result lines "ok - WHAT", "not ok - WHAT" or
"skip - WHAT # reason", and "# ..." detail lines; lib/tap.sh numbers them.
The exit status is 0 unless the arguments or inputs are unusable.

  counts SESSIONS_JSON SESSION EVENTS_TXT LABEL
      per-event sample counts of `perfdb sessions --format json` against
      `perf script -F event` (one line per sample).
  sessions-json SESSIONS_JSON LABEL
      the JSON is valid: an array of sessions with id, label, samples, lost
      and events, where events add up to samples.
  same-counts SESSIONS_JSON ID1 ID2 LABEL
      two sessions have the same sample and per-event counts.
  cols DB SESSION
      prints the perf script -F fields every event of the session has
      (pid,tid / cpu / time), for the caller to pass to perf script.
  memcols DB SESSION
      prints the memory columns (addr,data_src,...) the session's memory
      samples have, for perf script -F and fields --mem.
  fields DB SESSION PERF_TXT LABEL [--cols C] [--trace] [--mem M] [--default]
         [--raw-syms] [--no-ids]
      every sample's pid/tid, cpu, time (at the microsecond perf prints)
      and, with --trace, its tracepoint fields formatted as the kernel's
      print format does, against perf script -F C,event[,trace][,M];
      with --mem, the mem_sample columns M (addr,data_src,weight,...).
      --default: PERF_TXT is perf script's default output (comm tid [cpu]
      time: event: trace). --raw-syms: code pointers as addresses (perf
      6.1 prints a pipe-mode file's so). --no-ids: only the field check.
  chains DB SESSION PERF_TXT LABEL [--cols C] [--syms] [--sym-comms A,B]
         [--discarded-ok]
      callchain depth (and, with --syms, each frame's symbol where perf
      resolves it, and the sample's own symbol; only for threads named A,
      B, ... with --sym-comms) against
      perf script -F C,event,ip,sym,symoff,dso; --discarded-ok: callchains
      perf drops as corrupt are left out (a comment says how many).
  plt DB SESSION PERF_TXT LABEL [--range DSO:OFFSET:SIZE]... [--min DSO:N]...
      each sample whose first frame perf prints at an offset in
      [OFFSET, OFFSET+SIZE) (hex) of DSO (its PLT sections) has perf's symbol name in perfdb, and at
      least N of DSO's are NAME@plt; PERF_TXT is perf script -F
      pid,tid,time,event,ip,sym,dso with callchains.
  plt-perf PERF_TXT EVENT [--range DSO:OFFSET:SIZE]... [--min DSO:N]...
      exits 0 when perf itself names at least N first frames of EVENT's
      samples in DSO's ranges NAME@plt, for every --min; 1 when not (the caller records
      again, longer).
  cpumask DB SESSION NCPU LABEL
      ipi_send_cpumask: at least one row per sample, every target CPU < NCPU.
  header DB SESSION HEADER_TXT LABEL
      session metadata against perf report --header-only.
  memrows DB SESSION PERF_TXT LABEL
      mem_sample rows exactly for the samples whose addr/data_src (perf
      script -F event,addr,data_src) carry memory information.
  same-db DB1 DB2 LABEL
      every table holds the same rows in both (session: but source and
      import time).
  sql-eq DB LABEL EXPECTED SQL
      one SQL value equals EXPECTED.
  corrupt-chain IN OUT
      copies a perf.data file with one user callchain entry set to
      0xffffffffffffffff (see cmd_corrupt_chain).
  rezstd IN OUT LAST [LEVEL [RECORDS]]
      copies a perf.data file with its zstd stream (its first RECORDS
      records) compressed again into COMPRESSED records, the last of LAST
      bytes (see cmd_rezstd).
  zstd-cuts FILE PERFDB TMPDIR LABEL STEP
      rezstd copies of FILE cut after every STEP records, each imported by
      PERFDB: exit 0 and perf script's sample count.
  fix-attr-size IN OUT
      copies a perf.data file whose attrs have attr.size 136 (perf >= 6.3,
      config3) rewritten to 128 when config3 is 0, so that perf 6.1 reads it.
"""
import collections
import json
import os
import re
import sqlite3
import struct
import subprocess
import sys

MASK64 = (1 << 64) - 1
MAX_DETAIL = 2

# sample_type bits
S_TID, S_TIME, S_CPU = 1 << 1, 1 << 2, 1 << 7
PERF_TYPE_TRACEPOINT = 2


def result(ok, what, details=()):
    print(("ok - " if ok else "not ok - ") + what)
    for d in list(details)[:MAX_DETAIL * 3]:
        print("#   " + d)


def skip(what, why):
    print("skip - %s # %s" % (what, why))


def u64(v):
    return None if v is None else v & MASK64


def connect(path):
    db = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
    db.text_factory = lambda b: b.decode("latin-1")
    return db


def read_lines(path):
    with open(path, encoding="latin-1") as f:
        return f.read().split("\n")


# --- counts ---------------------------------------------------------------

def load_sessions(path):
    """The sessions of `perfdb sessions --format json` (the common
    envelope: findings.sessions rows and findings.events rows) as a list
    of session objects, each with an "events" object {name: samples} and
    "lost" (the events perf's LOST records lost; LOST_SAMPLES count the
    same losses again, per event)."""
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    if not isinstance(doc, dict) or doc.get("verb") != "sessions":
        raise ValueError("not the envelope of perfdb sessions")
    rows = doc["findings"]["sessions"]
    for r in rows:
        r["events"] = {e["event"]: e["samples"] for e in doc["findings"]["events"]
                       if e["session"] == r["id"]}
        r["lost"] = r["lost_events"]
    return rows


def session_by_id(sessions, sid):
    for s in sessions:
        if str(s.get("id")) == str(sid):
            return s
    return None


def cmd_counts(args):
    sj, sid, evtxt, label = args
    try:
        s = session_by_id(load_sessions(sj), sid)
    except ValueError as e:
        return result(False, "%s: sessions json parses (%s)" % (label, e))
    if s is None:
        return result(False, "%s: session %s in perfdb sessions" % (label, sid))
    perf = collections.Counter()
    for line in read_lines(evtxt):
        line = line.strip()
        if not line:
            continue
        if line.endswith(":"):
            line = line[:-1]
        perf[line] += 1
    mine = {k: v for k, v in s.get("events", {}).items()}
    names = sorted(set(perf) | set(mine))
    bad = ["%s: perfdb %s, perf script %d" % (n, mine.get(n, "absent"), perf.get(n, 0))
           for n in names if mine.get(n, 0) != perf.get(n, 0)]
    total = sum(perf.values())
    if s.get("samples") != total:
        bad.append("total: perfdb samples %s, perf script %d" % (s.get("samples"), total))
    shown = ", ".join("%s=%d" % (n, perf[n]) for n in sorted(perf, key=lambda n: -perf[n])[:6])
    result(not bad and total > 0,
           "%s: per-event sample counts equal perf script's (%d samples, %d events: %s%s)"
           % (label, total, len(perf), shown, ", ..." if len(perf) > 6 else ""), bad)


def cmd_sessions_json(args):
    sj, label = args
    try:
        ss = load_sessions(sj)
    except ValueError as e:
        return result(False, "%s: perfdb sessions --format json is valid JSON (%s)" % (label, e))
    bad = []
    if not isinstance(ss, list) or not ss:
        bad.append("not a non-empty array")
        ss = []
    for s in ss:
        for k in ("id", "label", "samples", "lost", "events"):
            if not isinstance(s, dict) or k not in s:
                bad.append("session lacks key %s: %r" % (k, s)[:200])
        if isinstance(s, dict) and isinstance(s.get("events"), dict):
            if sum(s["events"].values()) != s.get("samples"):
                bad.append("session %s: events add up to %d, samples %s"
                           % (s.get("id"), sum(s["events"].values()), s.get("samples")))
    result(not bad, "%s: perfdb sessions --format json is valid JSON with id, label, samples, "
           "lost, events per session (%d sessions)" % (label, len(ss)), bad)


def cmd_same_counts(args):
    sj, a, b, label = args
    ss = load_sessions(sj)
    sa, sb = session_by_id(ss, a), session_by_id(ss, b)
    ok = (sa is not None and sb is not None and sa["id"] != sb["id"]
          and sa["samples"] == sb["samples"] and sa["events"] == sb["events"]
          and sa["samples"] > 0)
    det = [] if ok else ["session %s: %s" % (a, sa and (sa["samples"], sa["events"])),
                         "session %s: %s" % (b, sb and (sb["samples"], sb["events"]))]
    result(ok, "%s: importing the file twice gives two sessions (%s, %s) with equal counts (%s samples)"
           % (label, a, b, sa and sa["samples"]), det)


# --- per-sample fields ------------------------------------------------------

def event_rows(db, sid):
    """event id -> (name, type, sample_type)"""
    return {r[0]: (r[1], r[2], r[3]) for r in db.execute(
        "SELECT id, name, type, sample_type FROM event WHERE session_id = ?", (sid,))}


def cmd_cols(args):
    db = connect(args[0])
    ev = event_rows(db, int(args[1]))
    st = MASK64
    for name, typ, sample_type in ev.values():
        st &= sample_type or 0
    cols = []
    if st & S_TID:
        cols.append("pid,tid")
    if st & S_CPU:
        cols.append("cpu")
    if st & S_TIME:
        cols.append("time")
    print(",".join(cols))


def cmd_memcols(args):
    """Prints the mem_sample columns perf script can print for the session's
    memory events (addr,data_src,weight,ins_lat,phys_addr by sample_type),
    or nothing when it has no mem_sample row."""
    db = connect(args[0])
    sid = int(args[1])
    row = db.execute("SELECT e.sample_type FROM mem_sample m JOIN sample s ON s.id = m.sample_id "
                     "JOIN event e ON e.id = s.event_id WHERE s.session_id = ? LIMIT 1", (sid,)).fetchone()
    if not row:
        return
    st = row[0]
    cols = [c for c, bit in (("addr", 3), ("data_src", 15)) if st & (1 << bit)]
    if st & (1 << 14 | 1 << 24):
        cols.append("weight")
    if st & (1 << 24):
        cols.append("ins_lat")
    if st & (1 << 19):
        cols.append("phys_addr")
    print(",".join(cols))


def samples(db, sid):
    """Rows (id, event_id, time, cpu, pid, tid, comm, symbol, stack_id) in id order."""
    return db.execute(
        "SELECT s.id, s.event_id, s.time, s.cpu, t.pid, t.tid, t.comm, sym.name, s.stack_id "
        "FROM sample s LEFT JOIN thread t ON t.id = s.thread_id "
        "LEFT JOIN symbol sym ON sym.id = s.symbol_id "
        "WHERE s.session_id = ? ORDER BY s.id", (sid,)).fetchall()


def fmt_time(t):
    return "%d.%06d" % (t // 1000000000, (t % 1000000000) // 1000)


def ptr(v):
    """%p as perf's libtraceevent prints it."""
    v = u64(v)
    if v is None:
        return "None"
    return "(nil)" if v == 0 else "0x%x" % v


RAW_SYMS = False


def sym_S(addr, sym):
    """%pS / %ps: perfdb keeps the symbol text as perf prints it; unresolved
    addresses print as 0x... (0x0 for NULL). With RAW_SYMS (perf 6.1 reads
    a pipe-mode file without kernel symbols for tracepoint fields) the
    address."""
    if sym is not None and not RAW_SYMS:
        return sym
    return "0x%x" % u64(addr) if addr is not None else "None"


def tf(v):
    return "true" if v else "false"


def prev_state_formatter():
    """The sched_switch prev_state text, from the kernel's print format
    (TASK_REPORT flags and letters), as perf's __print_flags prints it."""
    flags = [(0x1, "S"), (0x2, "D"), (0x4, "T"), (0x8, "t"), (0x10, "X"),
             (0x20, "Z"), (0x40, "P"), (0x80, "I")]
    report = 0x7f
    try:
        with open("/sys/kernel/tracing/events/sched/sched_switch/format") as f:
            fmt = f.read()
        got = [(int(v, 16), c) for v, c in re.findall(r'\{ (0x[0-9a-fA-F]+), "(\w)" \}', fmt)]
        m = re.search(r'\(\(\(((?:0x[0-9a-fA-F]+ \| )*0x[0-9a-fA-F]+)\) \+ 1\) << 1\)', fmt)
        if got and m:
            flags = got
            report = 0
            for v in m.group(1).split("|"):
                report |= int(v.strip(), 16)
    except OSError:
        pass
    maxv = (report + 1) << 1

    def f(state):
        s = state & (maxv - 1)
        text = "|".join(c for v, c in flags if s & v) if s else "R"
        return text + ("+" if state & maxv else "")
    return f


PREV_STATE = prev_state_formatter()
TLB_REASON = {0: "flush on task switch", 1: "remote shootdown", 2: "local shootdown",
              3: "local MM shootdown", 4: "remote IPI send", 5: "remote wrong CPU"}


def fmt_mmap_lock(r, success=False):
    mm, memcg_id, memcg_path, write = r[:4]
    s = "mm=%s " % ptr(mm)
    s += ("memcg_id=%d" % u64(memcg_id)) if memcg_id is not None else "memcg_path=%s" % memcg_path
    s += " write=%s" % tf(write)
    if success:
        s += " success=%s" % tf(r[4])
    return s


# event name (without system) -> (table, columns, formatter of the row)
FORMATS = {
    "sched_switch": ("sched_switch", "prev_comm, prev_pid, prev_prio, prev_state, next_comm, next_pid, next_prio",
                     lambda r: "prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s ==> next_comm=%s next_pid=%d next_prio=%d"
                     % (r[0], r[1], r[2], PREV_STATE(r[3]), r[4], r[5], r[6])),
    "sched_migrate_task": ("sched_migrate_task", "comm, pid, prio, orig_cpu, dest_cpu",
                           lambda r: "comm=%s pid=%d prio=%d orig_cpu=%d dest_cpu=%d" % r),
    "sched_process_fork": ("sched_process_fork", "parent_comm, parent_pid, child_comm, child_pid",
                           lambda r: "comm=%s pid=%d child_comm=%s child_pid=%d" % r),
    "sched_process_exec": ("sched_process_exec", "filename, pid, old_pid",
                           lambda r: "filename=%s pid=%d old_pid=%d" % r),
    "sched_process_exit": ("sched_process_exit", "comm, pid, prio, group_dead",
                           lambda r: "comm=%s pid=%d prio=%d group_dead=%s" % (r[0], r[1], r[2], tf(r[3]))),
    "tlb_flush": ("tlb_flush", "reason, pages",
                  lambda r: "pages:%d reason:%s (%d)" % (r[1], TLB_REASON.get(r[0], ""), r[0])),
    "ipi_send_cpu": ("ipi_send_cpu", "cpu, callsite, callsite_sym, callback, callback_sym",
                     lambda r: "cpu=%d callsite=%s callback=%s" % (r[0], sym_S(r[1], r[2]), sym_S(r[3], r[4]))),
    "csd_queue_cpu": ("csd_queue_cpu", "cpu, callsite, callsite_sym, func, func_sym, csd",
                      lambda r: "cpu=%d callsite=%s func=%s csd=%s"
                      % (r[0], sym_S(r[1], r[2]), sym_S(r[3], r[4]), ptr(r[5]))),
    "csd_function_entry": ("csd_function_entry", "func, func_sym, csd",
                           lambda r: "func=%s, csd=%s" % (sym_S(r[0], r[1]), ptr(r[2]))),
    "csd_function_exit": ("csd_function_exit", "func, func_sym, csd",
                          lambda r: "func=%s, csd=%s" % (sym_S(r[0], r[1]), ptr(r[2]))),
    "mmap_lock_start_locking": ("mmap_lock_start_locking", "mm, memcg_id, memcg_path, write",
                                lambda r: fmt_mmap_lock(r)),
    "mmap_lock_acquire_returned": ("mmap_lock_acquire_returned", "mm, memcg_id, memcg_path, write, success",
                                   lambda r: fmt_mmap_lock(r, True)),
    "mmap_lock_released": ("mmap_lock_released", "mm, memcg_id, memcg_path, write",
                           lambda r: fmt_mmap_lock(r)),
    "exit_mmap": ("exit_mmap", "mm, mt", lambda r: "mt_mod %s, DESTROY" % ptr(r[1])),
}
for _n in ("sched_waking", "sched_wakeup", "sched_wakeup_new"):
    FORMATS[_n] = (_n, "comm, pid, prio, target_cpu",
                   lambda r: "comm=%s pid=%d prio=%d target_cpu=%03d" % r)
for _n in ("call_function_entry", "call_function_exit",
           "call_function_single_entry", "call_function_single_exit"):
    FORMATS[_n] = (_n, "vector", lambda r: "vector=%d" % r)

# perf 6.1 cannot print these (its libtraceevent lacks __get_cpumask)
NO_TRACE_TEXT = {"ipi_send_cpumask"}


def generic_trace(fields_json):
    """Tracepoints in the generic table: uprobes/kprobes print (ip)."""
    try:
        d = json.loads(fields_json)
    except (TypeError, ValueError):
        return None
    if list(d) == ["__probe_ip"]:
        return "(%x)" % u64(d["__probe_ip"])
    return None


def trace_texts(db, sid, ev):
    """sample id -> trace text (None: not compared) for tracepoint samples;
    event ids whose trace text is compared."""
    out, compared = {}, set()
    for eid, (name, typ, _) in ev.items():
        if typ != PERF_TYPE_TRACEPOINT:
            continue
        short = name.split(":", 1)[-1]
        if short in NO_TRACE_TEXT:
            continue
        if short in FORMATS:
            table, cols, f = FORMATS[short]
            q = ("SELECT x.sample_id, %s FROM %s x JOIN sample s ON s.id = x.sample_id "
                 "WHERE s.session_id = ? AND s.event_id = ?"
                 % (", ".join("x." + c.strip() for c in cols.split(",")), table))
            for row in db.execute(q, (sid, eid)):
                try:
                    out[row[0]] = f(tuple(row[1:]))
                except (TypeError, ValueError) as e:
                    out[row[0]] = "<cannot format %r: %s>" % (row[1:], e)
            compared.add(eid)
        else:
            q = ("SELECT x.sample_id, x.fields FROM tracepoint x JOIN sample s ON s.id = x.sample_id "
                 "WHERE s.session_id = ? AND s.event_id = ?")
            rows = db.execute(q, (sid, eid)).fetchall()
            texts = {r[0]: generic_trace(r[1]) for r in rows}
            if rows and all(t is not None for t in texts.values()):
                out.update(texts)
                compared.add(eid)
    return out, compared


MEM_COLS = {"addr": "addr", "phys_addr": "phys_addr", "data_src": "data_src",
            "weight": "weight", "ins_lat": "ins_lat"}


def mem_texts(db, sid, mem):
    q = "SELECT m.sample_id, %s FROM mem_sample m JOIN sample s ON s.id = m.sample_id WHERE s.session_id = ?" % (
        ", ".join("m." + MEM_COLS[c] for c in mem))
    out = {}
    for row in db.execute(q, (sid,)):
        parts = []
        for c, v in zip(mem, row[1:]):
            if c in ("addr", "phys_addr", "data_src"):
                parts.append("%s=%x" % (c, u64(v)) if v is not None else "%s=None" % c)
            else:
                parts.append("%s=%s" % (c, v))
        out[row[0]] = " ".join(parts)
    return out


def parse_perf_mem(rest, mem):
    """What perf script -F ...,addr,data_src,weight,ins_lat,phys_addr prints
    after the event: addr, data_src and its decoded "|OP ...|" text, then
    weight, ins_lat, phys_addr (perf 6.1's order), as mem_texts() does."""
    toks = rest.split()
    vals = {}
    head = [c for c in ("addr", "data_src") if c in mem]
    tail = [c for c in ("weight", "ins_lat", "phys_addr") if c in mem]
    for c, t in zip(head, toks):
        vals[c] = t
    if tail:
        for c, t in zip(tail, toks[len(toks) - len(tail):]):
            vals[c] = t
    parts = []
    for c in mem:
        t = vals.get(c)
        if t is None:
            parts.append("%s=None" % c)
        elif c in ("addr", "phys_addr", "data_src"):
            parts.append("%s=%x" % (c, int(t, 16)))
        else:
            parts.append("%s=%d" % (c, int(t)))
    return " ".join(parts)


def head_regex(cols):
    r = r"\s*"
    if "pid" in cols:
        r += r"(?P<pid>-?\d+)/(?P<tid>-?\d+)\s+"
    if "cpu" in cols:
        r += r"\[(?P<cpu>\d+)\]\s+"
    if "time" in cols:
        r += r"(?P<time>\d+\.\d+):\s+"
    return re.compile(r)


def split_event(s, names):
    """(event name, rest) of "NAME: rest" or "NAME:"; None if NAME is not
    one of the session's events (names contain ':' but never ': ')."""
    i = s.find(": ")
    name, rest = (s[:i], s[i + 2:]) if i >= 0 else (s[:-1], "") if s.endswith(":") else (None, "")
    return (name, rest) if name in names else None


def parse_head_line(line, cols, names, rx=None):
    """((pid, tid, cpu, time, event), event, rest) or None; absent columns
    are None, time is the text perf prints."""
    m = (rx or head_regex(cols)).match(line)
    if not m:
        return None
    ev = split_event(line[m.end():], names)
    if ev is None:
        return None
    g = m.groupdict()
    pid, tid, cpu = g.get("pid"), g.get("tid"), g.get("cpu")
    return ((int(pid) if pid is not None else None, int(tid) if tid is not None else None,
             int(cpu) if cpu is not None else None, g.get("time"), ev[0]), ev[0], ev[1])


DEFAULT_RX = re.compile(r"\s*(?P<comm>.*?)\s+(?P<tid>-?\d+)\s+\[(?P<cpu>\d+)\]\s+(?P<time>\d+\.\d+):\s+")


def parse_default_line(line, names):
    """perf script's default output: comm tid [cpu] time: event: trace;
    ((comm, tid, cpu, time, event), event, rest) or None."""
    m = DEFAULT_RX.match(line)
    if not m:
        return None
    ev = split_event(line[m.end():], names)
    if ev is None:
        return None
    return ((m.group("comm"), int(m.group("tid")), int(m.group("cpu")), m.group("time"), ev[0]),
            ev[0], ev[1])


def key_text(k):
    """A key tuple as text for details: pid/tid [cpu] time: event: extra."""
    a, b, cpu, t, name = k[:5]
    parts = []
    if a is not None or b is not None:
        parts.append("%s/%s" % (a, b))
    if cpu is not None:
        parts.append("[%03d]" % cpu)
    if t is not None:
        parts.append(t + ":")
    parts.append(name + ":")
    parts += [str(x) for x in k[5:]]
    return " ".join(parts)


def opt(args, name, default=None, flag=False):
    if name in args:
        i = args.index(name)
        if flag:
            del args[i]
            return True
        v = args[i + 1]
        del args[i:i + 2]
        return v
    return False if flag else default


def diff_details(only_mine, only_perf):
    det = ["%d sample(s) only in perf script, %d only in perfdb" % (len(only_perf), len(only_mine))]
    det += ["perf:   " + key_text(x)[:300] for x in sorted(only_perf, key=repr)[:MAX_DETAIL]]
    det += ["perfdb: " + key_text(x)[:300] for x in sorted(only_mine, key=repr)[:MAX_DETAIL]]
    return det


def compare_keys(mine, perf, label, what_of):
    """mine, perf: lists of key tuples (index 4: the event name). One result
    per event: the multisets of its keys are equal. what_of(event) -> text
    with {n} for the number of samples."""
    a, b = collections.Counter(mine), collections.Counter(perf)
    n = collections.Counter(k[4] for k in perf)
    for k in mine:
        n.setdefault(k[4], 0)
    only_mine, only_perf = collections.defaultdict(list), collections.defaultdict(list)
    if not dict.__eq__(a, b):
        # dict item views subtract in C: the (key, count) pairs that differ
        for k, c in a.items() - b.items():
            if c > b.get(k, 0):
                only_mine[k[4]] += [k] * (c - b.get(k, 0))
        for k, c in b.items() - a.items():
            if c > a.get(k, 0):
                only_perf[k[4]] += [k] * (c - a.get(k, 0))
    for name in sorted(n):
        bad = name in only_mine or name in only_perf
        result(not bad and n[name] > 0, "%s: %s" % (label, what_of(name).replace("{n}", str(n[name]))),
               diff_details(only_mine.get(name, []), only_perf.get(name, [])) if bad else [])


def split_line(line, ncols, names):
    """Fast path for -F [pid,tid,][cpu,][time,]event...: the fields are
    single words; (words, event, rest) or None."""
    parts = line.split(None, ncols + 1)
    if len(parts) < ncols + 1:
        return None
    ev = parts[ncols]
    if not ev.endswith(":") or ev[:-1] not in names:
        return None
    return parts[:ncols], ev[:-1], parts[ncols + 1] if len(parts) > ncols + 1 else ""


def cmd_fields(args):
    args = list(args)
    cols = opt(args, "--cols", "pid,tid,cpu,time").split(",")
    trace = opt(args, "--trace", flag=True)
    default = opt(args, "--default", flag=True)
    mem = [c for c in opt(args, "--mem", "").split(",") if c]
    global RAW_SYMS
    RAW_SYMS = opt(args, "--raw-syms", flag=True)
    no_ids = opt(args, "--no-ids", flag=True)
    dbp, sid, txt, label = args
    sid = int(sid)
    db = connect(dbp)
    ev = event_rows(db, sid)
    evname = {e: v[0] for e, v in ev.items()}
    names = set(evname.values())
    texts, compared = trace_texts(db, sid, ev) if trace or default else ({}, set())
    comp_names = {ev[e][0] for e in compared}
    mtexts = mem_texts(db, sid, mem) if mem else {}
    use_pid, use_cpu, use_time = "pid" in cols, "cpu" in cols, "time" in cols

    # identity keys (pid, tid [or comm, tid], cpu, time, event) and field
    # keys (None, None, cpu, time, event, trace text and/or memory columns):
    # the field check pairs samples by cpu and time only, so that a wrong
    # pid neither hides nor fails it.
    rows = db.execute(
        "SELECT s.id, s.event_id, s.time, s.cpu, t.pid, t.tid, t.comm FROM sample s "
        "LEFT JOIN thread t ON t.id = s.thread_id WHERE s.session_id = ?", (sid,)).fetchall()
    def ts(t):
        if t is None or not use_time:
            return None
        return "%d.%06d" % (t // 1000000000, t % 1000000000 // 1000)
    if default:
        ids_mine = [(comm, tid, cpu, ts(t), evname[e]) for _, e, t, cpu, pid, tid, comm in rows]
    elif use_pid:
        ids_mine = [(pid, tid, cpu if use_cpu else None, ts(t), evname[e]) for _, e, t, cpu, pid, tid, comm in rows]
    else:
        ids_mine = [(None, None, cpu if use_cpu else None, ts(t), evname[e]) for _, e, t, cpu, pid, tid, comm in rows]
    flds_mine = []
    if comp_names or mem:
        for (i, e, t, cpu, pid, tid, comm), k in zip(rows, ids_mine):
            name = k[4]
            if name not in comp_names and not mem:
                continue
            f = (None, None) + k[2:5]
            if name in comp_names:
                f += (texts.get(i, "<no %s row>" % name),)
            if mem:
                f += (mtexts.get(i, "<no mem_sample row>"),)
            flds_mine.append(f)
    del rows

    ids_perf, flds_perf, unparsed = [], [], []
    rx = head_regex(cols)
    ncols = (1 if use_pid else 0) + (1 if use_cpu else 0) + (1 if use_time else 0)
    for line in read_lines(txt):
        if not line.strip():
            continue
        p = None
        if not default:
            sp = split_line(line, ncols, names)
            if sp is not None:
                w, name, rest = sp
                j, pid = 0, None
                try:
                    if use_pid:
                        pid, tid = w[0].split("/")
                        pid, tid = int(pid), int(tid)
                        j = 1
                    cpu = int(w[j][1:-1]) if use_cpu else None
                    t = w[j + (1 if use_cpu else 0)][:-1] if use_time else None
                    p = ((pid, tid if use_pid else None, cpu, t, name), name, rest)
                except (ValueError, IndexError):
                    p = None
            if p is None:
                p = parse_head_line(line, cols, names, rx)
        else:
            p = parse_default_line(line, names)
        if p is None:
            unparsed.append(line)
            continue
        k, name, rest = p
        ids_perf.append(k)
        if name in comp_names or mem:
            f = (None, None) + k[2:5]
            if name in comp_names:
                f += (rest.strip(),)
            if mem:
                try:
                    f += (parse_perf_mem(rest, mem),)
                except ValueError:
                    unparsed.append(line)
                    continue
            flds_perf.append(f)

    if unparsed:
        result(False, "%s: perf script lines parse" % label,
               ["unparsed: " + u[:200] for u in unparsed[:MAX_DETAIL]])
    what = "comm, tid, cpu, time" if default else \
        ", ".join({"pid": "pid/tid"}.get(c, c) for c in cols if c != "tid")
    if not no_ids:
        compare_keys(ids_mine, ids_perf, label,
                     lambda name: "%s: %s of {n} samples equal perf script's" % (name, what))
    if comp_names or mem:
        def fwhat(name):
            desc = []
            if name in comp_names:
                desc.append(("tracepoint fields as perf prints them%s"
                             % (" (code pointers as addresses)" if RAW_SYMS else "")) if not default else "trace text")
            if mem:
                desc.append(",".join(mem))
            return "%s: %s of {n} samples (paired by %s) equal perf script's" % (
                name, " and ".join(desc), ", ".join(c for c in ("cpu", "time") if c in cols))
        compare_keys([f for f in flds_mine if f[4] in comp_names or mem],
                     [f for f in flds_perf if f[4] in comp_names or mem], label, fwhat)


# --- callchains -------------------------------------------------------------

def cmd_chains(args):
    """perf script -F COLS,event,ip,sym,symoff,dso prints a header line per
    sample and one "\tADDR SYM+0xOFF (DSO)" line per callchain entry (context markers
    left out), innermost first; perfdb's stack walks parent_id from the
    sample's stack_id (innermost) to the root (outermost)."""
    args = list(args)
    cols = opt(args, "--cols", "pid,tid,cpu,time").split(",")
    syms = opt(args, "--syms", flag=True)
    discarded_ok = opt(args, "--discarded-ok", flag=True)
    sym_comms = opt(args, "--sym-comms")
    sym_comms = set(sym_comms.split(",")) if sym_comms else None
    dbp, sid, txt, label = args
    sid = int(sid)
    db = connect(dbp)
    ev = event_rows(db, sid)
    names = {v[0] for v in ev.values()}
    rx = head_regex(cols)
    symrow = {r[0]: (r[1], r[2], r[3], r[4]) for r in db.execute(
        "SELECT sym.id, sym.name, sym.start, d.path, d.kernel FROM symbol sym "
        "LEFT JOIN dso d ON d.id = sym.dso_id")}
    nodes = {r[0]: (r[1], r[2], r[3]) for r in db.execute(
        "SELECT st.id, st.parent_id, st.symbol_id, st.depth FROM stack st WHERE st.id IN "
        "(WITH RECURSIVE w(id) AS (SELECT DISTINCT stack_id FROM sample WHERE session_id = ? "
        "AND stack_id IS NOT NULL UNION SELECT parent_id FROM stack JOIN w ON stack.id = w.id "
        "WHERE parent_id IS NOT NULL) SELECT id FROM w)", (sid,))}
    bad_depth_col = []
    walked = {}

    def frames(stack_id):
        """symbol ids, innermost first"""
        if stack_id in walked:
            return walked[stack_id]
        out, node, guard = [], stack_id, 0
        while node is not None and guard < 100000:
            if node not in nodes:
                out.append(None)
                break
            parent, sym, depth = nodes[node]
            out.append(sym)
            node = parent
            guard += 1
        if stack_id is not None and stack_id in nodes and nodes[stack_id][2] != len(out) - 1:
            bad_depth_col.append("stack %d: depth column %d, %d frames to the root"
                                 % (stack_id, nodes[stack_id][2], len(out)))
        walked[stack_id] = out
        return out

    # pair samples by cpu, time, event where the recording has the CPU
    # (a wrong pid/tid is the field check's business), else pid/tid too
    by_pid = "cpu" not in cols and "pid" in cols
    mine = collections.defaultdict(list)
    for sid_, eid, time, cpu, pid, tid, comm, sym, stack in samples(db, sid):
        key = (pid if by_pid else None, tid if by_pid else None,
               cpu if "cpu" in cols else None,
               fmt_time(time) if "time" in cols and time is not None else None, ev[eid][0])
        mine[key].append((sid_, sym, frames(stack), sym_comms is None or comm in sym_comms))

    perf = collections.defaultdict(list)
    unparsed = []
    cur = None
    # chains whose last frame perf prints as "ffffffffffffffff [unknown]":
    # its libdw unwind ended on a return address read as 0, which perf
    # keeps as the frame 0 - 1 (docs/perf-data.md); perfdb stores no frame
    ends_m1 = set()
    unwind_ends = init_plt = stops_at_unknown = 0
    frame_rx = re.compile(r"\t\s*([0-9a-f]+) (.*?)(?:\+0x([0-9a-f]+))?(?: \(([^()]*)\))?$")
    for line in read_lines(txt):
        if line.startswith("\t"):
            m = frame_rx.match(line)
            if cur is None or not m:
                unparsed.append(line)
                continue
            start = int(m.group(1), 16) - int(m.group(3), 16) if m.group(3) else None
            cur.append((m.group(2), m.group(4), start))
            if int(m.group(1), 16) == MASK64 and m.group(2) == "[unknown]":
                ends_m1.add(id(cur))
            continue
        if not line.strip():
            cur = None
            continue
        p = parse_head_line(line, cols, names, rx)
        if p is None:
            unparsed.append(line)
            cur = None
            continue
        k = p[0]
        if not by_pid:
            k = (None, None) + k[2:]
        cur = []
        perf[k].append((p[2].strip(), cur))

    discarded = []
    n = depth_bad = unmatched = 0
    checked = unknown_perf = 0
    det = collections.defaultdict(list)
    first_checked = first_bad = 0
    for key in set(mine) | set(perf):
        a, b = mine.get(key, []), perf.get(key, [])
        if len(a) != len(b):
            unmatched += abs(len(a) - len(b))
            det["match"].append("%s %d in perfdb, %d in perf script" % (key_text(key), len(a), len(b)))
        for (sample_id, ipsym, fa, check_syms), (rest, fb) in zip(a, b):
            n += 1
            if discarded_ok and not fb and not rest and fa:
                # perf printed the header and no frame: it dropped the
                # callchain as corrupt (a value >= (u64)-4095 that is no
                # context it knows); corrupt-chain tests that on its own
                discarded.append("sample %d %s: perfdb %d frames" % (sample_id, key_text(key), len(fa)))
                continue
            if len(fb) == len(fa) + 1 and id(fb) in ends_m1:
                unwind_ends += 1
                fb = fb[:-1]
            if len(fb) > len(fa) > 0 and fb[len(fa)][0] == "[unknown]" and \
                    [symrow.get(x, ("?",))[0] for x in fa] == [y[0] for y in fb[:len(fa)]]:
                # perfdb's DWARF unwind stopped where perf's went on through
                # a frame neither can name (a trampoline such as ld.so's
                # _dl_runtime_resolve): perfdb's frames are perf's first ones
                stops_at_unknown += 1
                fb = fb[:len(fa)]
            if len(fa) != len(fb):
                depth_bad += 1
                det["depth"].append("sample %d %s: perfdb %d frames %s, perf %d frames %s%s"
                                    % (sample_id, key_text(key), len(fa),
                                       [symrow.get(x, ("?",))[0] for x in fa[:6]], len(fb), [y[0] for y in fb[:6]],
                                       " (perf: %s)" % rest if rest else ""))
            if not syms or not check_syms:
                continue
            for i, (x, (y, ydso, ystart)) in enumerate(zip(fa, fb)):
                if y == "[unknown]":
                    unknown_perf += 1
                    continue
                checked += 1
                xname, xstart, xdso, xkernel = symrow.get(x, ("<missing symbol %s>" % x, None, None, None))
                if xname == y:
                    continue
                if y == "_init" and xname.endswith("@plt"):
                    init_plt += 1   # perf's _init stretched over .plt (docs/perf-data.md)
                    continue
                where = "sample %d %s frame %d: perfdb %s (%s), perf %s (%s)" % (
                    sample_id, key_text(key), i, xname, xdso, y, ydso)
                if xname == "[unknown]":
                    det["unknown"].append(where)
                elif y.endswith("@plt"):
                    det["plt"].append(where)
                elif xstart is not None and ystart is not None and xstart & MASK64 == ystart:
                    det["alias"].append(where)
                else:
                    det["name"].append(where)
            if fb and fb[0][0] != "[unknown]":
                first_checked += 1
                want = fb[0][0]
                if want == "_init" and (ipsym or "").endswith("@plt"):
                    want = ipsym    # perf's _init stretched over .plt, as above
                if ipsym != want or not fa or symrow.get(fa[0], ("",))[0] != want:
                    first_bad += 1
                    det["first"].append("sample %d %s: sample symbol %s, innermost frame %s, perf %s"
                                        % (sample_id, key_text(key), ipsym,
                                           symrow.get(fa[0], ("?",))[0] if fa else None, fb[0][0]))

    def summary(kind, what):
        d = det[kind]
        if not d:
            return []
        out = ["%d %s" % (len(d), what)]
        # the most common (perfdb, perf) name pairs, then examples
        pairs = collections.Counter(re.sub(r"^sample \d+ .*? frame \d+: ", "", x) for x in d)
        out += ["%dx %s" % (c, x) for x, c in pairs.most_common(MAX_DETAIL)]
        return out

    if unparsed:
        result(False, "%s: perf script callchain output parses" % label,
               ["unparsed: " + u[:200] for u in unparsed[:MAX_DETAIL]])
    pair = "cpu, time" if not by_pid else "pid/tid, time"
    result(unmatched == 0 and n > 0, "%s: every sample pairs with one of perf script's by %s (%d samples)"
           % (label, pair, n), sorted(det["match"])[:MAX_DETAIL])
    if discarded:
        print("# %s: %d samples whose callchain perf drops as corrupt, not compared here (e.g. %s)"
              % (label, len(discarded), discarded[0]))
    if init_plt:
        print("# %s: %d frames in a PLT entry that perf names _init (its size-0 _init stretched "
              "over .plt), perfdb the entry's NAME@plt" % (label, init_plt))
    if unwind_ends:
        print("# %s: %d samples whose chain perf ends with a frame ffffffffffffffff [unknown] "
              "(its unwind read a return address of 0), which perfdb does not store" % (label, unwind_ends))
    if stops_at_unknown:
        print("# %s: %d samples whose unwind perfdb ends where perf's goes on through a frame neither "
              "names ([unknown]): perfdb's frames are perf's first ones" % (label, stops_at_unknown))
    result(depth_bad == 0 and n > 0,
           "%s: callchain depth equals the frames perf script prints (%d samples, %d frames)"
           % (label, n, sum(len(x[1]) for v in perf.values() for x in v)),
           ["%d samples differ" % depth_bad] + sorted(det["depth"])[:MAX_DETAIL] if depth_bad else [])
    result(not bad_depth_col, "%s: stack.depth is the number of parent links to the root (%d nodes)"
           % (label, len(nodes)), bad_depth_col[:MAX_DETAIL])
    if not syms:
        return
    result(first_bad == 0 and first_checked > 0,
           "%s: sample symbol and innermost frame equal perf's first frame where perf resolves it (%d samples)"
           % (label, first_checked),
           ["%d differ" % first_bad] + det["first"][:MAX_DETAIL] if first_bad else [])
    result(not det["name"] and checked > 0,
           "%s: no frame has another symbol than perf's (%d frames perf resolves, %d [unknown] to perf)"
           % (label, checked, unknown_perf), summary("name", "frames differ"))
    result(not det["unknown"] and checked > 0,
           "%s: perfdb resolves every frame perf resolves" % label,
           summary("unknown", "frames [unknown] in perfdb that perf resolves"))
    if det["plt"]:
        result(False, "%s: frames in PLT entries are named name@plt as perf names them" % label,
               summary("plt", "frames in a PLT entry, which perf names name@plt"))
    result(not det["alias"] and checked > 0,
           "%s: of symbols sharing an address, perfdb names the one perf names" % label,
           summary("alias", "frames name another alias (same address) of perf's symbol"))


def perf_leaves(txt, cols, names):
    """(pid, tid, None, time, event) -> [(addr, sym, dso)] of each sample's first frame
    in perf script -F COLS,event,ip,sym,dso output (callchains shown); the
    address is the one perf prints for a user frame: the offset in its
    dso's mapping."""
    rx = head_regex(cols)
    frame_rx = re.compile(r"\t\s*([0-9a-f]+) (.*?)(?:\+0x[0-9a-f]+)? \(([^()]*)\)$")
    out = collections.defaultdict(list)
    cur = None
    for line in read_lines(txt):
        if line.startswith("\t"):
            m = frame_rx.match(line)
            if cur is not None and m:
                out[cur].append((int(m.group(1), 16), m.group(2), m.group(3)))
            cur = None
            continue
        p = parse_head_line(line, cols, names, rx) if line.strip() else None
        cur = p[0] if p else None
    return out


def plt_args(args):
    """(ranges, mins, rest) of a plt command line: --range DSO:OFFSET:SIZE
    (hex) as dso -> [(lo, hi)], --min DSO:N as dso -> N."""
    args = list(args)
    ranges, mins = collections.defaultdict(list), {}
    while "--range" in args:
        dso, off, size = opt(args, "--range").rsplit(":", 2)
        ranges[dso].append((int(off, 16), int(off, 16) + int(size, 16)))
    while "--min" in args:
        dso, k = opt(args, "--min").rsplit(":", 1)
        mins[dso] = int(k)
    return ranges, mins, args


def in_plt(ranges, addr, dso):
    """Whether offset addr of dso lies in one of its --range sections."""
    return any(lo <= addr < hi for lo, hi in ranges.get(dso, []))


def cmd_plt_perf(args):
    """Exit 0 when perf itself names at least N first frames in DSO's PLT
    ranges NAME@plt for every --min DSO:N, 1 when not; prints the counts
    as comments. Decides whether a profile has enough PLT samples to be
    worth checking, from perf's output alone."""
    ranges, mins, (txt, event) = plt_args(args)
    perf = perf_leaves(txt, ["pid", "tid", "time"], {event})
    named = collections.Counter()
    for leaves in perf.values():
        for addr, ysym, ydso in leaves:
            if ysym.endswith("@plt") and in_plt(ranges, addr, ydso):
                named[ydso] += 1
    print("# perf names %s" % ", ".join("%d in %s" % (named[d], d) for d in sorted(mins)))
    sys.exit(0 if all(named[d] >= k for d, k in mins.items()) else 1)


def cmd_plt(args):
    """Samples whose ip perf puts in a PLT section of a dso (--range
    DSO:OFFSET:SIZE, hex, offsets as perf prints them) carry perf's name in perfdb
    too ([unknown] included), and at least N of a dso's are named
    NAME@plt (--min DSO:N)."""
    ranges, mins, args = plt_args(args)
    dbp, sid, txt, label = args
    db = connect(dbp)
    ev = event_rows(db, int(sid))
    perf = perf_leaves(txt, ["pid", "tid", "time"], {v[0] for v in ev.values()})
    mine = collections.defaultdict(list)
    for _, eid, time, _, pid, tid, _, sym, _ in samples(db, int(sid)):
        mine[(pid, tid, None, fmt_time(time), ev[eid][0])].append(sym)
    n, bad, named, init_plt = 0, [], collections.Counter(), 0
    for key, leaves in perf.items():
        for (addr, ysym, ydso), xsym in zip(leaves, mine.get(key, [])):
            if not in_plt(ranges, addr, ydso):
                continue
            n += 1
            if xsym != ysym and ysym == "_init" and xsym.endswith("@plt"):
                init_plt += 1   # perf's _init stretched over .plt (docs/perf-data.md)
            elif xsym != ysym:
                bad.append("%s %x: perfdb %s, perf %s (%s)" % (key_text(key), addr, xsym, ysym, ydso))
            elif ysym.endswith("@plt"):
                named[ydso] += 1
    if init_plt:
        print("# %s: %d samples in a PLT entry that perf names _init (its size-0 _init stretched "
              "over .plt), perfdb the entry's NAME@plt" % (label, init_plt))
    pairs = collections.Counter(re.sub(r"^.*? [0-9a-f]+: ", "", x) for x in bad)
    result(not bad and n > 0, "%s: the %d samples in PLT sections carry perf's names" % (label, n),
           ["%d differ" % len(bad)] + ["%dx %s" % (c, x) for x, c in pairs.most_common(MAX_DETAIL)]
           if bad else [])
    for dso, k in sorted(mins.items()):
        result(named[dso] >= k, "%s: at least %d samples in %s named NAME@plt as perf names them (%d)"
               % (label, k, dso, named[dso]))


# --- ipi_send_cpumask -------------------------------------------------------

def cmd_cpumask(args):
    dbp, sid, ncpu, label = args
    sid, ncpu = int(sid), int(ncpu)
    db = connect(dbp)
    eids = [e for e, v in event_rows(db, sid).items() if v[0] == "ipi:ipi_send_cpumask"]
    what = "%s: ipi_send_cpumask: each sample has >= 1 target row, every target_cpu < %d" % (label, ncpu)
    if not eids:
        return skip(what, "ipi:ipi_send_cpumask not recorded")
    q = ("SELECT s.id, count(m.sample_id), min(m.target_cpu), max(m.target_cpu) FROM sample s "
         "LEFT JOIN ipi_send_cpumask m ON m.sample_id = s.id WHERE s.session_id = ? AND s.event_id = ? "
         "GROUP BY s.id")
    rows = db.execute(q, (sid, eids[0])).fetchall()
    if not rows:
        return skip(what, "no ipi_send_cpumask samples (with %d CPUs the kernel sends single-CPU IPIs)" % ncpu)
    bad = ["sample %d: %d rows, target CPUs %s..%s" % r for r in rows
           if r[1] < 1 or r[2] < 0 or r[3] >= ncpu]
    orphans = db.execute("SELECT count(*) FROM ipi_send_cpumask m LEFT JOIN sample s ON s.id = m.sample_id "
                         "WHERE s.id IS NULL OR s.event_id != ?", (eids[0],)).fetchone()[0]
    if orphans:
        bad.append("%d ipi_send_cpumask rows belong to no ipi_send_cpumask sample" % orphans)
    result(not bad, what + " (%d samples)" % len(rows), ["%d bad" % len(bad)] + bad[:MAX_DETAIL] if bad else [])


def cmd_header(args):
    """session's perf version, os release, arch, hostname, CPUs online
    against perf report --header-only."""
    dbp, sid, txt, label = args
    db = connect(dbp)
    row = db.execute("SELECT perf_version, os_release, arch, hostname, nr_cpus_online FROM session WHERE id = ?",
                     (int(sid),)).fetchone()
    want = {}
    keys = {"perf version": 0, "os release": 1, "arch": 2, "hostname": 3, "nrcpus online": 4}
    for line in read_lines(txt):
        m = re.match(r"# ([a-z ]+?) : (.*)$", line)
        if m and m.group(1) in keys:
            want[keys[m.group(1)]] = m.group(2).strip()
    got = {i: ("" if v is None else str(v)) for i, v in enumerate(row or ())}
    bad = ["%s: perfdb %r, perf %r" % (k, got.get(i), want.get(i, ""))
           for k, i in keys.items() if got.get(i) != want.get(i, "")]
    result(row is not None and not bad, "%s: session perf_version, os_release, arch, hostname, nr_cpus_online "
           "equal perf report --header-only's (%s)" % (label, "/".join(want.get(i, "-") for i in range(3))), bad)


def cmd_memrows(args):
    """mem_sample rows only for samples with memory information: perf
    script -F event,addr,data_src shows addr != 0 or a data_src field that
    is not N/A (--call-graph dwarf sets ADDR|DATA_SRC with nothing in them)."""
    dbp, sid, txt, label = args
    db = connect(dbp)
    have = db.execute("SELECT count(*) FROM mem_sample m JOIN sample s ON s.id = m.sample_id "
                      "WHERE s.session_id = ?", (int(sid),)).fetchone()[0]
    info = total = 0
    kinds = collections.Counter()
    for line in read_lines(txt):
        m = re.match(r"\s*\S+:\s+([0-9a-f]+)\s+([0-9a-f]+)\s*(.*)$", line)
        if not m:
            continue
        total += 1
        segs = [x.strip() for x in m.group(3).split("|") if x.strip()]
        vals = [x.split(None, 1)[1] if " " in x else "" for x in segs]
        real = int(m.group(1), 16) != 0 or any(v not in ("N/A", "N/A or N/A") for v in vals)
        info += real
        kinds["addr %s data_src %s%s" % ("0" if int(m.group(1), 16) == 0 else "!= 0", m.group(2),
                                         "" if real else " (all N/A)")] += 1
    result(total > 0 and have == info,
           "%s: mem_sample rows (%d) only for the %d of %d samples with memory information"
           % (label, have, info, total),
           ["perf: %dx %s" % (c, k) for k, c in kinds.most_common(MAX_DETAIL)] if have != info else [])


def cmd_same_db(args):
    """Every table of two databases holds the same rows (the session row
    but for its source and import time)."""
    a, b, label = args
    db = connect(a)
    db.execute("ATTACH DATABASE ? AS other", ("file:%s?mode=ro" % b,))
    tables = [r[0] for r in db.execute(
        "SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")]
    bad, rows = [], 0
    for t in tables:
        cols = [r[1] for r in db.execute("PRAGMA main.table_info(%s)" % t)
                if not (t == "session" and r[1] in ("source", "imported_at"))]
        c = ", ".join('"%s"' % x for x in cols)
        try:
            na = db.execute("SELECT count(*) FROM main.%s" % t).fetchone()[0]
            nb = db.execute("SELECT count(*) FROM other.%s" % t).fetchone()[0]
            d1 = db.execute("SELECT count(*) FROM (SELECT %s FROM main.%s EXCEPT SELECT %s FROM other.%s)"
                            % (c, t, c, t)).fetchone()[0]
            d2 = db.execute("SELECT count(*) FROM (SELECT %s FROM other.%s EXCEPT SELECT %s FROM main.%s)"
                            % (c, t, c, t)).fetchone()[0]
        except sqlite3.Error as e:
            bad.append("%s: %s" % (t, e))
            continue
        rows += na
        if na != nb or d1 or d2:
            bad.append("%s: %d rows vs %d, %d only in the first, %d only in the second" % (t, na, nb, d1, d2))
    result(not bad and rows > 0, "%s: all %d tables hold the same rows (%d rows)" % (label, len(tables), rows), bad)


def cmd_sql_eq(args):
    dbp, label, expected, q = args
    db = connect(dbp)
    try:
        got = db.execute(q).fetchone()
        got = None if got is None else got[0]
    except sqlite3.Error as e:
        got = "error: %s" % e
    result(str(got) == expected, "%s (%s)" % (label, got),
           [] if str(got) == expected else ["expected %s, got %s from: %s" % (expected, got, q)])


def cmd_fix_attr_size(args):
    """perf 6.1 reads attr.size bytes and then the ids {offset, size}: an
    entry of attr.size 136 (perf >= 6.3) becomes 128 bytes of attr plus its
    ids, when config3 (bytes 128..135) is 0; the header's attr_size and the
    attrs section size follow (the 8 bytes per attr left over are unused)."""
    src, dst = args
    with open(src, "rb") as f:
        data = bytearray(f.read())
    if data[:8] != b"PERFILE2":
        sys.exit("%s: not a little-endian PERFILE2 file" % src)
    attr_size, = struct.unpack_from("<Q", data, 16)
    off, size = struct.unpack_from("<QQ", data, 24)
    entries = [bytes(data[p:p + attr_size]) for p in range(off, off + size, attr_size)]
    if attr_size != 152 or any(struct.unpack_from("<I", e, 4)[0] != 136 or e[128:136] != bytes(8)
                               for e in entries):
        sys.exit("%s: attrs are not all attr.size 136 with config3 0" % src)
    new = b"".join(e[:4] + struct.pack("<I", 128) + e[8:128] + e[136:152] for e in entries)
    data[off:off + len(new)] = new
    struct.pack_into("<Q", data, 16, 144)
    struct.pack_into("<QQ", data, 24, off, len(new))
    with open(dst, "wb") as f:
        f.write(data)


def cmd_corrupt_chain(args):
    """Copies a little-endian file-mode perf.data, setting the outermost
    user frame of the first sample with two or more user frames to
    0xffffffffffffffff: the garbage value a frame-pointer walk of a program
    built without frame pointers brings back, which perf (>= (u64)-4095 but
    no context it knows) takes for a corrupt callchain and drops whole."""
    src, dst = args
    with open(src, "rb") as f:
        data = bytearray(f.read())
    if data[:8] != b"PERFILE2":
        sys.exit("%s: not a little-endian PERFILE2 file" % src)
    attr_size, aoff, asize, doff, dsize = struct.unpack_from("<QQQQQ", data, 16)
    types = {struct.unpack_from("<Q", data, p + 24)[0] for p in range(aoff, aoff + asize, attr_size)}
    if len(types) != 1:
        sys.exit("%s: attrs with different sample_type" % src)
    st = types.pop()
    if not st & (1 << 5) or st & (1 << 4):
        sys.exit("%s: no CALLCHAIN, or READ, in sample_type" % src)
    # u64 fields before CALLCHAIN: IDENTIFIER, IP, TID, TIME, ADDR, ID, STREAM_ID, CPU, PERIOD
    skip = sum(1 for b in (16, 0, 1, 2, 3, 6, 9, 7, 8) if st & (1 << b))
    time_at = sum(1 for b in (16, 0, 1) if st & (1 << b)) if st & (1 << 2) else None
    p = doff
    while p + 8 <= doff + dsize:
        typ, misc, size = struct.unpack_from("<IHH", data, p)
        if size < 8:
            sys.exit("%s: bad record size at %d" % (src, p))
        if typ == 9:
            c = p + 8 + 8 * skip
            nr, = struct.unpack_from("<Q", data, c)
            ips = struct.unpack_from("<%dQ" % nr, data, c + 8)
            if 0xfffffffffffffe00 in ips and nr - 1 - ips.index(0xfffffffffffffe00) >= 2:
                struct.pack_into("<Q", data, c + 8 * nr, MASK64)
                with open(dst, "wb") as f:
                    f.write(data)
                t = struct.unpack_from("<Q", data, p + 8 + 8 * time_at)[0] if time_at is not None else None
                print("# %s: sample at offset %d (time %s): callchain entry %d of %d set to 0xffffffffffffffff"
                      % (os.path.basename(dst), p, fmt_time(t) if t is not None else "?", nr - 1, nr))
                return
        p += size
    sys.exit("%s: no sample with two user frames" % src)


def unend_zstd_frame(z):
    """z, one zstd frame (RFC 8878) without content size or checksum, with
    the Last_Block bit of its last block cleared."""
    if z[:4] != b"\x28\xb5\x2f\xfd":
        sys.exit("zstd: not a zstd frame")
    fhd = z[4]
    if fhd & 0xc4 or fhd & 0x20:
        sys.exit("zstd: the frame has a content size or a checksum")
    p = 5 + 1 + (0, 1, 2, 4)[fhd & 3]	# window descriptor, dictionary id
    z = bytearray(z)
    while p + 3 <= len(z):
        h = z[p] | z[p + 1] << 8 | z[p + 2] << 16
        btype, bsize = h >> 1 & 3, h >> 3
        if h & 1:
            z[p] &= 0xfe
            if p + 3 + (1 if btype == 1 else bsize) != len(z):
                sys.exit("zstd: bytes after the last block")
            return bytes(z)
        p += 3 + (1 if btype == 1 else bsize)
    sys.exit("zstd: no last block")


def zstd_parts(data, src):
    """(outer records with None for the first COMPRESSED one, the
    concatenated COMPRESSED payloads, data offset, data size, feature
    index table) of a little-endian file-mode perf.data."""
    if data[:8] != b"PERFILE2":
        sys.exit("%s: not a little-endian PERFILE2 file" % src)
    doff, dsize = struct.unpack_from("<QQ", data, 40)
    nfeat = bin(int.from_bytes(data[72:104], "little")).count("1")
    table = bytes(data[doff + dsize:doff + dsize + 16 * nfeat])
    outer, payload, first = [], [], None
    p = doff
    while p + 8 <= doff + dsize:
        typ, misc, size = struct.unpack_from("<IHH", data, p)
        if size < 8:
            sys.exit("%s: bad record size at %d" % (src, p))
        if typ == 81:
            payload.append(bytes(data[p + 8:p + size]))
            if first is None:
                first = len(outer)
                outer.append(None)
        else:
            outer.append(bytes(data[p:p + size]))
        p += size
    if first is None:
        sys.exit("%s: no COMPRESSED record" % src)
    return outer, b"".join(payload), doff, dsize, table


def record_ends(inner):
    """The end offsets of the whole records in a byte string of records."""
    ends, q = [], 0
    while q + 8 <= len(inner):
        size = struct.unpack_from("<H", inner, q + 6)[0]
        if size < 8 or q + size > len(inner):
            break
        q += size
        ends.append(q)
    return ends


def rezstd_bytes(data, parts, comp, last, src):
    """data with its COMPRESSED records replaced by comp cut into records,
    the last of LAST bytes, the others 65527 (perf's limit) each."""
    outer, _, doff, dsize, table = parts
    chunks, end, size = [], len(comp), min(last, 65527)
    while end > 0:
        chunks.insert(0, comp[max(0, end - size):end])
        end -= size
        size = 65527
    outer = list(outer)
    outer[outer.index(None)] = b"".join(struct.pack("<IHH", 81, 0, 8 + len(c)) + c for c in chunks)
    new = b"".join(outer)
    if len(new) > dsize:
        sys.exit("%s: the new data section (%d) is larger than the old (%d)" % (src, len(new), dsize))
    data = bytearray(data)
    data[doff:doff + len(new)] = new
    data[doff + len(new):doff + len(new) + len(table)] = table
    struct.pack_into("<Q", data, 48, len(new))
    return bytes(data), len(chunks)


def never_ended(inner, level):
    """inner compressed by zstd -LEVEL into one frame without checksum or
    content size, whose last block is then marked as not the last: a stream
    flushed but never ended, as perf writes it."""
    return unend_zstd_frame(subprocess.run(
        ["zstd", "-c", "--no-check", "--no-content-size", "-" + level], input=inner,
        capture_output=True, check=True).stdout)


def cmd_rezstd(args):
    """Copies a file-mode perf.data (little-endian) whose data section has
    COMPRESSED records, with its zstd stream decompressed (zstd -dc), cut
    to its first RECORDS records (all by default), and compressed again as
    one never-ended stream (level "same": perf's stream as it is) into
    COMPRESSED records the last of which carries LAST payload bytes (the
    others 65527 each, perf's limit), in place of the first COMPRESSED
    record; the others go. A reader that stops calling the decompressor
    when the input of the last record is used up, with decompressed bytes
    still inside it, loses the end of the recording. Prints the sizes."""
    src, dst, last = args[0], args[1], int(args[2])
    level = args[3] if len(args) > 3 else "3"
    keep = int(args[4]) if len(args) > 4 else None
    with open(src, "rb") as f:
        data = f.read()
    parts = zstd_parts(data, src)
    if level == "same":
        comp, inner = parts[1], b""
    else:
        inner = subprocess.run(["zstd", "-dc"], input=parts[1], capture_output=True).stdout
        ends = record_ends(inner)
        if not ends or (keep is None and ends[-1] != len(inner)):
            sys.exit("%s: the decompressed stream is not whole records" % src)
        inner = inner[:ends[min(keep, len(ends)) - 1] if keep else ends[-1]]
        comp = never_ended(inner, level)
    out, nrec = rezstd_bytes(data, parts, comp, last, src)
    with open(dst, "wb") as f:
        f.write(out)
    print("# %s: %d bytes of records in %d COMPRESSED records (zstd -%s), the last with %d of %d bytes"
          % (os.path.basename(dst), len(inner), nrec, level, min(last, len(comp)), len(comp)))


def cmd_zstd_cuts(args):
    """For every STEP-th record count N of the file's zstd stream: a copy
    with the first N records in one never-ended stream (see cmd_rezstd) in
    one COMPRESSED record, imported by PERFDB into a fresh database in
    TMPDIR: exit 0 and perf script's sample count. The end of the stream
    falls at another place of a reader's buffer in each."""
    src, perfdb, tmp, label, step = args[0], args[1], args[2], args[3], int(args[4])
    with open(src, "rb") as f:
        data = f.read()
    parts = zstd_parts(data, src)
    inner = subprocess.run(["zstd", "-dc"], input=parts[1], capture_output=True).stdout
    ends = record_ends(inner)
    rz, db = os.path.join(tmp, "cut.data"), os.path.join(tmp, "cut.db")
    bad, n, samples = [], 0, 0
    for keep in list(range(step, len(ends), step)) + [len(ends)]:
        out, _ = rezstd_bytes(data, parts, never_ended(inner[:ends[keep - 1]], "3"), 65527, src)
        with open(rz, "wb") as f:
            f.write(out)
        if os.path.exists(db):
            os.unlink(db)
        want = subprocess.run(["perf", "script", "-i", rz, "-F", "event"], capture_output=True,
                              text=True).stdout.count("\n")
        r = subprocess.run([perfdb, "import", "-q", "-o", db, rz], capture_output=True, text=True)
        got = None
        if r.returncode == 0:
            got = connect(db).execute("SELECT nr_samples FROM session").fetchone()[0]
        n += 1
        samples += want
        if r.returncode != 0 or got != want:
            bad.append("first %d records: perfdb %s (exit %d%s), perf script %d samples"
                       % (keep, got, r.returncode, (": " + r.stderr.strip()[:100]) if r.stderr.strip() else "",
                          want))
    result(not bad and n > 0, "%s: its zstd stream cut after every %d records and compressed again, never "
           "ended, in one COMPRESSED record: perfdb has perf's sample count in all %d copies (%d samples)"
           % (label, step, n, samples), ["%d copies differ" % len(bad)] + bad[:MAX_DETAIL * 2] if bad else [])


CMDS = {"counts": cmd_counts, "sessions-json": cmd_sessions_json, "same-counts": cmd_same_counts,
        "cols": cmd_cols, "memcols": cmd_memcols, "fields": cmd_fields, "chains": cmd_chains, "plt": cmd_plt, "plt-perf": cmd_plt_perf, "cpumask": cmd_cpumask,
        "sql-eq": cmd_sql_eq, "same-db": cmd_same_db,
        "header": cmd_header, "memrows": cmd_memrows, "fix-attr-size": cmd_fix_attr_size,
        "corrupt-chain": cmd_corrupt_chain, "rezstd": cmd_rezstd,
        "zstd-cuts": cmd_zstd_cuts}

if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in CMDS:
        sys.exit("usage: perfdb_oracle.py %s ..." % "|".join(CMDS))
    CMDS[sys.argv[1]](sys.argv[2:])
