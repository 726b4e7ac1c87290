// Calls xFormers' warp_uniform() (gemm_kernel_utils.h) from every thread of a kernel, as AttentionKernel's advance_to_block in kernel_forward.h/kernel_backward.h does (head_dim = warp_uniform(head_dim)); the project's kernels/*.cu instantiate all of AttentionKernel, which clang rejects (missing 'typename' in kernel_forward.h).
#include <ATen/ATen.h>  // gemm_kernel_utils.h uses at:: types; kernel_forward.h includes ATen first

#include "gemm_kernel_utils.h"

namespace gemm_kernel_utils {}  // the fix commit moved the helpers into this namespace
using namespace gemm_kernel_utils;

__global__ void warp_tidy_recall_attention_params(int32_t* head_dim, int32_t* num_keys, float** ptr)
{
  const int32_t hd = warp_uniform(head_dim[blockIdx.x]);
  const int32_t nk = warp_uniform(num_keys[blockIdx.x]);
  float* p = warp_uniform(ptr[blockIdx.x]);
  p[threadIdx.x] = float(hd + nk);
}
