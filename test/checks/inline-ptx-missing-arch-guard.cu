// Lowest target sm_75: redux.sync (sm_80) is missing, match.sync (sm_70) fine.
// RUN: %check_warp_tidy %s warp-missing-arch-guard --check-prefix=LOW -- -arch=sm_75
// Lowest target sm_60: match.sync is missing too.
// RUN: %check_warp_tidy %s warp-missing-arch-guard --check-prefix=P60 -- -arch=sm_60
// Every target has both.
// RUN: %check_warp_tidy %s warp-missing-arch-guard --check-prefix=HIGH -- -arch=sm_80
//
// warp-missing-arch-guard on inline PTX: the PTX ISA gives redux.sync sm_80
// and match.sync sm_70; shfl.sync, vote.sync, bar.warp.sync and activemask
// exist on every target CUDA 13 supports. An unguarded instruction compiled
// for an older target is flagged (ptxas rejects it there); one under a guard
// that only newer targets take is silent, and a guard with no #else whose
// result is used after it is flagged as for the intrinsics.


__global__ void unguardedRedux(unsigned *out, unsigned v) {
  unsigned r;
  asm volatile("redux.sync.add.u32 %0, %1, 0xffffffff;" : "=r"(r) : "r"(v));
  // LOW: :[[@LINE-1]]:3: warning: inline PTX 'redux.sync.add.u32' needs sm_80 or newer but this instruction is compiled for sm_75 (the compile targets sm_75), where it does not exist: ptxas rejects it; guard it with '#if __CUDA_ARCH__ >= 800' and an '#else' fallback{{.*}} [warp-missing-arch-guard]
  // P60: :[[@LINE-2]]:3: warning: inline PTX 'redux.sync.add.u32' needs sm_80 or newer but this instruction is compiled for sm_60 {{.*}} [warp-missing-arch-guard]
  out[0] = r;
}

__global__ void unguardedMatch(unsigned *out, unsigned v) {
  unsigned r;
  asm volatile("match.any.sync.b32 %0, %1, 0xffffffff;" : "=r"(r) : "r"(v));
  // P60: :[[@LINE-1]]:3: warning: inline PTX 'match.any.sync.b32' needs sm_70 or newer but this instruction is compiled for sm_60 {{.*}} [warp-missing-arch-guard]
  out[0] = r;
}

__global__ void guardedRedux(unsigned *out, unsigned v) {
  unsigned r = v;
#if __CUDA_ARCH__ >= 800
  asm volatile("redux.sync.add.u32 %0, %1, 0xffffffff;" : "=r"(r) : "r"(v));
#else
  for (int offset = 16; offset > 0; offset /= 2)
    r += __shfl_xor_sync(0xffffffff, r, offset);
#endif
  out[0] = r;
}

__global__ void guardedMatch(unsigned *out, unsigned v) {
  unsigned r = 0;
#if __CUDA_ARCH__ >= 700
  asm volatile("match.any.sync.b32 %0, %1, 0xffffffff;" : "=r"(r) : "r"(v));
#endif
  out[0] = r;
  // P60: :[[@LINE-4]]:2: warning: 'r' is computed with inline PTX 'match.any.sync.b32' only under '#if __CUDA_ARCH__ >= 700', which has no #else: on sm_60 the work is silently skipped{{.*}} [warp-missing-arch-guard]
  // P60: :[[@LINE-2]]:12: note: 'r' is used here, after the guard
}

__global__ void guardWithoutFallback(unsigned *out, unsigned v) {
  unsigned r = v;
#if __CUDA_ARCH__ >= 800
  asm volatile("redux.sync.max.u32 %0, %1, 0xffffffff;" : "=r"(r) : "r"(v));
#endif
  out[0] = r;
  // LOW: :[[@LINE-4]]:2: warning: 'r' is computed with inline PTX 'redux.sync.max.u32' only under '#if __CUDA_ARCH__ >= 800', which has no #else: on sm_75 the work is silently skipped and 'r' is used after the guard with its un-reduced per-lane value{{.*}} [warp-missing-arch-guard]
  // LOW: :[[@LINE-2]]:12: note: 'r' is used here, after the guard
  // P60: :[[@LINE-6]]:2: warning: 'r' is computed with inline PTX 'redux.sync.max.u32' only under {{.*}} [warp-missing-arch-guard]
  // P60: :[[@LINE-4]]:12: note: 'r' is used here, after the guard
}

// A guard narrower than every target: sm_80 skips it too.
__global__ void hopperOnly(unsigned *out, unsigned v) {
  unsigned r = v;
#if __CUDA_ARCH__ >= 900
  asm volatile("redux.sync.min.u32 %0, %1, 0xffffffff;" : "=r"(r) : "r"(v));
#endif
  out[0] = r;
  // HIGH: :[[@LINE-4]]:2: warning: 'r' is computed with inline PTX 'redux.sync.min.u32' only under '#if __CUDA_ARCH__ >= 900', which has no #else: on sm_80 the work is silently skipped{{.*}} [warp-missing-arch-guard]
  // HIGH: :[[@LINE-2]]:12: note: 'r' is used here, after the guard
  // LOW: :[[@LINE-6]]:2: warning: 'r' is computed with inline PTX 'redux.sync.min.u32' only under {{.*}} [warp-missing-arch-guard]
  // LOW: :[[@LINE-4]]:12: note: 'r' is used here, after the guard
  // P60: :[[@LINE-8]]:2: warning: 'r' is computed with inline PTX 'redux.sync.min.u32' only under {{.*}} [warp-missing-arch-guard]
  // P60: :[[@LINE-6]]:12: note: 'r' is used here, after the guard
}

__global__ void everyTargetHasThese(unsigned *out, unsigned v, int p) {
  unsigned r;
  asm volatile("shfl.sync.bfly.b32 %0, %1, 16, 0x1f, 0xffffffff;" : "=r"(r) : "r"(v));
  out[0] = r;
  asm volatile("vote.sync.ballot.b32 %0, 1, 0xffffffff;" : "=r"(r));
  out[1] = r;
  asm volatile("activemask.b32 %0;" : "=r"(r));
  out[2] = r;
  asm volatile("bar.warp.sync 0xffffffff;");
}
