// warp-tidy runtime validation -- case "shfl-source-outside-mask" (check warp-shfl-source-outside-mask).
// A warp reduction under a mask from __ballot_sync(full, v > threshold): the lanes at or below the
// threshold do not take part, yet the __shfl_down_sync steps read them, so the sums pick up
// values the shuffle leaves undefined. (The usual "fix" of a full mask inside the branch.)
//
// bug.cu and fixed.cu are the same program except for the marked lines (a BUG comment in bug.cu,
// a FIX comment in fixed.cu). The host side they share, and what the program prints, is in
// runtime-validation/common/harness.cuh.
#include "../../common/harness.cuh"

// =============================================================================================
// The case.

// Per warp: the sum of the values above the threshold; the lowest lane that has one writes it.
// Launch contract: blockDim.x is a multiple of 32, so every warp is complete; the threads past
// n hold 0, which is never above the threshold (threshold >= 1).
__global__ void warpSumAbove(const int* in, int n, int threshold, int* warpSums) {
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = (gid < n) ? in[gid] : 0;
  const bool above = v > threshold;
  const unsigned active = __ballot_sync(0xffffffffu, above);
  if (above) {
    int s = v;
    for (int off = 16; off > 0; off >>= 1)
      s += __shfl_down_sync(active, s, off);  // BUG: lane + off may be a lane at or below the threshold, outside the mask
    if ((threadIdx.x & 31) == __ffs(active) - 1) warpSums[gid / 32] = s;
  }
}

static void runConfigs(std::mt19937_64& rng, Checker& chk) {
  struct Config { int block, nLo, nHi; };
  const Config configs[] = {{32, 33, 100}, {96, 1000, 5000}, {160, 1000, 5000},
                            {256, 5000, 20000}, {480, 5000, 20000}, {1024, 5000, 20000}};
  for (const Config& c : configs) {
    const int n = countNotMultipleOf32(rng, c.nLo, c.nHi);
    const int threshold = randInt(rng, 3, 8);
    const std::vector<int> in = randomInts(rng, n, 1, 10);
    const int grid = (n + c.block - 1) / c.block;
    const int warps = grid * c.block / 32;
    DeviceArray<int> dIn(in);
    DeviceArray<int> dSums(warps);
    CUDA_CHECK(cudaMemset(dSums.ptr, 0, warps * sizeof(int)));  // warps with nothing above write nothing
    poisonSharedMemory((unsigned)rng());
    warpSumAbove<<<grid, c.block>>>(dIn.ptr, n, threshold, dSums.ptr);
    LAUNCH_CHECK();
    const std::vector<int> got = dSums.download();
    chk.begin(format("block=%d grid=%d n=%d threshold=%d (one sum per warp)", c.block, grid, n, threshold));
    for (int w = 0; w < warps; ++w) {
      long long expected = 0;
      for (int i = w * 32; i < w * 32 + 32 && i < n; ++i)
        if (in[i] > threshold) expected += in[i];
      chk.checkInt(w, got[w], expected);
    }
    chk.end();
  }
}
// =============================================================================================

int main(int argc, char** argv) { return runCase(argc, argv, "shfl-source-outside-mask", runConfigs); }
