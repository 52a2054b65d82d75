#!/usr/bin/env bash
# gsl.sh - build GNU GSL 2.7.1 (Debian's source) with the Idiom plugin and run
# GSL's own test suite on the OpenCL device (PoCL where it is the only one).
#
# Usage: gsl.sh IDIOM_BUILD_DIR [WORK_DIR]
#
#   WORK_DIR (default /tmp/idiom-realworld) holds the apt state, the source,
#   the builds and the results; it is reused: the source is fetched once, and
#   a build whose stamp exists is not redone (FRESH=1 redoes them).
#
# Steps:
#   1. apt-get source gsl, with a private sources list (one deb-src line for
#      the system's Debian repository) and private lists and caches.
#   2. Two builds from that source, static libraries (--disable-shared), the
#      default CFLAGS (-g -O2), doc/ left out (Debian strips its sources):
#        plain   CC=clang-19
#        idiom   CC=<WORK>/bin/idiom-cc (the build's bin/idiom-cc driver,
#                which adds the plugin and links the runtime, with
#                -Rpass=idiom-offload; see rw_make_cc in common.sh)
#      Each build is the library (make) and then the test programs
#      (make check TESTS=); both are timed (user+system CPU seconds).
#   3. The test suite (make -k check), one automake test per test program:
#        plain    the plain build
#        default  the idiom build, default runtime settings
#        forced   the idiom build, IDIOM_MIN_TRIP=0: every offloaded loop
#                 whose call is not declined for another reason runs on the
#                 device
#      Every test program runs under `timeout` (TEST_TIMEOUT, default 1800 s;
#      FORCED_TIMEOUT for the forced mode, default 1200 s); a time-out counts
#      as FAIL and is listed as such.
#
# Output: WORK_DIR/gsl/results/: summary.txt (the table below), and per
# mode <mode>.txt ("dir/test RESULT" lines), <mode>-logs/ (the automake logs),
# build-<kind>.log (the make output, with the -Rpass=idiom-offload remarks).
# Exit status: 0 when there is no compiler crash and every test that passes
# in the plain build passes in both idiom modes; 1 otherwise; 2 on a setup
# error.
#
# Environment:
#   GSL_DIRS="sys sum ..."   only these test directories (and the library
#                            directories their tests link), for a bounded run
#   MODES="plain default forced"  which test modes to run
#   JOBS (default 2), NICE (default 10), TEST_TIMEOUT, FORCED_TIMEOUT,
#   BUILD_ONLY=1 (only the builds that MODES needs, no test run),
#   FORCED_ENV (extra environment for the forced mode, e.g.
#   "IDIOM_MIN_TRIP=64"), FRESH=1, CLANG (default clang-19).
#   IDIOM_CACHE_DIR defaults to WORK_DIR/idiom-cache (kernel binaries kept
#   between runs).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/common.sh"

rw_setup "$@"
TEST_TIMEOUT=${TEST_TIMEOUT:-1800}
FORCED_TIMEOUT=${FORCED_TIMEOUT:-1200}
FORCED_ENV=${FORCED_ENV:-}
GSL_DIRS=${GSL_DIRS:-}

rw_fetch gsl 'gsl-2.7.1*'
G=$WORK/gsl
R=$G/results
mkdir -p "$R"
# run-test SECONDS PROG: the automake LOG_COMPILER; a time-out is named in
# the test's log (and counts as FAIL).
cat > "$WORK/bin/run-test" <<'EOS'
#!/bin/sh
t=$1
shift
timeout "$t" "$@"
rc=$?
[ $rc = 124 ] && echo "run-test: TIMEOUT after ${t}s"
exit $rc
EOS
chmod +x "$WORK/bin/run-test"

# lib_dirs: for a subset, the directories whose libraries the chosen tests
# link (from each test's test_LDADD), in GSL's SUBDIRS order.
lib_dirs() {
  local all need d
  all=$(sed -n 's/^SUBDIRS = //p' "$SRC/Makefile.am")
  need=" utils "
  for d in $GSL_DIRS; do
    [ -f "$SRC/$d/Makefile.am" ] || rw_die "no GSL directory $d"
    need+=" $d "
    need+=$(sed -n '/^test[a-z_]*_LDADD/s/[^ ]*\.\.\/\([a-z_0-9-]*\)\/[^ ]*/ \1 /gp' \
                "$SRC/$d/Makefile.am" | tr -s ' \n' ' ')
    need+=" "
  done
  for d in $all; do
    case "$need" in *" $d "*) echo "$d" ;; esac
  done
}

# configure_build KIND: configure a VPATH build in $G/KIND.
configure_build() {
  local kind=$1 b=$G/$1
  rm -rf "$b"
  mkdir -p "$b"
  local cc=$CLANG libs=""
  if [ "$kind" = idiom ]; then
    cc=$WORK/bin/idiom-cc
    libs=$(rw_plugin_libs)
  fi
  (cd "$b" && nice -n "$NICE" "$SRC/configure" --disable-shared CC="$cc" LIBS="$libs") \
    >"$R/configure-$kind.log" 2>&1 || rw_die "configure ($kind) failed, see $R/configure-$kind.log"
  # Debian strips doc/'s sources: leave doc out of the top-level SUBDIRS.
  sed -i 's/^\(SUBDIRS = .*\) doc[[:space:]]*$/\1/' "$b/Makefile"
}

make_lib() {
  local b=$1 d
  if [ -z "$GSL_DIRS" ]; then
    nice -n "$NICE" make -C "$b" -k -j"$JOBS"
  else
    nice -n "$NICE" make -C "$b/gsl" -j"$JOBS" || return
    for d in $(lib_dirs); do
      nice -n "$NICE" make -C "$b/$d" -j"$JOBS" || return
    done
  fi
}

make_tests() {
  local b=$1 d
  if [ -z "$GSL_DIRS" ]; then
    nice -n "$NICE" make -C "$b" -k -j"$JOBS" check TESTS=
  else
    for d in $GSL_DIRS; do
      nice -n "$NICE" make -C "$b/$d" -j"$JOBS" check TESTS= || return
    done
  fi
}

# build KIND: library then test programs, timed; records CPU seconds,
# crashes and offload remarks in $R/build-KIND.txt.
build() {
  local kind=$1 b=$G/$1
  # The stamp names the subset and, for the idiom build, the plugin and
  # runtime it was built with: a changed plugin rebuilds.
  local stamp="$GSL_DIRS"
  [ "$kind" = idiom ] && stamp+=" $(cat "$IDIOM_BUILD/lib/libIdiom.so" "$IDIOM_BUILD/lib/libidiomrt.a" | md5sum)"
  if [ -f "$b/.rw-built" ] && [ "${FRESH:-0}" != 1 ] &&
     [ "$(cat "$b/.rw-built")" = "$stamp" ]; then
    rw_log "$kind build present"
    return 0
  fi
  rw_log "configure $kind"
  configure_build "$kind"
  rw_log "build $kind library"
  local tl tt rc=0
  tl=$(rw_timed "$R/build-$kind.log" make_lib "$b") || rc=1
  rw_log "build $kind tests"
  tt=$(rw_timed "$R/build-$kind-tests.log" make_tests "$b") || rc=1
  {
    echo "cpu_lib_s $tl"
    echo "cpu_tests_s $tt"
    echo "build_ok $((1 - rc))"
    echo "crashes $(( $(rw_crashes "$R/build-$kind.log") + $(rw_crashes "$R/build-$kind-tests.log") ))"
    echo "offloads_lib $(rw_offloads "$R/build-$kind.log")"
    echo "offloads_tests $(rw_offloads "$R/build-$kind-tests.log")"
  } > "$R/build-$kind.txt"
  [ $rc = 0 ] || { rw_log "$kind build FAILED (see $R/build-$kind*.log)"; return 1; }
  echo "$stamp" > "$b/.rw-built"
}

# run_tests MODE: make -k check in the matching build, each test under
# timeout; collects results and logs.
run_tests() {
  local mode=$1 kind=idiom t=$TEST_TIMEOUT envs=()
  case "$mode" in
    plain) kind=plain ;;
    default) ;;
    forced) t=$FORCED_TIMEOUT; envs=(IDIOM_MIN_TRIP=0 $FORCED_ENV) ;;
    *) rw_die "unknown mode $mode" ;;
  esac
  local b=$G/$kind
  rw_log "tests: $mode (${envs[*]:-defaults}, timeout ${t}s per test)"
  local dirs=("")
  if [ -n "$GSL_DIRS" ]; then
    dirs=($GSL_DIRS)
  fi
  local d
  local TIMEFORMAT='%0R'
  {
    time for d in "${dirs[@]}"; do
      env "${envs[@]}" nice -n "$NICE" make -C "$b/$d" -k -j"$JOBS" check \
        LOG_COMPILER="$WORK/bin/run-test" LOG_FLAGS="$t"
    done >"$R/check-$mode.log" 2>&1
  } 2>"$R/check-$mode.time"
  rw_collect_results "$b" "$R/$mode.txt"
  # A time-out is FAIL to automake; name it.
  local tst
  for tst in $(awk '$2=="FAIL"{print $1}' "$R/$mode.txt"); do
    if grep -q '^run-test: TIMEOUT' "$b/$tst.log" 2>/dev/null; then
      sed -i "s|^$tst FAIL\$|$tst TIMEOUT|" "$R/$mode.txt"
    fi
  done
  rm -rf "$R/$mode-logs"
  mkdir -p "$R/$mode-logs"
  (cd "$b" && find . -name 'test*.log' ! -name test-suite.log | while read -r f; do
     mkdir -p "$R/$mode-logs/$(dirname "$f")"
     cp "$f" "$R/$mode-logs/$f"
   done)
}

STATUS=0
case " $MODES " in *" plain "*) build plain || STATUS=1 ;; esac
case " $MODES " in *" default "*|*" forced "*) build idiom || STATUS=1 ;; esac
# BUILD_ONLY=1: stop after the builds (the test programs are then run
# elsewhere, e.g. by bench/gsl_device.sh on a machine without LLVM).
[ "${BUILD_ONLY:-0}" = 1 ] && exit $STATUS
for m in $MODES; do
  run_tests "$m"
done

# Summary: per test program, its result in each mode; regressions against
# the plain build.
{
  echo "# GSL 2.7.1 with Idiom ($(date -u +%Y-%m-%dT%H:%MZ))"
  echo "# GSL_DIRS=${GSL_DIRS:-all} FORCED_ENV=${FORCED_ENV:-none} FORCED_TIMEOUT=$FORCED_TIMEOUT"
  for k in plain idiom; do
    [ -f "$R/build-$k.txt" ] && sed "s/^/build-$k /" "$R/build-$k.txt"
  done
  for m in plain default forced; do
    [ -f "$R/$m.txt" ] || continue
    echo "check-$m wall_s $(cat "$R/check-$m.time" 2>/dev/null)"
    echo "check-$m $(awk '{n[$2]++} END {for (r in n) printf "%s=%d ", r, n[r]}' "$R/$m.txt")"
  done
  echo "# test plain default forced"
  join -a1 -a2 -e - -o 0,1.2,2.2 <(sort "$R/plain.txt" 2>/dev/null) \
    <(sort "$R/default.txt" 2>/dev/null) |
    join -a1 -a2 -e - -o 0,1.2,1.3,2.2 - <(sort "$R/forced.txt" 2>/dev/null)
} > "$R/summary.txt"
cat "$R/summary.txt"

crashes=$(cat "$R"/build-*.txt 2>/dev/null | awk '$1=="crashes"{s+=$2} END {print s+0}')
[ "$crashes" = 0 ] || { echo "gsl.sh: $crashes compiler crash(es)"; STATUS=1; }
# A regression: PASS in the plain build, not PASS in an idiom mode.
regress=$(awk '!/^#/ && NF==4 && $2=="PASS" && (($3!="PASS" && $3!="-") || ($4!="PASS" && $4!="-")) {print $1}' \
  <(sed -n '/^# test plain/,$p' "$R/summary.txt"))
if [ -n "$regress" ]; then
  echo "gsl.sh: tests that pass plain but not with the plugin: $regress"
  STATUS=1
fi
exit $STATUS
