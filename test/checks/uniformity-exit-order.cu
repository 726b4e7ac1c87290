// RUN: %check_warp_tidy %s warp-divergent-full-mask -- -arch=sm_80
//
// A shuffle after a bounds check that returns: the lanes that stay must not
// read the lanes that left. `shfl_up` reads lower lanes (or itself), so an
// exit that takes only lanes above every lane that stays, `if (i >= n)
// return;` on an index that grows with the lane, leaves nothing unread:
// the lanes that left do not count on sm_70 and later. The same exit before
// a `shfl_down`, which reads higher lanes, is reported, and so is an exit of
// the lower lanes before a `shfl_up`.

#define FULL 0xffffffffu

// Silent: lanes at or above n leave; every lane below reads lower lanes.
__global__ void prefixScan(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int v = in[i];
  for (int d = 1; d < 32; d <<= 1) {
    int u = __shfl_up_sync(FULL, v, d);
    if ((threadIdx.x & 31) >= d)
      v += u;
  }
  out[i] = v;
}

// Silent: lanes below start leave; every lane above reads higher lanes.
__global__ void suffixScan(const int *in, int *out, int start) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < start)
    return;
  int v = in[i];
  for (int d = 1; d < 32; d <<= 1) {
    int u = __shfl_down_sync(FULL, v, d);
    if ((threadIdx.x & 31) + d < 32)
      v += u;
  }
  out[i] = v;
}

__global__ void downAfterUpperExit(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int v = in[i];
  v += __shfl_down_sync(FULL, v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: __shfl_down_sync with a full mask runs after a thread-dependent early return{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: this condition differs between the lanes of a warp
  out[i] = v;
}

__global__ void upAfterLowerExit(const int *in, int *out, int start) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < start)
    return;
  int v = in[i];
  v += __shfl_up_sync(FULL, v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: __shfl_up_sync with a full mask runs after a thread-dependent early return{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: this condition differs between the lanes of a warp
  out[i] = v;
}

// Reported: a data-dependent exit can take any lanes.
__global__ void upAfterDataExit(const int *in, int *out, const int *keep) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (!keep[i])
    return;
  int v = in[i];
  v += __shfl_up_sync(FULL, v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: __shfl_up_sync with a full mask runs after a thread-dependent early return{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: this condition differs between the lanes of a warp
  out[i] = v;
}
