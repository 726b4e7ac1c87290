// warp-tidy runtime validation -- case "divergent-full-mask-returning-arm" (check warp-divergent-full-mask).
// The lower half of each warp votes and then leaves; the upper half does other work. The vote is
// meant to count the whole warp, but it sits inside the arm that returns, so lanes 16-31 never
// reach it: they have not exited, they took the other path. warp-tidy used to read the 'return'
// as an early exit of the missing lanes and said nothing. Fixed: every lane votes before the
// lanes part.
//
// bug.cu and fixed.cu are the same program except for the marked lines (a BUG comment in bug.cu,
// a FIX comment in fixed.cu). The host side they share, and what the program prints, is in
// runtime-validation/common/harness.cuh.
#include "../../common/harness.cuh"

// =============================================================================================
// The case.

// warpCounts[w]: how many of warp w's 32 elements exceed threshold; doubled[i] = 2 * in[i].
// Launch contract: blockDim.x is a multiple of 32, so every warp is complete; the threads past
// n vote false and write nothing.
__global__ void countAboveThenDouble(const int* in, int n, int threshold, int* warpCounts,
                                     int* doubled) {
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x & 31;
  const bool above = gid < n && in[gid] > threshold;
  if (lane < 16) {
    const unsigned votes = __ballot_sync(0xffffffffu, above);  // BUG: lanes 16-31 take the other path
    if (lane == 0) warpCounts[gid / 32] = __popc(votes);
    if (gid < n) doubled[gid] = 2 * in[gid];
    return;
  }
  if (gid < n) doubled[gid] = 2 * in[gid];
}

static void runConfigs(std::mt19937_64& rng, Checker& chk) {
  struct Config { int block, nLo, nHi; };
  const Config configs[] = {{32, 33, 100}, {96, 1000, 5000}, {256, 5000, 20000},
                            {1024, 5000, 20000}};
  for (const Config& c : configs) {
    const int n = countNotMultipleOf32(rng, c.nLo, c.nHi);
    const std::vector<int> in = randomInts(rng, n, 1, 10);
    const int threshold = 5;
    const int grid = (n + c.block - 1) / c.block;
    const int warps = grid * c.block / 32;
    DeviceArray<int> dIn(in);
    DeviceArray<int> dCounts(warps);
    DeviceArray<int> dDoubled(n);
    poisonSharedMemory((unsigned)rng());
    countAboveThenDouble<<<grid, c.block>>>(dIn.ptr, n, threshold, dCounts.ptr, dDoubled.ptr);
    LAUNCH_CHECK();
    const std::vector<int> counts = dCounts.download();
    const std::vector<int> doubled = dDoubled.download();
    chk.begin(format("block=%d grid=%d n=%d (one count per warp, one double per element)", c.block,
                     grid, n));
    for (int w = 0; w < warps; ++w) {
      int expected = 0;
      for (int i = w * 32; i < w * 32 + 32 && i < n; ++i)
        expected += in[i] > threshold;
      chk.checkInt(w, counts[w], expected, "warp");
    }
    for (int i = 0; i < n; ++i)
      chk.checkInt(i, doubled[i], 2 * in[i]);
    chk.end();
  }
}
// =============================================================================================

int main(int argc, char** argv) {
  return runCase(argc, argv, "divergent-full-mask-returning-arm", runConfigs);
}
