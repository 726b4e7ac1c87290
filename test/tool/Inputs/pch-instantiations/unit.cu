// Instantiates the header's templates from the unit: with the PCH the
// instantiations are made in the unit's parse, as without it.
#include "row_reduce.cuh"

template <int... Scales> void launchAll(const float *in, float *out) {
  (rowSumKernel<Scales><<<1, 32>>>(in, out), ...);
}

void launch(const float *in, float *out) {
  launchAll<1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20>(in, out);
}
