// warp-tidy runtime validation -- case "activemask-sync-mask" (check warp-activemask-sync-mask).
// __activemask() used as the mask of a tree reduction inside `if (v > threshold)`.
// __activemask() only reports which lanes happen to run together, and a reduction over that
// group reads lanes outside it; the correct form lets the whole warp reduce, each lane below the
// threshold adding 0.
//
// bug.cu and fixed.cu are the same program except for the marked lines (a BUG comment in bug.cu,
// a FIX comment in fixed.cu). The host side they share, and what the program prints, is in
// runtime-validation/common/harness.cuh.
#include "../../common/harness.cuh"

// =============================================================================================
// The case.

// Per warp, the sum of the values above the threshold: out[gid / 32].
// Launch contract: blockDim.x is a multiple of 32, so every warp is complete; the threads past
// n hold 0, which is never above the threshold (threshold >= 1).
__global__ void sumAbove(const int* in, int n, int threshold, int* out) {
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x & 31;
  const int v = (gid < n) ? in[gid] : 0;
  if (v > threshold) {
    const unsigned group = __activemask();  // BUG: whoever is here, and the reduction reads lanes outside it
    int sum = v;
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(group, sum, offset);
    if (lane == __ffs(group) - 1) out[gid / 32] = sum;  // BUG: the group's lowest lane holds its total
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
    DeviceArray<int> dOut(warps);
    CUDA_CHECK(cudaMemset(dOut.ptr, 0, sizeof(int) * warps));
    poisonSharedMemory((unsigned)rng());
    sumAbove<<<grid, c.block>>>(dIn.ptr, n, threshold, dOut.ptr);
    LAUNCH_CHECK();
    const std::vector<int> got = dOut.download();
    std::vector<long long> expected(warps, 0);
    for (int i = 0; i < n; ++i)
      if (in[i] > threshold) expected[i / 32] += in[i];
    chk.begin(format("block=%d grid=%d n=%d threshold=%d (per-warp sums)", c.block, grid, n, threshold));
    for (int w = 0; w < warps; ++w) chk.checkInt(w, got[w], expected[w], "warp");
    chk.end();
  }
}
// =============================================================================================

int main(int argc, char** argv) { return runCase(argc, argv, "activemask-sync-mask", runConfigs); }
