// Built through warp-tidy-launcher: the zero mask is a warp bug.
__global__ void vote(unsigned *out, int v) {
  out[0] = __ballot_sync(0, v > 3);
}
