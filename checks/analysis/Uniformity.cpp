//===--- Uniformity.cpp - Which lanes of a warp reach each collective -----===//
//
// Structure (see the header for the idea):
//   Impl::run()          builds the CFG, then alternates the value dataflow
//                        and the divergent-branch computation until the set
//                        of divergent branches is stable (assignments under
//                        divergent control make values varying, which can
//                        make more branches divergent), then computes lane
//                        sets and the collective sites.
//   Impl::deps()         the value transfer for one expression.
//   Impl::indexForm()    recognises lane ids, threadIdx.x (+ warp-aligned
//                        offsets) and warp indices, for lane sets and for
//                        "threadIdx.x / 32 is uniform".
//   Impl::provedUniform() where the taint calls a branch condition
//                        thread-varying, writes it as a term (SymbolicView
//                        tells the translator what locals, induction
//                        variables and helpers stand for) and asks the
//                        UniformityProver whether two lanes of one warp (or
//                        N-lane tile) can disagree on it.
//   Impl::butterflyResults() full xor butterflies, whose result every lane
//                        holds alike.
//
//===----------------------------------------------------------------------===//

#include "Uniformity.h"
#include "AstQueries.h"
#include "CollectiveCalls.h"
#include "SymbolicTerm.h"
#include "SymbolicTranslation.h"
#include "ThreadIndex.h"
#include "LaunchFacts.h"
#include "UniformityProver.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Analysis/Analyses/Dominators.h"
#include "clang/Analysis/CFG.h"
#include "clang/Analysis/CallGraph.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SCCIterator.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/raw_ostream.h"
#include <deque>
#include <map>
#include <mutex>

using namespace clang;

namespace warp_tidy {

//===----------------------------------------------------------------------===//
// Small helpers
//===----------------------------------------------------------------------===//

static bool isInSystemHeader(const Decl *D, const ASTContext &Ctx) {
  SourceLocation Loc = D->getLocation();
  return Loc.isValid() && Ctx.getSourceManager().isInSystemHeader(Loc);
}

/// The definition with a body we can analyse, or null.
static const FunctionDecl *definitionOf(const FunctionDecl *FD) {
  if (!FD)
    return nullptr;
  const FunctionDecl *Def = nullptr;
  if (!FD->hasBody(Def) || !Def || !Def->getBody())
    return nullptr;
  if (Def->isDependentContext())
    return nullptr;
  return Def;
}

static std::optional<long long> constantValue(const Expr *E, const ASTContext &Ctx) {
  if (!E || E->isValueDependent() || E->isTypeDependent())
    return std::nullopt;
  Expr::EvalResult R;
  if (!E->EvaluateAsInt(R, Ctx, Expr::SE_NoSideEffects))
    return std::nullopt;
  const llvm::APSInt &V = R.Val.getInt();
  if (V.getSignificantBits() > 63)
    return std::nullopt;
  return V.getExtValue();
}

unsigned tileSizeOf(const Expr *Object) {
  if (!Object)
    return 0;
  QualType T = Object->IgnoreImpCasts()->getType().getNonReferenceType();
  if (const auto *PT = T->getAs<PointerType>())
    T = PT->getPointeeType();
  const auto *Spec =
      dyn_cast_or_null<ClassTemplateSpecializationDecl>(T->getAsCXXRecordDecl());
  if (!Spec || !Spec->getIdentifier() || !Spec->getName().contains("thread_block_tile"))
    return 0;
  const TemplateArgumentList &Args = Spec->getTemplateArgs();
  if (Args.size() == 0 || Args[0].getKind() != TemplateArgument::Integral)
    return 0;
  uint64_t N = Args[0].getAsIntegral().getZExtValue();
  return (N >= 1 && N <= 32) ? static_cast<unsigned>(N) : 0;
}

/// The tile size of a cooperative-groups tile member call or algorithm:
/// from the object (`tile.shfl(...)`, also when the member is static), the
/// first argument (`cg::reduce(tile, ...)`), or the size-templated base class
/// the member is declared in.
static unsigned tileSizeOfCall(const CallExpr *Call) {
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call))
    if (unsigned N = tileSizeOf(Member->getImplicitObjectArgument()))
      return N;
  if (const auto *ME = dyn_cast<MemberExpr>(Call->getCallee()->IgnoreParenImpCasts()))
    if (unsigned N = tileSizeOf(ME->getBase()))
      return N;
  if (const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Call->getDirectCallee())) {
    const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(Method->getParent());
    if (Spec && Spec->getIdentifier() && Spec->getName().contains("tile")) {
      const TemplateArgumentList &Args = Spec->getTemplateArgs();
      if (Args.size() > 0 && Args[0].getKind() == TemplateArgument::Integral) {
        uint64_t N = Args[0].getAsIntegral().getZExtValue();
        if (N >= 1 && N <= 32)
          return static_cast<unsigned>(N);
      }
    }
    return 0;
  }
  if (Call->getNumArgs() > 0)
    return tileSizeOf(Call->getArg(0));
  return 0;
}

/// Lanes of every N-lane tile that intersects \p Lanes.
static LaneSet tilesTouching(LaneSet Lanes, unsigned N) {
  if (N >= 32 || N == 0)
    return Lanes.isEmpty() ? LaneSet::none() : LaneSet::all();
  uint32_t Out = 0;
  uint32_t Group = N == 32 ? ~0u : ((1u << N) - 1u);
  for (unsigned Start = 0; Start < 32; Start += N)
    if (Lanes.bits() & (Group << Start))
      Out |= Group << Start;
  return LaneSet(Out);
}

//===----------------------------------------------------------------------===//
// The per-function analysis
//===----------------------------------------------------------------------===//

namespace {

/// How an integer expression relates to the thread's position in its warp.
struct IndexForm {
  enum FormKind {
    Other,
    Constant,    ///< Value
    Lane,        ///< exactly the lane id, 0..31
    ThreadX,     ///< threadIdx.x plus a warp-uniform multiple of 32
    WarpAligned, ///< warp-uniform multiple of 32 (not constant)
    WarpUniform, ///< warp-uniform by construction (warp index ...)
  };
  FormKind Kind = Other;
  long long Value = 0;
};

/// Lane sets on the two edges of a branch on a lane comparison.
struct LaneSplit {
  bool Uniform = false; ///< the comparison splits between warps only
  LaneSet TrueMust, TrueMay, FalseMust, FalseMay;
};

} // namespace

struct FunctionUniformity::Impl {
  Impl(WarpAnalysisCache &Cache, const FunctionDecl *FD)
      : Cache(Cache), Ctx(Cache.context()), FD(FD), Opts(Cache.options()) {}

  WarpAnalysisCache &Cache;
  ASTContext &Ctx;
  const FunctionDecl *FD;
  UniformityOptions Opts;

  std::unique_ptr<CFG> Cfg;
  std::unique_ptr<CFGPostDomTree> PostDom;
  std::unique_ptr<ControlDependencyCalculator> ControlDeps;
  unsigned NumBlocks = 0;
  std::vector<const CFGBlock *> ByID;

  llvm::DenseMap<const Stmt *, const CFGBlock *> BlockOf;
  llvm::DenseMap<const VarDecl *, unsigned> VarIndex;
  llvm::DenseMap<const VarDecl *, const VarDecl *> Alias;   // reference -> target
  llvm::DenseMap<const VarDecl *, const CFGBlock *> DeclBlock;
  llvm::DenseMap<const VarDecl *, const Stmt *> DeclPoint;  // its (CFG) DeclStmt
  llvm::DenseMap<const VarDecl *, const Expr *> SingleDef;  // never written after init
  llvm::DenseSet<const VarDecl *> Mutated;
  llvm::DenseSet<const VarDecl *> AsmLaneVars;

  using State = std::vector<ValueDeps>;
  std::vector<State> In;                  // by block ID
  std::vector<ValueDeps> BranchDeps;      // condition deps by block ID
  std::vector<const Expr *> BranchCond;   // by block ID
  llvm::BitVector Divergent;              // branch blocks with varying condition
  llvm::BitVector ExitKind;               // ... whose lanes never rejoin
  std::vector<llvm::BitVector> Controls;  // transitive control dependences
  std::vector<LaneSet> Must, May;         // at block entry

  std::vector<CollectiveSite> Sites;
  FunctionSummary Summary;

  //--- Entry point --------------------------------------------------------

  bool run() {
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
    ControlDeps = std::make_unique<ControlDependencyCalculator>(Cfg.get());

    indexStatements();
    scanMutations(FD->getBody());
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
    Divergent.resize(NumBlocks);
    ExitKind.resize(NumBlocks);
    do
      solveValues();
    while (updateDivergence());
    solveLaneSets();
    solveMustSets();
    collectSites();
    summarise();
    return true;
  }

  //--- Indexing -------------------------------------------------------------

  void addVar(const VarDecl *V, const CFGBlock *B) {
    if (!V->hasLocalStorage() || VarIndex.count(V))
      return;
    VarIndex[V] = VarIndex.size();
    DeclBlock[V] = B;
  }

  void indexStatements() {
    const CFGBlock *Entry = &Cfg->getEntry();
    for (const ParmVarDecl *P : FD->parameters())
      addVar(P, Entry);
    for (const CFGBlock *B : *Cfg) {
      for (const CFGElement &E : *B) {
        std::optional<CFGStmt> S = E.getAs<CFGStmt>();
        if (!S)
          continue;
        const Stmt *St = S->getStmt();
        BlockOf.try_emplace(St, B);
        if (const auto *DS = dyn_cast<DeclStmt>(St))
          for (const Decl *D : DS->decls())
            if (const auto *V = dyn_cast<VarDecl>(D)) {
              addVar(V, B);
              DeclPoint.try_emplace(V, DS);
              // A reference bound to a local is that local.
              if (V->getType()->isReferenceType() && V->getInit())
                if (const auto *Ref =
                        dyn_cast<DeclRefExpr>(V->getInit()->IgnoreParenImpCasts()))
                  if (const auto *T = dyn_cast<VarDecl>(Ref->getDecl()))
                    if (T->hasLocalStorage())
                      Alias[V] = resolve(T);
            }
      }
      if (const Stmt *T = B->getTerminatorStmt())
        BlockOf.try_emplace(T, B);
    }
  }

  const VarDecl *resolve(const VarDecl *V) const {
    for (unsigned I = 0; I < 8; ++I) {
      auto It = Alias.find(V);
      if (It == Alias.end())
        return V;
      V = It->second;
    }
    return V;
  }

  /// The local variable an lvalue expression stores into (x, s.f, a[i]).
  const VarDecl *rootVar(const Expr *E) const {
    for (unsigned Depth = 0; E && Depth < 16; ++Depth) {
      E = E->IgnoreParenImpCasts();
      if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
        const auto *V = dyn_cast<VarDecl>(Ref->getDecl());
        if (!V || !V->hasLocalStorage())
          return nullptr;
        // A reference parameter is tracked like a local: what the function
        // leaves in it is part of its summary (ReferenceOut).
        return resolve(V);
      }
      if (const auto *M = dyn_cast<MemberExpr>(E)) {
        if (M->isArrow())
          return nullptr;
        E = M->getBase();
        continue;
      }
      if (const auto *A = dyn_cast<ArraySubscriptExpr>(E)) {
        const Expr *Base = A->getBase()->IgnoreParenImpCasts();
        if (!Base->getType()->isArrayType())
          return nullptr;
        E = Base;
        continue;
      }
      return nullptr;
    }
    return nullptr;
  }

  /// Finds variables written after their initialisation (or whose address
  /// escapes), so that the others can be looked through by indexForm, and
  /// variables written by `mov %laneid` inline assembly.
  void scanMutations(const Stmt *S) {
    if (!S)
      return;
    auto Mark = [&](const Expr *E) {
      if (const VarDecl *V = rootVar(E))
        Mutated.insert(V);
    };
    if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
      if (BO->isAssignmentOp())
        Mark(BO->getLHS());
    } else if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
      if (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf)
        Mark(UO->getSubExpr());
    } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S)) {
      if (Op->isAssignmentOp() && Op->getNumArgs() > 0)
        Mark(Op->getArg(0));
    } else if (const auto *Asm = dyn_cast<GCCAsmStmt>(S)) {
      bool Lane = llvm::StringRef(Asm->getAsmString()).contains("%laneid");
      for (unsigned I = 0; I < Asm->getNumOutputs(); ++I)
        if (const VarDecl *V = rootVar(Asm->getOutputExpr(I))) {
          if (Lane && !V->getInit())
            AsmLaneVars.insert(V);
          else
            Mutated.insert(V);
        }
    } else if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D))
          if (V->getType()->isReferenceType() &&
              !V->getType().getNonReferenceType().isConstQualified() && V->getInit())
            Mark(V->getInit());
    }
    if (const auto *Call = dyn_cast<CallExpr>(S)) {
      if (const FunctionDecl *Callee = Call->getDirectCallee()) {
        unsigned Offset = isa<CXXOperatorCallExpr>(Call) && isa<CXXMethodDecl>(Callee) ? 1 : 0;
        for (unsigned I = Offset; I < Call->getNumArgs(); ++I) {
          unsigned P = I - Offset;
          if (P >= Callee->getNumParams())
            break;
          QualType PT = Callee->getParamDecl(P)->getType();
          if (PT->isReferenceType() && !PT.getNonReferenceType().isConstQualified())
            Mark(Call->getArg(I));
        }
      }
    }
    for (const Stmt *Child : S->children())
      scanMutations(Child);
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D))
          if (V->hasLocalStorage() && V->getInit())
            SingleDef[V] = V->getInit();
  }

  const Expr *singleDefinition(const VarDecl *V) const {
    if (Mutated.count(V))
      return nullptr;
    auto It = SingleDef.find(V);
    return It == SingleDef.end() ? nullptr : It->second;
  }

  //--- Control dependence ---------------------------------------------------

  void computeControls() {
    Controls.assign(NumBlocks, llvm::BitVector(NumBlocks));
    std::vector<llvm::SmallVector<unsigned, 4>> Direct(NumBlocks);
    for (CFGBlock *B : *Cfg)
      for (CFGBlock *D : ControlDeps->getControlDependencies(B)) {
        Direct[B->getBlockID()].push_back(D->getBlockID());
        Controls[B->getBlockID()].set(D->getBlockID());
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

  static bool hasReturn(const CFGBlock *B) {
    for (const CFGElement &E : *B)
      if (std::optional<CFGStmt> CS = E.getAs<CFGStmt>())
        if (isa<ReturnStmt>(CS->getStmt()))
          return true;
    return false;
  }

  /// An early exit: the lanes never meet again in this function (the
  /// branch's immediate post-dominator is the exit) and one side leaves
  /// through an explicit `return` on every path. Falling off the end of the
  /// function after an `if` is not an exit: those lanes are still running
  /// when the others reach the collective.
  bool isExitBranch(const CFGBlock *B) const {
    const CFGBlock *IPDom = postDominatorOf(B);
    if (IPDom && IPDom != &Cfg->getExit())
      return false;
    for (const CFGBlock *Succ : B->succs()) {
      if (!Succ)
        continue;
      bool AllReturn = true;
      llvm::BitVector Visited(NumBlocks);
      llvm::SmallVector<const CFGBlock *, 8> Stack = {Succ};
      while (!Stack.empty() && AllReturn) {
        const CFGBlock *X = Stack.pop_back_val();
        if (Visited.test(X->getBlockID()))
          continue;
        Visited.set(X->getBlockID());
        if (hasReturn(X))
          continue;
        if (X == &Cfg->getExit()) {
          AllReturn = false;
          break;
        }
        for (const CFGBlock *N : X->succs())
          if (N)
            Stack.push_back(N);
      }
      if (AllReturn)
        return true;
    }
    return false;
  }

  const CFGBlock *postDominatorOf(const CFGBlock *B) const {
    auto *Node = PostDom->getBase().getNode(const_cast<CFGBlock *>(B));
    if (!Node || !Node->getIDom())
      return nullptr;
    return Node->getIDom()->getBlock();
  }

  /// Divergent branches (of either kind) that control \p B.
  llvm::BitVector divergentControls(const CFGBlock *B) const {
    llvm::BitVector V = Controls[B->getBlockID()];
    V &= Divergent;
    return V;
  }

  /// Divergent branches after which lanes meet again, controlling \p B.
  llvm::BitVector rejoiningControls(unsigned BlockID) const {
    llvm::BitVector V = Controls[BlockID];
    V &= Divergent;
    llvm::BitVector NotExit = ExitKind;
    NotExit.flip();
    V &= NotExit;
    return V;
  }

  //--- Value dataflow -------------------------------------------------------

  /// Sync dependence: a variable assigned under a divergent branch that it
  /// was declared outside of holds different values in different lanes once
  /// they meet again.
  ValueDeps taint(unsigned BlockID, const VarDecl *V) const {
    if (Divergent.none())
      return 0;
    llvm::BitVector Here = rejoiningControls(BlockID);
    if (Here.none())
      return 0;
    auto It = DeclBlock.find(V);
    if (It != DeclBlock.end()) {
      llvm::BitVector AtDecl = rejoiningControls(It->second->getBlockID());
      Here.reset(AtDecl);
    }
    return Here.any() ? ThreadVarying : 0;
  }

  void assign(State &S, const VarDecl *V, ValueDeps D, bool Whole, unsigned BlockID) {
    if (!V)
      return;
    auto It = VarIndex.find(V);
    if (It == VarIndex.end())
      return;
    D |= taint(BlockID, V);
    if (Whole)
      S[It->second] = D;
    else
      S[It->second] |= D;
  }

  void transferStmt(const Stmt *St, State &S, unsigned BlockID) {
    if (const auto *DS = dyn_cast<DeclStmt>(St)) {
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D)) {
          if (Alias.count(V))
            continue;
          if (AsmLaneVars.count(V)) {
            assign(S, V, ThreadVarying, true, BlockID);
            continue;
          }
          assign(S, V, V->getInit() ? deps(V->getInit(), S) : 0, true, BlockID);
        }
      return;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(St)) {
      if (!BO->isAssignmentOp())
        return;
      const Expr *LHS = BO->getLHS()->IgnoreParenImpCasts();
      bool Whole = BO->getOpcode() == BO_Assign && isa<DeclRefExpr>(LHS);
      ValueDeps D = deps(BO->getRHS(), S);
      if (!Whole)
        D |= lvalueIndexDeps(LHS, S);
      assign(S, rootVar(LHS), D, Whole, BlockID);
      return;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(St)) {
      if (UO->isIncrementDecrementOp())
        assign(S, rootVar(UO->getSubExpr()), 0, false, BlockID);
      return;
    }
    if (const auto *Asm = dyn_cast<GCCAsmStmt>(St)) {
      ValueDeps D = 0;
      std::string Text = Asm->getAsmString();
      if (isLaneVaryingAsm(Text.data(), Text.size()))
        D = ThreadVarying;
      for (unsigned I = 0; I < Asm->getNumInputs(); ++I)
        D |= deps(Asm->getInputExpr(I), S);
      for (unsigned I = 0; I < Asm->getNumOutputs(); ++I)
        assign(S, rootVar(Asm->getOutputExpr(I)), D, false, BlockID);
      return;
    }
    if (const auto *Call = dyn_cast<CallExpr>(St)) {
      if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call))
        if (Op->isAssignmentOp() && Op->getNumArgs() == 2) {
          bool Whole = Op->getOperator() == OO_Equal &&
                       isa<DeclRefExpr>(Op->getArg(0)->IgnoreParenImpCasts());
          assign(S, rootVar(Op->getArg(0)), deps(Op->getArg(1), S), Whole, BlockID);
          return;
        }
      // Out-parameters: a callee writing through `T&` or `&local` stores
      // something computed from its arguments (or per-thread, for atomics).
      const FunctionDecl *Callee = Call->getDirectCallee();
      if (transferThroughSummary(Call, S, BlockID))
        return;
      ValueDeps D = isThreadVaryingSourceCall(Callee) ? ThreadVarying : 0;
      bool Computed = false;
      for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
        const Expr *Arg = Call->getArg(I)->IgnoreParenImpCasts();
        const VarDecl *Target = nullptr;
        if (const auto *UO = dyn_cast<UnaryOperator>(Arg)) {
          if (UO->getOpcode() == UO_AddrOf)
            Target = rootVar(UO->getSubExpr());
        } else if (Callee && I < Callee->getNumParams()) {
          QualType PT = Callee->getParamDecl(I)->getType();
          if (PT->isReferenceType() && !PT.getNonReferenceType().isConstQualified())
            Target = rootVar(Arg);
        }
        if (!Target)
          continue;
        if (!Computed) {
          for (const Expr *A : Call->arguments())
            D |= deps(A, S);
          Computed = true;
        }
        assign(S, Target, D, false, BlockID);
      }
    }
  }

  /// A call of an analysed helper with non-const reference parameters: each
  /// argument gets what the helper leaves in its parameter (a broadcast
  /// stores a uniform value, an untouched parameter keeps the argument's).
  bool transferThroughSummary(const CallExpr *Call, State &S, unsigned BlockID) {
    const FunctionDecl *Def = definitionOf(Call->getDirectCallee());
    if (!Def || Def == FD || isa<CXXOperatorCallExpr>(Call) ||
        (!Cache.readsVaryingSource(Def) && !Cache.containsCollective(Def)))
      return false;
    bool AnyReference = false;
    for (const ParmVarDecl *P : Def->parameters())
      AnyReference |= P->getType()->isReferenceType() &&
                      !P->getType().getNonReferenceType().isConstQualified();
    if (!AnyReference)
      return false;
    const FunctionSummary *Sum = Cache.summary(Def);
    if (!Sum || Sum->ReferenceOut.size() != Def->getNumParams())
      return false;
    llvm::SmallVector<ValueDeps, 4> ArgDeps;
    for (unsigned I = 0; I < Def->getNumParams(); ++I)
      ArgDeps.push_back(I < Call->getNumArgs() ? deps(Call->getArg(I), S) : 0);
    for (unsigned I = 0; I < Def->getNumParams() && I < Call->getNumArgs(); ++I) {
      if (!Sum->ReferenceOut[I])
        continue;
      ValueDeps Out = *Sum->ReferenceOut[I];
      ValueDeps D = Out & ThreadVarying;
      for (unsigned P = 0; P < Def->getNumParams() && P < 63; ++P)
        if (Out & parameterDep(P))
          D |= ArgDeps[P];
      const Expr *Arg = Call->getArg(I)->IgnoreParenImpCasts();
      bool Whole = isa<DeclRefExpr>(Arg);
      assign(S, rootVar(Arg), D, Whole, BlockID);
    }
    return true;
  }

  ValueDeps lvalueIndexDeps(const Expr *E, const State &S) {
    ValueDeps D = 0;
    for (unsigned Depth = 0; E && Depth < 16; ++Depth) {
      E = E->IgnoreParenImpCasts();
      if (const auto *A = dyn_cast<ArraySubscriptExpr>(E)) {
        D |= deps(A->getIdx(), S);
        E = A->getBase();
      } else if (const auto *M = dyn_cast<MemberExpr>(E)) {
        E = M->getBase();
      } else {
        break;
      }
    }
    return D;
  }

  State transferBlock(const CFGBlock *B, State S) {
    for (const CFGElement &E : *B)
      if (std::optional<CFGStmt> CS = E.getAs<CFGStmt>())
        transferStmt(CS->getStmt(), S, B->getBlockID());
    return S;
  }

  void solveValues() {
    unsigned NumVars = VarIndex.size();
    In.assign(NumBlocks, State(NumVars, 0));
    // Kernel parameters are warp-uniform; a helper's parameter i stands for
    // "whatever the caller passes", bit i+1.
    bool Kernel = FD->hasAttr<CUDAGlobalAttr>();
    State &Entry = In[Cfg->getEntry().getBlockID()];
    for (unsigned I = 0; I < FD->getNumParams(); ++I) {
      auto It = VarIndex.find(FD->getParamDecl(I));
      if (It != VarIndex.end())
        Entry[It->second] = Kernel ? 0 : parameterDep(I);
    }
    std::vector<State> Out(NumBlocks);
    std::vector<bool> Seen(NumBlocks, false);
    std::deque<const CFGBlock *> Work;
    std::vector<bool> Queued(NumBlocks, false);
    Work.push_back(&Cfg->getEntry());
    Queued[Cfg->getEntry().getBlockID()] = true;
    while (!Work.empty()) {
      const CFGBlock *B = Work.front();
      Work.pop_front();
      unsigned ID = B->getBlockID();
      Queued[ID] = false;
      State NewOut = transferBlock(B, In[ID]);
      if (Seen[ID] && NewOut == Out[ID])
        continue;
      Seen[ID] = true;
      Out[ID] = std::move(NewOut);
      unsigned Edge = 0;
      for (const CFGBlock *Succ : B->succs()) {
        unsigned EdgeIndex = Edge++;
        if (!Succ)
          continue;
        unsigned SID = Succ->getBlockID();
        State &SIn = In[SID];
        bool Changed = !Seen[SID];
        // Leaving a full xor butterfly: every lane holds the same value.
        State Leaving = Out[ID];
        if (EdgeIndex == 1)
          for (const VarDecl *V : butterflyResults(B->getTerminatorStmt())) {
            auto It = VarIndex.find(V);
            if (It != VarIndex.end())
              Leaving[It->second] = 0;
          }
        for (unsigned I = 0; I < NumVars; ++I) {
          ValueDeps Joined = SIn[I] | Leaving[I];
          if (Joined != SIn[I]) {
            SIn[I] = Joined;
            Changed = true;
          }
        }
        if (Changed && !Queued[SID]) {
          Queued[SID] = true;
          Work.push_back(Succ);
        }
      }
    }
  }

  /// The variables a loop leaves identical in every lane: a full-warp xor
  /// butterfly `for (o = 16; o > 0; o >>= 1) v = op(v, __shfl_xor_sync(full,
  /// v, o))` with a commutative `op` (+, *, &, |, ^, min, max). After the
  /// step with offset o, lanes i and i^o hold op(a, b) and op(b, a): equal,
  /// also in floating point; after offsets 16..1 all 32 lanes agree.
  llvm::DenseMap<const Stmt *, llvm::SmallVector<const VarDecl *, 1>> Butterflies;
  llvm::ArrayRef<const VarDecl *> butterflyResults(const Stmt *Loop) {
    const auto *For = dyn_cast_or_null<ForStmt>(Loop);
    if (!For)
      return {};
    auto [It, New] = Butterflies.try_emplace(For);
    if (New)
      It->second = findButterflies(For);
    return It->second;
  }

  llvm::SmallVector<const VarDecl *, 1> findButterflies(const ForStmt *For) {
    llvm::SmallVector<const VarDecl *, 1> Result;
    // The offset: starts at 16, halves, runs while positive.
    const VarDecl *Offset = nullptr;
    const Expr *Start = nullptr;
    if (const auto *DS = dyn_cast_or_null<DeclStmt>(For->getInit())) {
      if (DS->isSingleDecl())
        if (const auto *V = dyn_cast<VarDecl>(DS->getSingleDecl())) {
          Offset = V;
          Start = V->getInit();
        }
    } else if (const auto *BO = dyn_cast_or_null<BinaryOperator>(For->getInit())) {
      if (BO->getOpcode() == BO_Assign)
        if (const auto *Ref = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts())) {
          Offset = dyn_cast<VarDecl>(Ref->getDecl());
          Start = BO->getRHS();
        }
    }
    auto IsOffset = [&](const Expr *E) {
      const auto *Ref = E ? dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()) : nullptr;
      return Ref && Ref->getDecl() == Offset;
    };
    std::optional<long long> First = Start ? constantValue(Start, Ctx) : std::nullopt;
    if (!Offset || !First || *First != 16)
      return Result;
    const auto *Cond = dyn_cast_or_null<BinaryOperator>(
        For->getCond() ? For->getCond()->IgnoreParenImpCasts() : nullptr);
    if (!Cond)
      return Result;
    std::optional<long long> Limit = constantValue(Cond->getRHS(), Ctx);
    bool Positive = IsOffset(Cond->getLHS()) && Limit &&
                    ((Cond->getOpcode() == BO_GT && *Limit == 0) ||
                     (Cond->getOpcode() == BO_GE && *Limit == 1) ||
                     (Cond->getOpcode() == BO_NE && *Limit == 0));
    if (!Positive)
      return Result;
    const auto *Inc = dyn_cast_or_null<BinaryOperator>(
        For->getInc() ? For->getInc()->IgnoreParenImpCasts() : nullptr);
    if (!Inc || !IsOffset(Inc->getLHS()))
      return Result;
    std::optional<long long> By = constantValue(Inc->getRHS(), Ctx);
    bool Halves = By && ((Inc->getOpcode() == BO_ShrAssign && *By == 1) ||
                         (Inc->getOpcode() == BO_DivAssign && *By == 2));
    if (const auto *RHS = dyn_cast<BinaryOperator>(Inc->getRHS()->IgnoreParenImpCasts()))
      if (Inc->getOpcode() == BO_Assign && IsOffset(RHS->getLHS())) {
        std::optional<long long> K = constantValue(RHS->getRHS(), Ctx);
        Halves = K && ((RHS->getOpcode() == BO_Shr && *K == 1) ||
                       (RHS->getOpcode() == BO_Div && *K == 2));
      }
    if (!Halves)
      return Result;
    // The body: every write of the offset or of a candidate disqualifies it,
    // except the one combining step.
    llvm::DenseMap<const VarDecl *, unsigned> Writes, Steps;
    bool OffsetWritten = false;
    forEachStmt(For->getBody(), [&](const Stmt *S) {
      const VarDecl *Target = nullptr;
      const Expr *Value = nullptr;
      BinaryOperatorKind Op = BO_Assign;
      if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
        if (!BO->isAssignmentOp())
          return;
        if (const auto *Ref = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts()))
          Target = dyn_cast<VarDecl>(Ref->getDecl());
        Value = BO->getRHS();
        Op = BO->getOpcode();
      } else if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
        if (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf)
          if (const auto *Ref = dyn_cast<DeclRefExpr>(UO->getSubExpr()->IgnoreParenImpCasts()))
            if (const auto *V = dyn_cast<VarDecl>(Ref->getDecl()))
              ++Writes[V];
        return;
      } else {
        return;
      }
      if (!Target)
        return;
      if (Target == Offset)
        OffsetWritten = true;
      ++Writes[Target];
      if (isButterflyStep(Target, Op, Value, Offset))
        ++Steps[Target];
    });
    if (OffsetWritten)
      return Result;
    for (auto [V, N] : Steps)
      if (N == 1 && Writes.lookup(V) == 1)
        Result.push_back(V);
    return Result;
  }

  /// `v op= shfl`, `v = v op shfl`, `v = op(v, shfl)` with shfl =
  /// `__shfl_xor_sync(full mask, v, offset[, 32])` and op commutative.
  bool isButterflyStep(const VarDecl *V, BinaryOperatorKind Op, const Expr *Value,
                       const VarDecl *Offset) {
    auto IsV = [&](const Expr *E) {
      const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
      return Ref && Ref->getDecl() == V;
    };
    auto IsShuffle = [&](const Expr *E) {
      const auto *Call = dyn_cast<CallExpr>(E->IgnoreParenImpCasts());
      std::optional<CollectiveCall> C = Call ? recogniseCollective(Call) : std::nullopt;
      if (!C || C->Intrinsic->Kind != CollectiveKind::Shuffle ||
          C->Intrinsic->Direction != ShuffleDirection::Xor || !C->Intrinsic->IsSync)
        return false;
      std::optional<uint32_t> Mask = resolveMaskConstant(C->maskArg(), Ctx);
      const auto *Lane = dyn_cast<DeclRefExpr>(
          Call->getArg(C->Intrinsic->LaneOrDeltaArg)->IgnoreParenImpCasts());
      if (!Mask || *Mask != 0xffffffffu || !IsV(Call->getArg(C->Intrinsic->ValueArg)) ||
          !Lane || Lane->getDecl() != Offset)
        return false;
      int W = C->Intrinsic->WidthArg;
      if (W >= 0 && static_cast<unsigned>(W) < Call->getNumArgs() &&
          !isa<CXXDefaultArgExpr>(Call->getArg(W))) {
        std::optional<long long> Width = constantValue(Call->getArg(W), Ctx);
        if (!Width || *Width != 32)
          return false;
      }
      return true;
    };
    auto Commutative = [](BinaryOperatorKind K) {
      return K == BO_Add || K == BO_Mul || K == BO_And || K == BO_Or || K == BO_Xor;
    };
    if (Op != BO_Assign)
      return Commutative(BinaryOperator::getOpForCompoundAssignment(Op)) && IsShuffle(Value);
    const Expr *E = Value->IgnoreParenImpCasts();
    if (const auto *BO = dyn_cast<BinaryOperator>(E))
      return Commutative(BO->getOpcode()) &&
             ((IsV(BO->getLHS()) && IsShuffle(BO->getRHS())) ||
              (IsV(BO->getRHS()) && IsShuffle(BO->getLHS())));
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      const FunctionDecl *Callee = Call->getDirectCallee();
      if (!Callee || !Callee->getIdentifier() || Call->getNumArgs() != 2)
        return false;
      llvm::StringRef Name = Callee->getName();
      bool MinMax = Name == "max" || Name == "min" || Name == "fmaxf" || Name == "fminf" ||
                    Name == "fmax" || Name == "fmin" || Name == "__hmax" || Name == "__hmin";
      return MinMax && ((IsV(Call->getArg(0)) && IsShuffle(Call->getArg(1))) ||
                        (IsV(Call->getArg(1)) && IsShuffle(Call->getArg(0))));
    }
    return false;
  }

  /// Recomputes branch conditions' dependencies; true when the set of
  /// divergent branches grew.
  bool updateDivergence() {
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

  /// The value state just before \p E is evaluated.
  std::optional<State> stateBefore(const Stmt *E) const {
    auto It = BlockOf.find(E);
    if (It == BlockOf.end())
      return std::nullopt;
    const CFGBlock *B = It->second;
    State S = In[B->getBlockID()];
    for (const CFGElement &El : *B)
      if (std::optional<CFGStmt> CS = El.getAs<CFGStmt>()) {
        if (CS->getStmt() == E)
          break;
        const_cast<Impl *>(this)->transferStmt(CS->getStmt(), S, B->getBlockID());
      }
    return S;
  }

  //--- Expression transfer ------------------------------------------------

  ValueDeps varDeps(const VarDecl *V, const State &S) const {
    V = resolve(V);
    if (!V->hasLocalStorage())
      return 0; // globals, __shared__, __constant__: a uniform-address load
    auto It = VarIndex.find(V);
    if (It == VarIndex.end())
      return 0;
    return S[It->second];
  }

  ValueDeps deps(const Expr *E, const State &S) {
    if (!E)
      return 0;
    E = E->IgnoreParens();
    switch (classifyBuiltinIndex(E)) {
    case BuiltinIndex::ThreadIdxX:
      return ThreadVarying;
    case BuiltinIndex::ThreadIdxY:
    case BuiltinIndex::ThreadIdxZ:
      return Opts.AssumeWarpAlignedBlocks ? 0 : ThreadVarying;
    case BuiltinIndex::BlockIdx:
    case BuiltinIndex::BlockDimX:
    case BuiltinIndex::BlockDimYZ:
    case BuiltinIndex::GridDim:
    case BuiltinIndex::WarpSize:
      return 0;
    case BuiltinIndex::None:
      break;
    }
    if (isa<IntegerLiteral, FloatingLiteral, CharacterLiteral, StringLiteral,
            CXXBoolLiteralExpr, CXXNullPtrLiteralExpr, UnaryExprOrTypeTraitExpr,
            GNUNullExpr, SizeOfPackExpr, ImplicitValueInitExpr, LambdaExpr>(E))
      return 0;
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
      if (const auto *V = dyn_cast<VarDecl>(Ref->getDecl()))
        return varDeps(V, S);
      return 0;
    }
    if (const auto *PO = dyn_cast<PseudoObjectExpr>(E))
      return deps(PO->getResultExpr(), S);
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      if (BO->getOpcode() == BO_Comma)
        return deps(BO->getRHS(), S);
      if (BO->isAssignmentOp())
        return deps(BO->getRHS(), S) |
               (BO->isCompoundAssignmentOp() ? deps(BO->getLHS(), S) : 0);
      // Only these operators can turn thread-varying operands into a
      // warp-uniform result (the warp index, a warp-splitting comparison);
      // asking indexForm elsewhere would only cost time.
      BinaryOperatorKind Op = BO->getOpcode();
      if (Op == BO_Div || Op == BO_Shr || Op == BO_And) {
        IndexForm F = indexForm(E, S, 0);
        if (F.Kind == IndexForm::WarpUniform || F.Kind == IndexForm::Constant ||
            F.Kind == IndexForm::WarpAligned)
          return 0;
      }
      if (BO->isComparisonOp()) {
        if (std::optional<LaneSplit> Split = laneSplit(BO, S))
          if (Split->Uniform)
            return 0;
      }
      return deps(BO->getLHS(), S) | deps(BO->getRHS(), S);
    }
    if (const auto *Call = dyn_cast<CallExpr>(E))
      return callDeps(Call, S);
    if (const auto *Def = dyn_cast<CXXDefaultArgExpr>(E))
      return deps(Def->getExpr(), S);
    if (const auto *Def = dyn_cast<CXXDefaultInitExpr>(E))
      return deps(Def->getExpr(), S);
    ValueDeps D = 0;
    for (const Stmt *Child : E->children())
      if (const auto *CE = dyn_cast_or_null<Expr>(Child))
        D |= deps(CE, S);
    return D;
  }

  ValueDeps callDeps(const CallExpr *Call, const State &S) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    auto Arg = [&](int I) -> ValueDeps {
      return (I >= 0 && static_cast<unsigned>(I) < Call->getNumArgs())
                 ? deps(Call->getArg(I), S)
                 : 0;
    };
    ValueDeps Args = 0;
    for (const Expr *A : Call->arguments())
      Args |= deps(A, S);
    if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call))
      Args |= deps(Member->getImplicitObjectArgument(), S);

    if (std::optional<CollectiveCall> C = recogniseCollective(Call)) {
      const WarpIntrinsic &I = *C->Intrinsic;
      switch (I.Kind) {
      case CollectiveKind::Ballot:
      case CollectiveKind::Vote:
      case CollectiveKind::Reduce:
      case CollectiveKind::WarpBarrier:
      case CollectiveKind::Matrix:
        return 0; // the same result in every participating lane
      case CollectiveKind::Match:
        return I.Name.contains("any") ? ThreadVarying : 0;
      case CollectiveKind::ActiveMask:
        return ThreadVarying;
      case CollectiveKind::Shuffle:
      case CollectiveKind::TileMember: {
        if (I.Kind == CollectiveKind::TileMember && I.Direction == ShuffleDirection::None) {
          if (I.Name.starts_with("match_any"))
            return ThreadVarying;
          return 0; // any/all/ballot/sync
        }
        ValueDeps Value = Arg(I.ValueArg);
        if (Value == 0)
          return 0; // every lane holds the same value
        if (I.Direction == ShuffleDirection::Index) {
          ValueDeps Source = Arg(I.LaneOrDeltaArg);
          if (Source == 0)
            return 0; // broadcast from one lane
          return Value | Source | ThreadVarying;
        }
        return Value | ThreadVarying;
      }
      case CollectiveKind::TileReduce:
        return I.Name == "reduce" ? 0 : (Args | ThreadVarying);
      }
    }
    // cooperative_groups: a 32-wide tile's index among the block's tiles is
    // the warp index, the same for every lane of the warp.
    if (Callee && Callee->getIdentifier() && isa<CXXMethodDecl>(Callee) &&
        (Callee->getName() == "meta_group_rank" || Callee->getName() == "meta_group_size") &&
        tileSizeOfCall(Call) == 32)
      return 0;
    if (isBlockUniformResultCall(Callee))
      return 0; // every thread of the block gets the same result
    if (isThreadVaryingSourceCall(Callee))
      return ThreadVarying | Args;
    if (!Callee)
      return Args;
    if (isInSystemHeader(Callee, Ctx))
      return Cache.readsVaryingSource(Callee) ? (ThreadVarying | Args) : Args;
    if (const FunctionDecl *Def = definitionOf(Callee)) {
      if (Def == FD)
        return Args; // direct recursion: assume as varying as its inputs
      if (Cache.readsVaryingSource(Def) || Cache.containsCollective(Def)) {
        const FunctionSummary *Sum = Cache.summary(Def);
        if (!Sum)
          return Args | ThreadVarying;
        ValueDeps D = Sum->ReturnDeps & ThreadVarying;
        for (unsigned P = 0; P < Def->getNumParams() && P < 63; ++P)
          if (Sum->ReturnDeps & parameterDep(P))
            D |= P < Call->getNumArgs() ? deps(Call->getArg(P), S) : 0;
        if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call))
          D |= deps(Member->getImplicitObjectArgument(), S);
        return D;
      }
    }
    return Args;
  }

  //--- Symbolic values (for the prover) ---------------------------------------
  //
  // Where the taint says a condition may differ between lanes, the condition
  // is written as a term over the thread's position and uniform leaves
  // (SymbolicTerm.h) and the prover decides whether two lanes of one warp (or
  // tile) can disagree on it. This section tells the translator what locals
  // and calls stand for.

  /// How a local integer evolves when it is an induction variable: written
  /// once by Init, then only changed by warp-uniform steps (`i += 32`,
  /// `tid += blockDim.x * gridDim.x`, `++k`).
  struct Induction {
    bool Valid = false;
    const Expr *Init = nullptr;
    const Stmt *InitPoint = nullptr;
    llvm::SmallVector<std::pair<const Expr *, const Stmt *>, 2> Steps; ///< null expr: +-1
  };
  llvm::DenseMap<const VarDecl *, Induction> Inductions;

  const Induction &induction(const VarDecl *V) {
    auto [It, New] = Inductions.try_emplace(V);
    if (!New)
      return It->second;
    Induction I;
    bool Bad = !V->getType()->isIntegralOrEnumerationType() ||
               V->getType().isVolatileQualified() || isa<ParmVarDecl>(V);
    auto IsV = [&](const Expr *E) {
      const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
      return Ref && Ref->getDecl() == V;
    };
    auto AddInit = [&](const Expr *Init, const Stmt *Point) {
      if (I.Init)
        Bad = true;
      I.Init = Init;
      I.InitPoint = Point;
    };
    forEachStmt(FD->getBody(), [&](const Stmt *S) {
      if (Bad)
        return;
      if (const auto *DS = dyn_cast<DeclStmt>(S)) {
        for (const Decl *D : DS->decls())
          if (const auto *Var = dyn_cast<VarDecl>(D)) {
            if (Var == V && V->getInit())
              AddInit(V->getInit(), DeclPoint.lookup(V));
            // A non-const reference bound to V writes it elsewhere.
            if (Var->getType()->isReferenceType() &&
                !Var->getType().getNonReferenceType().isConstQualified() && Var->getInit() &&
                IsV(Var->getInit()))
              Bad = true;
          }
      } else if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
        if (!BO->isAssignmentOp() || !IsV(BO->getLHS()))
          return;
        if (BO->getOpcode() == BO_AddAssign || BO->getOpcode() == BO_SubAssign) {
          I.Steps.push_back({BO->getRHS(), BO});
        } else if (BO->getOpcode() == BO_Assign) {
          const auto *Sum = dyn_cast<BinaryOperator>(BO->getRHS()->IgnoreParenImpCasts());
          if (Sum && (Sum->getOpcode() == BO_Add || Sum->getOpcode() == BO_Sub) &&
              IsV(Sum->getLHS()))
            I.Steps.push_back({Sum->getRHS(), BO});
          else if (Sum && Sum->getOpcode() == BO_Add && IsV(Sum->getRHS()))
            I.Steps.push_back({Sum->getLHS(), BO});
          else
            AddInit(BO->getRHS(), BO);
        } else {
          Bad = true;
        }
      } else if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
        if (UO->isIncrementDecrementOp() && IsV(UO->getSubExpr()))
          I.Steps.push_back({nullptr, UO});
        else if (UO->getOpcode() == UO_AddrOf && IsV(UO->getSubExpr()))
          Bad = true;
      } else if (const auto *Call = dyn_cast<CallExpr>(S)) {
        const FunctionDecl *Callee = Call->getDirectCallee();
        for (unsigned A = 0; A < Call->getNumArgs(); ++A)
          if (IsV(Call->getArg(A)) &&
              (!Callee || A >= Callee->getNumParams() ||
               (Callee->getParamDecl(A)->getType()->isReferenceType() &&
                !Callee->getParamDecl(A)->getType().getNonReferenceType().isConstQualified())))
            Bad = true;
      } else if (const auto *Asm = dyn_cast<GCCAsmStmt>(S)) {
        for (unsigned O = 0; O < Asm->getNumOutputs(); ++O)
          if (IsV(Asm->getOutputExpr(O)))
            Bad = true;
      } else if (const auto *Lambda = dyn_cast<LambdaExpr>(S)) {
        for (const LambdaCapture &C : Lambda->captures())
          if (C.capturesVariable() && C.getCapturedVar() == V &&
              C.getCaptureKind() == LCK_ByRef)
            Bad = true;
      }
    });
    I.Valid = !Bad && I.Init && I.InitPoint;
    return Inductions[V] = std::move(I);
  }

  /// Every write of an induction variable runs in lockstep: no divergent
  /// branch controls it, so all lanes of a warp apply the same steps.
  bool writesInLockstep(const Induction &I) const {
    auto Converged = [&](const Stmt *S) {
      auto It = BlockOf.find(S);
      if (It == BlockOf.end())
        return false;
      llvm::BitVector D = Controls[It->second->getBlockID()];
      D &= Divergent;
      return D.none();
    };
    if (!Converged(I.InitPoint))
      return false;
    for (const auto &Step : I.Steps)
      if (!Converged(Step.second))
        return false;
    return true;
  }

  struct SymbolicView final : SymbolicEnvironment {
    SymbolicView(Impl &P, const State &S, const Stmt *Point) : P(P), S(&S), Point(Point) {}
    Impl &P;
    const State *S;      ///< the dataflow state where leaves are read
    const Stmt *Point;   ///< names that place in leaf keys
    unsigned Inlining = 0;
    unsigned Substitutions = 0;
    llvm::DenseMap<const ParmVarDecl *, TermRef> Bindings;

    const void *point() const override { return Point; }

    bool isUniform(const Expr *E) override {
      // Inside an inlined helper the caller's state says nothing about the
      // helper's own expressions.
      return !Inlining && P.deps(E, *S) == 0;
    }

    /// Translates \p E as it is evaluated at \p At (a statement of this
    /// function's CFG).
    TermRef translateAt(const Expr *E, const Stmt *At, SymbolicTranslator &T) {
      std::optional<State> There = P.stateBefore(At);
      if (!There || Substitutions > 24)
        return nullptr;
      const State *SavedS = S;
      const Stmt *SavedPoint = Point;
      S = &*There;
      Point = At;
      ++Substitutions;
      TermRef R = T.translate(E);
      S = SavedS;
      Point = SavedPoint;
      return R;
    }

    TermRef variable(const VarDecl *V, const Expr *Ref, SymbolicTranslator &T) override {
      if (const auto *Parm = dyn_cast<ParmVarDecl>(V)) {
        auto It = Bindings.find(Parm);
        if (It != Bindings.end())
          return It->second;
      }
      if (Inlining || !V->hasLocalStorage())
        return nullptr;
      V = P.resolve(V);
      TermBuilder &Terms = T.terms();
      unsigned W = T.widthOf(V->getType());
      if (P.AsmLaneVars.count(V) && !P.Mutated.count(V))
        return Terms.threadIndex(TermOp::HardwareLane);
      if (const Expr *Init = P.singleDefinition(V))
        if (const Stmt *At = P.DeclPoint.lookup(V))
          if (TermRef R = translateAt(Init, At, T))
            return R;
      if (P.Mutated.count(V)) {
        const Induction &I = P.induction(V);
        if (I.Valid && P.writesInLockstep(I))
          if (TermRef Value = inductionValue(V, I, W, T))
            return Value;
      }
      // A leaf: one per variable (and per point where it may have changed).
      const void *At = P.Mutated.count(V) ? Point : nullptr;
      if (P.varDeps(V, *S) != 0)
        return Terms.perLane(V, W, At);
      // A kernel parameter keeps what every launch of the kernel in this
      // unit guarantees (`GGML_ASSERT(n % 32 == 0)` before the launch).
      unsigned Zeros = 0;
      if (const auto *Parm = dyn_cast<ParmVarDecl>(V); Parm && !At)
        Zeros = P.Cache.launchFacts().knownZeroBits(Parm);
      return Terms.uniform(V, W, Zeros, At);
    }

    /// Init + the sum of the steps taken so far. Every lane of the warp took
    /// the same steps (they run in lockstep), so each step's total is one
    /// uniform unknown; it keeps the low zero bits every step has (a sum of
    /// multiples of 32 is a multiple of 32).
    TermRef inductionValue(const VarDecl *V, const Induction &I, unsigned W,
                           SymbolicTranslator &T) {
      TermBuilder &Terms = T.terms();
      TermRef Init = translateAt(I.Init, I.InitPoint, T);
      if (!Init)
        return nullptr;
      bool Signed = I.Init->getType()->isSignedIntegerOrEnumerationType();
      TermRef Value = Terms.cast(Init, W, Signed);
      for (const auto &[Step, At] : I.Steps) {
        unsigned Zeros = 0;
        if (Step) {
          std::optional<State> There = P.stateBefore(At);
          if (!There || P.deps(Step, *There) != 0)
            return nullptr; // a lane-dependent step
          TermRef StepTerm = translateAt(Step, At, T);
          if (!StepTerm)
            return nullptr;
          Zeros = TermBuilder::knownZeroBits(StepTerm, P.Opts.AssumeWarpAlignedBlocks);
        }
        // Every step of a signed variable is an add without overflow (C), so
        // the initial value plus their sum does not overflow either.
        Value = Terms.binary(TermOp::Add, Value, Terms.uniform(At, W, Zeros, Point),
                             V->getType()->isSignedIntegerOrEnumerationType());
      }
      return Value;
    }

    TermRef call(const CallExpr *Call, SymbolicTranslator &T) override {
      TermBuilder &Terms = T.terms();
      const FunctionDecl *Callee = Call->getDirectCallee();
      if (!Callee)
        return nullptr;
      // Cooperative groups: ranks are positions in the block-linear order.
      if (const auto *Method = dyn_cast<CXXMethodDecl>(Callee))
        if (Method->getIdentifier()) {
          llvm::StringRef Name = Method->getName();
          const CXXRecordDecl *Class = Method->getParent();
          if (Name == "thread_rank" && Class->getIdentifier() &&
              Class->getName() == "thread_block")
            return linearThreadId(Terms);
          unsigned N = tileSizeOfCall(Call);
          if (N && (Name == "thread_rank" || Name == "meta_group_rank")) {
            TermRef Linear = linearThreadId(Terms);
            return Terms.binary(Name == "thread_rank" ? TermOp::URem : TermOp::UDiv, Linear,
                                Terms.constant(N, 32));
          }
        }
      // A helper that only returns an expression of its parameters
      // (`laneId()`, `roundUp32(n)`): its value is that expression.
      const FunctionDecl *Def = definitionOf(Callee);
      if (!Def || Inlining > 3 || isInSystemHeader(Def, P.Ctx))
        return nullptr;
      const Expr *Returned = onlyReturnedExpr(Def);
      if (!Returned)
        return nullptr;
      llvm::DenseMap<const ParmVarDecl *, TermRef> Saved = Bindings;
      unsigned Offset = isa<CXXOperatorCallExpr>(Call) && isa<CXXMethodDecl>(Def) ? 1 : 0;
      for (unsigned A = Offset; A < Call->getNumArgs(); ++A)
        if (A - Offset < Def->getNumParams())
          Bindings[Def->getParamDecl(A - Offset)] = T.translate(Call->getArg(A));
      ++Inlining;
      TermRef R = T.translate(Returned);
      --Inlining;
      Bindings = std::move(Saved);
      return R;
    }

    TermRef linearThreadId(TermBuilder &Terms) {
      TermRef X = Terms.threadIndex(TermOp::ThreadX), Y = Terms.threadIndex(TermOp::ThreadY),
              Z = Terms.threadIndex(TermOp::ThreadZ);
      TermRef Dx = Terms.threadIndex(TermOp::BlockDimX),
              Dy = Terms.threadIndex(TermOp::BlockDimY);
      return Terms.binary(
          TermOp::Add, X,
          Terms.binary(TermOp::Mul, Dx,
                       Terms.binary(TermOp::Add, Y, Terms.binary(TermOp::Mul, Dy, Z))));
    }
  };

  /// True when no two lanes of one aligned group of \p GroupSize lanes can
  /// evaluate \p Cond differently, given the state \p S where it is evaluated.
  bool provedUniform(unsigned BlockID, const Expr *Cond, const State &S, unsigned GroupSize) {
    if (!Cond)
      return false;
    // A comparison of the lane with a constant that splits the warp is
    // known to diverge; no need to ask.
    if (GroupSize >= 32)
      if (std::optional<LaneSplit> Split = laneSplit(Cond, S))
        return Split->Uniform;
    const CFGBlock *B = blockByID(BlockID);
    SymbolicView View(*this, S, B ? B->getTerminatorStmt() : Cond);
    SymbolicTranslator Translator(Ctx, Cache.terms(), View, Opts.AssumeWarpAlignedBlocks);
    TermRef Term = Translator.translate(Cond);
    return Cache.prover().sameInGroup(Term, GroupSize) == UniformityProver::Answer::Uniform;
  }

  /// provedUniform for the condition of branch block \p BlockID.
  llvm::DenseMap<std::pair<unsigned, unsigned>, bool> BranchGroupUniform;
  bool branchUniformInGroups(unsigned BlockID, unsigned GroupSize) {
    auto Key = std::make_pair(BlockID, GroupSize);
    auto It = BranchGroupUniform.find(Key);
    if (It != BranchGroupUniform.end())
      return It->second;
    bool R = false;
    if (const CFGBlock *B = blockByID(BlockID))
      if (BranchCond[BlockID]) {
        State End = transferBlock(B, In[BlockID]);
        R = provedUniform(BlockID, BranchCond[BlockID], End, GroupSize);
      }
    BranchGroupUniform[Key] = R;
    return R;
  }

  //--- Index forms and lane splits ------------------------------------------

  bool isUniformExpr(const Expr *E, const State &S) { return deps(E, S) == 0; }

  IndexForm indexForm(const Expr *E, const State &S, unsigned Depth) {
    IndexForm F;
    if (!E || Depth > 8)
      return F;
    E = E->IgnoreParenImpCasts();
    if (std::optional<long long> C = constantValue(E, Ctx)) {
      F.Kind = IndexForm::Constant;
      F.Value = *C;
      return F;
    }
    switch (classifyBuiltinIndex(E)) {
    case BuiltinIndex::ThreadIdxX:
      F.Kind = IndexForm::ThreadX;
      return F;
    case BuiltinIndex::BlockDimX:
      if (Opts.AssumeWarpAlignedBlocks)
        F.Kind = IndexForm::WarpAligned;
      else
        F.Kind = IndexForm::WarpUniform;
      return F;
    case BuiltinIndex::None:
      break;
    default:
      F.Kind = IndexForm::WarpUniform;
      if (classifyBuiltinIndex(E) == BuiltinIndex::ThreadIdxY ||
          classifyBuiltinIndex(E) == BuiltinIndex::ThreadIdxZ)
        F.Kind = Opts.AssumeWarpAlignedBlocks ? IndexForm::WarpUniform : IndexForm::Other;
      return F;
    }
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
      const auto *V = dyn_cast<VarDecl>(Ref->getDecl());
      if (!V)
        return F;
      V = resolve(V);
      if (AsmLaneVars.count(V) && !Mutated.count(V)) {
        F.Kind = IndexForm::Lane;
        return F;
      }
      if (V->hasLocalStorage())
        if (const Expr *Init = singleDefinition(V)) {
          IndexForm Inner = indexForm(Init, S, Depth + 1);
          if (Inner.Kind != IndexForm::Other)
            return Inner;
        }
      if (varDeps(V, S) == 0)
        F.Kind = IndexForm::WarpUniform;
      return F;
    }
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      // cooperative_groups: tile.thread_rank() of a 32-wide tile is the lane.
      if (const FunctionDecl *Callee = Call->getDirectCallee())
        if (isa<CXXMethodDecl>(Callee) && Callee->getIdentifier() &&
            Callee->getName() == "thread_rank" && tileSizeOfCall(Call) == 32) {
          F.Kind = IndexForm::Lane;
          return F;
        }
      // cg::thread_block::thread_rank() is the block-linear thread index;
      // with warp-aligned blocks it splits into warps exactly as
      // threadIdx.x does, so `rank < 32` is decided per warp.
      if (const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Call->getDirectCallee()))
        if (Opts.AssumeWarpAlignedBlocks && Method->getIdentifier() &&
            Method->getName() == "thread_rank" && Method->getParent()->getIdentifier() &&
            Method->getParent()->getName() == "thread_block") {
          F.Kind = IndexForm::ThreadX;
          return F;
        }
      // A parameterless helper that returns a lane id or thread index
      // (`laneId()`) is that value.
      if (const FunctionDecl *Def = definitionOf(Call->getDirectCallee()))
        if (Def->getNumParams() == 0 && !isa<CXXMethodDecl>(Def) && Def != FD)
          if (const Expr *Returned = onlyReturnedExpr(Def)) {
            IndexForm Inner = indexForm(Returned, S, Depth + 1);
            if (Inner.Kind == IndexForm::Lane || Inner.Kind == IndexForm::ThreadX ||
                Inner.Kind == IndexForm::Constant)
              return Inner;
          }
      if (deps(E, S) == 0)
        F.Kind = IndexForm::WarpUniform;
      return F;
    }
    const auto *BO = dyn_cast<BinaryOperator>(E);
    if (!BO) {
      if (deps(E, S) == 0)
        F.Kind = IndexForm::WarpUniform;
      return F;
    }
    IndexForm L = indexForm(BO->getLHS(), S, Depth + 1);
    IndexForm R = indexForm(BO->getRHS(), S, Depth + 1);
    auto IsAligned = [](const IndexForm &X) {
      return X.Kind == IndexForm::WarpAligned ||
             (X.Kind == IndexForm::Constant && X.Value % 32 == 0);
    };
    auto IsUniform = [](const IndexForm &X) {
      return X.Kind == IndexForm::WarpAligned || X.Kind == IndexForm::Constant ||
             X.Kind == IndexForm::WarpUniform;
    };
    auto Make = [](IndexForm::FormKind K) {
      IndexForm X;
      X.Kind = K;
      return X;
    };
    switch (BO->getOpcode()) {
    case BO_Add:
      if ((L.Kind == IndexForm::ThreadX && IsAligned(R)) ||
          (R.Kind == IndexForm::ThreadX && IsAligned(L)))
        return Make(IndexForm::ThreadX);
      if (IsAligned(L) && IsAligned(R))
        return Make(IndexForm::WarpAligned);
      break;
    case BO_Sub:
      if (L.Kind == IndexForm::ThreadX && IsAligned(R))
        return Make(IndexForm::ThreadX);
      if (IsAligned(L) && IsAligned(R))
        return Make(IndexForm::WarpAligned);
      break;
    case BO_Mul:
      if ((IsAligned(L) && IsUniform(R)) || (IsAligned(R) && IsUniform(L)))
        return Make(IndexForm::WarpAligned);
      break;
    case BO_Shl:
      if (IsUniform(L) && R.Kind == IndexForm::Constant && R.Value >= 5)
        return Make(IndexForm::WarpAligned);
      break;
    case BO_Rem:
      if ((L.Kind == IndexForm::ThreadX || L.Kind == IndexForm::Lane) &&
          R.Kind == IndexForm::Constant && R.Value == 32)
        return Make(IndexForm::Lane);
      break;
    case BO_And:
      if ((L.Kind == IndexForm::ThreadX || L.Kind == IndexForm::Lane) &&
          R.Kind == IndexForm::Constant && R.Value == 31)
        return Make(IndexForm::Lane);
      if ((R.Kind == IndexForm::ThreadX || R.Kind == IndexForm::Lane) &&
          L.Kind == IndexForm::Constant && L.Value == 31)
        return Make(IndexForm::Lane);
      // threadIdx.x & ~31: the first thread of the warp.
      if (L.Kind == IndexForm::ThreadX && R.Kind == IndexForm::Constant && R.Value % 32 == 0)
        return Make(IndexForm::WarpUniform);
      break;
    case BO_Div:
      // The warp index: threadIdx.x / 32, / warpSize, / 64 (pairs of warps).
      if (L.Kind == IndexForm::ThreadX && R.Kind == IndexForm::Constant && R.Value > 0 &&
          R.Value % 32 == 0)
        return Make(IndexForm::WarpUniform);
      break;
    case BO_Shr:
      if (L.Kind == IndexForm::ThreadX && R.Kind == IndexForm::Constant && R.Value >= 5)
        return Make(IndexForm::WarpUniform);
      break;
    default:
      break;
    }
    if (IsUniform(L) && IsUniform(R) && !BO->isAssignmentOp() && BO->getOpcode() != BO_Comma)
      return Make(IndexForm::WarpUniform);
    return F;
  }

  /// Lane sets on the edges of `Cond`, when it compares the lane id or
  /// threadIdx.x with a constant (or threadIdx.x with a warp-aligned value).
  std::optional<LaneSplit> laneSplit(const Expr *Cond, const State &S, unsigned Depth = 0) {
    Cond = Cond->IgnoreParenImpCasts();
    // A guard kept in a variable (`bool leader = lane == 0; if (leader)`).
    if (const auto *Ref = dyn_cast<DeclRefExpr>(Cond))
      if (const auto *V = dyn_cast<VarDecl>(Ref->getDecl()))
        if (V->hasLocalStorage() && Depth < 4)
          if (const Expr *Init = singleDefinition(resolve(V)))
            if (Init->getType()->isBooleanType())
              return laneSplit(Init, S, Depth + 1);
    if (const auto *UO = dyn_cast<UnaryOperator>(Cond)) {
      if (UO->getOpcode() != UO_LNot)
        return std::nullopt;
      std::optional<LaneSplit> Inner = laneSplit(UO->getSubExpr(), S, Depth + 1);
      if (Inner) {
        std::swap(Inner->TrueMust, Inner->FalseMust);
        std::swap(Inner->TrueMay, Inner->FalseMay);
      }
      return Inner;
    }
    const auto *BO = dyn_cast<BinaryOperator>(Cond);
    BinaryOperatorKind Op;
    IndexForm Subject, Bound;
    if (!BO || !BO->isComparisonOp()) {
      // `if (lane)`: lane != 0.
      Subject = indexForm(Cond, S, 0);
      if (Subject.Kind != IndexForm::Lane && Subject.Kind != IndexForm::ThreadX)
        return std::nullopt;
      Op = BO_NE;
      Bound.Kind = IndexForm::Constant;
      Bound.Value = 0;
    } else {
      Op = BO->getOpcode();
      if (Op == BO_Cmp)
        return std::nullopt;
      IndexForm L = indexForm(BO->getLHS(), S, 0);
      IndexForm R = indexForm(BO->getRHS(), S, 0);
      auto IsSubject = [](const IndexForm &F) {
        return F.Kind == IndexForm::Lane || F.Kind == IndexForm::ThreadX;
      };
      if (IsSubject(L)) {
        Subject = L;
        Bound = R;
      } else if (IsSubject(R)) {
        Subject = R;
        Bound = L;
        Op = BinaryOperator::reverseComparisonOp(Op);
      } else {
        return std::nullopt;
      }
    }
    LaneSplit Split;
    // threadIdx.x against a warp-aligned runtime value: splits warps only.
    if (Subject.Kind == IndexForm::ThreadX && Bound.Kind == IndexForm::WarpAligned) {
      Split.Uniform = true;
      return Split;
    }
    if (Bound.Kind != IndexForm::Constant)
      return std::nullopt;
    long long C = Bound.Value;
    auto Holds = [&](long long X) {
      switch (Op) {
      case BO_LT: return X < C;
      case BO_LE: return X <= C;
      case BO_GT: return X > C;
      case BO_GE: return X >= C;
      case BO_EQ: return X == C;
      case BO_NE: return X != C;
      default: return false;
      }
    };
    auto LanesOfWarp = [&](long long Base) {
      uint32_t Bits = 0;
      for (unsigned L = 0; L < 32; ++L)
        if (Holds(Base + L))
          Bits |= 1u << L;
      return LaneSet(Bits);
    };
    if (Subject.Kind == IndexForm::Lane) {
      LaneSet T = LanesOfWarp(0);
      Split.TrueMust = Split.TrueMay = T;
      Split.FalseMust = Split.FalseMay = ~T;
      Split.Uniform = T.isAll() || T.isEmpty();
      return Split;
    }
    // threadIdx.x = 32 * w + lane for some warp w >= 0: the warps around the
    // constant are the only ones whose lanes split.
    long long Q = C >= 0 ? C / 32 : -1;
    llvm::SmallVector<long long, 4> Warps = {0};
    for (long long W : {Q - 1, Q, Q + 1})
      if (W > 0)
        Warps.push_back(W);
    Split.TrueMust = Split.FalseMust = LaneSet::all();
    Split.TrueMay = Split.FalseMay = LaneSet::none();
    bool AnyTrue = false, AnyFalse = false, AnyMixed = false;
    for (long long W : Warps) {
      LaneSet T = LanesOfWarp(32 * W);
      LaneSet F = ~T;
      if (!T.isEmpty()) {
        Split.TrueMust = Split.TrueMust & T;
        Split.TrueMay = Split.TrueMay | T;
        AnyTrue = true;
      }
      if (!F.isEmpty()) {
        Split.FalseMust = Split.FalseMust & F;
        Split.FalseMay = Split.FalseMay | F;
        AnyFalse = true;
      }
      if (!T.isEmpty() && !F.isEmpty())
        AnyMixed = true;
    }
    if (!AnyTrue)
      Split.TrueMust = LaneSet::none();
    if (!AnyFalse)
      Split.FalseMust = LaneSet::none();
    Split.Uniform = !AnyMixed;
    return Split;
  }

  //--- Lane sets --------------------------------------------------------------

  void solveLaneSets() {
    Must.assign(NumBlocks, LaneSet::none());
    May.assign(NumBlocks, LaneSet::none());
    unsigned EntryID = Cfg->getEntry().getBlockID();
    Must[EntryID] = May[EntryID] = LaneSet::all();
    std::deque<const CFGBlock *> Work = {&Cfg->getEntry()};
    std::vector<bool> Queued(NumBlocks, false);
    Queued[EntryID] = true;
    // Edge sets of each divergent branch, computed once.
    llvm::DenseMap<unsigned, std::optional<LaneSplit>> Splits;
    while (!Work.empty()) {
      const CFGBlock *B = Work.front();
      Work.pop_front();
      unsigned ID = B->getBlockID();
      Queued[ID] = false;
      std::optional<LaneSplit> Split;
      bool Div = Divergent.test(ID) && BranchCond[ID];
      if (Div) {
        auto It = Splits.find(ID);
        if (It == Splits.end()) {
          State End = transferBlock(B, In[ID]);
          It = Splits.try_emplace(ID, laneSplit(BranchCond[ID], End)).first;
        }
        Split = It->second;
      }
      unsigned Index = 0;
      for (const CFGBlock *Succ : B->succs()) {
        unsigned Edge = Index++;
        if (!Succ)
          continue;
        LaneSet EMust = Must[ID], EMay = May[ID];
        if (Div) {
          if (Split && B->succ_size() == 2) {
            EMust = EMust & (Edge == 0 ? Split->TrueMust : Split->FalseMust);
            EMay = EMay & (Edge == 0 ? Split->TrueMay : Split->FalseMay);
          } else {
            EMust = LaneSet::none(); // data decide which lanes go this way
          }
        }
        unsigned SID = Succ->getBlockID();
        LaneSet NMust = Must[SID] | EMust, NMay = May[SID] | EMay;
        if (NMust != Must[SID] || NMay != May[SID]) {
          Must[SID] = NMust;
          May[SID] = NMay;
          if (!Queued[SID]) {
            Queued[SID] = true;
            Work.push_back(Succ);
          }
        }
      }
    }
  }

  /// Lanes that surely reach each block. A lane surely reaches B unless some
  /// divergent branch B is control dependent on can send it the other way:
  /// intersect, over those branches, the lanes that surely take B's side
  /// (the split of a lane comparison; none when data decide). Joins need no
  /// special case: a block after an if/else depends on neither side.
  void solveMustSets() {
    for (unsigned ID = 0; ID < NumBlocks; ++ID)
      Must[ID] = mustThrough(ID, 32);
  }

  /// Must for block \p ID, as seen by a collective that needs aligned groups
  /// of \p GroupSize lanes: branches that are the same for every lane of
  /// each group send whole groups one way, so they do not count.
  llvm::DenseMap<unsigned, std::optional<LaneSplit>> MustSplits;
  LaneSet mustThrough(unsigned ID, unsigned GroupSize) {
    const CFGBlock *B = blockByID(ID);
    if (!B || May[ID].isEmpty())
      return LaneSet::none();
    LaneSet M = May[ID];
    for (unsigned D : Controls[ID].set_bits()) {
      if (!Divergent.test(D) || M.isEmpty())
        continue;
      if (GroupSize < 32 && branchUniformInGroups(D, GroupSize))
        continue;
      const CFGBlock *DB = blockByID(D);
      auto It = MustSplits.find(D);
      if (It == MustSplits.end()) {
        State End = transferBlock(DB, In[D]);
        It = MustSplits.try_emplace(D, BranchCond[D] ? laneSplit(BranchCond[D], End)
                                                     : std::nullopt).first;
      }
      const std::optional<LaneSplit> &Split = It->second;
      LaneSet Side = LaneSet::none();
      unsigned Index = 0;
      for (const CFGBlock *Succ : DB->succs()) {
        unsigned Edge = Index++;
        if (!Succ)
          continue;
        // Lanes sent this way can reach B without coming back through D
        // (a `continue` reaches B again only through the loop's branch).
        if (!reachableAvoiding(D, Edge).test(ID))
          continue;
        if (Split && DB->succ_size() == 2)
          Side = Side | (Edge == 0 ? Split->TrueMust : Split->FalseMust);
      }
      M = M & Side;
    }
    return M;
  }

  /// Blocks reachable from successor \p Edge of block \p D without
  /// passing through D again; memoised per edge.
  std::map<std::pair<unsigned, unsigned>, llvm::BitVector> Reach;
  const llvm::BitVector &reachableAvoiding(unsigned D, unsigned Edge) {
    auto Key = std::make_pair(D, Edge);
    auto It = Reach.find(Key);
    if (It != Reach.end())
      return It->second;
    llvm::BitVector Seen(NumBlocks);
    const CFGBlock *DB = blockByID(D);
    const CFGBlock *Start = nullptr;
    unsigned Index = 0;
    for (const CFGBlock *Succ : DB->succs())
      if (Index++ == Edge)
        Start = Succ;
    llvm::SmallVector<const CFGBlock *, 16> Stack;
    if (Start && Start != DB)
      Stack.push_back(Start);
    while (!Stack.empty()) {
      const CFGBlock *X = Stack.pop_back_val();
      if (Seen.test(X->getBlockID()))
        continue;
      Seen.set(X->getBlockID());
      for (const CFGBlock *N : X->succs())
        if (N && N != DB)
          Stack.push_back(N);
    }
    return Reach.emplace(Key, std::move(Seen)).first->second;
  }

  llvm::DenseMap<unsigned, bool> LaneComparisonCache;
  bool isLaneComparison(unsigned BlockID) {
    if (!BranchCond[BlockID])
      return false;
    auto It = LaneComparisonCache.find(BlockID);
    if (It != LaneComparisonCache.end())
      return It->second;
    State End = transferBlock(blockByID(BlockID), In[BlockID]);
    bool Result = laneSplit(BranchCond[BlockID], End).has_value();
    LaneComparisonCache[BlockID] = Result;
    return Result;
  }

  const CFGBlock *blockByID(unsigned ID) const {
    return ID < ByID.size() ? ByID[ID] : nullptr;
  }

  //--- Sites ------------------------------------------------------------------

  llvm::SmallVector<DivergenceSource, 2> sourcesFor(const CFGBlock *B, bool &DataDecided,
                                                    unsigned GroupSize = 32) {
    llvm::SmallVector<DivergenceSource, 2> Out;
    DataDecided = false;
    llvm::BitVector Div = divergentControls(B);
    if (GroupSize < 32)
      for (unsigned ID : Div.set_bits())
        if (branchUniformInGroups(ID, GroupSize))
          Div.reset(ID);
    if (Div.none())
      return Out;
    // Direct control dependences first: they are the innermost conditions.
    llvm::SmallVector<unsigned, 4> Order;
    for (const CFGBlock *D : ControlDeps->getControlDependencies(const_cast<CFGBlock *>(B)))
      if (Div.test(D->getBlockID()))
        Order.push_back(D->getBlockID());
    for (unsigned ID : Div.set_bits())
      if (!llvm::is_contained(Order, ID))
        Order.push_back(ID);
    for (unsigned ID : Order) {
      const CFGBlock *D = blockByID(ID);
      DivergenceSource Src;
      Src.Kind = ExitKind.test(ID) ? DivergenceSource::EarlyExit : DivergenceSource::Branch;
      Src.Condition = BranchCond[ID];
      Src.Terminator = D ? D->getTerminatorStmt() : nullptr;
      Src.LaneComparison = isLaneComparison(ID);
      if (!Src.LaneComparison)
        DataDecided = true;
      Out.push_back(Src);
    }
    return Out;
  }

  /// Volta+ rule: from each rejoining divergent branch, every path reaches a
  /// block with a matching site before the lanes meet again.
  bool coveredOnEveryPath(const CFGBlock *B, const CollectiveSite &Site,
                          const llvm::BitVector &MatchBlocks) {
    llvm::BitVector Div = rejoiningControls(B->getBlockID());
    if (Div.none())
      return false;
    for (unsigned ID : Div.set_bits()) {
      const CFGBlock *D = blockByID(ID);
      const CFGBlock *Join = D ? postDominatorOf(D) : nullptr;
      if (!D || !Join)
        return false;
      for (const CFGBlock *Succ : D->succs()) {
        if (!Succ)
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

  std::optional<CollectiveSite> makeSite(const CallExpr *Call, const CFGBlock *B,
                                         const State &S) {
    CollectiveSite Site;
    Site.Call = Call;
    Site.Must = Must[B->getBlockID()];
    Site.May = May[B->getBlockID()];
    if (std::optional<CollectiveCall> C = recogniseCollective(Call)) {
      const WarpIntrinsic *I = C->Intrinsic;
      if (I->Kind == CollectiveKind::ActiveMask || !I->IsSync)
        return std::nullopt;
      Site.Intrinsic = I;
      Site.Witness = Call;
      if (I->Kind == CollectiveKind::TileMember || I->Kind == CollectiveKind::TileReduce) {
        unsigned N = tileSizeOfCall(Call);
        if (!N)
          return std::nullopt; // coalesced groups and dynamic tiles: not judged
        Site.ImplicitMask = true;
        Site.GroupSize = N;
        Site.Required = tilesTouching(Site.May, N);
      } else if (C->hasImplicitFullMask()) {
        Site.ImplicitMask = true;
        Site.Required = LaneSet::all();
      } else if (std::optional<uint32_t> M = resolveMaskConstant(C->maskArg(), Ctx)) {
        Site.Required = LaneSet(*M);
      } else {
        Site.MaskParameter = unwrittenParameterIndex(C->maskArg());
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
    if (Sum->RequiredLanes) {
      Site.Witness = Sum->Witness;
      Site.Intrinsic = Sum->WitnessIntrinsic;
      Site.Required = Sum->RequiredLanes;
      Site.GroupSize = Sum->GroupSize;
    } else if (Sum->MaskParameter >= 0) {
      // A wrapper whose mask is its parameter: the argument (or the
      // parameter's default) is the mask, as if written here.
      unsigned Index = static_cast<unsigned>(Sum->MaskParameter);
      const Expr *Mask = Index < Call->getNumArgs() ? Call->getArg(Index) : nullptr;
      if (const auto *Default = dyn_cast_or_null<CXXDefaultArgExpr>(Mask))
        Mask = Default->getExpr();
      if (!Mask)
        return std::nullopt;
      Site.Witness = Sum->MaskWitness;
      Site.Intrinsic = Sum->MaskWitnessIntrinsic;
      if (std::optional<uint32_t> M = resolveMaskConstant(Mask, Ctx))
        Site.Required = LaneSet(*M);
      else if ((Site.MaskParameter = unwrittenParameterIndex(Mask)) < 0)
        return std::nullopt;
    } else {
      return std::nullopt;
    }
    // A thread-varying argument that decides, inside the helper, whether
    // the collective runs diverges the lanes there.
    for (unsigned P = 0; P < Def->getNumParams() && P < Call->getNumArgs(); ++P)
      if ((Sum->RequirementConditions & parameterDep(P)) &&
          (deps(Call->getArg(P), S) & ThreadVarying) &&
          !argumentKeepsHelperConverged(Def, *Sum, Call, S, P)) {
        DivergenceSource Src;
        Src.Kind = DivergenceSource::Argument;
        Src.Condition = Call->getArg(P);
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
  bool argumentKeepsHelperConverged(const FunctionDecl *Def, const FunctionSummary &Sum,
                                    const CallExpr *Call, const State &S, unsigned P) {
    const FunctionUniformity *Callee = Cache.analysis(Def);
    if (!Callee || Sum.RequirementBranches.empty())
      return false;
    Impl &C = *Callee->P;
    SymbolicView CallerView(*this, S, Call);
    SymbolicTranslator CallerSide(Ctx, Cache.terms(), CallerView, Opts.AssumeWarpAlignedBlocks);
    llvm::DenseMap<const ParmVarDecl *, TermRef> Bindings;
    for (unsigned I = 0; I < Def->getNumParams() && I < Call->getNumArgs(); ++I)
      if (!C.Mutated.count(Def->getParamDecl(I)))
        Bindings[Def->getParamDecl(I)] = CallerSide.translate(Call->getArg(I));
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
      if (Cache.prover().sameInGroup(Term, Sum.GroupSize) != UniformityProver::Answer::Uniform)
        return false;
    }
    return true;
  }

  /// The index of the parameter of this function that \p E reads, when the
  /// function never writes it; -1 otherwise.
  int unwrittenParameterIndex(const Expr *E) const {
    const auto *Ref = E ? dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()) : nullptr;
    const auto *Parm = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
    if (!Parm || Mutated.count(Parm) || Parm->getDeclContext() != FD)
      return -1;
    return static_cast<int>(Parm->getFunctionScopeIndex());
  }

  void collectSites() {
    // Blocks in source order keep diagnostics stable.
    std::vector<std::pair<const CallExpr *, const CFGBlock *>> Calls;
    for (const CFGBlock *B : *Cfg)
      for (const CFGElement &E : *B)
        if (std::optional<CFGStmt> CS = E.getAs<CFGStmt>())
          if (const auto *Call = dyn_cast<CallExpr>(CS->getStmt()))
            if (BlockOf.lookup(Call) == B)
              Calls.push_back({Call, B});
    const SourceManager &SM = Ctx.getSourceManager();
    llvm::sort(Calls, [&](const auto &A, const auto &B) {
      return SM.isBeforeInTranslationUnit(A.first->getBeginLoc(), B.first->getBeginLoc());
    });
    std::vector<const CFGBlock *> SiteBlocks;
    for (auto [Call, B] : Calls) {
      // Unreachable blocks have no lanes at all.
      if (May[B->getBlockID()].isEmpty())
        continue;
      // Most calls are neither collectives nor helpers containing one; skip
      // them before paying for the state replay.
      if (!recogniseCollective(Call)) {
        const FunctionDecl *Def = definitionOf(Call->getDirectCallee());
        if (!Def || Def == FD || isInSystemHeader(Def, Ctx) || !Cache.containsCollective(Def))
          continue;
      }
      std::optional<State> S = stateBefore(Call);
      if (!S)
        continue;
      std::optional<CollectiveSite> Site = makeSite(Call, B, *S);
      if (!Site)
        continue;
      bool Data = false;
      // A tile's collective: only branches that split some tile count (an
      // argument deciding inside a helper already did).
      if (Site->GroupSize < 32 && Site->Divergence.empty())
        Site->Must = mustThrough(B->getBlockID(), Site->GroupSize);
      for (DivergenceSource &Src : sourcesFor(B, Data, Site->GroupSize)) {
        if (Src.Kind == DivergenceSource::EarlyExit)
          Site->EarlyExits.push_back(Src);
        else
          Site->Divergence.push_back(Src);
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

  //--- Summary ------------------------------------------------------------------

  void summarise() {
    for (const CollectiveSite &Site : Sites) {
      if (!Site.Required && Site.MaskParameter >= 0 && Site.Divergence.empty() &&
          Site.EarlyExits.empty() && Summary.MaskParameter < 0) {
        Summary.MaskParameter = Site.MaskParameter;
        Summary.MaskWitness = Site.Witness;
        Summary.MaskWitnessIntrinsic = Site.Intrinsic;
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
      } else {
        Summary.RequiredLanes = *Summary.RequiredLanes | Lanes;
        Summary.GroupSize = std::max(Summary.GroupSize, Site.GroupSize);
      }
      Summary.RequirementConditions |= Site.ParamConditions;
      if (const CFGBlock *B = BlockOf.lookup(Site.Call))
        for (unsigned ID : Controls[B->getBlockID()].set_bits())
          if ((BranchDeps[ID] & ~ThreadVarying) && BranchCond[ID] &&
              !llvm::is_contained(Summary.RequirementBranches,
                                  std::make_pair(BranchCond[ID], ID)))
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
        Out = It != VarIndex.end() && It->second < AtExit.size() ? AtExit[It->second]
                                                                   : ThreadVarying;
      }
      Summary.ReferenceOut.push_back(Out);
    }
    // What the function returns: the values, plus which lanes return where.
    ValueDeps Ret = 0;
    bool AnyReturn = false;
    for (const CFGBlock *B : *Cfg) {
      State S = In[B->getBlockID()];
      for (const CFGElement &E : *B) {
        std::optional<CFGStmt> CS = E.getAs<CFGStmt>();
        if (!CS)
          continue;
        if (const auto *R = dyn_cast<ReturnStmt>(CS->getStmt())) {
          AnyReturn = true;
          Ret |= deps(R->getRetValue(), S);
          if (divergentControls(B).any())
            Ret |= ThreadVarying;
          for (unsigned ID : Controls[B->getBlockID()].set_bits())
            Ret |= BranchDeps[ID] & ~ThreadVarying;
        }
        transferStmt(CS->getStmt(), S, B->getBlockID());
      }
    }
    Summary.ReturnDeps = AnyReturn ? Ret : 0;
  }
};

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

llvm::SmallVector<DivergenceSource, 2> FunctionUniformity::divergenceAt(const Stmt *S) const {
  const CFGBlock *B = blockFor(*P, S);
  if (!B)
    return {};
  bool Data = false;
  return P->sourcesFor(B, Data);
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
    S.Call->getBeginLoc().print(OS, SM);
    char Buf[96];
    snprintf(Buf, sizeof Buf, " required=%s must=0x%08x may=0x%08x",
             S.Required ? std::to_string(S.Required->bits()).c_str() : "?", S.Must.bits(),
             S.May.bits());
    OS << Buf << " divergent=" << S.Divergence.size() << " exits=" << S.EarlyExits.size()
       << (S.CoveredOnEveryPath ? " covered" : "") << "\n";
  }
}

//===----------------------------------------------------------------------===//
// WarpAnalysisCache
//===----------------------------------------------------------------------===//

namespace {
struct CacheKey {
  const ASTContext *Ctx;
  bool Aligned;
  bool operator<(const CacheKey &O) const {
    return std::tie(Ctx, Aligned) < std::tie(O.Ctx, O.Aligned);
  }
};
std::mutex RegistryMutex;
std::map<CacheKey, std::unique_ptr<WarpAnalysisCache>> &registry() {
  static std::map<CacheKey, std::unique_ptr<WarpAnalysisCache>> R;
  return R;
}
// Runs when the ASTContext goes away, so a later translation unit whose
// context reuses the address starts with an empty cache.
void dropCachesOf(void *Ctx) {
  std::lock_guard<std::mutex> Lock(RegistryMutex);
  auto &R = registry();
  for (auto It = R.begin(); It != R.end();)
    if (It->first.Ctx == Ctx)
      It = R.erase(It);
    else
      ++It;
}
} // namespace

WarpAnalysisCache &WarpAnalysisCache::get(ASTContext &Ctx, const UniformityOptions &Opts) {
  std::lock_guard<std::mutex> Lock(RegistryMutex);
  auto &R = registry();
  CacheKey Key{&Ctx, Opts.AssumeWarpAlignedBlocks};
  auto It = R.find(Key);
  if (It != R.end())
    return *It->second;
  bool First = true;
  for (const auto &Entry : R)
    if (Entry.first.Ctx == &Ctx)
      First = false;
  if (First)
    Ctx.AddDeallocation(dropCachesOf, &Ctx);
  auto &Slot = R[Key];
  Slot = std::make_unique<WarpAnalysisCache>(Ctx, Opts);
  return *Slot;
}

WarpAnalysisCache::WarpAnalysisCache(ASTContext &Ctx, const UniformityOptions &Opts)
    : Ctx(Ctx), Opts(Opts) {}
WarpAnalysisCache::~WarpAnalysisCache() = default;

TermBuilder &WarpAnalysisCache::terms() {
  if (!Terms)
    Terms = std::make_unique<TermBuilder>();
  return *Terms;
}

LaunchFacts &WarpAnalysisCache::launchFacts() {
  if (!Launches)
    Launches = std::make_unique<LaunchFacts>(Ctx);
  return *Launches;
}

UniformityProver &WarpAnalysisCache::prover() {
  if (!Prover)
    Prover = std::make_unique<UniformityProver>(Opts.AssumeWarpAlignedBlocks);
  return *Prover;
}

const WarpAnalysisCache::DirectFacts &
WarpAnalysisCache::directFacts(const FunctionDecl *Def) {
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
    if (const auto *E = dyn_cast<Expr>(S)) {
      BuiltinIndex BI = classifyBuiltinIndex(E);
      if (BI == BuiltinIndex::ThreadIdxX ||
          ((BI == BuiltinIndex::ThreadIdxY || BI == BuiltinIndex::ThreadIdxZ) &&
           !Opts.AssumeWarpAlignedBlocks))
        D.Varying = true;
    }
    if (const auto *Asm = dyn_cast<GCCAsmStmt>(S))
      {
        std::string Text = Asm->getAsmString();
        if (isLaneVaryingAsm(Text.data(), Text.size()))
          D.Varying = true;
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
      } else if (Callee) {
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
  const FunctionDecl *Def = definitionOf(FD);
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

const FunctionUniformity *WarpAnalysisCache::analysis(const FunctionDecl *FD) {
  const FunctionDecl *Def = definitionOf(FD);
  if (!Def)
    return nullptr;
  auto It = Analyses.find(Def);
  if (It != Analyses.end())
    return It->second.get();
  // On the stack (a call the call graph did not show), or a member of the
  // cycle being iterated: no final analysis yet.
  if (InProgress.lookup(Def) || Provisional.count(Def))
    return nullptr;
  Traits T = traits(Def);
  if (!T.HasCollective && !T.HasVaryingSource)
    return nullptr;
  analyseWithCallees(Def);
  It = Analyses.find(Def);
  return It == Analyses.end() ? nullptr : It->second.get();
}

const FunctionSummary *WarpAnalysisCache::summary(const FunctionDecl *FD) {
  if (const FunctionDecl *Def = definitionOf(FD)) {
    auto It = Provisional.find(Def);
    if (It != Provisional.end())
      return It->second.get();
  }
  const FunctionUniformity *A = analysis(FD);
  return A ? &A->summary() : nullptr;
}

void WarpAnalysisCache::analyseOne(const FunctionDecl *Def) {
  InProgress[Def] = true;
  auto P = std::make_unique<FunctionUniformity::Impl>(*this, Def);
  std::unique_ptr<FunctionUniformity> Result;
  if (P->run())
    Result.reset(new FunctionUniformity(std::move(P)));
  InProgress[Def] = false;
  Analyses[Def] = std::move(Result);
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
      if (!Def || Needed.count(Def) || Analyses.count(Def) || InProgress.lookup(Def) ||
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
      if (Def && Needed.count(Def) && !Analyses.count(Def))
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
  if (!Analyses.count(Root))
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
  return A.RequiredLanes == B.RequiredLanes &&
         A.RequirementConditions == B.RequirementConditions && A.ReturnDeps == B.ReturnDeps;
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
      auto P = std::make_unique<FunctionUniformity::Impl>(*this, M);
      bool Ran = P->run();
      InProgress[M] = false;
      if (!Ran) {
        Latest[I].reset();
        Provisional.erase(M);
        Analyses[M] = nullptr;
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
    Analyses[Members[I]] = std::move(Latest[I]);
    Provisional.erase(Slot);
  }
}

//===----------------------------------------------------------------------===//
// Masks
//===----------------------------------------------------------------------===//

std::optional<uint32_t> resolveMaskConstant(const Expr *Mask, ASTContext &Ctx) {
  for (unsigned Depth = 0; Mask && Depth < 4; ++Depth) {
    if (std::optional<uint32_t> V = evaluateMask(Mask, Ctx))
      return V;
    // `unsigned mask = 0xffffffff;` (not const): constant when never written.
    const auto *Ref = dyn_cast<DeclRefExpr>(Mask->IgnoreParenImpCasts());
    const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    if (!Var || !Var->hasLocalStorage() || isa<ParmVarDecl>(Var) || !Var->getInit() ||
        Var->getType().isVolatileQualified())
      return std::nullopt;
    const auto *Fn = dyn_cast_or_null<FunctionDecl>(Var->getParentFunctionOrMethod());
    if (!Fn || !Fn->getBody())
      return std::nullopt;
    // Any write or escape in the function makes the value unknown.
    bool Written = false;
    llvm::SmallVector<const Stmt *, 32> Stack = {Fn->getBody()};
    auto RefersTo = [&](const Expr *E) {
      E = E->IgnoreParenImpCasts();
      const auto *R = dyn_cast<DeclRefExpr>(E);
      return R && R->getDecl() == Var;
    };
    while (!Stack.empty() && !Written) {
      const Stmt *S = Stack.pop_back_val();
      if (!S)
        continue;
      if (const auto *BO = dyn_cast<BinaryOperator>(S))
        Written |= BO->isAssignmentOp() && RefersTo(BO->getLHS());
      else if (const auto *UO = dyn_cast<UnaryOperator>(S))
        Written |= (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf) &&
                   RefersTo(UO->getSubExpr());
      else if (const auto *Call = dyn_cast<CallExpr>(S)) {
        const FunctionDecl *Callee = Call->getDirectCallee();
        for (unsigned I = 0; I < Call->getNumArgs(); ++I)
          if (RefersTo(Call->getArg(I)) &&
              (!Callee ||
               (I < Callee->getNumParams() &&
                Callee->getParamDecl(I)->getType()->isReferenceType() &&
                !Callee->getParamDecl(I)->getType().getNonReferenceType().isConstQualified())))
            Written = true;
      } else if (const auto *Asm = dyn_cast<GCCAsmStmt>(S)) {
        for (unsigned I = 0; I < Asm->getNumOutputs(); ++I)
          Written |= RefersTo(Asm->getOutputExpr(I));
      }
      for (const Stmt *Child : S->children())
        Stack.push_back(Child);
    }
    if (Written)
      return std::nullopt;
    Mask = Var->getInit();
  }
  return std::nullopt;
}

} // namespace warp_tidy

