/* bpwrite: a known number of writes to one variable, for an oracle of
 * hardware write-watchpoints that perfdb does not take part in:
 *   perf stat -e mem:0xADDR/8:w -- bpwrite N
 * counts N (a few more: the loader clears the variable's page) where the
 * machine's watchpoints fire, 0 where they are accepted and never fire.
 * Linked without PIE, so that ADDR is the symbol's (nm bpwrite | grep
 * bp_target). Usage: bpwrite [N] (default 1000). Exit 0, 1 on usage. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

volatile uint64_t bp_target;

int main(int argc, char **argv)
{
	char *end = NULL;
	long n = argc > 1 ? strtol(argv[1], &end, 10) : 1000;
	if (argc > 2 || (end && *end) || n < 0) {
		fprintf(stderr, "usage: bpwrite [N]\n");
		return 1;
	}
	for (long i = 1; i <= n; i++)
		bp_target = (uint64_t)i;
	return 0;
}
