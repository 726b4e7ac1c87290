// warp-tidy runtime validation -- case "missing-arch-guard" (check warp-missing-arch-guard).
// __reduce_add_sync (sm_80+) is guarded by #if __CUDA_ARCH__ >= 800 but has no #else: compiled
// for sm_75 the guarded reduction is silently skipped and every lane keeps its own value.
//
// bug.cu and fixed.cu are the same program except for the marked lines (a BUG comment in bug.cu,
// a FIX comment in fixed.cu). The host side they share, and what the program prints, is in
// runtime-validation/common/harness.cuh.
#include "../../common/harness.cuh"

// =============================================================================================
// The case.

// Sum of the calling warp's 32 values, returned to every lane.
__device__ int warpTotal(int v) {
  int val = v;
#if __CUDA_ARCH__ >= 800
  val = __reduce_add_sync(0xffffffffu, val);
#else  // FIX: shuffle reduction where __reduce_add_sync does not exist
  for (int off = 16; off > 0; off >>= 1) val += __shfl_xor_sync(0xffffffffu, val, off);
#endif
  return val;
}

// Every element is replaced by its warp's total.
// Launch contract: blockDim.x is a multiple of 32, so every warp is complete; the threads past
// n take part with 0 and write nothing.
__global__ void warpTotals(const int* in, int n, int* out) {
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = (gid < n) ? in[gid] : 0;
  const int total = warpTotal(v);
  if (gid < n) out[gid] = total;
}

static void runConfigs(std::mt19937_64& rng, Checker& chk) {
  struct Config { int block, nLo, nHi; };
  const Config configs[] = {{32, 33, 100}, {96, 1000, 5000}, {160, 1000, 5000},
                            {256, 5000, 20000}, {480, 5000, 20000}, {1024, 5000, 20000}};
  for (const Config& c : configs) {
    const int n = countNotMultipleOf32(rng, c.nLo, c.nHi);
    const std::vector<int> in = randomInts(rng, n, 1, 10);
    const int grid = (n + c.block - 1) / c.block;
    DeviceArray<int> dIn(in);
    DeviceArray<int> dOut(n);
    poisonSharedMemory((unsigned)rng());
    warpTotals<<<grid, c.block>>>(dIn.ptr, n, dOut.ptr);
    LAUNCH_CHECK();
    const std::vector<int> got = dOut.download();
    chk.begin(format("block=%d grid=%d n=%d (warp total per element)", c.block, grid, n));
    for (int w = 0; w * 32 < n; ++w) {
      long long total = 0;
      for (int i = w * 32; i < w * 32 + 32 && i < n; ++i) total += in[i];
      for (int i = w * 32; i < w * 32 + 32 && i < n; ++i) chk.checkInt(i, got[i], total);
    }
    chk.end();
  }
}
// =============================================================================================

int main(int argc, char** argv) { return runCase(argc, argv, "missing-arch-guard", runConfigs); }
