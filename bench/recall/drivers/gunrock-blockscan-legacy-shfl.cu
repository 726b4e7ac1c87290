// Instantiates gunrock::util::Block_Scan<int, 350, 8> (Scan and LogicScan, with and without the block sum), the BlockScanT that the enactors (e.g. app/bfs/bfs_enactor.cuh) build from KernelPolicy::CUDA_ARCH and LOG_THREADS for 256-thread blocks.
#include "gunrock/util/scan/block_scan.cuh"

__global__ void warp_tidy_recall_block_scan(const int* in, int* out)
{
  typedef gunrock::util::Block_Scan<int, 350, 8> BlockScanT;
  __shared__ typename BlockScanT::Temp_Space temp;
  int v = in[threadIdx.x], a, b, sum_a, sum_b;
  BlockScanT::Scan(v, a, temp);
  BlockScanT::Scan(v, b, temp, sum_a);
  BlockScanT::LogicScan(v > 0, a, temp);
  BlockScanT::LogicScan(v > 0, b, temp, sum_b);
  out[threadIdx.x] = a + b + sum_a + sum_b;
}
