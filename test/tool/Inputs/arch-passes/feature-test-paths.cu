// Feature tests that read no arch (__has_include, __has_cpp_attribute, as
// fmt's and mdspan's configuration headers write them) have one value at
// every arch: the branches this pass skipped are skipped by every pass, and
// the warp code, #include and #define in them are no reason for another.
#define HAS_ATTRIBUTE(x) __has_cpp_attribute(x)

#if __has_include(<warp_tidy_no_such_header.h>)
#include <warp_tidy_no_such_header.h>
#endif

#if HAS_ATTRIBUTE(warp_tidy_no_such_attribute)
#define PAIR_ATTRIBUTE [[warp_tidy_no_such_attribute]]
#else
#define PAIR_ATTRIBUTE
#endif

__global__ void kernel(float *out, const float *in) {
  float v = in[threadIdx.x];
#if __has_include(<cuda_runtime.h>)
  v += __shfl_xor_sync(0xffffffffu, v, 1);
#elif defined(__has_cpp_attribute)
  if (threadIdx.x < 16)
    v += __shfl_xor_sync(0xffffffffu, v, 2);
#else
  if (threadIdx.x < 8)
    v += __shfl_xor_sync(0xffffffffu, v, 4);
#endif
  out[threadIdx.x] = v;
}

// A feature test joined with an arch test reads the arch: the sm_90 path
// gets its pass, and its half-warp shuffle is reported for sm_90 and newer.
__global__ void mixed(float *out, const float *in) {
  float v = in[threadIdx.x];
#if __has_include(<cuda_runtime.h>) && __CUDA_ARCH__ >= 900
  if (threadIdx.x < 16)
    v += __shfl_xor_sync(0xffffffffu, v, 1);
#endif
  out[threadIdx.x] = v;
}
