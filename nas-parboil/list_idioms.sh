#!/usr/bin/env bash
# Lists what the plugin detects in the nas-parboil programs: one row per loop
# with a remark (offloaded, detected only, or the closest near miss), as a
# Markdown table. Usage: bash nas-parboil/list_idioms.sh BUILD_DIR
set -euo pipefail
B=$(cd "${1:?usage: list_idioms.sh BUILD_DIR}" && pwd)
cd "$(dirname "$0")"
echo "| program | line | result | idiom / reason |"
echo "| --- | --- | --- | --- |"
for c in *.c; do
  clang-19 -O2 -g -fpass-plugin="$B/lib/libIdiom.so" -c "$c" -o /dev/null \
    -Rpass=idiom-offload -Rpass-missed=idiom-offload -Rpass-analysis=idiom-offload 2>&1 |
    grep -E "remark: (offloaded|detected idiom|loop is not an idiom|idiom .* not offloaded)" |
    sed -E 's/ \[-Rpass[^]]*\]$//' |
    awk -v prog="$c" '{
      split($1, loc, ":"); line = loc[2];
      msg = $0; sub(/^[^ ]+ remark: /, "", msg);
      if (msg ~ /^offloaded/) { kind = "offloaded"; m = msg; sub(/^offloaded /, "", m); sub(/ to OpenCL as [^ ]+/, "", m) }
      else if (msg ~ /^detected idiom/) { kind = "detected"; m = msg; sub(/^detected idiom /, "", m); sub(/ \(its spec.*$/, "", m) }
      else if (msg ~ /not offloaded/) { kind = "not offloaded"; m = msg }
      else { kind = "no idiom"; m = msg; sub(/^loop is not an idiom /, "", m); sub(/<builtin>\//, "", m) }
      gsub(/\|/, "\\|", m);
      print "| " prog " | " line " | " kind " | " m " |"
    }' | sort -t'|' -k2,2 -k3,3n -u
done
