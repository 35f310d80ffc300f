/* The options that say how to describe sessions for field attribution
 * (collect/layout/describe.h), shared by perfdb layout, import and record:
 * --btf FILE, --dwarf FILE..., --object TYPE@ADDR[:SIZE][/PID]..., -t
 * TYPE... */
#ifndef PERFDB_DESCRIBE_ARGS_H
#define PERFDB_DESCRIBE_ARGS_H
#include <stdbool.h>
#include "builtin/builtin.h"
#include "collect/layout/describe.h"

struct describe_args {
	const char *btf;
	struct string_list dwarf, types;
	struct obj_spec *objects;
	size_t nobjects, cap;
};

/* The values the OPT_DESCRIBE entries fill (one verb runs per process). */
extern struct describe_args describe_args;

/* describe_object_opt: the --object callback. */
int describe_object_opt(const struct opt *o, const char *arg, struct strbuf *err);

#define OPT_DESCRIBE() \
	OPT_STRING(0, "btf", &describe_args.btf, "FILE", \
		   "struct layouts from this BTF (raw, or an ELF file's .BTF), before the running kernel's"), \
	OPT_STRING_LIST(0, "dwarf", &describe_args.dwarf, "FILE", \
			"a binary or debug vmlinux built with -g: its struct layouts (tried first), and its " \
			"variables and data symbols at the addresses the session mapped it at"), \
	OPT_CALLBACK(0, "object", NULL, "TYPE@ADDR[:SIZE][/PID]", describe_object_opt, \
		     "an object of struct TYPE at ADDR (SIZE bytes, default the layout's size; of " \
		     "process PID only)"), \
	OPT_STRING_LIST('t', "type", &describe_args.types, "TYPE", \
			"also store the layout of struct TYPE (e.g. task_struct)")

/* describe_given(): whether any of the options was given. */
bool describe_given(void);

/* input_file_check(prog, opt, path): whether the file an option names
 * can be read (it exists, is no directory, opens for reading); else one
 * line "PROG: OPT PATH: why" on stderr and EXIT_FAIL: a session made
 * without what the user asked for would mislead. */
int input_file_check(const char *prog, const char *opt, const char *path);

/* describe_args_check(prog): input_file_check of --btf and each --dwarf;
 * 0 or EXIT_FAIL. */
int describe_args_check(const char *prog);

/* describe_opts_of(kernel_same_release): the options as collect wants them. */
struct describe_opts describe_opts_of(bool kernel_same_release);

/* describe_args_free(): frees what the options collected. */
void describe_args_free(void);

/* describe_report(prog, r, n, out): each session's line on out, warnings
 * on stderr. */
void describe_report(const char *prog, const struct describe_result *r, int n, FILE *out);
#endif
