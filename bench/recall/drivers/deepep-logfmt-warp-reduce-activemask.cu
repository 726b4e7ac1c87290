// Calls DeepEP's warp_reduce_and<4> / warp_reduce_or<2, true> (kernels/utils.cuh) from lanes lane_id < kNumDivisions / 2 only, the shape of internode_ll.cu's logfmt_check_amaxmin call in the low-latency combine (kNumSendUnrolls 4, kNumRecvUnrolls 2, hidden 7168); internode_ll.cu itself needs NVSHMEM.
#include <cstdint>

#include "utils.cuh"

template <int kNumSendUnrolls, int kNumRecvUnrolls>
__device__ void warp_tidy_recall_check_amaxmin(bool enable_cast, int* shared_cast_info, const int lane_id)
{
  const auto cast_bit = deep_ep::warp_reduce_and<kNumSendUnrolls>(enable_cast) ? 1u << (lane_id / kNumRecvUnrolls) : 0u;
  const auto prefix = __popc(deep_ep::warp_reduce_or<kNumRecvUnrolls, true>(cast_bit) & ((1u << (lane_id / kNumRecvUnrolls)) - 1));
  shared_cast_info[lane_id / kNumRecvUnrolls] = (prefix << 1) | (cast_bit ? 1u : 0u);
}

__global__ void warp_tidy_recall_combine(const uint64_t* amaxmin, int* cast_info)
{
  constexpr int kNumDivisions = 7168 / 128;
  const int lane_id = threadIdx.x % 32;
  __shared__ int shared_cast_info[32];
  if (lane_id < kNumDivisions / 2)
    warp_tidy_recall_check_amaxmin<4, 2>(amaxmin[lane_id] != 0, shared_cast_info, lane_id);
  __syncwarp();
  cast_info[threadIdx.x] = shared_cast_info[lane_id];
}
