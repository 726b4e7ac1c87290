// RUN: %check_warp_tidy %s warp-inconsistent-mask
//
// warp-inconsistent-mask: a mask computed from the lane for which two lanes
// that execute the call, one named in the other's mask, pass different
// masks. Reported only with a witness (two lanes and their masks). Masks
// every lane of a group shares (a ballot taken before the branch, a
// __match_any_sync group used by its members, per-group constants chosen by
// the lane's group, aligned groups, xor partners), constants and masks the
// analysis cannot read (loaded per lane) stay silent.

#define FULL 0xffffffffu

__device__ unsigned laneId() { return threadIdx.x & 31; }
__device__ unsigned laneBit(unsigned l) { return 1u << l; }

__global__ void mustFlag(const int *in, int *out, int s) {
  const unsigned lane = threadIdx.x & 31;
  int v = in[threadIdx.x];
  // The issue's example: for s = 1, lane 0 names {0, 1}, lane 1 {1, 2}.
  __syncwarp((1u << lane) | (1u << ((lane + s) & 31)));
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: lanes {{[0-9]+}} and {{[0-9]+}} pass different masks to __syncwarp: lane {{[0-9]+}} passes 0x{{[0-9a-f]+}}, which names lane {{[0-9]+}}, and lane {{[0-9]+}} passes 0x{{[0-9a-f]+}}; a lane waits until every lane of its mask has executed the warp barrier with the same mask{{.*}}[warp-inconsistent-mask]
  // A fixed neighbour: lane 0 passes 0x00000003 and names lane 1, which
  // passes 0x00000006.
  out[0] = __shfl_sync((1u << lane) | (1u << ((lane + 1) & 31)), v, lane);
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: lanes {{[0-9]+}} and {{[0-9]+}} pass different masks to __shfl_sync{{.*}}[warp-inconsistent-mask]
  // Groups of 8 starting every 4 lanes overlap: lanes 0 and 4 name each
  // other with 0x000000ff and 0x00000ff0.
  const unsigned overlapping = 0xffu << (lane & ~3u);
  out[1] = __shfl_xor_sync(overlapping, v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: lanes {{[0-9]+}} and {{[0-9]+}} pass different masks to __shfl_xor_sync{{.*}}[warp-inconsistent-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:32: note: the mask is computed from the lane here
  // Through helpers.
  out[2] = __any_sync(laneBit(laneId()) | laneBit((laneId() + 2) & 31), v);
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: lanes {{[0-9]+}} and {{[0-9]+}} pass different masks to __any_sync{{.*}}[warp-inconsistent-mask]
}

__global__ void exactWitness(int *out) {
  const unsigned lane = threadIdx.x & 31;
  // Only lanes 0 and 1 execute: lane 0 names lane 1 with 0x3, lane 1 passes 0x2.
  if (lane < 2)
    out[0] = __ballot_sync(lane == 0 ? 0x3u : 0x2u, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: lanes 0 and 1 pass different masks to __ballot_sync: lane 0 passes 0x00000003, which names lane 1, and lane 1 passes 0x00000002{{.*}}[warp-inconsistent-mask]
}

__global__ void mustStaySilent(const int *in, const unsigned *masks, int *out, unsigned m,
                               int key) {
  const unsigned lane = threadIdx.x & 31;
  int v = in[threadIdx.x];
  // A ballot taken by the whole warp before the branch: every lane holds
  // the same mask.
  const unsigned active = __ballot_sync(FULL, v > 0);
  if (v > 0)
    out[0] = __shfl_sync(active, v, __ffs(active) - 1);
  // __match_any_sync groups, each used by the lanes of the group.
  const unsigned group = __match_any_sync(FULL, key + v % 4);
  out[1] = __shfl_sync(group, v, __ffs(group) - 1);
  // Per-half constants chosen by the lane's half.
  out[2] = __shfl_xor_sync(lane < 16 ? 0x0000ffffu : 0xffff0000u, v, 1);
  // Aligned groups of 8, and xor partners.
  out[3] = __shfl_xor_sync(0xffu << (lane & ~7u), v, 4);
  out[4] = __shfl_xor_sync((1u << lane) | (1u << (lane ^ 1)), v, 1);
  // Constants and uniform values.
  out[5] = __shfl_sync(FULL, v, 0);
  out[6] = __shfl_sync(m, v, 0);
  // Masks the analysis cannot read: loaded per lane.
  out[7] = __shfl_sync(masks[lane], v, 0);
  // Every lane names only itself.
  __syncwarp(1u << lane);
  // Lanes without their own bit are warp-mask-excludes-caller's finding.
  out[8] = __ballot_sync((1u << lane) - 1, v > 0);
}

template <unsigned Group>
__global__ void groupTemplate(const int *in, int *out) {
  const unsigned lane = threadIdx.x & 31;
  const unsigned mask = ((1u << Group) - 1) << (lane / Group * Group);
  out[threadIdx.x] = __shfl_xor_sync(mask, in[threadIdx.x], 1);
}
template __global__ void groupTemplate<4>(const int *, int *);
template __global__ void groupTemplate<16>(const int *, int *);
