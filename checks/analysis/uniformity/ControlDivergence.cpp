//===--- ControlDivergence.cpp - Which branches diverge, and where from -----===//
//
// Transitive control dependences over the CFG, early-exit branches (lanes
// that never rejoin), the divergence fixpoint step (updateDivergence: a
// branch is divergent when its condition is thread-varying and not proven
// uniform), and the divergence sources reported for a statement.
// Part of FunctionUniformity::Impl (see FunctionAnalysis.h).
//
//===----------------------------------------------------------------------===//

#include "ast/AstQueries.h"
#include "ast/ThreadIndex.h"
#include "intrinsics/CollectiveCalls.h"
#include "intrinsics/WarpIntrinsics.h"
#include "symbolic/SymbolicTerm.h"
#include "symbolic/SymbolicTranslation.h"
#include "symbolic/UniformityProver.h"
#include "uniformity/FunctionAnalysis.h"
#include "uniformity/SymbolicView.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"

using namespace clang;

namespace warp_tidy {
using namespace uniformity_detail;

void FunctionUniformity::Impl::computeControls() {
  Controls.assign(NumBlocks, llvm::BitVector(NumBlocks));
  // Direct control dependences: the post-dominance frontier of every block
  // at once. B depends on A when B post-dominates a successor S of A but
  // does not strictly post-dominate A; in the post-dominator tree those B
  // are S and its ancestors down to A's level (the level test of clang's
  // ControlDependencyCalculator, an iterated-frontier calculator asked block
  // by block, which on device code cost more than the rest of this setup).
  // The closure below makes them transitive: exactly the iterated frontier
  // that calculator returns for each block.
  const auto &Tree = PostDom->getBase();
  std::vector<llvm::SmallVector<unsigned, 4>> Direct(NumBlocks);
  for (const CFGBlock *A : *Cfg) {
    const auto *ANode = Tree.getNode(const_cast<CFGBlock *>(A));
    if (!ANode)
      continue;
    unsigned AID = A->getBlockID();
    for (const CFGBlock *S : A->succs()) {
      if (!S)
        continue;
      for (const auto *N = Tree.getNode(const_cast<CFGBlock *>(S));
           N && N->getBlock() && N->getLevel() >= ANode->getLevel(); N = N->getIDom()) {
        unsigned BID = N->getBlock()->getBlockID();
        if (!Controls[BID].test(AID)) {
          Controls[BID].set(AID);
          Direct[BID].push_back(AID);
        }
      }
    }
  }
  // Transitive closure; the CFGs of device functions are small.
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (unsigned B = 0; B < NumBlocks; ++B)
      for (unsigned D : Direct[B]) {
        llvm::BitVector Before = Controls[B];
        Controls[B] |= Controls[D];
        if (Controls[B] != Before)
          Changed = true;
      }
  }
}

bool FunctionUniformity::Impl::hasReturn(const CFGBlock *B) {
  for (const CFGElement &E : *B)
    if (std::optional<CFGStmt> CS = E.getAs<CFGStmt>())
      if (isa<ReturnStmt>(CS->getStmt()))
        return true;
  return false;
}

/// An early exit: the lanes never meet again in this function (the
/// branch's immediate post-dominator is the exit). In a helper one side
/// must also leave through an explicit `return` on every path, and the
/// lanes run on in the caller. In a kernel the end of the function ends
/// the thread, so running off the end exits as `return` does (the
/// Programming Guide's "non-exited threads"); which lanes exited is the
/// site's question (keptLanesExited).
bool FunctionUniformity::Impl::isExitBranch(const CFGBlock *B) const {
  const CFGBlock *IPDom = postDominatorOf(B);
  if (IPDom && IPDom != &Cfg->getExit())
    return false;
  if (FD->hasAttr<CUDAGlobalAttr>())
    return true;
  for (const CFGBlock *Succ : B->succs())
    if (Succ && allPathsReturn(Succ))
      return true;
  return false;
}

namespace {
/// What a forward walk does at a block.
enum class Step { Found, Prune, Continue };

/// Walks the blocks reachable from \p From (each once) until \p Visit says
/// Found; Prune stops the walk below that block.
template <typename VisitFn>
bool findForward(const CFGBlock *From, unsigned NumBlocks, VisitFn Visit) {
  llvm::BitVector Visited(NumBlocks);
  llvm::SmallVector<const CFGBlock *, 8> Stack = {From};
  while (!Stack.empty()) {
    const CFGBlock *X = Stack.pop_back_val();
    if (Visited.test(X->getBlockID()))
      continue;
    Visited.set(X->getBlockID());
    Step S = Visit(X);
    if (S == Step::Found)
      return true;
    if (S == Step::Prune)
      continue;
    for (const CFGBlock *N : X->succs())
      if (N)
        Stack.push_back(N);
  }
  return false;
}

bool hasSideEffect(const CFGBlock *B, const ASTContext &Ctx) {
  for (const CFGElement &E : *B) {
    std::optional<CFGStmt> CS = E.getAs<CFGStmt>();
    if (!CS)
      continue;
    if (const auto *Ex = dyn_cast<Expr>(CS->getStmt()); Ex && Ex->HasSideEffects(Ctx))
      return true;
    if (const auto *DS = dyn_cast<DeclStmt>(CS->getStmt()))
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D))
          if (const Expr *Init = V->getInit(); Init && Init->HasSideEffects(Ctx))
            return true;
  }
  return false;
}
} // namespace

bool FunctionUniformity::Impl::allPathsReturn(const CFGBlock *From) const {
  const CFGBlock *Exit = &Cfg->getExit();
  return !findForward(From, NumBlocks, [&](const CFGBlock *X) {
    if (hasReturn(X))
      return Step::Prune;
    return X == Exit ? Step::Found : Step::Continue;
  });
}

bool FunctionUniformity::Impl::reaches(const CFGBlock *From, const CFGBlock *To) const {
  return findForward(From, NumBlocks,
                     [&](const CFGBlock *X) { return X == To ? Step::Found : Step::Continue; });
}

bool FunctionUniformity::Impl::reachesCollective(const CFGBlock *From) const {
  return findForward(From, NumBlocks, [&](const CFGBlock *X) {
    return CollectiveBlocks.test(X->getBlockID()) ? Step::Found : Step::Continue;
  });
}

bool FunctionUniformity::Impl::hasEffectBeforeExit(const CFGBlock *From) const {
  return findForward(From, NumBlocks, [&](const CFGBlock *X) {
    if (hasSideEffect(X, Ctx))
      return Step::Found;
    return hasReturn(X) ? Step::Prune : Step::Continue;
  });
}

bool FunctionUniformity::Impl::keptLanesExited(const CFGBlock *Branch, const CFGBlock *Site,
                                               bool &AtEnd) const {
  bool Any = false;
  AtEnd = false;
  for (const CFGBlock *Succ : Branch->succs()) {
    if (!Succ || reaches(Succ, Site))
      continue;
    // Lanes that can meet another collective on their way out are not
    // gone: the site and that collective may wait for each other, or pair
    // up as the two arms of a Volta-style branch.
    if (reachesCollective(Succ))
      return false;
    // Running off the end counts as leaving at the branch only when the
    // lanes do nothing else on the way: lanes that go on to do other work
    // took another path, and a vote or barrier meant for them misses them.
    if (!allPathsReturn(Succ)) {
      if (hasEffectBeforeExit(Succ))
        return false;
      AtEnd = true;
    }
    Any = true;
  }
  return Any;
}

const CFGBlock *FunctionUniformity::Impl::postDominatorOf(const CFGBlock *B) const {
  auto *Node = PostDom->getBase().getNode(const_cast<CFGBlock *>(B));
  if (!Node || !Node->getIDom())
    return nullptr;
  return Node->getIDom()->getBlock();
}

/// Divergent branches (of either kind) that control \p B.
llvm::BitVector FunctionUniformity::Impl::divergentControls(const CFGBlock *B) const {
  llvm::BitVector V = Controls[B->getBlockID()];
  V &= Divergent;
  return V;
}

/// Divergent branches after which lanes meet again, controlling \p B.
llvm::BitVector FunctionUniformity::Impl::rejoiningControls(unsigned BlockID) const {
  llvm::BitVector V = Controls[BlockID];
  V &= Divergent;
  llvm::BitVector NotExit = ExitKind;
  NotExit.flip();
  V &= NotExit;
  return V;
}

/// Recomputes branch conditions' dependencies; true when the set of
/// divergent branches grew.
bool FunctionUniformity::Impl::updateDivergence() {
  BranchDeps.assign(NumBlocks, 0);
  BranchCond.assign(NumBlocks, nullptr);
  llvm::BitVector Before = Divergent;
  for (const CFGBlock *B : *Cfg) {
    unsigned Reachable = 0;
    for (const CFGBlock *Succ : B->succs())
      if (Succ)
        ++Reachable;
    if (Reachable < 2)
      continue;
    const Expr *Cond = B->getLastCondition();
    if (!Cond)
      if (const Stmt *T = B->getTerminatorCondition())
        Cond = dyn_cast<Expr>(T);
    if (!Cond)
      continue;
    State End = transferBlock(B, In[B->getBlockID()]);
    ValueDeps D = deps(Cond, End);
    BranchDeps[B->getBlockID()] = D;
    BranchCond[B->getBlockID()] = Cond;
    // The taint says "may differ"; ask whether two lanes of one warp can
    // actually evaluate the condition differently.
    if ((D & ThreadVarying) && !Divergent.test(B->getBlockID()) &&
        provedUniform(B->getBlockID(), Cond, End, 32)) {
      BranchDeps[B->getBlockID()] = D & ~ThreadVarying;
      continue;
    }
    if (D & ThreadVarying) {
      Divergent.set(B->getBlockID());
      if (isExitBranch(B))
        ExitKind.set(B->getBlockID());
    }
  }
  return Divergent != Before;
}

const CFGBlock *FunctionUniformity::Impl::blockByID(unsigned ID) const {
  return ID < ByID.size() ? ByID[ID] : nullptr;
}

bool FunctionUniformity::Impl::exitsOnlyUnreadLanes(unsigned BranchID, const CFGBlock *Site,
                                                    ShuffleDirection Reads) {
  if (Reads != ShuffleDirection::Up && Reads != ShuffleDirection::Down)
    return false;
  const CFGBlock *B = blockByID(BranchID);
  const Expr *Cond = BranchID < BranchCond.size() ? BranchCond[BranchID] : nullptr;
  if (!B || !Cond || B->succ_size() != 2)
    return false;
  // The side that never reaches the site is the way out; clang's CFG puts
  // the true side first.
  int ExitSide = -1;
  for (unsigned I = 0; I < 2; ++I) {
    const CFGBlock *Succ = *(B->succ_begin() + I);
    if (Succ && !reaches(Succ, Site)) {
      if (ExitSide >= 0)
        return false;
      ExitSide = static_cast<int>(I);
    }
  }
  if (ExitSide < 0)
    return false;
  State End = transferBlock(B, In[BranchID]);
  SymbolicView View(*this, End, B->getTerminatorStmt());
  SymbolicTranslator Translator(Ctx, Cache.terms(), View, Opts.AssumeWarpAlignedBlocks);
  TermBuilder &Terms = Cache.terms();
  TermRef Leaves = Terms.toBool(Translator.translate(Cond));
  if (ExitSide == 1)
    Leaves = Terms.binary(TermOp::Eq, Leaves, Terms.constant(0, 1));
  // Is there a lane that leaves below (shfl_up) or above (shfl_down) one
  // that stays? None: every lane that stays reads only lanes that stay.
  TermRef HwLane = Terms.threadIndex(TermOp::HardwareLane);
  TermRef LaneA = Terms.freshUniform(32), LaneB = Terms.freshUniform(32);
  TermRef LeavesA = Terms.freshUniform(1), LeavesB = Terms.freshUniform(1);
  TermRef Order = Reads == ShuffleDirection::Up ? Terms.binary(TermOp::ULt, LaneA, LaneB)
                                                : Terms.binary(TermOp::ULt, LaneB, LaneA);
  LanePairQuery Q;
  Q.Relation = Terms.binary(
      TermOp::And, Order,
      Terms.binary(TermOp::And, LeavesA, Terms.binary(TermOp::Eq, LeavesB, Terms.constant(0, 1))));
  Q.Bindings = {{LaneA, HwLane, false},
                {LeavesA, Leaves, false},
                {LaneB, HwLane, true},
                {LeavesB, Leaves, true}};
  return Prover.existsLanePair(Q) == UniformityProver::Existence::NoneExists;
}

llvm::SmallVector<DivergenceSource, 2>
FunctionUniformity::Impl::sourcesFor(const CFGBlock *B, bool &DataDecided, LaneGroup Group,
                                     unsigned ReadWidth, ShuffleDirection Reads) {
  llvm::SmallVector<DivergenceSource, 2> Out;
  DataDecided = false;
  llvm::BitVector Div = divergentControls(B);
  if (!Group.isWarp())
    for (unsigned ID : Div.set_bits())
      if (branchUniformInGroups(ID, Group))
        Div.reset(ID);
  if (Div.none())
    return Out;
  // Each condition splits the lanes, yet together they may not: the lanes
  // that pass a per-lane bound are all those that pass a rounded one after.
  if (pathAgreesInGroups(B, Div, Group))
    return Out;
  // Direct control dependences first: they are the innermost conditions.
  // The order (and so the order of the reported sources) is that of clang's
  // calculator, built only here, for the few blocks that need it.
  if (!ControlDeps)
    ControlDeps = std::make_unique<ControlDependencyCalculator>(Cfg.get());
  llvm::SmallVector<unsigned, 4> Order;
  for (const CFGBlock *D : ControlDeps->getControlDependencies(const_cast<CFGBlock *>(B)))
    if (Div.test(D->getBlockID()))
      Order.push_back(D->getBlockID());
  for (unsigned ID : Div.set_bits())
    if (!llvm::is_contained(Order, ID))
      Order.push_back(ID);
  const bool Kernel = FD->hasAttr<CUDAGlobalAttr>();
  for (unsigned ID : Order) {
    const CFGBlock *D = blockByID(ID);
    bool AtEnd = false;
    bool Exited = Kernel && ExitKind.test(ID) && D && keptLanesExited(D, B, AtEnd);
    DivergenceSource Src;
    // A shuffle reads only inside its own aligned segment: an exit that
    // takes whole segments leaves no live lane reading an exited one. Nor
    // does one that takes only lanes above those that stay, for a shuffle
    // that reads lower lanes (and the other way round).
    Src.ExitedLanesUnread = Exited && ((ReadWidth < 32 && branchUniformInGroups(ID, ReadWidth)) ||
                                       exitsOnlyUnreadLanes(ID, B, Reads));
    // An exit branch explains the missing lanes only if they are the ones
    // that exited: in `if (lane < 16) { v = __ballot_sync(full, p);
    // return; }` lanes 16-31 are alive on the other path. And only a
    // kernel's end ends the thread: lanes that return from a helper run on
    // in its caller, not exited, so the helper's collective misses live
    // lanes (the Programming Guide excuses exited ones only).
    Src.Kind = Exited ? DivergenceSource::EarlyExit : DivergenceSource::Branch;
    Src.ExitsAtEnd = Exited && AtEnd;
    Src.Condition = BranchCond[ID];
    Src.Terminator = D ? D->getTerminatorStmt() : nullptr;
    Src.LaneComparison = isLaneComparison(ID);
    if (!Src.LaneComparison)
      DataDecided = true;
    Out.push_back(Src);
  }
  return Out;
}

} // namespace warp_tidy
