// RUN: %check_warp_tidy %s warp-divergent-full-mask -- -arch=sm_80
//
// Strided loops whose bound carries the lane's own offset (uniformity-idioms.cu
// holds the other idioms of correct code; this one has a file of its own so
// that the prover sees its questions first, as it did on the real unit).
//
// ggml-cuda's wkv.cu: t runs from start + tid to end + tid, so every lane runs
// the same number of iterations. The offset cancels in the integers (signed
// sums cannot overflow in a correct program); left to the solver as bit-vector
// adders, the larger head size ran out of its effort bound and the loop was
// called divergent.

#define FULL 0xffffffffu

template <int head_size>
__global__ void silentStridedLoopWithLaneOffset(int B, int T, int C, int H, const float *x,
                                                float *dst) {
  const int tid = threadIdx.x;
  const int bid = blockIdx.x;
  const int batch_i = bid / H;
  const int head_i = bid % H;
  const int n_seq_tokens = T / B;
  float y = 0;
  for (int t = batch_i * n_seq_tokens * C + head_i * head_size + tid;
       t < (batch_i + 1) * n_seq_tokens * C + head_i * head_size + tid; t += C)
    y += __shfl_xor_sync(FULL, x[t], 1);
  for (int t = tid + 4; t - 4 < n_seq_tokens + tid; t += 2 * C) // written other ways round
    y += __shfl_xor_sync(FULL, y, 1);
  dst[tid] = y;
}
template __global__ void silentStridedLoopWithLaneOffset<64>(int, int, int, int, const float *,
                                                             float *);
template __global__ void silentStridedLoopWithLaneOffset<128>(int, int, int, int, const float *,
                                                              float *);

__global__ void flagStridedLoopWithLaneOnOneSide(int n, int C, const float *x, float *dst) {
  const int tid = threadIdx.x;
  float y = 0;
  for (int t = tid; t < n + 2 * tid; t += C) {
    y += __shfl_xor_sync(FULL, x[t], 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: __shfl_xor_sync with a full mask is reached by only some of the lanes it names{{.*}}[warp-divergent-full-mask]
  }
  for (unsigned t = tid; t < n + tid; t += C) { // unsigned: the sums may wrap
    y += __shfl_xor_sync(FULL, x[t], 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: __shfl_xor_sync with a full mask is reached by only some of the lanes it names{{.*}}[warp-divergent-full-mask]
  }
  dst[tid] = y;
}

// faiss's BlockSelect: the loop index is read through a tensor's
// operator[] (`in[row][i]`), whose argument 0 is the object and argument 1
// the index, passed by value. It does not write i, so i still steps in
// lockstep and the bound rounded down to whole warps keeps warps together.
struct Row {
  float *p;
  __device__ float &operator[](long i) const { return p[i]; }
};
struct Matrix {
  float *p;
  long cols;
  __device__ Row operator[](long r) const { return Row{p + r * cols}; }
  __device__ long getSize(int) const { return cols; }
};
__device__ bool anyAbove(float v) { return __any_sync(FULL, v > 0.5f); }

template <int ThreadsPerBlock>
__global__ void silentIndexThroughOperator(Matrix in, int *out) {
  long row = blockIdx.x;
  long i = threadIdx.x;
  long limit = in.getSize(1) / 32 * 32;
  int hits = 0;
  for (; i < limit; i += ThreadsPerBlock)
    hits += anyAbove(in[row][i]);
  out[threadIdx.x] = hits;
}
template __global__ void silentIndexThroughOperator<128>(Matrix, int *);

// The same loop against the unrounded size: the last warp splits.
template <int ThreadsPerBlock>
__global__ void flagIndexThroughOperatorRawBound(Matrix in, int *out) {
  long row = blockIdx.x;
  long i = threadIdx.x;
  int hits = 0;
  for (; i < in.getSize(1); i += ThreadsPerBlock)
    hits += anyAbove(in[row][i]);
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'anyAbove' is called from thread-divergent code{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:10: note: this loop condition differs between the lanes of a warp
  // CHECK-MESSAGES: :[[@LINE-24]]:44: note: the vote in 'anyAbove' that needs the lanes is here
  out[threadIdx.x] = hits;
}
template __global__ void flagIndexThroughOperatorRawBound<128>(Matrix, int *);
