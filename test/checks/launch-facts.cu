// RUN: %check_warp_tidy %s warp-divergent-full-mask -- -arch=sm_80
//
// A kernel that returns early on `i >= n` before a full-mask collective is
// correct when every launch makes n a multiple of the warp's span of i: the
// launcher's check (`assert(n % 32 == 0)`, ggml's GGML_ASSERT) is what makes
// the early return warp-uniform. warp-tidy reads the launches of the unit
// (kernel<<<...>>>(...) and launcher templates that forward their arguments)
// and keeps what every one of them guarantees. A kernel another unit may
// launch, whose address escapes, or one launch of which gives no guarantee,
// is still reported.

#include <algorithm>
#include <cassert>
#include <cstdlib>
#include <utility>

#define FULL 0xffffffffu
[[noreturn]] void fail(const char *what);
#define CHECK(x) do { if (!(x)) fail(#x); } while (0)

__device__ float warpSum(float v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(FULL, v, o);
  return v;
}

// --- silent: every launch asserts n % 32 == 0 (macro around an if) ---------
static __global__ void quantizeRows(const float *x, float *y, int n) {
  const int i = blockDim.x * blockIdx.x + threadIdx.x;
  if (i >= n) return;
  y[i] = warpSum(x[i]);
}
void quantizeRowsHost(const float *x, float *y, int n) {
  CHECK(n % 32 == 0);
  quantizeRows<<<(n + 255) / 256, 256>>>(x, y, n);
}

// --- silent: four values per thread, launcher asserts n % 128 == 0 (assert) -
static __global__ void quantizeQuads(const float *x, float *y, long n) {
  const long i = 4 * ((long)blockDim.x * blockIdx.y + threadIdx.x);
  if (i >= n) return;
  float v = x[i] + x[i + 1] + x[i + 2] + x[i + 3];
  y[i / 4] = __reduce_add_sync(FULL, (unsigned)v);
}
void quantizeQuadsHost(const float *x, float *y, long n) {
  assert((n & 127) == 0);
  quantizeQuads<<<dim3(1, n / 512), 128>>>(x, y, n);
}

// --- silent: the argument is rounded up to a multiple of 32 ----------------
static __global__ void paddedRows(const float *x, float *y, int padded) {
  const int i = blockDim.x * blockIdx.x + threadIdx.x;
  if (i >= padded) return;
  y[i] = warpSum(x[i]);
}
void paddedRowsHost(const float *x, float *y, int n) {
  const int padded = (n + 31) / 32 * 32;
  paddedRows<<<(padded + 127) / 128, 128>>>(x, y, padded);
}

// --- silent: launched through a launcher template that forwards ------------
template <typename Kernel, typename... Args>
static void launch(Kernel kernel, dim3 grid, dim3 block, Args &&...args) {
  kernel<<<grid, block>>>(std::forward<Args>(args)...);
}
static __global__ void forwardedRows(const float *x, float *y, int n) {
  const int i = blockDim.x * blockIdx.x + threadIdx.x;
  if (i >= n) return;
  y[i] = warpSum(x[i]);
}
void forwardedRowsHost(const float *x, float *y, int n) {
  if (n % 64 != 0) abort();
  launch(forwardedRows, dim3((n + 255) / 256), dim3(256), x, y, n);
}

// --- flag: one of two launches gives no guarantee --------------------------
static __global__ void oneLaunchUnchecked(const float *x, float *y, int n) {
  const int i = blockDim.x * blockIdx.x + threadIdx.x;
  if (i >= n) return;
  y[i] = __shfl_down_sync(FULL, x[i], 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: __shfl_down_sync with a full mask runs after a thread-dependent early return{{.*}}[warp-divergent-full-mask]
}
void oneLaunchUncheckedHost(const float *x, float *y, int n, int m) {
  CHECK(n % 32 == 0);
  oneLaunchUnchecked<<<(n + 255) / 256, 256>>>(x, y, n);
  oneLaunchUnchecked<<<(m + 255) / 256, 256>>>(x, y, m);
}

// --- flag: the guarantee is too weak (a multiple of 16 splits a warp) ------
static __global__ void tooWeak(const float *x, float *y, int n) {
  const int i = blockDim.x * blockIdx.x + threadIdx.x;
  if (i >= n) return;
  y[i] = __shfl_down_sync(FULL, x[i], 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: __shfl_down_sync with a full mask runs after a thread-dependent early return{{.*}}[warp-divergent-full-mask]
}
void tooWeakHost(const float *x, float *y, int n) {
  CHECK(n % 16 == 0);
  tooWeak<<<(n + 255) / 256, 256>>>(x, y, n);
}

// --- flag: the check comes after the launch --------------------------------
static __global__ void checkedTooLate(const float *x, float *y, int n) {
  const int i = blockDim.x * blockIdx.x + threadIdx.x;
  if (i >= n) return;
  y[i] = __shfl_down_sync(FULL, x[i], 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: __shfl_down_sync with a full mask runs after a thread-dependent early return{{.*}}[warp-divergent-full-mask]
}
void checkedTooLateHost(const float *x, float *y, int n) {
  checkedTooLate<<<(n + 255) / 256, 256>>>(x, y, n);
  CHECK(n % 32 == 0);
}

// --- flag: other units may launch it (external linkage) --------------------
__global__ void externallyVisible(const float *x, float *y, int n) {
  const int i = blockDim.x * blockIdx.x + threadIdx.x;
  if (i >= n) return;
  y[i] = __shfl_down_sync(FULL, x[i], 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: __shfl_down_sync with a full mask runs after a thread-dependent early return{{.*}}[warp-divergent-full-mask]
}
void externallyVisibleHost(const float *x, float *y, int n) {
  CHECK(n % 32 == 0);
  externallyVisible<<<(n + 255) / 256, 256>>>(x, y, n);
}

// --- silent: a template defined in this file is launched only from here ------
// No other unit has its definition, so the implicit instantiations launched
// below are all there are.
template <int TILE> __global__ void tileRows(const float *x, float *y, int n) {
  const int i = TILE * blockIdx.x + threadIdx.x / 2;
  if (i >= n) return;
  y[i] = __shfl_down_sync(FULL, x[i], 1);
}
void tileRowsHost(const float *x, float *y, int n) {
  constexpr int Br = 64, Bc = 32;
  assert(n % std::max(Br, Bc) == 0);
  tileRows<64><<<(n + 63) / 64, 128>>>(x, y, n);
}

// --- flag: an explicit instantiation may be launched by another unit ------
template <int TILE> __global__ void exportedTileRows(const float *x, float *y, int n) {
  const int i = TILE * blockIdx.x + threadIdx.x / 2;
  if (i >= n) return;
  y[i] = __shfl_down_sync(FULL, x[i], 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: __shfl_down_sync with a full mask runs after a thread-dependent early return{{.*}}[warp-divergent-full-mask]
}
template __global__ void exportedTileRows<64>(const float *, float *, int);
void exportedTileRowsHost(const float *x, float *y, int n) {
  assert(n % 64 == 0);
  exportedTileRows<64><<<(n + 63) / 64, 128>>>(x, y, n);
}

// --- flag: its address escapes to a launch API -----------------------------
static __global__ void escapes(const float *x, float *y, int n) {
  const int i = blockDim.x * blockIdx.x + threadIdx.x;
  if (i >= n) return;
  y[i] = __shfl_down_sync(FULL, x[i], 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: __shfl_down_sync with a full mask runs after a thread-dependent early return{{.*}}[warp-divergent-full-mask]
}
void escapesHost(const float *x, float *y, int n, void **args) {
  CHECK(n % 32 == 0);
  escapes<<<(n + 255) / 256, 256>>>(x, y, n);
  cudaLaunchKernel((const void *)escapes, dim3(1), dim3(256), args, 0, 0);
}

// --- flag: the variable is changed between the check and the launch --------
static __global__ void changedAfterCheck(const float *x, float *y, int n) {
  const int i = blockDim.x * blockIdx.x + threadIdx.x;
  if (i >= n) return;
  y[i] = __shfl_down_sync(FULL, x[i], 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: __shfl_down_sync with a full mask runs after a thread-dependent early return{{.*}}[warp-divergent-full-mask]
}
void changedAfterCheckHost(const float *x, float *y, int n) {
  CHECK(n % 32 == 0);
  n -= 1;
  changedAfterCheck<<<(n + 255) / 256, 256>>>(x, y, n);
}

// --- flag: never launched here ---------------------------------------------
static __global__ void neverLaunched(const float *x, float *y, int n) {
  const int i = blockDim.x * blockIdx.x + threadIdx.x;
  if (i >= n) return;
  y[i] = __shfl_down_sync(FULL, x[i], 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: __shfl_down_sync with a full mask runs after a thread-dependent early return{{.*}}[warp-divergent-full-mask]
}
