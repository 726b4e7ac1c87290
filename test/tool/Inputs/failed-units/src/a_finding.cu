__global__ void zero(unsigned *out, int v) {
  out[threadIdx.x] = __ballot_sync(0, v > 0);
}
