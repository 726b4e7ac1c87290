//===--- ZeroMaskCheck.h - warp-zero-mask ---------------------------------===//
//
// Flags warp collectives whose mask folds to the constant 0. Such a call names
// no participating lane, which the CUDA Programming Guide makes undefined (each
// calling lane must have its own bit set). On an H200 `__ballot_sync(0, p)`
// returned the full-warp ballot, so the bug hides at run time. Collectives
// written as inline PTX (`bar.warp.sync 0;`) are judged the same way.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_ZEROMASKCHECK_H
#define WARP_TIDY_ZEROMASKCHECK_H

#include "WarpCheck.h"

namespace warp_tidy {

struct WarpCollective;

class ZeroMaskCheck : public WarpCheck {
public:
  using WarpCheck::WarpCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  void checkCollective(const WarpCollective &Collective,
                       const clang::ast_matchers::MatchFinder::MatchResult &Result);
};

} // namespace warp_tidy

#endif
