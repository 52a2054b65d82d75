// What a warm run whose sites stay on the host touches at its first calls
// sits in pages every start writes anyway (helper "tinypocl",
// docs/Benchmarks.md): the site's host hint word and idiom_pending_work,
// zero-initialised globals the stitched code reads at the first call, are
// placed in the start-data section (idiomrt.h, IDIOM_START_DATA_SECTION,
// passes/StartData.h), which the linker merges into .data, not in .bss,
// whose pages cost a fault when first read and another when first written;
// so are the runtime's words that the host path reads and writes (the
// cost model's worthy totals, the start-up thread's flags, the run's
// clocks). The runtime's static TLS block, which the dynamic linker clears
// at every start and every thread creation, is below a page (the kernel
// build's 10 KB of variant scratch moved to the heap). Before, .bss held
// all of them (four page faults of bench/policy_tiny.c's warm run) and the
// TLS block was 13 KB. The program (bench/policy_tiny.c) prints what its
// sequential build prints.
// RUN: %clang-idiom -S -emit-llvm %srcroot/bench/policy_tiny.c -o - | FileCheck %s --check-prefix=IR
// IR-DAG: @idiom_main_{{[0-9]+}}.hint = private global i64 0, section ".data.idiomrt_start", align 8
// IR-DAG: @idiom_pending_work = weak {{(dso_local )?}}global i32 0, section ".data.idiomrt_start", align 4
// RUN: %clang -O2 %srcroot/bench/policy_tiny.c -o %t.seq
// RUN: %clang-idiom -g %srcroot/bench/policy_tiny.c -lidiomrt -o %t.idiom
// RUN: %t.seq > %t.expected
// RUN: %t.idiom > %t.out
// RUN: diff %t.expected %t.out
// RUN: llvm-objdump -t %t.idiom | FileCheck %s --check-prefix=SYMS
// SYMS-DAG: {{ O \.data}} {{.*}} idiom_pending_work
// SYMS-DAG: {{ O \.data}} {{.*}} g_worthy_total_ns
// SYMS-DAG: {{ O \.data}} {{.*}} g_worthy_ns
// SYMS-DAG: {{ O \.data}} {{.*}} g_running
// SYMS-DAG: {{ O \.data}} {{.*}} g_started
// SYMS-DAG: {{ O \.data}} {{.*}} g_exit_ns
// SYMS-DAG: {{ O \.data}} {{.*}} g_build_ns
// SYMS-DAG: {{ O \.data}} {{.*}} g_clock_wall_ns
// SYMS-DAG: {{ O \.data}} {{.*}} g_clock_cpu_ns
// RUN: llvm-readelf -lW %t.idiom | FileCheck %s --check-prefix=TLS
// TLS: {{^ *}}TLS {{0x[0-9a-f]+ 0x[0-9a-f]+ 0x[0-9a-f]+ 0x[0-9a-f]+}} 0x000{{[0-9a-f]}}{{[0-9a-f]}}{{[0-9a-f]}} R
