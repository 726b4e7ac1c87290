// warp-tidy runtime validation -- case "invalid-shfl-width" (check warp-invalid-shfl-width).
// A shuffle width of 24, which is not a power of two in [1, 32]: undefined; the hardware builds
// a segment mask from 32 - width and lanes 16..23 get their own value back.
//
// bug.cu and fixed.cu are the same program except for the marked lines (a BUG comment in bug.cu,
// a FIX comment in fixed.cu). The host side they share, and what the program prints, is in
// runtime-validation/common/harness.cuh.
#include "../../common/harness.cuh"

// =============================================================================================
// The case.

// Rows of 16 values, one half-warp per row: every element is replaced by its row's sum.
// Launch contract: blockDim.x is a multiple of 32, so every warp is complete; the threads past
// n take part with 0 and write nothing.
__global__ void rowSums16(const int* in, int n, int* out) {
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int s = (gid < n) ? in[gid] : 0;
  for (int off = 8; off > 0; off >>= 1)
    s += __shfl_xor_sync(0xffffffffu, s, off, 24);  // BUG: width 24 is not a power of two
  if (gid < n) out[gid] = s;
}

static void runConfigs(std::mt19937_64& rng, Checker& chk) {
  struct Config { int block, nLo, nHi; };
  const Config configs[] = {{32, 33, 100}, {96, 1000, 5000}, {160, 1000, 5000},
                            {256, 5000, 20000}, {480, 5000, 20000}, {1024, 5000, 20000}};
  for (const Config& c : configs) {
    const int n = countNotMultipleOf32(rng, c.nLo, c.nHi);
    const std::vector<int> in = randomInts(rng, n, 1, 10);
    const int grid = (n + c.block - 1) / c.block;
    DeviceArray<int> dIn(in);
    DeviceArray<int> dOut(n);
    poisonSharedMemory((unsigned)rng());
    rowSums16<<<grid, c.block>>>(dIn.ptr, n, dOut.ptr);
    LAUNCH_CHECK();
    const std::vector<int> got = dOut.download();
    chk.begin(format("block=%d grid=%d n=%d (row-of-16 sum per element)", c.block, grid, n));
    for (int r = 0; r * 16 < n; ++r) {
      long long total = 0;
      for (int i = r * 16; i < r * 16 + 16 && i < n; ++i) total += in[i];
      for (int i = r * 16; i < r * 16 + 16 && i < n; ++i) chk.checkInt(i, got[i], total);
    }
    chk.end();
  }
}
// =============================================================================================

int main(int argc, char** argv) { return runCase(argc, argv, "invalid-shfl-width", runConfigs); }
