/* The output formats every perfdb verb offers with --format. */
#ifndef PERFDB_FORMAT_H
#define PERFDB_FORMAT_H

enum out_format { FMT_TEXT, FMT_MD, FMT_CSV, FMT_JSON, FMT_HTML };

/* The names, in enum order, NULL-terminated: "text", "md", "csv", "json",
 * "html". */
extern const char *const out_format_names[];

/* out_format_parse(s, f): sets *f from one of the names
 * (exact, lower case) and returns 0; returns -1 and leaves *f alone for
 * anything else, NULL included. */
int out_format_parse(const char *s, enum out_format *f);

/* out_format_name(f): the name of f; "?" outside the enum. */
const char *out_format_name(enum out_format f);
#endif
