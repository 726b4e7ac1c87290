// warp-tidy runtime validation -- case "reduction-result-lane" (check warp-reduction-result-lane).
// Each warp sums its 32 values with a __shfl_down_sync tree and then every lane centres its own
// value on the warp's sum (out = 32 * in - sum). The tree leaves the sum in lane 0 only: lane l
// holds the sum of some lanes at and above l, so lanes 1..31 subtract a partial sum (the shape
// of a real project's per-atom force totals).
//
// bug.cu and fixed.cu are the same program except for the marked lines (a BUG comment in bug.cu,
// a FIX comment in fixed.cu). The host side they share, and what the program prints, is in
// runtime-validation/common/harness.cuh.
#include "../../common/harness.cuh"

// =============================================================================================
// The case.

// Tree reduction towards lane 0: offsets 16, 8, 4, 2, 1.
__device__ int warpReduceSum(int v) {
  for (int off = 16; off > 0; off >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, off);
  return v;
}

// Every warp is full (block sizes are multiples of 32); threads past n take part with 0 and do
// not write.
__global__ void centreOnWarpSum(const int* in, int n, int* out) {
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  const int x = (gid < n) ? in[gid] : 0;
  int sum = warpReduceSum(x);
  if (gid < n) out[gid] = 32 * x - sum;  // BUG: only lane 0 holds the warp's sum
}

static void runConfigs(std::mt19937_64& rng, Checker& chk) {
  const int blocks[] = {32, 64, 128, 256, 1024};
  for (const int block : blocks) {
    const int grid = randInt(rng, 10, 40);
    const int n = grid * block - randInt(rng, 0, block - 1);
    const std::vector<int> in = randomInts(rng, n, 1, 100);
    DeviceArray<int> dIn(in);
    DeviceArray<int> dOut(n);
    centreOnWarpSum<<<grid, block>>>(dIn.ptr, n, dOut.ptr);
    LAUNCH_CHECK();
    const std::vector<int> got = dOut.download();
    chk.begin(format("block=%d grid=%d n=%d (each value centred on its warp's sum)", block, grid, n));
    for (int i = 0; i < n; ++i) {
      const int warpStart = i / 32 * 32;
      long long sum = 0;
      for (int j = warpStart; j < warpStart + 32 && j < n; ++j) sum += in[j];
      chk.checkInt(i, got[i], 32LL * in[i] - sum);
    }
    chk.end();
  }
}
// =============================================================================================

int main(int argc, char** argv) { return runCase(argc, argv, "reduction-result-lane", runConfigs); }
