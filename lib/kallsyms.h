/* Loading kernel symbols from /proc/kallsyms-format text ("ffffffff81000000
 * T _stext" with an optional "\t[module]") into a symtab: text symbols
 * (t T w W) and data symbols (d D b B r R, kept with their letter so static
 * kernel objects can be mapped), and finding the kernel's text base for
 * KASLR checks. */
#ifndef PERFDB_KALLSYMS_H
#define PERFDB_KALLSYMS_H
#include <stddef.h>
#include <stdint.h>

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
#endif
