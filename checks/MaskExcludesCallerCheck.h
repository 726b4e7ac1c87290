//===--- MaskExcludesCallerCheck.h - warp-mask-excludes-caller ------------===//
//
// Flags a constant mask that leaves out lanes which can reach the call
// (`0x0000ffff` executed by all 32 lanes): each calling lane must have its
// own bit set, so the collective is undefined for the others. Short literal
// typos of the full mask (`0xFFFFFF`, seven f's) get their own wording and a
// fix-it when the whole warp provably reaches the call. Which lanes reach a
// call comes from the uniformity analysis' lane sets (lane-id and
// threadIdx.x comparisons with constants). A mask computed from the lane
// (`lanemask_lt()`) is reported when some lane that executes the call
// provably passes a mask without its own bit (analysis/LaneMasks.h), and a
// ballot of the whole warp used as the mask of a collective every lane
// reaches (the lanes whose predicate was false are left out). A mask the same
// in every lane but computed at run time (`0xffffffff >> (32 - len)`) is
// reported where the whole warp executes the collective and some value of
// what the mask is computed from leaves a lane out (analysis/RunTimeMasks.h).
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_MASKEXCLUDESCALLERCHECK_H
#define WARP_TIDY_MASKEXCLUDESCALLERCHECK_H

#include "UniformityCheck.h"
#include "uniformity/Uniformity.h"

namespace warp_tidy {

class MaskExcludesCallerCheck : public UniformityCheck {
public:
  using UniformityCheck::UniformityCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  void checkLaneExpressionMask(const FunctionUniformity &Analysis, const CollectiveSite &Site,
                               clang::ASTContext &Ctx);
  void checkBallotMask(const FunctionUniformity &Analysis, const CollectiveSite &Site,
                       clang::ASTContext &Ctx);
  void checkRunTimeMasks(const FunctionUniformity &Analysis, clang::ASTContext &Ctx);
};

} // namespace warp_tidy

#endif
