__global__ void clean(unsigned *out, int v) {
  out[threadIdx.x] = __ballot_sync(0xffffffff, v > 0);
}
