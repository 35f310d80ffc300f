#!/bin/sh
# The project stands on its own, and its text speaks of no one machine:
#  - README.md and docs/*.md link only inside the repository (a relative
#    link must name a file or directory of the clone) or to public http(s)
#    pages; nothing names ../shared or an absolute path of the machine the
#    project was made on; the word "seed" appears only as bench's --seed
#    (the random seed of a run order) and a fuzzer's seed corpus, never as
#    a name for a case.
#  - README names every Debian package of .ci/packages.
#  - The binary's strings, perfdb --help, every verb's --help and every man
#    page make no claim about one machine in prose: a kernel release next
#    to guest/kernel/host ("6.18 guest", "kernel 6.1"), "this guest", "as
#    here", "this VM", a CPU model (EPYC, Xeon), "2-vCPU"; the sources'
#    comments neither. (perfdb doctor describing the machine it runs on,
#    "on this kernel and boot" of bench, are about where perfdb runs.)
set -u
. "$(dirname "$0")/lib/setup.sh"
ROOT=$(pwd -P)
DOCS="README.md $(ls docs/*.md)"

# --- links -------------------------------------------------------------------------
bad=
for f in $DOCS; do
	dir=$(dirname "$f")
	# inline links [text](target) and reference definitions [x]: target
	{ grep -oE '\]\([^) ]+' "$f" | sed 's/^](//'
	  grep -oE '^\[[^]]+\]: *[^ ]+' "$f" | sed 's/^[^:]*: *//'; } >"$T/links"
	while IFS= read -r l; do
		case "$l" in
		http://*|https://*) continue ;;
		mailto:*|'#'*) continue ;;
		*://*) bad="$bad $f:$l"; continue ;;
		esac
		p=${l%%#*}
		[ -n "$p" ] || continue
		case "$p" in /*) bad="$bad $f:$l"; continue ;; esac
		if [ ! -e "$dir/$p" ]; then bad="$bad $f:$l(missing)"; continue; fi
		real=$(cd "$(dirname "$dir/$p")" && pwd -P)
		case "$real/" in "$ROOT"/*) ;; *) bad="$bad $f:$l(outside)" ;; esac
	done <"$T/links"
done
[ -z "$bad" ] && ok "README and docs link only inside the repository or to http(s) pages" ||
	not_ok "links outside the repository or to nothing:$bad"

hits=$(grep -nE '\.\./shared|/work/' $DOCS)
[ -z "$hits" ] && ok "README and docs never name ../shared or a path of another machine" ||
	{ not_ok "README and docs name paths outside the repository"; echo "$hits" | sed 's/^/# /'; }

hits=$(grep -niwE 'seeds?' $DOCS | grep -viE -- '--seed|random seed|`seed`|seed corpus')
[ -z "$hits" ] && ok "README and docs speak of no 'seed' (but bench's --seed)" ||
	{ not_ok "README and docs say 'seed' in prose"; echo "$hits" | sed 's/^/# /'; }

# the README names every Debian package .ci/packages lists (the one list
# .ci/deps.sh installs and perfdb doctor checks)
missing=
for p in $(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' -e 's/[[:space:]].*//' .ci/packages); do
	grep -qw -- "$p" README.md || missing="$missing $p"
done
[ -z "$missing" ] && ok "README names every package of .ci/packages" ||
	not_ok "README does not name:$missing"

# --- claims about one machine ---------------------------------------------------------
MACHINE='(linux|kernel|guest|host) v?[2-7]\.[0-9]+\b|\b[2-7]\.[0-9]+(\.[0-9]+)?[ -](guest|kernel|host|vm)\b'
MACHINE="$MACHINE|this (guest|vm|box|host)\b|\bas here\b|\bEPYC\b|\bXeon\b|[0-9][ -]vCPU"
{
	# a sanitizer build carries the sanitizer runtime's own text (which
	# speaks of kernel releases): then perfdb's objects stand for the binary
	if nm "$PERFDB" 2>/dev/null | grep -q __asan_init; then
		strings "$B/perfdb.o" "$B/libperfdb.a"
	else
		strings "$PERFDB"
	fi
	"$PERFDB" --help
	for v in $("$PERFDB" --verbs); do "$PERFDB" "$v" --help; done
} >"$T/text" 2>&1
if ! grep -q "perfdb VERB" "$T/text"; then
	not_ok "the binary's strings and help could be read"
else
	hits=$(grep -inE "$MACHINE" "$T/text")
	[ -z "$hits" ] && ok "the binary's strings and every --help claim nothing about one machine" ||
		{ not_ok "the binary or its help speaks of one machine"; echo "$hits" | sed 's/^/# /' | head; }
fi
if [ -d "$B/man" ] && ls "$B"/man/*.1 >/dev/null 2>&1; then
	hits=$(grep -inE "$MACHINE" "$B"/man/*.1)
	[ -z "$hits" ] && ok "the man pages claim nothing about one machine" ||
		{ not_ok "a man page speaks of one machine"; echo "$hits" | sed 's/^/# /' | head; }
else
	not_ok "the man pages were built ($B/man)"
fi
hits=$(grep -rinE "$MACHINE" --include='*.c' --include='*.h' --include='*.sql' \
	perfdb.c lib schema collect analyze reports builtin workloads)
[ -z "$hits" ] && ok "the sources' comments and strings speak of no one machine" ||
	{ not_ok "the sources speak of one machine"; echo "$hits" | sed 's/^/# /' | head; }

# the patterns catch what they are for
for s in "e.g. CPU 1 leaving idle on this 6.18 guest" "as here, kernel 6.18" "a 2-vCPU AMD EPYC"; do
	echo "$s" | grep -qiE "$MACHINE" && ok "the check catches '$s'" || not_ok "the check misses '$s'"
done
[ "$failed" -eq 0 ]
