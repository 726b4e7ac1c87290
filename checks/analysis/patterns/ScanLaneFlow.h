//===--- ScanLaneFlow.h - Which lanes' wrong scan values reach a use -------===//
//
// An unguarded growing-offset scan leaves the exact result in one lane of
// each segment only (lane 0 after `v += shfl_down(v, i)`, i = 1, 2, 4, ...).
// Block reductions build on that and go on with the other lanes' values in
// the same variable:
//
//     for (i = 1; i < 32; i *= 2) v += g.shfl_down(v, i);   // lane 0: warp total
//     if (rank == 0) shr[warp] = v;
//     if (rank < N) v = shr[rank];          // lanes >= N keep their partial sums
//     for (i = 1; i < N; i *= 2) v += g.shfl_down(v, i);    // lane 0 reads lanes < 2^ceil(log2 N)
//     v = g.shfl(v, 0);
//
// Whether a wrong value is ever used is a question about values: which
// lanes run each statement, which lane each shuffle reads, how far each
// loop goes, for the block shapes the kernel can run with. This analysis
// answers it by running the code after the scan on every thread of a block,
// for each block shape the launches in the unit use (LaunchFacts), or for
// every 1-D block of whole warps (32 ... 1024 threads) when they are not
// known. Each thread's copy of each local carries the set of lanes whose
// wrong scan values it holds; a statement that stores, compares or returns
// such a value (anything but a copy into a local) in a thread that may run
// it is a wrong use. Conditions, offsets and loop bounds are evaluated
// through the symbolic translator; whatever it cannot evaluate counts as
// "may be either" (a store under it may not happen, a use under it may).
// Code the interpreter does not model (a pointer to the variable, a switch,
// a loop around the scan) gives no answer. A scan written as straight-line
// steps is run step by step with the statements between its steps, so a
// partial reduction (`v += shfl_down(v, 1, 4); v += shfl_down(v, 2, 4);`)
// and reductions that fold several accumulators into one are judged by
// the lanes that actually read them.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_ANALYSIS_SCANLANEFLOW_H
#define WARP_TIDY_ANALYSIS_SCANLANEFLOW_H

#include "launch/LaunchBlockShapes.h"
#include "patterns/ScanBlockRun.h"
#include "patterns/ScanConsumers.h"

namespace clang {
class ASTContext;
class BinaryOperator;
class CallExpr;
class Stmt;
class VarDecl;
} // namespace clang

namespace warp_tidy {

struct LaneFlowVerdict {
  enum KindT {
    Unknown,    ///< code the interpreter does not model
    Deferred,   ///< a template pattern: its instantiations are judged
    NoWrongUse, ///< no wrong value reaches a use, for any block shape
    WrongUse,   ///< a wrong value is used
    StaleLanes, ///< a wrong value is used only because a store left lanes stale
  } Kind = Unknown;

  // WrongUse and StaleLanes: one execution that shows it.
  const clang::Stmt *Use = nullptr;
  unsigned UserLane = 0;        ///< the lane whose use reads a wrong value
  unsigned SourceLane = 0;      ///< a lane whose wrong value it holds
  BlockShape Shape;             ///< the block shape of that execution
  bool ShapeFromLaunch = false; ///< Shape comes from a launch (else: assumed)

  // StaleLanes.
  const clang::BinaryOperator *PartialStore = nullptr; ///< `v = ...` under a lane condition
  const clang::CallExpr *Carrier = nullptr;            ///< the shuffle that brought the stale value
  /// Exactly the shapes whose warp count is not a power of two show it.
  bool OnlyNonPowerOfTwoWarps = false;
};

/// Follows the values of the scan \p Region's accumulators (\p Exact names
/// the lanes an unguarded scan loop leaves right when it cannot be run) to
/// the end of the function.
LaneFlowVerdict followScanLanes(const ScanRegion &Region, ExactLanes Exact, clang::ASTContext &Ctx);

} // namespace warp_tidy

#endif
