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
  fields DB SESSION PERF_TXT LABEL [--cols C] [--trace] [--mem M] [--default]
      every sample's pid/tid, cpu, time (at the microsecond perf prints)
      and, with --trace, its tracepoint fields formatted as the kernel's
      print format does, against perf script -F C,event[,trace][,M];
      with --mem, the mem_sample columns M (addr,data_src,weight,...).
      --default: PERF_TXT is perf script's default output (comm tid [cpu]
      time: event: trace).
  chains DB SESSION PERF_TXT LABEL [--cols C] [--syms]
      callchain depth (and, with --syms, each frame's symbol where perf
      resolves it, and the sample's own symbol) against
      perf script -F C,event,ip,sym.
  cpumask DB SESSION NCPU LABEL
      ipi_send_cpumask: at least one row per sample, every target CPU < NCPU.
  same-db DB1 DB2 LABEL
      every table holds the same rows in both (session: but source and
      import time).
  sql-eq DB LABEL EXPECTED SQL
      one SQL value equals EXPECTED.
  fix-attr-size IN OUT
      copies a perf.data file whose attrs have attr.size 136 (perf >= 6.3,
      config3) rewritten to 128 when config3 is 0, so that perf 6.1 reads it.
"""
import collections
import json
import re
import sqlite3
import struct
import subprocess
import sys

MASK64 = (1 << 64) - 1
MAX_DETAIL = 4

# sample_type bits
S_TID, S_TIME, S_ADDR, S_CPU = 1 << 1, 1 << 2, 1 << 3, 1 << 7
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
    with open(path, encoding="utf-8") as f:
        return json.load(f)


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


def diff_details(mine, perf):
    only_perf = list((perf - mine).elements())
    only_mine = list((mine - perf).elements())
    det = ["%d sample(s) only in perf script, %d only in perfdb" % (len(only_perf), len(only_mine))]
    det += ["perf:   " + key_text(x)[:300] for x in sorted(only_perf, key=repr)[:MAX_DETAIL]]
    det += ["perfdb: " + key_text(x)[:300] for x in sorted(only_mine, key=repr)[:MAX_DETAIL]]
    return det


def same(a, b):
    return dict.__eq__(a, b)


def cmd_fields(args):
    args = list(args)
    cols = opt(args, "--cols", "pid,tid,cpu,time").split(",")
    trace = opt(args, "--trace", flag=True)
    default = opt(args, "--default", flag=True)
    mem = [c for c in opt(args, "--mem", "").split(",") if c]
    global RAW_SYMS
    RAW_SYMS = opt(args, "--raw-syms", flag=True)
    dbp, sid, txt, label = args
    sid = int(sid)
    db = connect(dbp)
    ev = event_rows(db, sid)
    names = {v[0] for v in ev.values()}
    texts, compared = trace_texts(db, sid, ev) if trace or default else ({}, set())
    comp_names = {ev[e][0] for e in compared}
    mtexts = mem_texts(db, sid, mem) if mem else {}
    if default:
        cols = ["comm", "tid", "cpu", "time"]
    use_pid, use_cpu, use_time = "pid" in cols, "cpu" in cols, "time" in cols

    # per event: identity keys (pid, tid [or comm, tid], cpu, time, event)
    # and field keys (None, None, cpu, time, event, trace text, memory
    # columns): the field check pairs samples by cpu and time only, so a
    # wrong pid does not hide (or fail) it.
    ids_mine = collections.defaultdict(collections.Counter)
    flds_mine = collections.defaultdict(collections.Counter)
    for sid_, eid, time, cpu, pid, tid, comm, sym, stack in samples(db, sid):
        name = ev[eid][0]
        t = fmt_time(time) if use_time and time is not None else None
        c = cpu if use_cpu else None
        if default:
            ids_mine[name][(comm, tid, cpu, t, name)] += 1
        elif use_pid:
            ids_mine[name][(pid, tid, c, t, name)] += 1
        else:
            ids_mine[name][(None, None, c, t, name)] += 1
        if name in comp_names or mem:
            k = (None, None, c, t, name)
            if name in comp_names:
                k += (texts.get(sid_, "<no %s row>" % name),)
            if mem:
                k += (mtexts.get(sid_, "<no mem_sample row>"),)
            flds_mine[name][k] += 1

    ids_perf = collections.defaultdict(collections.Counter)
    flds_perf = collections.defaultdict(collections.Counter)
    unparsed = []
    rx = head_regex(cols)
    for line in read_lines(txt):
        if not line.strip():
            continue
        p = parse_default_line(line, names) if default else parse_head_line(line, cols, names, rx)
        if p is None:
            unparsed.append(line)
            continue
        k, name, rest = p
        ids_perf[name][k] += 1
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
            flds_perf[name][f] += 1

    if unparsed:
        result(False, "%s: perf script lines parse" % label,
               ["unparsed: " + u[:200] for u in unparsed[:MAX_DETAIL]])
    what = "comm, tid, cpu, time" if default else \
        ", ".join({"pid": "pid/tid"}.get(c, c) for c in cols if c != "tid")
    for name in sorted(set(ids_mine) | set(ids_perf)):
        a, b = ids_mine[name], ids_perf[name]
        n = sum(b.values())
        ok = same(a, b)
        result(ok and n > 0, "%s: %s: %s of %d samples equal perf script's" % (label, name, what, n),
               diff_details(a, b) if not ok else [])
        if name not in comp_names and not mem:
            continue
        a, b = flds_mine[name], flds_perf[name]
        desc = []
        if name in comp_names:
            desc.append(("tracepoint fields (perf's text%s)" % (", code pointers as addresses" if RAW_SYMS else ""))
                        if not default else "trace text")
        if mem:
            desc.append(",".join(mem))
        ok = same(a, b)
        result(ok and n > 0, "%s: %s: %s of %d samples (paired by %s) equal perf script's"
               % (label, name, " and ".join(desc), n, ", ".join(c for c in ("cpu", "time") if c in cols)),
               diff_details(a, b) if not ok else [])


# --- callchains -------------------------------------------------------------

def demangle(names):
    """mangled -> c++filt -p text (perf's demangling without parameters);
    {} when c++filt is not installed."""
    try:
        out = subprocess.run(["c++filt", "-p"], input="\n".join(names) + "\n", capture_output=True,
                             text=True, check=True).stdout.split("\n")
    except (OSError, subprocess.CalledProcessError):
        return {}
    return dict(zip(names, out))


def cmd_chains(args):
    """perf script -F COLS,event,ip,sym,symoff,dso prints a header line per
    sample and one "\tADDR SYM+0xOFF (DSO)" line per callchain entry (context markers
    left out), innermost first; perfdb's stack walks parent_id from the
    sample's stack_id (innermost) to the root (outermost)."""
    args = list(args)
    cols = opt(args, "--cols", "pid,tid,cpu,time").split(",")
    syms = opt(args, "--syms", flag=True)
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
        mine[key].append((sid_, sym, frames(stack)))

    perf = collections.defaultdict(list)
    unparsed = []
    cur = None
    frame_rx = re.compile(r"\t\s*([0-9a-f]+) (.*?)(?:\+0x([0-9a-f]+))?(?: \((.*)\))?$")
    for line in read_lines(txt):
        if line.startswith("\t"):
            m = frame_rx.match(line)
            if cur is None or not m:
                unparsed.append(line)
                continue
            start = int(m.group(1), 16) - int(m.group(3), 16) if m.group(3) else None
            cur.append((m.group(2), m.group(4), start))
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

    mangled = []
    n = depth_bad = unmatched = 0
    checked = unknown_perf = 0
    det = collections.defaultdict(list)
    first_checked = first_bad = 0
    for key in set(mine) | set(perf):
        a, b = mine.get(key, []), perf.get(key, [])
        if len(a) != len(b):
            unmatched += abs(len(a) - len(b))
            det["match"].append("%s %d in perfdb, %d in perf script" % (key_text(key), len(a), len(b)))
        for (sample_id, ipsym, fa), (rest, fb) in zip(a, b):
            n += 1
            if len(fa) != len(fb):
                depth_bad += 1
                det["depth"].append("sample %d %s: perfdb %d frames %s, perf %d frames %s%s"
                                    % (sample_id, key_text(key), len(fa),
                                       [symrow.get(x, ("?",))[0] for x in fa[:6]], len(fb), [y[0] for y in fb[:6]],
                                       " (perf: %s)" % rest if rest else ""))
            if not syms:
                continue
            for i, (x, (y, ydso, ystart)) in enumerate(zip(fa, fb)):
                if y == "[unknown]":
                    unknown_perf += 1
                    continue
                checked += 1
                xname, xstart, xdso, xkernel = symrow.get(x, ("<missing symbol %s>" % x, None, None, None))
                if xname == y:
                    continue
                where = "sample %d %s frame %d: perfdb %s (%s), perf %s (%s)" % (
                    sample_id, key_text(key), i, xname, xdso, y, ydso)
                if xname == "[unknown]":
                    det["unknown"].append(where)
                elif xname.startswith("_Z"):
                    mangled.append((xname, y, where))
                elif xstart is not None and ystart is not None and xstart & MASK64 == ystart:
                    det["alias"].append(where)
                else:
                    det["name"].append(where)
            if fb and fb[0][0] != "[unknown]":
                first_checked += 1
                if ipsym != fb[0][0] or not fa or symrow.get(fa[0], ("",))[0] != fb[0][0]:
                    first_bad += 1
                    det["first"].append("sample %d %s: sample symbol %s, innermost frame %s, perf %s"
                                        % (sample_id, key_text(key), ipsym,
                                           symrow.get(fa[0], ("?",))[0] if fa else None, fb[0][0]))

    # perf demangles C++ names (without parameters); perfdb keeps them
    # mangled: the same symbol when c++filt -p turns one into the other
    if mangled:
        plain = demangle(sorted({m[0] for m in mangled}))
        for xname, y, where in mangled:
            if plain.get(xname) == y:
                det["mangled"].append(where)
            else:
                det["name"].append(where)

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
    if det["mangled"]:
        print("# %s: %d frames are C++ symbols perfdb keeps mangled and perf demangles (not counted)"
              % (label, len(det["mangled"])))
    result(not det["unknown"] and checked > 0,
           "%s: perfdb resolves every frame perf resolves" % label,
           summary("unknown", "frames [unknown] in perfdb that perf resolves"))
    result(not det["alias"] and checked > 0,
           "%s: of symbols sharing an address, perfdb names the one perf names" % label,
           summary("alias", "frames name another alias (same address) of perf's symbol"))


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


CMDS = {"counts": cmd_counts, "sessions-json": cmd_sessions_json, "same-counts": cmd_same_counts,
        "cols": cmd_cols, "fields": cmd_fields, "chains": cmd_chains, "cpumask": cmd_cpumask,
        "sql-eq": cmd_sql_eq, "same-db": cmd_same_db, "fix-attr-size": cmd_fix_attr_size}

if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in CMDS:
        sys.exit("usage: perfdb_oracle.py %s ..." % "|".join(CMDS))
    CMDS[sys.argv[1]](sys.argv[2:])
