//===--- ReachingInits.cpp - Which definition of a local reaches a point ---===//
//
// A local that is defined more than once (`int i = 0; ... i = base + lane;
// for (; i < n; i += stride)`) is not one value, but at each point only the
// definitions that reach it matter. When exactly one reaches the point where
// the prover asks, the variable stands for that definition (plus the steps
// taken since, when it is an induction variable). Reaching is the classic
// question over the CFG: a path from the definition to the point on which
// no other definition of the variable is made. Steps (`i += s`) do not kill.
// Part of FunctionUniformity::Impl (see FunctionAnalysis.h).
//
//===----------------------------------------------------------------------===//

#include "uniformity/FunctionAnalysis.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/SmallVector.h"

using namespace clang;

namespace warp_tidy {
namespace {

/// Where a statement sits: its block and its index among the block's
/// elements (the terminator comes after every element).
struct Position {
  const CFGBlock *Block = nullptr;
  unsigned Index = 0;
};

Position positionIn(const CFGBlock *B, const Stmt *S) {
  unsigned I = 0;
  for (const CFGElement &E : *B) {
    if (std::optional<CFGStmt> CS = E.getAs<CFGStmt>(); CS && CS->getStmt() == S)
      return {B, I};
    ++I;
  }
  return {B, I};
}

} // namespace

bool FunctionUniformity::Impl::reachesUnkilled(const Stmt *Def, const Stmt *Point,
                                               llvm::ArrayRef<const Stmt *> Kills) const {
  // Every statement asked about is placed (reachingInduction checks).
  auto Locate = [&](const Stmt *S) { return positionIn(BlockOf.lookup(S), S); };
  Position D = Locate(Def), P = Locate(Point);
  llvm::SmallVector<Position, 4> KillAt;
  for (const Stmt *K : Kills)
    KillAt.push_back(Locate(K));
  // Is a definition made in block B between indices From and To (both
  // excluded)?
  auto KilledWithin = [&](const CFGBlock *B, unsigned From, unsigned To) {
    return llvm::any_of(KillAt, [&](const Position &K) {
      return K.Block == B && K.Index > From && K.Index < To;
    });
  };
  if (D.Block == P.Block && D.Index < P.Index)
    return !KilledWithin(D.Block, D.Index, P.Index);
  if (KilledWithin(D.Block, D.Index, ~0u))
    return false; // defined again before the definition's block ends
  // Forward from the definition's block; a block that defines again stops
  // the path unless the point comes first in it.
  llvm::BitVector Seen(NumBlocks);
  llvm::SmallVector<const CFGBlock *, 16> Work(D.Block->succ_begin(), D.Block->succ_end());
  while (!Work.empty()) {
    const CFGBlock *B = Work.pop_back_val();
    if (!B || Seen.test(B->getBlockID()))
      continue;
    Seen.set(B->getBlockID());
    if (B == P.Block) {
      bool KilledFirst = llvm::any_of(
          KillAt, [&](const Position &K) { return K.Block == B && K.Index < P.Index; });
      if (!KilledFirst)
        return true;
      continue;
    }
    if (llvm::any_of(KillAt, [&](const Position &K) { return K.Block == B; }))
      continue;
    Work.append(B->succ_begin(), B->succ_end());
  }
  return false;
}

FunctionUniformity::Impl::Induction
FunctionUniformity::Impl::reachingInduction(const VarDecl *V, const Stmt *Point) {
  const Induction &All = induction(V);
  if (!All.OnlyPlainWrites || All.Inits.size() < 2 || !BlockOf.count(Point))
    return {};
  llvm::SmallVector<const Stmt *, 4> Defs;
  for (const auto &Def : All.Inits) {
    if (!BlockOf.count(Def.second))
      return {}; // a definition the CFG does not place (a lambda's)
    Defs.push_back(Def.second);
  }
  Induction Found;
  for (unsigned I = 0; I < Defs.size(); ++I) {
    llvm::SmallVector<const Stmt *, 4> Others(Defs);
    Others.erase(Others.begin() + I);
    if (!reachesUnkilled(Defs[I], Point, Others))
      continue;
    if (Found.Valid)
      return {}; // two reach: the variable may hold either
    Found = All;
    Found.Init = All.Inits[I].first;
    Found.InitPoint = Defs[I];
    Found.Valid = true;
  }
  return Found;
}

} // namespace warp_tidy
