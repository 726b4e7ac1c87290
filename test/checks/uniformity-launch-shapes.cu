// RUN: %check_warp_tidy %s warp-divergent-full-mask,warp-mask-excludes-caller -- -arch=sm_80
//
// Warps are cut from the linear thread id with the block's real extents.
// When every launch that can run a function is in the unit, the questions
// about its lanes are asked in those block shapes only: in a 16 x 16 block
// a warp is two rows of 16, so `(tx + 16 * ty) % 32 / 16` is the half-warp a
// lane sits in; in an 8 x 32 block `(tx + 8 * ty) / 32` is the warp's index.
// The same code launched with other shapes is reported. A helper's integer
// parameter that every call passes as a constant is that constant.

#define FULL 0xffffffffu

// --- half-warp masks computed from a 2-D position -----------------------------
static __global__ void halfWarpSums(const float *a, float *y) {
  int t = threadIdx.x + 16 * threadIdx.y;
  unsigned half = t % 32 / 16;
  unsigned mask = 0xffffu << (half * 16);
  float s = a[t];
  // Silent: with 16 x 16 blocks lanes 0-15 are half 0 and pass 0x0000ffff,
  // lanes 16-31 are half 1 and pass 0xffff0000.
  for (int d = 8; d > 0; d >>= 1)
    s += __shfl_xor_sync(mask, s, d);
  y[t] = s;
}

static __global__ void halfWarpSumsWide(const float *a, float *y) {
  int t = threadIdx.x + 16 * threadIdx.y;
  unsigned half = t % 32 / 16;
  unsigned mask = 0xffffu << (half * 16);
  float s = a[t];
  // With 32 x 8 blocks an odd row shifts the halves: lane 0 of row 1 is
  // half 1.
  for (int d = 8; d > 0; d >>= 1)
    s += __shfl_xor_sync(mask, s, d);
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: mask of __shfl_xor_sync is computed from the lane and leaves the calling lane out{{.*}}[warp-mask-excludes-caller]
  // CHECK-MESSAGES: :[[@LINE-7]]:19: note: the mask is computed from the lane here
  y[t] = s;
}

// --- a warp index linearised with the block's x-width --------------------------
template <int BX>
static __global__ void warpRows(const float *a, float *y, int warps) {
  int warp = (threadIdx.x + threadIdx.y * BX) / 32;
  // Silent when launched with BX == blockDim.x: the whole warp returns or
  // none of it.
  if (warp >= warps)
    return;
  float s = a[threadIdx.x + threadIdx.y * BX];
  for (int d = 16; d > 0; d >>= 1)
    s += __shfl_xor_sync(FULL, s, d);
  y[warp] = s;
}

// The same index in blocks 16 wide: lanes 16-31 of the second warp have
// a larger `warp` than lanes 0-15.
static __global__ void warpRowsMismatched(const float *a, float *y, int warps) {
  int warp = (threadIdx.x + threadIdx.y * 8) / 32;
  if (warp >= warps)
    return;
  float s = a[threadIdx.x];
  for (int d = 16; d > 0; d >>= 1)
    s += __shfl_xor_sync(FULL, s, d);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: __shfl_xor_sync with a full mask runs after a thread-dependent early return{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-6]]:7: note: this condition differs between the lanes of a warp
  y[warp] = s;
}

// --- a helper's parameter every call passes as a constant --------------------
static __device__ float upperHalfSum(float v, int n) {
  int half = n >> 1;
  if (threadIdx.x < half)
    v += __shfl_xor_sync(FULL, v, 1);
  return v;
}

// Silent: every call passes 1024, so the branch is `threadIdx.x < 512`.
__global__ void wideHalves(const float *a, float *y) {
  y[threadIdx.x] = upperHalfSum(a[threadIdx.x], 1024);
}

static __device__ float lowerLanesSum(float v, int n) {
  if (threadIdx.x < n)
    v += __shfl_xor_sync(FULL, v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: __shfl_xor_sync with a full mask{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition differs between the lanes of a warp
  return v;
}

// Reported: the calls pass 20 and 1024, and `threadIdx.x < 20` splits a warp.
__global__ void narrowLanes(const float *a, float *y) {
  y[threadIdx.x] = lowerLanesSum(a[threadIdx.x], 20) + lowerLanesSum(a[threadIdx.x], 1024);
}

void launchAll(const float *a, float *y, int n) {
  halfWarpSums<<<n, dim3(16, 16)>>>(a, y);
  halfWarpSumsWide<<<n, dim3(32, 8)>>>(a, y);
  warpRows<8><<<n, dim3(8, 32)>>>(a, y, n);
  warpRows<16><<<n, dim3(16, 64)>>>(a, y, n);
  warpRowsMismatched<<<n, dim3(16, 16)>>>(a, y, n);
  wideHalves<<<n, 1024>>>(a, y);
  narrowLanes<<<n, 256>>>(a, y);
}
