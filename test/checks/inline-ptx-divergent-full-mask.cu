// RUN: %check_warp_tidy %s warp-divergent-full-mask
//
// warp-divergent-full-mask on inline PTX collectives: a full membermask
// (immediate 0xffffffff or -1, a register mov'd from it, or a constant
// operand) on shfl.sync / vote.sync / redux.sync / bar.warp.sync under a
// lane-divergent branch is flagged, and so is a helper holding one called
// from divergent code; the same under warp-uniform branches, with a mask
// matching the lane guard, or guarded inside the template stays silent.

#define FULL 0xffffffffu

__device__ unsigned butterflyStep(unsigned v, int laneMask) {
  unsigned r;
  asm volatile("shfl.sync.bfly.b32 %0, %1, %2, 0x1f, -1;" : "=r"(r) : "r"(v), "r"(laneMask));
  return r;
}

__global__ void mustFlag(const unsigned *in, unsigned threshold, unsigned *out) {
  unsigned v = in[threadIdx.x];
  unsigned lane = threadIdx.x & 31;
  unsigned r = 0;
  if (v > threshold) {
    asm volatile("shfl.sync.bfly.b32 %0, %1, 16, 0x1f, 0xffffffff;" : "=r"(r) : "r"(v));
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: inline PTX 'shfl.sync.bfly.b32' with a full mask is reached by only some of the lanes it names: lanes that take the other path never reach it, so the shuffle is undefined{{.*}} [warp-divergent-full-mask]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition differs between the lanes of a warp, so only some lanes take the path to the collective
  }
  out[0] = r;
  if (lane < 16) {
    asm volatile("{ .reg .b32 m; mov.b32 m, -1;\n"
                 "  vote.sync.ballot.b32 %0, 1, m; }" : "=r"(r));
    // CHECK-MESSAGES: :[[@LINE-2]]:5: warning: inline PTX 'vote.sync.ballot.b32' with a full mask is reached by only some of the lanes it names: lanes 16-31 never reach it, so the ballot is undefined{{.*}} [warp-divergent-full-mask]
    // CHECK-MESSAGES: :[[@LINE-4]]:7: note: this condition differs between the lanes of a warp
  }
  out[1] = r;
  if (v & 1) {
    asm volatile("redux.sync.add.u32 %0, %1, %2;" : "=r"(r) : "r"(v), "r"(FULL));
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: inline PTX 'redux.sync.add.u32' with a full mask is reached by only some{{.*}}the warp reduction is undefined{{.*}} [warp-divergent-full-mask]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition differs between the lanes of a warp
    asm volatile("bar.warp.sync 0xffffffff;");
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: inline PTX 'bar.warp.sync' with a full mask is reached by only some{{.*}}the warp barrier is undefined{{.*}} [warp-divergent-full-mask]
    // CHECK-MESSAGES: :[[@LINE-6]]:7: note: this condition differs between the lanes of a warp
  }
  out[2] = r;
  // A helper whose inline-PTX shuffle needs the whole warp.
  if (v > threshold + 1)
    out[3] = butterflyStep(v, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'butterflyStep' is called from thread-divergent code, but the shuffle inside it needs the whole warp converged (inline PTX 'shfl.sync.bfly.b32'): lanes that take the other path never reach it{{.*}} [warp-divergent-full-mask]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition differs between the lanes of a warp
    // CHECK-MESSAGES: :14:3: note: the shuffle in 'butterflyStep' that needs the lanes is here
}

__global__ void mustStaySilent(const unsigned *in, unsigned threshold, unsigned *out, int n) {
  unsigned v = in[threadIdx.x];
  unsigned lane = threadIdx.x & 31;
  unsigned r = 0;
  // The whole warp.
  asm volatile("shfl.sync.bfly.b32 %0, %1, 16, 0x1f, 0xffffffff;" : "=r"(r) : "r"(v));
  out[0] = r;
  // A warp-uniform branch: every lane of a warp takes the same path.
  if (threshold > 4) {
    asm volatile("shfl.sync.bfly.b32 %0, %1, 16, 0x1f, 0xffffffff;" : "=r"(r) : "r"(v));
    out[1] = r;
  }
  if (blockIdx.x == 0 && (threadIdx.x / 32) == 1) {
    asm volatile("bar.warp.sync -1;");
  }
  // The mask names exactly the lanes the guard lets through.
  if (lane < 16) {
    asm volatile("shfl.sync.bfly.b32 %0, %1, 8, 0x1f, 0x0000ffff;" : "=r"(r) : "r"(v));
    out[2] = r;
  }
  // A mask computed by the whole warp before the branch.
  unsigned active = __ballot_sync(FULL, v > threshold);
  if (v > threshold) {
    asm volatile("vote.sync.ballot.b32 %0, 1, %1;" : "=r"(r) : "r"(active));
    out[3] = r;
  }
  // A vote's result is the same in every lane: branching on it does not diverge.
  unsigned any;
  asm volatile("{ .reg .pred p; setp.ne.u32 p, %1, 0;\n"
               "  vote.sync.ballot.b32 %0, p, 0xffffffff; }" : "=r"(any) : "r"(v & 1));
  if (any != 0) {
    asm volatile("shfl.sync.idx.b32 %0, %1, 0, 0x1f, 0xffffffff;" : "=r"(r) : "r"(v));
    out[4] = r;
  }
  // Guarded inside the template: the template decides which lanes execute it.
  asm volatile("{ .reg .pred p; setp.lt.u32 p, %2, 16;\n"
               "  @p shfl.sync.bfly.b32 %0, %1, 8, 0x1f, 0xffffffff; }"
               : "=r"(r) : "r"(v), "r"(lane));
  out[5] = r;
  // Not collectives.
  if (v > threshold)
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(r));
  out[6] = r;
}
