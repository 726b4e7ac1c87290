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
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
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

/// The statements that make up one scan: its loop (First == Last), or a run
/// of straight-line steps in one block (`v += __shfl_down_sync(m, v, 1, 4);
/// v += __shfl_down_sync(m, v, 2, 4);`) with the statements between them,
/// which may combine several accumulators (`if (lane & 1) x = y;`).
struct ScanRegion {
  const clang::Stmt *First = nullptr;
  const clang::Stmt *Last = nullptr;
  bool Loop = false; ///< First == Last is the scan's loop
  /// The shuffles whose partnerless lanes get their own value back: the
  /// loop's step, or every accumulating shuffle of the straight-line run.
  llvm::SmallVector<const clang::CallExpr *, 8> Steps;
  /// The locals those shuffles accumulate into.
  llvm::SmallVector<const clang::VarDecl *, 4> Accumulators;

  bool isStep(const clang::CallExpr *Call) const { return llvm::is_contained(Steps, Call); }
};

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

/// Runs the scan \p Region (\p Exact the lanes a loop leaves right when it
/// cannot be run step by step) and the code after it on every thread of a
/// \p Shape block (\p KnownShape: one the unit's launches use). With
/// \p CompleteStore, that store is run by every thread (would the value be
/// right if it were?).
BlockRunResult runBlockAfterScan(clang::ASTContext &Ctx, const ScanRegion &Region, ExactLanes Exact,
                                 BlockShape Shape, bool KnownShape,
                                 const clang::BinaryOperator *CompleteStore);

} // namespace warp_tidy

#endif
