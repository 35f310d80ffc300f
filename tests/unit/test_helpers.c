/* Unit tests of lib/'s small shared helpers: errf (error lines into a
 * caller's buffer: written, cut, or not written at all). */
#include <string.h>
#include "lib/errf.h"
#include "tests/unit/tap.h"

/* test_errf: writes, cuts at errlen with its NUL, skips a NULL or empty
 * buffer, always returns -1. */
static void test_errf(void)
{
	char buf[16];
	memset(buf, 'x', sizeof(buf));
	is_int(errf(buf, sizeof(buf), "%s %d", "bad", 42), -1, "errf returns -1");
	is_str(buf, "bad 42", "errf writes the printf output");
	is_int(errf(buf, 5, "%s", "abcdefgh"), -1, "a cut line still returns -1");
	is_str(buf, "abcd", "cut to errlen bytes with its NUL");
	memset(buf, 'x', sizeof(buf));
	errf(buf, 1, "abc");
	is_str(buf, "", "errlen 1: the NUL alone");
	memset(buf, 'x', sizeof(buf));
	is_int(errf(buf, 0, "abc"), -1, "errlen 0: -1");
	ok(buf[0] == 'x', "errlen 0: nothing written");
	is_int(errf(NULL, 10, "abc"), -1, "a NULL buffer: -1, nothing written");
}

int main(void)
{
	test_errf();
	return tap_done();
}
