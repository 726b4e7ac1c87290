// RUN: %check_warp_tidy %s warp-unguarded-partials-read
// RUN: cp %s %t.cu
// RUN: %warp_tidy --exit-zero --quiet --fix --checks=-*,warp-unguarded-partials-read %t.cu > /dev/null 2>&1
// RUN: %FileCheck --check-prefix=CHECK-FIXES --input-file=%t.cu %s
//
// Partials behind a helper's pointer parameter: the helper writes one slot
// per warp and reads them back at the lane index, and a caller hands it its
// `__shared__` array (LightGBM's ShuffleReduceSum(value, shared_mem_buffer,
// len) before c2c2407). The slots are the caller's array's; a pointer no
// call in the unit gives a shared array may name memory the program filled
// first, and is not judged.

__device__ float warpSum(float v) {
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, o);
  return v;
}

template <typename T>
__device__ T blockSum(T v, T *partials) {
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  v = warpSum(v);
  if (lane == 0)
    partials[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = partials[lane];
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: per-warp partials in 'partials' are read at the lane index without a bound by the number of warps{{.*}}[warp-unguarded-partials-read]
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: the partials are written at the warp index here
    // CHECK-FIXES: v = (lane < (blockDim.x + 31) / 32) ? partials[lane] : 0;
    v = warpSum(v);
  }
  return v;
}

__global__ void sumKernel(const float *in, float *out) {
  __shared__ float buffer[32];
  float v = blockSum<float>(in[threadIdx.x], buffer);
  // CHECK-MESSAGES: :[[@LINE-1]]:46: note: 'partials' is this caller's shared array 'buffer'
  if (threadIdx.x == 0)
    out[blockIdx.x] = v;
}

// Must stay silent.

// Bounded by the number of warps.
__device__ float boundedSum(float v, float *partials) {
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  v = warpSum(v);
  if (lane == 0)
    partials[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < (blockDim.x + 31) / 32 ? partials[lane] : 0.0f;
    v = warpSum(v);
  }
  return v;
}
__global__ void boundedKernel(const float *in, float *out) {
  __shared__ float buffer[32];
  out[blockIdx.x] = boundedSum(in[threadIdx.x], buffer);
}

// The only caller passes global memory, which it may have filled first.
__device__ float globalSum(float v, float *partials) {
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  v = warpSum(v);
  if (lane == 0)
    partials[warp] = v;
  __syncthreads();
  if (warp == 0)
    v = warpSum(partials[lane]);
  return v;
}
__global__ void globalKernel(const float *in, float *scratch, float *out) {
  out[blockIdx.x] = globalSum(in[threadIdx.x], scratch + 32 * blockIdx.x);
}

// The pointer moves on before the read: another range of slots.
__device__ float movedSum(float v, float *partials) {
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  v = warpSum(v);
  if (lane == 0)
    partials[warp] = v;
  __syncthreads();
  partials += 32;
  if (warp == 0)
    v = warpSum(partials[lane]);
  return v;
}
__global__ void movedKernel(const float *in, float *out) {
  __shared__ float buffer[64];
  out[blockIdx.x] = movedSum(in[threadIdx.x], buffer);
}
