// warp-legacy-intrinsic's fix-it: the `_sync` form with a full mask, offered
// only where every lane of the warp provably reaches the call. The fixed file
// must still compile, and exactly the calls that were not provable remain.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/fix.cu
// RUN: %warp_tidy --quiet --exit-zero --fix --checks=-*,warp-legacy-intrinsic %t/fix.cu -- -arch=sm_75
// RUN: %FileCheck --check-prefix=FIXED --input-file=%t/fix.cu %s
// RUN: %check_warp_tidy %t/fix.cu warp-legacy-intrinsic --check-prefix=REMAINS -- -arch=sm_75
// With blocks that may not be whole warps, a full mask can name lanes that do
// not exist, so nothing is rewritten.
// RUN: cp %s %t/unaligned.cu
// RUN: %warp_tidy --quiet --exit-zero --fix --checks=-*,warp-legacy-intrinsic --config="{CheckOptions: {warp-legacy-intrinsic.AssumeWarpAlignedBlocks: false}}" %t/unaligned.cu -- -arch=sm_75
// RUN: %FileCheck --check-prefix=UNCHANGED --input-file=%t/unaligned.cu %s

#define VOTE_ANY(p) __any(p)
#define VALUE v

// A Kepler-era warp reduction: every lane runs every step.
__global__ void warpSums(const int *in, int n, int *out) {
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int s = gid < n ? in[gid] : 0;
  for (int off = 16; off > 0; off >>= 1)
    s += __shfl_down(s, off);
  // FIXED: {{^}}    s += __shfl_down_sync(0xffffffff, s, off);
  // UNCHANGED: {{^}}    s += __shfl_down(s, off);
  if ((threadIdx.x & 31) == 0)
    out[gid / 32] = s;
}

__global__ void wholeWarp(int *out, float *f, int v) {
  out[0] = __shfl(v, 3);
  // FIXED: {{^}}  out[0] = __shfl_sync(0xffffffff, v, 3);
  out[1] = ::__shfl_up(VALUE, 1, 16);
  // FIXED: {{^}}  out[1] = ::__shfl_up_sync(0xffffffff, VALUE, 1, 16);
  f[0] = __shfl_xor(f[1] * 2.0f, 1);
  // FIXED: {{^}}  f[0] = __shfl_xor_sync(0xffffffff, f[1] * 2.0f, 1);
  // A warp-uniform condition (a kernel argument, blockIdx) keeps the warp whole.
  if (blockIdx.x == 0 && v > 0)
    out[2] = __ballot(threadIdx.x & 1);
  // FIXED: {{^}}    out[2] = __ballot_sync(0xffffffff, threadIdx.x & 1);
  for (int i = 0; i < v; ++i)
    out[3] += __all(out[4] > i);
  // FIXED: {{^}}    out[3] += __all_sync(0xffffffff, out[4] > i);
}

// Template kernels: rewritten only when every instantiation proves it.
template <int Lanes> __global__ void tiled(int *out, int v) {
  if (threadIdx.x % 32 < Lanes)
    out[0] = __any(v);
  // FIXED: {{^}}    out[0] = __any(v);
  // REMAINS: :[[@LINE-2]]:14: warning: __any is a legacy warp vote {{.*}}use __any_sync(mask, ...) with the mask{{.*}}[warp-legacy-intrinsic]
  out[1] = __all(v);
  // FIXED: {{^}}  out[1] = __all_sync(0xffffffff, v);
}
template __global__ void tiled<32>(int *, int);
template __global__ void tiled<16>(int *, int);

__device__ int helperOfUnknownCallers(int v) {
  // Callers (possibly in other files) may call this from divergent code.
  return __shfl(v, 0);
  // FIXED: {{^}}  return __shfl(v, 0);
  // REMAINS: :[[@LINE-2]]:10: warning: __shfl is a legacy warp shuffle {{.*}}use __shfl_sync(mask, ...) with the mask{{.*}}[warp-legacy-intrinsic]
}

__global__ void notWholeWarp(int *out, int v) {
  out[0] = helperOfUnknownCallers(v);
  // Only lanes 0-15.
  if ((threadIdx.x & 31) < 16)
    out[1] = __shfl_down(v, 1);
  // FIXED: {{^}}    out[1] = __shfl_down(v, 1);
  // REMAINS: :[[@LINE-2]]:14: warning: __shfl_down is a legacy warp shuffle {{.*}}use __shfl_down_sync(mask, ...){{.*}}[warp-legacy-intrinsic]
  // Data decide which lanes arrive.
  if (out[threadIdx.x] > 0)
    out[2] = __ballot(1);
  // FIXED: {{^}}    out[2] = __ballot(1);
  // REMAINS: :[[@LINE-2]]:14: warning: __ballot is a legacy warp ballot {{.*}}use __ballot_sync(mask, ...){{.*}}[warp-legacy-intrinsic]
  // Spelled inside a macro: rewriting the macro would change its other uses.
  out[3] = VOTE_ANY(v);
  // FIXED: {{^}}  out[3] = VOTE_ANY(v);
  // REMAINS: :[[@LINE-2]]:12: warning: __any is a legacy warp vote {{.*}}use __any_sync(mask, ...){{.*}}[warp-legacy-intrinsic]
  // In a lambda: its callers decide which lanes run it.
  auto vote = [](int p) { return __all(p); };
  // REMAINS: :[[@LINE-1]]:34: warning: __all is a legacy warp vote {{.*}}use __all_sync(mask, ...){{.*}}[warp-legacy-intrinsic]
  out[4] = vote(v);
  // After some lanes have returned, they cannot take part.
  if ((threadIdx.x & 31) >= 8)
    return;
  out[5] = __shfl_xor(v, 1);
  // FIXED: {{^}}  out[5] = __shfl_xor(v, 1);
  // REMAINS: :[[@LINE-2]]:12: warning: __shfl_xor is a legacy warp shuffle {{.*}}use __shfl_xor_sync(mask, ...){{.*}}[warp-legacy-intrinsic]
}
