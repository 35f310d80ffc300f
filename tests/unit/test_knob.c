/* Unit tests of perfdb bench --set's pure parts: what a knob file's
 * content says (collect/bench/knob.h: a sysfs choice list's bracketed
 * word) and the --set templates in a plan (collect/bench/bench_plan.h:
 * parsed, checked, substituted, in the plan's JSON only when given). */
#include <stdlib.h>
#include "collect/bench/bench_plan.h"
#include "collect/bench/knob.h"
#include "tap.h"

/* test_values: knob_value and knob_matches. */
static void test_values(void)
{
	char v[64];
	knob_value("always [madvise] never", v, sizeof(v));
	is_str(v, "madvise", "a sysfs choice list's value is its bracketed word");
	knob_value("60", v, sizeof(v));
	is_str(v, "60", "a plain file's value is its content");
	ok(knob_matches("[always] madvise never", "always"), "the bracketed word matches");
	ok(!knob_matches("always [madvise] never", "always"), "an unselected word does not");
	ok(knob_matches("4\t4\t1\t7", "4 4 1 7"), "runs of white space match");
	ok(!knob_matches("60", "6"), "a prefix does not match");
}

/* test_plan: --set in a plan. */
static void test_plan(void)
{
	struct bench_plan p = { 0 };
	char err[512], *json, *v;
	char *argv[] = { "true" };
	bench_plan_set_argv(&p, argv, 1);
	p.runs = 1;
	p.record_every = 1;
	json = bench_plan_json(&p);
	ok(!strstr(json, "\"set\""), "a plan without --set has no set in its JSON");
	free(json);
	ok(!bench_plan_add_param(&p, "thp=always,never", err, sizeof(err)), "-p thp=always,never");
	ok(bench_plan_check(&p, err, sizeof(err)) && strstr(err, "nor") == NULL,
	   "a parameter used nowhere is refused: %s", err);
	ok(bench_plan_add_set(&p, "=x", err, sizeof(err)), "--set with no path is refused");
	ok(!bench_plan_add_set(&p, "/sys/a=x{thp}y", err, sizeof(err)), "--set /sys/a=x{thp}y");
	ok(bench_plan_add_set(&p, "/sys/a=z", err, sizeof(err)) && strstr(err, "twice"),
	   "one path twice is refused: %s", err);
	ok(!bench_plan_check(&p, err, sizeof(err)), "a parameter used only in a --set counts as used");
	v = bench_set_value(&p, 1, 0);
	is_str(v, "xnevery", "the template with cell 1's value");
	free(v);
	json = bench_plan_json(&p);
	ok(strstr(json, ",\"set\":[{\"path\":\"/sys/a\",\"value\":\"x{thp}y\"}]}") != NULL,
	   "the plan's JSON holds the --set: %s", json);
	free(json);
	ok(!bench_plan_add_set(&p, "/sys/b={nope}", err, sizeof(err)), "--set /sys/b={nope}");
	ok(bench_plan_check(&p, err, sizeof(err)) && strstr(err, "{nope} in --set /sys/b is not a parameter"),
	   "a {NAME} of a --set that is no parameter is refused: %s", err);
	bench_plan_free(&p);
}

int main(void)
{
	test_values();
	test_plan();
	return tap_done();
}
