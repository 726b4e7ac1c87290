// Instantiates NVIDIA Warp's tile_reduce_axis_impl<1> (warp tier: a 4x48 shared tile reduced along its 48-wide axis) and tile_arg_reduce_impl (the tile_argmax path), after the module header Warp's codegen puts in front of generated kernels (WP_TILE_BLOCK_DIM, builtin.h), as wp.tile_sum(t, axis=1) and wp.tile_argmax(t) in a wp.kernel compile to.
// Warp compiles generated kernels with NVRTC (WP_NO_CRT, --device-as-default-execution-space); under clang the
// native library's setting WP_ENABLE_CUDA is used, clang's force_cuda_host_device pragma stands in for the
// default execution space, and the tile_* entry macros are called as their _impl functions.
#define WP_TILE_BLOCK_DIM 64
// The C and CUDA headers crt.h pulls in come first, outside the pragma (their host declarations must stay host).
#include <assert.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#pragma clang force_cuda_host_device begin
#include "builtin.h"
#pragma clang force_cuda_host_device end

using Shape = wp::tile_shape_t<4, 48>;
using Strides = typename wp::compute_strides<Shape>::Stride;

__global__ void warp_tidy_recall_tile_reduce(float* out, int* out_idx)
{
  auto t = wp::tile_alloc_empty<float, Shape, Strides, false>();
  auto sums = wp::tile_reduce_axis_impl<1>([](auto x, auto y) { return wp::add(x, y); }, t);
  auto am = wp::tile_arg_reduce_impl([](auto x, auto y) { return wp::max(x, y); },
                                     [](auto a, auto b, auto c, auto d) { return b > a ? d : c; }, t);
  if (threadIdx.x == 0) {
    out[0] = sums.data[0];
    out_idx[0] = am.data[0];
  }
}
