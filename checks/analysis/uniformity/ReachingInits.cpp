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

#include "ast/StmtReachability.h"
#include "uniformity/FunctionAnalysis.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/SmallVector.h"

using namespace clang;

namespace warp_tidy {

bool FunctionUniformity::Impl::reachesUnkilled(const Stmt *Def, const Stmt *Point,
                                               llvm::ArrayRef<const Stmt *> Kills) const {
  // Every statement asked about is placed (reachingInduction checks).
  auto Locate = [&](const Stmt *S) { return positionIn(BlockOf.lookup(S), S); };
  llvm::SmallVector<CfgPosition, 4> KillAt;
  for (const Stmt *K : Kills)
    KillAt.push_back(Locate(K));
  return reachesAvoiding(Ctx, NumBlocks, Locate(Def), Locate(Point), KillAt);
}

FunctionUniformity::Impl::Induction FunctionUniformity::Impl::reachingInduction(const VarDecl *V,
                                                                                const Stmt *Point) {
  const Induction &All = induction(V);
  if (!All.OnlyPlainWrites || All.Inits.empty() || !BlockOf.count(Point))
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
    // Only the steps that lie between the definition and the point have
    // been taken there (none, for a point before the loop).
    Found.Steps.clear();
    for (const auto &Step : All.Steps) {
      if (!BlockOf.count(Step.second))
        return {}; // a step the CFG does not place (a lambda's)
      if (reachesUnkilled(Defs[I], Step.second, Others) &&
          reachesUnkilled(Step.second, Point, Others))
        Found.Steps.push_back(Step);
    }
  }
  return Found;
}

} // namespace warp_tidy
