// RUN: cp %s %t.cu
// RUN: %warp_tidy --quiet --exit-zero --checks=-*,warp-divergent-full-mask --fix %t.cu -- -arch=sm_80 > %t.out 2>&1
// RUN: %FileCheck --check-prefix=FIXED --input-file=%t.cu %s
//
// warp-divergent-full-mask's fix-it: a collective that only one arm of a
// `?:` runs is hoisted into its own statement (run by every lane) and the
// arm selects the result. Only offered when that is provably the same value
// for the lanes that use it: no side effects, a plain statement in a block.

#define FULL 0xffffffffu

__global__ void seedScan(const int *in, int *out) {
  const int lane = threadIdx.x & 31;
  const unsigned mask = 0xffffffffu;
  int val = in[threadIdx.x];
  for (int o = 1; o < 32; o <<= 1) {
    const int srcLane = lane - o;
    int other = (srcLane >= 0) ? __shfl_sync(mask, val, srcLane) : 0;
    // FIXED: {{^}}    const auto otherShfl = __shfl_sync(mask, val, srcLane);
    // FIXED-NEXT: {{^}}    int other = (srcLane >= 0) ? otherShfl : 0;
    val += other;
  }
  int total = 0;
  total = (lane & 1) ? __reduce_add_sync(FULL, val) : total;
  // FIXED: {{^}}  const auto totalShfl = __reduce_add_sync(FULL, val);
  // FIXED-NEXT: {{^}}  total = (lane & 1) ? totalShfl : total;
  out[threadIdx.x] = val + total;
}

__global__ void noFix(const int *in, int *out) {
  const int lane = threadIdx.x & 31;
  int v = in[threadIdx.x];
  // Side effects in the operands: evaluating them for every lane would change
  // the program.
  int a = (lane > 3) ? __shfl_sync(FULL, v++, 0) : 0;
  // FIXED: {{^}}  int a = (lane > 3) ? __shfl_sync(FULL, v++, 0) : 0;
  // Not a plain statement: the shuffle is nested in a larger expression.
  out[0] = a + ((lane > 5) ? __shfl_sync(FULL, v, 1) : 0);
  // FIXED: {{^}}  out[0] = a + ((lane > 5) ? __shfl_sync(FULL, v, 1) : 0);
  // Divergent already before the `?:`: hoisting would not help.
  if (v > 0) {
    int b = (lane > 7) ? __shfl_sync(FULL, v, 2) : 0;
    // FIXED: {{^}}    int b = (lane > 7) ? __shfl_sync(FULL, v, 2) : 0;
    out[1] = b;
  }
}
