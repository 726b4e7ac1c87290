// RUN: %check_warp_tidy %s warp-unguarded-partials-read
//
// Kernels launched through a function pointer (`fp k = pick(n); k<<<g,
// b>>>(...)`): a kernel whose address is only stored as a pointer of its
// type (returned, an initialiser, a table) runs with the blocks of the
// unit's launches through pointers of that type. Kept apart from
// unguarded-partials-read-launches.cu, whose launches from an address
// (cudaLaunchKernel) make every stored kernel's blocks unknown.

#define FULL 0xffffffffu

__device__ int warpSum(int v) {
  for (int off = 16; off > 0; off >>= 1)
    v += __shfl_down_sync(FULL, v, off);
  return v;
}

// ---------------------------------------------------------------- must flag

// A kernel picked from a table of instantiations and launched through the
// pointer with 64 threads.
template <int Step> __global__ void unboundedPicked(const int *in, int *out) {
  __shared__ int sums[32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  int v = warpSum(in[threadIdx.x * Step]);
  if (lane == 0) sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = warpSum(sums[lane]);
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: per-warp partials in 'sums' are read at the lane index without a bound{{.*}}[warp-unguarded-partials-read]
    // CHECK-MESSAGES: :[[@LINE-5]]:18: note: the partials are written at the warp index here
    // CHECK-MESSAGES: :[[@LINE+13]]:3: note: this launch can use a block of 64 threads: 2 warps write partials, lanes 2 to 31 read slots no warp wrote
    if (lane == 0) out[blockIdx.x] = v;
  }
}
typedef void (*PickedKernel)(const int *, int *);
PickedKernel pickSmall(int step) {
  if (step == 1)
    return unboundedPicked<1>;
  return unboundedPicked<2>;
}
void launchPickedSmall(const int *in, int *out, int step) {
  PickedKernel kernel = pickSmall(step);
  dim3 block(64);
  kernel<<<1, block>>>(in, out);
}

// Pointers of this function type are also launched through a launcher's
// parameter, with a block the launch does not fix: a stored kernel's
// blocks are not known, and the report stands as the kernel gives it.
template <int Step> __global__ void unboundedPickedMixed(const int *in, int *out, float scale) {
  __shared__ int sums[32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  int v = warpSum(in[threadIdx.x * Step] * scale);
  if (lane == 0) sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = warpSum(sums[lane]);
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: per-warp partials in 'sums' are read at the lane index without a bound{{.*}}[warp-unguarded-partials-read]
    // CHECK-MESSAGES: :[[@LINE-5]]:18: note: the partials are written at the warp index here
    if (lane == 0) out[blockIdx.x] = v;
  }
}
typedef void (*MixedKernel)(const int *, int *, float);
MixedKernel pickMixed(int step) {
  return step == 1 ? unboundedPickedMixed<1> : unboundedPickedMixed<2>;
}
void launchMixedByVariable(const int *in, int *out, int n, int step) {
  MixedKernel kernel = pickMixed(step);
  kernel<<<n, 1024>>>(in, out, 1.0f);
}
template <typename Kernel> void launchThrough(Kernel kernel, const int *in, int *out, int threads) {
  kernel<<<1, threads>>>(in, out, 1.0f);
}
void launchMixedByParameter(const int *in, int *out, int threads) {
  launchThrough(pickMixed(1), in, out, threads);
}

// --------------------------------------------------------- must stay silent

// Instantiations picked with `?:` and launched through a pointer of their
// type, always with 1024 threads (exllamav2's layer norms); the launch with
// 64 threads above is through a pointer of another type.
template <int Step> __global__ void unboundedPickedFull(const int *in, int *out, int n) {
  __shared__ int sums[32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  int v = warpSum(in[threadIdx.x * Step]);
  if (lane == 0) sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = warpSum(sums[lane]);
    if (lane == 0) out[blockIdx.x] = v;
  }
}
typedef void (*PickedFullKernel)(const int *, int *, int);
PickedFullKernel pickFull(int step) {
  return step == 1 ? unboundedPickedFull<1> : unboundedPickedFull<2>;
}
void launchPickedFull(const int *in, int *out, int n, int step) {
  PickedFullKernel kernel = pickFull(step);
  kernel<<<n, 1024>>>(in, out, n);
}
