# lit configuration for Idiom's IR-level tests (detection, remarks, lifted
# FunIL, emitted OpenCL, stitched IR) and FunIL driver tests.
import os
import lit.formats

config.name = "Idiom"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".ll", ".c", ".funil", ".test"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.idiom_build_dir, "test", "lit")

llvm_bin = config.llvm_tools_dir
config.environment["PATH"] = os.pathsep.join(
    [llvm_bin, config.environment.get("PATH", "")])
# Keep PoCL's kernel cache and our program cache out of $HOME. The hardened
# build's run of this suite (test/hardened, lit-hardened) shares the release
# build's PoCL cache through IDIOM_LIT_POCL_CACHE: both plugins emit the same
# kernels, so the suite that runs second builds none (CI time, not coverage:
# PoCL's compile is not ours, and the runtime calls clBuildProgram alike).
config.environment["POCL_CACHE_DIR"] = os.environ.get(
    "IDIOM_LIT_POCL_CACHE", os.path.join(config.test_exec_root, "pocl-cache"))
config.environment["IDIOM_CACHE_DIR"] = "off"
for var in ["IDIOM_DEVICE", "IDIOM_STATS", "IDIOM_MIN_TRIP"]:
    config.environment.pop(var, None)

plugin = os.path.join(config.idiom_build_dir, "lib", "libIdiom.so")
libdir = os.path.join(config.idiom_build_dir, "lib")
config.substitutions.append(("%opt", "%s/opt -load-pass-plugin=%s" % (llvm_bin, plugin)))
config.substitutions.append(
    ("%clang-idiom", "%s/clang -O2 -fpass-plugin=%s -L%s" % (llvm_bin, plugin, libdir)))
config.substitutions.append(("%clang", "%s/clang" % llvm_bin))
config.substitutions.append(("%plugin", plugin))
config.substitutions.append(("%libdir", libdir))
config.substitutions.append(("%srcroot", config.idiom_source_dir))
config.substitutions.append(
    ("%idiom-funil", os.path.join(config.idiom_build_dir, "bin", "idiom-funil")))
# The idiom-cc driver, where this build has it (the hardened build of
# tools/hardened/build.sh does not): feature idiom-cc.
idiom_cc = os.path.join(config.idiom_build_dir, "bin", "idiom-cc")
config.substitutions.append(("%idiom-cc", idiom_cc))
if os.path.exists(idiom_cc):
    config.available_features.add("idiom-cc")

# ld.lld of LLVM 19 (package lld-19) for the ThinLTO run test: clang finds it
# next to itself.
if os.path.exists(os.path.join(llvm_bin, "ld.lld")):
    config.available_features.add("lld")

# The hardened build (README, "Hardened build"; lit-hardened): feature
# hardened. run/ is left out there (run/lit.local.cfg says why); its
# start-up policy tests (`grep -l "UNSUPPORTED: hardened"`) could not run
# there in any case: each runs a program 12 to 54 times against edited
# profiles to check which builds begin by the wall clock, which a slower
# runtime shifts.
if config.idiom_hardened.upper() in ("ON", "1", "TRUE", "YES"):
    config.available_features.add("hardened")

# A CPU with FMA (x86 "fma" flag): run tests that execute -mfma builds.
try:
    with open("/proc/cpuinfo") as cpuinfo:
        if any(line.startswith("flags") and "fma" in line.split()
               for line in cpuinfo):
            config.available_features.add("host-fma")
except OSError:
    pass
