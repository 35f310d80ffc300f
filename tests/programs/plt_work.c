/* A hot loop through PLT entries, for tests/integration/plt.sh: each
 * iteration calls memccpy through the program's own PLT, and libc's
 * memccpy calls memchr and memcpy through libc's PLT (its IRELATIVE
 * entries), so a cpu-clock profile has many samples in both. Prints the
 * checksum to stderr, which gives the program a defined dynamic symbol
 * (stderr, a copy relocation): perf synthesizes PLT symbols only for a
 * file that has some symbol of its own, and a stripped build keeps just
 * .dynsym. Usage: plt_work [ITERATIONS] (default 100000000). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100000000L, sum = 0;
	static char src[16] = "ab:cdefghijklmn", dst[16];

	for (long i = 0; i < n; i++) {
		char *end = memccpy(dst, src + (i & 1), ':', sizeof(dst) - 2);
		sum += end ? end - dst : 0;
	}
	fprintf(stderr, "%ld\n", sum);
	return 0;
}
