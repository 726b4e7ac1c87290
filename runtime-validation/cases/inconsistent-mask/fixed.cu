// warp-tidy runtime validation -- case "inconsistent-mask" (check warp-inconsistent-mask).
// Segments of 8 lanes whose mask is computed from the lane with the wrong alignment:
// 0xff << (lane & ~3) instead of 0xff << (lane & ~7). Segments start every 4 lanes and overlap,
// so lanes that name each other pass different masks (lane 0 passes 0x000000ff and names lane 4,
// which passes 0x00000ff0), and lanes 4..7 of every segment take the wrong leader.
//
// bug.cu and fixed.cu are the same program except for the marked lines (a BUG comment in bug.cu,
// a FIX comment in fixed.cu). The host side they share, and what the program prints, is in
// runtime-validation/common/harness.cuh.
#include "../../common/harness.cuh"

// =============================================================================================
// The case.

// Every lane gets the value of the first lane of its segment of 8 lanes (segmented broadcast).
// Launch contract: blockDim.x is a multiple of 32, so every warp is complete; the threads past
// n take part with 0 and write nothing.
__global__ void segmentLeaders(const int* in, int n, int* out) {
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned lane = threadIdx.x & 31u;
  const int v = (gid < n) ? in[gid] : 0;
  const unsigned segment = 0xffu << (lane & ~7u);  // FIX: aligned segments: every lane of a segment passes the same mask
  const int leader = __ffs(segment) - 1;
  const int got = __shfl_sync(segment, v, leader);
  if (gid < n) out[gid] = got;
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
    segmentLeaders<<<grid, c.block>>>(dIn.ptr, n, dOut.ptr);
    LAUNCH_CHECK();
    const std::vector<int> got = dOut.download();
    chk.begin(format("block=%d grid=%d n=%d (leader of each 8-lane segment)", c.block, grid, n));
    // Blocks are whole warps, so element i sits in lane i % 32 and its segment starts at i & ~7.
    for (int i = 0; i < n; ++i) chk.checkInt(i, got[i], in[i & ~7]);
    chk.end();
  }
}
// =============================================================================================

int main(int argc, char** argv) { return runCase(argc, argv, "inconsistent-mask", runConfigs); }
