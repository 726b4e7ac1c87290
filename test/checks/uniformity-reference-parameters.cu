// RUN: %check_warp_tidy %s warp-divergent-full-mask -- -arch=sm_80
//
// A variable passed to a non-const reference parameter is changed only when
// the callee writes that parameter. GpuBTree's pool allocator takes a node's
// index as `AddressT &` in `getAddressPtr` and only reads it; called under a
// lane-dependent branch, it used to make the caller's index per-lane, and
// every broadcast-driven branch after it divergent. A callee that does write
// the parameter under its own lane condition still makes it per-lane.
// Silence is asserted by default.

#include <cstdint>

#define FULL 0xffffffffu

struct Pool {
  uint32_t *nodes;
  template <typename AddressT = uint32_t> __device__ uint32_t *at(AddressT &index) {
    return nodes + index * 32;
  }
};

// Writes the lane's own id into the slot it is given.
__device__ void laneInto(uint32_t &slot) { slot = threadIdx.x % 32; }

// ------------------------------------------------------- must stay silent

__global__ void readOnlyReferenceUnderLaneBranch(Pool pool, const uint32_t *roots, uint32_t *out) {
  uint32_t node = 0;
  if (threadIdx.x % 32 == 0)
    node = roots[blockIdx.x];
  node = __shfl_sync(FULL, node, 0);
  if (threadIdx.x % 32 < 16)
    pool.at(node)[threadIdx.x % 32] = 1; // reads node, never writes it
  if (node != 0)
    out[threadIdx.x] = __shfl_sync(FULL, pool.at(node)[threadIdx.x % 32], 3);
  out[blockDim.x + threadIdx.x] = node;
}

// ---------------------------------------------------------- must flag

__global__ void writtenReferenceUnderLaneBranch(Pool pool, const uint32_t *roots, uint32_t *out) {
  uint32_t node = __shfl_sync(FULL, roots[threadIdx.x], 0);
  if (threadIdx.x % 32 < 16)
    laneInto(node); // the lanes below 16 now hold their own ids
  if (node != 0)
    out[threadIdx.x] = __shfl_sync(FULL, pool.at(node)[threadIdx.x % 32], 3);
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: __shfl_sync with a full mask is reached by only some of the lanes it names{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition differs between the lanes of a warp, so only some lanes take the path to the collective
  out[blockDim.x + threadIdx.x] = node;
}
