//===--- LegacyIntrinsicCheck.h - warp-legacy-intrinsic -------------------===//
//
// The pre-Volta warp intrinsics without a mask (__shfl, __shfl_up,
// __shfl_down, __shfl_xor, __any, __all, __ballot) exchange data among
// whichever lanes happen to be converged. With independent thread scheduling
// (sm_70+) that is not guaranteed to be the lanes the code assumes, and nvcc
// no longer provides them for sm_70+; clang's headers still declare them, so
// a clang build accepts them silently.
//
// The fix is the `_sync` form with the mask of the lanes that reach the call.
// A full-mask fix-it is only correct where every lane of the warp provably
// reaches the call (the uniformity analysis' job); until that is wired in,
// the check gives no fix-it and the message says how to build the mask.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_LEGACYINTRINSICCHECK_H
#define WARP_TIDY_LEGACYINTRINSICCHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseSet.h"

namespace warp_tidy {

class LegacyIntrinsicCheck : public clang::tidy::ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;
  bool isLanguageVersionSupported(const clang::LangOptions &LO) const override {
    return LO.CUDA;
  }
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void onStartOfTranslationUnit() override { Reported.clear(); }

private:
  llvm::DenseSet<clang::SourceLocation> Reported;
};

} // namespace warp_tidy

#endif
