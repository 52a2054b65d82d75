# Timing helpers for the bench/*_gpu.sh scripts (POSIX sh, sourced):
#   ms CMD...             wall time of CMD in ms (its output discarded)
#   median N...           the median of the numbers (the lower middle one
#                         of an even count)
#   median_mean N...      the median, the mean of the two middle numbers
#                         of an even count (bench/iter_gpu.sh, detach_ab.sh)
#   series LABEL CMD...   runs CMD $runs times, prints "LABEL ms: MEDIAN (ALL)"
#                         and sets $last to the median
ms() { a=$(date +%s%N); "$@" > /dev/null 2>&1; b=$(date +%s%N); echo $(( (b - a) / 1000000 )); }
median() { printf '%s\n' "$@" | sort -n | sed -n "$(( ($# + 1) / 2 ))p"; }
median_mean() { printf '%s\n' "$@" | sort -n | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
series() { label=$1; shift; all=""
  for i in $(seq "$runs"); do all="$all $(ms "$@")"; done
  echo "$label ms: $(median $all) ($all )"; last=$(median $all); }
