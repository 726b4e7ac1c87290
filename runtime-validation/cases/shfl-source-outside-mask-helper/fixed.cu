// warp-tidy runtime validation -- case "shfl-source-outside-mask-helper" (check warp-shfl-source-outside-mask).
// The second stage of cuda-samples' reduce7 (reduction_kernel.cu): warp 0 sums the per-warp
// partials with a helper that shuffles under a mask from __ballot_sync(full, tid < warps). With
// fewer than 32 warps, lane 0 reads lane 16 (and more), outside the mask: undefined values.
//
// bug.cu and fixed.cu are the same program except for the marked lines (a BUG comment in bug.cu,
// a FIX comment in fixed.cu). The host side they share, and what the program prints, is in
// runtime-validation/common/harness.cuh.
#include "../../common/harness.cuh"

// =============================================================================================
// The case.

template <class T> __device__ __forceinline__ T warpReduceSum(unsigned int mask, T mySum) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    mySum += __shfl_down_sync(mask, mySum, offset);
  return mySum;
}

// One sum per block. Launch contract: blockDim.x == BlockSize, a multiple of 32 (so the full mask
// of the first stage is right); the threads past n contribute 0.
template <unsigned BlockSize>
__global__ void blockSums(const float* in, int n, float* sums) {
  __shared__ float partial[32];
  const unsigned tid = threadIdx.x;
  const int gid = blockIdx.x * BlockSize + tid;
  float mySum = warpReduceSum<float>(0xffffffffu, gid < n ? in[gid] : 0.0f);
  if (tid % 32 == 0) partial[tid / 32] = mySum;
  __syncthreads();
  const unsigned warps = BlockSize / warpSize;
  if (tid < 32) {  // FIX: the whole first warp takes part
    mySum = tid < warps ? partial[tid] : 0.0f;  // FIX: lanes past the last warp add 0
    mySum = warpReduceSum<float>(0xffffffffu, mySum);  // FIX: the full mask: all 32 lanes are here
  }
  if (tid == 0) sums[blockIdx.x] = mySum;
}

template <unsigned BlockSize>
static void runOne(std::mt19937_64& rng, Checker& chk, int nLo, int nHi) {
  const int n = countNotMultipleOf32(rng, nLo, nHi);
  std::vector<float> in(n);
  for (auto& x : in) x = (float)randInt(rng, 1, 9);  // small integers: every sum is exact
  const int grid = (n + BlockSize - 1) / BlockSize;
  DeviceArray<float> dIn(in);
  DeviceArray<float> dSums(grid);
  poisonSharedMemory((unsigned)rng());
  blockSums<BlockSize><<<grid, BlockSize>>>(dIn.ptr, n, dSums.ptr);
  LAUNCH_CHECK();
  const std::vector<float> got = dSums.download();
  chk.begin(format("block=%u (%u warps) grid=%d n=%d (one sum per block)", BlockSize, BlockSize / 32, grid, n));
  checkBlockSums(chk, in, n, (int)BlockSize, got);
  chk.end();
}

static void runConfigs(std::mt19937_64& rng, Checker& chk) {
  runOne<64>(rng, chk, 1000, 5000);
  runOne<128>(rng, chk, 1000, 5000);
  runOne<256>(rng, chk, 5000, 20000);
  runOne<512>(rng, chk, 5000, 20000);
  runOne<1024>(rng, chk, 5000, 20000);
}
// =============================================================================================

int main(int argc, char** argv) { return runCase(argc, argv, "shfl-source-outside-mask-helper", runConfigs); }
