// RUN: %check_warp_tidy %s warp-shfl-source-outside-mask
//
// warp-shfl-source-outside-mask on inline PTX shfl.sync: the source lane
// follows from the mode, the b operand (immediate, constant or a counted
// loop's variable) and the width the c operand encodes; the value is used
// through the destination variable. Offsets that stay inside the mask, and
// values read only under a guard, stay silent.

__device__ float warpSumDown(unsigned mask, float v) {
  for (int off = 16; off > 0; off >>= 1) {
    float t;
    asm volatile("shfl.sync.down.b32 %0, %1, %2, 0x1f, %3;"
                 : "=f"(t) : "f"(v), "r"(off), "r"(mask));
    v += t;
  }
  return v;
}

__global__ void ballotReduction(const float *in, int n, float *sums) {
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned active = __ballot_sync(0xffffffffu, gid < n);
  if (gid < n) {
    float s = in[gid];
    for (int off = 16; off > 0; off >>= 1) {
      float t;
      asm volatile("shfl.sync.down.b32 %0, %1, %2, 0x1f, %3;"
                   : "=f"(t) : "f"(s), "r"(off), "r"(active));
      // CHECK-MESSAGES: :[[@LINE-2]]:7: warning: inline PTX 'shfl.sync.down.b32' reads lane + 16, but its mask holds only the lanes where 'gid < n' was true: when fewer than 32 lanes take part, the lanes near the top of the mask read lanes outside it{{.*}} [warp-shfl-source-outside-mask]
      // CHECK-MESSAGES: :[[@LINE-8]]:27: note: the mask comes from this ballot: the lanes where 'gid < n' is true
      s += t;
      // CHECK-MESSAGES: :[[@LINE-1]]:12: note: the shuffled value is used here without a guard on the source lane
    }
    if ((threadIdx.x & 31) == 0)
      sums[gid / 32] = s;
  }
}

__global__ void lowHalfReadsHighHalf(const unsigned *in, unsigned *out) {
  unsigned v = in[threadIdx.x];
  unsigned r;
  // Mask 0x0000ffff, xor 16: lane 0 reads lane 16, outside the mask.
  if ((threadIdx.x & 31) < 16) {
    asm volatile("shfl.sync.bfly.b32 %0, %1, 16, 0x1f, 0x0000ffff;" : "=r"(r) : "r"(v));
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: inline PTX 'shfl.sync.bfly.b32' reads lane ^ 16, so lane 0 reads lane 16, which is not in the mask 0x0000ffff{{.*}} [warp-shfl-source-outside-mask]
    out[threadIdx.x] = r;
    // CHECK-MESSAGES: :[[@LINE-1]]:24: note: the shuffled value is used here without a guard on the source lane
  }
}

__global__ void helperWithBallotMask(const float *in, int n, float *out) {
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned active = __ballot_sync(0xffffffffu, gid < n);
  if (gid < n)
    out[gid] = warpSumDown(active, in[gid]);
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'warpSumDown' shuffles with the mask passed here, which holds only the lanes where 'gid < n' was true, and its inline PTX 'shfl.sync.down.b32' reads lane + 16{{.*}} [warp-shfl-source-outside-mask]
    // CHECK-MESSAGES: :12:5: note: the shuffle in 'warpSumDown' is here
    // CHECK-MESSAGES: :[[@LINE-5]]:27: note: the mask comes from this ballot: the lanes where 'gid < n' is true
}

// --- Must stay silent --------------------------------------------------------

__global__ void staysInside(const unsigned *in, unsigned *out, int n) {
  unsigned v = in[threadIdx.x];
  unsigned r;
  // Width 16 (c = 0x101f): xor 8 stays inside each 16-lane half.
  if ((threadIdx.x & 31) < 16) {
    asm volatile("shfl.sync.bfly.b32 %0, %1, 8, 0x101f, 0x0000ffff;" : "=r"(r) : "r"(v));
    out[threadIdx.x] = r;
  }
  // The full warp.
  asm volatile("shfl.sync.down.b32 %0, %1, 16, 0x1f, 0xffffffff;" : "=r"(r) : "r"(v));
  out[threadIdx.x + 32] = r;
  // A ballot mask, but the value is read only when the source lane is in it.
  const unsigned active = __ballot_sync(0xffffffffu, (int)threadIdx.x < n);
  if ((int)threadIdx.x < n) {
    unsigned t;
    asm volatile("shfl.sync.down.b32 %0, %1, 1, 0x1f, %2;" : "=r"(t) : "r"(v), "r"(active));
    if ((active >> ((threadIdx.x & 31) + 1)) & 1)
      v += t;
    out[threadIdx.x + 64] = v;
  }
  // Guarded inside the template: which lanes shuffle is decided there.
  asm volatile("{ .reg .pred p; setp.lt.u32 p, %2, 16;\n"
               "  @p shfl.sync.bfly.b32 %0, %1, 16, 0x1f, 0x0000ffff; }"
               : "=r"(r) : "r"(v), "r"(threadIdx.x & 31));
  out[threadIdx.x + 96] = r;
}
