#!/bin/sh
# How much a program's time moves when only its static data moves: builds
# nas-parboil/PROG.c's sequential build again with a .bss pad of each SIZE
# bytes linked first (its static arrays start SIZE bytes later), as
# OUTDIR/pad_SIZE/np/PROG.idiom beside the plain sequential build as
# PROG.seq, so that `np_ratio_ci.py OUTDIR/pad_SIZE 31 PROG` pairs them
# (an A/A test of layout alone). SIZE "match" puts the sequential build's
# largest static array where the plugin build in DIR
# (bench/build_profile_carry.sh) has it.
#   bench/layout_pad.sh DIR OUTDIR PROG SIZE...
set -eu
dir=$1; out=$2; prog=$3; shift 3
cc=${CLANG:-clang-19}
here=$(dirname "$0")
tmp=$(mktemp -d)
cp "$here/np_ratio_ci.py" "$out/" 2>/dev/null || { mkdir -p "$out"; cp "$here/np_ratio_ci.py" "$out/"; }
# the address of the sequential build's largest .bss object (the program's
# biggest static array) in build $1
big=$(nm -S --size-sort "$dir/np/$prog.seq" | awk '$3 == "b" || $3 == "B" {n = $4} END {print n}')
first() { nm "$1" | awk -v n="$big" '$3 == n {print $1; exit}'; }
for size in "$@"; do
  if [ "$size" = match ]; then
    want=$((0x$(first "$dir/np/$prog.idiom"))); have=$((0x$(first "$dir/np/$prog.seq")))
    size=$((want - have))
  fi
  d="$out/pad_$size/np"
  mkdir -p "$d"
  echo "char idiom_layout_pad[$size];" > "$tmp/pad.c"
  $cc -O2 -g -c "$tmp/pad.c" -o "$tmp/pad.o"
  $cc -O2 -g "$tmp/pad.o" "$here/../nas-parboil/$prog.c" -lm -o "$d/$prog.idiom"
  cp "$dir/np/$prog.seq" "$dir/np/$prog.c" "$dir/np/compare.py" "$d/"
  echo "pad_$size: $big at 0x$(first "$d/$prog.idiom") (plugin build 0x$(first "$dir/np/$prog.idiom"), sequential 0x$(first "$dir/np/$prog.seq"))"
done
rm -rf "$tmp"
