// RUN: %check_warp_tidy %s warp-non-integer-reduce -- -arch=sm_80
// RUN: %check_warp_tidy %s warp-non-integer-reduce -- --generate-code=arch=compute_90,code=[compute_90,sm_90]
// RUN: %check_warp_tidy %s warp-non-integer-reduce -- --offload-arch=sm_86
// With the lowest arch sm_75 the call parses through warp-tidy's arch shim.
// RUN: %check_warp_tidy %s warp-non-integer-reduce -- -arch sm_75
//
// warp-non-integer-reduce: floating-point and 64-bit values passed to the
// integer-only __reduce_*_sync (clang's headers convert them silently).

template <typename T> __device__ unsigned reduceAny(T v) {
  return __reduce_add_sync(0xffffffff, v);
  // CHECK-MESSAGES: :[[@LINE-1]]:40: warning: __reduce_add_sync is an integer-only warp reduction: this 'float' value {{.*}}[warp-non-integer-reduce]
}

struct Particle { double mass; long long id; };

__global__ void mustFlag(unsigned *out, float *in, double d, long long big,
                         unsigned long long ubig, Particle p) {
  float v = in[threadIdx.x];
  out[0] = __reduce_add_sync(0xffffffff, v);
  // CHECK-MESSAGES: :[[@LINE-1]]:42: warning: __reduce_add_sync is an integer-only warp reduction: this 'float' value is silently converted to 'unsigned int', dropping its fraction (and wrapping negative values); reduce floating-point values with a __shfl_down_sync/__shfl_xor_sync loop or cooperative_groups::reduce [warp-non-integer-reduce]
  out[1] = __reduce_add_sync(0xffffffff, d * 2.0);
  // CHECK-MESSAGES: :[[@LINE-1]]:42: warning: __reduce_add_sync is an integer-only warp reduction: this 'double' value {{.*}}[warp-non-integer-reduce]
  out[2] = __reduce_or_sync(0xffffffff, p.mass);
  // CHECK-MESSAGES: :[[@LINE-1]]:41: warning: __reduce_or_sync is an integer-only {{.*}}'double'{{.*}}[warp-non-integer-reduce]
  out[3] = __reduce_add_sync(0xffffffff, big);
  // CHECK-MESSAGES: :[[@LINE-1]]:42: warning: __reduce_add_sync reduces 32-bit values: this 'long long' value is truncated to 'unsigned int', losing its upper 32 bits{{.*}}[warp-non-integer-reduce]
  out[4] = __reduce_xor_sync(0xffffffff, ubig);
  // CHECK-MESSAGES: :[[@LINE-1]]:42: warning: __reduce_xor_sync reduces 32-bit values: this 'unsigned long long' {{.*}}[warp-non-integer-reduce]
  out[5] = __reduce_and_sync(0xffffffff, p.id);
  // CHECK-MESSAGES: :[[@LINE-1]]:42: warning: __reduce_and_sync reduces 32-bit values{{.*}}[warp-non-integer-reduce]
  // The spec's measured case: a float cast to int to make nvcc accept it,
  // the sum turned back into a float.
  float sum = (float)__reduce_add_sync(0xffffffff, (int)v);
  // CHECK-MESSAGES: :[[@LINE-1]]:52: warning: __reduce_add_sync is an integer-only warp reduction: casting the 'float' value to 'int' and the result back to floating point drops every fraction before it is summed{{.*}}[warp-non-integer-reduce]
  float sum2 = __reduce_max_sync(0xffffffff, static_cast<int>(in[1]));
  // CHECK-MESSAGES: :[[@LINE-1]]:46: warning: __reduce_max_sync is an integer-only warp reduction: casting the 'float' value {{.*}}[warp-non-integer-reduce]
  out[6] = reduceAny(v);
  out[7] = sum + sum2;
}

__global__ void mustStaySilent(unsigned *out, int *iv, float *in, unsigned u,
                               long long big, short s, bool b) {
  out[0] = __reduce_add_sync(0xffffffff, u);
  out[1] = __reduce_min_sync(0xffffffff, iv[0]);
  out[2] = __reduce_max_sync(0xffffffff, 3u);
  out[3] = __reduce_or_sync(0xffffffff, s);
  out[4] = __reduce_and_sync(0xffffffff, b);
  // Deliberate fixed-point: the value is scaled before the cast.
  out[5] = __reduce_add_sync(0xffffffff, (int)(in[0] * 1024.0f));
  // An explicit narrowing of a 64-bit value is a decision the user made.
  out[6] = __reduce_add_sync(0xffffffff, (unsigned)big);
  // Integer result kept as an integer: counting, not summing floats.
  out[7] = __reduce_add_sync(0xffffffff, (int)in[1]);
  out[8] = reduceAny(u);
}
