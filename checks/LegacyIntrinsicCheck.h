//===--- LegacyIntrinsicCheck.h - warp-legacy-intrinsic -------------------===//
//
// The pre-Volta warp intrinsics without a mask (__shfl, __shfl_up,
// __shfl_down, __shfl_xor, __any, __all, __ballot) exchange data among
// whichever lanes happen to be converged. With independent thread scheduling
// (sm_70+) that is not guaranteed to be the lanes the code assumes, and nvcc
// no longer provides them for sm_70+; clang's headers still declare them, so
// a clang front end accepts them silently.
//
// The fix is the `_sync` form with the mask of the lanes that reach the call.
// The check offers `0xffffffff` as a fix-it only where the uniformity
// analysis proves that every lane of the warp reaches the call: in a kernel
// (its callers are the launch, which starts whole warps), with no
// thread-dependent branch or early exit above it, in every instantiation of a
// template. Elsewhere the message says how to build the mask.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_LEGACYINTRINSICCHECK_H
#define WARP_TIDY_LEGACYINTRINSICCHECK_H

#include "UniformityCheck.h"
#include "uniformity/Uniformity.h"
#include "llvm/ADT/MapVector.h"
#include <vector>

namespace warp_tidy {

class LegacyIntrinsicCheck : public UniformityCheck {
public:
  using UniformityCheck::UniformityCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void onStartOfTranslationUnit() override {
    WarpCheck::onStartOfTranslationUnit();
    Sites.clear();
  }
  void onEndOfTranslationUnit() override;

private:
  /// One source location: a template's call is matched once in the pattern
  /// and once per instantiation, and is reported once, after all of them.
  struct LegacySite {
    const WarpIntrinsic *Intrinsic = nullptr;
    clang::SourceRange Range;
    /// The rewrite to the `_sync` form with a full mask; empty when the call
    /// cannot be rewritten in place (written inside a macro).
    std::vector<clang::FixItHint> FullMaskRewrite;
    unsigned AnalysedContexts = 0;  ///< non-dependent bodies the call is in
    unsigned WholeWarpContexts = 0; ///< ... of which every lane reaches it
  };

  llvm::MapVector<clang::SourceLocation, LegacySite> Sites;
};

} // namespace warp_tidy

#endif
