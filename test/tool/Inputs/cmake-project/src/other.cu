#include "fixture_masks.cuh"

__global__ void fine(unsigned *out, int v) {
  out[0] = __any_sync(FIXTURE_FULL_MASK, v);
}
