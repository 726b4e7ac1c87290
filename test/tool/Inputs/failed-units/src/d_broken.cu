__global__ void broken(unsigned *out, int v) {
  out[threadIdx.x] = __ballot_sync(0, v > 0)   // missing semicolon
  undeclared_function(out);
}
