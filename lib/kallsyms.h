/* Loading kernel symbols from /proc/kallsyms-format text ("ffffffff81000000
 * T _stext" with an optional "\t[module]") into a symtab: text symbols
 * (t T w W) and data symbols (d D b B r R, kept with their letter so static
 * kernel objects can be mapped), and finding the kernel's text base for
 * KASLR checks. */
#ifndef PERFDB_KALLSYMS_H
#define PERFDB_KALLSYMS_H
#include <stddef.h>
#include <stdint.h>

#include "lib/strbuf.h"
#include "lib/symtab.h"

/* kallsyms_load_buf(t, text, len, err, errlen): adds the symbols of the
 * kallsyms text[0..len) (need not be NUL-terminated) to t and finishes t.
 * Lines that do not parse, other symbol types and zero addresses are
 * skipped. Returns the number of symbols added, or -1 with a one-line
 * message in err: "kallsyms: addresses hidden (kptr_restrict)" when every
 * address is zero, "kallsyms: no symbols" when nothing parsed. */
int kallsyms_load_buf(struct symtab *t, const char *text, size_t len,
		      char *err, size_t errlen);

/* kallsyms_load_file(t, path, err, errlen): kallsyms_load_buf on the
 * contents of path (a /proc file or a saved copy). Returns as
 * kallsyms_load_buf; errors name the path. */
int kallsyms_load_file(struct symtab *t, const char *path, char *err, size_t errlen);

/* kallsyms_text_base(t): the address of the main image's "_text", else of
 * "_stext", else 0. Compare with vmlinux's to find the KASLR offset. */
uint64_t kallsyms_text_base(const struct symtab *t);

/* kallsyms_has_modules(t, modules, len): whether every module of a
 * /proc/modules text (name size refs deps state 0xADDR ...) has a symbol
 * in t inside [ADDR, ADDR + size): t (a saved kallsyms) then has the
 * modules loaded now, where they are loaded. False when the text is
 * malformed (or the addresses hidden). */
bool kallsyms_has_modules(const struct symtab *t, const char *modules, size_t len);

/* Symbol names, distinct and sorted. */
struct ksym_names {
	char **v;
	size_t n, cap;
};

/* ksym_names_add(l, name, n): adds the n bytes of name unless l has them.
 * ksym_names_free(l): frees the names; l is left empty. */
void ksym_names_add(struct ksym_names *l, const char *name, size_t n);
void ksym_names_free(struct ksym_names *l);

/* kallsyms_flush_no_ipi(text, len, out): adds to out each text symbol of
 * the kallsyms text[0..len) that can flush other CPUs' TLBs without an IPI:
 * a paravirtualized flush_tlb_multi (one word before "_flush_tlb_multi",
 * other than native: pvm_, kvm_, hyperv_, xen_flush_tlb_multi) and
 * broadcast_tlb_flush (INVLPGB). Such a symbol says the kernel has the
 * function, not that it used it. Returns how many out holds. */
size_t kallsyms_flush_no_ipi(const char *text, size_t len, struct ksym_names *out);

/* kallsyms_flush_no_ipi_words(n, b): appends to b what names n (from
 * kallsyms_flush_no_ipi, at least one) are, for a sentence that begins
 * "this kernel has ": "paravirtualized flush functions: kvm_flush_tlb_multi,
 * pvm_flush_tlb_multi; one of them may flush without IPIs" ("broadcast",
 * or "paravirtualized and broadcast", with broadcast_tlb_flush). */
void kallsyms_flush_no_ipi_words(const struct ksym_names *n, struct strbuf *b);

/* kallsyms_read(path, len): the whole file (a /proc file too), malloc'ed,
 * its length in *len; NULL with errno set when it cannot be read. */
char *kallsyms_read(const char *path, size_t *len);
#endif
