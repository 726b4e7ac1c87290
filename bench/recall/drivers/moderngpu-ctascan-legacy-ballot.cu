// Instantiates moderngpu's CTABinaryScan<128> (device/ctascan.cuh) and DeviceFindSegScanDelta<128> (device/ctasegscan.cuh) from a 128-thread kernel, as the CTA-level scans of kernels/*.cuh (e.g. segmented reduce/scan) call them.
#include "moderngpu.cuh"

__global__ void warp_tidy_recall_cta_scans(const int* flags, int* out)
{
  __shared__ int shared[128];
  const int tid = threadIdx.x;
  int total;
  const int scan = mgpu::CTABinaryScan<128>(tid, flags[tid] != 0, shared, &total);
  const int delta = mgpu::DeviceFindSegScanDelta<128>(tid, flags[tid] > 1, shared);
  out[tid] = scan + delta + total;
}
