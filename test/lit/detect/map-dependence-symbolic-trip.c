// 1-D maps over records of constant size (an array of 5x5 blocks, one block
// per iteration) with a trip count known only at run time: every pair of
// accesses to the same array has the same constant stride and offsets that
// differ by less than a stride (or not by a multiple of it), so no two
// iterations meet whatever the trip count (Z3Checks.cpp, constantStridePair).
// Decided without a solver. Offsets a whole number of strides apart do depend
// on the trip count: Z3 decides, and finds the dependence (negative).
//
// RUN: %clang -O2 -g -fno-vectorize -fno-unroll-loops -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s
// RUN: %clang-idiom -fplugin=%plugin -mllvm -idiom-time-report -DONLY_BLOCKS -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=TIME

double blk[64][5][5];
int nblk;

// CHECK-LABEL: Idioms in function 'fill_blocks'
// CHECK: idiom map
void fill_blocks(double t) {
  for (int i = 0; i < nblk; i++) {
    blk[i][0][0] = t;
    blk[i][0][1] = 2 * t;
    blk[i][1][1] = 3 * t;
    blk[i][4][4] = blk[i][0][0] + 1.0; // reads what this iteration stored
    blk[i][2][3] = blk[i][3][2] * t;
  }
}

// 2-D: the block loop (trip count symbolic) around a loop over the rows of
// a block (5, constant): inner differences are enumerated.
double lhs[64][3][5][5];

// CHECK-LABEL: Idioms in function 'lhs_diagonal'
// CHECK: idiom map (2-D map)
void lhs_diagonal(void) {
  for (int i = 0; i < nblk; i++)
    for (int m = 0; m < 5; m++) {
      lhs[i][1][m][m] = 1.0;
      lhs[i][0][m][4 - m] = 0.0;
      lhs[i][2][m][0] = lhs[i][2][m][1];
    }
}

#ifndef ONLY_BLOCKS
// CHECK-LABEL: Idioms in function 'shift_rows'
// CHECK: no idiom (closest: map){{.*}}loop-carried dependence
void shift_rows(void) {
  for (int i = 0; i < nblk; i++)
    for (int m = 0; m < 4; m++)
      lhs[i][1][m][0] = lhs[i][1][m + 1][0]; // the next row's element
}

// CHECK-LABEL: Idioms in function 'shift_by_one_block'
// CHECK-NOT: idiom map
// CHECK: no idiom (closest: map){{.*}}loop-carried dependence
void shift_by_one_block(double t) {
  for (int i = 0; i < nblk; i++)
    blk[i][0][0] = blk[i + 1][0][0] * t; // reads the next iteration's block
}
#endif

// TIME-NOT: z3 dependence
// TIME: dependence: constant strides
