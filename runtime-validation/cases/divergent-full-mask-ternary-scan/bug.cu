// warp-tidy runtime validation -- case "divergent-full-mask-ternary-scan" (check warp-divergent-full-mask).
// The seed's "correct" scan: other = (srcLane >= 0) ? __shfl_sync(mask, val, srcLane) : 0;
// only the lanes with srcLane >= 0 execute the full-mask shuffle (measured on an H200: 31 of 32
// lanes wrong). Fixed: every lane shuffles, then the value is selected.
//
// bug.cu and fixed.cu are the same program except for the marked lines (a BUG comment in bug.cu,
// a FIX comment in fixed.cu). The host side they share, and what the program prints, is in
// runtime-validation/common/harness.cuh.
#include "../../common/harness.cuh"

// =============================================================================================
// The case.

// Inclusive prefix sum over each warp's 32 values (the seed's shuffle scan).
// Launch contract: blockDim.x is a multiple of 32, so every warp is complete; the threads past
// n take part with 0 and write nothing.
__global__ void warpInclusiveScan(const int* in, int n, int* out) {
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x & 31;
  const unsigned mask = 0xffffffffu;
  int val = (gid < n) ? in[gid] : 0;
  for (int o = 1; o < 32; o <<= 1) {
    const int srcLane = lane - o;
    int other = (srcLane >= 0) ? __shfl_sync(mask, val, srcLane) : 0;  // BUG: lanes below o skip the full-mask shuffle
    val += other;
  }
  if (gid < n) out[gid] = val;
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
    warpInclusiveScan<<<grid, c.block>>>(dIn.ptr, n, dOut.ptr);
    LAUNCH_CHECK();
    const std::vector<int> got = dOut.download();
    chk.begin(format("block=%d grid=%d n=%d (one prefix sum per element)", c.block, grid, n));
    long long running = 0;
    for (int i = 0; i < n; ++i) {
      if (i % 32 == 0) running = 0;
      running += in[i];
      chk.checkInt(i, got[i], running);
    }
    chk.end();
  }
}
// =============================================================================================

int main(int argc, char** argv) { return runCase(argc, argv, "divergent-full-mask-ternary-scan", runConfigs); }
