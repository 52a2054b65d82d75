# Timing helpers for the bench/*_gpu.sh scripts (POSIX sh, sourced):
#   ms CMD...             wall time of CMD in ms (its output discarded)
#   median N...           the median of the numbers
#   series LABEL CMD...   runs CMD $runs times, prints "LABEL ms: MEDIAN (ALL)"
#                         and sets $last to the median
ms() { a=$(date +%s%N); "$@" > /dev/null 2>&1; b=$(date +%s%N); echo $(( (b - a) / 1000000 )); }
median() { printf '%s\n' "$@" | sort -n | sed -n "$(( ($# + 1) / 2 ))p"; }
series() { label=$1; shift; all=""
  for i in $(seq "$runs"); do all="$all $(ms "$@")"; done
  echo "$label ms: $(median $all) ($all )"; last=$(median $all); }
