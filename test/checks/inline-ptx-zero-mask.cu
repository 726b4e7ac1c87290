// RUN: %check_warp_tidy %s warp-zero-mask
//
// warp-zero-mask on collectives written as inline PTX: a membermask that is
// the immediate 0, a 0 moved into a local register, or an asm operand that
// folds to 0 is flagged; full, partial and runtime masks stay silent.

constexpr unsigned kNoLanes = 0;

__global__ void mustFlag(unsigned *out, unsigned v) {
  unsigned r;
  asm volatile("shfl.sync.bfly.b32 %0, %1, 16, 0x1f, 0;" : "=r"(r) : "r"(v));
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: inline PTX 'shfl.sync.bfly.b32' is called with a mask that is always 0: no lane is named, so the shuffle is undefined{{.*}} [warp-zero-mask]
  out[0] = r;
  asm volatile("bar.warp.sync %0;" : : "r"(kNoLanes));
  // CHECK-MESSAGES: :[[@LINE-1]]:44: warning: inline PTX 'bar.warp.sync' is called with a mask that is always 0{{.*}}the warp barrier is undefined{{.*}} [warp-zero-mask]
  // CHECK-MESSAGES: :7:20: note: 'kNoLanes' is defined as 0 here
  asm volatile("{ .reg .b32 m; mov.u32 m, 0x0;\n"
               "  vote.sync.ballot.b32 %0, 1, m; }" : "=r"(r));
  // CHECK-MESSAGES: :[[@LINE-2]]:16: warning: inline PTX 'vote.sync.ballot.b32' is called with a mask that is always 0{{.*}}the ballot is undefined{{.*}} [warp-zero-mask]
  out[1] = r;
  asm volatile("redux.sync.add.s32 %0, %1, %[m];" : "=r"(r) : "r"(v), [m] "r"(0u));
  // CHECK-MESSAGES: :[[@LINE-1]]:79: warning: inline PTX 'redux.sync.add.s32' is called with a mask {{.*}}the warp reduction is undefined{{.*}} [warp-zero-mask]
  out[2] = r;
}

__global__ void mustStaySilent(unsigned *out, unsigned v, unsigned runtimeMask) {
  unsigned r;
  asm volatile("shfl.sync.bfly.b32 %0, %1, 16, 0x1f, -1;" : "=r"(r) : "r"(v));
  out[0] = r;
  asm volatile("shfl.sync.down.b32 %0, %1, 1, 0x1f, %2;" : "=r"(r) : "r"(v), "r"(0xffffu));
  out[1] = r;
  asm volatile("bar.warp.sync %0;" : : "r"(runtimeMask));
  asm volatile("bar.warp.sync 0xffffffff;");
  // 0 as a value, a lane or a clamp is not a mask.
  asm volatile("shfl.sync.idx.b32 %0, 0, 0, 0, 0xffffffff;" : "=r"(r));
  out[2] = r;
  // Not a collective: bar.sync 0 is the block barrier with barrier id 0.
  asm volatile("bar.sync 0;");
  asm volatile("mov.u32 %0, 0;" : "=r"(r));
  out[3] = r;
}
