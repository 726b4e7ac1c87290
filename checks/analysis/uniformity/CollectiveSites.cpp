//===--- CollectiveSites.cpp - Collective sites -----------------------------===//
//
// Turns every warp collective, and every call of a function whose summary
// needs converged lanes, into a CollectiveSite carrying the lanes that reach
// it, its divergence sources and its mask facts.
// Part of FunctionUniformity::Impl (see FunctionAnalysis.h).
//
//===----------------------------------------------------------------------===//

#include "ast/AstQueries.h"
#include "ast/GuardFacts.h"
#include "ast/LocalWrites.h"
#include "ast/SwitchCoverage.h"
#include "ast/ThreadIndex.h"
#include "intrinsics/CollectiveCalls.h"
#include "intrinsics/InlinePtx.h"
#include "intrinsics/WarpCollective.h"
#include "intrinsics/WarpIntrinsics.h"
#include "symbolic/SymbolicTerm.h"
#include "symbolic/SymbolicTranslation.h"
#include "symbolic/UniformityProver.h"
#include "uniformity/FunctionAnalysis.h"
#include "uniformity/SymbolicView.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/MathExtras.h"

using namespace clang;

namespace warp_tidy {
using namespace uniformity_detail;

/// Volta+ rule: from each rejoining divergent branch, every path reaches a
/// block with a matching site before the lanes meet again.
bool FunctionUniformity::Impl::coveredOnEveryPath(const CFGBlock *B, const CollectiveSite &Site,
                                                  const llvm::BitVector &MatchBlocks) {
  llvm::BitVector Div = rejoiningControls(B->getBlockID());
  if (Div.none())
    return false;
  for (unsigned ID : Div.set_bits()) {
    const CFGBlock *D = blockByID(ID);
    const CFGBlock *Join = D ? postDominatorOf(D) : nullptr;
    if (!D || !Join)
      return false;
    // A switch whose cases name every value of its condition has no lane
    // for the default edge clang's CFG draws to the code after it.
    const auto *Switch = dyn_cast_or_null<SwitchStmt>(D->getTerminatorStmt());
    const CFGBlock *NoLanes = Switch && switchCoversEveryValue(Switch, Ctx) && D->succ_size()
                                  ? static_cast<const CFGBlock *>(*D->succ_rbegin())
                                  : nullptr;
    for (const CFGBlock *Succ : D->succs()) {
      if (!Succ || Succ == NoLanes)
        continue;
      // Depth-first search for a path to the join that avoids matches.
      llvm::BitVector Visited(NumBlocks);
      llvm::SmallVector<const CFGBlock *, 8> Stack = {Succ};
      while (!Stack.empty()) {
        const CFGBlock *X = Stack.pop_back_val();
        unsigned XID = X->getBlockID();
        if (Visited.test(XID))
          continue;
        Visited.set(XID);
        // Reaching the join first means this path skipped the collective;
        // a call in the join block itself runs after the lanes meet.
        if (X == Join || X == &Cfg->getExit())
          return false;
        if (MatchBlocks.test(XID))
          continue;
        for (const CFGBlock *N : X->succs())
          if (N)
            Stack.push_back(N);
      }
    }
  }
  return true;
}

/// The aligned segment that `lane ^ Mask` never leaves.
static unsigned xorSegment(unsigned Mask) {
  return static_cast<unsigned>(llvm::PowerOf2Ceil(Mask + 1));
}

/// The largest value \p Offset can have when it is the counter of an
/// enclosing `for` loop that starts at a constant and only shrinks (`i /= 2`,
/// `i >>= 1`, `--i`, `i -= k`) and is written nowhere else: a butterfly over
/// groups, `for (i = G / 2; i >= 1; i /= 2) v += __shfl_xor_sync(m, v, i)`.
static std::optional<int64_t> shrinkingCounterStart(const Expr *Offset, const Stmt *Shuffle,
                                                    ASTContext &Ctx) {
  const auto *Ref = dyn_cast_or_null<DeclRefExpr>(Offset ? Offset->IgnoreParenImpCasts() : nullptr);
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!Var || !Var->getInit())
    return std::nullopt;
  const ForStmt *Loop = nullptr;
  for (const Stmt *P = parentStmt(Shuffle, Ctx); P && !Loop; P = parentStmt(P, Ctx))
    if (const auto *For = dyn_cast<ForStmt>(P))
      if (const auto *Init = dyn_cast_or_null<DeclStmt>(For->getInit());
          Init && Init->isSingleDecl() && Init->getSingleDecl() == Var)
        Loop = For;
  if (!Loop || !Loop->getBody() || !isNeverWrittenIn(Var, Loop->getBody()))
    return std::nullopt;
  std::optional<int64_t> Start = integerConstant(Var->getInit(), Ctx);
  const Expr *Inc = Loop->getInc() ? Loop->getInc()->IgnoreParenImpCasts() : nullptr;
  auto RefersToVar = [&](const Expr *E) {
    const auto *R = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return R && R->getDecl() == Var;
  };
  bool Shrinks = false;
  if (const auto *UO = dyn_cast_or_null<UnaryOperator>(Inc))
    Shrinks = UO->isDecrementOp() && RefersToVar(UO->getSubExpr());
  else if (const auto *BO = dyn_cast_or_null<BinaryOperator>(Inc)) {
    std::optional<int64_t> K = integerConstant(BO->getRHS(), Ctx);
    BinaryOperatorKind Op = BO->getOpcode();
    Shrinks = RefersToVar(BO->getLHS()) && K &&
              ((Op == BO_DivAssign && *K >= 1) || (Op == BO_ShrAssign && *K >= 0) ||
               (Op == BO_SubAssign && *K >= 0));
  }
  if (!Start || !Shrinks)
    return std::nullopt;
  return Start;
}

/// The aligned segment a shuffle reads from: its constant `width` (for
/// inline PTX, the width its control operand encodes); 32 when unknown.
static unsigned segmentWidth(const WarpCollective &W, ASTContext &Ctx) {
  if (!W.Intrinsic || W.Intrinsic->Direction == ShuffleDirection::None)
    return 32;
  std::optional<int64_t> Width;
  if (W.Width.present())
    Width = W.Width.constant(Ctx);
  else if (W.ShuffleControl.present())
    if (std::optional<int64_t> C = W.ShuffleControl.constant(Ctx))
      if (std::optional<unsigned> N = shuffleWidthFromControl(static_cast<uint64_t>(*C)))
        Width = *N;
  unsigned Segment = 32;
  if (Width && *Width >= 1 && *Width <= 32 && llvm::isPowerOf2_64(*Width))
    Segment = static_cast<unsigned>(*Width);
  // `lane ^ m` stays inside the aligned segment of the power of two above m.
  if (W.Intrinsic->Direction == ShuffleDirection::Xor && W.LaneOrDelta.present()) {
    std::optional<int64_t> M = W.LaneOrDelta.constant(Ctx);
    if (!M && W.LaneOrDelta.E)
      M = shrinkingCounterStart(W.LaneOrDelta.E, W.At, Ctx);
    if (M && *M >= 0 && *M < 32)
      Segment = std::min(Segment, xorSegment(static_cast<unsigned>(*M)));
  }
  return Segment;
}

/// The segment a helper's shuffles read, seen from \p Call: shuffles that
/// xor the lane with the helper's parameter \p XorParameter read inside the
/// segment the constant passed here keeps.
static unsigned readWidthAtCall(const CallExpr *Call, const FunctionDecl *Def, unsigned Width,
                                int XorParameter, const ASTContext &Ctx) {
  if (XorParameter < 0)
    return Width;
  const Expr *Arg = argumentForParameter(Call, Def, static_cast<unsigned>(XorParameter));
  if (!Arg || Arg->isValueDependent())
    return Width;
  std::optional<llvm::APSInt> M = Arg->getIntegerConstantExpr(Ctx);
  if (!M || M->isNegative() || M->getExtValue() >= 32)
    return Width;
  return std::min(Width, xorSegment(static_cast<unsigned>(M->getZExtValue())));
}

std::optional<CollectiveSite> FunctionUniformity::Impl::makeSite(const Stmt *At, const CFGBlock *B,
                                                                 const State &S) {
  // An inline asm statement holding a PTX collective: its first instruction
  // that needs converged lanes (not activemask), judged as its equivalent
  // intrinsic. One guarded inside the template (`@p`) is not judged: the
  // template decides which lanes execute it.
  if (const auto *Asm = dyn_cast<GCCAsmStmt>(At)) {
    std::optional<WarpCollective> W = asmCollectiveNeedingLanes(Asm);
    if (!W || W->GuardedInTemplate || !W->Intrinsic->IsSync)
      return std::nullopt;
    CollectiveSite Site;
    Site.At = Asm;
    Site.Intrinsic = W->Intrinsic;
    Site.Witness = Asm;
    Site.Must = Must[B->getBlockID()];
    Site.May = May[B->getBlockID()];
    Site.ReadWidth = segmentWidth(*W, Ctx);
    Site.MaskExpr = W->Mask.E;
    if (W->Mask.Immediate)
      Site.Required = LaneSet(static_cast<uint32_t>(*W->Mask.Immediate));
    else if (std::optional<uint32_t> M = resolveMaskConstant(W->Mask.E, Ctx))
      Site.Required = LaneSet(*M);
    else {
      Site.MaskParameter = unwrittenParameterIndex(W->Mask.E);
      Site.MaskSources = W->Mask.E ? deps(W->Mask.E, S) & ~ThreadVarying : 0;
    }
    return Site;
  }
  const auto *Call = cast<CallExpr>(At);
  CollectiveSite Site;
  Site.At = Call;
  Site.Call = Call;
  Site.Must = Must[B->getBlockID()];
  Site.May = May[B->getBlockID()];
  if (std::optional<CollectiveCall> C = recogniseCollective(Call)) {
    const WarpIntrinsic *I = C->Intrinsic;
    if (I->Kind == CollectiveKind::ActiveMask || !I->IsSync)
      return std::nullopt;
    Site.Intrinsic = I;
    Site.Witness = Call;
    if (std::optional<WarpCollective> W = warpCollectiveAt(Call)) {
      Site.ReadWidth = segmentWidth(*W, Ctx);
      if (I->Direction == ShuffleDirection::Xor && W->LaneOrDelta.E)
        Site.XorParameter = unwrittenParameterIndex(W->LaneOrDelta.E);
    }
    if (I->Kind == CollectiveKind::TileMember || I->Kind == CollectiveKind::TileReduce) {
      unsigned N = tileSizeOfCall(Call);
      if (!N)
        return std::nullopt; // coalesced groups and dynamic tiles: not judged
      Site.ImplicitMask = true;
      Site.GroupSize = N;
      Site.ReadWidth = N;
      Site.Required = tilesTouching(Site.May, N);
    } else if (C->hasImplicitFullMask()) {
      Site.ImplicitMask = true;
      Site.Required = LaneSet::all();
    } else if (std::optional<uint32_t> M = resolveMaskConstant(C->maskArg(), Ctx)) {
      Site.MaskExpr = C->maskArg();
      Site.Required = LaneSet(*M);
    } else {
      Site.MaskExpr = C->maskArg();
      Site.MaskParameter = unwrittenParameterIndex(C->maskArg());
      Site.MaskSources = C->maskArg() ? deps(C->maskArg(), S) & ~ThreadVarying : 0;
    }
    return Site;
  }
  const FunctionDecl *Def = definitionOf(Call->getDirectCallee());
  if (!Def || Def == FD || isInSystemHeader(Def, Ctx) || !Cache.containsCollective(Def))
    return std::nullopt;
  const FunctionSummary *Sum = Cache.summary(Def);
  if (!Sum)
    return std::nullopt;
  Site.Helper = Def;
  // What the caller's arguments bring into the helper's masks.
  for (unsigned P = 0; P < Def->getNumParams(); ++P)
    if (const Expr *Arg = argumentForParameter(Call, Def, P);
        Arg && (Sum->MaskSources & parameterDep(P))) {
      if (const auto *Default = dyn_cast<CXXDefaultArgExpr>(Arg))
        Arg = Default->getExpr();
      Site.MaskSources |= deps(Arg, S) & ~ThreadVarying;
    }
  if (Sum->RequiredLanes) {
    Site.Witness = Sum->Witness;
    Site.Intrinsic = Sum->WitnessIntrinsic;
    Site.Required = Sum->RequiredLanes;
    Site.GroupSize = Sum->GroupSize;
    Site.ReadWidth = readWidthAtCall(Call, Def, Sum->ReadWidth, Sum->XorParameter, Ctx);
  } else if (Sum->MaskParameter >= 0) {
    // A wrapper whose mask is its parameter: the argument (or the
    // parameter's default) is the mask, as if written here.
    unsigned Index = static_cast<unsigned>(Sum->MaskParameter);
    const Expr *Mask = argumentForParameter(Call, Def, Index);
    if (const auto *Default = dyn_cast_or_null<CXXDefaultArgExpr>(Mask))
      Mask = Default->getExpr();
    if (!Mask)
      return std::nullopt;
    Site.Witness = Sum->MaskWitness;
    Site.Intrinsic = Sum->MaskWitnessIntrinsic;
    Site.ReadWidth = readWidthAtCall(Call, Def, Sum->MaskReadWidth, Sum->MaskXorParameter, Ctx);
    Site.MaskExpr = Mask;
    // A mask known here only as a value of this function (a ballot's lanes,
    // a computed local) keeps the site: checks judge where it comes from.
    if (std::optional<uint32_t> M = resolveMaskConstant(Mask, Ctx))
      Site.Required = LaneSet(*M);
    else
      Site.MaskParameter = unwrittenParameterIndex(Mask);
  } else if (Sum->MaskSources) {
    // A helper that computes its collective's mask from a parameter it
    // also writes: the mask is known to no caller, only where it comes from.
    Site.Witness = Sum->MaskSourceWitness;
    Site.Intrinsic = Sum->MaskSourceIntrinsic;
  } else {
    return std::nullopt;
  }
  // A thread-varying argument that decides, inside the helper, whether
  // the collective runs diverges the lanes there.
  for (unsigned P = 0; P < Def->getNumParams(); ++P)
    if (const Expr *Arg = argumentForParameter(Call, Def, P);
        Arg && (Sum->RequirementConditions & parameterDep(P)) && (deps(Arg, S) & ThreadVarying) &&
        !argumentKeepsHelperConverged(Def, *Sum, Call, S, P)) {
      DivergenceSource Src;
      Src.Kind = DivergenceSource::Argument;
      Src.Condition = Arg;
      Site.Divergence.push_back(Src);
      Site.DataDecided = true;
      Site.Must = LaneSet::none();
    }
  return Site;
}

/// A thread-varying argument \p P that decides, inside helper \p Def,
/// whether lanes reach its collective: still fine when every such branch
/// of the helper is uniform once the parameters hold the caller's
/// arguments (`if (tid / 32 < 4)` called with threadIdx.x).
bool FunctionUniformity::Impl::argumentKeepsHelperConverged(const FunctionDecl *Def,
                                                            const FunctionSummary &Sum,
                                                            const CallExpr *Call, const State &S,
                                                            unsigned P) {
  UniformityRef Callee = Cache.analysis(Def);
  if (!Callee || Sum.RequirementBranches.empty())
    return false;
  Impl &C = *Callee->P;
  SymbolicView CallerView(*this, S, Call);
  SymbolicTranslator CallerSide(Ctx, Cache.terms(), CallerView, Opts.AssumeWarpAlignedBlocks);
  llvm::DenseMap<const ParmVarDecl *, TermRef> Bindings;
  for (unsigned I = 0; I < Def->getNumParams(); ++I)
    if (const Expr *Arg = argumentForParameter(Call, Def, I);
        Arg && !C.isMutated(Def->getParamDecl(I)))
      Bindings[Def->getParamDecl(I)] = CallerSide.translate(Arg);
  for (const auto &[Cond, ID] : Sum.RequirementBranches) {
    if (ID >= C.BranchDeps.size() || !(C.BranchDeps[ID] & parameterDep(P)))
      continue;
    const CFGBlock *B = C.blockByID(ID);
    if (!B)
      return false;
    State End = C.transferBlock(B, C.In[ID]);
    SymbolicView CalleeView(C, End, B->getTerminatorStmt());
    CalleeView.Bindings = Bindings;
    SymbolicTranslator CalleeSide(Ctx, Cache.terms(), CalleeView, Opts.AssumeWarpAlignedBlocks);
    TermRef Term = CalleeSide.translate(Cond);
    if (Prover.sameInGroup(Term, Sum.GroupSize) != UniformityProver::Answer::Uniform)
      return false;
  }
  return true;
}

/// The index of the parameter of this function that \p E reads, when the
/// function never writes it; -1 otherwise.
int FunctionUniformity::Impl::unwrittenParameterIndex(const Expr *E) const {
  const auto *Ref = E ? dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()) : nullptr;
  const auto *Parm = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
  if (!Parm || isMutated(Parm) || Parm->getDeclContext() != FD)
    return -1;
  return static_cast<int>(Parm->getFunctionScopeIndex());
}

/// A warp collective, or a call of a helper of this unit containing one.
bool FunctionUniformity::Impl::mayBeCollective(const Stmt *Call) {
  if (const auto *Asm = dyn_cast<GCCAsmStmt>(Call))
    return asmCollectiveNeedingLanes(Asm).has_value();
  if (recogniseCollective(cast<CallExpr>(Call)))
    return true;
  // A kernel launched from device code runs in warps of its own grid.
  if (isa<CUDAKernelCallExpr>(Call))
    return false;
  const FunctionDecl *Def = definitionOf(cast<CallExpr>(Call)->getDirectCallee());
  return Def && Def != FD && !isInSystemHeader(Def, Ctx) && Cache.containsCollective(Def);
}

/// Which way the site's shuffle reads: `shfl_up` reads lower lanes,
/// `shfl_down` higher ones; None for other collectives and helpers.
static ShuffleDirection readDirection(const CollectiveSite &Site) {
  return Site.Intrinsic && !Site.Helper ? Site.Intrinsic->Direction : ShuffleDirection::None;
}

/// The lanes that must agree on the way to \p Site: its tile's, or the
/// lanes a constant mask names (`if (lane < 16)` around a loop whose bound
/// is the same for lanes 0-15, then a shuffle with 0x0000ffff).
/// A branch that keeps the named lanes together lets them all arrive only if
/// some of them can arrive at all: when none can (`lane < 16` around a call
/// naming lanes 16-31), the whole warp's branches say who is missing.
static LaneGroup neededGroup(const CollectiveSite &Site) {
  if (Site.GroupSize < 32 || !Site.Required || Site.Required->isAll() ||
      (Site.May & *Site.Required).isEmpty())
    return LaneGroup(Site.GroupSize);
  return LaneGroup(32, Site.Required->bits());
}

void FunctionUniformity::Impl::collectSites() {
  // Blocks in source order keep diagnostics stable.
  // Calls, and inline asm statements (PTX collectives).
  std::vector<std::pair<const Stmt *, const CFGBlock *>> Calls;
  for (const CFGBlock *B : *Cfg)
    for (const CFGElement &E : *B)
      if (std::optional<CFGStmt> CS = E.getAs<CFGStmt>())
        if (isa<CallExpr, GCCAsmStmt>(CS->getStmt()))
          if (BlockOf.lookup(CS->getStmt()) == B)
            Calls.push_back({CS->getStmt(), B});
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::sort(Calls, [&](const auto &A, const auto &B) {
    return SM.isBeforeInTranslationUnit(A.first->getBeginLoc(), B.first->getBeginLoc());
  });
  // Most calls are neither collectives nor helpers containing one; drop
  // them before paying for the state replay. Every collective's block is
  // known before any site is judged: whether lanes that leave a branch
  // exit depends on the collectives they could still reach.
  llvm::erase_if(Calls, [&](const auto &Entry) { return !mayBeCollective(Entry.first); });
  CollectiveBlocks.resize(NumBlocks);
  for (auto [Call, B] : Calls)
    CollectiveBlocks.set(B->getBlockID());
  std::vector<const CFGBlock *> SiteBlocks;
  for (auto [Call, B] : Calls) {
    // Unreachable blocks have no lanes at all.
    if (May[B->getBlockID()].isEmpty())
      continue;
    std::optional<State> S = stateBefore(Call);
    if (!S)
      continue;
    std::optional<CollectiveSite> Site = makeSite(Call, B, *S);
    if (!Site)
      continue;
    bool Data = false;
    // A tile's collective, or one whose mask names only some lanes: only
    // branches that split those lanes count (an argument deciding inside a
    // helper already did).
    LaneGroup Group = neededGroup(*Site);
    if (!Group.isWarp() && Site->Divergence.empty())
      Site->Must = mustThrough(B->getBlockID(), Group);
    for (DivergenceSource &Src :
         sourcesFor(B, Data, Group, Site->ReadWidth, readDirection(*Site))) {
      if (!Site->InnermostCondition)
        Site->InnermostCondition = Src.Condition;
      if (Src.Kind == DivergenceSource::EarlyExit)
        Site->EarlyExits.push_back(Src);
      else
        Site->Divergence.push_back(Src);
    }
    // Which lanes arrive at all is a question about the whole warp: a
    // condition that keeps the named lanes together (`lane < 8` around a
    // call with mask 0xf, data read at the half-warp's row) still decides
    // whether the others get there too.
    if (!Group.isWarp()) {
      llvm::SmallVector<DivergenceSource, 2> WarpWide = sourcesFor(B, Data);
      if (!Site->InnermostCondition && !WarpWide.empty())
        Site->InnermostCondition = WarpWide.front().Condition;
    }
    Site->DataDecided |= Data;
    for (unsigned ID : Controls[B->getBlockID()].set_bits())
      Site->ParamConditions |= BranchDeps[ID] & ~ThreadVarying;
    Sites.push_back(*Site);
    SiteBlocks.push_back(B);
  }
  // The Volta+ pattern needs all sites known first.
  for (size_t I = 0; I < Sites.size(); ++I) {
    CollectiveSite &Site = Sites[I];
    if (Site.Divergence.empty() || !Site.Required)
      continue;
    llvm::BitVector Match(NumBlocks);
    for (size_t J = 0; J < Sites.size(); ++J) {
      const CollectiveSite &Other = Sites[J];
      if (Other.Required != Site.Required || Other.Helper != Site.Helper)
        continue;
      if (!Site.Helper && (!Other.Intrinsic || Other.Intrinsic->Name != Site.Intrinsic->Name))
        continue;
      Match.set(SiteBlocks[J]->getBlockID());
    }
    Site.CoveredOnEveryPath = coveredOnEveryPath(SiteBlocks[I], Site, Match);
  }
}

} // namespace warp_tidy
