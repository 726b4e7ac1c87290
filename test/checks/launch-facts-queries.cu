// RUN: %check_warp_tidy %s warp-divergent-full-mask -- -arch=sm_90
//
// Launch facts (see launch-facts.cu) through the launch forms real launchers
// use: the typed cudaLaunchKernelEx next to <<<...>>>, and the kernel's
// address passed as data to attribute queries (cudaFuncGetAttributes, a
// helper of this unit), which cannot launch it. This unit has no launch from
// an address and an argument array (cudaLaunchKernel), so those queries leave
// the facts intact.

#include <utility>
#define FULL 0xffffffffu
[[noreturn]] void fail(const char *what);
#define CHECK(x) if (!(x)) fail(#x)

static bool usesPdl(const void *kernel) {
  cudaFuncAttributes attr = {};
  cudaFuncGetAttributes(&attr, kernel);
  return attr.ptxVersion >= 90;
}

template <typename Kernel, typename... Args>
static void launchMaybePdl(Kernel kernel, dim3 grid, dim3 block, cudaStream_t stream,
                           Args &&...args) {
  if (usesPdl(reinterpret_cast<const void *>(kernel))) {
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = grid;
    cfg.blockDim = block;
    cfg.stream = stream;
    cudaLaunchKernelEx(&cfg, kernel, std::forward<Args>(args)...);
    return;
  }
  kernel<<<grid, block, 0, stream>>>(std::forward<Args>(args)...);
}

// --- silent: both launch forms pass n, asserted a multiple of 32 -----------
static __global__ void rows(const float *x, float *y, int n) {
  const int i = blockDim.x * blockIdx.x + threadIdx.x;
  if (i >= n) return;
  y[i] = __shfl_down_sync(FULL, x[i], 1);
}
void rowsHost(const float *x, float *y, int n, cudaStream_t s) {
  CHECK(n % 32 == 0);
  launchMaybePdl(rows, dim3((n + 255) / 256), dim3(256), s, x, y, n);
}

// --- flag: the typed cudaLaunchKernelEx passes a value without a guarantee -
static __global__ void exOnly(const float *x, float *y, int n) {
  const int i = blockDim.x * blockIdx.x + threadIdx.x;
  if (i >= n) return;
  y[i] = __shfl_down_sync(FULL, x[i], 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: __shfl_down_sync with a full mask runs after a thread-dependent early return{{.*}}[warp-divergent-full-mask]
}
void exOnlyHost(const float *x, float *y, int n, int m) {
  CHECK(n % 32 == 0);
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3((n + 255) / 256);
  cfg.blockDim = dim3(256);
  cudaLaunchKernelEx(&cfg, exOnly, x, y, n);
  cudaLaunchKernelEx(&cfg, exOnly, x, y, m);
}

// --- flag: the address is stored where anything may launch it --------------
static __global__ void stored(const float *x, float *y, int n) {
  const int i = blockDim.x * blockIdx.x + threadIdx.x;
  if (i >= n) return;
  y[i] = __shfl_down_sync(FULL, x[i], 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: __shfl_down_sync with a full mask runs after a thread-dependent early return{{.*}}[warp-divergent-full-mask]
}
void (*storedKernel)(const float *, float *, int) = stored;
void storedHost(const float *x, float *y, int n) {
  CHECK(n % 32 == 0);
  stored<<<(n + 255) / 256, 256>>>(x, y, n);
}
