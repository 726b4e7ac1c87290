//===--- Uniformity.cpp - Which lanes of a warp reach each collective -----===//
//
// The order of the analysis steps (Impl::run), the public FunctionUniformity
// queries over their results, and the helpers the steps share. The steps
// themselves live under uniformity/, one file each; FunctionAnalysis.h there
// declares the state they share and maps which file does what.
//
// Impl::run() builds the CFG, then alternates the value dataflow and the
// divergent-branch computation until the set of divergent branches is stable
// (assignments under divergent control make values varying, which can make
// more branches divergent), then computes lane sets and the collective sites.
//
//===----------------------------------------------------------------------===//

#include "uniformity/Uniformity.h"
#include "ast/AstQueries.h"
#include "ast/LocalWrites.h"
#include "ast/ThreadIndex.h"
#include "intrinsics/CollectiveCalls.h"
#include "intrinsics/WarpIntrinsics.h"
#include "symbolic/SymbolicTerm.h"
#include "symbolic/SymbolicTranslation.h"
#include "symbolic/UniformityProver.h"
#include "uniformity/FunctionAnalysis.h"
#include "uniformity/SymbolicView.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;

namespace warp_tidy {
using namespace uniformity_detail;

//===----------------------------------------------------------------------===//
// Small helpers
//===----------------------------------------------------------------------===//

namespace uniformity_detail {

bool isInSystemHeader(const Decl *D, const ASTContext &Ctx) {
  SourceLocation Loc = D->getLocation();
  return Loc.isValid() && Ctx.getSourceManager().isInSystemHeader(Loc);
}

/// The definition with a body we can analyse, or null.
const FunctionDecl *definitionOf(const FunctionDecl *FD) {
  if (!FD)
    return nullptr;
  const FunctionDecl *Def = nullptr;
  if (!FD->hasBody(Def) || !Def || !Def->getBody())
    return nullptr;
  if (Def->isDependentContext())
    return nullptr;
  return Def;
}

} // namespace uniformity_detail

namespace uniformity_detail {

/// Lanes of every N-lane tile that intersects \p Lanes.
LaneSet tilesTouching(LaneSet Lanes, unsigned N) {
  if (N >= 32 || N == 0)
    return Lanes.isEmpty() ? LaneSet::none() : LaneSet::all();
  uint32_t Out = 0;
  uint32_t Group = N == 32 ? ~0u : ((1u << N) - 1u);
  for (unsigned Start = 0; Start < 32; Start += N)
    if (Lanes.bits() & (Group << Start))
      Out |= Group << Start;
  return LaneSet(Out);
}

} // namespace uniformity_detail

//===----------------------------------------------------------------------===//
// The per-function analysis
//===----------------------------------------------------------------------===//

bool FunctionUniformity::Impl::run() {
  CFG::BuildOptions BO;
  BO.setAllAlwaysAdd();
  BO.AddImplicitDtors = false;
  BO.AddTemporaryDtors = false;
  BO.AddInitializers = false;
  BO.PruneTriviallyFalseEdges = true;
  Cfg = CFG::buildCFG(FD, FD->getBody(), &Ctx, BO);
  if (!Cfg)
    return false;
  NumBlocks = Cfg->getNumBlockIDs();
  ByID.assign(NumBlocks, nullptr);
  for (const CFGBlock *B : *Cfg)
    ByID[B->getBlockID()] = B;
  PostDom = std::make_unique<CFGPostDomTree>(Cfg.get());

  indexStatements();
  Writes = &localWritesOfBody(FD);
  computeControls();

  // Values and divergent branches feed each other: a branch found
  // divergent taints what is assigned under it, which can make a later
  // branch divergent, one link of a chain per round. So iterate until the
  // set stops growing, however long the chain.
  // Termination: updateDivergence() only ever sets bits of Divergent
  // (never clears one) and returns true only when it set a new one, so
  // every round that continues adds at least one of the NumBlocks blocks:
  // at most NumBlocks + 1 rounds. solveValues() itself terminates because
  // its states only grow (bitwise or) in a finite lattice.
  // The round that only confirms the set (the second one, mostly: a branch
  // on the lane that guards no assignment) is skipped when it would repeat
  // the last round step for step (roundWouldRepeat()).
  Divergent.resize(NumBlocks);
  ExitKind.resize(NumBlocks);
  LogTaint = true;
  while (true) {
    TaintLog.clear();
    TaintChanged = false;
    LockstepLog.clear();
    LockstepChanged = false;
    ++Rounds;
    solveValues();
    if (!updateDivergence() || roundWouldRepeat())
      break;
  }
  LogTaint = false;
  TaintLog.shrink_and_clear();
  LockstepLog.shrink_and_clear();
  solveLaneSets();
  solveMustSets();
  collectSites();
  summarise();
  return true;
}

//===----------------------------------------------------------------------===//
// FunctionUniformity
//===----------------------------------------------------------------------===//

FunctionUniformity::FunctionUniformity(std::unique_ptr<Impl> P) : P(std::move(P)) {}
FunctionUniformity::~FunctionUniformity() = default;

const FunctionDecl *FunctionUniformity::function() const { return P->FD; }

ValueDeps FunctionUniformity::dependencies(const Expr *E) const {
  if (!E)
    return 0;
  // The innermost enclosing statement the CFG knows about.
  const Stmt *Anchor = E;
  if (!P->BlockOf.count(Anchor))
    return ThreadVarying;
  std::optional<Impl::State> S = P->stateBefore(Anchor);
  if (!S)
    return ThreadVarying;
  return P->deps(E, *S);
}

static const CFGBlock *blockFor(const FunctionUniformity::Impl &P, const Stmt *S) {
  auto It = P.BlockOf.find(S);
  return It == P.BlockOf.end() ? nullptr : It->second;
}

LaneSet FunctionUniformity::mustReach(const Stmt *S) const {
  const CFGBlock *B = blockFor(*P, S);
  return B ? P->Must[B->getBlockID()] : LaneSet::none();
}

LaneSet FunctionUniformity::mayReach(const Stmt *S) const {
  const CFGBlock *B = blockFor(*P, S);
  return B ? P->May[B->getBlockID()] : LaneSet::none();
}

bool FunctionUniformity::provablyUnreachable(const Stmt *S) const {
  const CFGBlock *B = blockFor(*P, S);
  return B && P->May[B->getBlockID()].isEmpty();
}

bool FunctionUniformity::divergesBefore(const Stmt *S) const {
  const CFGBlock *B = blockFor(*P, S);
  if (!B)
    return true;
  // Backwards from the blocks that lead to B: a divergent branch among them
  // split the lanes on some path to S, whether or not they met again.
  llvm::BitVector Seen(P->Divergent.size());
  llvm::SmallVector<const CFGBlock *, 16> Work;
  auto Push = [&](const CFGBlock *X) {
    for (const CFGBlock::AdjacentBlock &Pred : X->preds())
      if (const CFGBlock *Q = Pred.getReachableBlock(); Q && !Seen.test(Q->getBlockID())) {
        Seen.set(Q->getBlockID());
        Work.push_back(Q);
      }
  };
  // The branches of `?:`, `&&` and `||` are selects: the lanes meet again
  // within the expression, and compilers predicate them.
  auto IsSelect = [](const CFGBlock *X) {
    const Stmt *T = X->getTerminatorStmt();
    if (const auto *BO = dyn_cast_or_null<BinaryOperator>(T))
      return BO->isLogicalOp();
    return isa_and_nonnull<AbstractConditionalOperator>(T);
  };
  Push(B);
  while (!Work.empty()) {
    const CFGBlock *X = Work.pop_back_val();
    if (P->Divergent.test(X->getBlockID()) && !IsSelect(X))
      return true;
    Push(X);
  }
  return false;
}

llvm::SmallVector<DivergenceSource, 2> FunctionUniformity::divergenceAt(const Stmt *S) const {
  const CFGBlock *B = blockFor(*P, S);
  if (!B)
    return {};
  bool Data = false;
  return P->sourcesFor(B, Data);
}

TermRef FunctionUniformity::symbolicValue(const Expr *E, const Stmt *At, unsigned Width) const {
  if (!E || !At)
    return nullptr;
  std::optional<Impl::State> S = P->stateBefore(At);
  if (!S)
    return nullptr;
  Impl::SymbolicView View(*P, *S, At);
  TermBuilder &Terms = P->Cache.terms();
  SymbolicTranslator Translator(P->Ctx, Terms, View, P->Opts.AssumeWarpAlignedBlocks);
  TermRef R = Translator.translate(E);
  return R ? Terms.cast(R, Width, /*Signed=*/false) : nullptr;
}

llvm::ArrayRef<CollectiveSite> FunctionUniformity::sites() const { return P->Sites; }

const FunctionSummary &FunctionUniformity::summary() const { return P->Summary; }

void FunctionUniformity::dump(llvm::raw_ostream &OS) const {
  const SourceManager &SM = P->Ctx.getSourceManager();
  OS << "uniformity of " << P->FD->getNameAsString() << " (" << P->NumBlocks << " blocks)\n";
  for (unsigned ID = 0; ID < P->NumBlocks; ++ID)
    if (ID < P->BranchCond.size() && P->BranchCond[ID]) {
      OS << "  branch B" << ID << " deps=" << P->BranchDeps[ID]
         << (P->Divergent.test(ID) ? " divergent" : "")
         << (P->ExitKind.test(ID) ? " early-exit" : "") << " at ";
      P->BranchCond[ID]->getBeginLoc().print(OS, SM);
      OS << "\n";
    }
  for (const CollectiveSite &S : P->Sites) {
    OS << "  site ";
    S.At->getBeginLoc().print(OS, SM);
    char Buf[96];
    snprintf(Buf, sizeof Buf, " required=%s must=0x%08x may=0x%08x",
             S.Required ? std::to_string(S.Required->bits()).c_str() : "?", S.Must.bits(),
             S.May.bits());
    OS << Buf << " divergent=" << S.Divergence.size() << " exits=" << S.EarlyExits.size()
       << (S.CoveredOnEveryPath ? " covered" : "") << "\n";
  }
}

} // namespace warp_tidy
