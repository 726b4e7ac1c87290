//===--- ShuffleSources.h - Shuffles that read lanes outside their mask ---===//
//
// A shuffle returns an undefined value to a lane whose source lane is not in
// the mask (the source did not take part). Which lane a shuffle reads is
// fixed by its direction, offset and width:
//   __shfl_down_sync(m, v, d, w)   lane + d, inside its width segment
//   __shfl_up_sync(m, v, d, w)     lane - d, inside its width segment
//   __shfl_xor_sync(m, v, x, w)    lane ^ x
//   __shfl_sync(m, v, s, w)        lane s of the segment (s mod w)
// (a source past the segment's edge gives the lane its own value back).
//
// This analysis answers, for one shuffle, whether a lane in the mask can read
// a lane outside it and then use the value:
//   * a constant mask: every lane of the mask (that can reach the call, per
//     the uniformity analysis) is tried against every offset the shuffle can
//     be given (a constant, or the values of a counted loop's variable);
//   * a mask from `__ballot_sync(..., cond)` with a thread-dependent cond:
//     its lanes are unknown, so a down or xor shuffle by a non-zero offset
//     can read a lane where cond is false (the usual partial-warp reduction).
// "Uses" means the result reaches an accumulation, a store, an argument or a
// return without a guard in between; a result kept in a variable that is
// only read under an `if`/`?:`/`&&` (`if (lane + off < n) v += t;`) is taken
// as guarded, whatever the guard says.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_ANALYSIS_SHUFFLESOURCES_H
#define WARP_TIDY_ANALYSIS_SHUFFLESOURCES_H

#include "intrinsics/WarpIntrinsics.h"
#include <cstdint>
#include <optional>
#include <string>

namespace clang {
class ASTContext;
class CallExpr;
class Expr;
class FunctionDecl;
class Stmt;
} // namespace clang

namespace warp_tidy {

class FunctionUniformity;

struct ShuffleSourceFinding {
  enum MaskOrigin { ConstantMask, BallotMask };
  MaskOrigin Origin = ConstantMask;
  /// The shuffle: a call, or an inline asm statement holding shfl.sync.
  const clang::Stmt *Shuffle = nullptr;
  const WarpIntrinsic *Intrinsic = nullptr;
  /// How messages name it ("__shfl_down_sync", "inline PTX 'shfl.sync.down.b32'").
  std::string Name;
  /// ConstantMask: the mask, and one lane of it that reads a lane outside.
  uint32_t Mask = 0;
  unsigned ReaderLane = 0;
  unsigned SourceLane = 0;
  /// BallotMask: the `__ballot_sync` that computed the mask, and its
  /// condition.
  const clang::CallExpr *Ballot = nullptr;
  const clang::Expr *BallotCondition = nullptr;
  /// The offset (delta, xor lane mask or source lane) that leads outside.
  int64_t Offset = 0;
  unsigned Width = 32;
  /// Where the value is used without a guard.
  const clang::Expr *Use = nullptr;
  /// Set when the shuffle is in a helper that takes the mask as a parameter:
  /// the helper, and the call that passes the mask.
  const clang::FunctionDecl *Helper = nullptr;
  const clang::CallExpr *HelperCall = nullptr;
};

/// Analyses one `__shfl*_sync` call or inline asm `shfl.sync` (whose width is
/// what its control operand encodes, and whose value is used through its
/// destination variable). \p Analysis is the uniformity analysis of
/// the function containing it (null when unavailable: then a ballot-derived
/// mask is not judged, and every lane of a constant mask counts as a reader).
std::optional<ShuffleSourceFinding> analyzeShuffleSource(const clang::Stmt *At,
                                                         clang::ASTContext &Ctx,
                                                         const FunctionUniformity *Analysis);

class WarpAnalysisCache;

/// Analyses a call of a helper whose shuffle takes its mask from a parameter
/// (`warpReduceSum(mask, v)` with `__shfl_down_sync(mask, v, offset)` inside):
/// the argument is judged where it is passed (\p CallerAnalysis), the shuffle
/// where it runs. One level deep.
std::optional<ShuffleSourceFinding>
analyzeHelperShuffleSource(const clang::CallExpr *Call, clang::ASTContext &Ctx,
                           const FunctionUniformity *CallerAnalysis, WarpAnalysisCache &Cache);

} // namespace warp_tidy

#endif
