// warp-tidy runtime validation -- case "unguarded-partials-read-floor" (check warp-unguarded-partials-read).
// The second stage of a block reduction is bounded by lane < blockDim.x / 32, which rounds
// down: when blockDim.x is not a multiple of 32 the partial last warp's sum is dropped
// (measured on an H200: a 48-thread block lost 16 elements, 258 summed as 169).
//
// bug.cu and fixed.cu are the same program except for the marked lines (a BUG comment in bug.cu,
// a FIX comment in fixed.cu). The program runs the kernel on fresh random inputs in several
// launch configurations, compares every result with a reference computed on the host, and ends
// with one verdict line:
//   RESULT: PASS ...                                                  exit status 0
//   RESULT: FAIL <n> of <m> wrong (first: index i got x expected y)   exit status 1
//   RESULT: ERROR ...  (a CUDA API call or a launch failed)           exit status 2
// Usage: <program> [seed]   Without a seed one is taken from the clock; it is printed so that a
// run can be repeated. RV_POISON=0 in the environment skips the shared-memory poisoning
// (run.py sets it under compute-sanitizer, where the poison kernel is only slow).
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#define CUDA_CHECK(call)                                                                 \
  do {                                                                                   \
    const cudaError_t err_ = (call);                                                     \
    if (err_ != cudaSuccess) {                                                           \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,         \
                   cudaGetErrorString(err_));                                            \
      std::printf("RESULT: ERROR %s (%s)\n", cudaGetErrorName(err_),                     \
                  cudaGetErrorString(err_));                                             \
      std::exit(2);                                                                      \
    }                                                                                    \
  } while (0)

// Checks a launch and waits for it, so that an error is reported at the kernel that caused it.
#define LAUNCH_CHECK()                        \
  do {                                        \
    CUDA_CHECK(cudaGetLastError());           \
    CUDA_CHECK(cudaDeviceSynchronize());      \
  } while (0)

// ---------------------------------------------------------------------------------------------
// Shared-memory poisoning. Reads of __shared__ memory that was never written in this block
// often return zeros, or what a correct run left there, and then look right. Before every real
// launch we fill the shared memory of every SM with a recognisable pattern (0x00BADBAD plus a
// little noise, about 12.2 million as an int) so that such reads show up in the results.
__global__ void poisonSharedKernel(unsigned words, unsigned salt) {
  extern __shared__ unsigned smem[];
  volatile unsigned* p = smem;  // volatile: the stores must not be optimised away
  for (unsigned i = threadIdx.x; i < words; i += blockDim.x)
    p[i] = 0x00BADBADu + ((i * 2654435761u + salt) >> 28);
}

static void poisonSharedMemory(unsigned salt) {
  static int enabled = -1;
  static cudaDeviceProp prop;
  if (enabled < 0) {
    const char* env = std::getenv("RV_POISON");
    enabled = !(env && std::strcmp(env, "0") == 0);
    int dev = 0;
    CUDA_CHECK(cudaGetDevice(&dev));
    CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
    CUDA_CHECK(cudaFuncSetAttribute(poisonSharedKernel,
                                    cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    (int)prop.sharedMemPerBlockOptin));
  }
  if (!enabled) return;
  // One block per SM at the largest opt-in size covers the whole carve-out; many default-size
  // blocks cover the per-block windows that small kernels are usually given.
  const size_t big = prop.sharedMemPerBlockOptin, small = prop.sharedMemPerBlock;
  poisonSharedKernel<<<2 * prop.multiProcessorCount, 1024, big>>>((unsigned)(big / 4), salt);
  CUDA_CHECK(cudaGetLastError());
  poisonSharedKernel<<<8 * prop.multiProcessorCount, 256, small>>>((unsigned)(small / 4), salt);
  LAUNCH_CHECK();
}

// ---------------------------------------------------------------------------------------------
// Host helpers.
template <typename T>
struct DeviceArray {
  T* ptr = nullptr;
  size_t count = 0;
  explicit DeviceArray(size_t n) : count(n) {
    CUDA_CHECK(cudaMalloc(&ptr, (n ? n : 1) * sizeof(T)));
    CUDA_CHECK(cudaMemset(ptr, 0xFF, (n ? n : 1) * sizeof(T)));  // unwritten outputs show up
  }
  explicit DeviceArray(const std::vector<T>& host) : DeviceArray(host.size()) {
    CUDA_CHECK(cudaMemcpy(ptr, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  }
  ~DeviceArray() { cudaFree(ptr); }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  std::vector<T> download() const {
    std::vector<T> host(count);
    CUDA_CHECK(cudaMemcpy(host.data(), ptr, count * sizeof(T), cudaMemcpyDeviceToHost));
    return host;
  }
};

inline int randInt(std::mt19937_64& rng, int lo, int hi) {
  return std::uniform_int_distribution<int>(lo, hi)(rng);
}

inline std::vector<int> randomInts(std::mt19937_64& rng, size_t n, int lo, int hi) {
  std::vector<int> v(n);
  for (auto& x : v) x = randInt(rng, lo, hi);
  return v;
}

// An element count in [lo, hi] that is not a multiple of 32, so the last warp has padding lanes.
inline int countNotMultipleOf32(std::mt19937_64& rng, int lo, int hi) {
  int n = randInt(rng, lo, hi);
  if (n % 32 == 0) ++n;
  return n;
}

inline std::string format(const char* fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  return buf;
}

// Element-wise comparison against the host reference, per configuration and in total.
class Checker {
 public:
  void begin(const std::string& label) {
    label_ = label;
    cfgChecked_ = cfgWrong_ = 0;
    ++configs_;
  }
  // "what" names the array when there is more than one; index < 0 means a single value (a count).
  void checkInt(long long index, long long got, long long expected, const char* what = "index") {
    if (got != expected) mismatch(format("%s got %lld expected %lld", where(what, index).c_str(), got, expected));
    else match();
  }
  void checkBits(long long index, unsigned got, unsigned expected, const char* what = "index") {
    if (got != expected) mismatch(format("%s got 0x%08x expected 0x%08x", where(what, index).c_str(), got, expected));
    else match();
  }
  void checkFloat(long long index, float got, float expected, const char* what = "index") {  // exact: see the inputs
    if (!(got == expected)) mismatch(format("%s got %.9g expected %.9g", where(what, index).c_str(), got, expected));
    else match();
  }
  void end() {
    std::printf("  %-62s %lld of %lld wrong\n", label_.c_str(), cfgWrong_, cfgChecked_);
  }
  int finish(unsigned long long seed) const {
    if (wrong_ == 0) {
      std::printf("RESULT: PASS %lld values in %d configurations match the host reference (seed %llu)\n",
                  checked_, configs_, seed);
      return 0;
    }
    std::printf("RESULT: FAIL %lld of %lld wrong (first: %s) in [%s] (seed %llu)\n", wrong_, checked_,
                first_.c_str(), firstLabel_.c_str(), seed);
    return 1;
  }

 private:
  static std::string where(const char* what, long long index) {
    return index < 0 ? std::string(what) : format("%s %lld", what, index);
  }
  void match() { ++checked_, ++cfgChecked_; }
  void mismatch(const std::string& what) {
    match();
    ++wrong_, ++cfgWrong_;
    if (first_.empty()) first_ = what, firstLabel_ = label_;
  }
  std::string label_, first_, firstLabel_;
  long long checked_ = 0, wrong_ = 0, cfgChecked_ = 0, cfgWrong_ = 0;
  int configs_ = 0;
};

// Reports which architecture the device code was compiled for (differs from the GPU's own when
// the driver JIT-compiles the PTX of an older target).
__global__ void archProbe(int* arch) {
#ifdef __CUDA_ARCH__
  *arch = __CUDA_ARCH__;
#endif
}

// =============================================================================================
// The case.

// Number of this block's threads in warp w: 32, except in the last warp when blockDim.x is not
// a multiple of 32.
__device__ unsigned lanesInWarp(unsigned w) {
  const unsigned rest = blockDim.x - w * 32u;
  return rest < 32u ? rest : 32u;
}

// Sum over the lanes of the calling warp that exist; lane 0 gets the total. Correct for the
// partial last warp too: the mask names exactly the lanes that exist (all of which call this,
// converged), and a lane only adds a value whose source lane exists.
__device__ int warpSum(int v) {
  const unsigned lane = threadIdx.x & 31u;
  const unsigned lanes = lanesInWarp(threadIdx.x / 32u);
  const unsigned mask = (lanes == 32u) ? 0xffffffffu : ((1u << lanes) - 1u);
  for (unsigned off = 16; off > 0; off >>= 1) {
    const int other = __shfl_down_sync(mask, v, off);
    if (lane + off < lanes) v += other;
  }
  return v;
}

// One sum per block: each warp's sum goes to shared memory (slot = warp index), then warp 0
// adds those partial sums up (slot = lane index).
__global__ void blockSum(const int* in, int n, int* blockSums) {
  __shared__ int warpSums[32];
  const unsigned lane = threadIdx.x & 31u;
  const unsigned warp = threadIdx.x / 32u;
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int v = (gid < n) ? in[gid] : 0;
  v = warpSum(v);
  if (lane == 0) warpSums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    int s = (lane < blockDim.x / 32) ? warpSums[lane] : 0;  // BUG: floors: drops the partial last warp (48 threads: 1 of 2 warps)
    s = warpSum(s);
    if (lane == 0) blockSums[blockIdx.x] = s;
  }
}

static void runConfigs(std::mt19937_64& rng, Checker& chk) {
  // Block sizes: most have fewer than 32 warps, several are not a multiple of 32. The last
  // block of each launch is only partly filled.
  const int blocks[] = {48, 64, 100, 200, 256, 1000};
  for (const int block : blocks) {
    const int grid = randInt(rng, 20, 60);
    const int n = grid * block - randInt(rng, 1, block - 1);
    const std::vector<int> in = randomInts(rng, n, 1, 10);
    DeviceArray<int> dIn(in);
    DeviceArray<int> dSums(grid);
    poisonSharedMemory((unsigned)rng());
    blockSum<<<grid, block>>>(dIn.ptr, n, dSums.ptr);
    LAUNCH_CHECK();
    const std::vector<int> got = dSums.download();
    chk.begin(format("block=%d (%d warps) grid=%d n=%d (one sum per block)", block, (block + 31) / 32, grid, n));
    for (int b = 0; b < grid; ++b) {
      long long expected = 0;
      for (int i = b * block; i < (b + 1) * block && i < n; ++i) expected += in[i];
      chk.checkInt(b, got[b], expected);
    }
    chk.end();
  }
}
// =============================================================================================

int main(int argc, char** argv) {
  const unsigned long long seed =
      argc > 1 ? std::strtoull(argv[1], nullptr, 0)
               : (unsigned long long)std::chrono::system_clock::now().time_since_epoch().count() %
                     4294967296ull;
  int dev = 0;
  CUDA_CHECK(cudaGetDevice(&dev));
  cudaDeviceProp prop;
  CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
  int codeArch = 0;
  {
    DeviceArray<int> dArch(1);
    archProbe<<<1, 1>>>(dArch.ptr);
    LAUNCH_CHECK();
    codeArch = dArch.download()[0];
  }
  std::printf("case unguarded-partials-read-floor (%s), seed %llu -- repeat with: %s %llu\n", argv[0], seed, argv[0], seed);
  std::printf("device: %s, sm_%d%d; device code compiled for sm_%d\n", prop.name, prop.major,
              prop.minor, codeArch / 10);
  std::mt19937_64 rng(seed);
  Checker chk;
  runConfigs(rng, chk);
  return chk.finish(seed);
}
