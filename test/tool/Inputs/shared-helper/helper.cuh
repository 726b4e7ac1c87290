// A helper whose mask is computed from its argument: the finding is in the
// helper, with a note at the call that passes the argument.
__device__ inline int firstLanes(int v, int n) {
  unsigned m = (1u << n) - 1;
  return __shfl_sync(m, v, 0);
}
