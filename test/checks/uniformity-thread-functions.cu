// RUN: %check_warp_tidy %s warp-divergent-full-mask -- -arch=sm_80
//
// Conditions computed from threadIdx.x in ways the comparison forms do not
// spell: the thread index in braces (`const unsigned tidx{threadIdx.x}`), a
// scaled index (`tidx * QK_VEC_SIZE < Dh_MAX`), a position returned in a
// struct by a helper with const locals (TensorRT-LLM's attention kernel:
// `k_idx = chunk_index<...>(tidx)`, then `for (ti = k_idx.x; ...)`). Which
// lanes of each warp take such a branch is an integer question: a condition
// of threadIdx.x alone is evaluated for every thread a block can have, and
// the helper's struct field is read through its initialiser. Next to each
// correct form, a broken one that must be reported.

#include <cstdint>
#define FULL 0xffffffffu

inline __device__ constexpr uint32_t shfl_mask(int threads) {
  return threads == 32 ? -1u : (1u << threads) - 1u;
}

__device__ float warpSum(float v) {
  for (int m = 16; m >= 1; m /= 2) v += __shfl_xor_sync(FULL, v, m);
  return v;
}

// --- a vector of QK_VEC_SIZE elements per lane, Dh_MAX elements in all -----
template <unsigned QK_VEC_SIZE, unsigned Dh_MAX>
__global__ void qkDot(const float *in, float *out) {
  constexpr unsigned QK_VECS{Dh_MAX / QK_VEC_SIZE};
  const unsigned tidx{threadIdx.x};
  const auto qk_vec_idx = tidx * QK_VEC_SIZE;
  float qk = in[tidx];
  // Silent: the lanes that pass are exactly those the mask names (all 32 of
  // warp 0 for 64 / 2, lanes 0-15 of warp 0 for 32 / 2, none of the others).
  if (qk_vec_idx < Dh_MAX)
    for (int mask = QK_VECS / 2; mask >= 1; mask /= 2)
      qk += __shfl_xor_sync(shfl_mask(QK_VECS), qk, mask);
  out[tidx] = qk;
}
template __global__ void qkDot<2, 64>(const float *, float *);
template __global__ void qkDot<2, 32>(const float *, float *);

// A full mask where only half the lanes pass: reported.
__global__ void halfWarpFullMask(const float *in, float *out) {
  const unsigned tidx{threadIdx.x};
  float qk = in[tidx];
  if (tidx * 2 < 32)
    qk += __shfl_xor_sync(FULL, qk, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: __shfl_xor_sync with a full mask is reached by only some of the lanes it names{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition differs between the lanes of a warp
  out[tidx] = qk;
}

// Every eighth lane: reported.
__global__ void strideEight(const float *in, float *out) {
  const unsigned tidx{threadIdx.x};
  float qk = in[tidx];
  if ((tidx & 7) == 0 && tidx < 64)
    qk = warpSum(qk);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'warpSum' is called from thread-divergent code{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this operand of '&&' differs between the lanes of a warp
  // CHECK-MESSAGES: :21:41: note: the shuffle in 'warpSum' that needs the lanes is here
  out[tidx] = qk;
}

// Whole warps by a scaled index: `tidx * 4 < 256` keeps warps 0 and 1.
__global__ void scaledWholeWarps(const float *in, float *out) {
  const unsigned tidx{threadIdx.x};
  float qk = in[tidx];
  if (tidx * 4 < 256)
    qk = warpSum(qk);
  out[tidx] = qk;
}

// --- the key position returned in a struct by a helper ---------------------
template <unsigned VECS_PER_CHUNK>
__device__ inline constexpr uint2 chunkIndex(unsigned tidx) {
  auto const chunk = tidx / VECS_PER_CHUNK;
  unsigned constexpr kVecSize{4};
  auto const vec = (tidx % VECS_PER_CHUNK) * kVecSize;
  return uint2{chunk, vec};
}
__host__ __device__ inline unsigned divUp(unsigned a, unsigned b) { return (a + b - 1) / b; }

// Silent: each warp's keys start at a multiple of K_PER_WARP and the bound is
// rounded up to one, so a warp's lanes leave the loop together.
template <unsigned THREADS_PER_BLOCK, unsigned THREADS_PER_KEY>
__global__ void keysRoundedBound(const float *k, float *out, int len) {
  const unsigned tidx{threadIdx.x};
  const auto k_idx = chunkIndex<THREADS_PER_KEY>(tidx);
  constexpr unsigned K_PER_ITER{THREADS_PER_BLOCK / THREADS_PER_KEY};
  constexpr unsigned K_PER_WARP{32 / THREADS_PER_KEY};
  const auto ti_end = divUp(static_cast<unsigned>(len), K_PER_WARP) * K_PER_WARP;
  float acc = 0.f;
  for (int ti = k_idx.x; ti < ti_end; ti += K_PER_ITER)
    acc += warpSum(k[ti]);
  out[tidx] = acc;
}
template __global__ void keysRoundedBound<256, 1>(const float *, float *, int);

// The same loop against the raw length: the last warp's lanes split.
template <unsigned THREADS_PER_BLOCK, unsigned THREADS_PER_KEY>
__global__ void keysRawBound(const float *k, float *out, int len) {
  const unsigned tidx{threadIdx.x};
  const auto k_idx = chunkIndex<THREADS_PER_KEY>(tidx);
  float acc = 0.f;
  for (int ti = k_idx.x; ti < len; ti += THREADS_PER_BLOCK / THREADS_PER_KEY)
    acc += warpSum(k[ti]);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'warpSum' is called from thread-divergent code{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:26: note: this loop condition differs between the lanes of a warp
  // CHECK-MESSAGES: :21:41: note: the shuffle in 'warpSum' that needs the lanes is here
  out[tidx] = acc;
}
template __global__ void keysRawBound<256, 1>(const float *, float *, int);

// A braced local aggregate, read field by field: warp index and lane.
__global__ void bracedPosition(const float *in, float *out, int n) {
  const uint2 pos{threadIdx.x / 32, threadIdx.x % 32};
  float v = in[threadIdx.x];
  if (pos.x < 2) // warps 0 and 1: silent
    v = warpSum(v);
  if (pos.y < 8) // lanes 0-7 of every warp: reported
    v = warpSum(v);
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: 'warpSum' is called from thread-divergent code{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition differs between the lanes of a warp
  // CHECK-MESSAGES: :21:41: note: the shuffle in 'warpSum' that needs the lanes is here
  out[threadIdx.x] = v;
}
