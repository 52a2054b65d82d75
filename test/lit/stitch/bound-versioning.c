// The IR of a loop whose bound is read from memory (BoundVersioning.h):
// the bound is read once in the check block, the check compares the bytes
// of the bound with the range of the loop's stores, the loop behind it is
// stitched, and the unchanged copy is marked as a fallback (idiom.fallback)
// so that no pipeline offloads it. Negatives: a loop with a call that may
// write memory, and a loop whose store address depends on another value read
// in the loop (a scatter through an index), get no copy and keep their
// remark "trip count is not computable".
// RUN: %clang -O2 -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes='loop-simplify,lcssa,idiom-offload' -pass-remarks-missed=idiom-offload -S %t.ll -o %t.out.ll 2> %t.remarks
// RUN: FileCheck %s < %t.out.ll
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks

int n;

// CHECK-LABEL: define {{.*}} @fill(
// CHECK: %[[B:.*]] = load i32, ptr @n
// CHECK: %idiom.bound.ok{{[0-9]*}} = and i1
// CHECK: br i1 %idiom.bound.ok{{[0-9]*}}, label %{{.*}}.bound.ph, label %{{.*}}.bound.orig
// CHECK: call i32 @idiom_run(
// CHECK-LABEL: define {{.*}} @calls(
void fill(int *out) {
  for (int i = 0; i < n; i++)
    out[i] = 3 * i + 1;
}

void touch(int *);
// CHECK-NOT: idiom.bound
// CHECK-LABEL: define {{.*}} @scatter(
// REMARK-DAG: remark: {{.*}}Nest(loop): trip count is not computable
// REMARK-DAG: remark: {{.*}}Nest(loop): trip count is not computable
void calls(int *out) {
  for (int i = 0; i < n; i++) {
    out[i] = i;
    touch(out);
  }
}

// CHECK-NOT: idiom.bound
// CHECK-NOT: call i32 @idiom_run(
// CHECK: ret void
void scatter(int *out, const int *idx) {
  for (int i = 0; i < n; i++)
    out[idx[i]] = i;
}

// The fallback copy of fill's loop.
// CHECK-DAG: !{!"idiom.fallback", i32 0}
