//===--- NonIntegerReduceCheck.h - warp-non-integer-reduce ----------------===//
//
// `__reduce_{add,min,max}_sync` take `unsigned`/`int`, `__reduce_{and,or,xor}
// _sync` take `unsigned`. nvcc rejects a float argument as ambiguous, but
// clang's CUDA headers declare one overload for add/and/or/xor, so a float or
// 64-bit value converts silently and the warp sums truncated values (measured:
// 132 summed as 120). Also reported: a float cast to an integer right at the
// call when the result is turned back into a floating-point value: that is a
// float reduction whose fractions are silently dropped (the way a user makes
// the nvcc error go away); a deliberate fixed-point scale such as
// `(int)(v * 1024)` is not a plain cast of the value and stays silent.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_NONINTEGERREDUCECHECK_H
#define WARP_TIDY_NONINTEGERREDUCECHECK_H

#include "WarpCheck.h"

namespace warp_tidy {

class NonIntegerReduceCheck : public WarpCheck {
public:
  using WarpCheck::WarpCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;

private:
};

} // namespace warp_tidy

#endif
