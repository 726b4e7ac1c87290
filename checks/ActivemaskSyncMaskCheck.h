//===--- ActivemaskSyncMaskCheck.h - warp-activemask-sync-mask ------------===//
//
// Flags a collective whose mask comes from __activemask(), directly or
// through a variable. __activemask() only reports which lanes happen to be
// converged at that instant; it does not make them converge, and lanes that
// are about to arrive are missing from it. The Programming Guide calls such
// a mask invalid; the idiom is __ballot_sync(0xffffffff, cond) computed by
// the whole warp before the branch.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_ACTIVEMASKSYNCMASKCHECK_H
#define WARP_TIDY_ACTIVEMASKSYNCMASKCHECK_H

#include "UniformityCheck.h"
#include "llvm/ADT/DenseSet.h"

namespace warp_tidy {

class ActivemaskSyncMaskCheck : public UniformityCheck {
public:
  using UniformityCheck::UniformityCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void onStartOfTranslationUnit() override { Reported.clear(); }

private:
  void checkCall(const clang::CallExpr *Call, const clang::FunctionDecl *FD,
                 const clang::ast_matchers::MatchFinder::MatchResult &Result);
  llvm::DenseSet<clang::SourceLocation> Reported;
};

} // namespace warp_tidy

#endif
