// Calls TCLB's atomicSumWarpArr (src/cross.hpp) from every lane with six per-lane force/moment values, as Particle.hpp's push_all() does under PARTICLE_SYNC == WARP_SYNC; real_t and MAX_THREADS are what the R-generated src/cuda.cu gets from types.h and Consts.h (GPU build, double precision).
#include "types.h"
#define MAX_THREADS 512
#include "cross.hpp"

__global__ void warp_tidy_recall_push_all(real_t* particle_force, const real_t* force)
{
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  real_t val[6] = {force[6 * t + 0], force[6 * t + 1], force[6 * t + 2],
                   force[6 * t + 3], force[6 * t + 4], force[6 * t + 5]};
  atomicSumWarpArr(particle_force, val, 6);
}
