//===--- RunTimeMasks.h - Masks computed from the values a function receives ===//
//
// `__shfl_down_sync(0xffffffff >> (32 - len), v, o)`: the mask is the same in
// every lane, but only known at run time. The PTX rule still decides it: each
// executing lane must be named in the mask. When every lane of the warp
// executes the collective and the mask, for some value of `len` that keeps
// its shifts defined, leaves a lane out, that lane executes a collective
// whose mask lacks its own bit (LightGBM's ShuffleReduceSumWarp, called by the
// whole warp with `len` the number of warps: undefined whenever the block has
// fewer than 32 warps). Writing a mask that can be partial says that the
// author expects it to be partial; nothing then keeps the other lanes away.
//
// Where the value comes from matters, so it is judged where it is known:
//   - in a kernel, over its parameters (what the unit's launches guarantee
//     about them, LaunchFacts, and otherwise any value);
//   - in a helper, at each call where the whole warp calls it: the helper's
//     parameters are replaced by the caller's arguments (a caller passing 32
//     makes the mask full; one guarding the call with `lane < len` is not
//     reached by every lane), and what the caller itself receives is taken
//     as any value.
// Only masks whose arithmetic is visible are judged: every leaf of the term
// must be such a parameter, or the block's shape when blocks are whole warps
// (AssumeWarpAlignedBlocks: `(blockDim.x + 31) / 32` warps, every lane of each
// present). A value loaded from memory, an opaque call, a field, or the
// block's shape without that assumption (lanes past a `blockDim.x` of 16 do
// not exist) makes the mask something else, and nothing is said about it.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_ANALYSIS_RUNTIMEMASKS_H
#define WARP_TIDY_ANALYSIS_RUNTIMEMASKS_H

#include "uniformity/LaneMasks.h"

namespace warp_tidy {

class FunctionUniformity;
struct CollectiveSite;
struct FunctionSummary;

/// A collective whose run-time mask can leave out a lane that executes it.
struct RunTimeMaskFinding {
  const CollectiveSite *Site = nullptr; ///< the collective (in Kernel or Helper)
  /// The call of the helper that holds Site, reached by the whole warp;
  /// null when Site is in a kernel.
  const CollectiveSite *Call = nullptr;
  unsigned Lane = 0;     ///< a lane left out...
  uint32_t Mask = 0;     ///< ...by this value of the mask
  bool Constant = false; ///< the call's arguments make the mask this constant
};

/// Collectives of \p Kernel (a __global__ function) itself whose mask is
/// computed from its parameters and can leave out a lane that executes it.
/// \p AlignedBlocks: blocks are whole warps (UniformityOptions), so masks
/// computed from the block's shape are judged too.
llvm::SmallVector<RunTimeMaskFinding, 1> runTimeMasksOfKernel(const FunctionUniformity &Kernel,
                                                              TermBuilder &Terms,
                                                              UniformityProver &Prover,
                                                              bool AlignedBlocks);

/// Whether \p Call (a site of some function) calls a helper, with the whole
/// warp, that computes a collective's mask from its parameters (its summary's
/// MaskSources): only then is the helper's full analysis worth fetching for
/// runTimeMasksAtCall (it may have been evicted from the cache).
bool callMayPassRunTimeMask(const CollectiveSite &Call, const FunctionSummary *HelperSummary);

/// Collectives of \p Helper, called by the whole warp at \p Call (a site of
/// \p Caller), whose mask, computed from the helper's parameters, can leave
/// out a lane with the arguments of that call.
llvm::SmallVector<RunTimeMaskFinding, 1>
runTimeMasksAtCall(const FunctionUniformity &Caller, const CollectiveSite &Call,
                   const FunctionUniformity &Helper, TermBuilder &Terms, UniformityProver &Prover,
                   bool AlignedBlocks);

} // namespace warp_tidy

#endif
