//===--- StmtReachability.h - Can one statement run after another? --------===//
//
// Source order is not execution order: a value written in the `then` arm of
// an `if` never reaches a read in its `else` arm, and a value written in one
// iteration of a loop reaches the next iteration's reads only if nothing
// writes the variable again first. Analyses that pick "the write a read
// sees" ask whether a write can reach the read on a CFG path that avoids
// every other write: the reaching-definitions question, for one variable.
//
// The graph search (reachesAvoiding) is shared by every CFG in the tool;
// StmtReachability builds a function's CFG on its first question only, since
// most functions ask none.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_ANALYSIS_STMTREACHABILITY_H
#define WARP_TIDY_ANALYSIS_STMTREACHABILITY_H

#include "llvm/ADT/ArrayRef.h"
#include <memory>

namespace llvm {
class BitVector;
} // namespace llvm

namespace clang {
class ASTContext;
class CFG;
class CFGBlock;
class FunctionDecl;
class Stmt;
} // namespace clang

namespace warp_tidy {

/// Where a statement runs: its CFG block and its index among the block's
/// elements (the block's terminator: one past the last element).
struct CfgPosition {
  const clang::CFGBlock *Block = nullptr;
  unsigned Index = 0;
};

/// The position of \p S in \p B: the element that is \p S, else the
/// terminator's.
CfgPosition positionIn(const clang::CFGBlock *B, const clang::Stmt *S);

/// Is there a path from just after \p From to just before \p To on which no
/// position of \p Kills lies? \p NumBlocks is the CFG's getNumBlockIDs().
/// A `for` loop entered from outside whose first test holds by its constant
/// bounds (`for (int i = 0; i < 4; ++i)`) runs its body: a kill in the body
/// cannot be skipped by taking the exit edge before the first iteration.
bool reachesAvoiding(const clang::ASTContext &Ctx, unsigned NumBlocks, CfgPosition From,
                     CfgPosition To, llvm::ArrayRef<CfgPosition> Kills);

/// The blocks of \p Cfg that some execution runs, by block ID: reachable
/// from the entry, where a `for` loop whose first test fails by its
/// constant bounds (`for (int i = TB / 2; i > 0; i /= 2)` with TB = 1)
/// never runs its body. An instantiation's dead code, like a discarded
/// `if constexpr` branch, is not code to report on.
llvm::BitVector liveBlocks(const clang::CFG &Cfg, const clang::ASTContext &Ctx);

class StmtReachability {
public:
  StmtReachability(const clang::FunctionDecl *FD, clang::ASTContext &Ctx);
  ~StmtReachability();
  StmtReachability(const StmtReachability &) = delete;
  StmtReachability &operator=(const StmtReachability &) = delete;

  /// May \p To run after \p From with none of \p Kills in between, on some
  /// path of the function? True when the CFG does not place one of them (a
  /// lambda's body, a CFG that could not be built): the caller falls back
  /// on source order.
  bool mayFollow(const clang::Stmt *From, const clang::Stmt *To,
                 llvm::ArrayRef<const clang::Stmt *> Kills = {});

private:
  struct Graph;
  /// The block and element of \p S, or of the nearest statement above it
  /// that the CFG holds; no Block when none.
  CfgPosition locate(const clang::Stmt *S) const;

  const clang::FunctionDecl *FD;
  clang::ASTContext &Ctx;
  std::unique_ptr<Graph> G; ///< Built on the first question.
  bool Built = false;
};

} // namespace warp_tidy

#endif
