//===--- ReductionResultLane.h - Which lane holds a reduction's total -----===//
//
// A tree reduction with `__shfl_down_sync` (offsets 16, 8, 4, 2, 1) moves
// values towards lane 0: afterwards lane 0 holds the total, and every other
// lane l holds a partial combination of some lanes at or above l (lane 31
// still holds only its own value). Using the variable as the total in any
// lane but 0 is wrong; a real project summed forces this way.
//
// This analysis finds, in one function, the variables such a reduction
// leaves (directly, or from a helper that returns one, like the usual
// `warpReduceSum`), and the later reads of them that lanes other than lane 0
// reach. A read is fine when
//   * it sits under a guard that only lane 0 passes (`if (lane == 0)`,
//     `threadIdx.x == 0`, `if (lane) return;` before it),
//   * it is the value a shuffle broadcasts from lane 0
//     (`__shfl_sync(mask, v, 0)`, `tile.shfl(v, 0)`),
//   * it feeds the next step of a reduction of the same variable, or is
//     returned (the caller's use is judged at the call), or
//   * the variable was overwritten since (a broadcast back into it).
// Only trees with the full warp's mask are judged (with a ballot's mask the
// total ends elsewhere, and that tree is wrong for another reason).
// A `__shfl_xor_sync` butterfly leaves the total in every lane and is not a
// down tree, so it is never considered.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_ANALYSIS_REDUCTIONRESULTLANE_H
#define WARP_TIDY_ANALYSIS_REDUCTIONRESULTLANE_H

#include "llvm/ADT/DenseMap.h"
#include <vector>

namespace clang {
class ASTContext;
class CallExpr;
class Expr;
class FunctionDecl;
class VarDecl;
} // namespace clang

namespace warp_tidy {

struct LaneZeroTotalUse {
  /// The read that lanes other than lane 0 reach.
  const clang::Expr *Use = nullptr;
  /// The variable holding the reduction's result; null when the result of a
  /// helper call is used directly.
  const clang::VarDecl *Var = nullptr;
  /// The `__shfl_down_sync` (or tile `shfl_down`) of the reduction.
  const clang::CallExpr *Shuffle = nullptr;
  /// Set when the reduction is in a helper: the call that returns its result.
  const clang::CallExpr *HelperCall = nullptr;
};

/// Which functions can lead the analysis to a down-direction shuffle at all:
/// one in the function's own body (lambdas included, as the analysis walks
/// them), or in the body of a callee the analysis may follow (a direct
/// callee with a body and a non-void result), at any depth. A function that
/// cannot has no lane-0 total to find, nor does a helper call to it; the
/// answer is the same for every caller, so one instance serves a whole
/// translation unit (and only one: it keys on declarations).
class DownShuffleReach {
public:
  /// False only when no down shuffle is reachable from \p FD's body.
  bool mayReach(const clang::FunctionDecl *FD);

private:
  static constexpr unsigned NoneOpen = ~0u;
  struct Answer {
    bool Reaches = false;
    /// The lowest stack level of a function still being walked that the walk
    /// met (recursion): a "no" is final only for that function.
    unsigned LowestOpen = NoneOpen;
  };
  Answer visit(const clang::FunctionDecl *FD);
  Answer viaCallee(const clang::FunctionDecl *Callee);

  llvm::DenseMap<const clang::FunctionDecl *, bool> Known;           ///< by definition
  llvm::DenseMap<const clang::FunctionDecl *, unsigned> InProgress;  ///< stack level
  llvm::DenseMap<const clang::FunctionDecl *, bool> CalleeLeadsDown; ///< by callee as written
};

/// The reads in \p FD that use a down-tree reduction's result in lanes other
/// than lane 0, at most one per reduction (the first). \p Reach remembers,
/// across the calls for one translation unit, which functions need no walk.
std::vector<LaneZeroTotalUse> findLaneZeroTotalUses(const clang::FunctionDecl *FD,
                                                    clang::ASTContext &Ctx,
                                                    DownShuffleReach &Reach);

} // namespace warp_tidy

#endif
