#!/usr/bin/env bash
# gsl_pack.sh - pack the GSL test programs of an idiom build made by
# `BUILD_ONLY=1 MODES=forced tools/realworld/gsl.sh BUILD WORK` into one
# archive, to run them where there is no LLVM (tools/realworld/gsl_device.sh,
# on the lent GPU machine).
#
# Usage: gsl_pack.sh WORK OUT.tar.xz
#
# The archive holds, per GSL directory, its test programs (stripped; GSL is
# configured --disable-shared, so they are plain executables with the
# runtime linked in) and a MANIFEST with one "dir/program" per line.
set -eu
[ $# = 2 ] || { echo "usage: $0 WORK OUT.tar.xz" >&2; exit 2; }
B=$1/gsl/idiom
[ -d "$B" ] || { echo "$0: no idiom build in $B" >&2; exit 2; }
OUT=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
(cd "$B" && find . -mindepth 2 -maxdepth 2 -type f -perm -u+x \
   \( -name test -o -name 'test_*' \) ! -name '*.sh' ! -name '*.o' | sort) |
while read -r p; do
  # libtool leaves a real ELF executable here with --disable-shared.
  head -c 4 "$B/$p" | grep -q ELF || continue
  mkdir -p "$T/gsl/$(dirname "$p")"
  strip -o "$T/gsl/$p" "$B/$p"
  echo "${p#./}" >> "$T/gsl/MANIFEST"
done
tar -C "$T" -cJf "$OUT" gsl
echo "$OUT: $(wc -l < "$T/gsl/MANIFEST") programs, $(du -h "$OUT" | cut -f1)"
