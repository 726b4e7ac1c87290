//===--- ArchGuards.h - Which target archs compile each piece of code -----===//
//
// clang parses one device pass (the lowest target arch); code under
// `#if __CUDA_ARCH__ >= 800` or in an NV_IF_TARGET(NV_PROVIDES_SM_80, ...)
// branch is simply absent from that pass. This recorder watches the
// preprocessor and builds, for every conditional branch in user code, the
// set of *target* architectures that compile it:
//   * `#if/#elif/#ifdef/#ifndef/#else/#endif` chains, their conditions
//     re-evaluated for each arch with ArchConditions (macros, defined(),
//     &&/||, comparisons); for the analysed arch the preprocessor's own
//     answer is used, so the two never disagree;
//   * NV_IF_TARGET / NV_IF_ELSE_TARGET / NV_DISPATCH_TARGET (from
//     <nv/target>), whose branches clang selects in the preprocessor too;
//   * text the analysed pass skipped is lexed raw: nested directives build
//     nested branches, and calls of arch-limited warp intrinsics found there
//     are recorded as TextualCall so checks can judge code clang never parsed.
// A location's architectures are the intersection over the branches that
// contain it. Sets are bit masks over the target list (bit i = Archs[i]);
// each comes as "definitely" and "possibly" (unknown conditions) masks.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_ANALYSIS_ARCHGUARDS_H
#define WARP_TIDY_ANALYSIS_ARCHGUARDS_H

#include "arch/ArchGuardMap.h"
#include "clang/Lex/PPCallbacks.h"
#include "llvm/ADT/StringMap.h"
#include <memory>
#include <string>
#include <vector>

namespace clang {
class Preprocessor;
} // namespace clang

namespace warp_tidy {

/// Creates the recorder. \p Map is filled as preprocessing proceeds; the
/// target list is read (TargetArchs) when the first directive is seen, so
/// command-line macros are defined by then.
std::unique_ptr<clang::PPCallbacks> makeArchGuardRecorder(clang::Preprocessor &PP,
                                                          std::shared_ptr<ArchGuardMap> Map,
                                                          unsigned MinimumArch);

} // namespace warp_tidy

#endif
