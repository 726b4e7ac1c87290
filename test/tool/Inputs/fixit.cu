struct Counter {
  __device__ void bump() { ++n; };
  int n;
};

constexpr unsigned kNoLanes = 0;
__global__ void fixit(unsigned *out, int v) {
  out[threadIdx.x] = __ballot_sync(kNoLanes, v > 0);
}
