#!/usr/bin/env python3
# Writes the seeds of fuzz_pull_rows (tests/fuzz/fuzz_pull_rows.c says the
# input format) from a perfdb database: for each table a session or a
# bench owns, its first rows as a server's binary FETCH result would bring
# them (integers int8, reals float8, text in its server form, blobs bytea,
# f1..f7 as text), with the unit's id ranges and the session's events;
# a blob (kallsyms' compressed text) is 36 bytes of no machine.
# With REGRESSDIR, also the inputs a server that is not to be believed
# sends (tests/fuzz/README.md: regress/pull_rows/): one more column than
# asked, a NULL key, a sample of a thread the unit does not have.
# Usage: pull_rows.py DB OUTDIR [REGRESSDIR]
import os
import sqlite3
import struct
import sys

# fleet_session_tables then fleet_bench_tables, in schema/fleet.c's order
TABLES = ["session", "cpu", "numa_node", "event", "process", "thread", "comm", "dso",
          "mmap", "symbol", "stack", "sample", "mem_sample", "ipi_send_cpumask",
          "data_quality", "kallsyms", "struct_layout", "c2c_object", "watch",
          "watch_canary", "workload_metric", "lost",
          "bench", "bench_param", "bench_cell", "bench_sitting", "bench_run", "run_metric"]
KEYS = ["session", "event", "process", "thread", "dso", "symbol", "stack", "sample",
        "bench", "bench_run"]      # enum fleet_key's order
OIDS = {"INTEGER": 20, "REAL": 701, "TEXT": 25, "BLOB": 17}
REPL = "\ufffd".encode()


def server_text(b):
    """The server form of the bytes b (schema/fleet.h)."""
    out, i = bytearray(), 0
    while i < len(b):
        for n in (1, 2, 3, 4):
            try:
                ch = b[i:i + n].decode("utf-8")
                break
            except UnicodeDecodeError:
                ch = None
        if ch is None or ch == "\0":
            out += REPL + b"%02x" % b[i]
            i += 1
        else:
            out += REPL * 2 if ch == "\ufffd" else ch.encode()
            i += len(ch.encode())
    return bytes(out)


def value(v, kind):
    if v is None:
        return struct.pack("!i", -1)
    if kind == "INTEGER" and isinstance(v, int):
        b = struct.pack("!q", v)
    elif kind == "REAL":
        b = struct.pack("!d", float(v))
    elif kind == "BLOB":        # kallsyms' zstd text: not the machine's (its KASLR base)
        b = b"\x28\xb5\x2f\xfd" + bytes(range(32))
    elif isinstance(v, bytes):
        b = server_text(v)
    else:
        b = server_text(str(v).encode())
    return struct.pack("!i", len(b)) + b


def text_flags(db, view):
    cols = [r[1].decode() for r in db.execute("SELECT * FROM pragma_table_info(?)", (view,))]
    flags = 0
    for j, c in enumerate(cols[1:8]):
        if c.endswith(("comm", "_sym", "path")) or c in ("filename", "fields"):
            flags |= 1 << j
    return flags


# seeds of rows holding bytes that are not UTF-8 (a comm set by prctl)
EXTRA = [("comm_not_utf8", "comm", "instr(CAST(comm AS BLOB), X'FF')"),
         ("sample_not_utf8", "sample", "instr(CAST(f1 AS BLOB), X'FF') OR instr(CAST(f4 AS BLOB), X'FF')"),
         ("thread_not_utf8", "thread", "instr(CAST(comm AS BLOB), X'FF')")]


def seed(db, t, where="1", mutate=None):
    info = [(n.decode(), ty.decode()) for n, ty in
            db.execute("SELECT name, type FROM pragma_table_info(?)", (t,))]
    rows = db.execute("SELECT * FROM %s WHERE %s LIMIT 6" % (t, where)).fetchall()
    if not rows:
        return None
    if mutate:
        info, rows = mutate(db, info, rows)
    out = bytearray([TABLES.index(t)])
    ranges = []
    for k, kt in enumerate(KEYS):
        lo, hi = db.execute("SELECT min(id), max(id) FROM %s" % kt).fetchone()
        if lo is not None and not (kt == "session" and t.startswith(("bench", "run_"))):
            ranges.append(struct.pack("!Bqq", k, lo, hi))
    out += bytes([len(ranges)]) + b"".join(ranges)
    evs = db.execute("SELECT id, tp_table FROM event LIMIT 8").fetchall()
    out += bytes([len(evs)])
    for i, tp in evs:
        out += struct.pack("!qB", i, text_flags(db, tp.decode()) if tp else 0)
    out += struct.pack("!H", len(info))
    for _, typ in info:
        out += struct.pack("!IB", OIDS.get(typ, 25), 1)
    out += struct.pack("!H", len(rows))
    for r in rows:
        for (name, typ), v in zip(info, r):
            if t == "bench_run" and name == "session_id" and v is not None:
                v = 10          # the harness maps server sessions 10 and 11
            out += value(v, typ if typ in OIDS else "TEXT")
    return bytes(out)


def more_columns(db, info, rows):
    return info + [("extra", "INTEGER")], [tuple(r) + (1,) for r in rows]


def null_key(db, info, rows):
    return info, [(None,) + tuple(r[1:]) for r in rows]


def other_thread(db, info, rows):
    i = [n for n, _ in info].index("thread_id")
    far = db.execute("SELECT max(id) + 100 FROM thread").fetchone()[0]
    return info, [tuple(r[:i]) + (far,) + tuple(r[i + 1:]) for r in rows]


REGRESS = [("more-columns-than-asked", "thread", more_columns),
           ("null-key", "session", null_key),
           ("thread-of-another-unit", "sample", other_thread)]


def main():
    db = sqlite3.connect(sys.argv[1])
    db.text_factory = bytes
    os.makedirs(sys.argv[2], exist_ok=True)
    for name, t, where in [(t, t, "1") for t in TABLES] + EXTRA:
        s = seed(db, t, where)
        if s:
            with open(os.path.join(sys.argv[2], name), "wb") as f:
                f.write(s)
    if len(sys.argv) > 3:
        os.makedirs(sys.argv[3], exist_ok=True)
        for name, t, mutate in REGRESS:
            with open(os.path.join(sys.argv[3], name), "wb") as f:
                f.write(seed(db, t, "1", mutate))


main()
