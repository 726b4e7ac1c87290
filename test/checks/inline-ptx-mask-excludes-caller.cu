// RUN: %check_warp_tidy %s warp-mask-excludes-caller
//
// warp-mask-excludes-caller on inline PTX: a constant membermask (immediate
// or operand) that leaves out lanes which reach the instruction is flagged;
// masks covering every lane that gets there, run-time masks, and arrivals
// decided by data stay silent.

__global__ void mustFlag(const unsigned *in, unsigned *out) {
  unsigned v = in[threadIdx.x];
  unsigned r;
  // All 32 lanes execute it, but the mask names lanes 0-15 only.
  asm volatile("shfl.sync.bfly.b32 %0, %1, 1, 0x1f, 0x0000ffff;" : "=r"(r) : "r"(v));
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: mask 0x0000ffff of inline PTX 'shfl.sync.bfly.b32' leaves out lanes 16-31, which can reach this call: every calling lane must have its own bit set in the mask, so the shuffle is undefined for them{{.*}} [warp-mask-excludes-caller]
  out[threadIdx.x] = r;
  unsigned lane = threadIdx.x & 31;
  if (lane < 8) {
    asm volatile("vote.sync.ballot.b32 %0, 1, %1;" : "=r"(r) : "r"(0x0fu));
    // CHECK-MESSAGES: :[[@LINE-1]]:68: warning: mask 0x0000000f of inline PTX 'vote.sync.ballot.b32' leaves out lanes 4-7, which can reach this call{{.*}} [warp-mask-excludes-caller]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: the lanes that reach the call are decided here
    out[threadIdx.x + 32] = r;
  }
}

__global__ void mustStaySilent(const unsigned *in, unsigned *out, unsigned mask) {
  unsigned v = in[threadIdx.x];
  unsigned lane = threadIdx.x & 31;
  unsigned r = 0;
  if (lane < 16) {
    asm volatile("shfl.sync.bfly.b32 %0, %1, 1, 0x1f, 0x0000ffff;" : "=r"(r) : "r"(v));
    out[threadIdx.x] = r;
  }
  asm volatile("shfl.sync.bfly.b32 %0, %1, 1, 0x1f, 0xffffffff;" : "=r"(r) : "r"(v));
  out[threadIdx.x + 32] = r;
  asm volatile("bar.warp.sync %0;" : : "r"(mask));
  // Data decide who arrives: the program may guarantee only lanes 0-15 get here.
  if (v > 100)
    asm volatile("bar.warp.sync 0x0000ffff;");
}

// Masks read from PTX's lane mask registers (issue 39 item 3): the value
// each lane gets is the register's, so %lanemask_lt (the lanes below, never
// the lane itself) leaves every caller out, and %lanemask_le does not.
__device__ unsigned lanemaskLtReg() {
  unsigned m;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(m));
  return m;
}
__device__ unsigned lanemaskLeReg() {
  unsigned m;
  asm("mov.u32 %0, %%lanemask_le;" : "=r"(m));
  return m;
}

__global__ void laneMaskRegistersMustFlag(const int *in, unsigned *out) {
  int v = in[threadIdx.x];
  out[0] = __ballot_sync(lanemaskLtReg(), v > 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: mask of __ballot_sync is computed from the lane and leaves the calling lane out: lane {{[0-9]+}} executes the call and passes 0x{{[0-9a-f]+}}, without its own bit{{.*}}[warp-mask-excludes-caller]
  unsigned above;
  asm("mov.u32 %0, %%lanemask_gt;" : "=r"(above));
  out[1] = __ballot_sync(above, v > 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: mask of __ballot_sync is computed from the lane and leaves the calling lane out: lane {{[0-9]+}} executes the call and passes 0x{{[0-9a-f]+}}, without its own bit{{.*}}[warp-mask-excludes-caller]
}

__global__ void laneMaskRegistersMustStaySilent(const int *in, unsigned *out) {
  int v = in[threadIdx.x];
  out[0] = __ballot_sync(lanemaskLeReg(), v > 0);
  unsigned atOrAbove;
  asm("mov.u32 %0, %%lanemask_ge;" : "=r"(atOrAbove));
  out[1] = __ballot_sync(atOrAbove, v > 1);
}
