#!/usr/bin/env python3
"""Tests of the idiom-cc and idiom-c++ drivers (tools/driver/).

Usage: driver_test.py BIN_DIR SOURCE_DIR CASE

BIN_DIR holds idiom-cc and idiom-c++ (a build tree's bin/ or an install
prefix's bin/). Each CASE is one CTest test; every check can fail.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

BIN, SRC, CASE = (os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2]),
                  sys.argv[3])
CC = os.path.join(BIN, "idiom-cc")
CXX = os.path.join(BIN, "idiom-c++")
INPUTS = os.path.join(SRC, "test", "driver", "Inputs")
WORK = tempfile.mkdtemp(prefix="idiom-driver-")
ENV = dict(os.environ)
for var in ["IDIOM_DEVICE", "IDIOM_STATS", "IDIOM_MIN_TRIP", "IDIOM_COST",
            "IDIOM_CLANG", "IDIOM_CLANGXX"]:
    ENV.pop(var, None)
ENV["IDIOM_CACHE_DIR"] = "off"
ENV["POCL_CACHE_DIR"] = os.path.join(WORK, "pocl-cache")


def fail(msg):
    print("FAIL (%s): %s" % (CASE, msg))
    sys.exit(1)


def run(cmd, env=None, expect=0):
    """Runs cmd in WORK; returns (stdout, stderr); checks the exit status."""
    p = subprocess.run(cmd, cwd=WORK, env=env or ENV, capture_output=True,
                       text=True, errors="replace")
    if expect is not None and (p.returncode == 0) != (expect == 0):
        fail("%s: exit status %d (expected %s)\nstdout: %s\nstderr: %s" %
             (" ".join(cmd), p.returncode,
              "0" if expect == 0 else "non-zero", p.stdout, p.stderr))
    return p.stdout, p.stderr


def inp(name):
    return os.path.join(INPUTS, name)


def stats_lines(err):
    return [l for l in err.splitlines() if l.startswith("idiom-stats: ")]


def offloaded(err):
    """Sum of offloaded=N over the IDIOM_STATS=1 lines."""
    return sum(int(m.group(1)) for l in stats_lines(err)
               for m in [re.search(r" offloaded=(\d+)", l)] if m)


def has_symbol(binary, sym):
    out = subprocess.run(["nm", binary], cwd=WORK, capture_output=True,
                         text=True).stdout
    return re.search(r"\b%s\b" % re.escape(sym), out) is not None


def case_run():
    """Compile, link and run in one step and in two; C and C++."""
    run([CC, "-O2", "-gline-tables-only", inp("scale.c"), "-o", "prog"])
    env = dict(ENV, IDIOM_DEVICE="cpu", IDIOM_STATS="1")
    out, err = run(["./prog"], env=env)
    if "scale: 0 wrong" not in out:
        fail("wrong output: " + out)
    if offloaded(err) < 1:
        fail("nothing offloaded with IDIOM_DEVICE=cpu:\n" + err)
    if not re.search(r"idiom-stats: \S*scale\.c:\d+ map ", err):
        fail("no stats line for scale.c's map:\n" + err)
    # Separate compile (-c: no link inputs, so no unused-argument warning
    # under -Werror) and link of the object.
    run([CC, "-O2", "-Werror", "-c", inp("scale.c"), "-o", "scale.o"])
    if not has_symbol("scale.o", "idiom_run"):
        fail("scale.o has no call to idiom_run: the plugin did not run")
    run([CC, "-Werror", "scale.o", "-o", "prog2"])
    out, err = run(["./prog2"], env=env)
    if "scale: 0 wrong" not in out or offloaded(err) < 1:
        fail("separately linked program:\n" + out + err)
    # idiom-c++
    run([CXX, "-O2", inp("scale.cpp"), "-o", "progxx"])
    out, err = run(["./progxx"], env=env)
    if "scale: 0 wrong" not in out or offloaded(err) < 1:
        fail("idiom-c++ program:\n" + out + err)


def case_help():
    """--help documents every driver option; --version names Idiom and clang;
    an unknown --idiom- option is an error."""
    for drv, clang in [(CC, "clang-19"), (CXX, "clang++-19")]:
        out, err = run([drv, "--help"])
        for opt in ["--idiom-spec=FILE", "--idiom-device=DEVICE",
                    "--idiom-no-offload", "--idiom-show", "--help",
                    "--version", clang]:
            if opt not in out:
                fail("%s --help does not mention %s:\n%s" % (drv, opt, out))
        if err:
            fail("--help wrote to stderr: " + err)
        out, _ = run([drv, "--version"])
        if "clang version 19" not in out or "(Idiom " not in out:
            fail("--version: " + out)
    # README.md shows idiom-cc --help verbatim (indented by 4).
    with open(os.path.join(SRC, "README.md")) as f:
        readme = f.read()
    at = readme.find("    OVERVIEW: idiom-cc")
    if at < 0:
        fail("README.md does not show idiom-cc --help")
    block = []
    for line in readme[at:].split("\n"):
        if line and not line.startswith("    "):
            break
        block.append(line[4:])
    if "\n".join(block).rstrip("\n") + "\n" != run([CC, "--help"])[0]:
        fail("README.md's idiom-cc --help differs from the output")
    _, err = run([CC, "--idiom-bogus", inp("scale.c")], expect=1)
    if "unknown option --idiom-bogus" not in err:
        fail("unknown option: " + err)
    _, err = run([CC, "--idiom-spec=", inp("scale.c")], expect=1)
    if "--idiom-spec= needs a file name" not in err:
        fail("empty spec name: " + err)
    # A copy of the driver away from the plugin says where it looked.
    shutil.copy(CC, os.path.join(WORK, "lost-cc"))
    _, err = run([os.path.join(WORK, "lost-cc"), "-c", inp("scale.c")],
                 expect=1)
    if "cannot find libIdiom.so and libidiomrt.a in " + WORK not in err:
        fail("driver without plugin: " + err)
    _, err = run([CC, "--idiom-device=fpga", inp("scale.c")], expect=1)
    if "expected auto, gpu, cpu or seq" not in err:
        fail("bad device: " + err)


def case_spec():
    """--idiom-spec=FILE reaches the plugin: with the built-in specs off,
    the map is offloaded only when map.idl is given; a spec with errors is
    reported by the plugin with its file name; a missing file stops the
    driver with a clear error."""
    base = [CC, "-O2", "-c", inp("scale.c"), "-o", "x.o", "-Rpass=idiom-offload",
            "-mllvm", "-idiom-builtin-specs=false"]
    _, err = run(base)
    if "remark: offloaded" in err:
        fail("offloaded without any spec: " + err)
    spec = os.path.join(SRC, "constraints", "specs", "map.idl")
    _, err = run(base + ["--idiom-spec=" + spec])
    if "remark: offloaded map (map)" not in err:
        fail("--idiom-spec=map.idl did not offload the map: " + err)
    out, _ = run(base + ["--idiom-spec=" + spec, "--idiom-spec=" + spec,
                         "--idiom-show"])
    if out.count("-mllvm -idiom-spec=" + spec) != 2:
        fail("--idiom-show does not show both specs: " + out)
    _, err = run([CC, "-O2", "-c", inp("scale.c"), "-o", "x.o",
                  "--idiom-spec=" + inp("bad-spec.idl")], expect=None)
    if "bad-spec.idl:" not in err:
        fail("the plugin did not report the bad spec by name: " + err)
    _, err = run([CC, "-O2", "-c", inp("scale.c"), "-o", "x.o",
                  "--idiom-spec=no/such.idl"], expect=1)
    if "idiom-cc: error: spec file not found: no/such.idl" not in err:
        fail("missing spec file: " + err)


def case_no_offload():
    """--idiom-no-offload: remarks about the idioms, no runtime call."""
    _, err = run([CC, "-O2", "--idiom-no-offload", inp("scale.c"), "-o",
                  "prog"])
    if not re.search(r"scale\.c:\d+:\d+: remark: offloadable map", err):
        fail("no 'offloadable map' remark: " + err)
    if "remark: offloaded" in err:
        fail("offloaded despite --idiom-no-offload: " + err)
    if has_symbol("prog", "idiom_run"):
        fail("the program calls idiom_run")
    env = dict(ENV, IDIOM_DEVICE="cpu", IDIOM_STATS="1")
    out, err = run(["./prog"], env=env)
    if "scale: 0 wrong" not in out or stats_lines(err):
        fail("--idiom-no-offload program: " + out + err)


def case_device():
    """--idiom-device=D bakes a default into the program; IDIOM_DEVICE
    still wins; without the option the default is auto."""
    def pref(binary, env):
        out, err = run(["./" + binary], env=dict(env, IDIOM_STATS="json"))
        m = re.search(r'"device_preference": "(\w+)"', err)
        if not m:
            fail("no device_preference in the JSON report: " + err)
        return m.group(1)
    run([CC, "-O2", "--idiom-device=seq", inp("scale.c"), "-o", "seq"])
    run([CC, "-O2", "--idiom-device=cpu", inp("scale.c"), "-o", "cpu"])
    run([CC, "-O2", inp("scale.c"), "-o", "plain"])
    if pref("seq", ENV) != "seq" or pref("cpu", ENV) != "cpu":
        fail("baked-in default device not used")
    if pref("plain", ENV) != "auto":
        fail("default device without --idiom-device is not auto")
    if pref("seq", dict(ENV, IDIOM_DEVICE="cpu")) != "cpu":
        fail("IDIOM_DEVICE does not win over the baked-in default")
    out, err = run(["./seq"], env=dict(ENV, IDIOM_STATS="1"))
    if offloaded(err) != 0 or "scale: 0 wrong" not in out:
        fail("--idiom-device=seq offloaded: " + err)
    out, err = run(["./cpu"], env=dict(ENV, IDIOM_STATS="1"))
    if offloaded(err) < 1:
        fail("--idiom-device=cpu did not offload: " + err)


def case_configure():
    """What autoconf's configure and make do with CC=idiom-cc: the same
    stdout as clang-19 for -E, -M, -print-*, -dump*, -v and no stray
    warnings (-Werror) for -c, links and preprocessing."""
    with open(os.path.join(WORK, "conftest.c"), "w") as f:
        f.write("#include <stdio.h>\nint main(void) { puts(\"ok\"); "
                "return 0; }\n")
    clang = "clang-19"

    def same(args):
        a = run([CC] + args, expect=None)
        b = run([clang] + args, expect=None)
        if a[0] != b[0]:
            fail("stdout of idiom-cc %s differs from clang-19's:\n%s\n---\n%s"
                 % (" ".join(args), a[0][:2000], b[0][:2000]))
        return a
    same(["-E", "conftest.c"])
    same(["-E", "-dM", "-x", "c", "/dev/null"])
    same(["-M", "conftest.c"])
    same(["-print-prog-name=ld"])
    same(["-print-search-dirs"])
    same(["-print-libgcc-file-name"])
    same(["-dumpversion"])
    same(["-dumpmachine"])
    _, err = run([CC, "-v"])
    if "clang version 19" not in err:
        fail("-v: " + err)
    # -V and -qversion are not clang options: the same failure as clang's.
    run([CC, "-qversion"], expect=1)
    # Compile, link, compile+link, shared object, with -Werror so that an
    # argument the driver adds in the wrong mode fails the test.
    run([CC, "-Werror", "-c", "-g", "-O2", "conftest.c", "-o", "conftest.o"])
    run([CC, "-Werror", "-g", "-O2", "conftest.o", "-o", "conftest"])
    out, _ = run(["./conftest"])
    if out != "ok\n":
        fail("conftest output: " + out)
    run([CC, "-Werror", "-g", "-O2", "conftest.c", "-o", "conftest2", "-lm"])
    run([CC, "-Werror", "-fPIC", "-shared", "conftest.c", "-o", "libc.so"])
    run([CC, "-Werror", "-fsyntax-only", "conftest.c"])
    run([CC, "-Werror", "-MD", "-MF", "conftest.d", "-c", "conftest.c"])
    # A compile error is clang's, with clang's exit status.
    with open(os.path.join(WORK, "broken.c"), "w") as f:
        f.write("int main(void) { return undeclared; }\n")
    _, err = run([CC, "-c", "broken.c"], expect=1)
    if "use of undeclared identifier" not in err:
        fail("compile error not passed through: " + err)
    # What the driver adds in each mode (--idiom-show).
    def show(args):
        return run([CC, "--idiom-show"] + args)[0]
    if "-fpass-plugin=" in show(["-E", "conftest.c"]):
        fail("plugin added to a preprocessing run")
    s = show(["-c", "conftest.c"])
    if "-fpass-plugin=" not in s or "-fplugin=" not in s or "libidiomrt.a" in s:
        fail("compile-only command: " + s)
    s = show(["conftest.o", "-o", "conftest"])
    libs = "libidiomrt.a -Wl,--push-state,--as-needed -lm -Wl,--pop-state"
    if "-fpass-plugin=" in s or libs not in s:
        fail("link-only command: " + s)
    s = show(["conftest.c", "-o", "conftest"])
    if "-fpass-plugin=" not in s or not s.rstrip().endswith(libs):
        fail("compile and link command: " + s)
    # Response files (@FILE) are read to classify the command, and passed on.
    with open(os.path.join(WORK, "compile.rsp"), "w") as f:
        f.write("-c 'conftest.c'\n-o conftest3.o\n")
    s = show(["@compile.rsp"])
    if "-fpass-plugin=" not in s or "libidiomrt.a" in s or "@compile.rsp" not in s:
        fail("response file: " + s)
    run([CC, "-Werror", "@compile.rsp"])
    if not os.path.exists(os.path.join(WORK, "conftest3.o")):
        fail("no object from the response file")
    # An option's value is never a driver option or an input.
    s = show(["-c", "conftest.c", "-o", "--idiom-x.o"])
    if "--idiom-x.o" not in s:
        fail("the value of -o was taken for a driver option: " + s)
    if show(["-print-search-dirs"]).split()[1:] != ["-print-search-dirs"]:
        fail("a command without inputs must reach clang unchanged")
    # IDIOM_CLANG names the compiler; a missing one is a clear error.
    _, err = run([CC, "-c", "conftest.c"],
                 env=dict(ENV, IDIOM_CLANG="no-such-clang"), expect=1)
    if "idiom-cc: error: cannot run no-such-clang" not in err:
        fail("missing compiler: " + err)


CASES = {"run": case_run, "help": case_help, "spec": case_spec,
         "no-offload": case_no_offload, "device": case_device,
         "configure": case_configure}
try:
    CASES[CASE]()
finally:
    shutil.rmtree(WORK, ignore_errors=True)
print("PASS (%s)" % CASE)
