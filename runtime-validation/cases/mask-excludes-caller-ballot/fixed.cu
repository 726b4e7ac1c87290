// warp-tidy runtime validation -- case "mask-excludes-caller-ballot" (check
// warp-mask-excludes-caller). Each warp sums a row of 48 values in two chunks of 32 lanes; the
// mask of each chunk's reduction is a ballot of the lanes that hold an element of the row, but
// every lane runs the reduction, so in the second chunk lanes 16..31 shuffle without their own
// bit (NVIDIA Warp's tile reduction, GH-1133, had this shape).
//
// bug.cu and fixed.cu are the same program except for the marked line (a BUG comment in bug.cu, a
// FIX comment in fixed.cu) and the ballot before it that fixed.cu no longer needs. The host side
// they share, and what the program prints, is in runtime-validation/common/harness.cuh.
#include "../../common/harness.cuh"

// =============================================================================================
// The case.

constexpr int kRowWidth = 48;

// The sum of the values of the lanes named in `mask`, in lane 0.
__device__ int chunkSum(int v, unsigned mask) {
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(mask, v, off);
  return v;
}

// out[row] = the sum of row `row` of `in` (rows x kRowWidth), one warp per row.
// Launch contract: blockDim.x is a multiple of 32, so every warp is complete; warps past the
// last row return together.
__global__ void rowSums(const int* in, int rows, int* out) {
  const int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const int lane = threadIdx.x & 31;
  if (row >= rows) return;
  int total = 0;
  for (int base = 0; base < kRowWidth; base += 32) {
    const bool inRow = base + lane < kRowWidth;
    const int v = inRow ? in[row * kRowWidth + base + lane] : 0;
    total += chunkSum(v, 0xffffffffu);  // FIX: every lane takes part, those past the row with 0
  }
  if (lane == 0) out[row] = total;
}

static void runConfigs(std::mt19937_64& rng, Checker& chk) {
  struct Config { int block, rowsLo, rowsHi; };
  const Config configs[] = {{32, 3, 40}, {96, 100, 500}, {256, 500, 2000}, {1024, 2000, 8000}};
  for (const Config& c : configs) {
    const int rows = randInt(rng, c.rowsLo, c.rowsHi);
    const std::vector<int> in = randomInts(rng, (size_t)rows * kRowWidth, 1, 10);
    const int warpsPerBlock = c.block / 32;
    const int grid = (rows + warpsPerBlock - 1) / warpsPerBlock;
    DeviceArray<int> dIn(in);
    DeviceArray<int> dOut(rows);
    poisonSharedMemory((unsigned)rng());
    rowSums<<<grid, c.block>>>(dIn.ptr, rows, dOut.ptr);
    LAUNCH_CHECK();
    const std::vector<int> got = dOut.download();
    chk.begin(format("block=%d grid=%d rows=%d (one sum per row of %d)", c.block, grid, rows,
                     kRowWidth));
    for (int r = 0; r < rows; ++r) {
      long long total = 0;
      for (int i = 0; i < kRowWidth; ++i) total += in[(size_t)r * kRowWidth + i];
      chk.checkInt(r, got[r], total, "row");
    }
    chk.end();
  }
}
// =============================================================================================

int main(int argc, char** argv) {
  return runCase(argc, argv, "mask-excludes-caller-ballot", runConfigs);
}
