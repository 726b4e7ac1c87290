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
