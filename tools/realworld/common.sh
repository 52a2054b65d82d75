# common.sh - shared helpers for the tools/realworld/ scripts (sourced, not run).
#
# A script sets IDIOM_BUILD (the plugin's CMake build directory) and WORK (its
# working directory), then calls these functions. Nothing here touches the
# system's apt configuration: sources, lists and caches live under $WORK/apt.

set -u

rw_die() {
  echo "${0##*/}: error: $*" >&2
  exit 2
}

rw_log() {
  echo "[${0##*/} $(date +%H:%M:%S)] $*" >&2
}

# rw_check_tools: the compiler, plugin and runtime exist.
rw_check_tools() {
  CLANG=${CLANG:-clang-19}
  command -v "$CLANG" >/dev/null 2>&1 || rw_die "compiler not found: $CLANG"
  [ -f "$IDIOM_BUILD/lib/libIdiom.so" ] ||
    rw_die "plugin not found: $IDIOM_BUILD/lib/libIdiom.so (build it first)"
  [ -f "$IDIOM_BUILD/lib/libidiomrt.a" ] ||
    rw_die "runtime not found: $IDIOM_BUILD/lib/libidiomrt.a"
  command -v timeout >/dev/null 2>&1 || rw_die "timeout (coreutils) not found"
}

# rw_setup ARGS...: the scripts' common start: IDIOM_BUILD from $1 (the
# plugin's build directory), WORK from $2 (default /tmp/idiom-realworld,
# created), JOBS (default 2), NICE (default 10), MODES (default "plain
# default forced"), IDIOM_CACHE_DIR (default WORK/idiom-cache, exported),
# rw_check_tools, and the compiler wrappers in WORK/bin (rw_make_cc).
rw_setup() {
  [ $# -ge 1 ] || { echo "usage: $0 IDIOM_BUILD_DIR [WORK_DIR]" >&2; exit 2; }
  IDIOM_BUILD=$(cd "$1" && pwd) || rw_die "no such directory: $1"
  WORK=${2:-/tmp/idiom-realworld}
  mkdir -p "$WORK"
  WORK=$(cd "$WORK" && pwd)
  JOBS=${JOBS:-2}
  NICE=${NICE:-10}
  MODES=${MODES:-plain default forced}
  export IDIOM_CACHE_DIR=${IDIOM_CACHE_DIR:-$WORK/idiom-cache}
  rw_check_tools
  rw_make_cc "$WORK/bin"
}

# rw_debian_uri: the URI of the system's main Debian repository (the first
# deb.debian.org-style "debian" URI in /etc/apt/sources.list*, else
# deb.debian.org).
rw_debian_uri() {
  local u
  u=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
          /etc/apt/sources.list.d/*.sources 2>/dev/null |
      sed -n -e 's/^[[:space:]]*URIs:[[:space:]]*\([^[:space:]]*\).*/\1/p' \
             -e 's/^[[:space:]]*deb[[:space:]]\+\(\[[^]]*\][[:space:]]\+\)\?\([^[:space:]]*\).*/\2/p' |
      grep -E '/debian/?$' | head -n 1)
  echo "${u:-http://deb.debian.org/debian}"
}

# rw_debian_suite: the system's Debian codename (bookworm on Debian 12).
rw_debian_suite() {
  local s
  s=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
  echo "${s:-bookworm}"
}

# rw_fetch SRCPKG DIRGLOB [MARKER]: apt-get source SRCPKG into $WORK/src
# (once), with a private sources list holding one deb-src line for the
# system's repository. MARKER (default configure) is a file the unpacked
# source must hold (CMakeLists.txt for a CMake project). Sets SRC to the
# unpacked directory.
rw_fetch() {
  local pkg=$1 glob=$2 marker=${3:-configure} apt=$WORK/apt
  mkdir -p "$apt/sources.list.d" "$apt/lists/partial" "$apt/cache/archives/partial" \
           "$WORK/src"
  SRC=$(ls -d "$WORK"/src/$glob 2>/dev/null | head -n 1)
  if [ -n "$SRC" ] && [ -f "$SRC/$marker" ]; then
    rw_log "source present: $SRC"
    return 0
  fi
  echo "deb-src $(rw_debian_uri) $(rw_debian_suite) main" > "$apt/sources.list"
  local opts=(-o "Dir::Etc::sourcelist=$apt/sources.list"
              -o "Dir::Etc::sourceparts=$apt/sources.list.d"
              -o "Dir::State::Lists=$apt/lists"
              -o "Dir::Cache=$apt/cache")
  rw_log "apt-get update (private lists in $apt)"
  apt-get "${opts[@]}" -q update >"$WORK/apt-update.log" 2>&1 ||
    rw_die "apt-get update failed, see $WORK/apt-update.log"
  rw_log "apt-get source $pkg"
  (cd "$WORK/src" && apt-get "${opts[@]}" -q --only-source source "$pkg") \
    >"$WORK/apt-source-$pkg.log" 2>&1 ||
    rw_die "apt-get source $pkg failed, see $WORK/apt-source-$pkg.log"
  SRC=$(ls -d "$WORK"/src/$glob 2>/dev/null | head -n 1)
  [ -n "$SRC" ] && [ -f "$SRC/$marker" ] || rw_die "no $marker in $WORK/src/$glob"
}

# rw_make_cc DIR: writes DIR/idiom-cc, for use as CC (and, with the driver,
# DIR/idiom-c++, for use as CXX, the same with clang++): the build's driver
# ($IDIOM_BUILD/bin/idiom-cc, which adds the plugin and, when linking, the
# runtime) running $CLANG, with the offload remarks (-Rpass=idiom-offload). Without
# the driver (an older build) it is clang with -fpass-plugin and the runtime
# is left to LIBS (rw_plugin_libs). With RW_VERIFY=1 (default) it adds
# -fverify-intermediate-code: IR that the plugin leaves invalid is a
# compiler error (counted as a crash), not a silently miscompiled object.
rw_make_cc() {
  local RW_VERIFY_FLAG=""
  [ "${RW_VERIFY:-1}" = 1 ] && RW_VERIFY_FLAG=-fverify-intermediate-code
  local dir=$1
  mkdir -p "$dir"
  if [ -x "$IDIOM_BUILD/bin/idiom-cc" ]; then
    cat > "$dir/idiom-cc" <<EOS
#!/bin/sh
IDIOM_CLANG=$CLANG exec $IDIOM_BUILD/bin/idiom-cc -Rpass=idiom-offload ${RW_VERIFY_FLAG-} "\$@"
EOS
    cat > "$dir/idiom-c++" <<EOS
#!/bin/sh
IDIOM_CLANGXX=${CLANG/clang/clang++} exec $IDIOM_BUILD/bin/idiom-c++ -Rpass=idiom-offload ${RW_VERIFY_FLAG-} "\$@"
EOS
    chmod +x "$dir/idiom-c++"
  else
    cat > "$dir/idiom-cc" <<EOS
#!/bin/sh
exec $CLANG -fpass-plugin=$IDIOM_BUILD/lib/libIdiom.so -Rpass=idiom-offload ${RW_VERIFY_FLAG-} "\$@"
EOS
  fi
  chmod +x "$dir/idiom-cc"
}

# rw_plugin_libs: LIBS for the idiom builds: nothing when the driver links
# the runtime itself.
rw_plugin_libs() {
  [ -x "$IDIOM_BUILD/bin/idiom-cc" ] || echo "-L$IDIOM_BUILD/lib -lidiomrt -lm"
}

# rw_timed LOG CMD...: runs CMD with stdout+stderr to LOG; prints the
# user+system CPU seconds of CMD and its children on stdout; returns CMD's
# status.
rw_timed() {
  local log=$1 rc=0
  shift
  local TIMEFORMAT='%3U %3S'
  { time "$@" >"$log" 2>&1 || rc=$?; } 2>"$log.time"
  awk '{printf "%.1f\n", $1+$2}' "$log.time"
  return $rc
}

# rw_crashes LOG: number of compiler crashes in a build log.
rw_crashes() {
  # One "PLEASE submit" banner per crashed or aborted (broken IR) compile.
  grep -c 'PLEASE submit a bug report' "$1" || true
}

# rw_offloads LOG: number of offloaded loop copies in a build log. The
# plugin reports each source loop once per compile, with "(N inlined
# copies)" when inlining made N of them; that counts N.
rw_offloads() {
  awk '/remark: offloaded / {
    if (match($0, /\([0-9]+ inlined copies\)/)) n += substr($0, RSTART + 1) + 0
    else n++
  } END { print n + 0 }' "$1"
}

# rw_collect_results BUILDDIR OUT: one line "dir/test RESULT" per automake
# test (from the .trs files) into OUT, sorted.
rw_collect_results() {
  local b=$1 out=$2
  (cd "$b" && find . -name '*.trs' | sort | while read -r t; do
     r=$(sed -n 's/^:global-test-result: //p' "$t")
     echo "${t#./} ${r:-UNKNOWN}"
   done | sed 's/\.trs / /') > "$out"
}

# rw_mode MODE TIMEOUT FORCED_TIMEOUT: what a test mode runs: RW_KIND (the
# build: plain for plain, idiom for default and forced), RW_TIMEOUT
# (TIMEOUT, FORCED_TIMEOUT in the forced mode) and RW_ENV (an array, the
# environment: IDIOM_MIN_TRIP=0 in the forced mode).
rw_mode() {
  RW_KIND=idiom RW_TIMEOUT=$2 RW_ENV=()
  case "$1" in
    plain) RW_KIND=plain ;;
    default) ;;
    forced) RW_TIMEOUT=$3; RW_ENV=(IDIOM_MIN_TRIP=0) ;;
    *) rw_die "unknown mode $1" ;;
  esac
}

# rw_build_start KIND B: 1 (skip) when B holds a finished build (its stamp
# B/.rw-built) and FRESH is not 1; else empties B and returns 0. Sets
# RW_CC, RW_CXX and RW_LIBS for KIND (plain: $CLANG and its clang++;
# idiom: the wrappers of rw_make_cc and rw_plugin_libs).
rw_build_start() {
  local kind=$1 b=$2
  if [ -f "$b/.rw-built" ] && [ "${FRESH:-0}" != 1 ]; then
    rw_log "$kind build present"
    return 1
  fi
  rm -rf "$b"
  mkdir -p "$b"
  RW_CC=$CLANG RW_CXX=${CLANG/clang/clang++} RW_LIBS=""
  if [ "$kind" = idiom ]; then
    RW_CC=$WORK/bin/idiom-cc
    [ -x "$WORK/bin/idiom-c++" ] && RW_CXX=$WORK/bin/idiom-c++
    RW_LIBS=$(rw_plugin_libs)
  fi
  return 0
}

# rw_build_end KIND B R CPU RC: writes R/build-KIND.txt from
# R/build-KIND.log (cpu_lib_s CPU, build_ok, compiles: libtool's own
# compile lines and the other lines with -c, crashes, offloads_lib) and
# stamps B when RC is 0; returns 1 otherwise.
rw_build_end() {
  local kind=$1 b=$2 r=$3 cpu=$4 rc=$5 log=$3/build-$1.log
  {
    echo "cpu_lib_s $cpu"
    echo "build_ok $((rc == 0))"
    echo "compiles $(( $(grep -c '^libtool: compile:' "$log") +
                       $(grep -e ' -c ' "$log" | grep -vc libtool) ))"
    echo "crashes $(rw_crashes "$log")"
    echo "offloads_lib $(rw_offloads "$log")"
  } > "$r/build-$kind.txt"
  [ "$rc" = 0 ] || { rw_log "$kind build FAILED"; return 1; }
  touch "$b/.rw-built"
}

# rw_autotools_build KIND SRC B R [CONFIGURE_ARGS...]: configures
# (SRC/configure --disable-shared CC LIBS) and makes (make -k -j JOBS) an
# autotools project in B, timed; R/configure-KIND.log, R/build-KIND.log,
# R/build-KIND.txt (rw_build_end). Returns 1 when the build failed.
rw_autotools_build() {
  local kind=$1 src=$2 b=$3 r=$4
  shift 4
  rw_build_start "$kind" "$b" || return 0
  mkdir -p "$r"
  rw_log "configure $kind"
  (cd "$b" && nice -n "$NICE" "$src/configure" --disable-shared \
     CC="$RW_CC" LIBS="$RW_LIBS" "$@") >"$r/configure-$kind.log" 2>&1 ||
    rw_die "configure ($kind) failed, see $r/configure-$kind.log"
  rw_log "build $kind"
  local cpu rc=0
  cpu=$(rw_timed "$r/build-$kind.log" nice -n "$NICE" make -C "$b" -k -j"$JOBS") || rc=1
  rw_build_end "$kind" "$b" "$r" "$cpu" $rc
}

# rw_cmake_build KIND SRC B R [CMAKE_ARGS...]: configures and builds a CMake
# project from SRC in B, the plain or the idiom build (rw_build_start),
# static, CFLAGS -g -O2 (autotools' default), tests on; the test programs
# are part of the timed build. R/configure-KIND.log, R/build-KIND.log,
# R/build-KIND.txt (rw_build_end). Returns 1 when the build failed.
rw_cmake_build() {
  local kind=$1 src=$2 b=$3 r=$4
  shift 4
  rw_build_start "$kind" "$b" || return 0
  mkdir -p "$r"
  rw_log "configure $kind"
  (cd "$b" && nice -n "$NICE" cmake -S "$src" -B . -DCMAKE_BUILD_TYPE= \
     -DCMAKE_C_COMPILER="$RW_CC" -DCMAKE_CXX_COMPILER="$RW_CXX" \
     -DCMAKE_C_FLAGS="-g -O2" -DCMAKE_CXX_FLAGS="-g -O2" \
     -DCMAKE_EXE_LINKER_FLAGS="$RW_LIBS" -DBUILD_SHARED_LIBS=OFF \
     -DBUILD_TESTING=ON "$@") >"$r/configure-$kind.log" 2>&1 ||
    rw_die "configure ($kind) failed, see $r/configure-$kind.log"
  rw_log "build $kind"
  local cpu rc=0
  cpu=$(rw_timed "$r/build-$kind.log" nice -n "$NICE" \
          cmake --build "$b" -j "$JOBS" -- -k VERBOSE=1) || rc=1
  rw_build_end "$kind" "$b" "$r" "$cpu" $rc
}

# rw_cmake_project NAME TITLE [CMAKE_ARGS...]: the whole run of a CMake
# project whose source is $SRC: the builds that MODES needs in
# WORK/NAME/{plain,idiom}, each mode's ctest (plain; default; forced:
# IDIOM_MIN_TRIP=0; limits TEST_TIMEOUT, default 600 s, and
# FORCED_TIMEOUT, default 1200 s), the summary and the verdict
# (WORK/NAME/results). Returns the verdict.
rw_cmake_project() {
  local name=$1 title=$2 st=0 m
  shift 2
  TEST_TIMEOUT=${TEST_TIMEOUT:-600}
  FORCED_TIMEOUT=${FORCED_TIMEOUT:-1200}
  local d=$WORK/$name r=$WORK/$name/results
  mkdir -p "$r"
  case " $MODES " in *" plain "*)
    rw_cmake_build plain "$SRC" "$d/plain" "$r" "$@" || st=1 ;; esac
  case " $MODES " in *" default "*|*" forced "*)
    rw_cmake_build idiom "$SRC" "$d/idiom" "$r" "$@" || st=1 ;; esac
  for m in $MODES; do
    rw_mode "$m" "$TEST_TIMEOUT" "$FORCED_TIMEOUT"
    rw_ctest "$m" "$d/$RW_KIND" "$r" "$RW_TIMEOUT" "${RW_ENV[@]}"
  done
  rw_summary "$title" "$r"
  rw_verdict "$name" "$r" || st=1
  return $st
}

# rw_ctest MODE B R TIMEOUT [ENV...]: runs the CMake project's tests in B
# (ctest, one at a time, each under ctest's --timeout TIMEOUT) with the
# environment ENV; writes R/ctest-MODE.log and R/MODE.txt ("test RESULT"
# lines, RESULT PASS, FAIL or TIMEOUT).
rw_ctest() {
  local mode=$1 b=$2 r=$3 t=$4
  shift 4
  rw_log "tests: $mode (${*:-defaults}, timeout ${t}s per test)"
  env "$@" nice -n "${NICE:-10}" ctest --test-dir "$b" --timeout "$t" \
    >"$r/ctest-$mode.log" 2>&1 || true
  sed -n 's/^ *[0-9]*\/[0-9]* Test *#[0-9]*: \([^ ]*\) \.*[*]* *\([A-Za-z]*\).*/\1 \2/p' \
    "$r/ctest-$mode.log" |
    awk '{r = ($2 == "Passed") ? "PASS" : ($2 == "Timeout" ? "TIMEOUT" : "FAIL"); print $1, r}' |
    sort > "$r/$mode.txt"
}

# rw_verdict NAME R: prints the failures and returns 1 when a build crashed
# or a test passing in R/plain.txt does not pass in R/default.txt or
# R/forced.txt.
rw_verdict() {
  local name=$1 r=$2 st=0 crashes m
  crashes=$(cat "$r"/build-*.txt 2>/dev/null | awk '$1=="crashes"{s+=$2} END {print s+0}')
  [ "$crashes" = 0 ] || { echo "$name: $crashes compiler crash(es)"; st=1; }
  for m in default forced; do
    [ -f "$r/$m.txt" ] && [ -f "$r/plain.txt" ] || continue
    local bad
    bad=$(awk 'NR == FNR { if ($2 == "PASS") p[$1] = 1; next }
               ($1 in p) && $2 != "PASS" { printf "%s %s; ", $1, $2 }' \
            "$r/plain.txt" "$r/$m.txt")
    [ -z "$bad" ] || { echo "$name: mode $m: $bad"; st=1; }
  done
  return $st
}

# rw_summary TITLE R: R/summary.txt from R/build-*.txt and R/<mode>.txt.
rw_summary() {
  local title=$1 r=$2 k m
  {
    echo "# $title with Idiom ($(date -u +%Y-%m-%dT%H:%MZ))"
    for k in plain idiom; do
      [ -f "$r/build-$k.txt" ] && sed "s/^/build-$k /" "$r/build-$k.txt"
    done
    for m in plain default forced; do
      [ -f "$r/$m.txt" ] || continue
      awk -v m="$m" '{n[$2]++} END {printf "tests-%s", m; for (k in n) printf " %s=%d", k, n[k]; print ""}' "$r/$m.txt"
    done
  } > "$r/summary.txt"
  cat "$r/summary.txt"
}
