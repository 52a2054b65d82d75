// Issue 12: start-up without the ICD loader (runtime/lib/cl_direct.c). A
// run that opens the device through libOpenCL.so.1 records the vendor
// library of its platform in IDIOM_CACHE_DIR (icd-<pref>.txt); the next
// run of the program opens that library directly (clIcdGetPlatformIDsKHR,
// the platform's ICD dispatch table) and checks that the platform and
// device are the record's. Every run prints what the sequential build
// prints. Negatives, each through the loader again with its reason and in
// the same start-up: a record naming a library that does not exist, one
// whose platform name differs, a corrupt one, IDIOM_OPENCL_LIBRARY set
// (never direct, no record written), a changed OCL_ICD_VENDORS value, the
// disk cache off, and the second (CPU) device of the two-device mode.
// IDIOM_COST=off: the first call opens the device and runs on it.
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom -g %s -lidiomrt -o %t.idiom
// RUN: %t.seq > %t.expected
// RUN: rm -rf %t.cache
//
// Cold: no record; the loader, then the record.
// RUN: env IDIOM_COST=off IDIOM_CACHE_DIR=%t.cache IDIOM_DEBUG=1 IDIOM_STATS=1 %t.idiom > %t.out1 2> %t.err1
// RUN: diff %t.expected %t.out1
// RUN: FileCheck --check-prefix=COLD %s < %t.err1
// COLD: OpenCL: through the ICD loader (no record): platform and device in
// COLD: OpenCL: recorded {{/.*libpocl[^ ]*}} (platform Portable Computing Language) in {{.*}}/icd-auto.txt
// COLD: idiom-stats: icd-direct.c:{{[0-9]+}} scalar-reduction calls=2 offloaded=2
// RUN: FileCheck --check-prefix=RECORD %s < %t.cache/icd-auto.txt
// RECORD: idiom-icd 1
// RECORD-NEXT: view {{[0-9a-f]+}}
// RECORD-NEXT: library {{/.*libpocl.*}}
// RECORD-NEXT: platform Portable Computing Language
// RECORD-NEXT: device {{.+}}
// RECORD-NEXT: check {{[0-9a-f]+}}
//
// Warm: the vendor library directly, the libOpenCL.so.1 loader never loaded;
// the record is left as it is.
// RUN: cp %t.cache/icd-auto.txt %t.rec
// RUN: env IDIOM_COST=off IDIOM_CACHE_DIR=%t.cache IDIOM_DEBUG=1 IDIOM_STATS=1 %t.idiom > %t.out2 2> %t.err2
// RUN: diff %t.expected %t.out2
// RUN: FileCheck --check-prefix=DIRECT %s < %t.err2
// RUN: not grep -q "loaded libOpenCL.so.1" %t.err2
// RUN: not grep -q "OpenCL: recorded" %t.err2
// RUN: cmp %t.rec %t.cache/icd-auto.txt
// DIRECT: OpenCL: opened {{/.*libpocl[^ ]*}} directly: platform and device in
// DIRECT: idiom-stats: icd-direct.c:{{[0-9]+}} scalar-reduction calls=2 offloaded=2
//
// A library that does not exist: the loader, and the record made anew.
// RUN: python3 %S/Inputs/icd_record_edit.py set library /nonexistent/libnovendor.so %t.cache/icd-auto.txt
// RUN: env IDIOM_COST=off IDIOM_CACHE_DIR=%t.cache IDIOM_DEBUG=1 IDIOM_STATS=1 %t.idiom > %t.out3 2> %t.err3
// RUN: diff %t.expected %t.out3
// RUN: FileCheck --check-prefix=NOLIB %s < %t.err3
// RUN: cmp %t.rec %t.cache/icd-auto.txt
// NOLIB: OpenCL: through the ICD loader (cannot load the recorded /nonexistent/libnovendor.so: {{.+}}): platform and device in
// NOLIB: OpenCL: recorded {{/.*libpocl}}
// NOLIB: idiom-stats: icd-direct.c:{{[0-9]+}} scalar-reduction calls=2 offloaded=2
//
// Another platform name: the library is opened, the choice differs.
// RUN: python3 %S/Inputs/icd_record_edit.py set platform "Some Other Platform" %t.cache/icd-auto.txt
// RUN: env IDIOM_COST=off IDIOM_CACHE_DIR=%t.cache IDIOM_DEBUG=1 IDIOM_STATS=1 %t.idiom > %t.out4 2> %t.err4
// RUN: diff %t.expected %t.out4
// RUN: FileCheck --check-prefix=PLATFORM %s < %t.err4
// RUN: cmp %t.rec %t.cache/icd-auto.txt
// PLATFORM: OpenCL: through the ICD loader ({{/.*libpocl[^ ]*}}: platform "Portable Computing Language", not the recorded "Some Other Platform"): platform and device in
// PLATFORM: OpenCL: recorded
// PLATFORM: idiom-stats: icd-direct.c:{{[0-9]+}} scalar-reduction calls=2 offloaded=2
//
// Another device name.
// RUN: python3 %S/Inputs/icd_record_edit.py set device "Some Other Device" %t.cache/icd-auto.txt
// RUN: env IDIOM_COST=off IDIOM_CACHE_DIR=%t.cache IDIOM_DEBUG=1 %t.idiom > %t.out5 2> %t.err5
// RUN: diff %t.expected %t.out5
// RUN: FileCheck --check-prefix=DEVICE %s < %t.err5
// RUN: cmp %t.rec %t.cache/icd-auto.txt
// DEVICE: OpenCL: through the ICD loader ({{/.*libpocl[^ ]*}}: device "{{.+}}", not the recorded "Some Other Device"): platform and device in
//
// A corrupt record (its check fails).
// RUN: python3 %S/Inputs/icd_record_edit.py corrupt %t.cache/icd-auto.txt
// RUN: env IDIOM_COST=off IDIOM_CACHE_DIR=%t.cache IDIOM_DEBUG=1 %t.idiom > %t.out6 2> %t.err6
// RUN: diff %t.expected %t.out6
// RUN: FileCheck --check-prefix=CORRUPT %s < %t.err6
// RUN: cmp %t.rec %t.cache/icd-auto.txt
// CORRUPT: OpenCL: through the ICD loader (the record is malformed or corrupt): platform and device in
//
// IDIOM_OPENCL_LIBRARY set (even to the default name): never direct, and
// no record written.
// RUN: rm %t.cache/icd-auto.txt
// RUN: env IDIOM_OPENCL_LIBRARY=libOpenCL.so.1 IDIOM_COST=off IDIOM_CACHE_DIR=%t.cache IDIOM_DEBUG=1 %t.idiom > %t.out7 2> %t.err7
// RUN: diff %t.expected %t.out7
// RUN: FileCheck --check-prefix=LIBSET %s < %t.err7
// RUN: not grep -q "OpenCL: recorded" %t.err7
// RUN: test ! -e %t.cache/icd-auto.txt
// RUN: cp %t.rec %t.cache/icd-auto.txt
// RUN: env IDIOM_OPENCL_LIBRARY=libOpenCL.so.1 IDIOM_COST=off IDIOM_CACHE_DIR=%t.cache IDIOM_DEBUG=1 %t.idiom > %t.out7b 2> %t.err7b
// RUN: diff %t.expected %t.out7b
// RUN: FileCheck --check-prefix=LIBSET %s < %t.err7b
// RUN: not grep -q "directly" %t.err7b
// RUN: cmp %t.rec %t.cache/icd-auto.txt
// LIBSET: OpenCL: through the ICD loader (IDIOM_OPENCL_LIBRARY set): platform and device in
//
// What the loader sees changed (OCL_ICD_VENDORS now set, to the same
// directory): the loader, and a record of the new view; the old view then
// differs in turn.
// RUN: env OCL_ICD_VENDORS=/etc/OpenCL/vendors IDIOM_COST=off IDIOM_CACHE_DIR=%t.cache IDIOM_DEBUG=1 %t.idiom > %t.out8 2> %t.err8
// RUN: diff %t.expected %t.out8
// RUN: FileCheck --check-prefix=VIEW %s < %t.err8
// RUN: not cmp -s %t.rec %t.cache/icd-auto.txt
// RUN: env OCL_ICD_VENDORS=/etc/OpenCL/vendors IDIOM_COST=off IDIOM_CACHE_DIR=%t.cache IDIOM_DEBUG=1 %t.idiom > %t.out8b 2> %t.err8b
// RUN: diff %t.expected %t.out8b
// RUN: FileCheck --check-prefix=DIRECT8 %s < %t.err8b
// RUN: env IDIOM_COST=off IDIOM_CACHE_DIR=%t.cache IDIOM_DEBUG=1 %t.idiom > %t.out8c 2> %t.err8c
// RUN: diff %t.expected %t.out8c
// RUN: FileCheck --check-prefix=VIEW %s < %t.err8c
// VIEW: OpenCL: through the ICD loader (what the loader sees changed since the record {{.*}}): platform and device in
// VIEW: OpenCL: recorded
// DIRECT8: OpenCL: opened {{.*}} directly
//
// The disk cache off: the loader, nothing read or written.
// RUN: env IDIOM_COST=off IDIOM_CACHE_DIR=off IDIOM_DEBUG=1 %t.idiom > %t.out9 2> %t.err9
// RUN: diff %t.expected %t.out9
// RUN: FileCheck --check-prefix=NOCACHE %s < %t.err9
// NOCACHE: OpenCL: through the ICD loader (IDIOM_CACHE_DIR=off): platform and device in
//
// The second device (test knob: PoCL's CPU device opened again): through the
// loader whatever the record says, the primary device directly.
// RUN: env IDIOM_TEST_SECOND_CPU=alternate IDIOM_COST=off IDIOM_CACHE_DIR=%t.cache IDIOM_DEBUG=1 IDIOM_STATS=1 %t.idiom > %t.out10 2> %t.err10
// RUN: diff %t.expected %t.out10
// RUN: FileCheck --check-prefix=SECOND %s < %t.err10
// SECOND: OpenCL: opened {{.*}} directly: platform and device in
// SECOND: OpenCL: through the ICD loader (the second device): platform and second device in
//
// A vendor installed: OCL_ICD_VENDORS names a directory of our own with
// the registered .icd files; a run records, the next opens directly; a
// .icd file added (its library does not exist: the loader skips it)
// changes the view, and the loader runs again.
// RUN: rm -rf %t.vendors && mkdir %t.vendors && cp /etc/OpenCL/vendors/*.icd %t.vendors/
// RUN: env OCL_ICD_VENDORS=%t.vendors IDIOM_COST=off IDIOM_CACHE_DIR=%t.cache IDIOM_DEBUG=1 %t.idiom > %t.out11 2> %t.err11
// RUN: diff %t.expected %t.out11
// RUN: FileCheck --check-prefix=VIEW %s < %t.err11
// RUN: env OCL_ICD_VENDORS=%t.vendors IDIOM_COST=off IDIOM_CACHE_DIR=%t.cache IDIOM_DEBUG=1 %t.idiom > %t.out11b 2> %t.err11b
// RUN: diff %t.expected %t.out11b
// RUN: FileCheck --check-prefix=DIRECT8 %s < %t.err11b
// RUN: echo libidiom-no-such-vendor.so > %t.vendors/zz-new.icd
// RUN: env OCL_ICD_VENDORS=%t.vendors IDIOM_COST=off IDIOM_CACHE_DIR=%t.cache IDIOM_DEBUG=1 %t.idiom > %t.out11c 2> %t.err11c
// RUN: diff %t.expected %t.out11c
// RUN: FileCheck --check-prefix=VIEW %s < %t.err11c
// RUN: env OCL_ICD_VENDORS=%t.vendors IDIOM_COST=off IDIOM_CACHE_DIR=%t.cache IDIOM_DEBUG=1 %t.idiom > %t.out11d 2> %t.err11d
// RUN: FileCheck --check-prefix=DIRECT8 %s < %t.err11d
// An .icd file edited in place (the directory's mtime unchanged, the file's
// changed): the loader again.
// RUN: touch -d "2020-01-01 00:00:00" %t.vendors/zz-new.icd
// RUN: env OCL_ICD_VENDORS=%t.vendors IDIOM_COST=off IDIOM_CACHE_DIR=%t.cache IDIOM_DEBUG=1 %t.idiom > %t.out11e 2> %t.err11e
// RUN: diff %t.expected %t.out11e
// RUN: FileCheck --check-prefix=VIEW %s < %t.err11e
#include <stdio.h>

#define N (1 << 16)
static int a[N];

static long isum(const int *x, int n) {
  long s = 0;
  for (int i = 0; i < n; i++)
    s += x[i];
  return s;
}

int main(void) {
  for (int i = 0; i < N; i++)
    a[i] = (i * 7919) % 1000 - 500;
  printf("sum %ld\n", isum(a, N));
  // a second call: under IDIOM_TEST_SECOND_CPU=alternate it goes to the
  // second device
  for (int i = 0; i < N; i += 3)
    a[i] += 1;
  printf("sum %ld\n", isum(a, N));
  return 0;
}
