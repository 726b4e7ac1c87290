// warp-tidy runtime validation -- case "activemask-sync-mask" (check warp-activemask-sync-mask).
// __activemask() used as the mask of a collective inside `if (v > threshold)`. __activemask()
// only reports which lanes happen to run together; the correct idiom is a full-warp
// __ballot_sync(0xffffffff, cond) computed before the branch.
//
// bug.cu and fixed.cu are the same program except for the marked lines (a BUG comment in bug.cu,
// a FIX comment in fixed.cu). The host side they share, and what the program prints, is in
// runtime-validation/common/harness.cuh.
#include "../../common/harness.cuh"

// =============================================================================================
// The case.

// Stream compaction with warp-aggregated atomics: the indices of the values above the
// threshold are written to out[0 .. *count), in no particular order; one atomicAdd per group.
// Launch contract: blockDim.x is a multiple of 32, so every warp is complete; the threads past
// n hold 0, which is never above the threshold (threshold >= 1).
__global__ void compactAbove(const int* in, int n, int threshold, int* out, int* count) {
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x & 31;
  const int v = (gid < n) ? in[gid] : 0;
  const unsigned group = __ballot_sync(0xffffffffu, v > threshold);  // FIX: computed by all 32 lanes before the branch
  if (v > threshold) {
    const int leader = __ffs(group) - 1;
    int base = 0;
    if (lane == leader) base = atomicAdd(count, __popc(group));
    base = __shfl_sync(group, base, leader);
    out[base + __popc(group & ((1u << lane) - 1u))] = gid;
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
    // Room for 32 slots per element: even lanes that disagree about their group cannot write
    // outside the buffer.
    DeviceArray<int> dIn(in);
    DeviceArray<int> dOut(32 * (size_t)n + 32);
    DeviceArray<int> dCount(1);
    CUDA_CHECK(cudaMemset(dCount.ptr, 0, sizeof(int)));
    poisonSharedMemory((unsigned)rng());
    compactAbove<<<grid, c.block>>>(dIn.ptr, n, threshold, dOut.ptr, dCount.ptr);
    LAUNCH_CHECK();
    const int count = dCount.download()[0];
    std::vector<int> got = dOut.download();
    std::vector<int> expected;
    for (int i = 0; i < n; ++i)
      if (in[i] > threshold) expected.push_back(i);
    chk.begin(format("block=%d grid=%d n=%d threshold=%d (sorted output indices)", c.block, grid, n, threshold));
    chk.checkInt(-1, count, (long long)expected.size(), "count");
    const size_t have = std::min(got.size(), (size_t)std::max(count, 0));
    got.resize(have);
    std::sort(got.begin(), got.end());
    for (size_t k = 0; k < expected.size(); ++k)
      chk.checkInt((long long)k, k < got.size() ? got[k] : -1, expected[k]);
    chk.end();
  }
}
// =============================================================================================

int main(int argc, char** argv) { return runCase(argc, argv, "activemask-sync-mask", runConfigs); }
