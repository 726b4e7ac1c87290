// warp-tidy runtime validation -- case "zero-mask" (check warp-zero-mask).
// The mask of __ballot_sync is the constant 0. Undefined behaviour that usually looks right
// (measured on an H200: it returned the full-warp ballot), so a static check is the way to find it.
//
// bug.cu and fixed.cu are the same program except for the marked lines (a BUG comment in bug.cu,
// a FIX comment in fixed.cu). The host side they share, and what the program prints, is in
// runtime-validation/common/harness.cuh.
#include "../../common/harness.cuh"

// =============================================================================================
// The case.

// One word per warp: bit i is set when lane i holds a value above the threshold.
// Launch contract: blockDim.x is a multiple of 32, so every warp is complete; the threads past
// n take part with "not above" (the standard padding idiom), so a full mask is correct here.
__global__ void ballotAbove(const int* in, int n, int threshold, unsigned* warpBits) {
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = (gid < n) ? in[gid] : 0;
  const bool above = v > threshold;
  const unsigned bits = __ballot_sync(0, above);  // BUG: mask 0 names no lane, not even the caller
  if ((threadIdx.x & 31) == 0) warpBits[gid / 32] = bits;
}

static void runConfigs(std::mt19937_64& rng, Checker& chk) {
  struct Config { int block, nLo, nHi; };
  const Config configs[] = {{32, 33, 100}, {96, 1000, 5000}, {160, 1000, 5000},
                            {256, 5000, 20000}, {480, 5000, 20000}, {1024, 5000, 20000}};
  for (const Config& c : configs) {
    const int n = countNotMultipleOf32(rng, c.nLo, c.nHi);
    const int threshold = randInt(rng, 1, 9);
    const std::vector<int> in = randomInts(rng, n, 1, 10);
    const int grid = (n + c.block - 1) / c.block;
    const int warps = grid * c.block / 32;
    DeviceArray<int> dIn(in);
    DeviceArray<unsigned> dBits(warps);
    poisonSharedMemory((unsigned)rng());
    ballotAbove<<<grid, c.block>>>(dIn.ptr, n, threshold, dBits.ptr);
    LAUNCH_CHECK();
    const std::vector<unsigned> got = dBits.download();
    chk.begin(format("block=%d grid=%d n=%d threshold=%d (one ballot per warp)", c.block, grid, n, threshold));
    for (int w = 0; w < warps; ++w) {
      unsigned expected = 0;
      for (int lane = 0; lane < 32; ++lane) {
        const int i = w * 32 + lane;
        if (i < n && in[i] > threshold) expected |= 1u << lane;
      }
      chk.checkBits(w, got[w], expected);
    }
    chk.end();
  }
}
// =============================================================================================

int main(int argc, char** argv) { return runCase(argc, argv, "zero-mask", runConfigs); }
