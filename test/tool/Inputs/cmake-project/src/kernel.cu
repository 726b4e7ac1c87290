#include "fixture_masks.cuh"

__global__ void vote(unsigned *out, int v) {
  out[0] = __ballot_sync(FIXTURE_FULL_MASK, v > 0);
  out[1] = __ballot_sync(FIXTURE_MASK, v > 1);
}
