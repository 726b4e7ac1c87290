//===--- LaunchedProvers.h - The warp model of the blocks that run a function ===//
//
// Warps are cut from the linear thread id with the block's real extents. The
// default model only assumes that blockDim.x is whole warps, which is wrong
// for the code that a unit launches as `dim3(16, 16)`: there a warp is two
// rows of 16, `(tx + 16 * ty) / 16 % 2` is the half-warp a lane sits in, and
// `tx + ty * 8` over 32 is the warp's index. When every launch that can run
// a function is in the unit (ReachingLaunches.h), its questions go to a
// prover restricted to those shapes (UniformityProver's LaunchedBlock), so
// that a value is uniform, or a witness lane exists, in the blocks the
// program really makes, partial last warps included.
//
// Launches of a kernel with external linkage count from what this unit shows:
// another unit that launches it with another shape is not seen.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_ANALYSIS_LAUNCHEDPROVERS_H
#define WARP_TIDY_ANALYSIS_LAUNCHEDPROVERS_H

namespace clang {
class FunctionDecl;
} // namespace clang

namespace warp_tidy {

class UniformityProver;

/// The prover for the questions of \p FD: one restricted to the block shapes
/// of every launch that can run it when the unit shows them all, else
/// \p Default (the unit's prover under the option \p AlignedBlocks, which
/// the restricted one keeps for its answers' other uses). Provers are shared
/// by the functions with the same shapes and live as long as the unit.
UniformityProver &proverFor(const clang::FunctionDecl *FD, UniformityProver &Default,
                            bool AlignedBlocks);

} // namespace warp_tidy

#endif
