//===--- InvalidShflWidthCheck.h - warp-invalid-shfl-width ----------------===//
//
// The `width` of a shuffle must be a power of two in [1, 32]; anything else is
// undefined (CUDA Programming Guide, warp shuffle functions). A constant
// delta / source lane / lane mask that does not fit the width is legal but
// never what was meant: `__shfl_down_sync(m, v, 32)` returns every lane its
// own value, a source lane >= width silently wraps modulo width, and an xor
// lane mask >= width reaches across segment boundaries. Inline PTX
// `shfl.sync` encodes the width in its `c` operand (segment mask in bits
// 8-12, width = 32 - segment mask): a segment mask that gives no
// power-of-two width is reported, and offsets are judged against the width.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_INVALIDSHFLWIDTHCHECK_H
#define WARP_TIDY_INVALIDSHFLWIDTHCHECK_H

#include "WarpCheck.h"

namespace warp_tidy {

struct WarpCollective;

class InvalidShflWidthCheck : public WarpCheck {
public:
  using WarpCheck::WarpCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  void checkShuffle(const WarpCollective &C,
                    const clang::ast_matchers::MatchFinder::MatchResult &Result);
  std::optional<int64_t> shuffleWidth(const WarpCollective &C, const clang::ASTContext &Ctx,
                                      const clang::SourceManager &SM);
};

} // namespace warp_tidy

#endif
