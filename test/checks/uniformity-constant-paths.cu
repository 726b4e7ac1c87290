// RUN: %check_warp_tidy %s warp-divergent-full-mask,warp-reduction-result-lane -- -arch=sm_80
//
// Thread-position helpers that choose their expression by a template
// constant: `switch (dim)` with one `return` per case and a fallback
// `return -1`, or a chain of `if (dim == N) { return ...; }`, after an
// unused-parameter cast (hypre's device_utils.h is written this way). In
// each instantiation the branches are decided at compile time, so the
// helper is the one expression it returns there: the warp index is uniform
// across the warp and the lane index is the lane. A helper whose branch
// depends on a run-time value is not read through.

#define FULL 0xffffffffu

struct Item {};

template <int dim> __device__ __forceinline__ int threadId(Item &item) {
  (void)item;
  switch (dim) {
  case 1:
    return threadIdx.x;
  case 2:
    return threadIdx.y * blockDim.x + threadIdx.x;
  }
  return -1;
}

template <int dim> __device__ __forceinline__ int numThreads(Item &item) {
  (void)item;
  if (dim == 1) {
    return blockDim.x;
  }
  if (dim == 2) {
    return blockDim.x * blockDim.y;
  }
  return -1;
}

template <int dim> __device__ __forceinline__ int warpId(Item &item) {
  return threadId<dim>(item) >> 5;
}

template <int dim> __device__ __forceinline__ int laneId(Item &item) {
  return threadId<dim>(item) & 31;
}

template <int dim> __device__ __forceinline__ int gridWarpId(Item &item) {
  return blockIdx.x * (numThreads<dim>(item) >> 5) + warpId<dim>(item);
}

// The same helper with a run-time selector: which expression it returns
// differs between calls, so it is no one expression.
__device__ int positionBy(int mode) {
  switch (mode) {
  case 0:
    return threadIdx.x >> 5;
  default:
    return threadIdx.x;
  }
}

// --- a warp per row: the row is the grid warp index ---------------------------
template <int dim>
__global__ void rowSums(const int *rowStart, const float *a, float *y, int rows) {
  Item item;
  int row = gridWarpId<dim>(item);
  // Silent: the whole warp returns or none of it.
  if (row >= rows)
    return;
  int lane = laneId<dim>(item);
  float s = 0.f;
  for (int j = rowStart[row] + lane; j < rowStart[row + 1]; j += 32)
    s += a[j];
  for (int d = 16; d > 0; d >>= 1)
    s += __shfl_xor_sync(FULL, s, d);
  if (lane == 0)
    y[row] = s;
}
template __global__ void rowSums<1>(const int *, const float *, float *, int);
template __global__ void rowSums<2>(const int *, const float *, float *, int);

// --- the lane index selects lanes inside the warp -------------------------------
// Lanes 4-31 exit and lanes 0-3 read lanes 4-7.
__global__ void firstLanes(const float *a, float *y) {
  Item item;
  float s = a[threadIdx.x];
  if (laneId<1>(item) >= 4)
    return;
  s += __shfl_xor_sync(FULL, s, 4);
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: __shfl_xor_sync with a full mask runs after a thread-dependent early return: lanes 4-31 may have exited{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-4]]:7: note: this condition differs between the lanes of a warp
  y[threadIdx.x] = s;
}

// Silent: lanes 0-3 exit, and the pairs that stay (4-5, 6-7, ...) read
// only each other.
__global__ void lastLanes(const float *a, float *y) {
  Item item;
  float s = a[threadIdx.x];
  if (laneId<1>(item) < 4)
    return;
  s += __shfl_xor_sync(FULL, s, 1);
  y[threadIdx.x] = s;
}

__global__ void byMode(const float *a, float *y, int rows, int mode) {
  float s = a[threadIdx.x];
  if (positionBy(mode) >= rows)
    return;
  s += __shfl_xor_sync(FULL, s, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: __shfl_xor_sync with a full mask runs after a thread-dependent early return{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-4]]:7: note: this condition differs between the lanes of a warp
  y[threadIdx.x] = s;
}

// --- the total of a down-reduction is used where the lane index is 0 -----------
__global__ void blockTotals(const float *a, float *y) {
  Item item;
  int lane = laneId<1>(item);
  float s = a[threadIdx.x];
  for (int d = 16; d > 0; d >>= 1)
    s += __shfl_down_sync(FULL, s, d);
  // Silent: only lane 0 holds and uses the total.
  if (lane == 0)
    y[blockIdx.x] = s;
}

__global__ void secondLaneTotals(const float *a, float *y) {
  Item item;
  int lane = laneId<1>(item);
  float s = a[threadIdx.x];
  for (int d = 16; d > 0; d >>= 1)
    s += __shfl_down_sync(FULL, s, d);
  if (lane == 1)
    y[blockIdx.x] = s;
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 's' holds the total of a __shfl_down_sync tree reduction only in lane 0{{.*}}[warp-reduction-result-lane]
  // CHECK-MESSAGES: :[[@LINE-4]]:10: note: the reduction moves values down towards lane 0 here
}
