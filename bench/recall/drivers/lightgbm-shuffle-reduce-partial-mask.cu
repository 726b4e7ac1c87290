// Instantiates LightGBM's ShuffleReduceSum/Max/Min<double> (and thus the *Warp helpers) with a blockDim.x length, as src/metric/cuda/cuda_binary_metric.cu does.
#include <LightGBM/cuda/cuda_algorithms.hpp>

namespace warp_tidy_recall {
__global__ void reduce_sum(const double* in, double* out) {
  __shared__ double buf[32];
  const double v = LightGBM::ShuffleReduceSum<double>(in[threadIdx.x], buf, blockDim.x);
  if (threadIdx.x == 0) out[0] = v;
}
__global__ void reduce_max(const double* in, double* out) {
  __shared__ double buf[32];
  const double v = LightGBM::ShuffleReduceMax<double>(in[threadIdx.x], buf, blockDim.x);
  if (threadIdx.x == 0) out[1] = v;
}
__global__ void reduce_min(const double* in, double* out) {
  __shared__ double buf[32];
  const double v = LightGBM::ShuffleReduceMin<double>(in[threadIdx.x], buf, blockDim.x);
  if (threadIdx.x == 0) out[2] = v;
}
}  // namespace warp_tidy_recall
