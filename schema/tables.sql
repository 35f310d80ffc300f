-- perfdb core tables: one session per imported perf.data; everything else
-- hangs off a session. Surrogate integer keys throughout (pids are reused).

CREATE TABLE session (
  id              INTEGER PRIMARY KEY,
  label           TEXT,
  source          TEXT,     -- the perf.data path as given
  imported_at     TEXT,     -- UTC, ISO 8601
  perf_version    TEXT,
  hostname        TEXT,
  os_release      TEXT,     -- uname -r of the recording machine
  arch            TEXT,
  cpu_desc        TEXT,
  cpuid           TEXT,
  nr_cpus_online  INTEGER,
  nr_cpus_avail   INTEGER,
  total_mem_kb    INTEGER,
  perf_cmdline    TEXT,     -- the perf command line that recorded it
  pipe_mode       INTEGER,
  big_endian      INTEGER,
  first_time      INTEGER,  -- ns, perf clock: first and last record time
  last_time       INTEGER,
  duration_ns     INTEGER,
  nr_records      INTEGER,
  first_sample_id INTEGER,  -- the session's samples are the ids between
  last_sample_id  INTEGER,  -- these two, in time order
  nr_samples      INTEGER,
  nr_lost         INTEGER,  -- records lost: the LOST records' counts added up
  nr_lost_samples INTEGER,  -- samples lost: the LOST_SAMPLES records' counts
  nr_unordered    INTEGER,  -- records that came behind the ordering window
  clock_id        INTEGER,
  clock_wall_ns   INTEGER,  -- CLOCK_DATA: wall time at clock_ref_ns
  clock_ref_ns    INTEGER,
  kallsyms_source TEXT,     -- where kernel symbols came from, or NULL
  workload        TEXT,     -- perfdb record: the workload's argv
  exit_status     INTEGER,  -- perfdb record: the workload's exit status
  wall_ns         INTEGER,  -- perfdb record: wall time of the recording
  interrupted     INTEGER NOT NULL DEFAULT 0,
  nr_lost_records INTEGER,  -- LOST records (perf report --stats' "LOST events")
  pulse_int       REAL,     -- perfdb record: the machine's pulse before it (bench_run's columns)
  pulse_mem       REAL,
  others_cpu_ns   INTEGER,  -- perfdb record: CPU time of other processes (not perf's, not the workload's)
  steal_ns        INTEGER
);

-- CPU topology (CPU_TOPOLOGY, NUMA_TOPOLOGY features).
CREATE TABLE cpu (
  session_id INTEGER NOT NULL REFERENCES session(id),
  cpu        INTEGER NOT NULL,
  core_id    INTEGER,
  socket_id  INTEGER,
  die_id     INTEGER,
  node       INTEGER,
  PRIMARY KEY (session_id, cpu)
) WITHOUT ROWID;

CREATE TABLE numa_node (
  session_id   INTEGER NOT NULL REFERENCES session(id),
  node         INTEGER NOT NULL,
  mem_total_kb INTEGER,
  mem_free_kb  INTEGER,
  cpus         TEXT,
  PRIMARY KEY (session_id, node)
) WITHOUT ROWID;

-- Event selectors (one per perf_event_attr).
CREATE TABLE event (
  id            INTEGER PRIMARY KEY,
  session_id    INTEGER NOT NULL REFERENCES session(id),
  idx           INTEGER NOT NULL,
  name          TEXT NOT NULL,
  type          INTEGER,
  config        INTEGER,
  config1       INTEGER,
  config2       INTEGER,
  sample_type   INTEGER,
  sample_period INTEGER,  -- period, or frequency when freq = 1
  freq          INTEGER,
  nr_samples    INTEGER NOT NULL DEFAULT 0,
  tp_table      TEXT      -- the typed view (or table) of its samples'
                          -- tracepoint fields: 'sched_switch', ...,
                          -- 'tracepoint' for any other tracepoint; NULL for
                          -- events that are not tracepoints
);

-- A process is one pid during one exec generation: one address space (mm).
CREATE TABLE process (
  id         INTEGER PRIMARY KEY,
  session_id INTEGER NOT NULL REFERENCES session(id),
  pid        INTEGER NOT NULL,
  parent_id  INTEGER,     -- process that forked it, when seen
  exec_gen   INTEGER NOT NULL DEFAULT 0,  -- 0 before the first exec seen
  comm       TEXT,
  user_mm    INTEGER NOT NULL DEFAULT 0,  -- 1: has a user address space (an
                                          -- mmap, an exec, or a user parent
                                          -- was seen); 0: kernel thread/idle
  start_time INTEGER,     -- NULL: existed before the recording
  end_time   INTEGER      -- NULL: still alive at the end
);

CREATE TABLE thread (
  id         INTEGER PRIMARY KEY,
  session_id INTEGER NOT NULL REFERENCES session(id),
  process_id INTEGER NOT NULL REFERENCES process(id),
  pid        INTEGER NOT NULL,
  tid        INTEGER NOT NULL,
  comm       TEXT,
  start_time INTEGER,
  end_time   INTEGER
);

-- Every COMM a thread took, with its time (exec changes both comm and mm).
CREATE TABLE comm (
  thread_id INTEGER NOT NULL REFERENCES thread(id),
  time      INTEGER,
  comm      TEXT NOT NULL,
  exec      INTEGER NOT NULL
);

-- Mapped objects: binaries, libraries, the kernel, modules.
CREATE TABLE dso (
  id         INTEGER PRIMARY KEY,
  session_id INTEGER NOT NULL REFERENCES session(id),
  path       TEXT NOT NULL,
  build_id   TEXT,
  kernel     INTEGER NOT NULL DEFAULT 0,
  symbols    TEXT      -- where its symbols came from, or why none
);

CREATE TABLE mmap (
  session_id INTEGER NOT NULL REFERENCES session(id),
  process_id INTEGER,    -- NULL for kernel maps
  time       INTEGER,
  start      INTEGER NOT NULL,
  len        INTEGER NOT NULL,
  pgoff      INTEGER,
  prot       INTEGER,
  flags      INTEGER,
  dso_id     INTEGER REFERENCES dso(id)
);

-- Symbols, one row per (dso, symbol); name '[unknown]' for addresses that
-- resolved to no symbol of their dso.
CREATE TABLE symbol (
  id     INTEGER PRIMARY KEY,
  dso_id INTEGER REFERENCES dso(id),
  name   TEXT NOT NULL,
  start  INTEGER,
  size   INTEGER
);

-- Call stacks as a trie from the outermost caller: each node is one frame
-- (a symbol) under its caller node; a sample points at its innermost node.
CREATE TABLE stack (
  id        INTEGER PRIMARY KEY,
  parent_id INTEGER REFERENCES stack(id),
  symbol_id INTEGER NOT NULL REFERENCES symbol(id),
  depth     INTEGER NOT NULL
);

CREATE TABLE sample (
  id         INTEGER PRIMARY KEY,
  session_id INTEGER NOT NULL REFERENCES session(id),
  event_id   INTEGER NOT NULL REFERENCES event(id),
  time       INTEGER,
  cpu        INTEGER,
  thread_id  INTEGER REFERENCES thread(id),
  ip         INTEGER,
  symbol_id  INTEGER REFERENCES symbol(id),
  cpumode    INTEGER,   -- 1 kernel, 2 user, 3 hypervisor, 4/5 guest
  period     INTEGER,
  stack_id   INTEGER REFERENCES stack(id),
  -- A tracepoint sample's fields, read through the typed view named by
  -- event.tp_table (schema/tracepoints.sql), which names them; NULL for
  -- other samples. Stored here, not in a table of their own, so that a
  -- sample is one row.
  f1, f2, f3, f4, f5, f6, f7
);

-- Memory-access samples: raw values and data_src decoded (perf_mem_data_src).
CREATE TABLE mem_sample (
  sample_id INTEGER PRIMARY KEY REFERENCES sample(id),
  addr      INTEGER,
  phys_addr INTEGER,
  weight    INTEGER,
  ins_lat   INTEGER,
  data_src  INTEGER,
  mem_op    INTEGER,   -- PERF_MEM_OP_* bits: 2 load, 4 store, 8 prefetch, 16 exec
  mem_lvl   INTEGER,   -- PERF_MEM_LVL_* bits
  lvl_num   INTEGER,   -- PERF_MEM_LVLNUM_*
  snoop     INTEGER,   -- PERF_MEM_SNOOP_* bits
  snoopx    INTEGER,   -- PERF_MEM_SNOOPX_* bits
  remote    INTEGER,
  mem_lock  INTEGER,
  dtlb      INTEGER,
  hops      INTEGER,
  blk       INTEGER
);

-- Counts of what an import saw that it could not fully use.
CREATE TABLE data_quality (
  session_id INTEGER NOT NULL REFERENCES session(id),
  what       TEXT NOT NULL,
  count      INTEGER NOT NULL
);

-- The kernel symbol table in force when the session was recorded (zstd
-- compressed /proc/kallsyms text), so kernel addresses resolve elsewhere.
CREATE TABLE kallsyms (
  session_id INTEGER PRIMARY KEY REFERENCES session(id),
  text_zstd  BLOB NOT NULL,
  size       INTEGER NOT NULL
);

-- Struct layouts from the recording kernel's BTF (perfdb record stores
-- mm_struct's), so fields resolve on another machine. Members are flattened
-- to dotted names through anonymous and nested structs/unions
-- (context.tlb_gen); a nested struct has its own row as well as rows for
-- its members; an array is one member with its total size. member '' is the
-- whole struct (offset 0, its size). Offsets are bytes from the struct's
-- start; a bitfield's offset is its storage unit's (aligned to the declared
-- type's size, as pahole prints it), bit_offset the first bit within that
-- unit and bit_size its width; both NULL for other members.
CREATE TABLE struct_layout (
  session_id  INTEGER NOT NULL REFERENCES session(id),
  struct_name TEXT NOT NULL,
  member      TEXT NOT NULL,
  offset      INTEGER NOT NULL,
  size        INTEGER NOT NULL,
  bit_offset  INTEGER,
  bit_size    INTEGER,
  type_name   TEXT,
  PRIMARY KEY (session_id, struct_name, member)
) WITHOUT ROWID;

-- Objects named for `perfdb hitm` (--object TYPE@ADDR, and the variables
-- and data symbols of a --dwarf binary at the addresses the session mapped
-- it at), kept so the analysis repeats without the options or the files.
-- type_name is the struct whose struct_layout names the fields ('' when
-- untyped: then type_decl is the C type when known); size 0 means the
-- layout's size; pid NULL means any process (kernel objects).
CREATE TABLE c2c_object (
  session_id INTEGER NOT NULL REFERENCES session(id),
  type_name  TEXT NOT NULL,
  type_decl  TEXT,
  name       TEXT,
  address    INTEGER NOT NULL,
  size       INTEGER NOT NULL,
  pid        INTEGER,
  source     TEXT NOT NULL    -- 'object', or 'dwarf:PATH'
);

-- What `perfdb record -r watch` watched: one row per hardware write
-- watchpoint (--watch SPEC). Its samples are those of the breakpoint event
-- with event.type = 5 (PERF_TYPE_BREAKPOINT), event.config1 = addr and
-- event.config2 = len; each sample's ip is the instruction after the store.
-- armed_ns/ended_ns bound the watched run on the samples' clock (perf -k
-- monotonic): from the watchpoints armed to the workload's end.
CREATE TABLE watch (
  session_id  INTEGER NOT NULL REFERENCES session(id),
  idx         INTEGER NOT NULL,   -- 0.. in the order given
  spec        TEXT NOT NULL,      -- as given to --watch
  kind        TEXT NOT NULL,      -- 'mm' (the workload's mm_struct), 'addr', 'symbol'
  field       TEXT NOT NULL,      -- mm_struct.mm_count, fs_shared.packed.bitmap_a
  type_name   TEXT,               -- struct of the object, when known
  field_type  TEXT,               -- C type of the field, when known
  object_addr INTEGER NOT NULL,   -- the object's address (the mm_struct, the symbol)
  offset      INTEGER NOT NULL,   -- of the field in the object
  size        INTEGER NOT NULL,   -- of the field, bytes
  addr        INTEGER NOT NULL,   -- watched address (aligned to len)
  len         INTEGER NOT NULL,   -- watched bytes: 1, 2, 4 or 8
  partial     INTEGER NOT NULL,   -- 1: only part of the field is watched
  wider       INTEGER NOT NULL,   -- 1: the watch covers bytes outside the field too
  event       TEXT NOT NULL,      -- perf's event: mem:0xADDR/LEN:w
  pid         INTEGER,            -- process whose mm / address space is watched
  mm_mode     TEXT,               -- 'exec' or 'fork' (--watch-mm)
  armed_ns    INTEGER,
  ended_ns    INTEGER,
  PRIMARY KEY (session_id, idx)
) WITHOUT ROWID;

-- The workload's own "metric=NAME value=V [unit=U] [better=higher|lower]
-- ..." stdout lines of a recorded session (perfdb record, perfdb bench's
-- recorded runs): watched = 1 from the recorded run (with -r watch its rate
-- is perturbed by one trap per watched write), 0 from the unrecorded
-- --watch-baseline run.
CREATE TABLE workload_metric (
  session_id INTEGER NOT NULL REFERENCES session(id),
  name       TEXT NOT NULL,
  value      REAL,
  watched    INTEGER NOT NULL,
  line       TEXT NOT NULL,
  unit       TEXT,
  better     TEXT      -- 'higher', 'lower', or NULL when the workload did not say
);
