/* libFuzzer harness: kallsyms text (what --kallsyms names, and the copy
 * in perf's build-id cache) into a symbol table, then the lookups the
 * import makes: the text base, every symbol by address (the first ones by name too), and
 * the same bytes read as a /proc/modules text. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "lib/kallsyms.h"
#include "lib/symtab.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint64_t sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct symtab *t = symtab_new();
	char err[256];
	uint64_t off;
	if (kallsyms_load_buf(t, (const char *)data, size, err, sizeof(err)) >= 0) {
		sink += kallsyms_text_base(t);
		for (size_t i = 0; i < symtab_count(t) && i < 4096; i++) {
			const struct sym *s = symtab_at(t, i);
			sink += symtab_find(t, s->start, &off) != NULL;
			sink += symtab_find(t, s->start + s->size, &off) != NULL;
			if (i < 64)	/* a linear scan */
				sink += symtab_find_name(t, s->name, s->module) != NULL;
		}
		sink += kallsyms_has_modules(t, (const char *)data, size);
	}
	symtab_free(t);
	return 0;
}
