# shellcheck shell=sh
# IDIOM_STATS helpers for the bench/*_ab.sh scripts (POSIX sh, sourced):
#   stat_bytes FILE       "in N out M": the sum of the sites' bytes_in and
#                         bytes_out in the IDIOM_STATS output FILE
#   stat_residency FILE   its residency lines (whole-table syncs, flushed
#                         bytes, partial syncs), without the counters these
#                         comparisons do not use
stat_bytes() { grep -o 'bytes_in=[0-9]* bytes_out=[0-9]*' "$1" |
  awk -F'[= ]' '{i += $2; o += $4} END {printf "in %.0f out %.0f", i, o}'; }
stat_residency() { grep 'idiom-stats: residency' "$1" |
  sed -E 's/ (evicted|device_copies|grown|offsets|views|host_loads|host_stores|snapshots)=[0-9]+//g'; }
