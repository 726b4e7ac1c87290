// warp-tidy runtime validation -- case "divergent-full-mask-inline-ptx" (check
// warp-divergent-full-mask). The same bug as case divergent-full-mask, written the way libraries
// write their warp primitives: an inline-PTX `shfl.sync.bfly.b32` butterfly with the immediate
// membermask 0xffffffff, inside `if (v > threshold)`. Only some lanes reach the shuffle; the
// others are named in the mask but never execute it, and the values read from them are undefined.
//
// bug.cu and fixed.cu are the same program except for the marked lines (a BUG comment in bug.cu,
// a FIX comment in fixed.cu). The host side they share, and what the program prints, is in
// runtime-validation/common/harness.cuh.
#include "../../common/harness.cuh"

// =============================================================================================
// The case.

// Per warp: the sum of the values above the threshold; lane 0 writes it.
// Launch contract: blockDim.x is a multiple of 32, so every warp is complete; the threads past
// n hold 0, which is never above the threshold (threshold >= 1).
__global__ void warpSumAbovePtx(const int* in, int n, int threshold, int* warpSums) {
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = (gid < n) ? in[gid] : 0;
  int s = 0;
  if (v > threshold) {
    s = v;
    for (int mask = 16; mask > 0; mask >>= 1) {
      int t;
      asm volatile("shfl.sync.bfly.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=r"(t) : "r"(s), "r"(mask));  // BUG: full membermask, but only the lanes with v > threshold get here
      s += t;
    }
  }
  if ((threadIdx.x & 31) == 0) warpSums[gid / 32] = s;
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
    poisonSharedMemory((unsigned)rng());
    warpSumAbovePtx<<<grid, c.block>>>(dIn.ptr, n, threshold, dSums.ptr);
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

int main(int argc, char** argv) { return runCase(argc, argv, "divergent-full-mask-inline-ptx", runConfigs); }
