// RUN: %check_warp_tidy %s warp-divergent-full-mask -- -arch=sm_80
//
// A local of a small aggregate type keeps its fields apart: a warp scan that
// returns `make_int2(exclusive, total)` gives each lane its own prefix in `.x`
// and the warp's total, broadcast from lane 31, in `.y`. Bonsai's tree walk
// advances its counters by the total and loops on them; taken as one value,
// the pair made every one of those loops divergent. A field still per-lane,
// one written per lane later, or the whole variable handed to code that may
// write it, stays per-lane. Silence is asserted by default.

#define FULL 0xffffffffu

// Exclusive prefix and warp total.
__device__ __forceinline__ int2 scanWithTotal(int v) {
  int sum = v;
  for (int o = 1; o < 32; o <<= 1) {
    int up = __shfl_up_sync(FULL, sum, o);
    if ((threadIdx.x & 31) >= o)
      sum += up;
  }
  return make_int2(sum - v, __shfl_sync(FULL, sum, 31));
}

struct Span {
  int begin;
  int count;
};

// A braced return, fields in declaration order.
__device__ Span spanOfWarp(const int *starts, int v) {
  int total = __reduce_add_sync(FULL, v);
  return {starts[threadIdx.x], total};
}

__device__ void touch(int2 &p);

// ------------------------------------------------------- must stay silent

__global__ void walkOnTotals(const int *in, int *out, int n) {
  int cells = n;
  int counter = 0;
  while (cells > 0) {
    const int2 scatter = scanWithTotal(in[threadIdx.x] & 1);
    counter += scatter.y;
    if (scatter.y > 8)
      out[threadIdx.x] = __shfl_sync(FULL, scatter.x, 0);
    cells -= 32;
    if (counter > 100)
      cells = counter;
  }
  out[0] = counter;
}

__global__ void copiedAndBraced(const int *starts, int *out) {
  Span s = spanOfWarp(starts, starts[threadIdx.x]);
  Span t = s;
  int2 pair;
  pair.x = threadIdx.x;
  pair.y = t.count;
  if (pair.y > 0)
    out[threadIdx.x] = __shfl_sync(FULL, pair.x, 1);
  out[blockDim.x] = pair.x;
}

// ---------------------------------------------------------- must flag

__global__ void branchOnThePrefix(const int *in, int *out) {
  const int2 scatter = scanWithTotal(in[threadIdx.x]);
  if (scatter.x > 8)
    out[threadIdx.x] = __shfl_sync(FULL, scatter.y, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: __shfl_sync with a full mask is reached by only some of the lanes it names{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition differs between the lanes of a warp, so only some lanes take the path to the collective
  out[blockDim.x] = 0;
}

__global__ void totalOverwrittenPerLane(const int *in, int *out) {
  int2 scatter = scanWithTotal(in[threadIdx.x]);
  scatter.y += threadIdx.x;
  if (scatter.y > 8)
    out[threadIdx.x] = __shfl_sync(FULL, scatter.x, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: __shfl_sync with a full mask{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition differs between the lanes of a warp{{.*}}
  out[blockDim.x] = 0;
}

__global__ void wholeHandedToUnknownCode(const int *in, int *out) {
  int2 scatter = scanWithTotal(in[threadIdx.x]);
  if (threadIdx.x % 3 == 0)
    touch(scatter);
  if (scatter.y > 8)
    out[threadIdx.x] = __shfl_sync(FULL, scatter.x, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: __shfl_sync with a full mask{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition differs between the lanes of a warp{{.*}}
  out[blockDim.x] = 0;
}

// Lane 0 takes a job for the warp and broadcasts it field by field
// (Skywalker's sampling loops): each field written whole is the broadcast,
// whatever lane 0 alone wrote to the whole struct before.
struct Job {
  unsigned idx;
  unsigned node;
  bool val;
};
__device__ Job takeJob(unsigned *queue);

__global__ void jobBroadcastFieldByField(unsigned *queue, int *out) {
  const unsigned lane = threadIdx.x % 32;
  Job job;
  if (lane == 0)
    job = takeJob(queue);
  job.idx = __shfl_sync(FULL, job.idx, 0);
  job.val = __shfl_sync(FULL, job.val, 0);
  job.node = __shfl_sync(FULL, job.node, 0);
  while (job.val) {
    out[job.idx] += __shfl_sync(FULL, (int)job.node, 3);
    if (lane == 0)
      job = takeJob(queue);
    job.idx = __shfl_sync(FULL, job.idx, 0);
    job.val = __shfl_sync(FULL, job.val, 0);
    job.node = __shfl_sync(FULL, job.node, 0);
  }
}

// Only two fields broadcast: the loop tests the third, which only lane 0
// holds.
__global__ void jobFieldLeftPerLane(unsigned *queue, int *out) {
  const unsigned lane = threadIdx.x % 32;
  Job job;
  if (lane == 0)
    job = takeJob(queue);
  job.idx = __shfl_sync(FULL, job.idx, 0);
  job.node = __shfl_sync(FULL, job.node, 0);
  while (job.val) {
    out[job.idx] += __shfl_sync(FULL, (int)job.node, 3);
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: __shfl_sync with a full mask is reached by only some of the lanes it names{{.*}}[warp-divergent-full-mask]
    // CHECK-MESSAGES: :[[@LINE-3]]:10: note: this loop condition differs between the lanes of a warp{{.*}}
    job.val = false;
  }
}
