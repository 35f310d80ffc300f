/* Unit tests of symbol resolution: the symtab itself, sym_normalize, the
 * kallsyms parser on hand-written text and on the running kernel's
 * /proc/kallsyms, and the ELF reader on this very test binary (found
 * through /proc/self/maps exactly as an MMAP2 record would be used), on
 * libc, and on truncated and corrupted copies. */
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "collect/symbols/elfsyms.h"
#include "collect/symbols/kallsyms_job.h"
#include "lib/kallsyms.h"
#include "collect/symbols/demangle.h"
#include "lib/symtab.h"
#include "tests/unit/tap.h"

#ifndef CORRUPT_ROUNDS /* more with -DCORRUPT_ROUNDS=N for a longer fuzz */
#define CORRUPT_ROUNDS 300
#endif

/* A function and a data object of this binary that the ELF test looks up
 * by their run-time addresses. */
__attribute__((noinline)) static int symtest_target_fn(int x)
{
	return x * 3 + 1;
}

static int symtest_target_obj[8] = { 1, 2, 3 };
static int (*volatile target_ptr)(int) = symtest_target_fn;

/* --- sym_normalize ---------------------------------------------------- */

/* norm(in): sym_normalize of in into a static buffer. */
static const char *norm(const char *in)
{
	static char buf[256];

	sym_normalize(in, buf, sizeof(buf));
	return buf;
}

/* test_normalize(): sym_normalize strips exactly the listed suffixes. */
static void test_normalize(void)
{
	char small[4], inplace[32] = "foo.part.3";

	is_str(norm("schedule"), "schedule", "normalize: plain name unchanged");
	is_str(norm("foo.isra.0"), "foo", "normalize: .isra.N");
	is_str(norm("foo.constprop.12"), "foo", "normalize: .constprop.N");
	is_str(norm("foo.part.1"), "foo", "normalize: .part.N");
	is_str(norm("foo.cold"), "foo", "normalize: .cold");
	is_str(norm("foo.cold.7"), "foo", "normalize: .cold.N");
	is_str(norm("foo.llvm.1234567890123"), "foo", "normalize: .llvm.DIGITS");
	is_str(norm("foo.isra.0.cold"), "foo", "normalize: foo.isra.0.cold -> foo");
	is_str(norm("foo.constprop.0.isra.0"), "foo", "normalize: stacked suffixes");
	is_str(norm("foo.part.0.constprop.1.cold.2"), "foo", "normalize: three suffixes");
	is_str(norm("foo.isra"), "foo.isra", "normalize: .isra without N kept");
	is_str(norm("foo.isra.x"), "foo.isra.x", "normalize: .isra.x kept");
	is_str(norm("foo.llvm.abc"), "foo.llvm.abc", "normalize: .llvm.nondigits kept");
	is_str(norm("foo.coldish"), "foo.coldish", "normalize: .coldish kept");
	is_str(norm("foo.12"), "foo.12", "normalize: bare .N kept");
	is_str(norm("bar.lto_priv.0"), "bar.lto_priv.0", "normalize: other suffix kept");
	is_str(norm(".cold"), ".cold", "normalize: never strips to empty");
	is_str(norm(""), "", "normalize: empty name");
	is_str(norm("ns::f [clone .constprop.0]"), "ns::f", "normalize: demangled C++ clone");
	is_str(norm("ns::f [clone .isra.0] [clone .cold]"), "ns::f",
	       "normalize: stacked demangled clone notes");
	is_str(norm("v::operator[]"), "v::operator[]", "normalize: operator[] kept");
	is_str(norm("x [other .y]"), "x [other .y]", "normalize: other bracket note kept");
	is_str(norm("[clone .a]"), "[clone .a]", "normalize: a note alone kept");
	is_int(sym_normalize("abcdef.cold", small, sizeof(small)), 6,
	       "normalize: returns full length when truncated");
	is_str(small, "abc", "normalize: truncated output is terminated");
	sym_normalize(inplace, inplace, sizeof(inplace));
	is_str(inplace, "foo", "normalize: in place");
}

/* dm(name): sym_demangle of name in a static buffer, "(null)" for NULL. */
static const char *dm(const char *name)
{
	static char buf[256];
	char *d = sym_demangle(name);

	snprintf(buf, sizeof(buf), "%s", d ? d : "(null)");
	free(d);
	return buf;
}

/* test_demangle(): C++ and Rust names as perf prints them. */
static void test_demangle(void)
{
	is_str(dm("_ZN2ns3BoxIiE4spinEl"), "ns::Box<int>::spin", "demangle: template member, no parameters");
	is_str(dm("_ZN2ns4overEd"), "ns::over", "demangle: overloads print alike, as in perf");
	is_str(dm("_ZNK2ns2OpclEl"), "ns::Op::operator()", "demangle: operator(), no const");
	is_str(dm("_ZN2ns1fEl.constprop.0"), "ns::f", "demangle: a clone, its suffix dropped as perf does");
	is_str(dm("_RNvCs1234_7mycrate3foo"), "mycrate::foo", "demangle: Rust v0");
	is_str(dm("schedule"), "(null)", "demangle: a C name is left alone");
	is_str(dm("_Zjunk"), "(null)", "demangle: a malformed name is left alone");
	is_str(dm("_"), "(null)", "demangle: one underscore");
	is_str(dm(""), "(null)", "demangle: empty");
}

/* --- symtab ----------------------------------------------------------- */

/* find_name(t, addr, off): the name found at addr, or "(none)". */
static const char *find_name(const struct symtab *t, uint64_t addr, uint64_t *off)
{
	const struct sym *s = symtab_find(t, addr, off);

	return s ? s->name : "(none)";
}

/* test_symtab(): lookups in gaps, nested and unsized symbols, aliases. */
static void test_symtab(void)
{
	struct symtab *t = symtab_new();
	uint64_t off = 99;

	symtab_add(t, 0x2000, 0x100, "outer", NULL);
	symtab_add(t, 0x2040, 0x10, "inner", NULL);
	symtab_add(t, 0x1000, 0x10, "sized", NULL);
	symtab_add(t, 0x3000, 0, "unsized", NULL);
	symtab_add(t, 0x3100, 0, "last", NULL);
	symtab_add_typed(t, 0x1000, 0, 'd', "data_alias", 10, NULL);
	is_int(symtab_add(t, 0x4000, 0, "", NULL), -1, "symtab: empty name refused");
	is_int(symtab_add_typed(t, 0x4000, 0, 'T', "a\0b", 3, NULL), -1,
	       "symtab: name with NUL refused");
	ok(symtab_find(t, 0x1000, NULL) == NULL, "symtab: no lookups before finish");
	symtab_finish(t);
	is_int(symtab_count(t), 6, "symtab: 6 symbols");
	is_str(find_name(t, 0x1000, &off), "sized", "symtab: text preferred over data alias");
	is_int(off, 0, "symtab: off 0 at start");
	is_str(find_name(t, 0x100f, &off), "sized", "symtab: last byte of sized");
	is_int(off, 0xf, "symtab: off 0xf");
	is_str(find_name(t, 0x1010, NULL), "(none)", "symtab: gap after a sized symbol");
	is_str(find_name(t, 0xfff, NULL), "(none)", "symtab: below the first symbol");
	is_str(find_name(t, 0x2048, &off), "inner", "symtab: innermost of nested");
	is_str(find_name(t, 0x2050, &off), "outer", "symtab: enclosing after nested ends");
	is_int(off, 0x50, "symtab: off inside enclosing");
	is_str(find_name(t, 0x30ff, &off), "unsized", "symtab: size inferred from next");
	is_int(symtab_at(t, 4)->size, 0x100, "symtab: inferred size 0x100");
	is_str(find_name(t, 0x3100, NULL), "last", "symtab: last unsized at its start");
	is_str(find_name(t, 0x3101, NULL), "(none)", "symtab: last unsized holds 1 byte");
	is_str(symtab_at(t, 0)->name, "sized", "symtab: preferred alias first");
	ok(symtab_at(t, 6) == NULL, "symtab: symtab_at out of range");
	ok(symtab_find_name(t, "data_alias", NULL) != NULL, "symtab: find by name");
	is_int(symtab_find_name(t, "data_alias", NULL)->size, 0x10,
	       "symtab: unsized alias takes its sized alias's size");
	symtab_free(t);
}

/* test_symtab_aliases(): which of several symbols at one address a lookup
 * names, rule by rule as perf chooses (each pair differs in one rule and
 * has the other rules against it where it can), and which copy of an
 * exact duplicate is kept. */
static void test_symtab_aliases(void)
{
	struct symtab *t = symtab_new();
	uint64_t off = 99;

	symtab_add_typed(t, 0x1000, 0x10, 'W', "weak_and_long", 13, NULL);
	symtab_add_typed(t, 0x1000, 0x10, 'T', "strong", 6, NULL);
	symtab_add_typed(t, 0x2000, 0x10, 'T', "short", 5, NULL);
	symtab_add_typed(t, 0x2000, 0x10, 'T', "longer_name", 11, NULL);
	symtab_add_typed(t, 0x3000, 0x10, 't', "local_and_long", 14, NULL);
	symtab_add_typed(t, 0x3000, 0x10, 'T', "global", 6, NULL);
	symtab_add_typed(t, 0x4000, 0x10, 'T', "dup", 3, NULL);
	symtab_add_typed(t, 0x4000, 0x40, 'T', "dup", 3, NULL);
	symtab_add_typed(t, 0x5000, 0, 'T', "unsized_and_long", 16, NULL);
	symtab_add_typed(t, 0x5000, 0x8, 'T', "sized", 5, NULL);
	symtab_add_typed(t, 0x6000, 0x10, 'T', "__two_and_long", 14, NULL);
	symtab_add_typed(t, 0x6000, 0x10, 'T', "_one", 4, NULL);
	symtab_finish(t);
	is_str(find_name(t, 0x1000, NULL), "strong", "symtab aliases: a global before a weak one, however long");
	is_str(find_name(t, 0x2004, NULL), "longer_name", "symtab aliases: the longer name of two alike (as perf)");
	is_str(find_name(t, 0x3000, NULL), "global", "symtab aliases: a global before a local");
	is_str(find_name(t, 0x4020, &off), "dup", "symtab aliases: of two exact duplicates the larger is kept");
	is_int(off, 0x20, "symtab aliases: ... 0x20 into it");
	is_int(symtab_count(t), 11, "symtab aliases: one copy of the duplicate dropped");
	is_str(find_name(t, 0x5000, NULL), "sized", "symtab aliases: a sized symbol before an unsized one");
	is_str(find_name(t, 0x6000, NULL), "_one", "symtab aliases: fewer leading underscores first");
	symtab_free(t);
}

/* --- symtab: the order symbols are added in ---------------------------- */

#define ORDER_N 4000

/* order_syms(v, n): n random symbols, many at one address (aliases) and
 * some exact duplicates; names at one address differ in length, so the
 * best alias never depends on the order of addition. */
static void order_syms(struct sym *v, size_t n, char (*names)[16])
{
	static unsigned char at[ORDER_N / 3];	/* symbols so far at each address */
	srand(7);
	for (size_t i = 0; i < n; i++) {
		size_t dup = i > 10 && rand() % 8 == 0 ? (size_t)rand() % i : i;
		int slot = rand() % (int)(n / 3), len = 1 + at[slot]++ % 14;
		if (dup != i) {	/* an exact duplicate, maybe sized */
			v[i] = v[dup];
			v[i].size = rand() % 2 ? v[dup].size : 0;
			continue;
		}
		memset(names[i], 'a' + rand() % 26, (size_t)len);
		names[i][len] = '\0';
		v[i].start = 0x1000 + (uint64_t)slot * 16;
		v[i].size = rand() % 3 ? 0 : 8;
		v[i].name = names[i];
		v[i].module = rand() % 5 ? NULL : "mod";
		v[i].type = "TtWdb"[rand() % 5];
	}
}

/* by_start: qsort order by address alone. */
static int by_start(const void *pa, const void *pb)
{
	const struct sym *a = pa, *b = pb;
	return a->start < b->start ? -1 : a->start > b->start;
}

/* table_of(v, n): a finished table of v[0..n), added in that order. */
static struct symtab *table_of(const struct sym *v, size_t n)
{
	struct symtab *t = symtab_new();
	for (size_t i = 0; i < n; i++)
		symtab_add_typed(t, v[i].start, v[i].size, v[i].type, v[i].name,
				 strlen(v[i].name), v[i].module);
	symtab_finish(t);
	return t;
}

/* same_tables(a, b): a and b hold the same symbols in the same order. */
static bool same_tables(const struct symtab *a, const struct symtab *b)
{
	if (symtab_count(a) != symtab_count(b))
		return false;
	for (size_t i = 0; i < symtab_count(a); i++) {
		const struct sym *x = symtab_at(a, i), *y = symtab_at(b, i);
		if (x->start != y->start || x->size != y->size || x->type != y->type ||
		    strcmp(x->name, y->name) || (x->module == NULL) != (y->module == NULL))
			return false;
	}
	return true;
}

/* test_symtab_orders(): the finished table is the same whether symbols
 * come sorted, sorted with an unsorted tail (kallsyms with modules),
 * shuffled or reversed; sorted by address, without duplicates. */
static void test_symtab_orders(void)
{
	static struct sym v[ORDER_N], w[ORDER_N];
	static char names[ORDER_N][16];
	struct symtab *ref, *t;
	size_t n = ORDER_N, distinct = 0;
	bool sorted = true;

	order_syms(v, n, names);
	memcpy(w, v, sizeof(v));
	qsort(w, n, sizeof(*w), by_start);	/* glibc's merge sort: stable */
	ref = table_of(w, n);
	for (size_t i = 1; i < symtab_count(ref); i++)
		sorted = sorted && symtab_at(ref, i - 1)->start <= symtab_at(ref, i)->start;
	ok(sorted, "symtab orders: finished table in address order");
	for (size_t i = 0; i < n; i++) {
		bool seen = false;
		for (size_t j = 0; j < i && !seen; j++)
			seen = v[j].start == v[i].start && !strcmp(v[j].name, v[i].name) &&
			       (v[j].module == NULL) == (v[i].module == NULL);
		distinct += !seen;
	}
	is_int((long)symtab_count(ref), (long)distinct, "symtab orders: exact duplicates dropped");
	t = table_of(v, n);
	ok(same_tables(ref, t), "symtab orders: shuffled input, same table");
	symtab_free(t);
	qsort(w + n / 2, n - n / 2, sizeof(*w), by_start);
	for (size_t i = n / 2; i < n; i++)
		w[i].start = w[i].start + 0x100000;	/* a sorted block above the rest */
	memcpy(v, w, sizeof(v));
	for (size_t i = 0; i < n / 4; i++) {	/* and a shuffled block within it */
		size_t a = n / 2 + (size_t)rand() % (n / 2), b = n / 2 + (size_t)rand() % (n / 2);
		struct sym x = w[a];
		w[a] = w[b];
		w[b] = x;
	}
	symtab_free(ref);
	ref = table_of(v, n);
	t = table_of(w, n);
	ok(same_tables(ref, t), "symtab orders: sorted prefix, unsorted tail, same table");
	symtab_free(t);
	for (size_t i = 0; i < n / 2; i++) {
		struct sym x = w[i];
		w[i] = w[n - 1 - i];
		w[n - 1 - i] = x;
	}
	t = table_of(w, n);
	ok(same_tables(ref, t), "symtab orders: reversed input, same table");
	symtab_free(t);
	symtab_free(ref);
}

/* --- kallsyms: hand-written text --------------------------------------- */

static const char fake_kallsyms[] =
	"ffffffff81000000 T srso_alias_untrain_ret\n"
	"ffffffff81000000 T _text\n"
	"ffffffff81000000 T _stext\n"
	"ffffffff81000100 T second\n"
	"ffffffff81000050 t first_unsorted\n"
	"ffffffff81000100 T second\n"             /* duplicate */
	"ffffffff81000100 W __weak_second\n"      /* alias, worse */
	"garbage line\n"
	"ffffffff8100zz00 T bad_hex\n"
	"ffffffff81000200 A absolute_skipped\n"
	"ffffffff81000210 U undefined_skipped\n"
	"ffffffff81000300 D some_data\n"
	"ffffffff81000400 T last_core\r\n"
	"ffffffffc0001000 t mod_fn\t[ext4]\n"
	"ffffffffc0001080 T mod_fn2\t[ext4]\n"
	"ffffffffc0002000 t other_fn\t[xfs]\n"
	"ffffffffc0002100 t bad_mod\t[xfs\n"
	"ffffffffc0002100 t bad_mod2\t[xfs] junk\n"
	"0000000000000000 T zero_skipped\n"
	"\n"
	"123456789abcdef01 T too_long\n"
	"ffffffff81000500 T\n"
	"ffffffff81000500  T two_spaces\n"
	"ffffffffc0003000 t no_newline_at_end\t[zz]";

/* test_kallsyms_text(): a hand-written kallsyms with modules,
 * duplicates, unsorted and malformed lines. */
static void test_kallsyms_text(void)
{
	struct symtab *t = symtab_new();
	char err[256] = "";
	uint64_t off = 0;
	const struct sym *s;
	int n = kallsyms_load_buf(t, fake_kallsyms, sizeof(fake_kallsyms) - 1, err, sizeof(err));

	is_int(n, 13, "kallsyms text: 13 symbols accepted");
	is_int(symtab_count(t), 12, "kallsyms text: duplicate dropped");
	/* perf gives earlier kallsyms aliases zero length: the last one names
	 * the address */
	is_str(find_name(t, 0xffffffff81000000, &off), "_stext",
	       "kallsyms text: the alias listed last names the address, as in perf");
	is_str(symtab_at(t, 1)->name, "_text", "kallsyms text: aliases then from last to first");
	is_str(find_name(t, 0xffffffff81000060, &off), "first_unsorted",
	       "kallsyms text: unsorted line placed");
	is_int(off, 0x10, "kallsyms text: offset in first_unsorted");
	is_str(find_name(t, 0xffffffff81000100, NULL), "__weak_second",
	       "kallsyms text: the last alias wins over an earlier T");
	is_str(find_name(t, 0xffffffff81000250, &off), "__weak_second",
	       "kallsyms text: skipped types do not cut a symbol");
	is_int(off, 0x150, "kallsyms text: second's inferred size spans to some_data");
	s = symtab_find(t, 0xffffffff81000310, NULL);
	ok(s && !strcmp(s->name, "some_data") && s->type == 'D' && !sym_is_text(s),
	   "kallsyms text: data symbol kept with its type");
	s = symtab_find(t, 0xffffffffc0001090, &off);
	ok(s && !strcmp(s->name, "mod_fn2") && s->module && !strcmp(s->module, "ext4") &&
	   off == 0x10, "kallsyms text: module symbol and module name");
	s = symtab_find(t, 0xffffffffc0002000, NULL);
	is_str(s ? s->module : NULL, "xfs", "kallsyms text: second module");
	s = symtab_find(t, 0xffffffffc0003000, NULL);
	is_str(s ? s->name : NULL, "no_newline_at_end", "kallsyms text: last line without newline");
	ok(!symtab_find_name(t, "bad_mod", "xfs") && !symtab_find_name(t, "bad_mod2", "xfs") &&
	   !symtab_find_name(t, "two_spaces", NULL) && !symtab_find_name(t, "too_long", NULL),
	   "kallsyms text: malformed lines skipped");
	ok(symtab_at(t, 0)->module == NULL, "kallsyms text: core symbols have no module");
	is_int(kallsyms_text_base(t), 0xffffffff81000000, "kallsyms text: text base");
	symtab_free(t);
}

/* has_modules(text): kallsyms_has_modules of the fake kallsyms' table
 * against a /proc/modules text. */
static bool has_modules(const char *text)
{
	struct symtab *t = symtab_new();
	char err[256];
	bool yes;
	kallsyms_load_buf(t, fake_kallsyms, sizeof(fake_kallsyms) - 1, err, sizeof(err));
	yes = kallsyms_has_modules(t, text, strlen(text));
	symtab_free(t);
	return yes;
}

/* test_kallsyms_modules(): a saved kallsyms against the modules loaded. */
static void test_kallsyms_modules(void)
{
	static const char both[] =
		"ext4 4096 1 - Live 0xffffffffc0001000\n"
		"xfs 8192 0 - Live 0xffffffffc0002000 (E)\n";
	ok(has_modules(both), "modules: both loaded where the saved kallsyms has them");
	ok(has_modules("xfs 8192 0 - Live 0xffffffffc0002000\n"),
	   "modules: one unloaded since is harmless");
	ok(has_modules(""), "modules: none loaded");
	ok(!has_modules("ext4 4096 1 - Live 0xffffffffc0001000\nkvm 9000 0 - Live 0xffffffffc0009000\n"),
	   "modules: one loaded since the copy (kvm) is missing from it");
	ok(!has_modules("ext4 4096 1 - Live 0xffffffffc0005000\n"),
	   "modules: reloaded at another address");
	ok(!has_modules("ext4 4096 1 - Live 0x0000000000000000\n"),
	   "modules: hidden addresses cannot be checked");
	ok(!has_modules("ext4 garbage\n"), "modules: malformed text");
}

/* test_kallsyms_errors(): hidden addresses, empty text, missing file. */
static void test_kallsyms_errors(void)
{
	static const char hidden[] = "0000000000000000 T _text\n0000000000000000 t foo\n";
	static const char nul[] = "ffffffff81000000 T a\0b\nffffffff81000010 T ok_sym\n";
	struct symtab *t = symtab_new();
	char err[256] = "";

	is_int(kallsyms_load_buf(t, hidden, sizeof(hidden) - 1, err, sizeof(err)), -1,
	       "kallsyms: all-zero addresses fail");
	is_str(err, "kallsyms: addresses hidden (kptr_restrict)", "kallsyms: kptr_restrict message");
	is_int(kallsyms_load_buf(t, "", 0, err, sizeof(err)), -1, "kallsyms: empty text fails");
	is_str(err, "kallsyms: no symbols", "kallsyms: no symbols message");
	is_int(kallsyms_load_buf(t, nul, sizeof(nul) - 1, err, sizeof(err)), 1,
	       "kallsyms: a name with NUL is skipped, the rest loads");
	is_int(kallsyms_load_file(t, "/nonexistent/kallsyms", err, sizeof(err)), -1,
	       "kallsyms: missing file fails");
	ok(strstr(err, "/nonexistent/kallsyms") != NULL, "kallsyms: error names the file: %s", err);
	is_int(kallsyms_text_base(t), 0, "kallsyms: no _text -> base 0");
	symtab_free(t);
}

/* --- kallsyms: the running kernel --------------------------------------- */

/* proc_kallsyms_addr(name, addr): the core-kernel address of name in
 * /proc/kallsyms read with stdio (independent of the parser under test). */
static int proc_kallsyms_addr(const char *name, uint64_t *addr)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[1024], sym[512], type;
	unsigned long long a;
	int found = 0;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %c %511s", &a, &type, sym) == 3 &&
		    !strcmp(sym, name) && !strchr(line, '[')) {
			*addr = a;
			found = 1;
		}
	fclose(f);
	return found;
}

/* now_ms(): a monotonic clock in milliseconds. */
static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* test_proc_kallsyms(): the running kernel's schedule and schedule+1
 * (skipped when kptr_restrict hides addresses). */
static void test_proc_kallsyms(void)
{
	struct symtab *t = symtab_new();
	char err[256] = "";
	uint64_t addr = 0, off = 99, text = 0;
	double t0 = now_ms();
	int n = kallsyms_load_file(t, "/proc/kallsyms", err, sizeof(err));

	if (n < 0 && strstr(err, "addresses hidden")) {
		ok(1, "# skip /proc/kallsyms: %s", err);
		symtab_free(t);
		return;
	}
	ok(n > 1000, "/proc/kallsyms: %d symbols (%s)", n, err);
	printf("# /proc/kallsyms: %d symbols loaded in %.1f ms\n", n, now_ms() - t0);
	if (!ok(proc_kallsyms_addr("schedule", &addr), "/proc/kallsyms: stdio finds schedule"))
		goto out;
	is_str(find_name(t, addr, &off), "schedule", "/proc/kallsyms: schedule found");
	is_int(off, 0, "/proc/kallsyms: schedule+0");
	is_str(find_name(t, addr + 1, &off), "schedule", "/proc/kallsyms: schedule+1 resolves");
	is_int(off, 1, "/proc/kallsyms: schedule+1 offset");
	if (proc_kallsyms_addr("_text", &text))
		is_int(kallsyms_text_base(t), text, "/proc/kallsyms: text base is _text");
out:
	symtab_free(t);
}

/* --- ELF ---------------------------------------------------------------- */

/* struct mapping: one /proc/self/maps line, as an MMAP2 record has it. */
struct mapping {
	uint64_t start, end, pgoff;
	char path[4096];
};

/* find_mapping(addr, m): the /proc/self/maps line holding addr. */
static int find_mapping(uintptr_t addr, struct mapping *m)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[4200];
	unsigned long long s, e, pg;
	int pos, found = 0;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx-%llx %*s %llx %*s %*s %n", &s, &e, &pg, &pos) < 3 ||
		    addr < s || addr >= e)
			continue;
		line[strcspn(line, "\n")] = '\0';
		m->start = s, m->end = e, m->pgoff = pg;
		snprintf(m->path, sizeof(m->path), "%s", line + pos);
		found = 1;
	}
	fclose(f);
	return found;
}

/* map_find(e, m, ip, off): the symbol at run-time address ip in mapping m,
 * going the MMAP2 way: ip -> file offset -> ELF vaddr -> symbol. */
static const struct sym *map_find(const struct elfsyms *e, const struct mapping *m,
				  uintptr_t ip, uint64_t *off)
{
	bool okv = false;
	uint64_t vaddr = elfsyms_map_ip(e, m->start, m->end - m->start, m->pgoff, ip, &okv);

	return okv ? elfsyms_find(e, vaddr, off) : NULL;
}

/* test_bss_tail(e): an offset just past the file bytes of a segment with
 * a zero-filled tail (.bss) maps into that tail. */
static void test_bss_tail(const struct elfsyms *e)
{
	const struct elf_seg *seg = NULL;
	size_t i;
	uint64_t v;
	bool okv = false;

	for (i = 0; i < elfsyms_nsegments(e) && !seg; i++)
		if (elfsyms_segment(e, i)->memsz > elfsyms_segment(e, i)->filesz)
			seg = elfsyms_segment(e, i);
	if (!ok(seg != NULL, "elf self: a segment has a .bss tail"))
		return;
	v = elfsyms_file_to_vaddr(e, seg->offset + seg->filesz, &okv);
	ok(okv && v == seg->vaddr + seg->filesz, "elf self: offset in the .bss tail maps");
	ok(elfsyms_segment(e, elfsyms_nsegments(e)) == NULL, "elf self: segment index checked");
}

/* test_elf_self(exe): this binary's static function and data object found
 * from their run-time addresses through /proc/self/maps. */
static void test_elf_self(const char *exe)
{
	struct mapping m;
	char err[256] = "";
	struct elfsyms *e = elfsyms_open(exe, err, sizeof(err));
	const struct sym *s;
	uint64_t off = 99;
	bool okv = true;

	if (!ok(e != NULL, "elf self: opened %s (%s)", exe, err))
		return;
	ok(target_ptr(1) == 4 && elfsyms_nsegments(e) >= 2, "elf self: has PT_LOAD segments");
	if (ok(find_mapping((uintptr_t)target_ptr, &m), "elf self: function's mapping found")) {
		s = map_find(e, &m, (uintptr_t)target_ptr, &off);
		is_str(s ? s->name : NULL, "symtest_target_fn", "elf self: static function by address");
		is_int(off, 0, "elf self: offset 0");
		ok(s && s->type == 't', "elf self: static function is type t");
		s = map_find(e, &m, (uintptr_t)target_ptr + 3, &off);
		ok(s && !strcmp(s->name, "symtest_target_fn") && off == 3, "elf self: fn+3");
		elfsyms_map_ip(e, m.start, m.end - m.start, m.pgoff, m.end, &okv);
		ok(!okv, "elf self: ip past the mapping is refused");
	}
	if (ok(find_mapping((uintptr_t)symtest_target_obj, &m), "elf self: data mapping found")) {
		s = map_find(e, &m, (uintptr_t)&symtest_target_obj[2], &off);
		ok(s && !strcmp(s->name, "symtest_target_obj") && off == 8 && s->type == 'd',
		   "elf self: static data object + 8 (%s)", s ? s->name : "none");
	}
	test_bss_tail(e);
	elfsyms_file_to_vaddr(e, UINT64_MAX - 5, &okv);
	ok(!okv, "elf self: offset outside every segment is refused");
	elfsyms_close(e);
}

/* readelf_build_id(path, hex): the "Build ID:" readelf -n prints. */
static int readelf_build_id(const char *path, char *hex, size_t len)
{
	char cmd[4200], line[512];
	FILE *p;
	int found = 0;

	snprintf(cmd, sizeof(cmd), "readelf -n '%s' 2>/dev/null", path);
	if (!(p = popen(cmd, "r")))
		return 0;
	while (fgets(line, sizeof(line), p))
		if (!found && sscanf(line, " Build ID: %255s", hex) == 1 && strlen(hex) < len)
			found = 1;
	pclose(p);
	return found;
}

/* test_build_id(exe): the build-id equals what readelf -n prints. */
static void test_build_id(const char *exe)
{
	char err[256] = "", want[256] = "", got[2 * ELFSYMS_BUILD_ID_MAX + 1] = "";
	uint8_t id[ELFSYMS_BUILD_ID_MAX], tiny[4];
	size_t len = sizeof(id), i, tlen = sizeof(tiny);
	struct elfsyms *e = elfsyms_open(exe, err, sizeof(err));

	if (!ok(e != NULL, "build-id: opened (%s)", err))
		return;
	if (ok(readelf_build_id(exe, want, sizeof(want)), "build-id: readelf -n shows one") &&
	    ok(elfsyms_build_id(e, id, &len) == 0, "build-id: found")) {
		for (i = 0; i < len; i++)
			sprintf(got + 2 * i, "%02x", id[i]);
		is_str(got, want, "build-id: equals readelf -n");
		is_int(elfsyms_build_id(e, tiny, &tlen), -1, "build-id: too small a buffer fails");
		is_int(tlen, len, "build-id: says the size needed");
	}
	elfsyms_close(e);
}

/* test_libc_malloc(): libc's malloc found by address and by name. */
static void test_libc_malloc(void)
{
	void *h = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
	void *fn = h ? dlsym(h, "malloc") : NULL;
	char err[256] = "";
	struct mapping m;
	struct elfsyms *e = NULL;
	const struct sym *s, *byname;
	uint64_t off = 99;

	if (!ok(fn && find_mapping((uintptr_t)fn, &m), "libc: malloc's mapping found"))
		goto out;
	e = elfsyms_open(m.path, err, sizeof(err));
	if (!ok(e != NULL, "libc: opened %s (%s)", m.path, err))
		goto out;
	s = map_find(e, &m, (uintptr_t)fn, &off);
	is_str(s ? s->name : NULL, "malloc", "libc: malloc found by address");
	is_int(off, 0, "libc: malloc+0");
	byname = symtab_find_name(elfsyms_symtab(e), "malloc", NULL);
	ok(byname && s && byname->start == s->start, "libc: malloc by name has the same vaddr");
out:
	elfsyms_close(e);
	if (h)
		dlclose(h);
}

/* --- malformed ELF ------------------------------------------------------ */

/* slurp(path, len): the whole file, malloc'ed, or NULL. */
static unsigned char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	long n;

	if (f && !fseek(f, 0, SEEK_END) && (n = ftell(f)) > 0 && !fseek(f, 0, SEEK_SET) &&
	    (buf = malloc((size_t)n)) && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	if (buf)
		*len = (size_t)n;
	if (f)
		fclose(f);
	return buf;
}

/* spit(path, buf, len): writes buf to path; 1 on success. */
static int spit(const char *path, const void *buf, size_t len)
{
	FILE *f = fopen(path, "wb");
	int good = f && fwrite(buf, 1, len, f) == len;

	if (f && fclose(f))
		good = 0;
	return good;
}

/* opens(path, err): elfsyms_open on path succeeded (and was closed). */
static int opens(const char *path, char *err, size_t errlen)
{
	struct elfsyms *e;

	err[0] = '\0';
	e = elfsyms_open(path, err, errlen);
	elfsyms_close(e);
	return e != NULL;
}

/* test_truncated(buf, len, tmp): truncated copies fail to open, cleanly. */
static void test_truncated(const unsigned char *buf, size_t len, const char *tmp)
{
	size_t cuts[] = { 0, 1, 4, 16, 63, 64, 65, 200, 1000, len / 4, len / 2, len - 100, len - 1 };
	char err[256];
	size_t i;

	for (i = 0; i < sizeof(cuts) / sizeof(cuts[0]); i++) {
		int opened = spit(tmp, buf, cuts[i]) && opens(tmp, err, sizeof(err));
		ok(!opened && !strncmp(err, "elf: ", 5), "truncated at %zu of %zu: error '%s'",
		   cuts[i], len, err);
	}
	ok(spit(tmp, buf, len) && opens(tmp, err, sizeof(err)), "untruncated copy opens");
}

/* rnd(s): a small deterministic xorshift generator. */
static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* corrupt(buf, len, seed): overwrites a few bytes, mostly in the ELF, program
 * and section headers, where libelf trusts the file most. */
static void corrupt(unsigned char *buf, size_t len, uint64_t *seed)
{
	Elf64_Ehdr eh;
	size_t k, at, nbytes = 1 + rnd(seed) % 4;

	memcpy(&eh, buf, sizeof(eh));
	for (k = 0; k < nbytes; k++) {
		switch (rnd(seed) % 4) {
		case 0: at = rnd(seed) % sizeof(Elf64_Ehdr); break;
		case 1: at = eh.e_phoff + rnd(seed) % (eh.e_phnum * sizeof(Elf64_Phdr) + 1); break;
		case 2: at = eh.e_shoff + rnd(seed) % (eh.e_shnum * sizeof(Elf64_Shdr) + 1); break;
		default: at = rnd(seed) % len; break;
		}
		if (at < len)
			buf[at] = (unsigned char)rnd(seed);
	}
}

/* header_at(buf, len, off, out, size): copies the size-byte header at off
 * into out when it lies inside buf; 1 when it does. */
static int header_at(const unsigned char *buf, size_t len, uint64_t off, void *out, size_t size)
{
	if (off > len || size > len - off)
		return 0;
	memcpy(out, buf + off, size);
	return 1;
}

/* test_bad_offsets(buf, len, tmp): a copy whose .symtab data, then one
 * whose first PT_LOAD, is moved past the end of the file fails to open. */
static void test_bad_offsets(const unsigned char *buf, size_t len, const char *tmp,
			     unsigned char *copy)
{
	Elf64_Ehdr eh;
	Elf64_Shdr sh;
	Elf64_Phdr ph;
	uint64_t at;
	char err[256] = "";
	int i;

	memcpy(&eh, buf, sizeof(eh));
	for (i = 0, at = 0; i < eh.e_shnum && !at; i++)
		if (header_at(buf, len, eh.e_shoff + (uint64_t)i * sizeof(sh), &sh, sizeof(sh)) &&
		    sh.sh_type == SHT_SYMTAB)
			at = eh.e_shoff + (uint64_t)i * sizeof(sh);
	memcpy(copy, buf, len);
	sh.sh_offset = len - 8;
	if (ok(at, "corrupt: found .symtab's header"))
		memcpy(copy + at, &sh, sizeof(sh));
	ok(at && spit(tmp, copy, len) && !opens(tmp, err, sizeof(err)) &&
	   strstr(err, "past end of file"), "corrupt: .symtab data past the end fails: %s", err);
	for (i = 0, at = 0; i < eh.e_phnum && !at; i++)
		if (header_at(buf, len, eh.e_phoff + (uint64_t)i * sizeof(ph), &ph, sizeof(ph)) &&
		    ph.p_type == PT_LOAD)
			at = eh.e_phoff + (uint64_t)i * sizeof(ph);
	memcpy(copy, buf, len);
	ph.p_offset = len;
	ph.p_filesz = 4096;
	if (at)
		memcpy(copy + at, &ph, sizeof(ph));
	ok(at && spit(tmp, copy, len) && !opens(tmp, err, sizeof(err)) &&
	   strstr(err, "past end of file"), "corrupt: PT_LOAD past the end fails: %s", err);
}

/* test_corrupt(buf, len, tmp): targeted and random header corruption
 * never crashes (ASan builds check the reads). */
static void test_corrupt(const unsigned char *buf, size_t len, const char *tmp)
{
	unsigned char *copy = malloc(len);
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	Elf64_Ehdr eh;
	char err[256];
	int i, opened = 0, failed = 0;

	if (!ok(copy && len > sizeof(eh), "corrupt: have a copy"))
		goto out;
	memcpy(copy, buf, len);
	memcpy(&eh, copy, sizeof(eh));
	eh.e_shoff = (Elf64_Off)len * 4;
	memcpy(copy, &eh, sizeof(eh));
	ok(spit(tmp, copy, len) && !opens(tmp, err, sizeof(err)),
	   "corrupt: e_shoff past the end fails: %s", err);
	test_bad_offsets(buf, len, tmp, copy);
	for (i = 0; i < CORRUPT_ROUNDS; i++) {
		memcpy(copy, buf, len);
		corrupt(copy, len, &seed);
		if (spit(tmp, copy, len))
			opens(tmp, err, sizeof(err)) ? opened++ : failed++;
	}
	ok(opened + failed == CORRUPT_ROUNDS,
	   "corrupt: %d corrupted copies, no crash (%d opened, %d failed)",
	   CORRUPT_ROUNDS, opened, failed);
out:
	free(copy);
}

/* test_not_elf(tmp): text files, directories, missing files fail. */
static void test_not_elf(const char *tmp)
{
	char err[256];

	ok(spit(tmp, "hello, world\n", 13) && !opens(tmp, err, sizeof(err)),
	   "not ELF: text file fails: %s", err);
	ok(!opens("/", err, sizeof(err)), "not ELF: a directory fails: %s", err);
	ok(!opens("/nonexistent/elf", err, sizeof(err)) && strstr(err, "/nonexistent/elf"),
	   "not ELF: missing file fails naming it: %s", err);
}

/* test_malformed(exe): runs the malformed-file tests on copies of exe. */
static void test_malformed(const char *exe)
{
	char tmp[] = "/tmp/perfdb-test-symbols-XXXXXX";
	size_t len = 0;
	unsigned char *buf = slurp(exe, &len);
	int fd = mkstemp(tmp);

	if (!ok(buf && len > 4096 && fd >= 0, "malformed: read %s (%zu bytes)", exe, len))
		goto out;
	close(fd);
	test_truncated(buf, len, tmp);
	if (buf[EI_CLASS] == ELFCLASS64)
		test_corrupt(buf, len, tmp);
	test_not_elf(tmp);
	unlink(tmp);
out:
	free(buf);
}

/* main(): runs every group; exit status from tap_done(). */
/* --- kallsyms loaded on a thread ----------------------------------------- */

/* same_syms(a, b): the tables hold the same symbols in the same order. */
static bool same_syms(const struct symtab *a, const struct symtab *b)
{
	if (!a || !b || symtab_count(a) != symtab_count(b))
		return false;
	for (size_t i = 0; i < symtab_count(a); i++)
		if (symtab_at(a, i)->start != symtab_at(b, i)->start ||
		    strcmp(symtab_at(a, i)->name, symtab_at(b, i)->name))
			return false;
	return true;
}

/* kallsyms_z_is_text(l): waits for l's compression (l->z is then NULL)
 * and whether it decompresses to l's text exactly. */
static bool kallsyms_z_is_text(struct kallsyms_load *l)
{
	void *z = NULL;
	size_t n = 0;
	char *back;
	bool same;
	if (!l->z || zstd_job_finish(l->z, &z, &n))
		return l->z = NULL, false;
	l->z = NULL;
	back = malloc(l->len + 1);
	same = back && ZSTD_decompress(back, l->len + 1, z, n) == l->len &&
	       !memcmp(back, l->text, l->len);
	free(back);
	free(z);
	return same;
}

/* test_kallsyms_job(): a file loaded on a thread gives what loading it
 * here gives; a missing file, a file of no symbols and a FIFO (never
 * waited for) give nothing. */
static void test_kallsyms_job(void)
{
	char dir[] = "/tmp/perfdb-ksymjob.XXXXXX", path[64], fifo[64], empty[64];
	struct kallsyms_load here, there, none;
	if (!ok(mkdtemp(dir) != NULL, "kallsyms job: temp dir"))
		return;
	snprintf(path, sizeof(path), "%s/kallsyms", dir);
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	snprintf(empty, sizeof(empty), "%s/empty", dir);
	ok(spit(path, fake_kallsyms, sizeof(fake_kallsyms) - 1) && spit(empty, "x\n", 2) &&
	   !mkfifo(fifo, 0600), "kallsyms job: files made");
	here = kallsyms_load_path(path, false);
	there = kallsyms_job_finish(kallsyms_job_start(path, false));
	ok(same_syms(here.syms, there.syms) && symtab_count(there.syms) == 12,
	   "kallsyms job: the thread's table is the one loaded here");
	ok(there.text && there.len == sizeof(fake_kallsyms) - 1 &&
	   !memcmp(there.text, fake_kallsyms, there.len), "kallsyms job: the text read, whole");
	none = kallsyms_job_finish(kallsyms_job_start(fifo, false));
	ok(!none.text && !none.syms, "kallsyms job: a FIFO is not read (nor waited for)");
	none = kallsyms_job_finish(kallsyms_job_start(empty, false));
	ok(!none.text && !none.syms, "kallsyms job: a file of no symbols gives nothing");
	none = kallsyms_load_path(dir, true);
	ok(!none.syms && !none.z, "kallsyms job: a directory gives no symbols");
	kallsyms_load_free(&none);
	none = kallsyms_job_finish(kallsyms_job_start("/nonexistent/kallsyms", true));
	ok(!none.text && !none.syms, "kallsyms job: a missing file gives nothing");
	ok(kallsyms_z_is_text(&here) && kallsyms_z_is_text(&there),
	   "kallsyms job: the compression started with the load decompresses to the text");
	kallsyms_load_free(&here);
	kallsyms_load_free(&there);
	ok(!here.text && !here.syms && !here.z, "kallsyms job: a load freed is left empty");
	unlink(path);
	unlink(fifo);
	unlink(empty);
	rmdir(dir);
}

int main(void)
{
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	test_normalize();
	test_demangle();
	test_symtab();
	test_symtab_aliases();
	test_symtab_orders();
	test_kallsyms_text();
	test_kallsyms_errors();
	test_kallsyms_modules();
	test_proc_kallsyms();
	test_kallsyms_job();
	if (ok(n > 0, "readlink /proc/self/exe")) {
		exe[n] = '\0';
		test_elf_self(exe);
		test_build_id(exe);
		test_malformed(exe);
	}
	test_libc_malloc();
	return tap_done();
}
