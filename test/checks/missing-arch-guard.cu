// Lowest target sm_75: __reduce_*_sync (sm_80) missing, __match_*_sync fine.
// RUN: %check_warp_tidy %s warp-missing-arch-guard --check-prefix=LOW
// RUN: %check_warp_tidy %s warp-missing-arch-guard --check-prefix=LOW -- -arch=sm_75
// RUN: %check_warp_tidy %s warp-missing-arch-guard --check-prefix=LOW -- -arch sm_75
// RUN: %check_warp_tidy %s warp-missing-arch-guard --check-prefix=LOW -- --gpu-architecture=sm_75
// RUN: %check_warp_tidy %s warp-missing-arch-guard --check-prefix=LOW -- -gencode arch=compute_75,code=sm_75 -gencode arch=compute_90,code=sm_90
// RUN: %check_warp_tidy %s warp-missing-arch-guard --check-prefix=LOW -- --generate-code=arch=compute_75,code=[compute_75,sm_75]
// RUN: %check_warp_tidy %s warp-missing-arch-guard --check-prefix=LOW -- -arch=all
// RUN: %check_warp_tidy %s warp-missing-arch-guard --check-prefix=LOW -- -arch=all-major
// RUN: %check_warp_tidy %s warp-missing-arch-guard --check-prefix=LOW -- --cuda-gpu-arch=sm_75 --cuda-gpu-arch=sm_86
// RUN: %check_warp_tidy %s warp-missing-arch-guard --check-prefix=LOW -- --offload-arch=sm_75
// Lowest target sm_60: __match_*_sync (sm_70) missing too.
// RUN: %check_warp_tidy %s warp-missing-arch-guard --check-prefix=P60 -- -arch=sm_60
// RUN: %check_warp_tidy %s warp-missing-arch-guard --check-prefix=P60 -- -gencode=arch=compute_60,code=sm_60 -gencode=arch=compute_80,code=sm_80
// Every target provides both: only guards narrower than the targets remain.
// RUN: %check_warp_tidy %s warp-missing-arch-guard --check-prefix=HIGH -- -arch=sm_80
// RUN: %check_warp_tidy %s warp-missing-arch-guard --check-prefix=HIGH -- --gpu-architecture compute_80
// RUN: %check_warp_tidy %s warp-missing-arch-guard --check-prefix=HIGH --config='{CheckOptions: {warp-missing-arch-guard.MinimumArch: 80}}'
// RUN: %check_warp_tidy %s warp-missing-arch-guard --check-prefix=HIGH --config='{CheckOptions: {MinimumArch: sm_80}}' -- -arch=sm_75
// RUN: %check_warp_tidy %s warp-missing-arch-guard --check-prefix=H90 -- --offload-arch=sm_90
//
// warp-missing-arch-guard: sm_80 / sm_70 intrinsics compiled for an arch
// that lacks them, and guards without a fallback whose result is used after
// the guard. Every guard form is exercised both ways.

#include <nv/target>

#define FULL 0xffffffffu
#define HAS_REDUCE (__CUDA_ARCH__ >= 800)
#define ARCH_AT_LEAST(a) (defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= (a))
#define MIN_REDUCE_ARCH 800

// ---- Unguarded calls --------------------------------------------------------

__global__ void unguardedReduce(int *out, int v) {
  v = __reduce_add_sync(FULL, v);
  out[0] = v;
  // (Expectations after the next line: the fix-it's snippet shows it.)
  // LOW: :[[@LINE-3]]:7: warning: __reduce_add_sync needs sm_80 or newer but this call is compiled for sm_75 {{.*}}where it does not exist: nvcc rejects it as undefined; guard it with '#if __CUDA_ARCH__ >= 800' and an '#else' fallback for older architectures (or NV_IF_ELSE_TARGET(NV_PROVIDES_SM_80, ...)), or set the project's MinimumArch [warp-missing-arch-guard]
  // P60: :[[@LINE-4]]:7: warning: __reduce_add_sync needs sm_80 or newer but this call is compiled for sm_60 (the compile targets sm_60{{.*}} [warp-missing-arch-guard]
}

__global__ void unguardedMatch(unsigned *out, int v) {
  out[0] = __match_any_sync(FULL, v);
  // P60: :[[@LINE-1]]:12: warning: __match_any_sync needs sm_70 or newer but this call is compiled for sm_60 {{.*}}'#if __CUDA_ARCH__ >= 700'{{.*}}NV_PROVIDES_SM_70{{.*}} [warp-missing-arch-guard]
  int pred;
  out[1] = __match_all_sync(FULL, v, &pred);
  // P60: :[[@LINE-1]]:12: warning: __match_all_sync needs sm_70 {{.*}}[warp-missing-arch-guard]
}

// ---- The seed: a guard with no fallback, the value used after it ------------

__global__ void seedMissingFallback(int *out, unsigned mask) {
  int val = out[threadIdx.x];
#if __CUDA_ARCH__ >= 800
  val = __reduce_add_sync(mask, val);
#endif
  out[threadIdx.x] = val;
  // (Expectations below the guard: the warning's snippet shows the guard.)
  // LOW: :[[@LINE-5]]:2: warning: 'val' is computed with __reduce_add_sync only under '#if __CUDA_ARCH__ >= 800', which has no #else: on sm_75 the work is silently skipped and 'val' is used after the guard with its un-reduced per-lane value; add an #else that computes it without __reduce_add_sync (e.g. a __shfl_xor_sync loop) [warp-missing-arch-guard]
  // LOW: :[[@LINE-3]]:22: note: 'val' is used here, after the guard
  // P60: :[[@LINE-7]]:2: warning: 'val' is computed with __reduce_add_sync only under '#if __CUDA_ARCH__ >= 800', which has no #else: on sm_60 the work {{.*}}[warp-missing-arch-guard]
}

// A guard narrower than the targets: sm_80 skips it too.
__global__ void narrowGuardNoFallback(int *out, int v) {
#if __CUDA_ARCH__ >= 900
  v = __reduce_min_sync(FULL, v);
#endif
  out[0] = v;
  // LOW: :[[@LINE-4]]:2: warning: 'v' is computed with __reduce_min_sync only under '#if __CUDA_ARCH__ >= 900'{{.*}}[warp-missing-arch-guard]
  // P60: :[[@LINE-5]]:2: warning: 'v' is computed with __reduce_min_sync {{.*}}[warp-missing-arch-guard]
  // HIGH: :[[@LINE-6]]:2: warning: 'v' is computed with __reduce_min_sync only under '#if __CUDA_ARCH__ >= 900', which has no #else: on sm_80 the work is silently skipped{{.*}}[warp-missing-arch-guard]
}

// NV_IF_TARGET without an else arm, selecting one exact arch.
__global__ void nvExactlyNoFallback(int *out, int v) {
  NV_IF_TARGET(NV_IS_EXACTLY_SM_80, (v = __reduce_add_sync(FULL, v);))
  // LOW: :[[@LINE-1]]:3: warning: 'v' is computed with __reduce_add_sync only under 'NV_IF_TARGET(NV_IS_EXACTLY_SM_80, ...)', which has no else branch: on sm_75{{.*}}; add an else branch that computes it{{.*}}[warp-missing-arch-guard]
  // P60: :[[@LINE-2]]:3: warning: 'v' is computed with __reduce_add_sync only under 'NV_IF_TARGET(NV_IS_EXACTLY_SM_80, ...)'{{.*}}[warp-missing-arch-guard]
  // H90: :[[@LINE-3]]:3: warning: 'v' is computed with __reduce_add_sync only under 'NV_IF_TARGET(NV_IS_EXACTLY_SM_80, ...)', which has no else branch: on sm_90 {{.*}}[warp-missing-arch-guard]
  out[0] = v;
}

// ---- Guards that do not cover every target ----------------------------------

__global__ void insufficientGuards(int *out, int v) {
#if __CUDA_ARCH__ >= 700
  out[0] = __reduce_max_sync(FULL, v);
  // LOW: :[[@LINE-1]]:12: warning: __reduce_max_sync needs sm_80 or newer but this call is compiled for sm_75 {{.*}}[warp-missing-arch-guard]
  // LOW: :[[@LINE-3]]:2: note: this guard ('#if __CUDA_ARCH__ >= 700') is true for sm_75
#else
  out[0] = v;
#endif
  NV_IF_ELSE_TARGET(NV_PROVIDES_SM_75, (out[1] = __reduce_or_sync(FULL, v);), (out[1] = 0;))
  // LOW: :[[@LINE-1]]:50: warning: __reduce_or_sync needs sm_80 {{.*}}[warp-missing-arch-guard]
  // LOW: :[[@LINE-2]]:3: note: this guard ('NV_IF_ELSE_TARGET(NV_PROVIDES_SM_75, ...)') is true for sm_75
#if __CUDA_ARCH__ >= 600
  out[2] = __match_any_sync(FULL, v);
  // P60: :[[@LINE-1]]:12: warning: __match_any_sync needs sm_70 or newer but this call is compiled for sm_60 {{.*}}[warp-missing-arch-guard]
#endif
}

// ---- Must stay silent: every guard form with a fallback ---------------------

__device__ int fallbackSum(int v) { return v; }

__global__ void guardedWithFallback(int *out, int v, unsigned mask) {
#if __CUDA_ARCH__ >= 800
  out[0] = __reduce_add_sync(FULL, v);
#else
  out[0] = fallbackSum(v);
#endif

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  out[1] = __reduce_add_sync(FULL, v);
#else
  out[1] = fallbackSum(v);
#endif

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
  out[2] = __reduce_and_sync(FULL, v);
#else
  out[2] = fallbackSum(v);
#endif

#if HAS_REDUCE
  out[3] = __reduce_xor_sync(FULL, v);
#elif ARCH_AT_LEAST(700)
  out[3] = __match_any_sync(FULL, v);
#else
  out[3] = fallbackSum(v);
#endif

#if __CUDA_ARCH__ > 750
  out[4] = __reduce_min_sync(FULL, v);
#else
  out[4] = fallbackSum(v);
#endif

#ifndef __CUDA_ARCH__
  out[5] = 0;
#elif __CUDA_ARCH__ >= MIN_REDUCE_ARCH
  out[5] = __reduce_max_sync(FULL, v);
#else
  out[5] = fallbackSum(v);
#endif

#if __CUDA_ARCH__ < 800
  out[6] = fallbackSum(v);
#else
  out[6] = __reduce_add_sync(mask, v);
#endif

#ifdef __CUDA_ARCH__
#if __CUDA_ARCH__ >= 700
  out[7] = __match_any_sync(FULL, v);
#else
  out[7] = 0;
#endif
#endif

#if __CUDA_ARCH__ == 800 || __CUDA_ARCH__ >= 900
  out[8] = __reduce_add_sync(FULL, v);
#else
  out[8] = fallbackSum(v);
#endif

  NV_IF_ELSE_TARGET(NV_PROVIDES_SM_80, (out[9] = __reduce_add_sync(FULL, v);),
                    (out[9] = fallbackSum(v);))
  NV_DISPATCH_TARGET(NV_PROVIDES_SM_90, (out[10] = __reduce_add_sync(FULL, v);),
                     NV_PROVIDES_SM_80, (out[10] = __reduce_min_sync(FULL, v);),
                     NV_ANY_TARGET, (out[10] = fallbackSum(v);))
  NV_IF_TARGET(NV_PROVIDES_SM_70, (out[11] = __match_any_sync(FULL, v);))
}

// Guards without a fallback that leave nothing behind for later code.
__global__ void guardedNoValueAfter(int *out, int v) {
#if __CUDA_ARCH__ >= 800
  out[0] = __reduce_add_sync(FULL, v);  // stored, not a value used later
#endif
#if __CUDA_ARCH__ >= 800
  {
    int local = v;
    local = __reduce_add_sync(FULL, local);
    out[1] = local;
  }
#endif
  NV_IF_TARGET(NV_PROVIDES_SM_80, (out[2] = __reduce_max_sync(FULL, v);))
}
