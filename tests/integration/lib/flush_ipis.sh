# Whether a recording's machine sends TLB-flush IPIs, told from perf
# script's text alone (none of perfdb's code): the oracle the tests use to
# know which machine kind they run on. Sourced by tests/integration/*.sh.
#
# flush_ipis_of DATA: prints "seen N F", "unseen 0 F" or "untold N F" for
# the perf.data DATA, a recording with tlb:tlb_flush and csd:csd_queue_cpu
# (or ipi:ipi_send_*) of a workload that flushes while another thread of its
# mm runs on another CPU (tlbflush --others spin, or tlbflush's own threads):
# N is the flush IPIs seen (csd_queue_cpu of flush_tlb_func, an ipi_send_*
# whose callback is flush_tlb_func, and tlb_flush reason 1, "remote
# shootdown": flush_tlb_func run by an IPI), F the flushes that had to reach
# other CPUs or ran locally (tlb_flush reasons 2, 3 and 4). A kernel that
# flushes other CPUs' TLBs by hypercall (paravirtualized flush_tlb_multi)
# shows F and no N: unseen (F >= 20); no F at all: untold.
flush_ipis_of() {
	perf script -i "$1" -F event,trace 2>/dev/null | awk '
		/tlb:tlb_flush:/ {
			if ($0 ~ /\(1\)[[:space:]]*$/) n++
			else if ($0 ~ /\((2|3|4)\)[[:space:]]*$/) f++
			next
		}
		/csd:csd_queue_cpu:/ && / func=flush_tlb_func/ { n++; next }
		/ipi:ipi_send_cpu/ && / callback=flush_tlb_func/ { n++ }
		END {
			if (n > 0) print "seen", n, f + 0
			else if (f >= 20) print "unseen", 0, f
			else print "untold", 0, f + 0
		}'
}
