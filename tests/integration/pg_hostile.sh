#!/bin/sh
# perfdb pull from a server that is not to be believed, against a
# throwaway PostgreSQL 15 cluster (lib/pgcluster.sh) and a proxy in front
# of it that rewrites the binary results of pull's FETCHes (the wire
# protocol's RowDescription and DataRow messages): one more column than
# asked, a NULL id, an int8 of 4 bytes, a column in text format where
# binary was asked; and server rows that refer to another session's
# thread. Each: exit 2, one line saying what (the table and column), no
# database left where there was none, and an existing database unchanged
# (nothing of the unit stored). The proxy changing nothing, pull works
# through it. And pull -s of what the server lacks: exit 2, one line, no
# new database left behind. No perf needed (synthetic recordings).
# Run from the repository root. Env: PERFDB, PERFDB_BUILD.
. "$(dirname "$0")/lib/setup.sh"
. tests/integration/lib/pgcluster.sh
proxy=
at_exit pg_stop
at_exit '[ -z "$proxy" ] || kill "$proxy" 2>/dev/null'
TAP_ERR=$T/err
for tool in sqlite3 psql python3; do
	command -v $tool >/dev/null 2>&1 || { skip "no $tool here"; tap_end; }
done
pg_start_or_end "$T/pg"
sha() { sha256sum "$1" | cut -d' ' -f1; }

# two sessions (synthetic recordings of different shapes), pushed
"$B/tests/tools/cpu_rounds" "$T/r1.data" 2 4 1 >/dev/null && "$B/tests/tools/cpu_rounds" "$T/r2.data" 3 4 1 >/dev/null &&
	"$PERFDB" import -q -o "$T/a.db" -l one "$T/r1.data" && "$PERFDB" import -q -o "$T/a.db" -l two "$T/r2.data" &&
	"$PERFDB" push "$T/a.db" --to "$PGCONN" >/dev/null 2>"$T/err"
check "two sessions pushed" [ "$(psqlq "SELECT count(*) FROM session")" = 2 ]
# a database pull adds to, which must stay as it is when a pull fails
"$B/tests/tools/cpu_rounds" "$T/r3.data" 1 4 1 >/dev/null && "$PERFDB" import -q -o "$T/have.db" "$T/r3.data"
have=$(sha "$T/have.db")

# refused WHAT WANT CONNINFO [PULL ARGS...]: pull from CONNINFO refused in
# one line matching WANT, exit 2; no new database, the existing one unchanged
refused() {
	what=$1 want=$2 conn=$3
	shift 3
	rm -f "$T/new.db"
	"$PERFDB" pull --from "$conn" "$@" -o "$T/new.db" >"$T/out" 2>"$T/err"; rc=$?
	check "$what: exit 2, one line saying so, no database left behind" \
		eval '[ $rc = 2 ] && [ "$(wc -l <"$T/err")" = 1 ] && grep -q "$want" "$T/err" && [ ! -e "$T/new.db" ]'
	"$PERFDB" pull --from "$conn" "$@" -o "$T/have.db" >"$T/out" 2>"$T/err"; rc=$?
	check "$what: pulled into a database: exit 2, the database unchanged" \
		eval '[ $rc = 2 ] && [ "$(sha "$T/have.db")" = "$have" ] && [ ! -e "$T/have.db-journal" ]'
}

# --- what the server lacks ---------------------------------------------------------
refused "pull -s of a session the server lacks" "no session or bench 'nosuch' on the server" "$PGCONN" -s nosuch

# --- ids of another session ------------------------------------------------------------
createdb -h "$PG_DIR/sock" -U perfdb -T perfdb other
OTHER="host=$PG_DIR/sock user=perfdb dbname=other"
psql -X -q -v ON_ERROR_STOP=1 "$OTHER" -c "UPDATE sample SET thread_id = (SELECT max(id) FROM thread
	WHERE session_id = 2) WHERE session_id = 1" 2>"$T/err"
refused "a server whose samples refer to another session's thread" \
	"server session 1 (label one, host .*): reading sample: column thread_id: id [0-9]* is not one of the unit's thread ids on the server ([0-9]*\.\.[0-9]*)" \
	"$OTHER" -s one

# --- a proxy that rewrites the binary results -----------------------------------------
cat >"$T/proxy.py" <<'PY'
# proxy.py MODE DIR SOCKET: listens on DIR/.s.PGSQL.5432, passes every
# byte to the server's SOCKET and back, but rewrites each binary result
# (a RowDescription whose columns are all in binary format, and its
# DataRows) as MODE says: cols (one more int8 column), null (the first
# value NULL), short (an 8-byte first value sent as its last 4 bytes),
# text (the first column said to be in text format), none.
import os, socket, struct, sys, threading
mode, where, target = sys.argv[1:4]
ls = socket.socket(socket.AF_UNIX)
ls.bind(os.path.join(where, ".s.PGSQL.5432"))
ls.listen(4)

def exact(s, n):
    b = b""
    while len(b) < n:
        d = s.recv(n - len(b))
        if not d:
            return None
        b += d
    return b

def up(c, s):
    try:
        while True:
            d = c.recv(65536)
            if not d:
                break
            s.sendall(d)
    except OSError:
        pass
    s.close()

def fields(body):
    n, p, out = struct.unpack("!h", body[:2])[0], 2, []
    for _ in range(n):
        e = body.index(b"\0", p) + 1 + 18
        out.append(body[p:e])
        p = e
    return out

def row_desc(fs):
    if mode == "cols":
        fs = fs + [b"extra\0" + struct.pack("!IhIhih", 0, 0, 20, 8, -1, 1)]
    elif mode == "text":
        fs = [fs[0][:-2] + struct.pack("!h", 0)] + fs[1:]
    return struct.pack("!h", len(fs)) + b"".join(fs)

def data_row(body):
    n, p, vals = struct.unpack("!h", body[:2])[0], 2, []
    for _ in range(n):
        k = struct.unpack("!i", body[p:p + 4])[0]
        p += 4
        vals.append(None if k < 0 else body[p:p + k])
        p += max(k, 0)
    if mode == "cols":
        vals.append(struct.pack("!q", 1))
    elif mode == "null":
        vals[0] = None
    elif mode == "short" and vals[0] is not None and len(vals[0]) == 8:
        vals[0] = vals[0][4:]
    out = struct.pack("!h", len(vals))
    for v in vals:
        out += struct.pack("!i", -1) if v is None else struct.pack("!i", len(v)) + v
    return out

def down(s, c):
    binary = False
    while True:
        h = exact(s, 5)
        body = h and exact(s, struct.unpack("!I", h[1:])[0] - 4)
        if body is None:
            break
        t = h[:1]
        if t == b"T":
            fs = fields(body)
            binary = mode != "none" and len(fs) > 0 and all(f[-2:] == b"\0\1" for f in fs)
            if binary:
                body = row_desc(fs)
        elif t == b"D" and binary:
            body = data_row(body)
        elif t in (b"C", b"E", b"Z"):
            binary = False
        c.sendall(t + struct.pack("!I", len(body) + 4) + body)
    c.close()

while True:
    c, _ = ls.accept()
    s = socket.socket(socket.AF_UNIX)
    s.connect(target)
    threading.Thread(target=up, args=(c, s), daemon=True).start()
    threading.Thread(target=down, args=(s, c), daemon=True).start()
PY
mkdir -p "$T/px"
PROXY="host=$T/px user=perfdb dbname=perfdb gssencmode=disable sslmode=disable"
# start_proxy MODE: the proxy in that mode, listening once its socket is there
start_proxy() {
	[ -n "$proxy" ] && kill "$proxy" 2>/dev/null && wait "$proxy" 2>/dev/null
	rm -f "$T/px/.s.PGSQL.5432"
	python3 "$T/proxy.py" "$1" "$T/px" "$PG_DIR/sock/.s.PGSQL.5432" 2>"$T/proxy.err" &
	proxy=$!
	i=0
	while [ $i -lt 100 ] && [ ! -S "$T/px/.s.PGSQL.5432" ]; do sleep 0.05; i=$((i + 1)); done
}
start_proxy none
"$PERFDB" pull --from "$PGCONN" -o "$T/direct.db" >/dev/null 2>&1 && sqlite3 "$T/direct.db" .dump >"$T/direct.sql"
"$PERFDB" pull --from "$PROXY" -o "$T/via.db" >"$T/out" 2>"$T/err"; rc=$?
check "through the proxy changing nothing: pull works, the same database as pulled directly" \
	eval '[ $rc = 0 ] && [ -s "$T/direct.sql" ] && sqlite3 "$T/via.db" .dump | cmp -s - "$T/direct.sql"'
while IFS='|' read -r m what want; do
	start_proxy "$m" </dev/null
	refused "a server that sends $what" "$want" "$PROXY" </dev/null
done <<-'MODES'
	cols|one more column than asked|reading session: the server sent [0-9]* columns, [0-9]* asked
	null|a NULL id|reading session: column id: NULL in the table's key
	short|an int8 id of 4 bytes|reading session: column id: a value of 4 bytes, its type has 8
	text|an id in text format where binary was asked|reading session: column id: the server sent type 20 in format 0
	MODES
tap_end
