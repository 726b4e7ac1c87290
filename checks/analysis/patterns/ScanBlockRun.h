//===--- ScanBlockRun.h - The code after a scan, run on every thread ------===//
//
// ScanLaneFlow's interpreter (see ScanLaneFlow.h for the question it
// answers). It runs the statements after an unguarded scan, up to the end of
// the function, on every thread of one block: each thread's copy of each
// local carries the set of lanes (of its warp) whose wrong scan values went
// into it; conditions, offsets and loop bounds are evaluated through the
// symbolic translator with that thread's indices, and what it cannot
// evaluate counts as "may be either". A statement that stores, compares or
// returns a wrong value (anything but a copy into a local) in a thread that
// may run it is a wrong use. Code it does not model gives no answer.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_ANALYSIS_SCANBLOCKRUN_H
#define WARP_TIDY_ANALYSIS_SCANBLOCKRUN_H

#include "launch/LaunchBlockShapes.h"
#include "patterns/ScanConsumers.h"
#include <cstdint>
#include <optional>

namespace clang {
class ASTContext;
class BinaryOperator;
class CallExpr;
class Stmt;
class VarDecl;
} // namespace clang

namespace warp_tidy {

struct BlockRunResult {
  /// Code the interpreter does not model: no answer.
  bool GaveUp = false;
  /// The first use of a wrong value: where, in which thread of the block,
  /// the lanes whose wrong values it held, and the last shuffle that brought
  /// one from another lane.
  struct WrongUse {
    const clang::Stmt *Use = nullptr;
    unsigned Thread = 0;
    uint32_t Lanes = 0;
    const clang::CallExpr *Via = nullptr;
  };
  std::optional<WrongUse> Wrong;
  /// The first plain store into a tracked local that some thread holding a
  /// wrong value does not run.
  const clang::BinaryOperator *PartialStore = nullptr;
};

/// Runs the code after the scan loop \p ScanLoop (step \p Shuffle,
/// accumulator \p Acc, \p Exact the lanes it leaves right when the loop
/// cannot be run) on every thread of a \p Shape block (\p KnownShape: one
/// the unit's launches use). With \p CompleteStore, that store is run by
/// every thread (would the value be right if it were?).
BlockRunResult runBlockAfterScan(clang::ASTContext &Ctx, const clang::CallExpr *Shuffle,
                                 const clang::VarDecl *Acc, const clang::Stmt *ScanLoop,
                                 ExactLanes Exact, BlockShape Shape, bool KnownShape,
                                 const clang::BinaryOperator *CompleteStore);

} // namespace warp_tidy

#endif
