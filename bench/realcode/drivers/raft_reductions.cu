// Driver for the real-code evaluation (bench/realcode.py): instantiates raft's
// warp and block reductions (raft/util/reduction.cuh, warp_primitives.cuh) the
// way a caller would, so that warp-tidy analyses their template bodies.
#include <raft/util/reduction.cuh>

__global__ void driverWarpReduce(float* out, const float* in)
{
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  out[blockIdx.x * blockDim.x + threadIdx.x] = raft::warpReduce(v);
  out[0] += raft::logicalWarpReduce<8>(v, raft::add_op{});
}

__global__ void driverBlockReduce(float* out, const float* in)
{
  __shared__ char smem[32 * sizeof(float)];
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  float s = raft::blockReduce(v, smem);
  if (threadIdx.x == 0) out[blockIdx.x] = s;
}

__global__ void driverRankedReduce(float* out, int* idx, const float* in)
{
  __shared__ float sv[64];
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  int i   = threadIdx.x;
  raft::warpRankedReduce(v, i, raft::min_op{});
  auto best = raft::blockRankedReduce(v, sv, (int)threadIdx.x, raft::min_op{});
  if (threadIdx.x == 0) { out[blockIdx.x] = best.first; idx[blockIdx.x] = best.second; }
}

__global__ void driverBinaryBlockReduce(int* out, const int* in)
{
  __shared__ int sh[32];
  int v = raft::binaryBlockReduce<256>(in[threadIdx.x], sh);
  if (threadIdx.x == 0) out[blockIdx.x] = v;
}

__global__ void driverVectorReduce(float* out, const float* in)
{
  float acc[4];
  for (int k = 0; k < 4; ++k) acc[k] = in[threadIdx.x * 4 + k];
  raft::logicalWarpReduceVector<8, 4>(acc, threadIdx.x % 8, raft::add_op{});
  for (int k = 0; k < 4; ++k) out[threadIdx.x * 4 + k] = acc[k];
}
