// The lane id read the nvcc way, from a header found through -Iinc.
#pragma once
__device__ __forceinline__ unsigned laneFromHeader() {
  unsigned id;
  asm volatile("mov.u32 %0, %laneid;" : "=r"(id));
  return id;
}
