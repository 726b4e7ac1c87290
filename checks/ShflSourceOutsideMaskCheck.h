//===--- ShflSourceOutsideMaskCheck.h - warp-shfl-source-outside-mask -----===//
//
// A shuffle whose source lane can be a lane outside its mask, while the
// reading lane uses the value: the source did not take part, so the value is
// undefined. Two shapes (analysis/ShuffleSources.h):
//   * a constant mask with offsets that leave it
//     (`__shfl_down_sync(0x0000ffff, v, 8)` makes lanes 8-15 read 16-23);
//   * a mask from `__ballot_sync(full, cond)` followed by a down/xor
//     reduction: when fewer than 32 lanes take part, the top ones read lanes
//     where cond was false.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_SHFLSOURCEOUTSIDEMASKCHECK_H
#define WARP_TIDY_SHFLSOURCEOUTSIDEMASKCHECK_H

#include "UniformityCheck.h"
#include "patterns/ShuffleSources.h"
#include "uniformity/Uniformity.h"

namespace warp_tidy {

class ShflSourceOutsideMaskCheck : public UniformityCheck {
public:
  using UniformityCheck::UniformityCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  void reportHelper(const ShuffleSourceFinding &F, clang::SourceLocation Loc,
                    clang::ASTContext &Ctx);
};

} // namespace warp_tidy

#endif
