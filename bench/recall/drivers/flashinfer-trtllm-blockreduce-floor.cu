// Calls flashinfer's trtllm_allreduce_fusion utils::blockReduceSumV2<float, 1> and blockReduceMaxV2<float, 1> from every thread of a block, as the fused all-reduce's rms_norm() and dynamic_token_fp8_scale() do (csrc/trtllm_allreduce_fusion.cu instantiates those through torch bindings).
#include "flashinfer/comm/trtllm_allreduce_fusion.cuh"

__global__ void warp_tidy_recall_block_reduce(const float* in, float* out)
{
  namespace u = flashinfer::trtllm_allreduce_fusion::utils;
  float sum = in[blockIdx.x * blockDim.x + threadIdx.x];
  float mx = sum;
  u::blockReduceSumV2<float, 1>(&sum);
  u::blockReduceMaxV2<float, 1>(&mx);
  if (threadIdx.x == 0) {
    out[2 * blockIdx.x] = sum;
    out[2 * blockIdx.x + 1] = mx;
  }
}
