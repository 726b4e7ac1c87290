//===--- WarpAnalysisCache.cpp - Per-TU cache and summaries -----------------===//
//
// The per-translation-unit cache of analyses (one per ASTContext and option
// set), the cheap traits that decide whether a function is analysed at all,
// the order of analysis (callees first, by the SCCs of the call graph;
// recursive cycles iterated to a fixpoint of their summaries), and
// FunctionUniformity::Impl::summarise, which writes what callers need to know.
//
//===----------------------------------------------------------------------===//

#include "ast/AstQueries.h"
#include "ast/FieldConstruction.h"
#include "ast/LocalWrites.h"
#include "ast/ThreadIndex.h"
#include "ast/UnitContext.h"
#include "intrinsics/CollectiveCalls.h"
#include "intrinsics/WarpCollective.h"
#include "intrinsics/WarpIntrinsics.h"
#include "launch/LaunchFacts.h"
#include "symbolic/SymbolicTerm.h"
#include "symbolic/SymbolicTranslation.h"
#include "symbolic/UniformityProver.h"
#include "uniformity/FunctionAnalysis.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/Analysis/CallGraph.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SCCIterator.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdlib>
#include <map>
#include <mutex>
#include <tuple>

using namespace clang;

namespace warp_tidy {
using namespace uniformity_detail;

//===----------------------------------------------------------------------===//
// Function summaries
//===----------------------------------------------------------------------===//

void FunctionUniformity::Impl::summarise() {
  for (const CollectiveSite &Site : Sites) {
    if (Site.MaskSources && !Summary.MaskSources) {
      Summary.MaskSourceWitness = Site.Witness;
      Summary.MaskSourceIntrinsic = Site.Intrinsic;
    }
    Summary.MaskSources |= Site.MaskSources;
    if (!Site.Required && Site.MaskParameter >= 0 && Site.Divergence.empty() &&
        Site.EarlyExits.empty() && Summary.MaskParameter < 0) {
      Summary.MaskParameter = Site.MaskParameter;
      Summary.MaskWitness = Site.Witness;
      Summary.MaskWitnessIntrinsic = Site.Intrinsic;
      Summary.MaskReadWidth = Site.ReadWidth;
      Summary.MaskXorParameter = Site.XorParameter;
    }
    if (!Site.Required || !Site.Divergence.empty())
      continue; // judged (and reported) here, not at the callers
    bool Shuffle = Site.Intrinsic && (Site.Intrinsic->Kind == CollectiveKind::Shuffle ||
                                      Site.Intrinsic->Direction != ShuffleDirection::None);
    if (!Site.EarlyExits.empty() && Shuffle)
      continue;
    LaneSet Lanes = *Site.Required;
    if (Lanes.isEmpty())
      continue;
    if (!Summary.RequiredLanes) {
      Summary.Witness = Site.Witness;
      Summary.WitnessIntrinsic = Site.Intrinsic;
      Summary.RequiredLanes = Lanes;
      Summary.GroupSize = Site.GroupSize;
      Summary.ReadWidth = Site.ReadWidth;
      Summary.XorParameter = Site.XorParameter;
    } else {
      Summary.RequiredLanes = *Summary.RequiredLanes | Lanes;
      Summary.GroupSize = std::max(Summary.GroupSize, Site.GroupSize);
      Summary.ReadWidth = std::max(Summary.ReadWidth, Site.ReadWidth);
      if (Summary.XorParameter != Site.XorParameter)
        Summary.XorParameter = -1;
    }
    Summary.RequirementConditions |= Site.ParamConditions;
    if (const CFGBlock *B = BlockOf.lookup(Site.At))
      for (unsigned ID : Controls[B->getBlockID()].set_bits())
        if ((BranchDeps[ID] & ~ThreadVarying) && BranchCond[ID] &&
            !llvm::is_contained(Summary.RequirementBranches, std::make_pair(BranchCond[ID], ID)))
          Summary.RequirementBranches.push_back({BranchCond[ID], ID});
  }
  // What the function leaves in its non-const reference parameters: the
  // value flowing into the exit block.
  const State &AtExit = In[Cfg->getExit().getBlockID()];
  for (const ParmVarDecl *P : FD->parameters()) {
    std::optional<ValueDeps> Out;
    QualType T = P->getType();
    if (T->isReferenceType() && !T.getNonReferenceType().isConstQualified()) {
      auto It = VarIndex.find(P);
      Out = It != VarIndex.end() && It->second < AtExit.size() ? AtExit[It->second] : ThreadVarying;
    }
    Summary.ReferenceOut.push_back(Out);
  }
  // What the function returns: the values, plus which lanes return where.
  ValueDeps Ret = 0;
  bool AnyReturn = false;
  bool FieldsSeen = false, FieldsKnown = true;
  for (const CFGBlock *B : *Cfg) {
    State S = In[B->getBlockID()];
    for (const CFGElement &E : *B) {
      std::optional<CFGStmt> CS = E.getAs<CFGStmt>();
      if (!CS)
        continue;
      if (const auto *R = dyn_cast<ReturnStmt>(CS->getStmt())) {
        AnyReturn = true;
        ValueDeps Where = divergentControls(B).any() ? ThreadVarying : 0;
        for (unsigned ID : Controls[B->getBlockID()].set_bits())
          Where |= BranchDeps[ID] & ~ThreadVarying;
        Ret |= deps(R->getRetValue(), S) | Where;
        llvm::SmallVector<ValueDeps, 4> Fields = returnedFields(R->getRetValue(), S);
        if (Fields.empty() || (FieldsSeen && Fields.size() != Summary.ReturnFields.size()))
          FieldsKnown = false;
        else if (!FieldsSeen)
          Summary.ReturnFields = Fields;
        else
          for (unsigned I = 0; I < Fields.size(); ++I)
            Summary.ReturnFields[I] |= Fields[I];
        for (ValueDeps &F : Summary.ReturnFields)
          F |= Where;
        FieldsSeen = true;
      }
      transferStmt(CS->getStmt(), S, B->getBlockID());
    }
  }
  Summary.ReturnDeps = AnyReturn ? Ret : 0;
  if (!FieldsKnown)
    Summary.ReturnFields.clear();
}

//===----------------------------------------------------------------------===//
// WarpAnalysisCache
//===----------------------------------------------------------------------===//

namespace {
/// The unit's caches, one per value of the options that change answers,
/// kept in its UnitContext.
struct AnalysisCaches {
  std::unique_ptr<WarpAnalysisCache> ByAlignment[2];
};
} // namespace

WarpAnalysisCache &WarpAnalysisCache::get(ASTContext &Ctx, const UniformityOptions &Opts) {
  std::unique_ptr<WarpAnalysisCache> &Slot =
      UnitContext::of(Ctx).get<AnalysisCaches>().ByAlignment[Opts.AssumeWarpAlignedBlocks];
  if (!Slot)
    Slot = std::make_unique<WarpAnalysisCache>(Ctx, Opts);
  return *Slot;
}

namespace {
/// Every unit's function analyses, printed at exit next to the prover's
/// counters (WARP_TIDY_SOLVER_STATS): what the bounded memory costs in
/// recomputation, and a check that a traversal reaches each function once
/// (a PCH-backed parse must do the plain parse's work, no more).
struct AnalysisTotals {
  std::mutex Mutex;
  unsigned Run = 0;
  unsigned Recomputed = 0;
  ~AnalysisTotals() {
    if (getenv("WARP_TIDY_SOLVER_STATS"))
      llvm::errs() << "warp-tidy analyses: " << Run << " function analyses (" << Recomputed
                   << " recomputed after eviction)\n";
  }
};
AnalysisTotals &analysisTotals() {
  static AnalysisTotals Totals;
  return Totals;
}
} // namespace

WarpAnalysisCache::WarpAnalysisCache(ASTContext &Ctx, const UniformityOptions &Opts)
    : Ctx(Ctx), Opts(Opts) {}
WarpAnalysisCache::~WarpAnalysisCache() {
  AnalysisTotals &Totals = analysisTotals();
  std::lock_guard<std::mutex> Lock(Totals.Mutex);
  Totals.Run += AnalysesRun;
  Totals.Recomputed += Recomputations;
}

TermBuilder &WarpAnalysisCache::terms() {
  if (!Terms)
    Terms = std::make_unique<TermBuilder>();
  return *Terms;
}

LaunchFacts &WarpAnalysisCache::launchFacts() { return LaunchFacts::of(Ctx); }

FieldStores &WarpAnalysisCache::fieldStores() { return FieldStores::of(Ctx); }

UniformityProver &WarpAnalysisCache::prover() {
  if (!Prover)
    Prover = std::make_unique<UniformityProver>(Opts.AssumeWarpAlignedBlocks);
  return *Prover;
}

const WarpAnalysisCache::DirectFacts &WarpAnalysisCache::directFacts(const FunctionDecl *Def) {
  auto It = DirectCache.find(Def);
  if (It != DirectCache.end())
    return It->second;
  bool System = isInSystemHeader(Def, Ctx);
  DirectFacts D;
  // Walk the body once; callees are only listed (traits() follows them).
  llvm::SmallVector<const Stmt *, 32> Stack = {Def->getBody()};
  while (!Stack.empty()) {
    const Stmt *S = Stack.pop_back_val();
    if (!S)
      continue;
    // classifyBuiltinIndex finds threadIdx.x only in a member or property
    // reference; on anything else (parentheses, casts, the property's
    // pseudo-object) it looks through to such a node, which this walk
    // visits too. Asking only there gives the same Varying.
    if (isa<MemberExpr, MSPropertyRefExpr>(S)) {
      BuiltinIndex BI = classifyBuiltinIndex(cast<Expr>(S));
      if (BI == BuiltinIndex::ThreadIdxX ||
          ((BI == BuiltinIndex::ThreadIdxY || BI == BuiltinIndex::ThreadIdxZ) &&
           !Opts.AssumeWarpAlignedBlocks))
        D.Varying = true;
    }
    if (const auto *Asm = dyn_cast<GCCAsmStmt>(S)) {
      std::string Text = Asm->getAsmString();
      if (isLaneVaryingAsm(Text.data(), Text.size()))
        D.Varying = true;
      // PTX collectives count as the intrinsics do; activemask is a
      // thread-varying source.
      for (const WarpCollective &C : warpCollectivesAt(Asm)) {
        if (C.Intrinsic->Kind == CollectiveKind::ActiveMask)
          D.Varying = true;
        else if (!System)
          D.Collective = true;
      }
    }
    if (const auto *Call = dyn_cast<CallExpr>(S)) {
      const FunctionDecl *Callee = Call->getDirectCallee();
      if (const WarpIntrinsic *I = classifyCallee(Callee)) {
        if (I->Kind == CollectiveKind::ActiveMask)
          D.Varying = true;
        else if (!System)
          D.Collective = true;
      } else if (isThreadVaryingSourceCall(Callee)) {
        D.Varying = true;
      } else if (Callee && !isa<CUDAKernelCallExpr>(Call)) {
        // A launch (dynamic parallelism) starts a grid of its own: the
        // kernel's collectives run in its warps, not in the launching one.
        const FunctionDecl *CalleeDef = definitionOf(Callee);
        if (CalleeDef && CalleeDef != Def && !llvm::is_contained(D.Callees, CalleeDef))
          D.Callees.push_back(CalleeDef);
      }
    }
    // Lambdas are functions of their own; their bodies are analysed when
    // the lambda's call operator is. A discarded `if constexpr` branch is
    // never compiled: what it calls does not count.
    if (isa<LambdaExpr>(S))
      continue;
    const Stmt *Discarded = discardedBranch(S);
    for (const Stmt *Child : S->children())
      if (Child != Discarded)
        Stack.push_back(Child);
  }
  return DirectCache[Def] = std::move(D);
}

WarpAnalysisCache::Traits WarpAnalysisCache::traits(const FunctionDecl *FD) {
  // The hit path, asked for every matched call: one lookup. A definition is
  // its own definitionOf, and any other declaration is remembered with its
  // definition's answer (the AST no longer changes).
  auto Hit = TraitsCache.find(FD);
  if (Hit != TraitsCache.end())
    return Hit->second;
  Traits T = traitsOfDefinition(definitionOf(FD));
  if (FD)
    TraitsCache[FD] = T;
  return T;
}

WarpAnalysisCache::Traits WarpAnalysisCache::traitsOfDefinition(const FunctionDecl *Def) {
  if (!Def)
    return Traits();
  auto It = TraitsCache.find(Def);
  if (It != TraitsCache.end())
    return It->second;
  // What the functions reachable from Def do: a reachability question over
  // the calls, so the members of a recursive cycle all get the same answer
  // whatever the order in which they are asked (a recursive walk that gave
  // a function on its own stack nothing would not). Collectives count only
  // along calls within user code (system headers are not judged);
  // thread-varying sources count through any function.
  bool DefSystem = isInSystemHeader(Def, Ctx);
  bool HasCollective = false, HasVarying = false;
  llvm::SmallPtrSet<const FunctionDecl *, 16> SeenOnUserPath, SeenOtherwise;
  llvm::SmallVector<std::pair<const FunctionDecl *, bool>, 16> Work = {{Def, !DefSystem}};
  while (!Work.empty() && !(HasCollective && HasVarying)) {
    auto [F, UserPath] = Work.pop_back_val();
    if (!(UserPath ? SeenOnUserPath : SeenOtherwise).insert(F).second)
      continue;
    auto Known = TraitsCache.find(F);
    if (Known != TraitsCache.end()) {
      HasVarying |= Known->second.HasVaryingSource;
      HasCollective |= UserPath && Known->second.HasCollective;
      continue;
    }
    const DirectFacts &D = directFacts(F);
    HasVarying |= D.Varying;
    HasCollective |= UserPath && D.Collective;
    for (const FunctionDecl *Callee : D.Callees)
      Work.push_back({Callee, UserPath && !isInSystemHeader(Callee, Ctx)});
  }
  Traits &T = TraitsCache[Def];
  T.Known = true;
  T.HasCollective = HasCollective && !DefSystem;
  T.HasVaryingSource = HasVarying;
  return T; // a copy: the map may grow while callers look at it
}

bool WarpAnalysisCache::containsCollective(const FunctionDecl *FD) {
  return traits(FD).HasCollective;
}

bool WarpAnalysisCache::readsVaryingSource(const FunctionDecl *FD) {
  return traits(FD).HasVaryingSource;
}

UniformityRef WarpAnalysisCache::analysis(const FunctionDecl *FD) {
  const FunctionDecl *Def = definitionOf(FD);
  if (!Def)
    return nullptr;
  auto Pinned = PinnedAnalyses.find(Def);
  if (Pinned != PinnedAnalyses.end())
    return Pinned->second;
  for (size_t I = Recent.size(); I-- > 0;)
    if (Recent[I].first == Def) {
      UniformityRef A = Recent[I].second;
      remember(Def, A); // now the most recent
      return A;
    }
  // On the stack (a call the call graph did not show), or a member of the
  // cycle being iterated: no final analysis yet. Asked by another function's
  // analysis, that answer depends on the order of analysis.
  if (InProgress.lookup(Def) || Provisional.count(Def)) {
    if (Running.empty() || Running.back() != Def)
      ++OrderDependentAnswers;
    return nullptr;
  }
  auto Known = Done.find(Def);
  if (Known != Done.end())
    return Known->second == Outcome::Recomputable ? recompute(Def) : nullptr;
  Traits T = traits(Def);
  if (!T.HasCollective && !T.HasVaryingSource)
    return nullptr;
  analyseWithCallees(Def);
  Pinned = PinnedAnalyses.find(Def);
  if (Pinned != PinnedAnalyses.end())
    return Pinned->second;
  for (size_t I = Recent.size(); I-- > 0;)
    if (Recent[I].first == Def)
      return Recent[I].second;
  return nullptr;
}

const FunctionSummary *WarpAnalysisCache::summary(const FunctionDecl *FD) {
  const FunctionDecl *Def = definitionOf(FD);
  if (!Def)
    return nullptr;
  auto It = Provisional.find(Def);
  if (It != Provisional.end()) {
    ++OrderDependentAnswers;
    return It->second.get();
  }
  if (InProgress.lookup(Def)) {
    if (Running.empty() || Running.back() != Def)
      ++OrderDependentAnswers;
    return nullptr;
  }
  if (!Done.count(Def) && !analysis(Def))
    return nullptr;
  auto S = Summaries.find(Def);
  return S == Summaries.end() ? nullptr : S->second.get();
}

void WarpAnalysisCache::remember(const FunctionDecl *Def, UniformityRef A) {
  for (size_t I = 0; I < Recent.size(); ++I)
    if (Recent[I].first == Def) {
      Recent.erase(Recent.begin() + I);
      break;
    }
  if (Recent.size() >= RecentCapacity)
    Recent.erase(Recent.begin()); // the least recently used
  Recent.push_back({Def, std::move(A)});
}

void WarpAnalysisCache::store(const FunctionDecl *Def, UniformityRef A, bool Pin) {
  if (!A) {
    Done[Def] = Outcome::NotAnalysable;
    return;
  }
  Summaries[Def] = std::make_unique<FunctionSummary>(A->summary());
  Done[Def] = Pin ? Outcome::Pinned : Outcome::Recomputable;
  if (Pin)
    PinnedAnalyses[Def] = std::move(A);
  else
    remember(Def, std::move(A));
}

void WarpAnalysisCache::analyseOne(const FunctionDecl *Def) {
  unsigned OrderDependentBefore = OrderDependentAnswers;
  InProgress[Def] = true;
  Running.push_back(Def);
  ++AnalysesRun;
  auto P = std::make_unique<FunctionUniformity::Impl>(*this, Def);
  UniformityRef Result;
  if (P->run())
    Result.reset(new FunctionUniformity(std::move(P)));
  Running.pop_back();
  InProgress[Def] = false;
  store(Def, std::move(Result), OrderDependentAnswers != OrderDependentBefore);
}

UniformityRef WarpAnalysisCache::recompute(const FunctionDecl *Def) {
  // The same inputs as the first run: the callees' final summaries, and
  // Def itself in progress (a direct recursive call needs nothing).
  InProgress[Def] = true;
  Running.push_back(Def);
  ++AnalysesRun;
  ++Recomputations;
  auto P = std::make_unique<FunctionUniformity::Impl>(*this, Def);
  bool Ran = P->run();
  Running.pop_back();
  InProgress[Def] = false;
  if (!Ran) // cannot happen: it ran before on the same inputs
    return nullptr;
  UniformityRef Result(new FunctionUniformity(std::move(P)));
  remember(Def, Result);
  return Result;
}

void WarpAnalysisCache::analyseWithCallees(const FunctionDecl *Root) {
  // Without this order, the first function of a recursive cycle to be
  // asked for would see the others' calls as needing nothing (their
  // analysis is still on the stack), and which function that is depends on
  // source order. The graph covers the functions whose summaries callers
  // read: user code (system headers are only scanned for varying sources)
  // with a collective or a varying source, not analysed yet.
  CallGraph Graph;
  llvm::SmallPtrSet<const FunctionDecl *, 16> Needed;
  llvm::SmallVector<const FunctionDecl *, 16> Work = {Root};
  Needed.insert(Root);
  while (!Work.empty()) {
    const FunctionDecl *F = Work.pop_back_val();
    Graph.addToCallGraph(const_cast<FunctionDecl *>(F));
    const CallGraphNode *Node = Graph.getNode(F->getCanonicalDecl());
    if (!Node)
      continue;
    for (const CallGraphNode::CallRecord &Call : Node->callees()) {
      const Decl *CalleeDecl = Call.Callee ? Call.Callee->getDecl() : nullptr;
      const FunctionDecl *Def = definitionOf(CalleeDecl ? CalleeDecl->getAsFunction() : nullptr);
      if (!Def || Needed.count(Def) || Done.count(Def) || InProgress.lookup(Def) ||
          Provisional.count(Def) || isInSystemHeader(Def, Ctx))
        continue;
      Traits T = traits(Def);
      if (!T.HasCollective && !T.HasVaryingSource)
        continue;
      Needed.insert(Def);
      Work.push_back(Def);
    }
  }
  const CallGraphNode *RootNode = Graph.getNode(Root->getCanonicalDecl());
  if (!RootNode) {
    analyseOne(Root);
    return;
  }
  const SourceManager &SM = Ctx.getSourceManager();
  // Post-order over the components: callees before their callers.
  for (auto SCC = llvm::scc_begin(RootNode); !SCC.isAtEnd(); ++SCC) {
    llvm::SmallVector<const FunctionDecl *, 4> Members;
    for (const CallGraphNode *N : *SCC) {
      const Decl *D = N->getDecl();
      const FunctionDecl *Def = definitionOf(D ? D->getAsFunction() : nullptr);
      if (Def && Needed.count(Def) && !Done.count(Def))
        Members.push_back(Def);
    }
    if (Members.empty())
      continue;
    // Direct self-recursion is handled inside the analysis (a call of the
    // function itself is as varying as its arguments and needs nothing).
    if (Members.size() == 1) {
      analyseOne(Members.front());
      continue;
    }
    // Source order keeps the witness of each summary stable.
    llvm::sort(Members, [&](const FunctionDecl *A, const FunctionDecl *B) {
      return SM.isBeforeInTranslationUnit(A->getLocation(), B->getLocation());
    });
    analyseCycle(Members);
  }
  // A root the graph could not place (never expected) still gets analysed.
  if (!Done.count(Root))
    analyseOne(Root);
}

/// The least summary that is at least \p A and \p B.
static FunctionSummary joinSummaries(const FunctionSummary &A, const FunctionSummary &B) {
  FunctionSummary J = A;
  if (!A.RequiredLanes) {
    J.RequiredLanes = B.RequiredLanes;
    J.Witness = B.Witness;
    J.WitnessIntrinsic = B.WitnessIntrinsic;
  } else if (B.RequiredLanes) {
    J.RequiredLanes = *A.RequiredLanes | *B.RequiredLanes;
  }
  J.RequirementConditions |= B.RequirementConditions;
  J.ReturnDeps |= B.ReturnDeps;
  return J;
}

static bool sameSummary(const FunctionSummary &A, const FunctionSummary &B) {
  return A.RequiredLanes == B.RequiredLanes && A.RequirementConditions == B.RequirementConditions &&
         A.ReturnDeps == B.ReturnDeps;
}

void WarpAnalysisCache::analyseCycle(llvm::ArrayRef<const FunctionDecl *> Members) {
  // Start from the least summary (needs no lanes, returns a uniform value)
  // and re-analyse every member with the others' current summaries until
  // none changes: the least fixed point, so a collective anywhere in the
  // cycle reaches every member's summary whatever the source order.
  for (const FunctionDecl *M : Members) {
    auto Bottom = std::make_unique<FunctionSummary>();
    Bottom->ReturnDeps = 0;
    Provisional[M] = std::move(Bottom);
  }
  std::vector<std::unique_ptr<FunctionUniformity>> Latest(Members.size());
  // Termination: a provisional summary only ever grows (it is joined with
  // each new result), within a finite lattice (a 32-lane set, two 64-bit
  // sets), and a round is repeated only when some summary grew or a member
  // turned out not to be analysable (once per member). So the rounds are
  // bounded by the members' total lattice height. When a round changes
  // nothing, every analysis of that round read the final summaries.
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (size_t I = 0; I < Members.size(); ++I) {
      const FunctionDecl *M = Members[I];
      if (!Provisional.count(M))
        continue; // not analysable: callers see no summary
      InProgress[M] = true;
      Running.push_back(M);
      ++AnalysesRun;
      auto P = std::make_unique<FunctionUniformity::Impl>(*this, M);
      bool Ran = P->run();
      Running.pop_back();
      InProgress[M] = false;
      if (!Ran) {
        Latest[I].reset();
        Provisional.erase(M);
        store(M, nullptr, true);
        Changed = true;
        continue;
      }
      // Looked up again: analyses run above may have added entries.
      FunctionSummary &Current = *Provisional.find(M)->second;
      FunctionSummary Joined = joinSummaries(Current, P->Summary);
      if (!sameSummary(Joined, Current)) {
        Current = Joined;
        Changed = true;
      }
      Latest[I].reset(new FunctionUniformity(std::move(P)));
    }
  }
  for (size_t I = 0; I < Members.size(); ++I) {
    auto Slot = Provisional.find(Members[I]);
    if (Slot == Provisional.end() || !Latest[I])
      continue;
    // The fixed point itself (at least what the last round computed).
    Latest[I]->P->Summary = *Slot->second;
    Provisional.erase(Slot);
    // Pinned: a recomputation would not see the cycle's provisional
    // summaries that this result was computed with.
    store(Members[I], UniformityRef(std::move(Latest[I])), true);
  }
}

} // namespace warp_tidy
