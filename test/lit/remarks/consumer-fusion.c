// Several consumer loops in one row (passes/ConsumerFusion.h): after the
// row temporaries are privatised, consumer loops with one iteration space
// whose stores are to different elements (another row, plane or parity of
// a grid subscript) and that read nothing another one writes are fused,
// and the nest is a 3-D map with several stores per point (NAS MG's
// prolongation, interp: four consumer loops; a variant with two).
// Negatives, each with its reason: two consumer loops storing the same
// element, a consumer loop reading an element that another one writes, a
// consumer loop reading a temporary's element that the fill loop does not
// write, consumer loops with different trip counts, and a consumer loop
// that runs only under a condition of its own.
// RUN: %clang-idiom -g -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s
#define NM 1026

// NAS MG's interp, grids reached through VLA casts.
void interp(void *oz, int mm1, int mm2, int mm3, void *ou, int n1, int n2) {
  double (*z)[mm2][mm1] = (double (*)[mm2][mm1])oz;
  double (*u)[n2][n1] = (double (*)[n2][n1])ou;
  double z1[NM], z2[NM], z3[NM];
  int i1, i2, i3;
  // CHECK: consumer-fusion.c:[[@LINE+1]]:3: remark: offloaded 3-D map (map)
  for (i3 = 0; i3 < mm3 - 1; i3++)
    for (i2 = 0; i2 < mm2 - 1; i2++) {
      for (i1 = 0; i1 < mm1; i1++) {
        z1[i1] = z[i3][i2 + 1][i1] + z[i3][i2][i1];
        z2[i1] = z[i3 + 1][i2][i1] + z[i3][i2][i1];
        z3[i1] = z[i3 + 1][i2 + 1][i1] + z[i3 + 1][i2][i1] + z1[i1];
      }
      for (i1 = 0; i1 < mm1 - 1; i1++) {
        u[2 * i3][2 * i2][2 * i1] += z[i3][i2][i1];
        u[2 * i3][2 * i2][2 * i1 + 1] += 0.5 * (z[i3][i2][i1 + 1] + z[i3][i2][i1]);
      }
      for (i1 = 0; i1 < mm1 - 1; i1++) {
        u[2 * i3][2 * i2 + 1][2 * i1] += 0.5 * z1[i1];
        u[2 * i3][2 * i2 + 1][2 * i1 + 1] += 0.25 * (z1[i1] + z1[i1 + 1]);
      }
      for (i1 = 0; i1 < mm1 - 1; i1++) {
        u[2 * i3 + 1][2 * i2][2 * i1] += 0.5 * z2[i1];
        u[2 * i3 + 1][2 * i2][2 * i1 + 1] += 0.25 * (z2[i1] + z2[i1 + 1]);
      }
      for (i1 = 0; i1 < mm1 - 1; i1++) {
        u[2 * i3 + 1][2 * i2 + 1][2 * i1] += 0.25 * z3[i1];
        u[2 * i3 + 1][2 * i2 + 1][2 * i1 + 1] += 0.125 * (z3[i1] + z3[i1 + 1]);
      }
    }
}

// Two consumer loops: the rows 2*i2 and 2*i2 + 1 of one plane.
void interp_rows(int mm1, int mm2, int mm3, double (*z)[mm2][mm1], int n1,
                 int n2, double (*u)[n2][n1]) {
  double z1[NM];
  // CHECK: consumer-fusion.c:[[@LINE+1]]:3: remark: offloaded 3-D map (map)
  for (int i3 = 0; i3 < mm3 - 1; i3++)
    for (int i2 = 0; i2 < mm2 - 1; i2++) {
      for (int i1 = 0; i1 < mm1; i1++)
        z1[i1] = z[i3][i2 + 1][i1] + z[i3][i2][i1];
      for (int i1 = 0; i1 < mm1 - 1; i1++)
        u[2 * i3][2 * i2][i1] = z[i3][i2][i1];
      for (int i1 = 0; i1 < mm1 - 1; i1++)
        u[2 * i3][2 * i2 + 1][i1] = 0.25 * (z1[i1] + z1[i1 + 1]);
    }
}

// Two consumer loops store the same element.
void same_element(int mm1, int mm2, int mm3, double (*z)[mm2][mm1], int n1,
                  int n2, double (*u)[n2][n1]) {
  double z1[NM];
  // CHECK: consumer-fusion.c:[[@LINE+1]]:3: remark: row temporaries not privatised: consumer loops not fused: two consumer loops store to the same element (the stores at line [[@LINE+6]]:{{[0-9]+}} and at line [[@LINE+10]]:{{[0-9]+}})
  for (int i3 = 0; i3 < mm3 - 1; i3++)
    for (int i2 = 0; i2 < mm2 - 1; i2++) {
      for (int i1 = 0; i1 < mm1; i1++)
        z1[i1] = z[i3][i2 + 1][i1] + z[i3][i2][i1];
      for (int i1 = 0; i1 < mm1 - 1; i1++) {
        u[2 * i3][2 * i2][2 * i1] += z[i3][i2][i1];
        u[2 * i3][2 * i2][2 * i1 + 1] += z[i3][i2][i1 + 1];
      }
      for (int i1 = 0; i1 < mm1 - 1; i1++)
        u[2 * i3][2 * i2][2 * i1] += 0.5 * z1[i1];
    }
}

// The second consumer loop reads an element of u that the first writes.
void reads_written(int mm1, int mm2, int mm3, double (*z)[mm2][mm1], int n1,
                   int n2, double (*u)[n2][n1]) {
  double z1[NM];
  // CHECK: consumer-fusion.c:[[@LINE+1]]:3: remark: row temporaries not privatised: consumer loops not fused: a consumer loop reads an element that another one writes (the load at line [[@LINE+8]]:{{[0-9]+}}, the store at line [[@LINE+6]]:{{[0-9]+}})
  for (int i3 = 0; i3 < mm3 - 1; i3++)
    for (int i2 = 0; i2 < mm2 - 1; i2++) {
      for (int i1 = 0; i1 < mm1; i1++)
        z1[i1] = z[i3][i2 + 1][i1] + z[i3][i2][i1];
      for (int i1 = 0; i1 < mm1 - 1; i1++)
        u[2 * i3][2 * i2][2 * i1] = z[i3][i2][i1];
      for (int i1 = 0; i1 < mm1 - 1; i1++)
        u[2 * i3][2 * i2 + 1][2 * i1] = 0.5 * z1[i1] + u[2 * i3][2 * i2][2 * i1 + 2];
    }
}

// The second consumer loop reads z1[mm1 - 1], which the fill loop (i1 <
// mm1 - 1) does not write in the row.
void unwritten(int mm1, int mm2, int mm3, double (*z)[mm2][mm1], int n1,
               int n2, double (*u)[n2][n1]) {
  double z1[NM];
  // CHECK: consumer-fusion.c:[[@LINE+1]]:3: remark: row temporaries not privatised: row temporary 'z1' is read beyond the last element its fill loop writes in the row (a value carried from an earlier row)
  for (int i3 = 0; i3 < mm3 - 1; i3++)
    for (int i2 = 0; i2 < mm2 - 1; i2++) {
      for (int i1 = 0; i1 < mm1 - 1; i1++)
        z1[i1] = z[i3][i2 + 1][i1] + z[i3][i2][i1];
      for (int i1 = 0; i1 < mm1 - 1; i1++)
        u[2 * i3][2 * i2][2 * i1] = z[i3][i2][i1];
      for (int i1 = 0; i1 < mm1 - 1; i1++)
        u[2 * i3][2 * i2 + 1][2 * i1] = 0.25 * (z1[i1] + z1[i1 + 1]);
    }
}

// Consumer loops with different trip counts.
void other_count(int mm1, int mm2, int mm3, double (*z)[mm2][mm1], int n1,
                 int n2, double (*u)[n2][n1]) {
  double z1[NM];
  // CHECK: consumer-fusion.c:[[@LINE+1]]:3: remark: row temporaries not privatised: consumer loops not fused: their induction variables start, step or stop differently
  for (int i3 = 0; i3 < mm3 - 1; i3++)
    for (int i2 = 0; i2 < mm2 - 1; i2++) {
      for (int i1 = 0; i1 < mm1; i1++)
        z1[i1] = z[i3][i2 + 1][i1] + z[i3][i2][i1];
      for (int i1 = 0; i1 < mm1 - 1; i1++)
        u[2 * i3][2 * i2][2 * i1] = z[i3][i2][i1];
      for (int i1 = 0; i1 < mm1 - 2; i1++)
        u[2 * i3][2 * i2 + 1][2 * i1] = 0.25 * (z1[i1] + z1[i1 + 1]);
    }
}

// The second consumer loop runs only where a flag of its own is set.
void own_guard(int mm1, int mm2, int mm3, double (*z)[mm2][mm1], int n1,
               int n2, double (*u)[n2][n1], int flag) {
  double z1[NM];
  // CHECK: consumer-fusion.c:[[@LINE+1]]:3: remark: row temporaries not privatised: consumer loops not fused: a consumer loop may run in a row where the first does not, or not run where it does
  for (int i3 = 0; i3 < mm3 - 1; i3++)
    for (int i2 = 0; i2 < mm2 - 1; i2++) {
      for (int i1 = 0; i1 < mm1; i1++)
        z1[i1] = z[i3][i2 + 1][i1] + z[i3][i2][i1];
      for (int i1 = 0; i1 < mm1 - 1; i1++)
        u[2 * i3][2 * i2][2 * i1] = z[i3][i2][i1];
      if (flag)
        for (int i1 = 0; i1 < mm1 - 1; i1++)
          u[2 * i3][2 * i2 + 1][2 * i1] = 0.25 * (z1[i1] + z1[i1 + 1]);
    }
}
