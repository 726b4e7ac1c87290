// bug.cu fixed: every lane of the warp takes part in the ballot.
__global__ void vote(unsigned *out, int v) {
  out[0] = __ballot_sync(0xffffffff, v > 3);
}
