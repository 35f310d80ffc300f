/* Declared command-line options: parsing and help (see parse_options.h). */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "lib/alloc.h"
#include "lib/parse_options.h"
#include "lib/similar.h"

/* string_list_clear: see parse_options.h. */
void string_list_clear(struct string_list *l)
{
	free(l->v);
	*l = (struct string_list){ 0 };
}

/* opt_takes_value: see parse_options.h. */
bool opt_takes_value(const struct opt *o)
{
	return o->type >= OPT_T_INT && o->type <= OPT_T_CALLBACK;
}

/* opt_negatable: see parse_options.h. */
bool opt_negatable(const struct opt *o)
{
	return o->type == OPT_T_BOOL && !(o->flags & PO_NONEG);
}

/* opt_is_option: see parse_options.h. */
bool opt_is_option(const struct opt *o)
{
	return o->type != OPT_T_END && o->type != OPT_T_GROUP;
}

/* name_of(o, buf, len): "--long" or "-s", for messages. */
static const char *name_of(const struct opt *o, char *buf, size_t len)
{
	if (o->long_name)
		snprintf(buf, len, "--%s", o->long_name);
	else
		snprintf(buf, len, "-%c", o->short_name);
	return buf;
}

/* choices_text(o, b): "text, md, csv, json". */
static void choices_text(const struct opt *o, struct strbuf *b)
{
	for (int i = 0; o->choices[i]; i++)
		sb_printf(b, "%s%s", i ? ", " : "", o->choices[i]);
}

/* bound_text(b, v, is_int): v as a bound in a message. */
static void bound_text(struct strbuf *b, double v, bool is_int)
{
	if (is_int)
		sb_printf(b, "%lld", (long long)v);
	else
		sb_printf(b, "%g", v);
}

/* parse_int(o, arg, err): an OPT_T_INT value. 0 or -1. */
static int parse_int(const struct opt *o, const char *arg, struct strbuf *err)
{
	char *end;
	errno = 0;
	long long v = strtoll(arg, &end, 10);
	if (!*arg || *end || errno) {
		sb_printf(err, "'%s' is not an integer", arg);
		return -1;
	}
	if ((double)v < o->min || (double)v > o->max) {
		sb_printf(err, "'%s' is %s ", arg, (double)v < o->min ? "less than" : "more than");
		bound_text(err, (double)v < o->min ? o->min : o->max, true);
		return -1;
	}
	*(long long *)o->value = v;
	return 0;
}

/* parse_double(o, arg, err): an OPT_T_DOUBLE value. 0 or -1. */
static int parse_double(const struct opt *o, const char *arg, struct strbuf *err)
{
	char *end;
	errno = 0;
	double v = strtod(arg, &end);
	if (!*arg || *end || errno || !isfinite(v)) {
		sb_printf(err, "'%s' is not a number", arg);
		return -1;
	}
	if (v < o->min || v > o->max) {
		sb_printf(err, "'%s' is %s ", arg, v < o->min ? "less than" : "more than");
		bound_text(err, v < o->min ? o->min : o->max, false);
		return -1;
	}
	*(double *)o->value = v;
	return 0;
}

/* parse_choice(o, arg, err): an OPT_T_CHOICE value. 0 or -1. */
static int parse_choice(const struct opt *o, const char *arg, struct strbuf *err)
{
	for (int i = 0; o->choices[i]; i++)
		if (!strcmp(arg, o->choices[i])) {
			*(int *)o->value = i;
			return 0;
		}
	sb_printf(err, "'%s' is not one of ", arg);
	choices_text(o, err);
	return -1;
}

/* apply(o, arg, neg, err): sets o from arg (NULL for a flag), negated
 * for --no-NAME. 0 or -1 with what is wrong in err. */
static int apply(const struct opt *o, const char *arg, bool neg, struct strbuf *err)
{
	struct string_list *l;
	switch (o->type) {
	case OPT_T_BOOL: *(bool *)o->value = !neg; return 0;
	case OPT_T_SET_INT: *(int *)o->value = (int)o->defval; return 0;
	case OPT_T_INT: return parse_int(o, arg, err);
	case OPT_T_DOUBLE: return parse_double(o, arg, err);
	case OPT_T_STRING: *(const char **)o->value = arg; return 0;
	case OPT_T_CHOICE: return parse_choice(o, arg, err);
	case OPT_T_CALLBACK: return o->cb(o, arg, err);
	case OPT_T_STRING_LIST:
		l = o->value;
		ALLOC_GROW(l->v, l->n + 1, l->cap);
		l->v[l->n++] = arg;
		return 0;
	default: return 0;
	}
}

/* A long option found by name. */
struct found {
	const struct opt *o;
	bool neg;
};

/* match_long(o, name, n, exact, neg): whether the n bytes name name o
 * (exactly, or as a prefix), negated (--no-) or not. */
static bool match_long(const struct opt *o, const char *name, size_t n, bool exact, bool neg)
{
	const char *l = o->long_name;
	if (!opt_is_option(o) || !l || (neg && !opt_negatable(o)))
		return false;
	if (neg) {
		if (n < 3 || strncmp(name, "no-", 3))
			return false;
		name += 3;
		n -= 3;
	}
	return exact ? strlen(l) == n && !strncmp(l, name, n) : !strncmp(l, name, n);
}

/* suggest(opts, name, n, err): ": did you mean '--x'?" after err, x the
 * shown long names (or --no- forms, or help) nearest to the unknown n
 * bytes of name (lib/similar.h); nothing when none is near. */
static void suggest(const struct opt *opts, const char *name, size_t n, struct strbuf *err)
{
	bool neg = n > 3 && !strncmp(name, "no-", 3);
	struct strbuf b = STRBUF_INIT;
	struct similar s;
	similar_init(&s, name + (neg ? 3 : 0), n - (neg ? 3 : 0));
	for (const struct opt *o = opts; o->type != OPT_T_END; o++)
		if (opt_is_option(o) && o->long_name && !(o->flags & PO_HIDDEN) && (!neg || opt_negatable(o)))
			similar_offer(&s, o->long_name);
	if (!neg)
		similar_offer(&s, "help");
	if (similar_text(&s, neg ? "--no-" : "--", &b))
		sb_printf(err, ": %s", sb_str(&b));
	sb_free(&b);
}

/* find_long(opts, name, n, f, err): the option the n bytes name name:
 * an exact name first, else the one option it is a prefix of. 0, or -1
 * with err set (unknown or ambiguous). */
static int find_long(const struct opt *opts, const char *name, size_t n, struct found *f,
		     struct strbuf *err)
{
	int hits = 0;
	for (int exact = 1; exact >= 0; exact--) {
		for (const struct opt *o = opts; o->type != OPT_T_END; o++)
			for (int neg = 0; neg < 2; neg++)
				if (match_long(o, name, n, exact, neg) && (hits == 0 || f->o != o)) {
					if (hits++)
						sb_printf(err, "%s--%s%s", hits == 2 ? "" : ", ",
							  neg ? "no-" : "", o->long_name);
					else
						*f = (struct found){ o, neg };
				}
		if (hits == 1)
			return 0;
		if (hits > 1) {
			struct strbuf all = STRBUF_INIT;
			sb_printf(&all, "ambiguous option '--%.*s' (--%s%s, %s)", (int)n, name,
				  f->neg ? "no-" : "", f->o->long_name, sb_str(err));
			sb_reset(err);
			sb_puts(err, sb_str(&all));
			sb_free(&all);
			return -1;
		}
	}
	sb_printf(err, "unknown option '--%.*s'", (int)n, name);
	suggest(opts, name, n, err);
	return -1;
}

/* find_short(opts, c): the option with short name c, or NULL. */
static const struct opt *find_short(const struct opt *opts, int c)
{
	for (const struct opt *o = opts; o->type != OPT_T_END; o++)
		if (opt_is_option(o) && o->short_name == c)
			return o;
	return NULL;
}

/* fail(prog, err): prints "prog: err" and returns PO_ERROR. */
static int fail(const char *prog, const struct strbuf *err)
{
	fprintf(stderr, "%s: %s\n", prog, sb_str(err));
	return PO_ERROR;
}

/* Parser state. */
struct po {
	int argc, i;
	char **argv;
	const char *prog;
	const struct opt *opts;
	struct strbuf err;
};

/* value_err(p, o, err): "--name: " + err, as the error. */
static int value_err(struct po *p, const struct opt *o)
{
	char nm[128];
	struct strbuf b = STRBUF_INIT;
	sb_printf(&b, "%s: %s", name_of(o, nm, sizeof(nm)), sb_str(&p->err));
	fail(p->prog, &b);
	sb_free(&b);
	return PO_ERROR;
}

/* do_long(p, a): the long option a ("--name[=value]"); 0, PO_HELP or
 * PO_ERROR. */
static int do_long(struct po *p, const char *a)
{
	const char *eq = strchr(a, '='), *arg = eq ? eq + 1 : NULL;
	size_t n = eq ? (size_t)(eq - a) : strlen(a);
	struct found f = { NULL, false };
	char nm[128];
	if (n == 4 && !strncmp(a, "help", 4))
		return PO_HELP;
	if (find_long(p->opts, a, n, &f, &p->err))
		return fail(p->prog, &p->err);
	if (!opt_takes_value(f.o) && eq) {
		sb_printf(&p->err, "option '--%s%s' takes no value", f.neg ? "no-" : "", f.o->long_name);
		return fail(p->prog, &p->err);
	}
	if (opt_takes_value(f.o) && !arg) {
		if (p->i + 1 >= p->argc) {
			sb_printf(&p->err, "option '%s' needs a value", name_of(f.o, nm, sizeof(nm)));
			return fail(p->prog, &p->err);
		}
		arg = p->argv[++p->i];
	}
	return apply(f.o, arg, f.neg, &p->err) ? value_err(p, f.o) : 0;
}

/* do_short(p, a): the cluster a of short options ("qh", "n5"); 0,
 * PO_HELP or PO_ERROR. */
static int do_short(struct po *p, const char *a)
{
	for (; *a; a++) {
		const struct opt *o = find_short(p->opts, (unsigned char)*a);
		const char *arg = NULL;
		if (!o && *a == 'h')
			return PO_HELP;
		if (!o) {
			sb_printf(&p->err, "unknown switch '-%c'", *a);
			return fail(p->prog, &p->err);
		}
		if (opt_takes_value(o)) {
			if (a[1])
				arg = a + 1;
			else if (p->i + 1 < p->argc)
				arg = p->argv[++p->i];
			else {
				sb_printf(&p->err, "switch '-%c' needs a value", *a);
				return fail(p->prog, &p->err);
			}
		}
		if (apply(o, arg, false, &p->err))
			return value_err(p, o);
		if (arg)
			return 0;
	}
	return 0;
}

/* parse_options: see parse_options.h. */
int parse_options(int argc, char **argv, const char *prog, const struct opt *opts,
		  unsigned flags, char ***ops)
{
	struct po p = { .argc = argc, .argv = argv, .prog = prog, .opts = opts };
	int n = 0, rc = 0;
	bool only_ops = false;
	*ops = xcalloc((size_t)argc + 1, sizeof(char *));
	for (p.i = 1; p.i < argc && rc == 0; p.i++) {
		const char *a = argv[p.i];
		if (only_ops || a[0] != '-' || !a[1]) {
			(*ops)[n++] = argv[p.i];
			only_ops |= (flags & PO_STOP_AT_NON_OPTION) != 0;
		} else if (!strcmp(a, "--")) {
			only_ops = true;
		} else if (a[1] == '-') {
			rc = do_long(&p, a + 2);
		} else {
			rc = do_short(&p, a + 1);
		}
	}
	sb_free(&p.err);
	if (rc) {
		free(*ops);
		*ops = NULL;
		return rc;
	}
	return n;
}

/* given(o): whether o (a string or a string list) has a value. */
static bool given(const struct opt *o)
{
	if (o->type == OPT_T_STRING)
		return *(const char *const *)o->value != NULL;
	if (o->type == OPT_T_STRING_LIST)
		return ((const struct string_list *)o->value)->n > 0;
	return true;
}

/* options_missing: see parse_options.h. */
int options_missing(const struct opt *opts, const char *const *names, struct strbuf *b)
{
	const struct opt *miss[16];
	int n = 0;
	for (int i = 0; names[i]; i++)
		for (const struct opt *o = opts; o->type != OPT_T_END && n < 16; o++)
			if (opt_is_option(o) && o->long_name && !strcmp(o->long_name, names[i]) && !given(o))
				miss[n++] = o;
	for (int i = 0; i < n; i++)
		sb_printf(b, "%s--%s %s", !i ? "" : i + 1 < n ? ", " : " and ", miss[i]->long_name,
			  miss[i]->argh ? miss[i]->argh : "VALUE");
	return n;
}

/* opt_spec: see parse_options.h. */
const char *opt_spec(const struct opt *o, char *buf, size_t len)
{
	struct strbuf b = STRBUF_INIT;
	if (o->short_name)
		sb_printf(&b, "-%c", o->short_name);
	if (o->long_name)
		sb_printf(&b, "%s--%s%s", o->short_name ? ", " : "", opt_negatable(o) ? "[no-]" : "",
			  o->long_name);
	if (o->type == OPT_T_CHOICE && !o->argh) {
		sb_putc(&b, ' ');
		for (int i = 0; o->choices[i]; i++)
			sb_printf(&b, "%s%s", i ? "|" : "", o->choices[i]);
	} else if (opt_takes_value(o)) {
		sb_printf(&b, " %s", o->argh ? o->argh : "VALUE");
	}
	snprintf(buf, len, "%s", sb_str(&b));
	sb_free(&b);
	return buf;
}

/* po_wrap: see parse_options.h. */
void po_wrap(FILE *out, const char *text, int indent, int width)
{
	int col = indent;
	const char *p = text;
	while (*p) {
		while (*p == ' ')
			p++;
		size_t w = strcspn(p, " ");
		if (!w)
			break;
		if (col > indent && col + 1 + (int)w > width) {
			fprintf(out, "\n%*s", indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', out);
			col++;
		}
		fprintf(out, "%.*s", (int)w, p);
		col += (int)w;
		p += w;
	}
	fputc('\n', out);
}

/* options_help: see parse_options.h. */
void options_help(FILE *out, const struct opt *opts)
{
	enum { MAXCOL = 30 };
	char spec[256];
	int col = 0;
	for (const struct opt *o = opts; o->type != OPT_T_END; o++)
		if (opt_is_option(o) && !(o->flags & PO_HIDDEN)) {
			int w = (int)strlen(opt_spec(o, spec, sizeof(spec))) + 4;
			if (w > col && w <= MAXCOL)
				col = w;
		}
	for (const struct opt *o = opts; o->type != OPT_T_END; o++) {
		if (o->type == OPT_T_GROUP) {
			fprintf(out, "\n%s\n", o->help);
			continue;
		}
		if (o->flags & PO_HIDDEN)
			continue;
		int w = fprintf(out, "  %s", opt_spec(o, spec, sizeof(spec)));
		if (w + 2 > col)
			fprintf(out, "\n%*s", col, "");
		else
			fprintf(out, "%*s", col - w, "");
		po_wrap(out, o->help ? o->help : "", col, 79);
	}
}
