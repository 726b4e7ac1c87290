// warp-tidy runtime validation: the host side every case program shares.
//
// Each cases/<case>/bug.cu and fixed.cu includes this file and defines only its kernel and a
// runConfigs() that launches it in several configurations and checks the results. The program
// runs the kernel on fresh random inputs, compares every result with a reference computed on the
// host, and ends with one verdict line:
//   RESULT: PASS ...                                                  exit status 0
//   RESULT: FAIL <n> of <m> wrong (first: index i got x expected y)   exit status 1
//   RESULT: ERROR ...  (a CUDA API call or a launch failed)           exit status 2
// Usage: <program> [seed]   Without a seed one is taken from the clock; it is printed so that a
// run can be repeated. RV_POISON=0 in the environment skips the shared-memory poisoning
// (run.py sets it under compute-sanitizer, where the poison kernel is only slow).
//
// Everything here is plain host code or a kernel without warp intrinsics, so warp-tidy has
// nothing to say about it and a case's diagnostics all come from its own lines.
#ifndef WARP_TIDY_RUNTIME_VALIDATION_HARNESS_CUH
#define WARP_TIDY_RUNTIME_VALIDATION_HARNESS_CUH

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
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

// The check of a kernel that writes one sum per block: block b sums in[b * block] up to the
// end of its block or of the input (n values), in order, as the host does here.
template <typename T>
void checkBlockSums(Checker& chk, const std::vector<T>& in, int n, int block, const std::vector<T>& got) {
  const int grid = (int)got.size();
  for (int b = 0; b < grid; ++b) {
    typename std::conditional<std::is_floating_point<T>::value, T, long long>::type expected = 0;
    for (int i = b * block; i < (b + 1) * block && i < n; ++i) expected += in[i];
    if (std::is_floating_point<T>::value) chk.checkFloat(b, (float)got[b], (float)expected);
    else chk.checkInt(b, (long long)got[b], (long long)expected);
  }
}

// Reports which architecture the device code was compiled for (differs from the GPU's own when
// the driver JIT-compiles the PTX of an older target).
__global__ void archProbe(int* arch) {
#ifdef __CUDA_ARCH__
  *arch = __CUDA_ARCH__;
#endif
}

// One case's configurations: launch, download, compare through chk.
using RunConfigs = void (*)(std::mt19937_64& rng, Checker& chk);

// The whole program around a case: seed, device and code-arch banner, the configurations, the
// verdict line and exit status.
inline int runCase(int argc, char** argv, const char* caseName, RunConfigs runConfigs) {
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
  std::printf("case %s (%s), seed %llu -- repeat with: %s %llu\n", caseName, argv[0], seed, argv[0], seed);
  std::printf("device: %s, sm_%d%d; device code compiled for sm_%d\n", prop.name, prop.major,
              prop.minor, codeArch / 10);
  std::mt19937_64 rng(seed);
  Checker chk;
  runConfigs(rng, chk);
  return chk.finish(seed);
}

#endif
