// RUN: %check_warp_tidy %s warp-reduction-result-lane
//
// warp-reduction-result-lane skips, without a walk, every function from
// which no down shuffle can be reached (DownShuffleReach). These findings
// come through the paths that shortcut must still follow: a helper three
// calls deep, a lambda's body, a lambda called as a helper, and mutual
// recursion (a "no" met half-way round a cycle must not be remembered:
// `pong` is first reached from inside `ping`, before `ping` is known to
// reach a shuffle). The silent ones: a chain one helper deeper than the
// analysis follows, and code that reaches only xor shuffles.

#define FULL 0xffffffffu

__device__ float warpReduceSum(float v) {
  for (int off = 16; off > 0; off >>= 1)
    v += __shfl_down_sync(FULL, v, off);
  return v;
}

__device__ float middle(float v) {
  float m = warpReduceSum(v);
  return m;
}

__device__ float outer(float v) {
  float o = middle(v);
  return o;
}

// ---------------------------------------------------------------- must flag

__global__ void threeCallsDeep(const float *in, float *out) {
  float t = outer(in[threadIdx.x]);
  out[threadIdx.x] = in[threadIdx.x] / t;
  // CHECK-MESSAGES: :[[@LINE-1]]:40: warning: 't' holds the total of a __shfl_down_sync tree reduction only in lane 0 {{.*}}[warp-reduction-result-lane]
  // CHECK-MESSAGES: :[[@LINE-3]]:13: note: the value comes from this call, whose reduction leaves the total in lane 0
  // CHECK-MESSAGES: :16:10: note: the reduction moves values down towards lane 0 here
}

__global__ void reductionInLambda(const float *in, float *out) {
  auto reduce = [](float v) {
    for (int off = 16; off > 0; off >>= 1)
      v += __shfl_down_sync(FULL, v, off);
    return v;
  };
  float t = reduce(in[threadIdx.x]);
  out[threadIdx.x] = in[threadIdx.x] / t;
  // CHECK-MESSAGES: :[[@LINE-1]]:40: warning: 't' holds the total {{.*}}[warp-reduction-result-lane]
  // CHECK-MESSAGES: :[[@LINE-3]]:19: note: the value comes from this call
  // CHECK-MESSAGES: :[[@LINE-7]]:12: note: the reduction moves values down
}

__global__ void useInsideLambda(const float *in, float *out) {
  auto body = [&](int i) {
    float v = in[i];
    for (int off = 16; off > 0; off >>= 1)
      v += __shfl_down_sync(FULL, v, off);
    out[i] = in[i] / v;
    // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: 'v' holds the total {{.*}}[warp-reduction-result-lane]
    // CHECK-MESSAGES: :[[@LINE-3]]:12: note: the reduction moves values down
  };
  body(threadIdx.x);
}

__device__ float pong(float v, int d);
__device__ float ping(float v, int d) {
  if (d > 0) {
    float u = pong(v, d - 1);
    v += u;
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'u' holds the total {{.*}}[warp-reduction-result-lane]
    // CHECK-MESSAGES: :[[@LINE-3]]:15: note: the value comes from this call
    // CHECK-MESSAGES: :16:10: note: the reduction moves values down
  }
  float s = warpReduceSum(v);
  return s;
}
__device__ float pong(float v, int d) {
  float r = ping(v, d);
  return r;
}

__global__ void recursionSecond(const float *in, float *out) {
  float b = pong(in[threadIdx.x], 2);
  out[threadIdx.x] = in[threadIdx.x] / b;
  // CHECK-MESSAGES: :[[@LINE-1]]:40: warning: 'b' holds the total {{.*}}[warp-reduction-result-lane]
  // CHECK-MESSAGES: :[[@LINE-3]]:13: note: the value comes from this call
  // CHECK-MESSAGES: :16:10: note: the reduction moves values down
}

// ---------------------------------------------------------- must stay silent

__global__ void recursionLaneZero(const float *in, float *out) {
  float a = ping(in[threadIdx.x], 2);
  if ((threadIdx.x & 31) == 0)
    out[0] = a;
}

// Four helpers deep: beyond the analysis' depth, so not judged.
__device__ float fourDeep(float v) {
  float f = outer(v);
  return f;
}
__global__ void tooDeep(const float *in, float *out) {
  float t = fourDeep(in[threadIdx.x]);
  out[threadIdx.x] = in[threadIdx.x] / t;
}

__device__ float butterfly(float v) {
  for (int off = 16; off > 0; off >>= 1)
    v += __shfl_xor_sync(FULL, v, off);
  return v;
}
__global__ void onlyXor(const float *in, float *out) {
  float t = butterfly(in[threadIdx.x]);
  out[threadIdx.x] = in[threadIdx.x] / t;
}
