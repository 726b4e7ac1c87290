// warp-tidy runtime validation -- case "unguarded-shfl-scan" (check warp-unguarded-shfl-scan).
// An inclusive warp scan that adds the __shfl_up_sync result without the `lane >= off` guard:
// lanes below off get their own value back and add it twice (measured: 31 of 32 lanes wrong).
//
// bug.cu and fixed.cu are the same program except for the marked lines (a BUG comment in bug.cu,
// a FIX comment in fixed.cu). The host side they share, and what the program prints, is in
// runtime-validation/common/harness.cuh.
#include "../../common/harness.cuh"

// =============================================================================================
// The case.

// Inclusive prefix sum over each warp's 32 values (Hillis-Steele scan with __shfl_up_sync);
// lane 31 also writes the warp's total, as the first stage of a block-wide scan would.
// Launch contract: blockDim.x is a multiple of 32, so every warp is complete; the threads past
// n take part with 0 and write nothing.
__global__ void warpInclusiveScan(const int* in, int n, int* out, int* warpTotals) {
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x & 31;
  int x = (gid < n) ? in[gid] : 0;
  for (int off = 1; off < 32; off <<= 1) {
    const int y = __shfl_up_sync(0xffffffffu, x, off);
    if (lane >= off) x += y;  // FIX: lanes below off have no lane to add
  }
  if (gid < n) out[gid] = x;
  if (lane == 31) warpTotals[gid / 32] = x;
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
    const int warps = grid * c.block / 32;
    DeviceArray<int> dOut(n);
    DeviceArray<int> dTotals(warps);
    poisonSharedMemory((unsigned)rng());
    warpInclusiveScan<<<grid, c.block>>>(dIn.ptr, n, dOut.ptr, dTotals.ptr);
    LAUNCH_CHECK();
    const std::vector<int> got = dOut.download();
    const std::vector<int> gotTotals = dTotals.download();
    chk.begin(format("block=%d grid=%d n=%d (prefix sum per element, total per warp)", c.block, grid, n));
    long long running = 0;
    for (int i = 0; i < n; ++i) {
      if (i % 32 == 0) running = 0;
      running += in[i];
      chk.checkInt(i, got[i], running);
    }
    for (int w = 0; w < warps; ++w) {
      long long total = 0;
      for (int i = w * 32; i < w * 32 + 32 && i < n; ++i) total += in[i];
      chk.checkInt(w, gotTotals[w], total, "warp total");
    }
    chk.end();
  }
}
// =============================================================================================

int main(int argc, char** argv) { return runCase(argc, argv, "unguarded-shfl-scan", runConfigs); }
