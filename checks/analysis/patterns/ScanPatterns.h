//===--- ScanPatterns.h - Unguarded warp-shuffle scans --------------------===//
//
// A Hillis-Steele warp scan combines each lane's value with the value `d`
// lanes away, for growing `d`. The shuffles do not tell a lane that its
// partner does not exist:
//   * `__shfl_up_sync(m, v, d)` gives lanes below `d` their *own* value back;
//   * `__shfl_sync(m, v, lane - d)` reads lane `(lane - d) mod width`, i.e.
//     wraps around to the top of the warp;
//   * `__shfl_down_sync(m, v, d)` gives lanes at or above `width - d` their
//     own value back (matters for suffix scans, whose offsets grow).
// So the combine must be guarded (`if (lane >= d) v += t;`, `?:` choosing the
// identity, multiplication by the predicate, or overwriting the out-of-range
// lanes) unless it is idempotent (max/min/and/or), in which case combining a
// lane with itself is harmless.
//
// This analysis follows a shuffle's result (directly or through a local
// variable) to the accumulation into the shuffled variable and decides
// whether that accumulation is guarded. A shuffle whose value reaches no
// such accumulation is not a scan and is never reported. An unguarded scan
// whose wrong lanes no use reads is not reported either: ScanConsumers
// judges the simple uses, ScanLaneFlow runs the rest on the block shapes the
// kernel can have.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_ANALYSIS_SCANPATTERNS_H
#define WARP_TIDY_ANALYSIS_SCANPATTERNS_H

#include "intrinsics/WarpIntrinsics.h"
#include "patterns/ScanLaneFlow.h"

namespace clang {
class ASTContext;
class CallExpr;
class Expr;
class Stmt;
class VarDecl;
} // namespace clang

namespace warp_tidy {

enum class ScanDefect {
  UpOwnValue,   ///< __shfl_up_sync: lanes below d add their own value again.
  IndexWraps,   ///< __shfl_sync(lane - d): lanes below d read the top lanes.
  DownOwnValue, ///< __shfl_down_sync suffix scan: top lanes add their own value.
  /// A reduction whose result lane is right, but whose other lanes' values
  /// survive a store that overwrites only some lanes and are then added
  /// into a lane that is used (ScanLaneFlow.h). Flow says where.
  StaleLanes,
};

struct ScanFinding {
  ScanDefect Defect;
  const clang::CallExpr *Shuffle = nullptr;
  const WarpIntrinsic *Intrinsic = nullptr;
  /// The unguarded accumulation (`v += t`, `v = v + t`).
  const clang::Expr *Combine = nullptr;
  /// The accumulator (`v`), as written in the shuffle's value argument.
  const clang::Expr *Accumulator = nullptr;
  /// The offset `d` (delta argument, or the `d` of `lane - d`).
  const clang::Expr *Offset = nullptr;
  /// IndexWraps: the source-lane argument (`lane - d`).
  const clang::Expr *SourceLane = nullptr;
  /// Width of the lane segments: 32 unless a constant width/tile size says
  /// otherwise; 0 when unknown.
  unsigned Width = 32;

  /// Fix-it material; FixStatement is null when no fix-it is provably right:
  /// the statement `v += t;` / `v = v + t;` (directly in a block, `t` a named
  /// variable, no macros) and a write-once lane-id variable in scope.
  const clang::Stmt *FixStatement = nullptr;
  const clang::VarDecl *LaneVar = nullptr;

  /// StaleLanes: the execution that shows it.
  LaneFlowVerdict Flow;
};

/// Analyses one shuffle call; a finding only when its result is accumulated
/// without the guard its direction needs.
std::optional<ScanFinding> analyzeScanShuffle(const clang::CallExpr *Call, clang::ASTContext &Ctx);

} // namespace warp_tidy

#endif
