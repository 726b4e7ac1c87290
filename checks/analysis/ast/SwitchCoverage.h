//===--- SwitchCoverage.h - Switches whose cases name every value ---------===//
//
// `switch (threadIdx.x & 7)` with cases 0 to 7 and no `default:` leaves no
// value for the default edge that clang's CFG still draws to the code after
// the switch. CUDAjpeg's transposes shuffle in every case: no lane takes
// the missing default, so every lane reaches a shuffle of the same mask.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_ANALYSIS_AST_SWITCHCOVERAGE_H
#define WARP_TIDY_ANALYSIS_AST_SWITCHCOVERAGE_H

namespace clang {
class ASTContext;
class SwitchStmt;
} // namespace clang

namespace warp_tidy {

/// True when \p S has no `default:` and its case values include every value
/// its condition can take, read from the condition's form: `e & M` (every
/// value whose bits lie within the constant M), `e % N` of an unsigned `e`
/// (0 to N - 1), through parentheses, casts and a local assigned once. At
/// most 256 values are enumerated; anything else is not known to be covered.
bool switchCoversEveryValue(const clang::SwitchStmt *S, const clang::ASTContext &Ctx);

} // namespace warp_tidy

#endif // WARP_TIDY_ANALYSIS_AST_SWITCHCOVERAGE_H
