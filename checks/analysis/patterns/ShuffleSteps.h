//===--- ShuffleSteps.h - How a shuffle's offset moves between steps -*- C++ -*-===//
//
// Scans, tree reductions and butterflies are the same shuffle repeated with
// an offset that changes from step to step: growing (1, 2, 4, ... a scan),
// halving (16, 8, ... a tree reduction), or a single step. Which of these a
// shuffle belongs to, and the width of the lane segments it works in, are
// asked by the scan, reduction-result-lane and shuffle-source analyses
// alike, so they are answered once here.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_PATTERNS_SHUFFLESTEPS_H
#define WARP_TIDY_PATTERNS_SHUFFLESTEPS_H

#include "intrinsics/CollectiveCalls.h"
#include <optional>

namespace clang {
class ASTContext;
class CallExpr;
class Expr;
} // namespace clang

namespace warp_tidy {

/// How an offset changes from one scan step to the next.
enum class OffsetTrend { Unknown, Single, Growing, Halving };

/// A shuffle's operands as a scan sees them.
struct ShuffleParts {
  std::optional<CollectiveCall> Collective;
  const clang::Expr *Value = nullptr;
  /// The delta argument, or the `d` of an index shuffle's `lane - d`.
  const clang::Expr *Offset = nullptr;
  /// An index shuffle's source-lane argument.
  const clang::Expr *SourceLane = nullptr;
};

/// The operands of \p Call; no Collective when it is no shuffle (or tile
/// shuffle member) with a value and a lane or delta argument.
ShuffleParts shuffleParts(const clang::CallExpr *Call, const clang::ASTContext &Ctx);

/// The trend of \p Offset across the steps of the scan that contains
/// \p Shuffle (loop increments, `1 << i`, or a straight-line sequence of
/// shuffles with constant offsets on the same value).
OffsetTrend offsetTrend(const clang::Expr *Offset, const clang::CallExpr *Shuffle,
                        clang::ASTContext &Ctx);

/// Width of the lane segments a shuffle works in: its constant `width`
/// argument (32 when omitted) or a tile's size; 0 when not known statically.
unsigned shuffleSegmentWidth(const clang::CallExpr *Shuffle, const clang::ASTContext &Ctx);

} // namespace warp_tidy

#endif
