#include <cuda/std/atomic>
#include <cuda/std/cassert>
#include <cuda/std/span>
__global__ void k(cuda::std::span<int> s) { assert(s.size() > 0); cuda::std::atomic_ref<int>(s[0]).fetch_add(1); }
