// warp-tidy runtime validation -- case "mask-excludes-caller-field" (check
// warp-mask-excludes-caller). CUB's WarpReduceShfl before d622848, in its own shape: a 16-lane
// logical warp object whose constructor computes the member mask once into a field, shifted by
// the logical warp's index instead of 16 times it, and a method whose inline-PTX shuffle takes
// the field as its membermask operand. Lanes 17..31 shuffle without their own bit.
//
// bug.cu and fixed.cu are the same program except for the marked lines (a BUG comment in bug.cu,
// a FIX comment in fixed.cu). The host side they share, and what the program prints, is in
// runtime-validation/common/harness.cuh.
#include "../../common/harness.cuh"

// =============================================================================================
// The case.

__device__ __forceinline__ unsigned laneId() {
  unsigned ret;
  asm("mov.u32 %0, %%laneid;" : "=r"(ret));
  return ret;
}

// One 16-lane logical warp, as CUB builds it per thread.
struct HalfWarpReduce {
  unsigned member_mask;
  __device__ HalfWarpReduce()
      : member_mask((0xffffffffu >> 16) << (16 * (laneId() / 16))) {}  // FIX: each group names its own 16 lanes
  // v from the lane `offset` below in this logical warp (c = 0x101f: 16-lane segments).
  __device__ int shuffleDown(int v, int offset) const {
    int out;
    asm volatile("shfl.sync.down.b32 %0, %1, %2, 0x101f, %3;"
                 : "=r"(out) : "r"(v), "r"(offset), "r"(member_mask));
    return out;
  }
  __device__ int sum(int v) const {
    for (int off = 8; off > 0; off >>= 1)
      v += shuffleDown(v, off);
    return v;
  }
};

// out[i / 16] = the sum of in[i .. i + 15] for each aligned group of 16 elements.
// Launch contract: blockDim.x is a multiple of 32, so every warp is complete; the threads past
// n take part with 0 and write nothing.
__global__ void halfWarpSums(const int* in, int n, int* out) {
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int v = (gid < n) ? in[gid] : 0;
  v = HalfWarpReduce().sum(v);
  if (gid < n && laneId() % 16 == 0) out[gid / 16] = v;
}

static void runConfigs(std::mt19937_64& rng, Checker& chk) {
  struct Config { int block, nLo, nHi; };
  const Config configs[] = {{32, 33, 100}, {96, 1000, 5000}, {256, 5000, 20000},
                            {1024, 5000, 20000}};
  for (const Config& c : configs) {
    const int n = countNotMultipleOf32(rng, c.nLo, c.nHi);
    const std::vector<int> in = randomInts(rng, n, 1, 10);
    const int grid = (n + c.block - 1) / c.block;
    DeviceArray<int> dIn(in);
    DeviceArray<int> dOut((n + 15) / 16);
    poisonSharedMemory((unsigned)rng());
    halfWarpSums<<<grid, c.block>>>(dIn.ptr, n, dOut.ptr);
    LAUNCH_CHECK();
    const std::vector<int> got = dOut.download();
    chk.begin(format("block=%d grid=%d n=%d (one sum per 16 elements)", c.block, grid, n));
    for (int g = 0; g * 16 < n; ++g) {
      long long total = 0;
      for (int i = g * 16; i < g * 16 + 16 && i < n; ++i) total += in[i];
      chk.checkInt(g, got[g], total, "group");
    }
    chk.end();
  }
}
// =============================================================================================

int main(int argc, char** argv) {
  return runCase(argc, argv, "mask-excludes-caller-field", runConfigs);
}
