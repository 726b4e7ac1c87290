// RUN: %check_warp_tidy %s warp-mask-excludes-caller
//
// warp-mask-excludes-caller: a constant mask that leaves out lanes that can
// reach the call, and truncated full masks (0xFFFFFF). Masks that cover every
// lane that gets there, runtime masks, and calls whose arrival is decided by
// data (the program may guarantee only the named lanes arrive) stay silent.

#define HALF 0x0000ffffu

__global__ void mustFlag(const int *in, int *out) {
  const int lane = threadIdx.x & 31;
  int s = in[threadIdx.x];
  for (int off = 16; off > 0; off >>= 1)
    s += __shfl_xor_sync(0xFFFFFF, s, off);
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: mask 0x00ffffff of __shfl_xor_sync has only 24 bits and looks like a truncated 0xffffffff: lanes 24-31 can reach this call without their bit in the mask{{.*}}[warp-mask-excludes-caller]
  out[0] = __shfl_sync(0xfffffff, s, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: mask 0x0fffffff of __shfl_sync has only 28 bits and looks like a truncated 0xffffffff: lanes 28-31 can reach this call without their bit in the mask{{.*}}[warp-mask-excludes-caller]
  out[1] = __shfl_down_sync(HALF, s, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: mask 0x0000ffff of __shfl_down_sync leaves out lanes 16-31, which can reach this call: every calling lane must have its own bit set in the mask{{.*}}[warp-mask-excludes-caller]
  out[2] = __ballot_sync(0xffff0000, s > 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: mask 0xffff0000 of __ballot_sync leaves out lanes 0-15, which can reach this call: every calling lane must have its own bit set in the mask{{.*}}[warp-mask-excludes-caller]
  if (lane < 16)
    out[3] = __shfl_sync(0xff, s, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: mask 0x000000ff of __shfl_sync leaves out lanes 8-15, which can reach this call: every calling lane must have its own bit set in the mask{{.*}}[warp-mask-excludes-caller]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: the lanes that reach the call are decided here
  if (threadIdx.x < 40)
    out[4] = __any_sync(0x000000ff, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: mask 0x000000ff of __any_sync leaves out lanes 8-31, which can reach this call: every calling lane must have its own bit set in the mask{{.*}}[warp-mask-excludes-caller]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: the lanes that reach the call are decided here
  if (lane == 3 || lane == 4)
    out[5] = __shfl_sync(1u << 3, s, 3);
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: mask 0x00000008 of __shfl_sync leaves out lane 4, which can reach this call: every calling lane must have its own bit set in the mask{{.*}}[warp-mask-excludes-caller]
  // CHECK-MESSAGES: :[[@LINE-3]]:20: note: the lanes that reach the call are decided here
}

__global__ void earlyExit(const int *in, int *out) {
  if ((threadIdx.x & 31) >= 16)
    return;
  out[0] = __shfl_sync(0xff, in[threadIdx.x], 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: mask 0x000000ff of __shfl_sync leaves out lanes 8-15, which can reach this call: every calling lane must have its own bit set in the mask{{.*}}[warp-mask-excludes-caller]
}

__global__ void mustStaySilent(const int *in, int *out, unsigned mask, int t) {
  const int lane = threadIdx.x & 31;
  int s = in[threadIdx.x];
  out[0] = __shfl_xor_sync(0xffffffff, s, 1);
  out[1] = __shfl_down_sync(0xffffffff, s, 1, 16);
  out[2] = __shfl_sync(mask, s, 0);
  if (lane < 16)
    out[3] = __shfl_xor_sync(HALF, s, 1);
  if (lane >= 16)
    out[4] = __shfl_xor_sync(0xffff0000, s, 1);
  if (lane == 0)
    out[5] = __ballot_sync(1u, s > 0);
  if (threadIdx.x < 64)
    out[6] = __shfl_sync(0xffffffff, s, 0);
  // Data decide which lanes arrive; the program may guarantee it.
  if (s > t)
    out[7] = __shfl_sync(0xff, s, 0);
  // A zero mask is warp-zero-mask's finding.
  out[8] = __ballot_sync(0, s);
  if ((threadIdx.x & 31) >= 8)
    return;
  out[9] = __shfl_sync(0xff, s, 0);
}
