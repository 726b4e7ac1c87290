//===--- ReductionResultLaneCheck.h - warp-reduction-result-lane ----------===//
//
// Flags uses of a `__shfl_down_sync` tree reduction's result by lanes other
// than lane 0: only lane 0 holds the total, the others hold partial sums.
// The analysis is in analysis/ReductionResultLane.h.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_REDUCTIONRESULTLANECHECK_H
#define WARP_TIDY_REDUCTIONRESULTLANECHECK_H

#include "UniformityCheck.h"
#include "patterns/ReductionResultLane.h"
#include <optional>

namespace warp_tidy {

class ReductionResultLaneCheck : public UniformityCheck {
public:
  using UniformityCheck::UniformityCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void onStartOfTranslationUnit() override;

private:
  // Template instantiations revisit the same use; report each location once.
  // Which functions need no walk at all, for this unit (most device
  // functions of a real unit reach no down shuffle).
  std::optional<DownShuffleReach> Reach;
};

} // namespace warp_tidy

#endif
