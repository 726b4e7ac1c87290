// Another unit of the same project: the same leading includes, spelled
// differently, share the PCH of unit_a.cu.
#include   "warp_helpers.cuh"   // helpers
#  include "lane_utils.cuh"

// Code first, then a macro: the block (and so the shared PCH) ends at the
// code.
static constexpr int kOffset = 0;
#define SCALE (2 + kOffset)

__global__ void kernelB(float *out, unsigned *flags) {
  float v = out[threadIdx.x] * SCALE;
  out[threadIdx.x] = oddLaneMax<float>(v);
  flags[threadIdx.x] = countFlags(flags[threadIdx.x]) + warpMax(laneId());
}
