// RUN: %check_warp_tidy %s warp-invalid-shfl-width
// RUN: %check_warp_tidy %s warp-invalid-shfl-width -- -arch=sm_90
// RUN: %check_warp_tidy %s warp-invalid-shfl-width -- -gencode arch=compute_80,code=sm_80
//
// warp-invalid-shfl-width: a constant width that is not a power of two in
// [1, 32], and a constant delta / source lane / lane mask outside the width.
// Runtime or in-range values stay silent.

#define SEGMENT 12
constexpr int kWidth = 24;

template <int W> __device__ int segmentSum(int v) {
  return v + __shfl_down_sync(0xffffffff, v, 1, W);
  // CHECK-MESSAGES: :[[@LINE-1]]:49: warning: __shfl_down_sync width 3 is not a power of two in [1, 32]{{.*}}[warp-invalid-shfl-width]
}

__global__ void mustFlag(int *out, float *f, int v) {
  out[0] = __shfl_sync(0xffffffff, v, 0, 12);
  // CHECK-MESSAGES: :[[@LINE-1]]:42: warning: __shfl_sync width 12 is not a power of two in [1, 32]: the result is undefined; use 1, 2, 4, 8, 16 or 32{{.*}} [warp-invalid-shfl-width]
  out[1] = __shfl_xor_sync(0xffffffff, v, 1, 64);
  // CHECK-MESSAGES: :[[@LINE-1]]:46: warning: __shfl_xor_sync width 64 is not {{.*}}[warp-invalid-shfl-width]
  out[2] = __shfl_up_sync(0xffffffff, v, 1, SEGMENT);
  // CHECK-MESSAGES: :[[@LINE-1]]:45: warning: __shfl_up_sync width 12 {{.*}}[warp-invalid-shfl-width]
  out[3] = __shfl_down_sync(0xffffffff, v, 1, kWidth);
  // CHECK-MESSAGES: :[[@LINE-1]]:47: warning: __shfl_down_sync width 24 {{.*}}[warp-invalid-shfl-width]
  out[4] = __shfl_sync(0xffffffff, v, 0, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:42: warning: __shfl_sync width 0 {{.*}}[warp-invalid-shfl-width]
  out[5] = __shfl_sync(0xffffffff, v, 0, -8);
  // CHECK-MESSAGES: :[[@LINE-1]]:42: warning: __shfl_sync width -8 {{.*}}[warp-invalid-shfl-width]
  f[0] = __shfl_down_sync(0xffffffff, f[1], 1, 48);
  // CHECK-MESSAGES: :[[@LINE-1]]:48: warning: __shfl_down_sync width 48 {{.*}}[warp-invalid-shfl-width]
  out[6] = segmentSum<3>(v);

  // Offsets that do not fit the width.
  out[7] = __shfl_down_sync(0xffffffff, v, 16, 16);
  // CHECK-MESSAGES: :[[@LINE-1]]:44: warning: __shfl_down_sync delta 16 is out of range for width 16: no lane has a source 16 lanes above it, so every lane gets its own value back; use a delta in [1, 16) [warp-invalid-shfl-width]
  out[8] = __shfl_up_sync(0xffffffff, v, 32);
  // CHECK-MESSAGES: :[[@LINE-1]]:42: warning: __shfl_up_sync delta 32 is out of range for width 32: no lane has a source 32 lanes below it{{.*}}[warp-invalid-shfl-width]
  out[9] = __shfl_sync(0xffffffff, v, 9, 8);
  // CHECK-MESSAGES: :[[@LINE-1]]:39: warning: __shfl_sync source lane 9 is out of range for width 8: it is taken modulo 8 and reads lane 1 of the segment{{.*}}[warp-invalid-shfl-width]
  out[10] = __shfl_sync(0xffffffff, v, -1);
  // CHECK-MESSAGES: :[[@LINE-1]]:40: warning: __shfl_sync source lane -1 is out of range for width 32: it is taken modulo 32 and reads lane 31 {{.*}}[warp-invalid-shfl-width]
  out[11] = __shfl_xor_sync(0xffffffff, v, 8, 8);
  // CHECK-MESSAGES: :[[@LINE-1]]:44: warning: __shfl_xor_sync lane mask 8 is out of range for width 8{{.*}}[warp-invalid-shfl-width]
  out[12] = __shfl_down(v, 32);
  // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: __shfl_down delta 32 is out of range for width 32{{.*}}[warp-invalid-shfl-width]
  out[13] = __shfl(v, 0, 20);
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: __shfl width 20 is not a power of two{{.*}}[warp-invalid-shfl-width]
}

__global__ void mustStaySilent(int *out, float *f, int v, int runtimeWidth, int d) {
  out[0] = __shfl_sync(0xffffffff, v, 0);
  out[1] = __shfl_sync(0xffffffff, v, 0, 16);
  out[2] = __shfl_sync(0xffffffff, v, 0, 1);
  out[3] = __shfl_up_sync(0xffffffff, v, 1, 32);
  out[4] = __shfl_down_sync(0xffffffff, v, 1, runtimeWidth);  // not constant
  for (int offset = 16; offset > 0; offset /= 2)
    out[5] += __shfl_down_sync(0xffffffff, v, offset);
  out[6] = __shfl_sync(0xffffffff, v, 7, 8);
  out[7] = __shfl_xor_sync(0xffffffff, v, 15, 16);
  out[8] = __shfl_down_sync(0xffffffff, v, d, 4);
  out[9] = __shfl_up_sync(0xffffffff, v, 3, 4);
  f[0] = __shfl_sync(0xffffffff, f[1], 31);
  out[10] = segmentSum<8>(v);
  out[11] = __shfl_down(v, 1, 16);
}
