//===--- InconsistentMaskCheck.h - warp-inconsistent-mask -----------------===//
//
// Flags a mask computed from the lane for which two lanes that execute the
// collective, one named in the other's mask, pass different masks
// (`__syncwarp((1u << lane) | (1u << ((lane + s) & 31)))`): PTX makes every
// thread wait until all non-exited threads of its membermask have executed
// the instruction with the same membermask, so such lanes never agree. Only
// what the analysis proves for some lane pair is reported, with that pair as
// the witness; the analysis is in analysis/LaneMasks.h.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_INCONSISTENTMASKCHECK_H
#define WARP_TIDY_INCONSISTENTMASKCHECK_H

#include "UniformityCheck.h"

namespace warp_tidy {

class InconsistentMaskCheck : public UniformityCheck {
public:
  using UniformityCheck::UniformityCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;

private:
};

} // namespace warp_tidy

#endif
