// RUN: %check_warp_tidy %s warp-mask-excludes-caller,warp-zero-mask
//
// A mask the same in every lane but computed at run time from the values a
// function receives (`0xffffffff >> (32 - len)`, `(1u << n) - 1`). When the
// whole warp executes the collective, a value that makes the mask partial
// leaves lanes out that execute it without their own bit. A kernel's mask is
// judged over its parameters (and what the unit's launches guarantee); a
// helper's at each call where the whole warp calls it, with that call's
// arguments (analysis/RunTimeMasks.h).

// LightGBM's ShuffleReduceSumWarp before its fix, in our own words: the
// second stage of a block reduction calls it from the whole first warp with
// the number of warps as the length.
template <typename T>
__device__ __forceinline__ T sumFirstLanes(T v, int len) {
  if (len > 0) {
    const unsigned mask = 0xffffffffu >> (32 - len);
    for (int o = 16; o > 0; o >>= 1)
      v += __shfl_down_sync(mask, v, o);
      // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: mask of __shfl_down_sync is computed at run time and leaves out lanes that execute the call: every lane of the warp that calls this function at the call noted executes the shuffle, but for some values of what the mask is computed from it is 0x{{[0-9a-f]+}}, without lane {{[0-9]+}}'s bit, so the shuffle is undefined for that lane; pass 0xffffffff {{.*}}[warp-mask-excludes-caller]
      // CHECK-MESSAGES: :[[@LINE-4]]:27: note: the mask is computed here
  }
  return v;
}

template <typename T>
__device__ T blockSum(T v, T *partials, int len) {
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  v = sumFirstLanes<T>(v, 32);
  if (lane == 0)
    partials[warp] = v;
  __syncthreads();
  const int warps = (len + 31) / 32;
  if (warp == 0) {
    v = lane < warps ? partials[lane] : T(0);
    v = sumFirstLanes<T>(v, warps);
    // CHECK-MESSAGES: :[[@LINE-1]]:9: note: every lane of the warp calls 'sumFirstLanes<float>' here
  }
  return v;
}

__global__ void blockSumKernel(const float *in, float *out) {
  __shared__ float partials[32];
  float v = blockSum<float>(in[threadIdx.x], partials, blockDim.x);
  if (threadIdx.x == 0)
    out[0] = v;
}

// A constant argument that makes the helper's mask partial.
__device__ float firstLanes(float v, int len) {
  const unsigned mask = 0xffffffffu >> (32 - len);
  return v + __shfl_down_sync(mask, v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: mask of __shfl_down_sync is computed at run time and leaves out lanes that execute the call: {{.*}} but with that call's arguments it is 0x0000ffff, without lane {{(1[6-9]|2[0-9]|3[01])}}'s bit{{.*}}[warp-mask-excludes-caller]
  // CHECK-MESSAGES: :[[@LINE-3]]:25: note: the mask is computed here
}
__global__ void halfWarp(float *p) { p[threadIdx.x] = firstLanes(p[threadIdx.x], 16); }
// CHECK-MESSAGES: :[[@LINE-1]]:55: note: every lane of the warp calls 'firstLanes' here

// A kernel's own mask over its parameter: any length below 32 leaves lanes out.
__global__ void kernelLength(float *p, int len) {
  p[threadIdx.x] = __shfl_down_sync(0xffffffffu >> (32 - len), p[threadIdx.x], 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:37: warning: mask of __shfl_down_sync is computed at run time and leaves out lanes that execute the call: every lane of the warp that runs this kernel executes the shuffle, but for some values {{.*}}[warp-mask-excludes-caller]
}
__global__ void syncFirst(int n) { __syncwarp((1u << n) - 1); }
// CHECK-MESSAGES: :[[@LINE-1]]:47: warning: mask of __syncwarp is computed at run time and leaves out lanes {{.*}}[warp-mask-excludes-caller]

// The number of warps from the block's shape (blocks are whole warps, the
// default AssumeWarpAlignedBlocks): below 32 warps the mask is partial.
__global__ void warpsOfBlock(float *p) {
  float v = p[threadIdx.x];
  if (threadIdx.x < 32)
    v += __shfl_down_sync(0xffffffffu >> (32 - (blockDim.x + 31) / 32), v, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: mask of __shfl_down_sync is computed at run time and leaves out lanes that execute the call: every lane of the warp that runs this kernel {{.*}}[warp-mask-excludes-caller]
  p[threadIdx.x] = v;
}

// Must stay silent.

// The whole warp passes 32: the mask is full.
__global__ void fullWarp(float *p) { p[threadIdx.x] = firstLanes(p[threadIdx.x], 32); }

// Only the lanes below len call it: each is named.
__global__ void guardedCall(float *p, int len) {
  if (threadIdx.x % 32 < len)
    p[threadIdx.x] = firstLanes(p[threadIdx.x], len);
}
__device__ float guardedInside(float v, int len) {
  if (threadIdx.x % 32 < len)
    v += __shfl_down_sync(0xffffffffu >> (32 - len), v, 1);
  return v;
}
__global__ void callsGuardedInside(float *p, int len) {
  p[threadIdx.x] = guardedInside(p[threadIdx.x], len);
}

// The only launch passes 32 (LaunchFacts: a multiple of 32; a defined
// shift leaves 32 alone).
static __global__ void launchedWithWholeWarp(float *p, int len) {
  p[threadIdx.x] = __shfl_down_sync(0xffffffffu >> (32 - len), p[threadIdx.x], 1);
}
void launch(float *p) { launchedWithWholeWarp<<<1, 64>>>(p, 32); }

// Masks whose value is not visible arithmetic on what the function
// receives (loaded from memory, an opaque call), and one from the block's
// shape that no whole-warp block makes partial (`1u << blockDim.x` is
// defined only for blockDim.x = 0, and a mask of 0 is warp-zero-mask's).
__global__ void loadedMask(float *p, const unsigned *masks) {
  const unsigned m = masks[blockIdx.x];
  p[threadIdx.x] = __shfl_down_sync(m & 0xffffffffu, p[threadIdx.x], 1);
}
__global__ void blockShape(float *p) {
  p[threadIdx.x] = __shfl_down_sync((1u << blockDim.x) - 1, p[threadIdx.x], 1);
}
__device__ unsigned opaque(int);
__global__ void opaqueLength(float *p, int n) {
  p[threadIdx.x] = __shfl_down_sync(0xffffffffu >> (32 - opaque(n)), p[threadIdx.x], 1);
}

// A mask handed in: judged where the caller writes it (a wrapper's mask).
__device__ float passOn(float v, unsigned m) { return __shfl_down_sync(m, v, 1); }
__global__ void passesFull(float *p) { p[threadIdx.x] = passOn(p[threadIdx.x], 0xffffffffu); }
