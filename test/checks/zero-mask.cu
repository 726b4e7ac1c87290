// RUN: %check_warp_tidy %s warp-zero-mask
//
// warp-zero-mask: every way a mask can fold to the constant 0 is flagged;
// any non-zero or runtime mask stays silent.

#define NO_LANES 0
#define FULL_MASK 0xffffffffu

enum Lanes { NoneOf = 0, AllOf = -1 };
constexpr unsigned kZero = 0;
const unsigned kAlsoZero = 0u;
__constant__ unsigned deviceMask;

template <unsigned M> __device__ int voteTemplate(int p) {
  return __any_sync(M, p);
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: __any_sync is called with a mask that is always 0{{.*}}[warp-zero-mask]
}

__global__ void mustFlag(int *out, float *f, int v) {
  out[0] = __ballot_sync(0, v > 3);
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: __ballot_sync is called with a mask that is always 0: no lane is named, so the ballot is undefined (each calling lane must have its own bit set); pass the lanes that reach this call{{.*}} [warp-zero-mask]
  out[1] = __shfl_sync(0u, v, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: __shfl_sync is called with a mask that is always 0{{.*}}the shuffle is undefined{{.*}}[warp-zero-mask]
  out[2] = __shfl_down_sync(0x0, v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: __shfl_down_sync {{.*}}[warp-zero-mask]
  out[3] = __shfl_up_sync(kZero, v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: __shfl_up_sync {{.*}}[warp-zero-mask]
  // CHECK-MESSAGES: :10:20: note: 'kZero' is defined as 0 here
  out[4] = __shfl_xor_sync(kAlsoZero, v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: __shfl_xor_sync {{.*}}[warp-zero-mask]
  // CHECK-MESSAGES: :11:16: note: 'kAlsoZero' is defined as 0 here
  out[5] = __all_sync(NO_LANES, v);
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: __all_sync {{.*}}[warp-zero-mask]
  out[6] = __any_sync(NoneOf, v);
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: __any_sync {{.*}}[warp-zero-mask]
  // CHECK-MESSAGES: :9:14: note: 'NoneOf' is defined as 0 here
  out[7] = __ballot_sync(FULL_MASK & ~FULL_MASK, v);
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: __ballot_sync {{.*}}[warp-zero-mask]
  out[8] = __ballot_sync(1u << 32 % 32 >> 1, v);
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: __ballot_sync {{.*}}[warp-zero-mask]
  __syncwarp(0);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: __syncwarp is called with a mask that is always 0{{.*}}warp barrier is undefined{{.*}}[warp-zero-mask]
  out[9] = __match_any_sync(0, v);
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: __match_any_sync {{.*}}match is undefined{{.*}}[warp-zero-mask]
  f[0] = __shfl_sync(0, f[1], 3, 16);
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: __shfl_sync {{.*}}[warp-zero-mask]
  out[10] = voteTemplate<0>(v);
  out[11] = voteTemplate<1>(v);
}

__global__ void mustStaySilent(int *out, unsigned runtimeMask, int v) {
  out[0] = __ballot_sync(0xffffffff, v > 3);
  out[1] = __shfl_sync(FULL_MASK, v, 0);
  out[2] = __shfl_down_sync(AllOf, v, 1);
  out[3] = __shfl_up_sync(runtimeMask, v, 1);
  out[4] = __any_sync(deviceMask, v);
  out[5] = __all_sync(__activemask(), v);
  out[6] = __ballot_sync(0x1, v);
  __syncwarp();
  __syncwarp(FULL_MASK);
  unsigned zeroAtRuntime = runtimeMask & 0;  // not a constant expression
  out[7] = __ballot_sync(zeroAtRuntime + 1, v);
  out[8] = voteTemplate<0xffffffffu>(v);
}

// A plain (not const) local is still a constant mask when nothing writes it
// after its initialiser: cugraph's transform_e packed predicates with
// `uint32_t mask{0}; __ballot_sync(mask, predicate);` (fixed upstream).
__global__ void mustFlagPlainLocals(unsigned *out, const int *in, int n) {
  unsigned none = 0;
  out[0] = __ballot_sync(none, in[0] > 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: __ballot_sync is called with a mask that is always 0{{.*}}[warp-zero-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: 'none' is initialised to 0 here and never written afterwards
  for (int word = blockIdx.x; word < n; word += gridDim.x) {
    unsigned mask{0};
    int predicate = in[word * 32 + threadIdx.x % 32] > 0;
    __ballot_sync(mask, predicate);
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: __ballot_sync is called with a mask that is always 0{{.*}}[warp-zero-mask]
    // CHECK-MESSAGES: :[[@LINE-4]]:14: note: 'mask' is initialised to 0 here and never written afterwards
    if (threadIdx.x % 32 == 0)
      out[word] = mask;
  }
  unsigned first = 0;
  unsigned copy = first;
  out[1] = __any_sync(copy, in[1]);
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: __any_sync is called with a mask that is always 0{{.*}}[warp-zero-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: 'copy' is initialised to 0 here and never written afterwards
}

__device__ void fillMask(unsigned *m) { *m = 0xffffffffu; }

// A local that starts at 0 and is then built up, or handed to code that may
// write it, is not a constant mask.
__global__ void mustStaySilentPlainLocals(unsigned *out, const int *in) {
  unsigned built = 0;
  if (in[0] > 0)
    built = 0xffffffffu;
  out[0] = __ballot_sync(built, in[1] > 0);
  unsigned grown = 0;
  grown |= 0xffffffffu;
  out[1] = __ballot_sync(grown, in[2] > 0);
  unsigned filled = 0;
  fillMask(&filled);
  out[2] = __ballot_sync(filled, in[3] > 0);
  unsigned fromAsm = 0;
  asm volatile("activemask.b32 %0;" : "=r"(fromAsm));
  out[3] = __any_sync(fromAsm, in[4]);
  unsigned full = 0xffffffffu;
  out[4] = __ballot_sync(full, in[5] > 0);
}
