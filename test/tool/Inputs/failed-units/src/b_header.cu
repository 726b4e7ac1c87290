#include "../include/bad.cuh"
__global__ void b(int *out) { out[threadIdx.x] = bad_helper(); }
