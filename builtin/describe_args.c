/* The options of field-attribution describing shared by layout, import
 * and record (see describe_args.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "builtin/describe_args.h"
#include "lib/alloc.h"

struct describe_args describe_args;

/* describe_object_opt: see describe_args.h. */
int describe_object_opt(const struct opt *o, const char *arg, struct strbuf *err)
{
	struct obj_spec s;
	(void)o;
	if (objects_parse_spec(arg, &s)) {
		sb_printf(err, "'%s' is not TYPE@ADDR[:SIZE][/PID] (e.g. mm_struct@0xffff888100a40000)", arg);
		return -1;
	}
	ALLOC_GROW(describe_args.objects, describe_args.nobjects + 1, describe_args.cap);
	describe_args.objects[describe_args.nobjects++] = s;
	return 0;
}

/* describe_given: see describe_args.h. */
bool describe_given(void)
{
	return describe_args.btf || describe_args.dwarf.n || describe_args.types.n || describe_args.nobjects;
}

/* input_file_check: see describe_args.h. */
int input_file_check(const char *prog, const char *opt, const char *path)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC), e = 0;
	if (fd < 0 || fstat(fd, &st))
		e = errno;
	else if (S_ISDIR(st.st_mode))
		e = EISDIR;
	if (fd >= 0)
		close(fd);
	if (!e)
		return 0;
	fprintf(stderr, "%s: %s %s: %s\n", prog, opt, path, strerror(e));
	return EXIT_FAIL;
}

/* describe_args_check: see describe_args.h. */
int describe_args_check(const char *prog)
{
	if (describe_args.btf && input_file_check(prog, "--btf", describe_args.btf))
		return EXIT_FAIL;
	for (size_t i = 0; i < describe_args.dwarf.n; i++)
		if (input_file_check(prog, "--dwarf", describe_args.dwarf.v[i]))
			return EXIT_FAIL;
	return 0;
}

/* describe_opts_of: see describe_args.h. */
struct describe_opts describe_opts_of(bool kernel_same_release)
{
	const struct describe_args *a = &describe_args;
	return (struct describe_opts){ .btf = a->btf, .dwarf = a->dwarf.v, .ndwarf = a->dwarf.n,
		.objects = a->objects, .nobjects = a->nobjects, .types = a->types.v, .ntypes = a->types.n,
		.kernel_same_release = kernel_same_release };
}

/* describe_args_free: see describe_args.h. */
void describe_args_free(void)
{
	string_list_clear(&describe_args.dwarf);
	string_list_clear(&describe_args.types);
	free(describe_args.objects);
	describe_args = (struct describe_args){ 0 };
}

/* describe_report: see describe_args.h. */
void describe_report(const char *prog, const struct describe_result *r, int n, FILE *out)
{
	for (int i = 0; i < n; i++) {
		char *line = describe_result_line(&r[i]);
		if (r[i].warning)
			fprintf(stderr, "%s: warning: %s\n", prog, r[i].warning);
		fprintf(out, "%s\n", line);
		free(line);
	}
}
