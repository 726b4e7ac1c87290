// warp-tidy runtime validation -- case "unguarded-partials-read-pointer" (check warp-unguarded-partials-read).
// The unguarded-partials-read case with the block reduction in a helper that takes the kernel's
// __shared__ array as a pointer (LightGBM's ShuffleReduceSum(value, shared_mem_buffer, len) before
// c2c2407): warp 0 reads partials[lane] in all 32 lanes, but only the first (blockDim.x + 31) / 32
// slots were written, so with fewer than 32 warps it adds uninitialised shared memory.
//
// bug.cu and fixed.cu are the same program except for the marked lines (a BUG comment in bug.cu,
// a FIX comment in fixed.cu). The host side they share, and what the program prints, is in
// runtime-validation/common/harness.cuh.
#include "../../common/harness.cuh"

// =============================================================================================
// The case.

// Number of this block's threads in warp w: 32, except in the last warp when blockDim.x is not
// a multiple of 32.
__device__ unsigned lanesInWarp(unsigned w) {
  const unsigned rest = blockDim.x - w * 32u;
  return rest < 32u ? rest : 32u;
}

// Sum over the lanes of the calling warp that exist; lane 0 gets the total. Correct for the
// partial last warp too: the mask names exactly the lanes that exist (all of which call this,
// converged), and a lane only adds a value whose source lane exists.
__device__ int warpSum(int v) {
  const unsigned lane = threadIdx.x & 31u;
  const unsigned lanes = lanesInWarp(threadIdx.x / 32u);
  const unsigned mask = (lanes == 32u) ? 0xffffffffu : ((1u << lanes) - 1u);
  for (unsigned off = 16; off > 0; off >>= 1) {
    const int other = __shfl_down_sync(mask, v, off);
    if (lane + off < lanes) v += other;
  }
  return v;
}

// One sum per block: each warp's sum goes to the caller's shared memory through `partials`
// (slot = warp index), then warp 0 adds those partial sums up (slot = lane index).
__device__ int blockSumOf(int v, int* partials) {
  const unsigned lane = threadIdx.x & 31u;
  const unsigned warp = threadIdx.x / 32u;
  v = warpSum(v);
  if (lane == 0) partials[warp] = v;
  __syncthreads();
  if (warp == 0) {
    int s = (lane < (blockDim.x + 31) / 32) ? partials[lane] : 0;  // FIX: only the slots that were written
    v = warpSum(s);
  }
  return v;
}

__global__ void blockSum(const int* in, int n, int* blockSums) {
  __shared__ int warpSums[32];
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = blockSumOf((gid < n) ? in[gid] : 0, warpSums);
  if (threadIdx.x == 0) blockSums[blockIdx.x] = v;
}

static void runConfigs(std::mt19937_64& rng, Checker& chk) {
  // Block sizes: most have fewer than 32 warps, several are not a multiple of 32. The last
  // block of each launch is only partly filled.
  const int blocks[] = {48, 64, 100, 256, 1000, 1024};
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
    chk.begin(format("block=%d (%d warps) grid=%d n=%d (one sum per block)", block, (block + 31) / 32, grid, n));
    checkBlockSums(chk, in, n, block, got);
    chk.end();
  }
}
// =============================================================================================

int main(int argc, char** argv) { return runCase(argc, argv, "unguarded-partials-read-pointer", runConfigs); }
