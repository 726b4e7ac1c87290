// warp-tidy runtime validation -- case "mask-excludes-caller-lanemask" (check
// warp-mask-excludes-caller). Warp-level stream compaction that computes each lane's output slot
// as __popc(__ballot_sync(lanesBelow(), keep)): the mask is computed from the lane and holds only
// the lanes below the caller, so no lane has its own bit (lane 0 passes 0). The intent was the
// ballot of the whole warp restricted to the lanes below: __ballot_sync(full, keep) & lanesBelow().
//
// bug.cu and fixed.cu are the same program except for the marked lines (a BUG comment in bug.cu,
// a FIX comment in fixed.cu). The host side they share, and what the program prints, is in
// runtime-validation/common/harness.cuh.
#include "../../common/harness.cuh"

// =============================================================================================
// The case.

// The lanes below this one (PTX's %lanemask_lt).
__device__ unsigned lanesBelow() { return (1u << (threadIdx.x & 31u)) - 1u; }

// Each warp copies its elements greater than `threshold`, in order, to the start of its own
// 32-slot window of `out`, and stores how many it kept in counts[warp].
// Launch contract: blockDim.x is a multiple of 32, so every warp is complete; the threads past
// n take part with keep = false.
__global__ void compactWarps(const int* in, int n, int threshold, int* out, int* counts) {
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = (gid < n) ? in[gid] : 0;
  const bool keep = gid < n && v > threshold;
  const unsigned kept = __ballot_sync(0xffffffffu, keep);
  const int slot = __popc(__ballot_sync(lanesBelow(), keep));  // BUG: no lane has its own bit in this mask
  const int warp = gid / 32;
  if (keep) out[warp * 32 + slot] = v;
  if ((threadIdx.x & 31u) == 0) counts[warp] = __popc(kept);
}

static void runConfigs(std::mt19937_64& rng, Checker& chk) {
  struct Config { int block, nLo, nHi; };
  const Config configs[] = {{32, 33, 100}, {96, 1000, 5000}, {160, 1000, 5000},
                            {256, 5000, 20000}, {480, 5000, 20000}, {1024, 5000, 20000}};
  for (const Config& c : configs) {
    const int n = countNotMultipleOf32(rng, c.nLo, c.nHi);
    const std::vector<int> in = randomInts(rng, n, 1, 10);
    const int threshold = randInt(rng, 2, 8);
    const int grid = (n + c.block - 1) / c.block;
    const int warps = grid * c.block / 32;
    DeviceArray<int> dIn(in);
    DeviceArray<int> dOut(warps * 32);
    DeviceArray<int> dCounts(warps);
    poisonSharedMemory((unsigned)rng());
    compactWarps<<<grid, c.block>>>(dIn.ptr, n, threshold, dOut.ptr, dCounts.ptr);
    LAUNCH_CHECK();
    const std::vector<int> got = dOut.download();
    const std::vector<int> counts = dCounts.download();
    chk.begin(format("block=%d grid=%d n=%d threshold=%d (compacted values per warp)", c.block,
                     grid, n, threshold));
    for (int w = 0; w * 32 < n; ++w) {
      int count = 0;
      for (int i = w * 32; i < w * 32 + 32 && i < n; ++i)
        if (in[i] > threshold) {
          chk.checkInt(w * 32 + count, got[w * 32 + count], in[i]);
          ++count;
        }
      chk.checkInt(w, counts[w], count, "warp");
    }
    chk.end();
  }
}
// =============================================================================================

int main(int argc, char** argv) {
  return runCase(argc, argv, "mask-excludes-caller-lanemask", runConfigs);
}
