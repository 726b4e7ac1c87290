// RUN: %check_warp_tidy %s warp-divergent-full-mask -- -arch=sm_80
//
// Floating-point values are values too: IEEE arithmetic, comparisons and
// conversions are functions of their operands, so lanes that compute from
// equal inputs get equal results. A float read at the warp's index (Tinker9's
// `akc[wy].w != 0` per i-block), scaled and compared, is the same in every
// lane; a float read at the lane's own index is not.

struct Center {
  float x, y, z, w;
};

// ------------------------------------------------------- must stay silent

__global__ void floatFlagPerWarp(const Center *__restrict__ akc, const float *__restrict__ pos,
                                 float *out, int nak) {
  // Declared first, assigned later (as Tinker9 does): the taint sees a
  // written local, the prover its one definition.
  int ithread, warp, warps, lane;
  ithread = threadIdx.x + blockIdx.x * blockDim.x;
  warp = ithread / 32;
  warps = blockDim.x * gridDim.x / 32;
  lane = threadIdx.x & 31;
  for (int wy = warp; wy < nak; wy += warps) {
    float xi = pos[wy * 32 + lane];
    bool local = akc[wy].w != 0;
    float scale = akc[wy].x * 2.0f + static_cast<float>(nak);
    if (local && scale > 0.5f && -akc[wy].y < sqrtf(akc[wy].z))
      xi += __shfl_sync(0xffffffff, xi, 0);
    out[wy * 32 + lane] = xi;
  }
}

// --------------------------------------------------------- must flag

__global__ void floatPerLane(const float *__restrict__ pos, float *out) {
  float v = pos[blockIdx.x * blockDim.x + threadIdx.x];
  if (v * 2.0f > 1.0f)
    v = __shfl_xor_sync(0xffffffff, v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: __shfl_xor_sync with a full mask is reached by only some of the lanes it names{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition differs between the lanes of a warp{{.*}}
  out[threadIdx.x] = v;
}

// The lane's own element, converted: still one value per lane.
__global__ void convertedPerLane(const double *__restrict__ w, float *out) {
  float v = out[threadIdx.x];
  if (static_cast<int>(w[threadIdx.x]) != 0)
    v = __shfl_xor_sync(0xffffffff, v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: __shfl_xor_sync with a full mask{{.*}}[warp-divergent-full-mask]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition differs between the lanes of a warp{{.*}}
  out[threadIdx.x] = v;
}
