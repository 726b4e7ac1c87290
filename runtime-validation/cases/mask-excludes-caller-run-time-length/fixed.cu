// warp-tidy runtime validation -- case "mask-excludes-caller-run-time-length" (check warp-mask-excludes-caller).
// A block reduction whose second stage sums the per-warp partials with a helper that builds its
// mask from a run-time length, 0xffffffff >> (32 - len), and is called by the whole first warp
// with the number of warps as the length (LightGBM's ShuffleReduceSumWarp before c2c2407). With
// fewer than 32 warps, lanes len..31 execute __shfl_down_sync without their own bit in the mask.
//
// bug.cu and fixed.cu are the same program except for the marked lines (a BUG comment in bug.cu,
// a FIX comment in fixed.cu). The host side they share, and what the program prints, is in
// runtime-validation/common/harness.cuh.
#include "../../common/harness.cuh"

// =============================================================================================
// The case.

// Sum of the first `len` lanes' values (lanes past `len` hold 0); lane 0 gets the total.
__device__ int sumFirstLanes(int v, int len) {
  const unsigned mask = 0xffffffffu;  // FIX: every lane calls the shuffle; lanes past len hold 0
  for (unsigned off = 16; off > 0; off >>= 1)
    v += __shfl_down_sync(mask, v, off);
  return v;
}

// One sum per block (blockDim.x a multiple of 32): each warp's sum goes to shared memory (slot =
// warp index), then warp 0 adds the partial sums up, lanes past the last warp adding 0.
__global__ void blockSum(const int* in, int n, int* blockSums) {
  __shared__ int warpSums[32];
  const unsigned lane = threadIdx.x & 31u;
  const unsigned warp = threadIdx.x / 32u;
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int v = (gid < n) ? in[gid] : 0;
  v = sumFirstLanes(v, 32);
  if (lane == 0) warpSums[warp] = v;
  __syncthreads();
  const int numWarps = (blockDim.x + 31) / 32;
  if (warp == 0) {
    int s = lane < numWarps ? warpSums[lane] : 0;
    s = sumFirstLanes(s, numWarps);
    if (lane == 0) blockSums[blockIdx.x] = s;
  }
}

static void runConfigs(std::mt19937_64& rng, Checker& chk) {
  // Block sizes: whole warps, all but the last with fewer than 32 of them. The last block of
  // each launch is only partly filled.
  const int blocks[] = {64, 96, 128, 256, 512, 1024};
  for (const int block : blocks) {
    const int grid = randInt(rng, 20, 60);
    const int n = grid * block - randInt(rng, 1, block - 1);
    const std::vector<int> in = randomInts(rng, n, 1, 10);
    DeviceArray<int> dIn(in);
    DeviceArray<int> dSums(grid);
    poisonSharedMemory((unsigned)rng());
    blockSum<<<grid, block>>>(dIn.ptr, n, dSums.ptr);
    LAUNCH_CHECK();
    const std::vector<int> got = dSums.download();
    chk.begin(format("block=%d (%d warps) grid=%d n=%d (one sum per block)", block, block / 32, grid, n));
    checkBlockSums(chk, in, n, block, got);
    chk.end();
  }
}
// =============================================================================================

int main(int argc, char** argv) { return runCase(argc, argv, "mask-excludes-caller-run-time-length", runConfigs); }
