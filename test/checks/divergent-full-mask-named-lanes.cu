// RUN: %check_warp_tidy %s warp-divergent-full-mask -- -arch=sm_80
//
// warp-divergent-full-mask for a collective whose mask names only some of
// the warp's lanes: only a branch that can split the lanes the mask names
// keeps some of them away. A half-warp (`lane / 16`) walking its own rows
// under `lane < 16` with 0x0000ffff, or under `lane >= 16` with
// 0xffff0000, has loop bounds that are the same in every named lane. A
// bound that differs inside the named half still splits it.

#define LOW_HALF 0x0000ffffu
#define HIGH_HALF 0xffff0000u

// ------------------------------------------------------- must stay silent

// TileSpMV's shape: two half-warps per warp, each on its own rows; the row
// range is a load at an address the half's lanes share.
__global__ void halfWarpRows(const int *__restrict__ rowPtr, const float *__restrict__ val,
                             float *y) {
  const int lane = threadIdx.x & 31;
  const int half = lane / 16;
  const int block = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  float sum = 0.0f;
  if (lane < 16) {
    for (int r = rowPtr[block] + half; r < rowPtr[block + 1]; r += 2) {
      float v = val[r * 16 + lane];
      v += __shfl_down_sync(LOW_HALF, v, 8);
      v += __shfl_down_sync(LOW_HALF, v, 4);
      sum += v;
    }
  } else {
    for (int r = rowPtr[block] + half; r < rowPtr[block + 1]; r += 2) {
      float v = val[r * 16 + lane - 16];
      v += __shfl_down_sync(HIGH_HALF, v, 8, 16);
      sum += v;
    }
  }
  y[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// A quarter of the warp, from a 2-D block whose x extent is 8: the lanes
// 0-7 share threadIdx.y, and the condition reads only that.
__global__ void quarterRows(const int *__restrict__ len, int *out) {
  const int lane = (threadIdx.y * 8 + threadIdx.x) & 31;
  if (lane < 8 && len[blockIdx.x * 4 + threadIdx.y] > 0)
    out[threadIdx.y] = __ballot_sync(0x000000ffu, threadIdx.x & 1);
}

// --------------------------------------------------------- must flag

// The bound differs between lanes of the named half: lane 0 can leave the
// loop while lane 1 stays.
__global__ void boundSplitsTheHalf(const int *__restrict__ rowPtr, const float *__restrict__ val,
                                   float *y) {
  const int lane = threadIdx.x & 31;
  float sum = 0.0f;
  if (lane < 16) {
    for (int r = rowPtr[blockIdx.x] + (lane & 1); r < rowPtr[blockIdx.x + 1]; r += 2)
      sum += __shfl_down_sync(LOW_HALF, val[r * 16 + lane], 8);
      // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: __shfl_down_sync with mask 0x0000ffff is reached by only some of the lanes it names{{.*}}[warp-divergent-full-mask]
      // CHECK-MESSAGES: :[[@LINE-3]]:51: note: this loop condition differs between the lanes the mask names{{.*}}
  }
  y[threadIdx.x] = sum;
}

// A data-dependent condition inside the named lanes.
__global__ void dataSplitsTheHalf(const int *__restrict__ flags, int *out) {
  const int lane = threadIdx.x & 31;
  int v = flags[threadIdx.x];
  if (lane < 16 && v != 0)
    v = __shfl_xor_sync(LOW_HALF, v, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: __shfl_xor_sync with mask 0x0000ffff is reached by only some of the lanes it names{{.*}}[warp-divergent-full-mask]
    // CHECK-MESSAGES: :[[@LINE-3]]:{{[0-9]+}}: note: this condition differs between the lanes the mask names{{.*}}
  out[threadIdx.x] = v;
}

void launchQuarterRows(const int *len, int *out) { quarterRows<<<16, dim3(8, 4)>>>(len, out); }
