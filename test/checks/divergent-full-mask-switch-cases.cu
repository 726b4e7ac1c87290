// RUN: %check_warp_tidy %s warp-divergent-full-mask -- -arch=sm_80
//
// The Volta+ pattern through a switch: every case calls the same shuffle
// with the same mask, so every lane reaches one of them. clang's CFG still
// draws an edge for the missing `default:` to the code after the switch;
// when the cases name every value the condition can take (`lane & 7` with
// cases 0 to 7, `threadIdx.x % 4` with 0 to 3), no lane takes it. CUDAjpeg's
// 8x8 transposes are written this way. A missing case, a signed remainder
// (negative values have no case) or a `default:` without the shuffle leave
// lanes on a path without it. Silence is asserted by default.

#define FULL 0xffffffffu

// ------------------------------------------------------- must stay silent

__global__ void everyValueOfThreeBits(const float *in, float *out) {
  int t = threadIdx.x & 7;
  float y = in[threadIdx.x], x = 0;
  switch (t) {
  case 0: x = __shfl_sync(FULL, y, 7, 8); break;
  case 1: x = __shfl_sync(FULL, y, 0, 8); break;
  case 2: x = __shfl_sync(FULL, y, 1, 8); break;
  case 3: x = __shfl_sync(FULL, y, 2, 8); break;
  case 4: x = __shfl_sync(FULL, y, 3, 8); break;
  case 5: x = __shfl_sync(FULL, y, 4, 8); break;
  case 6: x = __shfl_sync(FULL, y, 5, 8); break;
  case 7: x = __shfl_sync(FULL, y, 6, 8); break;
  }
  out[threadIdx.x] = x;
}

__global__ void everyUnsignedRemainder(const int *in, int *out) {
  int x = 0;
  switch (threadIdx.x % 4) {
  case 0: x = __shfl_xor_sync(FULL, in[threadIdx.x], 1); break;
  case 1: x = __shfl_xor_sync(FULL, in[threadIdx.x], 2); break;
  case 2: x = __shfl_xor_sync(FULL, in[threadIdx.x], 1); break;
  case 3: x = __shfl_xor_sync(FULL, in[threadIdx.x], 2); break;
  }
  out[threadIdx.x] = x;
}

// ---------------------------------------------------------- must flag

__global__ void caseSevenMissing(const float *in, float *out) {
  int t = threadIdx.x & 7;
  float y = in[threadIdx.x], x = 0;
  switch (t) {
  case 0: x = __shfl_sync(FULL, y, 7, 8); break;
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: __shfl_sync with a full mask is reached by only some of the lanes it names{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:11: note: this switch condition differs between the lanes of a warp{{.*}}
  case 1: x = __shfl_sync(FULL, y, 0, 8); break;
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: __shfl_sync with a full mask{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-6]]:11: note: this switch condition differs{{.*}}
  case 2: x = __shfl_sync(FULL, y, 1, 8); break;
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: __shfl_sync with a full mask{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-9]]:11: note: this switch condition differs{{.*}}
  case 3: x = __shfl_sync(FULL, y, 2, 8); break;
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: __shfl_sync with a full mask{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-12]]:11: note: this switch condition differs{{.*}}
  case 4: x = __shfl_sync(FULL, y, 3, 8); break;
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: __shfl_sync with a full mask{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-15]]:11: note: this switch condition differs{{.*}}
  case 5: x = __shfl_sync(FULL, y, 4, 8); break;
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: __shfl_sync with a full mask{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-18]]:11: note: this switch condition differs{{.*}}
  case 6: x = __shfl_sync(FULL, y, 5, 8); break;
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: __shfl_sync with a full mask{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-21]]:11: note: this switch condition differs{{.*}}
  }
  out[threadIdx.x] = x;
}

__global__ void signedRemainder(const int *in, int *out, int base) {
  int x = 0;
  switch ((base + (int)threadIdx.x) % 2) {
  case 0: x = __shfl_xor_sync(FULL, in[threadIdx.x], 1); break;
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: __shfl_xor_sync with a full mask{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:11: note: this switch condition differs{{.*}}
  case 1: x = __shfl_xor_sync(FULL, in[threadIdx.x], 1); break;
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: __shfl_xor_sync with a full mask{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-6]]:11: note: this switch condition differs{{.*}}
  }
  out[threadIdx.x] = x;
}
