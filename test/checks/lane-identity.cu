// RUN: %check_warp_tidy %s warp-mask-excludes-caller,warp-divergent-full-mask,warp-unguarded-shfl-scan
// RUN: cp %s %t.cu
// RUN: %warp_tidy --exit-zero --quiet --fix --checks=-*,warp-unguarded-shfl-scan %t.cu > /dev/null 2>&1
// RUN: %FileCheck --check-prefix=CHECK-FIXES --input-file=%t.cu %s
//
// One recogniser of lane ids (checks/analysis/LaneIdentity) and one scan of
// "written after its initialiser" (checks/analysis/LocalWrites) serve both the
// uniformity analysis and the syntactic checks. Each case below is a place
// where the two former recognisers (or the two former write scans)
// disagreed; each silent case has a broken neighbour that must be reported.

#define FULL 0xffffffffu

// ------------------------------------------------ lane ids the analysis missed
// (it saw a data-decided branch: a bogus "reached by only some lanes" on the
// correct calls and nothing on the wrong ones)

// An explicit conversion keeps the lane id.
__global__ void castLane(const int *in, int *out) {
  int v = in[threadIdx.x];
  if ((int)(threadIdx.x & 31) < 16)
    out[0] = __shfl_sync(0x0000ffff, v, 0);
  if ((int)(threadIdx.x & 31) < 20)
    out[1] = __shfl_sync(0x0000ffff, v, 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: mask 0x0000ffff of __shfl_sync leaves out lanes 16-19, which can reach this call{{.*}}[warp-mask-excludes-caller]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: the lanes that reach the call are decided here
}

// A helper reading %laneid into a local.
__device__ unsigned laneFromAsm() {
  unsigned l;
  asm("mov.u32 %0, %%laneid;" : "=r"(l));
  return l;
}
__global__ void asmHelper(const int *in, int *out) {
  int v = in[threadIdx.x];
  if (laneFromAsm() < 16)
    out[0] = __shfl_sync(0x0000ffff, v, 0);
  if (laneFromAsm() < 24)
    out[1] = __shfl_sync(0x0000ffff, v, 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: mask 0x0000ffff of __shfl_sync leaves out lanes 16-23, which can reach this call{{.*}}[warp-mask-excludes-caller]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: the lanes that reach the call are decided here
}

// A helper with a local (issue 11, idiom 6, written in two statements).
__device__ unsigned laneFromLocal() {
  unsigned l = threadIdx.x % 32;
  return l;
}
__global__ void localHelper(const int *in, int *out) {
  int v = in[threadIdx.x];
  if (laneFromLocal() < 8)
    out[0] = __shfl_sync(0x000000ff, v, 0);
  if (laneFromLocal() < 9)
    out[1] = __shfl_sync(0x000000ff, v, 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: mask 0x000000ff of __shfl_sync leaves out lane 8, which can reach this call{{.*}}[warp-mask-excludes-caller]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: the lanes that reach the call are decided here
}

// The NVVM builtin that reads %laneid.
__global__ void sregLane(const int *in, int *out) {
  int v = in[threadIdx.x];
  if (__nvvm_read_ptx_sreg_laneid() < 4)
    out[0] = __shfl_sync(0xf, v, 0);
  if (__nvvm_read_ptx_sreg_laneid() < 5)
    out[1] = __shfl_sync(0xf, v, 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: mask 0x0000000f of __shfl_sync leaves out lane 4, which can reach this call{{.*}}[warp-mask-excludes-caller]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: the lanes that reach the call are decided here
}

// A helper whose every return gives the lane id.
__device__ unsigned laneTwoWays() {
  if (blockDim.x > 64)
    return threadIdx.x & 31;
  return threadIdx.x % 32;
}
__global__ void twoReturns(const int *in, int *out) {
  int v = in[threadIdx.x];
  if (laneTwoWays() < 16)
    out[0] = __shfl_sync(0x0000ffff, v, 0);
  if (laneTwoWays() < 17)
    out[1] = __shfl_sync(0x0000ffff, v, 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: mask 0x0000ffff of __shfl_sync leaves out lane 16, which can reach this call{{.*}}[warp-mask-excludes-caller]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: the lanes that reach the call are decided here
}

// A lambda returning the lane id.
__global__ void lambdaLane(const int *in, int *out) {
  int v = in[threadIdx.x];
  auto lane = [] { return threadIdx.x & 31; };
  if (lane() < 16)
    out[0] = __shfl_sync(0x0000ffff, v, 0);
  if (lane() < 18)
    out[1] = __shfl_sync(0x0000ffff, v, 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: mask 0x0000ffff of __shfl_sync leaves out lanes 16-17, which can reach this call{{.*}}[warp-mask-excludes-caller]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: the lanes that reach the call are decided here
}

// A write in a discarded `if constexpr` branch is not a write.
__global__ void discardedWrite(const int *in, int *out) {
  unsigned lane = threadIdx.x & 31;
  if constexpr (sizeof(int) == 2)
    lane = 0;
  int v = in[threadIdx.x];
  if (lane < 16)
    out[0] = __shfl_sync(0x0000ffff, v, 0);
  if (lane < 20)
    out[1] = __shfl_sync(0x0000ffff, v, 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: mask 0x0000ffff of __shfl_sync leaves out lanes 16-19, which can reach this call{{.*}}[warp-mask-excludes-caller]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: the lanes that reach the call are decided here
}

// A lane id a member operator writes through its reference parameter is no
// longer the lane: data decide which lanes arrive.
struct Bump {
  __device__ void operator()(unsigned &x) const { x += 3; }
};
__global__ void operatorWritten(const int *in, int *out) {
  unsigned lane = threadIdx.x & 31;
  Bump bump;
  bump(lane);
  int v = in[threadIdx.x];
  if (lane < 16)
    out[0] = __shfl_sync(0x0000ffff, v, 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: __shfl_sync with mask 0x0000ffff is reached by only some of the lanes it names{{.*}}[warp-divergent-full-mask]
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition differs between the lanes the mask names, so only some lanes take the path to the collective
}

// ------------------------------------------ "lane ids" the scans trusted by name

// threadIdx.y % 32 is not the lane: the lanes that store may hold wrong sums.
__global__ void rowIndexIsNoLane(int *data) {
  int v = data[threadIdx.x];
  const unsigned row = threadIdx.y % 32;
  for (int d = 1; d < 32; d <<= 1) {
    int t = __shfl_up_sync(FULL, v, d);
    v += t;
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: the result of __shfl_up_sync is accumulated into 'v' without a lower-bound guard{{.*}}[warp-unguarded-shfl-scan]
    // CHECK-MESSAGES: :[[@LINE-3]]:13: note: the value was shuffled here
  }
  if (row == 31)
    data[blockIdx.x] = v;
}

// ... while a linear id plus a multiple of 32 is, and lane 31's sum is right.
__global__ void linearIdLastLane(int *data) {
  int v = data[threadIdx.x];
  const unsigned lane = (threadIdx.x + blockDim.x * threadIdx.y + 32) & 31;
  for (int d = 1; d < 32; d <<= 1) {
    int t = __shfl_up_sync(FULL, v, d);
    v += t;
  }
  if (lane == 31)
    data[blockIdx.x] = v;
}

// The guard a fix-it writes must test the lane: a rotated id, another row's
// index, or a lane id written after its initialiser (through a reference or a
// member operator) is not one, so no fix-it is offered.
__global__ void rotatedNoFix(int *data) {
  const unsigned rot = (threadIdx.x + 1) & 31;
  int v = data[threadIdx.x];
  for (int d = 1; d < 32; d <<= 1) {
    int t = __shfl_up_sync(FULL, v, d);
    v += t;
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: the result of __shfl_up_sync is accumulated into 'v' without a lower-bound guard{{.*}}[warp-unguarded-shfl-scan]
    // CHECK-MESSAGES: :[[@LINE-3]]:13: note: the value was shuffled here
    // CHECK-FIXES: {{^}}    v += t;{{$}}
  }
  data[threadIdx.x + rot] = v;
}

__global__ void aliasWrittenNoFix(int *data) {
  unsigned lane = threadIdx.x & 31;
  unsigned &alias = lane;
  alias += 3;
  int v = data[threadIdx.x];
  for (int d = 1; d < 32; d <<= 1) {
    int u = __shfl_up_sync(FULL, v, d);
    v += u;
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: the result of __shfl_up_sync is accumulated into 'v' without a lower-bound guard{{.*}}[warp-unguarded-shfl-scan]
    // CHECK-MESSAGES: :[[@LINE-3]]:13: note: the value was shuffled here
    // CHECK-FIXES: {{^}}    v += u;{{$}}
  }
  data[threadIdx.x + lane] = v;
}

__global__ void operatorWrittenNoFix(int *data) {
  unsigned lane = threadIdx.x & 31;
  Bump bump;
  bump(lane);
  int v = data[threadIdx.x];
  for (int d = 1; d < 32; d <<= 1) {
    int w = __shfl_up_sync(FULL, v, d);
    v += w;
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: the result of __shfl_up_sync is accumulated into 'v' without a lower-bound guard{{.*}}[warp-unguarded-shfl-scan]
    // CHECK-MESSAGES: :[[@LINE-3]]:13: note: the value was shuffled here
    // CHECK-FIXES: {{^}}    v += w;{{$}}
  }
  data[threadIdx.x + lane] = v;
}

// A global id modulo warpSize is the lane: the fix-it guards with it.
__global__ void globalIdFix(int *data) {
  const unsigned lane = (blockIdx.x * blockDim.x + threadIdx.x) % warpSize;
  int v = data[threadIdx.x];
  for (int d = 1; d < 32; d <<= 1) {
    int s = __shfl_up_sync(FULL, v, d);
    v += s;
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: the result of __shfl_up_sync is accumulated into 'v' without a lower-bound guard{{.*}}[warp-unguarded-shfl-scan]
    // CHECK-MESSAGES: :[[@LINE-3]]:13: note: the value was shuffled here
    // CHECK-FIXES: {{^}}    if (lane >= d) v += s;{{$}}
  }
  data[threadIdx.x + lane] = v;
}
