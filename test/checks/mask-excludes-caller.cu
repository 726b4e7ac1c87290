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

// Masks computed from the lane: reported when some lane that executes the
// call provably passes a mask without its own bit, with that lane.
__device__ unsigned laneId() { return threadIdx.x & 31; }
__device__ unsigned lanemaskLt() { return (1u << laneId()) - 1; }
__device__ unsigned lanemaskLe() { return (2u << laneId()) - 1; }

__global__ void laneMasksMustFlag(const int *in, int *out, int t) {
  const unsigned lane = laneId();
  int v = in[threadIdx.x];
  // Every lane passes the lanes below it: lane 0 passes 0.
  out[0] = __ballot_sync(lanemaskLt(), v > 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: mask of __ballot_sync is computed from the lane and leaves the calling lane out: lane {{[0-9]+}} executes the call and passes 0x{{[0-9a-f]+}}, without its own bit; every calling lane must have its own bit set in the mask, so the ballot is undefined for it; add the calling lane's bit{{.*}}[warp-mask-excludes-caller]
  // Only the neighbour's bit, named before the call.
  const unsigned neighbour = 1u << ((lane + 1) & 31);
  __syncwarp(neighbour);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: mask of __syncwarp is computed from the lane and leaves the calling lane out: lane {{[0-9]+}} executes the call{{.*}}[warp-mask-excludes-caller]
  // CHECK-MESSAGES: :[[@LINE-3]]:30: note: the mask is computed from the lane here
  // Under a lane guard the witness is a lane that gets there.
  if (lane >= 8 && lane < 12)
    out[1] = __shfl_sync((0xfu << (lane & ~3u)) << 4, v, 12);
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: mask of __shfl_sync is computed from the lane and leaves the calling lane out: lane {{8|9|10|11}} executes the call and passes 0x0000f000, without its own bit{{.*}}[warp-mask-excludes-caller]
  // Data decide which lanes arrive, but none of them would name itself.
  if (v > t)
    out[2] = __ballot_sync(lanemaskLt(), 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: mask of __ballot_sync is computed from the lane and leaves the calling lane out: no lane that can reach the call has its own bit (lane {{[0-9]+}} passes 0x{{[0-9a-f]+}}); every calling lane{{.*}}[warp-mask-excludes-caller]
}

__global__ void laneMasksMustStaySilent(const int *in, const unsigned *masks, int *out, int t) {
  const unsigned lane = laneId();
  int v = in[threadIdx.x];
  // %lanemask_le names every lane itself.
  out[0] = __ballot_sync(lanemaskLe(), v > 0);
  // Per-half masks, aligned groups, a lane and its xor partner.
  out[1] = __shfl_xor_sync(lane < 16 ? 0x0000ffffu : 0xffff0000u, v, 1);
  out[2] = __shfl_xor_sync(0xffu << (lane & ~7u), v, 1);
  out[3] = __shfl_xor_sync((1u << lane) | (1u << (lane ^ 1)), v, 1);
  // Only lanes 0-15 get here; lane 16 and up would lack their bit.
  if (lane < 16)
    out[4] = __shfl_xor_sync(lane < 16 ? 0x0000ffffu : 0u, v, 1);
  // Data decide, and some lanes do name themselves: the program may
  // guarantee that only those arrive.
  if (v > t)
    out[5] = __shfl_sync(lane < 16 ? 0x0000ffffu : 0x0000ffffu << 1, v, 0);
  // What the analysis cannot read: loaded per lane.
  out[6] = __shfl_sync(masks[lane], v, 0);
}

// Groups of a run-time width: each lane's group covers its own lane for
// every width the code can run with. The only mask without the caller's bit
// needs `width == 0`, where `lane / width` divides by zero: no execution, no
// witness. The group above the caller's is reported.
__global__ void runTimeGroups(const int *in, int *out, unsigned width) {
  const unsigned lane = laneId();
  const unsigned group = lane / width;
  const unsigned own = ((1u << width) - 1) << (group * width);
  const unsigned next = ((1u << width) - 1) << ((group + 1) * width);
  int v = in[threadIdx.x];
  for (unsigned off = width / 2; off > 0; off /= 2)
    v += __shfl_down_sync(own, v, off);
  out[threadIdx.x] = v + __shfl_down_sync(next, v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:43: warning: mask of __shfl_down_sync is computed from the lane and leaves the calling lane out: lane {{[0-9]+}} executes the call{{.*}}[warp-mask-excludes-caller]
  // CHECK-MESSAGES: :[[@LINE-6]]:25: note: the mask is computed from the lane here
}

// The lane read from %laneid by a helper (CUB's LaneId(), raft's laneId()):
// the asm moves the register into a local the helper returns. A mask shifted
// by the lane's half-warp instead of 16 times it (CUB's WarpReduce member
// mask before d622848) leaves lanes 17-31 out; one shifted by 16 times it
// names each half.
__device__ __forceinline__ unsigned hardwareLaneId() {
  unsigned ret;
  asm("mov.u32 %0, %%laneid;" : "=r"(ret));
  return ret;
}

__global__ void hardwareLaneMaskMustFlag(int *p) {
  const unsigned halfMask = (0xffffffffu >> 16) << (hardwareLaneId() / 16);
  p[threadIdx.x] = __shfl_down_sync(halfMask, p[threadIdx.x], 1, 16);
  // CHECK-MESSAGES: :[[@LINE-1]]:37: warning: mask of __shfl_down_sync is computed from the lane and leaves the calling lane out: lane {{1[7-9]|2[0-9]|3[01]}} executes the call and passes 0x0001fffe, without its own bit{{.*}}[warp-mask-excludes-caller]
  // CHECK-MESSAGES: :[[@LINE-3]]:29: note: the mask is computed from the lane here
}

__global__ void hardwareLaneMaskMustStaySilent(int *p) {
  const unsigned halfMask = (0xffffffffu >> 16) << (16 * (hardwareLaneId() / 16));
  p[threadIdx.x] = __shfl_down_sync(halfMask, p[threadIdx.x], 1, 16);
}

// A ballot of the whole warp used as the mask of a collective every lane
// reaches: the lanes whose predicate was false call without their own bit
// (NVIDIA/warp GH-1133: rows of 48 floats reduced in chunks of 32, the
// second chunk's ballot names lanes 0-15 only; illegal instruction on the
// GPU, fixed upstream).
template <typename T> __device__ T shuffleDown(T v, int offset, unsigned mask) {
  return __shfl_down_sync(mask, v, offset);
}
template <typename T> __device__ T maskedReduce(T v, unsigned mask) {
  for (int offset = 16; offset > 0; offset /= 2)
    v += shuffleDown(v, offset, mask);
  return v;
}

__global__ void ballotMaskMustFlag(const float *rows, float *out) {
  const int lane = threadIdx.x % 32, row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  float acc = 0.f;
  for (int chunk = 0; chunk < 2; ++chunk) {
    const bool valid = chunk * 32 + lane < 48;
    float val = valid ? rows[row * 48 + chunk * 32 + lane] : 0.f;
    const unsigned mask = __ballot_sync(0xFFFFFFFF, valid);
    acc += maskedReduce(val, mask);
    // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: the mask passed to 'maskedReduce<float>' is a __ballot_sync of the whole warp, which names only the lanes whose predicate held, but every lane reaches this call: the lanes for which it was false execute the shuffle without their own bit in the mask{{.*}}[warp-mask-excludes-caller]
    // CHECK-MESSAGES: :[[@LINE-3]]:27: note: the mask is this ballot of 'valid'
    // CHECK-MESSAGES: :[[@LINE-18]]:10: note: 'maskedReduce<float>' uses the argument as the mask of this __shfl_down_sync
  }
  // A warp-uniform predicate names all lanes or none: nothing to say here.
  unsigned m = __ballot_sync(0xffffffffu, row < 7);
  out[row] = __shfl_sync(m, acc, 0);
  // Lanes 20-31 are left out, and they all call.
  unsigned alive = __ballot_sync(0xffffffffu, lane * 2 < 40);
  __syncwarp(alive);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: the mask of __syncwarp is a __ballot_sync of the whole warp{{.*}}the warp barrier without their own bit{{.*}}[warp-mask-excludes-caller]
  // CHECK-MESSAGES: :[[@LINE-3]]:20: note: the mask is this ballot of 'lane * 2 < 40'
  // A ballot over __activemask() names no more lanes than one of the whole
  // warp: lanes whose predicate is false are left out just the same.
  unsigned some = __ballot_sync(__activemask(), lane < 20);
  __syncwarp(some);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: the mask of __syncwarp is a __ballot_sync, which names only the lanes whose predicate held, but every lane reaches this call{{.*}}[warp-mask-excludes-caller]
  // CHECK-MESSAGES: :[[@LINE-3]]:19: note: the mask is this ballot of 'lane < 20'
}

// nvdiffrast's executeROP: the ballot's predicate comes from the helper's
// parameters and memory, so the dataflow finds it warp-uniform and so the
// branch on it; the barriers inside run only in the lanes whose bit the
// ballot set. Silent.
__device__ void ropLike(unsigned depth, volatile unsigned *pDepth, unsigned ropMask) {
  bool act = (depth == *pDepth);
  unsigned actMask = __ballot_sync(ropMask, act);
  if (act) {
    *pDepth = 0;
    __syncwarp(actMask);
  }
}
__global__ void callsRopLike(unsigned *d) { ropLike(d[threadIdx.x], d, __activemask()); }

__global__ void ballotMaskMustStaySilent(const float *in, float *out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.f;
  // The idiom: only the lanes the ballot names call.
  const unsigned active = __ballot_sync(0xffffffffu, i < n);
  if (i < n)
    v += __shfl_down_sync(active, v, 1);
  // A predicate no lane can fail.
  const unsigned all = __ballot_sync(0xffffffffu, threadIdx.x < blockDim.x);
  v += __shfl_xor_sync(all, v, 1);
  // Lanes that fail it have left.
  const unsigned stay = __ballot_sync(0xffffffffu, v > 0.f);
  if (v <= 0.f)
    return;
  v += __shfl_xor_sync(stay, v, 1);
  out[i] = v;
}

// Launch shapes: a kernel that every launch of this unit runs as 16 threads
// has lanes 0-15 only, so a half mask names every lane that exists (CPM.cu's
// seq_verify_kernel). Launched with 48 threads, lanes 16-31 of the first
// warp exist and call it without their bit.
static __global__ void sixteenThreads(const int *in, int *out) {
  int v = in[threadIdx.x];
  v += __shfl_down_sync(0x0000ffffu, v, 1);
  out[threadIdx.x] = v;
}
static __global__ void fortyEightThreads(const int *in, int *out) {
  int v = in[threadIdx.x];
  v += __shfl_down_sync(0x0000ffffu, v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: mask 0x0000ffff of __shfl_down_sync leaves out lanes 16-31, which can reach this call{{.*}}[warp-mask-excludes-caller]
  out[threadIdx.x] = v;
}
void launchShapes(const int *in, int *out) {
  sixteenThreads<<<1, 16>>>(in, out);
  fortyEightThreads<<<1, 48>>>(in, out);
}
