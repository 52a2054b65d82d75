// A bit-vector hash update in a bucket loop, h = (h*w) % p + (h | w): deciding
// whether it is an associative update took 6 s of one compile under the
// wall-clock timeout alone. Under Z3's deterministic resource limit
// (-idiom-z3-rlimit) and the per-loop query budget it must compile quickly
// (the bound below is generous: several times the expected time on a loaded
// machine), and the missed remark must name the limit that stopped it.
// The wall-clock timeout is raised so that only the deterministic limits can
// stop a query, whatever the load of the machine.
// RUN: timeout 60 %clang-idiom -fplugin=%plugin -mllvm -idiom-z3-timeout=600000 -c %s -o /dev/null -Rpass-missed=idiom-offload 2>&1 | FileCheck %s
// A tiny resource limit stops even the easy queries, and says so.
// RUN: timeout 60 %clang-idiom -fplugin=%plugin -mllvm -idiom-z3-timeout=600000 -mllvm -idiom-z3-rlimit=1 -c %s -o /dev/null -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=TINY
// A budget of one query per loop: the loop's remark says the budget ran out.
// RUN: timeout 60 %clang-idiom -fplugin=%plugin -mllvm -idiom-z3-timeout=600000 -mllvm -idiom-loop-z3-queries=1 -c %s -o /dev/null -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=BUDGET

void hash_buckets(unsigned *bins, const unsigned *keys, const unsigned *w,
                  int n, unsigned p) {
  // CHECK: hash-rlimit.c:[[@LINE+3]]:3: remark: {{.*}}resource limit of 1000000 reached (-idiom-z3-rlimit)
  // TINY: hash-rlimit.c:[[@LINE+2]]:3: remark: {{.*}}resource limit of 1 reached (-idiom-z3-rlimit)
  // BUDGET: hash-rlimit.c:[[@LINE+1]]:3: remark: per-loop work budget exceeded: more than 1 solver queries (-idiom-loop-z3-queries)
  for (int i = 0; i < n; i++) {
    unsigned b = keys[i] & 1023;
    unsigned h = bins[b];
    bins[b] = (h * w[i]) % p + (h | w[i]);
  }
}
