// RUN: %check_warp_tidy %s warp-divergent-full-mask -- -arch=sm_80 -fgpu-rdc
//
// A kernel launched from device code (dynamic parallelism) runs in warps of
// its own grid: its collectives are not the launching warp's. gpu_selection
// launches its warp-sized base case and partition kernels from lane 0 of a
// warp (`if (idx == 0) select<<<1, 32>>>(...)`) and through a `__host__
// __device__` function that only launches; each launch was reported as a
// call of a helper that needs the whole warp. A helper called directly under
// the same branch still is. Silence is asserted by default.

#define FULL 0xffffffffu

__global__ void warpSum(const float *in, float *out) {
  float v = in[threadIdx.x];
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_xor_sync(FULL, v, o);
  if (threadIdx.x == 0)
    *out = v;
}

__host__ __device__ void launchSum(const float *in, float *out) { warpSum<<<1, 32>>>(in, out); }

__device__ float sumInWarp(float v) {
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_xor_sync(FULL, v, o);
  return v;
}

// ------------------------------------------------------- must stay silent

__global__ void launchFromLaneZero(const float *in, float *out) {
  if (threadIdx.x % 32 == 0)
    warpSum<<<1, 32>>>(in + blockIdx.x * 32, out + blockIdx.x);
  if (threadIdx.x % 32 == 1)
    launchSum(in, out);
}

// ---------------------------------------------------------- must flag

__global__ void helperFromLaneZero(const float *in, float *out) {
  if (threadIdx.x % 32 == 0)
    out[blockIdx.x] = sumInWarp(in[threadIdx.x]);
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: 'sumInWarp' is called from thread-divergent code{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition differs between the lanes of a warp{{.*}}
  // CHECK-MESSAGES: :25:10: note: the shuffle in 'sumInWarp' that needs the lanes is here
}
