#!/usr/bin/env bash
# adversarial_gpu.sh - the adversarial suite (test/lit/adversarial) on a
# machine without LLVM, e.g. the lent GPU machine.
#
# Usage:
#   adversarial_gpu.sh build BUILD_DIR OUT_DIR   (here: compile every pair)
#   adversarial_gpu.sh run OUT_DIR               (there: run and compare)
#
# build: for each test/lit/adversarial/*.c, every RUN-line pair
#   %clang ... -o %t.X.seq / %clang-idiom ... -o %t.X.idiom (same X) is
#   compiled as in the test (its flags, -lm, -lpthread where named) into
#   OUT_DIR/NAME.X.seq and OUT_DIR/NAME.X.idiom.
# run: runs each pair without arguments, the idiom build with
#   IDIOM_MIN_TRIP=0 (every offload forced) and IDIOM_DEVICE (default gpu),
#   and compares stdout and exit status with the sequential build's. Prints
#   PASS/FAIL per pair, the device calls from IDIOM_STATS, and a summary;
#   exits 1 on any FAIL. The lit tests' own FileCheck expectations (declines
#   with a given reason) are PoCL-specific and not checked here: only "the
#   plugin build prints what the sequential build prints".
set -u
mode=${1:-}
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$HERE/../test/lit/adversarial

if [ "$mode" = build ]; then
  BUILD=$(cd "$2" && pwd) && OUT=$3 || exit 2
  mkdir -p "$OUT"
  OUT=$(cd "$OUT" && pwd)
  PLUGIN=$BUILD/lib/libIdiom.so
  for f in "$SRC"/*.c; do
    name=$(basename "$f" .c)
    grep -h '^// RUN:' "$f" | sed 's|^// RUN: *||' |
      grep -oE '%clang(-idiom)? [^|>]*-o %t[.a-z0-9_-]*' | while read -r line; do
        target=${line##*-o %t}
        case "$target" in *.seq | *.idiom) ;; *) continue ;; esac
        cmd=${line//%clang-idiom/clang-19 -O2 -fpass-plugin=$PLUGIN -L$BUILD\/lib}
        cmd=${cmd//%clang/clang-19}
        cmd=${cmd//%plugin/$PLUGIN}
        cmd=${cmd//%s/$f}
        cmd=${cmd//%t/$OUT\/$name}
        # shellcheck disable=SC2086
        eval "$cmd -lm -lpthread" >"$OUT/$name$target.log" 2>&1 ||
          echo "build failed: $name$target (see $OUT/$name$target.log)"
      done
  done
  ls "$OUT"/*.seq | wc -l | sed 's/$/ sequential builds/'
  exit 0
fi

if [ "$mode" = run ]; then
  OUT=$2
  pass=0 fail=0
  for seq in "$OUT"/*.seq; do
    base=${seq%.seq}
    idiom=$base.idiom
    [ -x "$idiom" ] || continue
    timeout 120 "$seq" >"$base.out.seq" 2>/dev/null
    s1=$?
    env IDIOM_MIN_TRIP=0 IDIOM_DEVICE="${IDIOM_DEVICE:-gpu}" IDIOM_STATS=1 \
      timeout 300 "$idiom" >"$base.out.idiom" 2>"$base.err.idiom"
    s2=$?
    calls=$(grep -o 'offloaded=[0-9]*' "$base.err.idiom" |
      awk -F= '{ n += $2 } END { print n + 0 }')
    if [ "$s1" = "$s2" ] && cmp -s "$base.out.seq" "$base.out.idiom"; then
      echo "PASS $(basename "$base") (device calls: ${calls:-0})"
      pass=$((pass + 1))
    else
      echo "FAIL $(basename "$base"): exit $s2 vs $s1 (device calls: ${calls:-0})"
      diff "$base.out.seq" "$base.out.idiom" | head -6 | sed 's/^/    /'
      fail=$((fail + 1))
    fi
  done
  echo "$pass passed, $fail failed"
  [ "$fail" -eq 0 ]
  exit
fi
echo "usage: $0 build BUILD_DIR OUT_DIR | run OUT_DIR" >&2
exit 2
