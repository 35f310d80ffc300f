/* Unit tests for collect/record/flush_probe.c: the verdict on hand-made counts
 * (flush IPIs received, none sent on a busy or an idle machine, IPIs sent
 * and none received), and the live probe on this machine, whose counts
 * must agree with its verdict whatever the machine flushes with. */
#include <stdio.h>
#include <string.h>
#include "collect/record/flush_probe.h"
#include "collect/recipes.h"
#include "tests/unit/tap.h"

static void test_verdict(void)
{
	char why[256];
	struct flush_probe p = { .cpus = 2, .sender = 0, .target = 1, .seconds = 0.1, .ran = 0.09,
		.drops = 4000, .attempts = 4000, .sends = 3900, .received = 3890 };
	is_int(flush_probe_verdict(&p, why, sizeof(why)), FLUSH_IPIS_SEEN, "verdict: flushes received by IPI: seen");
	p.sends = p.received = 0;
	is_int(flush_probe_verdict(&p, why, sizeof(why)), FLUSH_IPIS_NOT_SEEN,
	       "verdict: drops beside a running spinner, no IPI sent, none received: not seen");
	p.attempts = 0;
	is_int(flush_probe_verdict(&p, why, sizeof(why)), FLUSH_IPIS_NOT_SEEN,
	       "verdict: ... also when the kernel traces no flush attempt");
	p.ran = 0.04;
	is_int(flush_probe_verdict(&p, why, sizeof(why)), FLUSH_IPIS_UNTOLD,
	       "verdict: the spinner ran less than half the time: untold");
	ok(strstr(why, "busy") != NULL, "verdict: ... saying the machine is busy");
	p.ran = 0.09;
	p.sends = 10;
	is_int(flush_probe_verdict(&p, why, sizeof(why)), FLUSH_IPIS_UNTOLD,
	       "verdict: IPIs sent, no flush received: untold");
	p.sends = 0;
	p.drops = 64;
	is_int(flush_probe_verdict(&p, why, sizeof(why)), FLUSH_IPIS_UNTOLD, "verdict: too few drops: untold");
	p.ran = 0;
	p.received = 1;
	is_int(flush_probe_verdict(&p, why, sizeof(why)), FLUSH_IPIS_SEEN,
	       "verdict: one flush received by IPI is enough, however busy");
}

static void test_live(void)
{
	char tfs[4096], why[512] = "";
	struct flush_probe p;
	const char *t = tracefs_mount(tfs, sizeof(tfs));
	enum flush_seen v = flush_probe_run(t ? t : "", 0.05, &p, why, sizeof(why));
	printf("# live probe: verdict %d, %lld drops, %lld attempts, %lld sends, %lld received, spinner "
	       "ran %.3f of %.3f s%s%s\n", v, p.drops, p.attempts, p.sends, p.received, p.ran, p.seconds,
	       *why ? ": " : "", why);
	if (v == FLUSH_IPIS_UNTOLD) {
		ok(*why != 0, "live probe: cannot tell, and says why");
		skip("live probe: cannot tell here: %s", why);
		return;
	}
	ok(p.sender != p.target && p.drops >= 100, "live probe: drops on one CPU beside a spinner on another");
	ok(v == FLUSH_IPIS_SEEN ? p.received > 0 : p.received == 0 && p.sends == 0,
	   "live probe: the verdict follows the counts");
}

int main(void)
{
	test_verdict();
	test_live();
	return tap_done();
}
