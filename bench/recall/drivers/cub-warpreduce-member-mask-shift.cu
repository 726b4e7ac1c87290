// Instantiates cub::WarpReduce<int, 16> (shfl specialization: Sum, HeadSegmentedSum) and cub::WarpScan<int, 16>, the logical-warp widths test/test_warp_reduce.cu and test/test_warp_scan.cu run.
#include <cub/warp/warp_reduce.cuh>
#include <cub/warp/warp_scan.cuh>

__global__ void warp_tidy_recall_warp_reduce16(const int* in, int* out)
{
  typedef cub::WarpReduce<int, 16> WarpReduce;
  __shared__ typename WarpReduce::TempStorage temp[2];
  const int v = in[threadIdx.x];
  int sum = WarpReduce(temp[threadIdx.x / 16]).Sum(v);
  int seg = WarpReduce(temp[threadIdx.x / 16]).HeadSegmentedSum(v, v > 0);
  out[threadIdx.x] = sum + seg;
}

__global__ void warp_tidy_recall_warp_scan16(const int* in, int* out)
{
  typedef cub::WarpScan<int, 16> WarpScan;
  __shared__ typename WarpScan::TempStorage temp[2];
  int v = in[threadIdx.x];
  WarpScan(temp[threadIdx.x / 16]).InclusiveSum(v, v);
  out[threadIdx.x] = v;
}
