// warp-tidy runtime validation -- case "legacy-intrinsic" (check warp-legacy-intrinsic).
// A Kepler-era warp reduction with __shfl_down, the shuffle without a mask. CUDA 13 supports no
// architecture that still has it: nvcc rejects the program ("identifier "__shfl_down" is
// undefined") and clang's front end accepts it but its back end aborts, so the symptom is a build
// that breaks late. fixed.cu (and warp-tidy's fix-it) is the same reduction with the _sync form.
//
// bug.cu and fixed.cu are the same program except for the marked lines (a BUG comment in bug.cu,
// a FIX comment in fixed.cu). The host side they share, and what the program prints, is in
// runtime-validation/common/harness.cuh.
#include "../../common/harness.cuh"

// =============================================================================================
// The case.

// Per warp: the sum of its 32 values; lane 0 writes it.
// Launch contract: blockDim.x is a multiple of 32, so every warp is complete; the threads past
// n take part with 0, so every lane of every warp runs every step of the reduction.
__global__ void warpSums(const int* in, int n, int* sums) {
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int s = (gid < n) ? in[gid] : 0;
  for (int off = 16; off > 0; off >>= 1)
    s += __shfl_down(s, off);  // BUG: legacy shuffle without a mask; gone since sm_70
  if ((threadIdx.x & 31) == 0) sums[gid / 32] = s;
}

static void runConfigs(std::mt19937_64& rng, Checker& chk) {
  struct Config { int block, nLo, nHi; };
  const Config configs[] = {{32, 33, 100}, {96, 1000, 5000}, {160, 1000, 5000},
                            {256, 5000, 20000}, {480, 5000, 20000}, {1024, 5000, 20000}};
  for (const Config& c : configs) {
    const int n = countNotMultipleOf32(rng, c.nLo, c.nHi);
    const std::vector<int> in = randomInts(rng, n, -1000, 1000);
    const int grid = (n + c.block - 1) / c.block;
    const int warps = grid * c.block / 32;
    DeviceArray<int> dIn(in);
    DeviceArray<int> dSums(warps);
    poisonSharedMemory((unsigned)rng());
    warpSums<<<grid, c.block>>>(dIn.ptr, n, dSums.ptr);
    LAUNCH_CHECK();
    const std::vector<int> got = dSums.download();
    chk.begin(format("block=%d grid=%d n=%d (one sum per warp)", c.block, grid, n));
    for (int w = 0; w < warps; ++w) {
      long long expected = 0;
      for (int i = w * 32; i < w * 32 + 32 && i < n; ++i) expected += in[i];
      chk.checkInt(w, got[w], expected);
    }
    chk.end();
  }
}
// =============================================================================================

int main(int argc, char** argv) { return runCase(argc, argv, "legacy-intrinsic", runConfigs); }
