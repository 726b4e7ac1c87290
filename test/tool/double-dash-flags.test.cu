__global__ void k(unsigned *out, int v) { out[0] = __ballot_sync(MASK, v); }
