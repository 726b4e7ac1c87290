// warp-tidy runtime validation -- case "mask-excludes-caller" (check warp-mask-excludes-caller).
// A typo in a constant mask: 0xFFFFFF (24 bits) instead of 0xFFFFFFFF, executed by all 32
// lanes, so lanes 24..31 call the shuffle without their own bit in the mask.
//
// bug.cu and fixed.cu are the same program except for the marked lines (a BUG comment in bug.cu,
// a FIX comment in fixed.cu). The host side they share, and what the program prints, is in
// runtime-validation/common/harness.cuh.
#include "../../common/harness.cuh"

// =============================================================================================
// The case.

// Every lane gets the sum of its warp's 32 values (butterfly reduction).
// Launch contract: blockDim.x is a multiple of 32, so every warp is complete; the threads past
// n take part with 0 and write nothing.
__global__ void warpTotals(const int* in, int n, int* out) {
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int s = (gid < n) ? in[gid] : 0;
  for (int off = 16; off > 0; off >>= 1)
    s += __shfl_xor_sync(0xFFFFFF, s, off);  // BUG: 0xFFFFFF has 24 bits; lanes 24..31 call it without their bit
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
    warpTotals<<<grid, c.block>>>(dIn.ptr, n, dOut.ptr);
    LAUNCH_CHECK();
    const std::vector<int> got = dOut.download();
    chk.begin(format("block=%d grid=%d n=%d (warp total per element)", c.block, grid, n));
    for (int w = 0; w * 32 < n; ++w) {
      long long total = 0;
      for (int i = w * 32; i < w * 32 + 32 && i < n; ++i) total += in[i];
      for (int i = w * 32; i < w * 32 + 32 && i < n; ++i) chk.checkInt(i, got[i], total);
    }
    chk.end();
  }
}
// =============================================================================================

int main(int argc, char** argv) { return runCase(argc, argv, "mask-excludes-caller", runConfigs); }
