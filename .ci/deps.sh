#!/bin/sh
# Installs the Debian packages perfdb builds and tests with: every package
# .ci/packages lists (the same list perfdb doctor checks).
# --if-missing: only when one of them is not installed yet (no apt-get
# update otherwise), so `make test` and `make run` can call it every time.
set -e
PKGS=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' -e 's/[[:space:]].*//' "$(dirname "$0")/packages")
if [ "${1:-}" = --if-missing ]; then
	missing=0
	for p in $PKGS; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' ||
			missing=1
	done
	[ $missing = 1 ] || exit 0
fi
SUDO=
[ "$(id -u)" = 0 ] || SUDO=sudo
$SUDO apt-get update
# shellcheck disable=SC2086 # one word per package
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y $PKGS
