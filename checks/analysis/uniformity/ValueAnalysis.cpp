//===--- ValueAnalysis.cpp - The value dataflow (ValueDeps lattice) ---------===//
//
// Per-statement transfer of ValueDeps (bit 0 thread-varying, bit i+1 "as
// varying as parameter i"), sync dependence (taint of values assigned under
// a rejoining divergent branch), calls through callee summaries, and the
// worklist that solves block entry states.
// Part of FunctionUniformity::Impl (see FunctionAnalysis.h).
//
//===----------------------------------------------------------------------===//

#include "ast/AstQueries.h"
#include "ast/LocalWrites.h"
#include "ast/ThreadIndex.h"
#include "intrinsics/CollectiveCalls.h"
#include "intrinsics/WarpCollective.h"
#include "intrinsics/WarpIntrinsics.h"
#include "symbolic/SymbolicTerm.h"
#include "symbolic/SymbolicTranslation.h"
#include "uniformity/FunctionAnalysis.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/Analysis/FlowSensitive/DataflowWorklist.h"

using namespace clang;

namespace warp_tidy {
using namespace uniformity_detail;

/// Sync dependence: a variable assigned under a divergent branch that it
/// was declared outside of holds different values in different lanes once
/// they meet again.
static ValueDeps taintUnder(const FunctionUniformity::Impl &P, unsigned BlockID, const VarDecl *V) {
  if (P.Divergent.none())
    return 0;
  llvm::BitVector Here = P.rejoiningControls(BlockID);
  if (Here.none())
    return 0;
  auto It = P.DeclBlock.find(V);
  if (It != P.DeclBlock.end()) {
    llvm::BitVector AtDecl = P.rejoiningControls(It->second->getBlockID());
    Here.reset(AtDecl);
  }
  return Here.any() ? ThreadVarying : 0;
}

ValueDeps FunctionUniformity::Impl::taint(unsigned BlockID, const VarDecl *V) const {
  ValueDeps D = taintUnder(*this, BlockID, V);
  if (!LogTaint)
    return D;
  auto [It, New] = TaintLog.try_emplace({BlockID, V}, D);
  if (!New && It->second != D)
    TaintChanged = true;
  return D;
}

bool FunctionUniformity::Impl::roundWouldRepeat() {
  // The value dataflow reads Divergent only through taint(), so a round
  // whose every taint() question gets the same answer under the grown set
  // repeats the last round's computation step for step: the same states,
  // the same branch conditions' dependencies. Its updateDivergence() then
  // finds every thread-varying branch already divergent, or cleared by the
  // prover again: a proof reads the states (the same) and Divergent only
  // through writesInLockstep(), so it holds again when those answers are
  // the same under the grown set too.
  if (TaintChanged || LockstepChanged)
    return false;
  for (const auto &[Question, Answer] : TaintLog)
    if (taintUnder(*this, Question.first, Question.second) != Answer)
      return false;
  for (const auto &[Question, Answer] : LockstepLog)
    if (writesConverged(Question.first, Question.second) != Answer)
      return false;
  return true;
}

void FunctionUniformity::Impl::assign(State &S, const VarDecl *V, ValueDeps D, bool Whole,
                                      unsigned BlockID) {
  if (!V)
    return;
  auto It = VarIndex.find(V);
  if (It == VarIndex.end())
    return;
  D |= taint(BlockID, V);
  if (Whole) {
    S[It->second] = D;
    // The variable's own slot now holds the whole value.
    if (auto Fields = FieldSlots.find(V); Fields != FieldSlots.end())
      for (unsigned I = 0; I < Fields->second.second; ++I)
        S[Fields->second.first + I] = 0;
  } else {
    S[It->second] |= D;
  }
}

void FunctionUniformity::Impl::transferStmt(const Stmt *St, State &S, unsigned BlockID) {
  transferEffects(St, S, BlockID);
  // The last step of a straight-line xor butterfly: every lane agrees.
  if (const VarDecl *V = butterflyChainEnd(St))
    assign(S, V, 0, true, BlockID);
}

void FunctionUniformity::Impl::transferEffects(const Stmt *St, State &S, unsigned BlockID) {
  if (const auto *DS = dyn_cast<DeclStmt>(St)) {
    for (const Decl *D : DS->decls())
      if (const auto *V = dyn_cast<VarDecl>(D)) {
        if (Alias.count(V))
          continue;
        if (isAsmLaneVar(V)) {
          assign(S, V, ThreadVarying, true, BlockID);
          continue;
        }
        if (!assignFieldwise(S, V, V->getInit(), BlockID))
          assign(S, V, V->getInit() ? deps(V->getInit(), S) : 0, true, BlockID);
      }
    return;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(St)) {
    if (!BO->isAssignmentOp())
      return;
    const Expr *LHS = BO->getLHS()->IgnoreParenImpCasts();
    bool Whole = BO->getOpcode() == BO_Assign && isa<DeclRefExpr>(LHS);
    if (Whole && assignFieldwise(S, rootVar(LHS), BO->getRHS(), BlockID))
      return;
    ValueDeps D = deps(BO->getRHS(), S);
    if (assignField(S, LHS, D, BO->getOpcode() == BO_Assign, BlockID))
      return;
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
      assign(S, rootVar(Asm->getOutputExpr(I)), inlinePtxResultIsWarpUniform(Asm, I) ? 0 : D, false,
             BlockID);
    return;
  }
  if (const auto *Call = dyn_cast<CallExpr>(St)) {
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call))
      if (Op->isAssignmentOp() && Op->getNumArgs() == 2) {
        bool Whole =
            Op->getOperator() == OO_Equal && isa<DeclRefExpr>(Op->getArg(0)->IgnoreParenImpCasts());
        if (Whole && assignFieldwise(S, rootVar(Op->getArg(0)), Op->getArg(1), BlockID))
          return;
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
    // A member operator's argument 0 is its object, not a parameter.
    unsigned First = Callee ? firstParameterArgument(Call, Callee) : 0;
    for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
      const Expr *Arg = Call->getArg(I)->IgnoreParenImpCasts();
      const VarDecl *Target = nullptr;
      if (const auto *UO = dyn_cast<UnaryOperator>(Arg)) {
        if (UO->getOpcode() == UO_AddrOf)
          Target = rootVar(UO->getSubExpr());
      } else if (Callee && I >= First && I - First < Callee->getNumParams()) {
        QualType PT = Callee->getParamDecl(I - First)->getType();
        if (PT->isReferenceType() && !PT.getNonReferenceType().isConstQualified() &&
            callMayWriteReferenceParameter(Callee, I - First))
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
bool FunctionUniformity::Impl::transferThroughSummary(const CallExpr *Call, State &S,
                                                      unsigned BlockID) {
  const FunctionDecl *Def = definitionOf(Call->getDirectCallee());
  if (!Def || Def == FD || isa<CXXOperatorCallExpr>(Call) ||
      (!Cache.readsVaryingSource(Def) && !Cache.containsCollective(Def)))
    return false;
  bool AnyReference = false;
  for (const ParmVarDecl *P : Def->parameters())
    AnyReference |=
        P->getType()->isReferenceType() && !P->getType().getNonReferenceType().isConstQualified();
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

ValueDeps FunctionUniformity::Impl::lvalueIndexDeps(const Expr *E, const State &S) {
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

FunctionUniformity::Impl::State FunctionUniformity::Impl::transferBlock(const CFGBlock *B,
                                                                        State S) {
  transferBlockInPlace(B, S);
  return S;
}

void FunctionUniformity::Impl::transferBlockInPlace(const CFGBlock *B, State &S) {
  for (const CFGElement &E : *B)
    if (std::optional<CFGStmt> CS = E.getAs<CFGStmt>())
      transferStmt(CS->getStmt(), S, B->getBlockID());
}

void FunctionUniformity::Impl::solveValues() {
  unsigned NumVars = NumSlots;
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
  // Blocks in reverse post-order: a block's predecessors outside loops are
  // done before it, so most blocks are transferred once per loop pass (the
  // fixpoint is the same in any order; a first-in-first-out queue
  // transferred the blocks of ggml's attention kernels about six times each).
  if (!Order)
    Order = std::make_unique<PostOrderCFGView>(Cfg.get());
  ForwardDataflowWorklist Work(*Cfg, Order.get());
  Work.enqueueBlock(&Cfg->getEntry());
  // One working state and one edge state, reused: functions with hundreds
  // of locals and blocks spent more time allocating and copying states
  // than transferring them.
  State Scratch, Butterfly;
  while (const CFGBlock *B = Work.dequeue()) {
    unsigned ID = B->getBlockID();
    Scratch = In[ID];
    transferBlockInPlace(B, Scratch);
    if (Seen[ID] && Scratch == Out[ID])
      continue;
    Seen[ID] = true;
    std::swap(Out[ID], Scratch);
    unsigned Edge = 0;
    for (const CFGBlock *Succ : B->succs()) {
      unsigned EdgeIndex = Edge++;
      if (!Succ)
        continue;
      unsigned SID = Succ->getBlockID();
      State &SIn = In[SID];
      // Leaving a full xor butterfly: every lane holds the same value.
      const State *Leaving = &Out[ID];
      if (EdgeIndex == 1)
        for (const VarDecl *V : butterflyResults(B->getTerminatorStmt())) {
          auto It = VarIndex.find(V);
          if (It == VarIndex.end())
            continue;
          if (Leaving != &Butterfly) {
            Butterfly = Out[ID];
            Leaving = &Butterfly;
          }
          Butterfly[It->second] = 0;
        }
      ValueDeps Grew = 0;
      for (unsigned I = 0; I < NumVars; ++I) {
        ValueDeps Old = SIn[I], Joined = Old | (*Leaving)[I];
        SIn[I] = Joined;
        Grew |= Joined ^ Old;
      }
      if (!Seen[SID] || Grew != 0)
        Work.enqueueBlock(Succ);
    }
  }
}

/// The value state just before \p E is evaluated.
std::optional<FunctionUniformity::Impl::State>
FunctionUniformity::Impl::stateBefore(const Stmt *E) const {
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

ValueDeps FunctionUniformity::Impl::varDeps(const VarDecl *V, const State &S) const {
  V = resolve(V);
  if (!V->hasLocalStorage())
    return 0; // globals, __shared__, __constant__: a uniform-address load
  auto It = VarIndex.find(V);
  if (It == VarIndex.end())
    return 0;
  return S[It->second] | fieldsJoined(V, S);
}

ValueDeps FunctionUniformity::Impl::deps(const Expr *E, const State &S) {
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
  if (isa<IntegerLiteral, FloatingLiteral, CharacterLiteral, StringLiteral, CXXBoolLiteralExpr,
          CXXNullPtrLiteralExpr, UnaryExprOrTypeTraitExpr, GNUNullExpr, SizeOfPackExpr,
          ImplicitValueInitExpr, LambdaExpr>(E))
    return 0;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *V = dyn_cast<VarDecl>(Ref->getDecl()))
      return varDeps(V, S);
    return 0;
  }
  if (const auto *PO = dyn_cast<PseudoObjectExpr>(E))
    return deps(PO->getResultExpr(), S);
  // A field of a local whose fields are kept apart: its slot, and what was
  // written to the variable as a whole.
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    if (std::optional<unsigned> Slot = fieldSlot(ME))
      if (auto Whole = VarIndex.find(rootVar(ME)); Whole != VarIndex.end())
        return S[*Slot] | S[Whole->second];
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->getOpcode() == BO_Comma)
      return deps(BO->getRHS(), S);
    if (BO->isAssignmentOp())
      return deps(BO->getRHS(), S) | (BO->isCompoundAssignmentOp() ? deps(BO->getLHS(), S) : 0);
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
    // A difference of two thread-varying values can be warp-uniform
    // (threadIdx.x - lane); asked only then, subtractions being everywhere.
    if (Op == BO_Sub) {
      ValueDeps L = deps(BO->getLHS(), S), R = deps(BO->getRHS(), S);
      if (L & R & ThreadVarying) {
        IndexForm F = indexForm(E, S, 0);
        if (F.Kind == IndexForm::WarpUniform || F.Kind == IndexForm::WarpAligned)
          return 0;
      }
      return L | R;
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

ValueDeps FunctionUniformity::Impl::callDeps(const CallExpr *Call, const State &S) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  auto Arg = [&](int I) -> ValueDeps {
    return (I >= 0 && static_cast<unsigned>(I) < Call->getNumArgs()) ? deps(Call->getArg(I), S) : 0;
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
        // A broadcast: every lane reads the value of the same source lane
        // when the source is warp-uniform. A source that is only as varying
        // as some parameters (a wrapper's `src`) makes the result exactly
        // that varying: uniform for every caller that passes a uniform lane
        // (`shfl(count, 0, 32)`), whatever the value.
        ValueDeps Source = Arg(I.LaneOrDeltaArg);
        if (!(Source & ThreadVarying))
          return Source;
        return Value | Source | ThreadVarying;
      }
      return Value | ThreadVarying;
    }
    case CollectiveKind::TileReduce:
      // A reduction's total and a broadcast are the same in every lane.
      return I.Name == "reduce" || I.Name == "invoke_one_broadcast" ? 0 : (Args | ThreadVarying);
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
        if (const Expr *A = argumentForParameter(Call, Def, P);
            A && (Sum->ReturnDeps & parameterDep(P)))
          D |= deps(A, S);
      if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call))
        D |= deps(Member->getImplicitObjectArgument(), S);
      return D;
    }
  }
  return Args;
}

} // namespace warp_tidy
