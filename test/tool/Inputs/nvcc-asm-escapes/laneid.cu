// Inline asm written for nvcc: `%laneid` with one '%' in an asm that has
// operands. nvcc passes it through to ptxas; clang rejects it unless it is
// read as nvcc reads it.
__device__ unsigned laneId() {
  unsigned id;
  asm("mov.u32 %0, %laneid;" : "=r"(id));
  return id;
}

__device__ unsigned laneAndWarp(unsigned *warp) {
  unsigned lane, w;
  asm volatile("mov.u32 %0, %laneid; mov.u32 %1, %warpid;" : "=r"(lane), "=r"(w));
  *warp = w;
  return lane;
}

__global__ void halfWarpShuffle(float *p) {
  float v = p[threadIdx.x];
  unsigned w;
  if (laneId() < 16) v = __shfl_down_sync(0xffffffff, v, 1);
  p[threadIdx.x] = v + laneAndWarp(&w);
}

__global__ void legacyAfterAsm(int *p) {
  int v = p[threadIdx.x]; unsigned l; asm("mov.u32 %0, %laneid;" : "=r"(l)); v = __shfl(v, 0);
  p[threadIdx.x] = v + l;
}
