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

# rw_fetch SRCPKG DIRGLOB: apt-get source SRCPKG into $WORK/src (once), with a
# private sources list holding one deb-src line for the system's repository.
# Sets SRC to the unpacked directory.
rw_fetch() {
  local pkg=$1 glob=$2 apt=$WORK/apt
  mkdir -p "$apt/sources.list.d" "$apt/lists/partial" "$apt/cache/archives/partial" \
           "$WORK/src"
  SRC=$(ls -d "$WORK"/src/$glob 2>/dev/null | head -n 1)
  if [ -n "$SRC" ] && [ -f "$SRC/configure" ]; then
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
  [ -n "$SRC" ] && [ -f "$SRC/configure" ] || rw_die "no configure in $WORK/src/$glob"
}

# rw_make_cc DIR: writes DIR/idiom-cc, for use as CC: the build's driver
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
