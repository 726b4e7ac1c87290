#include "helper.cuh"
__global__ void fromA(int *p) { p[0] = firstLanes(p[1], 4); }
