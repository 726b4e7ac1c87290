__global__ void first(unsigned *out, int v) {
  out[threadIdx.x] = __ballot_sync(0, v > 0);
}
__global__ void second(unsigned *out, int v) {
  out[threadIdx.x] = __ballot_sync(0, v < 0);
}
