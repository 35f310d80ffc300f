#!/bin/sh
# Installs the Debian packages perfdb builds and tests with.
set -e
SUDO=
[ "$(id -u)" = 0 ] || SUDO=sudo
$SUDO apt-get update
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y \
  build-essential clang pkg-config make \
  libtraceevent-dev libdw-dev libelf-dev libbpf-dev libsqlite3-dev libzstd-dev \
  libiberty-dev \
  sqlite3 linux-perf pahole valgrind python3 xxd
