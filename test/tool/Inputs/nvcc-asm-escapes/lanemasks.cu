// Several nvcc-style escapes in one file, reported together in one round
// (nvdiffrast's Util.inl reads all four %lanemask registers this way), and
// compiled for two arches.
__device__ unsigned maskLt() { unsigned r; asm("mov.u32 %0, %lanemask_lt;" : "=r"(r)); return r; }
__device__ unsigned maskLe() { unsigned r; asm("mov.u32 %0, %lanemask_le;" : "=r"(r)); return r; }
__device__ unsigned maskGt() { unsigned r; asm("mov.u32 %0, %lanemask_gt;" : "=r"(r)); return r; }
__device__ unsigned maskGe() { unsigned r; asm("mov.u32 %0, %lanemask_ge;" : "=r"(r)); return r; }

__global__ void rank(unsigned *p) {
  unsigned m = maskLt() | maskLe() | maskGt() | maskGe();
  if (threadIdx.x < 8)
    m = __ballot_sync(0xffffffff, m != 0);
  p[threadIdx.x] = m;
}
