# perfdb build: one static library of everything but the verb dispatcher,
# the perfdb binary, unit tests, and the embedded SQL schema.
CC      ?= cc
PREFIX  ?= /usr/local
DESTDIR ?=
PKGS    := libtraceevent libbpf libdw libelf sqlite3 libzstd libpq yaml-0.1 json-c
CFLAGS  ?= -O2 -g
# The project's own flags stay even when CFLAGS is given on the command line.
override CFLAGS += -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -I. -Ibuild \
           $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
# libpq is loaded at run time (schema/pg_lib.h): only its header is needed here.
LDLIBS  += $(shell pkg-config --libs $(filter-out libpq,$(PKGS)) 2>/dev/null) -liberty -lm -lpthread
BUILD   ?= build

# The library's sources are found at any depth below the layers' folders
# (the rooms, collect/*/ and analyze/*/, and whatever folder comes next),
# so a new file or room needs no edit here;
LIB_DIRS := lib schema collect analyze reports builtin
LIB_SRCS := $(sort $(shell find $(LIB_DIRS) -name '*.c' -type f))
# and the generated sources: the schema, the version, the packages list.
GEN_OBJS := $(BUILD)/schema_sql.o $(BUILD)/version.o $(BUILD)/packages.o
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/%.o) $(GEN_OBJS)
UNIT_SRCS := $(sort $(wildcard tests/unit/test_*.c))
TESTLIB_OBJS := $(patsubst %.c,$(BUILD)/%.o,$(sort $(wildcard tests/lib/*.c)))
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)
WORKLOADS := $(patsubst workloads/%.c,$(BUILD)/workloads/%,$(sort $(wildcard workloads/*.c)))
TOOLS     := $(patsubst tests/tools/%.c,$(BUILD)/tests/tools/%,$(sort $(wildcard tests/tools/*.c)))
QUIRK     := $(BUILD)/tests/quirk/deafbp.so $(BUILD)/tests/quirk/bpwrite
# The verbs, as perfdb.c's table lists them: one man page each.
VERBS     := $(shell sed -n 's/^[[:space:]]*{ &verb_\([a-z0-9_]*\),.*/\1/p' perfdb.c)
MAN_PAGES := $(BUILD)/man/perfdb.1 $(VERBS:%=$(BUILD)/man/perfdb-%.1)
COMPLETION := $(BUILD)/perfdb.bash
MANDIR    := $(PREFIX)/share/man/man1
COMPDIR   := $(PREFIX)/share/bash-completion/completions
SCHEMA    := schema/tables.sql schema/tracepoints.sql schema/views.sql schema/bench.sql \
             schema/bench_views.sql schema/lost.sql schema/pulse.sql schema/dist.sql schema/knob.sql

# Quiet unless V=1, which shows every command.
ifneq ($(V),1)
.SILENT:
endif
# A recipe that fails leaves no half-written target that looks up to date.
.DELETE_ON_ERROR:
# make -j clean all: clean must be done before anything is built.
ifneq ($(filter clean,$(MAKECMDGOALS)),)
.NOTPARALLEL:
endif
.PHONY: all test asan bench deps install uninstall clean run fuzz fuzz-build fuzz-harnesses mutate FORCE

# Each compiler run writes the headers it read into BUILD/deps/OUTPUT.d
# (-MMD: the project's headers, not the system's; -MP: an empty rule for
# each, so a header that goes away is no error), a tree of their own so
# that nothing listing BUILD/tests or BUILD/fuzz finds them; they are
# included at the end of this file, so a changed header rebuilds only what
# includes it. OUTDIRS makes the output's folder and its .d's.
DEPFILE  = $(patsubst $(BUILD)/%,$(BUILD)/deps/%.d,$@)
DEPFLAGS = -MMD -MP -MF $(DEPFILE) -MT $@
OUTDIRS  = mkdir -p $(dir $@) $(dir $(DEPFILE))
all: $(BUILD)/perfdb $(UNIT_BINS) $(WORKLOADS) $(TOOLS) $(QUIRK) $(MAN_PAGES) $(COMPLETION)
	@ln -sf $(BUILD)/perfdb perfdb

$(BUILD)/perfdb: $(BUILD)/perfdb.o $(BUILD)/libperfdb.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/libperfdb.a: $(LIB_OBJS)
	rm -f $@; ar rcs $@ $^

$(BUILD)/%.o: %.c
	@$(OUTDIRS)
	$(CC) $(CFLAGS) $(DEPFLAGS) -c -o $@ $<

# Man pages and bash completion come from the verbs' option tables, the
# same ones --help prints (perfdb's hidden --man and --bash-completion).
$(BUILD)/man/perfdb.1: $(BUILD)/perfdb
	@mkdir -p $(dir $@)
	$(BUILD)/perfdb --man > $@.tmp && mv $@.tmp $@

$(BUILD)/man/perfdb-%.1: $(BUILD)/perfdb
	@mkdir -p $(dir $@)
	$(BUILD)/perfdb --man $* > $@.tmp && mv $@.tmp $@

$(COMPLETION): $(BUILD)/perfdb
	$(BUILD)/perfdb --bash-completion > $@.tmp && mv $@.tmp $@

# The schema files become two C strings: the tables and views, created when
# a database is made, and the indexes, built after each bulk load.
$(BUILD)/schema_sql.c: $(SCHEMA) schema/pg_views.sql schema/indexes.sql schema/migrate5.sql schema/migrate5_as_v5.sql schema/migrate6.sql schema/migrate7.sql schema/migrate8.sql schema/migrate9.sql schema/embed.sh
	@mkdir -p $(BUILD)
	{ sh schema/embed.sh perfdb_schema_sql $(SCHEMA) && \
	  sh schema/embed.sh perfdb_index_sql schema/indexes.sql && \
	  sh schema/embed.sh perfdb_pg_views_sql schema/pg_views.sql && \
	  sh schema/embed.sh perfdb_migrate5_sql schema/migrate5.sql schema/bench.sql \
		  schema/migrate5_as_v5.sql && \
	  sh schema/embed.sh perfdb_migrate6_sql schema/migrate6.sql schema/bench_views.sql && \
	  sh schema/embed.sh perfdb_migrate7_sql schema/migrate7.sql schema/lost.sql && \
	  sh schema/embed.sh perfdb_migrate8_sql schema/migrate8.sql schema/pulse.sql && \
	  sh schema/embed.sh perfdb_migrate9_sql schema/migrate9.sql schema/dist.sql schema/knob.sql; } > $@.tmp && \
	mv $@.tmp $@

# The generated sources are compiled where they are made.
$(GEN_OBJS): $(BUILD)/%.o: $(BUILD)/%.c
	@$(OUTDIRS)
	$(CC) $(CFLAGS) $(DEPFLAGS) -c -o $@ $<

# The Debian packages list (.ci/deps.sh's), for perfdb doctor.
$(BUILD)/packages.c: .ci/packages schema/embed.sh
	@mkdir -p $(BUILD)
	sh schema/embed.sh perfdb_debian_packages .ci/packages > $@.tmp && mv $@.tmp $@

# The version and git commit, rewritten only when they change.
$(BUILD)/version.c: FORCE
	@mkdir -p $(BUILD)
	sh lib/version.sh . > $@.tmp
	cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@

# Helpers shared by unit tests (fixture writers), when there are any.
TESTLIB := $(if $(TESTLIB_OBJS),$(BUILD)/libtest.a)
$(BUILD)/libtest.a: $(TESTLIB_OBJS)
	rm -f $@; ar rcs $@ $^

$(BUILD)/tests/%: tests/unit/%.c $(TESTLIB) $(BUILD)/libperfdb.a
	@$(OUTDIRS)
	$(CC) $(CFLAGS) $(DEPFLAGS) $(LDFLAGS) -o $@ $< $(TESTLIB) $(BUILD)/libperfdb.a $(LDLIBS)

# Workloads are what is measured, not perfdb: the same code in every build
# (no sanitizers, whatever CFLAGS says), with frame pointers and -g.
WORKLOAD_CFLAGS := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -I. -O1 -g -fno-omit-frame-pointer
$(BUILD)/workloads/%: workloads/%.c
	@$(OUTDIRS)
	$(CC) $(WORKLOAD_CFLAGS) $(DEPFLAGS) -o $@ $< -lpthread

# A machine's quirk for tests (tests/quirk/): hardware watchpoints that are
# accepted and never fire (a preloaded library), and the program an oracle
# watches. Like the workloads: no sanitizers (ASan's runtime must come
# first in a process; the library is preloaded before it), and no PIE for
# the oracle, so that nm gives its variable's address.
$(BUILD)/tests/quirk/deafbp.so: tests/quirk/deafbp.c
	@$(OUTDIRS)
	$(CC) $(WORKLOAD_CFLAGS) $(DEPFLAGS) -shared -fPIC -o $@ $< -ldl

$(BUILD)/tests/quirk/bpwrite: tests/quirk/bpwrite.c
	@$(OUTDIRS)
	$(CC) $(WORKLOAD_CFLAGS) $(DEPFLAGS) -no-pie -o $@ $<

$(BUILD)/tests/tools/%: tests/tools/%.c $(TESTLIB) $(BUILD)/libperfdb.a
	@$(OUTDIRS)
	$(CC) $(CFLAGS) $(DEPFLAGS) $(LDFLAGS) -o $@ $< $(TESTLIB) $(BUILD)/libperfdb.a $(LDLIBS)

# test and run install what is missing first (a fresh machine); CI runs
# make deps itself.
test:
	sh .ci/deps.sh --if-missing
	$(MAKE) all
	sh tests/run.sh $(BUILD)

asan:
	$(MAKE) BUILD=build-asan CC=clang \
	  CFLAGS="-O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" \
	  LDFLAGS="-fsanitize=address,undefined" all
	sh tests/run.sh build-asan

# Fuzzing (tests/fuzz/README.md): libFuzzer harnesses, with perfdb built
# into build-fuzz/ with ASan+UBSan and coverage instrumentation (clang).
# make fuzz FUZZ_SECONDS=N runs each harness N seconds from its seed
# corpus; any crash, leak, hang or out-of-memory fails it.
FUZZ_SECONDS ?= 60
FUZZ_BUILD   := build-fuzz
FUZZ_CFLAGS  := -O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all \
		-fno-omit-frame-pointer -DPERFDB_BATCH_ROWS=4
FUZZ_NAMES   := $(patsubst tests/fuzz/%.c,%,$(sort $(wildcard tests/fuzz/fuzz_*.c)))
fuzz-build:
	$(MAKE) BUILD=$(FUZZ_BUILD) CC=clang CFLAGS="$(FUZZ_CFLAGS)" LDFLAGS="-fsanitize=address,undefined" \
	  fuzz-harnesses

FUZZ_HARNESSES := $(FUZZ_NAMES:%=$(BUILD)/fuzz/%)
FUZZ_MEMFILE   := $(BUILD)/tests/fuzz/memfile.o
fuzz-harnesses: $(FUZZ_HARNESSES)

# (memfile.o is kept: make removes what only a pattern rule names.)
.SECONDARY: $(FUZZ_MEMFILE)
$(FUZZ_HARNESSES): $(BUILD)/fuzz/%: tests/fuzz/%.c $(FUZZ_MEMFILE) $(BUILD)/libperfdb.a
	@$(OUTDIRS)
	$(CC) $(CFLAGS) $(DEPFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_MEMFILE) $(BUILD)/libperfdb.a $(LDLIBS)

fuzz: fuzz-build
	sh tests/fuzz/run.sh $(FUZZ_BUILD) $(FUZZ_SECONDS)

# The benchmark's own programs (tests/bench/*.c: the SQLite floor), not
# perfdb: optimized and without sanitizers whatever CFLAGS says.
BENCH_CFLAGS := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -O2 -g
BENCH_PROGS  := $(patsubst tests/bench/%.c,$(BUILD)/bench/%,$(sort $(wildcard tests/bench/*.c)))
$(BUILD)/bench/%: tests/bench/%.c
	@$(OUTDIRS)
	$(CC) $(BENCH_CFLAGS) $(DEPFLAGS) $(shell pkg-config --cflags sqlite3 2>/dev/null) -o $@ $< \
	  $(shell pkg-config --libs sqlite3 2>/dev/null)

bench: all $(BENCH_PROGS)
	sh tests/bench/import.sh $(BUILD)
	sh tests/bench/cgdiff.sh $(BUILD)
	sh tests/bench/analyze.sh $(BUILD)
	sh tests/bench/push.sh $(BUILD)
	sh tests/bench/pulse.sh $(BUILD)
	sh tests/bench/sittings.sh $(BUILD)

# Mutation testing (tests/mutate/README.md): small bugs put one at a time
# into a copy of the code that computes users' numbers, each against the
# tests that cover its file; prints what the tests killed and what
# survived. The fast subset by default; FULL=1 runs every mutant and test;
# CHECK=1 fails when the kill rate is below tests/mutate/threshold; ONLY=S
# keeps the mutants whose file or description contains S. The copy and its
# build live in MUTATE_BUILD.
MUTATE_BUILD ?= build-mutate
mutate:
	python3 tests/mutate/mutate.py --build $(MUTATE_BUILD) $(if $(FULL),--full) $(if $(CHECK),--check) \
	  $(if $(ONLY),--only '$(ONLY)')

deps:
	sh .ci/deps.sh

run:
	sh tests/demo.sh

install: $(BUILD)/perfdb $(WORKLOADS) $(MAN_PAGES) $(COMPLETION)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/libexec/perfdb \
	  $(DESTDIR)$(MANDIR) $(DESTDIR)$(COMPDIR)
	install -m 755 $(BUILD)/perfdb $(DESTDIR)$(PREFIX)/bin/perfdb
	for w in $(WORKLOADS); do install -m 755 $$w $(DESTDIR)$(PREFIX)/libexec/perfdb/ || exit 1; done
	install -m 644 $(MAN_PAGES) $(DESTDIR)$(MANDIR)/
	install -m 644 $(COMPLETION) $(DESTDIR)$(COMPDIR)/perfdb

# Removes what install put there (the lists come from the sources, so no
# build is needed).
uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/perfdb $(DESTDIR)$(COMPDIR)/perfdb \
	  $(WORKLOADS:$(BUILD)/workloads/%=$(DESTDIR)$(PREFIX)/libexec/perfdb/%) \
	  $(MAN_PAGES:$(BUILD)/man/%=$(DESTDIR)$(MANDIR)/%)
	rmdir $(DESTDIR)$(PREFIX)/libexec/perfdb 2>/dev/null || true

clean:
	rm -rf build build-asan build-fuzz build-mutate perfdb

# The headers each output was built from (DEPFLAGS above). An output that
# has no .d (built by a Makefile before the .d files, or its .d lost)
# cannot say what it read: it is rebuilt once.
DEP_OUTPUTS := $(BUILD)/perfdb.o $(LIB_OBJS) $(TESTLIB_OBJS) $(UNIT_BINS) $(TOOLS) $(WORKLOADS) \
               $(QUIRK) $(BENCH_PROGS) $(FUZZ_HARNESSES) $(FUZZ_MEMFILE)
DEP_FILES   := $(wildcard $(DEP_OUTPUTS:$(BUILD)/%=$(BUILD)/deps/%.d))
-include $(DEP_FILES)
$(filter-out $(DEP_FILES:$(BUILD)/deps/%.d=$(BUILD)/%),$(wildcard $(DEP_OUTPUTS))): FORCE
