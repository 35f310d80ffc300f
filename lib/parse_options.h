/* Command-line options declared once, in a table: the parser, the
 * options part of --help, man pages and shell completion all come from
 * it, so none can drift from what a verb accepts. In the style of git's
 * parse-options (OPT_STRING, OPT_BOOL ...), written for perfdb.
 *
 * What the parser accepts, as getopt_long does: "-x", "-xVALUE", "-x
 * VALUE", clusters of flags ("-qh"), "--name", "--name=VALUE", "--name
 * VALUE", "--no-name" for a boolean, any unambiguous prefix of a long
 * name, "--" to end the options; "-" alone is an operand. Options and
 * operands may be mixed unless PO_STOP_AT_NON_OPTION is given (then the
 * first operand and everything after it are operands, as the workload
 * of perf record). "-h" and "--help" ask for help.
 *
 * A usage error is one line on stderr, "PROG: what was wrong", e.g.
 * "perfdb sched: --format: 'xml' is not one of text, md, csv, json"; an
 * unknown long option names the nearest shown ones (lib/similar.h):
 * "perfdb sched: unknown option '--formt': did you mean '--format'?". */
#ifndef PERFDB_PARSE_OPTIONS_H
#define PERFDB_PARSE_OPTIONS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "lib/strbuf.h"

enum opt_type {
	OPT_T_END,		/* ends a table */
	OPT_T_GROUP,		/* a heading in --help */
	OPT_T_BOOL,		/* bool *value: true; --no-NAME: false */
	OPT_T_SET_INT,		/* int *value = defval (--self: mode = SELF) */
	OPT_T_INT,		/* long long *value, in [min, max] */
	OPT_T_DOUBLE,		/* double *value, in [min, max] */
	OPT_T_STRING,		/* const char **value (the argv string) */
	OPT_T_STRING_LIST,	/* struct string_list *value: each use adds one */
	OPT_T_CHOICE,		/* int *value: the index of the word in choices */
	OPT_T_CALLBACK,		/* cb(opt, arg, err) parses arg itself */
};

/* Option flags. */
enum {
	PO_HIDDEN = 1,		/* accepted, not shown in help or completion */
	PO_NONEG = 2,		/* a boolean without --no-NAME */
};

struct opt;

/* A callback parses arg into opt->value; 0, or -1 with what is wrong in
 * err (without the option's name, which the parser adds). */
typedef int (*opt_cb)(const struct opt *o, const char *arg, struct strbuf *err);

struct opt {
	enum opt_type type;
	int short_name;		/* 0: none */
	const char *long_name;	/* NULL: none */
	void *value;
	const char *argh;	/* the value's name in help: "FILE", "N" */
	const char *help;	/* one sentence (wrapped in --help) */
	unsigned flags;		/* PO_* */
	long long defval;	/* OPT_T_SET_INT's value */
	double min, max;	/* OPT_T_INT and OPT_T_DOUBLE bounds */
	const char *const *choices;	/* OPT_T_CHOICE: NULL-terminated */
	opt_cb cb;
};

/* A list of strings an OPT_STRING_LIST option collects (pointers into
 * argv); string_list_clear frees the array. */
struct string_list {
	const char **v;
	size_t n, cap;
};
void string_list_clear(struct string_list *l);

#define OPT_END() { .type = OPT_T_END }
#define OPT_GROUP(h) { .type = OPT_T_GROUP, .help = (h) }
#define OPT_BOOL(s, l, v, h) \
	{ .type = OPT_T_BOOL, .short_name = (s), .long_name = (l), .value = (v), .help = (h) }
#define OPT_BOOL_F(s, l, v, h, f) \
	{ .type = OPT_T_BOOL, .short_name = (s), .long_name = (l), .value = (v), .help = (h), .flags = (f) }
#define OPT_SET_INT(s, l, v, val, h) \
	{ .type = OPT_T_SET_INT, .short_name = (s), .long_name = (l), .value = (v), \
	  .defval = (val), .help = (h), .flags = PO_NONEG }
#define OPT_INT(s, l, v, a, lo, hi, h) \
	{ .type = OPT_T_INT, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), \
	  .min = (lo), .max = (hi), .help = (h) }
#define OPT_DOUBLE(s, l, v, a, lo, hi, h) \
	{ .type = OPT_T_DOUBLE, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), \
	  .min = (lo), .max = (hi), .help = (h) }
#define OPT_STRING(s, l, v, a, h) \
	{ .type = OPT_T_STRING, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), .help = (h) }
#define OPT_STRING_LIST(s, l, v, a, h) \
	{ .type = OPT_T_STRING_LIST, .short_name = (s), .long_name = (l), .value = (v), \
	  .argh = (a), .help = (h) }
#define OPT_CHOICE(s, l, v, a, c, h) \
	{ .type = OPT_T_CHOICE, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), \
	  .choices = (c), .help = (h) }
#define OPT_CALLBACK(s, l, v, a, f, h) \
	{ .type = OPT_T_CALLBACK, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), \
	  .cb = (f), .help = (h) }

/* parse_options results besides an operand count. */
enum { PO_ERROR = -1, PO_HELP = -2 };
enum { PO_STOP_AT_NON_OPTION = 1 };

/* parse_options(argc, argv, prog, opts, flags, ops): parses argv[1..argc)
 * (argv[0] is the verb) with the options of table opts (ending with
 * OPT_END). Operands are collected in order into *ops (malloc'ed, the
 * caller frees; pointers into argv) and their number is returned; PO_HELP
 * when -h/--help was given (nothing printed); PO_ERROR after one line
 * "prog: ..." on stderr. Options are applied in the order given. */
int parse_options(int argc, char **argv, const char *prog, const struct opt *opts,
		  unsigned flags, char ***ops);

/* options_missing(opts, names, b): the options of opts named in names
 * (long names, NULL-terminated) that were not given: an OPT_T_STRING
 * still NULL, an OPT_T_STRING_LIST still empty (the other types cannot
 * tell). They are written into b as "--base LABEL", "--base LABEL and
 * --new LABEL", "--a A, --b B and --c C"; returns how many. */
int options_missing(const struct opt *opts, const char *const *names, struct strbuf *b);

/* options_help(out, opts): the options part of --help: one entry per
 * shown option ("  -s, --session SESSION  help..."), help wrapped at 79
 * columns, groups as headings. */
void options_help(FILE *out, const struct opt *opts);

/* po_wrap(out, text, indent, width): prints text word-wrapped to width
 * columns and a newline, continuation lines indented by indent spaces;
 * the first line starts where the cursor is (taken as column indent). */
void po_wrap(FILE *out, const char *text, int indent, int width);

/* opt_spec(o, buf, len): how o is written in help: "-s, --session
 * SESSION", "--[no-]quiet", "-f, --format text|md|csv|json". Returns buf. */
const char *opt_spec(const struct opt *o, char *buf, size_t len);

/* opt_takes_value(o): whether o needs a value (--name VALUE). */
bool opt_takes_value(const struct opt *o);

/* opt_negatable(o): whether --no-NAME exists for o (a boolean without
 * PO_NONEG). */
bool opt_negatable(const struct opt *o);

/* opt_is_option(o): whether o is an option, not a group heading or the
 * table's end. */
bool opt_is_option(const struct opt *o);
#endif
