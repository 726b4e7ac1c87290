// The fix-its of warp-missing-arch-guard, applied, produce code that compiles
// for the old and the new architecture alike.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/fix.cu
// RUN: %warp_tidy --quiet --exit-zero --fix --checks=-*,warp-missing-arch-guard %t/fix.cu -- -arch=sm_75
// RUN: %FileCheck --check-prefix=FIXED --input-file=%t/fix.cu %s
// RUN: %warp_tidy --quiet --checks=-*,warp-missing-arch-guard %t/fix.cu -- -gencode arch=compute_75,code=sm_75 -gencode arch=compute_80,code=sm_80

#define FULL 0xffffffffu

// The seed: a guard without a fallback gets an #else with a shuffle loop
// (the mask is not known to be the whole warp: a loop over its lanes).
__global__ void seed(int *out, unsigned mask) {
  int val = out[threadIdx.x];
#if __CUDA_ARCH__ >= 800
  val = __reduce_add_sync(mask, val);
#endif
  out[threadIdx.x] = val;
}
// FIXED-LABEL: void seed(
// FIXED:      {{^}}#if __CUDA_ARCH__ >= 800
// FIXED-NEXT: {{^}}  val = __reduce_add_sync(mask, val);
// FIXED-NEXT: {{^}}#else
// FIXED-NEXT: {{^}}  { decltype(val) warpTidyAcc = 0; for (int warpTidyLane = 0; warpTidyLane < 32; ++warpTidyLane) if ((mask) >> warpTidyLane & 1u) warpTidyAcc += __shfl_sync(mask, val, warpTidyLane); val = warpTidyAcc; }
// FIXED-NEXT: {{^}}#endif

// A full-warp mask: the xor butterfly.
__global__ void fullMask(unsigned *out) {
  unsigned v = out[threadIdx.x];
#if __CUDA_ARCH__ >= 800
  v = __reduce_max_sync(FULL, v);
#endif
  out[threadIdx.x] = v;
}
// FIXED-LABEL: void fullMask(
// FIXED:      {{^}}#else
// FIXED-NEXT: {{^}}  for (int warpTidyOffset = 16; warpTidyOffset > 0; warpTidyOffset /= 2) v = max(v, __shfl_xor_sync(FULL, v, warpTidyOffset));
// FIXED-NEXT: {{^}}#endif

// An unguarded simple reduction gets the whole guard.
__global__ void unguarded(int *out, int v) {
  v = __reduce_add_sync(0xffffffff, v);
  out[0] = v;
}
// FIXED-LABEL: void unguarded(
// FIXED-NEXT: {{^}}#if __CUDA_ARCH__ >= 800
// FIXED-NEXT: {{^}}  v = __reduce_add_sync(0xffffffff, v);
// FIXED-NEXT: {{^}}#else
// FIXED-NEXT: {{^}}  for (int warpTidyOffset = 16; warpTidyOffset > 0; warpTidyOffset /= 2) v += __shfl_xor_sync(0xffffffff, v, warpTidyOffset);
// FIXED-NEXT: {{^}}#endif
// FIXED-NEXT: {{^}}  out[0] = v;
