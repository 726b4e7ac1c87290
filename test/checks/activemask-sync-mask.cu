// RUN: %check_warp_tidy %s warp-activemask-sync-mask
//
// warp-activemask-sync-mask: __activemask() used as the mask of a collective,
// directly or through a variable. A mask computed with __ballot_sync before
// the branch, a constant mask, or __activemask() used for anything but a mask
// stays silent.

#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void mustFlag(const int *in, int threshold, int *out, int *count) {
  const int lane = threadIdx.x & 31;
  const int v = in[threadIdx.x];
  if (v > threshold) {
    // The runtime-validation case: a tree reduction over whoever is here.
    // A lane whose partner is not in the group reads an undefined value.
    const unsigned group = __activemask();
    int sum = v;
    for (int offset = 16; offset > 0; offset /= 2)
      sum += __shfl_down_sync(group, sum, offset);
  // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: the mask of __shfl_down_sync comes from __activemask() through 'group', which only reports the lanes that happen to be converged at that instant and does not converge them{{.*}}[warp-activemask-sync-mask]
  // CHECK-MESSAGES: :[[@LINE-5]]:28: note: 'group' is set from __activemask() here
  // CHECK-MESSAGES: :[[@LINE-9]]:7: note: the lanes diverge here: this condition differs between the lanes of a warp
    if (lane == 0)
      out[3] = sum;
    // A broadcast from a lane the mask does not pick: lane 0 may be absent.
    out[lane] = __shfl_sync(group, v, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: the mask of __shfl_sync comes from __activemask() through 'group'{{.*}}[warp-activemask-sync-mask]
  // CHECK-MESSAGES: :[[@LINE-12]]:28: note: 'group' is set from __activemask() here
  // CHECK-MESSAGES: :[[@LINE-16]]:7: note: the lanes diverge here{{.*}}
    // A leader picked from another mask.
    const unsigned others = __ballot_sync(group, v > 2 * threshold);
  // CHECK-MESSAGES: :[[@LINE-1]]:43: warning: the mask of __ballot_sync comes from __activemask() through 'group'{{.*}}[warp-activemask-sync-mask]
  // CHECK-MESSAGES: :[[@LINE-17]]:28: note: 'group' is set from __activemask() here
  // CHECK-MESSAGES: :[[@LINE-21]]:7: note: the lanes diverge here{{.*}}
    out[lane] = __shfl_sync(group, v, __ffs(others) - 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: the mask of __shfl_sync comes from __activemask() through 'group'{{.*}}[warp-activemask-sync-mask]
  // CHECK-MESSAGES: :[[@LINE-21]]:28: note: 'group' is set from __activemask() here
  // CHECK-MESSAGES: :[[@LINE-25]]:7: note: the lanes diverge here{{.*}}
  }
  // After lanes branched apart, even where they meet again: nothing makes
  // them converge for __activemask().
  out[0] = __shfl_sync(__activemask(), v, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: the mask of __shfl_sync comes from __activemask(), which only reports the lanes that happen to be converged at that instant and does not converge them{{.*}}[warp-activemask-sync-mask]
  unsigned low = __activemask() & 0xffu;
  out[1] = __ballot_sync(low, v > 2);
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: the mask of __ballot_sync comes from __activemask() through 'low', which only reports the lanes that happen to be converged at that instant and does not converge them{{.*}}[warp-activemask-sync-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:18: note: 'low' is set from __activemask() here
  unsigned later = 0xffffffffu;
  if (v > 3)
    later = __activemask();
  out[2] = __any_sync(later, v > 4);
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: the mask of __any_sync comes from __activemask() through 'later', which only reports the lanes that happen to be converged at that instant and does not converge them{{.*}}[warp-activemask-sync-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:13: note: 'later' is set from __activemask() here
  __syncwarp(__activemask());
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: the mask of __syncwarp comes from __activemask(), which only reports the lanes that happen to be converged at that instant and does not converge them{{.*}}[warp-activemask-sync-mask]
}

__global__ void mustStaySilent(const int *in, int threshold, int *out, unsigned mask) {
  const int v = in[threadIdx.x];
  const unsigned group = __ballot_sync(0xffffffffu, v > threshold);
  if (v > threshold)
    out[0] = __shfl_sync(group, v, __ffs(group) - 1);
  out[1] = __popc(__activemask());          // not a mask argument
  out[2] = __shfl_sync(0xffffffffu, v, 0);
  out[3] = __shfl_sync(mask, v, 0);         // a parameter: not known to come from __activemask
  cg::coalesced_group active = cg::coalesced_threads();
  out[4] = active.shfl(v, 0);               // cooperative groups track the active set themselves
  __syncwarp();
}

// Warp-aggregated atomics written by hand, as coalesced_threads() does it:
// whichever lanes happen to be converged form a group, each of them names
// that same group, and the base is broadcast from a lane picked out of it
// (its lowest, its highest or its n-th). The shuffle is defined however the
// lanes are grouped, and so is each lane's slot.
__global__ void silentLeaderBroadcast(const int *in, int threshold, int *out, int *count) {
  const int lane = threadIdx.x & 31;
  const int v = in[threadIdx.x];
  if (v > threshold) {
    const unsigned group = __activemask();
    const int leader = __ffs(group) - 1;
    int base = 0;
    if (lane == leader)
      base = atomicAdd(count, __popc(group));
    base = __shfl_sync(group, base, leader);
    out[base + __popc(group & ((1u << lane) - 1u))] = v;
    unsigned last;
    last = 31 - __clz(group);
    out[lane] += __shfl_sync(group, v, last);
    out[lane] += __shfl_sync(group, v, __fns(group, 0, 1));
    out[lane] += __shfl_sync(group, v, __fns(group, 31, -1));
  }
}

// The second lane of the group may not exist: __fns then gives 0xffffffff.
__global__ void secondLaneOfGroup(const int *in, int threshold, int *out) {
  const int lane = threadIdx.x & 31;
  const int v = in[threadIdx.x];
  if (v > threshold) {
    const unsigned group = __activemask();
    out[lane] = __shfl_sync(group, v, __fns(group, 0, 2));
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: the mask of __shfl_sync comes from __activemask() through 'group'{{.*}}[warp-activemask-sync-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:28: note: 'group' is set from __activemask() here
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: the lanes diverge here{{.*}}
  }
}

// A peer-group helper that narrows its mask parameter as it goes
// (`unclaimed ^= group`): the argument still becomes the mask of its
// collectives. cuml's coo_spmv passed __activemask() here inside a
// thread-strided loop (fixed upstream).
__device__ unsigned peerGroup(int key, unsigned unclaimed = 0xffffffffu) {
  unsigned group = 0;
  bool isPeer;
  do {
    isPeer = key == __shfl_sync(unclaimed, key, __ffs(unclaimed) - 1);
    group = __ballot_sync(unclaimed, isPeer);
    unclaimed ^= group;
  } while (!isPeer);
  return group;
}

// Overwrites its parameter before any collective: the argument is not a mask.
__device__ unsigned resetThenVote(int key, unsigned m) {
  m = 0xffffffffu;
  return __ballot_sync(m, key > 0);
}

__global__ void helperDerivesItsMask(const int *keys, int n, unsigned *out) {
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    out[i] = peerGroup(keys[i], __activemask());
  // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: the mask of peerGroup comes from __activemask(), which only reports the lanes that happen to be converged at that instant and does not converge them{{.*}}[warp-activemask-sync-mask]
  // CHECK-MESSAGES: :[[@LINE-17]]:21: note: 'peerGroup' uses the argument as the mask of this __shfl_sync
  // CHECK-MESSAGES: :[[@LINE-4]]:29: note: the lanes diverge here: this condition differs between the lanes of a warp
  out[n] = peerGroup(keys[threadIdx.x]);             // the default full mask, converged here
  out[n + 1] = resetThenVote(keys[0], __activemask()); // overwritten inside: not a mask
}

// __activemask() where every lane of the warp has arrived and no lane has
// branched away on any path before it: the mask it reports is the whole warp,
// as 0xffffffff would be (ppl.kernel.cuda's gemv takes FULL_MASK this way).
__global__ void wholeWarpStaysSilent(const float *in, float *out) {
  const unsigned full = __activemask();
  float v = in[threadIdx.x];
  v = threadIdx.x < 8 ? v * 2.f : v;             // a select, not a branch
  v = (threadIdx.x & 1) && v > 0.f ? -v : v;      // selects too
  v += __shfl_down_sync(full, v, 16);
  v += __shfl_down_sync(full, v, 8);
  out[threadIdx.x] = v;
  if (false)
    out[0] = __shfl_sync(__activemask(), v, 0); // dead code: no lane runs it
}

// Taken by the whole warp, but the collective runs under a divergent branch:
// the mask names lanes that never arrive.
__global__ void wholeWarpMaskDivergentCall(const float *in, float *out) {
  const unsigned full = __activemask();
  float v = in[threadIdx.x];
  if (threadIdx.x % 32 < 16)
    out[threadIdx.x] = __shfl_sync(full, v, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:36: warning: the mask of __shfl_sync comes from __activemask() through 'full'{{.*}}[warp-activemask-sync-mask]
  // CHECK-MESSAGES: :[[@LINE-5]]:25: note: 'full' is set from __activemask() here
  // CHECK-MESSAGES: :[[@LINE-4]]:7: note: the lanes diverge here{{.*}}
}

// A device function's callers may call it from divergent code: the lanes its
// __activemask() reports are whichever called it together.
__device__ float broadcastFromFirst(float v) {
  return __shfl_sync(__activemask(), v, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: the mask of __shfl_sync comes from __activemask(){{.*}}[warp-activemask-sync-mask]
}
