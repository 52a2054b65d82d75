#!/usr/bin/env bash
# per_file.sh - the plugin's compile-time overhead per source file of a real
# library: rebuilds a configured autotools build directory (e.g. the plain
# GSL build that gsl.sh leaves in WORK/gsl/plain) with a CC wrapper that
# compiles every `-c` translation unit twice, plain and with the plugin,
# and records the CPU time (user+system) of each.
#
# Usage: per_file.sh BUILD_DIR IDIOM_BUILD_DIR OUT.txt
#
# OUT.txt gets one line per translation unit: "SOURCE PLAIN_S PLUGIN_S
# RATIO"; a summary follows on stdout (files, the sums of both columns and
# their ratio, the largest per-file ratios, and how many files are above
# 2x). Files whose plain compile takes under 0.05 s are listed but left out
# of the largest ratios (timer noise). `make clean` runs first in BUILD_DIR;
# JOBS (default 2) and NICE (default 10) as in gsl.sh.
set -eu
[ $# = 3 ] || { echo "usage: $0 BUILD_DIR IDIOM_BUILD_DIR OUT.txt" >&2; exit 2; }
B=$(cd "$1" && pwd)
I=$(cd "$2" && pwd)
OUT=$(cd "$(dirname "$3")" && pwd)/$(basename "$3")
CLANG=${CLANG:-clang-19}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cat > "$T/cc" <<EOS
#!/usr/bin/env bash
# Compiles twice when -c is given (plain, then with the plugin, which writes
# the object), timing each; otherwise (links) runs the plain compiler.
case " \$* " in *" -c "*) ;; *) exec $CLANG "\$@" ;; esac
src=\$(for a in "\$@"; do case \$a in *.c) echo "\$a";; esac; done | tail -n 1)
TIMEFORMAT='%3U %3S'
p=\$( { time $CLANG "\$@" >/dev/null 2>&1; } 2>&1 | awk '{print \$1+\$2}')
q=\$( { time $CLANG -fpass-plugin=$I/lib/libIdiom.so "\$@" 2>/dev/null; } 2>&1 | awk '{print \$1+\$2}')
echo "\$src \$p \$q" >> $T/times
exec $CLANG -fpass-plugin=$I/lib/libIdiom.so "\$@" >/dev/null 2>&1
EOS
chmod +x "$T/cc"
nice -n "${NICE:-10}" make -C "$B" clean >/dev/null 2>&1 || true
nice -n "${NICE:-10}" make -C "$B" -k -j"${JOBS:-2}" CC="$T/cc" >"$T/make.log" 2>&1 || true
awk '{r = ($2 > 0) ? $3 / $2 : 0; printf "%s %.3f %.3f %.2f\n", $1, $2, $3, r}' "$T/times" |
  sort -k4 -n -r > "$OUT"
awk '{p += $2; q += $3; n++; if ($2 >= 0.05 && $4 > 2) big++}
     END {printf "files %d, plain %.1f s, plugin %.1f s, ratio %.3f; files above 2x (plain >= 0.05 s): %d\n",
          n, p, q, q / p, big + 0}' "$OUT"
echo "largest ratios (plain >= 0.05 s):"
awk '$2 >= 0.05' "$OUT" | head -n 8 | sed 's/^/  /'
