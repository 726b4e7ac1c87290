//===--- PathConditions.cpp - The conditions on the way to a block, at once ===//
//
// A lane reaches a block when every branch that controls the block sends it
// the block's way. Asked one at a time, a thread-varying condition on the
// way makes the block divergent, although the lanes that pass it may be
// exactly those that pass a later, group-uniform one as well: `if (i < n)`
// around `if ((i | 31) < n)`, or a grid-stride loop on `it < n` with eight
// lanes per item whose body is guarded by `it < n / 8 * 8`. Whether lanes
// reach the block together is one integer question: can two lanes of a
// group disagree on the conjunction of the conditions on the way?
//
// Two things make the conjunction the right question.
// - Each condition is translated where its branch evaluates it, and a value
//   read there (a local, the steps an induction variable has taken) is the
//   same leaf as the one read at the block only when nothing writes it on
//   the way from the branch to the block.
// - A lane that leaves at a branch waits at the branch's join. If others
//   evaluate the branch again before that join (a loop's exit test, a
//   `break`), the leaver is missing although the condition, evaluated now,
//   might hold for it. Such a branch counts only when its condition, once
//   false, stays false: an induction variable that only grows compared
//   below a bound the loop does not change (or the mirror image).
//
// Part of FunctionUniformity::Impl (see FunctionAnalysis.h).
//
//===----------------------------------------------------------------------===//

#include "ast/AstQueries.h"
#include "ast/ThreadIndex.h"
#include "symbolic/SymbolicTerm.h"
#include "symbolic/SymbolicTranslation.h"
#include "symbolic/UniformityProver.h"
#include "uniformity/FunctionAnalysis.h"
#include "uniformity/SymbolicView.h"
#include "clang/AST/Expr.h"

using namespace clang;

namespace warp_tidy {

namespace {
/// The variable an expression names, looking through parentheses and
/// implicit conversions.
const VarDecl *namedVariable(const Expr *E) {
  const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  return Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
}

/// Blocks from which \p To can be reached without passing \p Avoid (\p To
/// included).
llvm::BitVector reachingAvoiding(const CFGBlock *To, const CFGBlock *Avoid, unsigned NumBlocks) {
  llvm::BitVector Seen(NumBlocks);
  llvm::SmallVector<const CFGBlock *, 16> Stack = {To};
  while (!Stack.empty()) {
    const CFGBlock *X = Stack.pop_back_val();
    if (X == Avoid || Seen.test(X->getBlockID()))
      continue;
    Seen.set(X->getBlockID());
    for (const CFGBlock *P : X->preds())
      if (P)
        Stack.push_back(P);
  }
  return Seen;
}
} // namespace

std::optional<unsigned> FunctionUniformity::Impl::sideTowards(unsigned Branch, unsigned Site) {
  const CFGBlock *B = blockByID(Branch);
  if (!B || B->succ_size() != 2 || Branch == Site)
    return std::nullopt;
  std::optional<unsigned> Side;
  for (unsigned Edge = 0; Edge < 2; ++Edge) {
    if (!reachableAvoiding(Branch, Edge).test(Site))
      continue;
    if (Side)
      return std::nullopt; // both ways lead there: not one condition
    Side = Edge;
  }
  return Side;
}

const llvm::SmallVector<const CFGBlock *, 2> *
FunctionUniformity::Impl::writeBlocksOf(const void *Key) {
  if (!InductionsScanned)
    scanInductions();
  if (!KeyWritesBuilt) {
    KeyWritesBuilt = true;
    for (const auto &[V, I] : Inductions) {
      if (!I.OnlyPlainWrites)
        continue;
      llvm::SmallVector<const CFGBlock *, 2> All;
      bool Placed = true;
      auto Place = [&](const Stmt *At) {
        const CFGBlock *B = placeOf(At).Block;
        Placed = Placed && B;
        return B;
      };
      for (const auto &Def : I.Inits)
        All.push_back(Place(Def.second));
      for (const auto &Step : I.Steps)
        if (const CFGBlock *B = Place(Step.second))
          KeyWrites[Step.second] = {B};
      if (Placed)
        KeyWrites[V] = std::move(All);
    }
  }
  auto It = KeyWrites.find(Key);
  return It == KeyWrites.end() ? nullptr : &It->second;
}

TermRef FunctionUniformity::Impl::conditionTowards(unsigned Branch, unsigned Edge, unsigned Site,
                                                   LaneGroup Group) {
  const CFGBlock *B = blockByID(Branch);
  const Expr *Cond = BranchCond[Branch];
  const Stmt *At = B ? B->getTerminatorStmt() : nullptr;
  if (!Cond || !At)
    return nullptr;
  State End = transferBlock(B, In[Branch]);
  SymbolicView View(*this, End, At);
  View.Group = Group;
  SymbolicTranslator Translator(Ctx, Cache.terms(), View, Opts.AssumeWarpAlignedBlocks);
  TermBuilder &Terms = Cache.terms();
  TermRef Value = Translator.translate(Cond);
  if (!Value)
    return nullptr;
  Value = Terms.toBool(Value);
  if (Edge == 1)
    Value = Terms.binary(TermOp::Eq, Value, Terms.constant(0, 1));
  // Values read at the branch are named by its point. Where nothing writes
  // them between the branch and the site, they are the values at the site:
  // one name for every condition on the way, so the steps an induction
  // variable took are the same unknown in the loop's test and in the `if`.
  llvm::BitVector Between = reachableAvoiding(Branch, Edge);
  Between &= reachingAvoiding(blockByID(Site), B, NumBlocks);
  const void *SitePoint = blockByID(Site);
  return Terms.substitute(Value, [&](TermRef Leaf) -> TermRef {
    std::optional<TermBuilder::LeafName> Name = Terms.nameOf(Leaf);
    if (!Name || Name->Point != At)
      return nullptr;
    const auto *Writes = writeBlocksOf(Name->Key);
    if (!Writes ||
        llvm::any_of(*Writes, [&](const CFGBlock *W) { return Between.test(W->getBlockID()); }))
      return nullptr;
    if (Leaf->Op == TermOp::PerLane)
      return Terms.perLane(Name->Key, Leaf->Width, SitePoint);
    return Terms.uniform(Name->Key, Leaf->Width, Leaf->KnownZeroBits, SitePoint, Leaf->UpperBound);
  });
}

const llvm::BitVector &FunctionUniformity::Impl::cycleBeforeJoin(unsigned Branch) {
  auto [Known, New] = Cycles.try_emplace(Branch);
  if (New)
    Known->second = findCycleBeforeJoin(Branch);
  return Known->second;
}

llvm::BitVector FunctionUniformity::Impl::findCycleBeforeJoin(unsigned Branch) const {
  const CFGBlock *B = blockByID(Branch);
  const CFGBlock *Join = postDominatorOf(B);
  llvm::BitVector Forward(NumBlocks);
  llvm::SmallVector<const CFGBlock *, 16> Stack;
  for (const CFGBlock *Succ : B->succs())
    if (Succ)
      Stack.push_back(Succ);
  while (!Stack.empty()) {
    const CFGBlock *X = Stack.pop_back_val();
    if (X == Join || Forward.test(X->getBlockID()))
      continue;
    Forward.set(X->getBlockID());
    if (X == B)
      continue;
    for (const CFGBlock *N : X->succs())
      if (N)
        Stack.push_back(N);
  }
  if (!Forward.test(Branch))
    return llvm::BitVector(NumBlocks);
  Forward &= reachingAvoiding(B, Join, NumBlocks);
  return Forward;
}

int FunctionUniformity::Impl::stepDirection(const VarDecl *V) {
  const Induction &I = induction(V);
  if (!I.Valid || I.Steps.empty())
    return 0;
  int Direction = stepSign(I.Steps.front().first, I.Steps.front().second);
  for (const auto &[Step, At] : I.Steps)
    if (stepSign(Step, At) != Direction)
      return 0;
  return Direction;
}

bool FunctionUniformity::Impl::isLoopInvariant(const Expr *E, unsigned Branch) {
  E = E->IgnoreParens();
  if (integerConstant(E, Ctx) || classifyBuiltinIndex(E) != BuiltinIndex::None)
    return true;
  if (const auto *Cast = dyn_cast<CastExpr>(E))
    return isLoopInvariant(Cast->getSubExpr(), Branch);
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return !BO->isAssignmentOp() && !BO->isCommaOp() && isLoopInvariant(BO->getLHS(), Branch) &&
           isLoopInvariant(BO->getRHS(), Branch);
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return !UO->isIncrementDecrementOp() && UO->getOpcode() != UO_Deref &&
           isLoopInvariant(UO->getSubExpr(), Branch);
  // A local never written after its initialiser, declared where the
  // branch's cycle does not run again: one value for every evaluation.
  const VarDecl *V = namedVariable(E);
  if (!V || !V->hasLocalStorage() || V->getType().isVolatileQualified() || isMutated(V))
    return false;
  const CFGBlock *Decl = DeclBlock.lookup(V);
  return !Decl || !cycleBeforeJoin(Branch).test(Decl->getBlockID());
}

bool FunctionUniformity::Impl::holdsOnlyIfHeldBefore(unsigned Branch, unsigned Edge) {
  const auto *Cmp = dyn_cast_or_null<BinaryOperator>(stripValue(BranchCond[Branch]));
  if (!Cmp || !Cmp->isRelationalOp())
    return false;
  BinaryOperatorKind Op = Cmp->getOpcode();
  if (Edge == 1)
    Op = BinaryOperator::negateComparisonOp(Op);
  const Expr *Counter = Cmp->getLHS(), *Bound = Cmp->getRHS();
  if (!namedVariable(Counter) || !induction(namedVariable(Counter)).Valid) {
    std::swap(Counter, Bound);
    Op = BinaryOperator::reverseComparisonOp(Op);
  }
  const VarDecl *V = namedVariable(Counter);
  if (!V || !V->getType()->isSignedIntegerType())
    return false;
  // The counter starts once, outside the cycle, and moves one way only.
  const Induction &I = induction(V);
  if (!I.Valid)
    return false;
  if (const CFGBlock *Start = placeOf(I.InitPoint).Block;
      !Start || cycleBeforeJoin(Branch).test(Start->getBlockID()))
    return false;
  int Direction = stepDirection(V);
  bool Below = Op == BO_LT || Op == BO_LE;
  bool Above = Op == BO_GT || Op == BO_GE;
  if (!((Below && Direction > 0) || (Above && Direction < 0)))
    return false;
  return isLoopInvariant(Bound, Branch);
}

bool FunctionUniformity::Impl::pathAgreesInGroups(const CFGBlock *Site,
                                                  const llvm::BitVector &Splitting,
                                                  LaneGroup Group) {
  unsigned S = Site->getBlockID();
  auto Key = std::make_pair(S, Group.key());
  if (auto It = PathAgrees.find(Key); It != PathAgrees.end())
    return It->second;
  PathAgrees[Key] = false; // asked again while this runs: not shown
  TermBuilder &Terms = Cache.terms();
  TermRef Path = Terms.constant(1, 1);
  for (unsigned ID : Controls[S].set_bits()) {
    bool Splits = Splitting.test(ID);
    std::optional<unsigned> Edge = sideTowards(ID, S);
    TermRef Cond = Edge ? conditionTowards(ID, *Edge, S, Group) : nullptr;
    // A condition that keeps the group together may be left out: the
    // conjunction without it can only split the group more often.
    if (!Cond) {
      if (Splits)
        return false;
      continue;
    }
    if (Splits && cycleBeforeJoin(ID).any() && !holdsOnlyIfHeldBefore(ID, *Edge))
      return false;
    Path = Terms.binary(TermOp::And, Path, Cond);
  }
  bool Agrees = Prover.sameInGroup(Path, Group) == UniformityProver::Answer::Uniform;
  PathAgrees[Key] = Agrees;
  return Agrees;
}

} // namespace warp_tidy
