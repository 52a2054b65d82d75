#!/usr/bin/env bash
# gridding_loop.sh - where the plugin build's extra register copies in
# nas-parboil/gridding.c's particle set-up loop come from (docs/
# ARCHITECTURE.md, "Dispatch layout"): the static instruction count of
# main's first loop (the LCG recurrence, identical IR in every build) when
# llc compiles the sequential build's IR, the plugin build's, and edits of
# the plugin build's IR at its first stitched site (the one right after the
# set-up loops):
#   plugin        as built (-idiom-dispatch-layout=inline)
#   no-dispatch   the site's hint branch made unconditional (the dispatch
#                 path and its edge to the join unreachable)
#   bare-edge     the hint branch sent straight to the fallback or the join
#                 (no dispatch code at all, only the edge that skips the loop)
#   bare-edge-nocse  the same, llc -disable-machine-cse
#   unlikely / outline  built with -idiom-dispatch-layout=unlikely|outline
#   no-site-addresses  built with -idiom-site-addresses=false (passes/
#                 SiteAddresses.h: the globals keep their own names after
#                 each site, the build before helper "mcse")
#
#   bench/gridding_loop.sh BUILD_DIR
set -eu
BUILD=$(cd "$1" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
P=$BUILD/lib/libIdiom.so
TMP=$(mktemp -d "${TMPDIR:-/tmp}/gridding-loop.XXXXXX")
[ "${KEEP_TMP:-0}" = 1 ] && echo "files in $TMP" || trap 'rm -rf "$TMP"' EXIT
SRC=$HERE/../nas-parboil/gridding.c
LLC="llc-19 -O2 -relocation-model=pic"
count() { # the instructions of main's first loop in assembly $1
  awk '/^main:/{m=1} m&&/^\.LBB0_1:/{l=1} l{print} l&&/^[ \t]*j(ne|b|l)[ \t]/{exit}' "$1" |
    grep -c '^\s[a-z]'
}
clang-19 -O2 -S -emit-llvm "$SRC" -o "$TMP/seq.ll"
for l in inline unlikely outline no-site-addresses; do
  case $l in
    no-site-addresses) flags="-mllvm -idiom-site-addresses=false" ;;
    *) flags="-mllvm -idiom-dispatch-layout=$l" ;;
  esac
  clang-19 -O2 -S -emit-llvm -fplugin="$P" -fpass-plugin="$P" \
    $flags "$SRC" -o "$TMP/$l.raw.ll" 2> /dev/null
  opt-19 -passes=instnamer -S "$TMP/$l.raw.ll" -o "$TMP/$l.ll"
done
# The first hint branch of main: br i1 %HIT, label %SKIP, label %CALL; the
# join is where the call's idiom_run success branch goes.
python3 - "$TMP" <<'PY'
import re, sys
d = sys.argv[1]
s = open(d + "/inline.ll").read()
at = s.index("load atomic i64, ptr @idiom_main_")
m = re.compile(r"br i1 (%[\w.]+), label (%[\w.]+), label (%[\w.]+)").search(s, at)
hit, skip, call = m.groups()
body = s[s.index("\n" + call[1:] + ":"):]
ok = re.search(r"br i1 %[\w.]+, label (%[\w.]+), label (%[\w.]+)", body)
join = ok.group(2)
br = m.group(0).split("\n")[0]
open(d + "/no-dispatch.ll", "w").write(s.replace(br, "br label " + skip, 1))
# skip's successor is the fallback (a block that syncs, then the loop)
fb = re.search(r"\n" + skip[1:] + r":[^\n]*\n(?:  [^\n]*\n)*?  br label (%[\w.]+)", s).group(1)
open(d + "/bare-edge.ll", "w").write(
    s.replace(br, "br i1 %s, label %s, label %s" % (hit, fb, join), 1))
PY
printf '%-16s %s\n' build "instructions in the set-up loop"
for v in seq inline no-dispatch bare-edge unlikely outline no-site-addresses; do
  $LLC "$TMP/$v.ll" -o "$TMP/$v.s"; printf '%-16s %s\n' "$v" "$(count "$TMP/$v.s")"
done
$LLC -disable-machine-cse "$TMP/bare-edge.ll" -o "$TMP/nocse.s"
printf '%-16s %s\n' bare-edge-nocse "$(count "$TMP/nocse.s")"
$LLC -disable-machine-cse "$TMP/seq.ll" -o "$TMP/seqnocse.s"
printf '%-16s %s\n' seq-nocse "$(count "$TMP/seqnocse.s")"
