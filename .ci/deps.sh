#!/bin/sh
# Installs the Debian packages perfdb builds and tests with.
# --if-missing: only when one of them is not installed yet (no apt-get
# update otherwise), so `make test` and `make run` can call it every time.
set -e
PKGS="build-essential clang pkg-config make
  libtraceevent-dev libdw-dev libelf-dev libbpf-dev libsqlite3-dev libzstd-dev
  libiberty-dev sqlite3 linux-perf pahole valgrind python3 xxd
  cmark-gfm chromium librsvg2-bin"
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
