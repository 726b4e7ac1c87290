// warp-tidy runtime validation -- case "non-integer-reduce" (check warp-non-integer-reduce).
// (float)__reduce_add_sync(m, (int)v) on fractional floats: __reduce_add_sync only exists for
// int/unsigned, so the cast truncates every value (measured: 132 summed as 120). sm_80+ only.
//
// bug.cu and fixed.cu are the same program except for the marked lines (a BUG comment in bug.cu,
// a FIX comment in fixed.cu). The host side they share, and what the program prints, is in
// runtime-validation/common/harness.cuh.
#include "../../common/harness.cuh"

// =============================================================================================
// The case.

// Sum of the calling warp's 32 floats, returned to every lane (butterfly reduction).
__device__ float warpSumFloat(float v) {
  for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
  return v;
}

// Every element is replaced by its warp's total.
// Launch contract: blockDim.x is a multiple of 32, so every warp is complete; the threads past
// n take part with 0 and write nothing.
__global__ void warpTotals(const float* in, int n, float* out) {
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  const float v = (gid < n) ? in[gid] : 0.0f;
  const float total = (float)__reduce_add_sync(0xffffffffu, (int)v);  // BUG: integer-only reduction: (int)v drops the fraction
  if (gid < n) out[gid] = total;
}

static void runConfigs(std::mt19937_64& rng, Checker& chk) {
  struct Config { int block, nLo, nHi; };
  const Config configs[] = {{32, 33, 100}, {96, 1000, 5000}, {160, 1000, 5000},
                            {256, 5000, 20000}, {480, 5000, 20000}, {1024, 5000, 20000}};
  for (const Config& c : configs) {
    const int n = countNotMultipleOf32(rng, c.nLo, c.nHi);
    // Multiples of 0.25 in [0.25, 8]: every partial sum of 32 of them is exact in float, so
    // the order of the additions does not matter and the comparison can be exact.
    std::vector<float> in(n);
    for (auto& x : in) x = 0.25f * (float)randInt(rng, 1, 32);
    const int grid = (n + c.block - 1) / c.block;
    DeviceArray<float> dIn(in);
    DeviceArray<float> dOut(n);
    poisonSharedMemory((unsigned)rng());
    warpTotals<<<grid, c.block>>>(dIn.ptr, n, dOut.ptr);
    LAUNCH_CHECK();
    const std::vector<float> got = dOut.download();
    chk.begin(format("block=%d grid=%d n=%d (warp total per element)", c.block, grid, n));
    for (int w = 0; w * 32 < n; ++w) {
      double total = 0;
      for (int i = w * 32; i < w * 32 + 32 && i < n; ++i) total += in[i];
      for (int i = w * 32; i < w * 32 + 32 && i < n; ++i) chk.checkFloat(i, got[i], (float)total);
    }
    chk.end();
  }
}
// =============================================================================================

int main(int argc, char** argv) { return runCase(argc, argv, "non-integer-reduce", runConfigs); }
