#include "../include/bad.cuh"
__global__ void c(int *out) { out[threadIdx.x] = 2 * bad_helper(); }
