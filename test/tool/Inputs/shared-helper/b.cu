#include "helper.cuh"
__global__ void fromB(int *p) { p[2] = firstLanes(p[3], 4); }
