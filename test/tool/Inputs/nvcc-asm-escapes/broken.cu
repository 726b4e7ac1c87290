// An asm escape nvcc passes through, and a real compile error: still an error.
__device__ unsigned laneId() {
  unsigned id;
  asm("mov.u32 %0, %laneid;" : "=r"(id));
  return id + undeclared;
}
