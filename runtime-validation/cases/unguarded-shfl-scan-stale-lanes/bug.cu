// warp-tidy runtime validation -- case "unguarded-shfl-scan-stale-lanes" (check warp-unguarded-shfl-scan).
// A two-stage block reduction written with growing shfl_down offsets (DeepSpeed's layer-norm
// kernels have this shape): stage 2 reads the warps' partial sums back into the variable of
// stage 1 in the lanes below the warp count only, so the other lanes keep stage 1's partial
// sums, and stage 2 adds lanes 0 .. 2^k - 1 into lane 0 (2^k the smallest power of two >= the
// warp count). With a warp count that is not a power of two, stale partial sums are added.
//
// bug.cu and fixed.cu are the same program except for the marked lines (a BUG comment in bug.cu,
// a FIX comment in fixed.cu). The host side they share, and what the program prints, is in
// runtime-validation/common/harness.cuh.
#include "../../common/harness.cuh"
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// =============================================================================================
// The case.

// One sum per block. Stage 1: each warp reduces its values with offsets 1, 2, 4, 8, 16; lane 0
// then holds the warp's total (the other lanes hold partial sums, never used as totals) and
// stores it. Stage 2: the warps' totals are read back and reduced the same way; lane 0 of every
// warp then holds the block's total and broadcasts it.
// Launch contract: blockDim.x is a multiple of 32 (every warp complete), at most 1024; the
// threads past n take part with 0.
__global__ void blockSum(const int* in, int n, int* blockSums) {
  __shared__ int partials[32];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  const unsigned warps = (blockDim.x + 31) / 32;
  const unsigned rank = warp.thread_rank();
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int sum = (gid < n) ? in[gid] : 0;
  for (int i = 1; i < 32; i *= 2) sum += warp.shfl_down(sum, i);
  if (rank == 0) partials[threadIdx.x / 32] = sum;
  block.sync();
  if (rank < warps) sum = partials[rank];  // BUG: lanes >= warps keep stage 1's partial sums, which stage 2 adds when warps is not a power of two
  block.sync();
  for (int i = 1; i < warps; i *= 2) sum += warp.shfl_down(sum, i);
  sum = warp.shfl(sum, 0);
  if (threadIdx.x == 0) blockSums[blockIdx.x] = sum;
}

static void runConfigs(std::mt19937_64& rng, Checker& chk) {
  // Warp counts 2, 3, 4, 5, 6, 8, 12, 32: the power-of-two ones are right even in bug.cu.
  const int blocks[] = {64, 96, 128, 160, 192, 256, 384, 1024};
  for (const int block : blocks) {
    const int grid = randInt(rng, 20, 60);
    const int n = grid * block - randInt(rng, 1, block - 1);
    const std::vector<int> in = randomInts(rng, n, 1, 10);
    DeviceArray<int> dIn(in);
    DeviceArray<int> dSums(grid);
    blockSum<<<grid, block>>>(dIn.ptr, n, dSums.ptr);
    LAUNCH_CHECK();
    const std::vector<int> got = dSums.download();
    chk.begin(format("block=%d (%d warps) grid=%d n=%d (one sum per block)", block, block / 32, grid, n));
    checkBlockSums(chk, in, n, block, got);
    chk.end();
  }
}
// =============================================================================================

int main(int argc, char** argv) { return runCase(argc, argv, "unguarded-shfl-scan-stale-lanes", runConfigs); }
