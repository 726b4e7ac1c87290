//===--- ReachingLaunches.h - The block shapes that can run a function ----===//
//
// Some reports depend only on the shape of the block that runs the code: a
// partials read bounded by `blockDim.x / 32` drops a warp only when
// blockDim.x is not a multiple of 32. A kernel's launches fix that shape
// (LaunchFacts::launchBlockShapes); a helper runs in the blocks of every
// kernel that reaches it through the unit's calls.
//
// This answers from what the unit shows: the launches written in it, and
// the direct calls of its own code (CallIndex). A launch in another unit (a
// kernel of external linkage, a helper compiled with -rdc) is not seen; the
// checks that rely on the answer say so in their documentation.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_ANALYSIS_REACHINGLAUNCHES_H
#define WARP_TIDY_ANALYSIS_REACHINGLAUNCHES_H

#include "launch/LaunchBlockShapes.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace clang {
class ASTContext;
class FunctionDecl;
} // namespace clang

namespace warp_tidy {

class CallIndex;

/// The block shapes of every launch in the unit that can run \p FD: a
/// kernel's own launches; for a device function, those of every kernel that
/// reaches it through direct calls (a template pattern: through any of its
/// instantiations). nullopt when some path is not known: a kernel whose
/// launches cannot be read or that has none here, a function with no caller
/// in the unit, a chain of calls deeper than a few helpers or recursive.
std::optional<llvm::SmallVector<BlockShape, 8>>
blockShapesReaching(const clang::FunctionDecl *FD, CallIndex &Calls, clang::ASTContext &Ctx);

/// Low bits of blockDim.x that are zero in every launch in the unit that can
/// run \p FD, through the same paths as blockShapesReaching; known also
/// where a launch's block is a run-time value (LaunchFacts::
/// launchBlockXZeroBits). nullopt when some path is not known.
std::optional<unsigned> blockXZeroBitsReaching(const clang::FunctionDecl *FD, CallIndex &Calls,
                                               clang::ASTContext &Ctx);

} // namespace warp_tidy

#endif
