__global__ void broken_kernel(unsigned *out, int v) {
  out[threadIdx.x] = __ballot_sync(0xffffffff, v)   // missing semicolon
}
