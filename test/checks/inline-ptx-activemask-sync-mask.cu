// RUN: %check_warp_tidy %s warp-activemask-sync-mask
//
// warp-activemask-sync-mask with inline PTX on either side: an asm
// collective whose mask operand is __activemask(), a mask variable written by
// an inline `activemask`, and a template that feeds its own activemask
// register to its collective are flagged; masks from a ballot before the
// branch, constants, and activemask used as data stay silent.

__device__ unsigned shflIdx(unsigned mask, unsigned v, unsigned lane) {
  unsigned r;
  asm volatile("shfl.sync.idx.b32 %0, %1, %2, 0x1f, %3;"
               : "=r"(r) : "r"(v), "r"(lane), "r"(mask));
  return r;
}

__global__ void mustFlag(const unsigned *in, unsigned threshold, unsigned *out) {
  unsigned v = in[threadIdx.x];
  unsigned r;
  if (v > threshold) {
    asm volatile("shfl.sync.idx.b32 %0, %1, 0, 0x1f, %2;" : "=r"(r) : "r"(v), "r"(__activemask()));
    // CHECK-MESSAGES: :[[@LINE-1]]:83: warning: the mask of inline PTX 'shfl.sync.idx.b32' comes from __activemask(), which only reports the lanes that happen to be converged at that instant and does not converge them{{.*}}so the shuffle is undefined for them{{.*}} [warp-activemask-sync-mask]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: the lanes diverge here: this condition differs between the lanes of a warp
    out[0] = r;
  }
  if (v > threshold + 1) {
    unsigned active;
    asm volatile("activemask.b32 %0;" : "=r"(active));
    out[1] = __shfl_sync(active, v, 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: the mask of __shfl_sync comes from __activemask() through 'active', {{.*}} [warp-activemask-sync-mask]
    // CHECK-MESSAGES: :[[@LINE-3]]:5: note: 'active' is set from inline PTX activemask here
    // CHECK-MESSAGES: :[[@LINE-6]]:7: note: the lanes diverge here: this condition differs between the lanes of a warp
    asm volatile("bar.warp.sync %0;" : : "r"(active));
    // CHECK-MESSAGES: :[[@LINE-1]]:46: warning: the mask of inline PTX 'bar.warp.sync' comes from __activemask() through 'active', {{.*}}the warp barrier is undefined for them{{.*}} [warp-activemask-sync-mask]
    // CHECK-MESSAGES: :[[@LINE-7]]:5: note: 'active' is set from inline PTX activemask here
    // CHECK-MESSAGES: :[[@LINE-10]]:7: note: the lanes diverge here: this condition differs between the lanes of a warp
  }
  if (v > threshold + 2) {
    asm volatile("{ .reg .b32 m; activemask.b32 m;\n"
                 "  vote.sync.ballot.b32 %0, 1, m; }" : "=r"(r));
    // CHECK-MESSAGES: :[[@LINE-2]]:5: warning: the mask of inline PTX 'vote.sync.ballot.b32' is a register the same template sets with activemask, which only reports the lanes that happen to be converged at that instant{{.*}}so the ballot is undefined for them{{.*}} [warp-activemask-sync-mask]
    out[2] = r;
  }
  // Through a helper whose inline-PTX shuffle takes the mask as a parameter.
  if (v > threshold + 3)
    out[3] = shflIdx(__activemask(), v, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: the mask of shflIdx comes from __activemask(){{.*}}so the shuffle is undefined for them{{.*}} [warp-activemask-sync-mask]
  // CHECK-MESSAGES: :11:3: note: 'shflIdx' uses the argument as the mask of this inline PTX 'shfl.sync.idx.b32'
}

__global__ void mustStaySilent(const unsigned *in, unsigned threshold, unsigned *out,
                               unsigned mask) {
  unsigned v = in[threadIdx.x];
  unsigned r;
  unsigned group = __ballot_sync(0xffffffffu, v > threshold);
  if (v > threshold) {
    asm volatile("shfl.sync.idx.b32 %0, %1, 0, 0x1f, %2;" : "=r"(r) : "r"(v), "r"(group));
    out[0] = r;
  }
  asm volatile("shfl.sync.idx.b32 %0, %1, 0, 0x1f, 0xffffffff;" : "=r"(r) : "r"(v));
  out[1] = r;
  asm volatile("bar.warp.sync %0;" : : "r"(mask));
  // activemask as data, not as a mask.
  unsigned active;
  asm volatile("activemask.b32 %0;" : "=r"(active));
  out[2] = __popc(active);
  asm volatile("{ .reg .b32 m; activemask.b32 m; popc.b32 %0, m; }" : "=r"(r));
  out[3] = r;
}
