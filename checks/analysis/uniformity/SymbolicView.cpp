//===--- SymbolicView.cpp - Glue between the taint and the prover -----------===//
//
// Where the taint calls a branch condition thread-varying, it is written as
// a term and the UniformityProver decides whether two lanes of one warp (or
// tile) can disagree. SymbolicView tells the translator what locals stand
// for (single definitions, induction variables, %laneid), inlines helpers
// that only return an expression, and maps cooperative-groups ranks.
// Part of FunctionUniformity::Impl (see FunctionAnalysis.h).
//
//===----------------------------------------------------------------------===//

#include "uniformity/SymbolicView.h"
#include "ast/AstQueries.h"
#include "ast/CallIndex.h"
#include "ast/ConstantPath.h"
#include "ast/FieldConstruction.h"
#include "ast/LocalWrites.h"
#include "ast/MemoryWrites.h"
#include "ast/ThreadIndex.h"
#include "ast/UnitContext.h"
#include "intrinsics/CollectiveCalls.h"
#include "lanes/LaneIdentity.h"
#include "launch/LaunchFacts.h"
#include "symbolic/SymbolicTerm.h"
#include "symbolic/SymbolicTranslation.h"
#include "symbolic/UniformityProver.h"
#include "uniformity/FunctionAnalysis.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/bit.h"
#include <algorithm>

using namespace clang;

namespace warp_tidy {

namespace {

/// The value of special register \p R in the calling lane, 32 bits.
TermRef laneRegisterTerm(LaneRegister R, TermBuilder &Terms) {
  TermRef Lane = Terms.threadIndex(TermOp::HardwareLane);
  // Lanes below (lt) and at or below (le) the calling lane; `2 << 31` is 0
  // in 32 bits, so le of lane 31 is every lane.
  auto Below = [&](uint64_t Step) {
    return Terms.binary(TermOp::Sub, Terms.binary(TermOp::Shl, Terms.constant(Step, 32), Lane),
                        Terms.constant(1, 32));
  };
  switch (R) {
  case LaneRegister::LaneId:
    return Lane;
  case LaneRegister::MaskLt:
    return Below(1);
  case LaneRegister::MaskLe:
    return Below(2);
  case LaneRegister::MaskGt:
    return Terms.unary(TermOp::Not, Below(2));
  case LaneRegister::MaskGe:
    return Terms.unary(TermOp::Not, Below(1));
  case LaneRegister::MaskEq:
    return Terms.binary(TermOp::Shl, Terms.constant(1, 32), Lane);
  }
  return Lane;
}

/// The special register a parameterless helper returns: its body declares
/// a local, fills it by inline asm from the register and returns it
/// (`unsigned r; asm("mov.u32 %0, %%lanemask_lt;" : "=r"(r)); return r;`).
std::optional<LaneRegister> returnedLaneRegister(const FunctionDecl *Def) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Def->getBody());
  const auto *Ret = Body && !Body->body_empty() ? dyn_cast<ReturnStmt>(Body->body_back()) : nullptr;
  const auto *Ref = Ret && Ret->getRetValue()
                        ? dyn_cast<DeclRefExpr>(Ret->getRetValue()->IgnoreParenImpCasts())
                        : nullptr;
  const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!V || !V->hasLocalStorage())
    return std::nullopt;
  const LocalWriteFacts &Writes = localWritesOfBody(Def);
  if (Writes.isWrittenAfterInit(V))
    return std::nullopt;
  return Writes.laneRegisterOutput(V);
}

} // namespace
using namespace uniformity_detail;

namespace {
/// Does \p E read the object of the method it is in (`this`, implicit or
/// written)? Lambdas inside it have their own.
bool readsThis(const Stmt *E) {
  if (!E || isa<LambdaExpr>(E))
    return false;
  if (isa<CXXThisExpr>(E))
    return true;
  for (const Stmt *Child : E->children())
    if (readsThis(Child))
      return true;
  return false;
}

/// \p E is never negative: built from non-negative constants, built-in
/// indices and unsigned values by operations that keep the sign.
bool isNonNegative(const Expr *E, const ASTContext &Ctx) {
  E = E->IgnoreParens();
  if (std::optional<int64_t> C = integerConstant(E, Ctx))
    return *C >= 0;
  if (classifyBuiltinIndex(E) != BuiltinIndex::None)
    return true;
  if (const auto *Cast = dyn_cast<CastExpr>(E))
    return Cast->getSubExpr()->getType()->isIntegerType() && isNonNegative(Cast->getSubExpr(), Ctx);
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    switch (BO->getOpcode()) {
    case BO_Add:
    case BO_Mul:
    case BO_Div:
    case BO_Rem:
    case BO_Shl:
    case BO_Shr:
    case BO_Or:
      return isNonNegative(BO->getLHS(), Ctx) && isNonNegative(BO->getRHS(), Ctx);
    case BO_And:
      return isNonNegative(BO->getLHS(), Ctx) || isNonNegative(BO->getRHS(), Ctx);
    default:
      return false;
    }
  }
  // Any other value of an unsigned type (a variable, a field): as the
  // induction model, which takes every step as an add without overflow.
  return E->getType()->isUnsignedIntegerType() && (isa<DeclRefExpr>(E) || isa<MemberExpr>(E));
}

} // namespace

int FunctionUniformity::Impl::stepSign(const Expr *Step, const Stmt *At) const {
  if (const auto *UO = dyn_cast<UnaryOperator>(At))
    return UO->isIncrementOp() ? 1 : -1;
  const auto *BO = dyn_cast<BinaryOperator>(At);
  if (!BO || !Step || !isNonNegative(Step, Ctx))
    return 0;
  bool Minus = BO->getOpcode() == BO_SubAssign;
  if (const auto *Sum = dyn_cast<BinaryOperator>(BO->getRHS()->IgnoreParenImpCasts());
      BO->getOpcode() == BO_Assign && Sum)
    Minus = Sum->getOpcode() == BO_Sub;
  return Minus ? -1 : 1;
}

const FunctionUniformity::Impl::Induction &FunctionUniformity::Impl::induction(const VarDecl *V) {
  if (!InductionsScanned)
    scanInductions();
  // Nothing is inserted after the scan, so a reference given out stays
  // valid while a translation asks about other variables.
  static const Induction None;
  auto It = Inductions.find(V);
  return It == Inductions.end() ? None : It->second;
}

// One walk of the body for every variable: the prover asks about several
// per function, and a walk per variable was most of what a question cost.
// A variable's entry sees exactly the statements, in the same order, that a
// walk for it alone would; once it is Bad nothing more is recorded for it.
void FunctionUniformity::Impl::scanInductions() {
  InductionsScanned = true;
  llvm::DenseMap<const VarDecl *, bool> Bad;
  auto Candidate = [](const VarDecl *V) {
    return V->getType()->isIntegralOrEnumerationType() && !V->getType().isVolatileQualified() &&
           !isa<ParmVarDecl>(V);
  };
  // The candidate variable \p E names, unless it is already Bad.
  auto Open = [&](const Expr *E) -> const VarDecl * {
    const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    return Var && Candidate(Var) && !Bad.lookup(Var) ? Var : nullptr;
  };
  auto AddInit = [&](const VarDecl *V, const Expr *Init, const Stmt *Point) {
    Induction &I = Inductions[V];
    I.Init = Init;
    I.InitPoint = Point;
    I.Inits.push_back({Init, Point});
  };
  auto AddStep = [&](const VarDecl *V, const Expr *Step, const Stmt *At) {
    Inductions[V].Steps.push_back({Step, At});
  };
  forEachStmt(FD->getBody(), [&](const Stmt *S) {
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls())
        if (const auto *Var = dyn_cast<VarDecl>(D)) {
          if (Var->getInit() && Candidate(Var) && !Bad.lookup(Var))
            AddInit(Var, Var->getInit(), DeclPoint.lookup(Var));
          // A non-const reference bound to a variable writes it elsewhere.
          if (Var->getType()->isReferenceType() &&
              !Var->getType().getNonReferenceType().isConstQualified() && Var->getInit())
            if (const VarDecl *Bound = Open(Var->getInit()))
              Bad[Bound] = true;
        }
    } else if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
      const VarDecl *V = BO->isAssignmentOp() ? Open(BO->getLHS()) : nullptr;
      if (!V)
        return;
      auto IsV = [&](const Expr *E) {
        const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
        return Ref && Ref->getDecl() == V;
      };
      if (BO->getOpcode() == BO_AddAssign || BO->getOpcode() == BO_SubAssign) {
        AddStep(V, BO->getRHS(), BO);
      } else if (isa<CompoundAssignOperator>(BO)) {
        // `w /= 32` defines w anew from the value that reaches it.
        AddInit(V, BO, BO);
      } else if (BO->getOpcode() == BO_Assign) {
        const auto *Sum = dyn_cast<BinaryOperator>(BO->getRHS()->IgnoreParenImpCasts());
        if (Sum && (Sum->getOpcode() == BO_Add || Sum->getOpcode() == BO_Sub) && IsV(Sum->getLHS()))
          AddStep(V, Sum->getRHS(), BO);
        else if (Sum && Sum->getOpcode() == BO_Add && IsV(Sum->getRHS()))
          AddStep(V, Sum->getLHS(), BO);
        else
          AddInit(V, BO->getRHS(), BO);
      } else {
        Bad[V] = true;
      }
    } else if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
      const VarDecl *V = Open(UO->getSubExpr());
      if (V && UO->isIncrementDecrementOp())
        AddStep(V, nullptr, UO);
      else if (V && UO->getOpcode() == UO_AddrOf)
        Bad[V] = true;
    } else if (const auto *Call = dyn_cast<CallExpr>(S)) {
      const FunctionDecl *Callee = Call->getDirectCallee();
      // A member operator's argument 0 is its object (`in[row][i]` passes i
      // to the parameter of operator[], by value).
      unsigned First = Callee ? firstParameterArgument(Call, Callee) : 0;
      for (unsigned A = 0; A < Call->getNumArgs(); ++A) {
        const VarDecl *V = Open(Call->getArg(A));
        if (!V)
          continue;
        if (!Callee || A < First || A - First >= Callee->getNumParams()) {
          Bad[V] = true;
          continue;
        }
        QualType PT = Callee->getParamDecl(A - First)->getType();
        if (PT->isReferenceType() && !PT.getNonReferenceType().isConstQualified() &&
            callMayWriteReferenceParameter(Callee, A - First))
          Bad[V] = true;
      }
    } else if (const auto *Asm = dyn_cast<GCCAsmStmt>(S)) {
      for (unsigned O = 0; O < Asm->getNumOutputs(); ++O)
        if (const VarDecl *V = Open(Asm->getOutputExpr(O)))
          Bad[V] = true;
    } else if (const auto *Lambda = dyn_cast<LambdaExpr>(S)) {
      for (const LambdaCapture &C : Lambda->captures())
        if (C.capturesVariable() && C.getCaptureKind() == LCK_ByRef)
          if (const auto *V = dyn_cast<VarDecl>(C.getCapturedVar()); V && Candidate(V))
            Bad[V] = true;
    }
  });
  for (auto &[V, I] : Inductions) {
    I.OnlyPlainWrites =
        !Bad.lookup(V) && llvm::all_of(I.Inits, [](const auto &Def) { return Def.second; });
    // A compound assignment reads the value before it: alone it is no
    // definition that holds everywhere.
    I.Valid = I.OnlyPlainWrites && I.Inits.size() == 1 &&
              !isa<CompoundAssignOperator>(I.Inits.front().first);
  }
}

bool FunctionUniformity::Impl::leavesForGood(unsigned BranchID, const CFGBlock *Write,
                                             const CFGBlock *Use) const {
  const CFGBlock *Branch = blockByID(BranchID);
  if (!Branch || !Write || !Use)
    return false;
  return llvm::any_of(Branch->succs(), [&](const CFGBlock::AdjacentBlock &Side) {
    const CFGBlock *B = Side.getReachableBlock();
    return B && !reaches(B, Write) && !reaches(B, Use);
  });
}

bool FunctionUniformity::Impl::writesConverged(const VarDecl *V, const Stmt *Use, LaneGroup Group,
                                               unsigned Proving) {
  auto Found = Inductions.find(V);
  if (Found == Inductions.end())
    return false;
  const Induction &I = Found->second;
  auto UseAt = Use ? BlockOf.find(Use) : BlockOf.end();
  const CFGBlock *UseBlock = UseAt == BlockOf.end() ? nullptr : UseAt->second;
  auto Converged = [&](const Stmt *S) {
    auto It = BlockOf.find(S);
    if (It == BlockOf.end())
      return false;
    llvm::BitVector D = Controls[It->second->getBlockID()];
    D &= Divergent;
    for (unsigned ID : D.set_bits())
      if (ID != Proving && !(!Group.isWarp() && branchUniformInGroups(ID, Group)) &&
          !leavesForGood(ID, It->second, UseBlock))
        return false;
    return true;
  };
  for (const auto &Def : I.Inits)
    if (!Converged(Def.second))
      return false;
  for (const auto &Step : I.Steps)
    if (!Converged(Step.second))
      return false;
  return true;
}

bool FunctionUniformity::Impl::writesInLockstep(const VarDecl *V, const Stmt *Use, LaneGroup Group,
                                                unsigned Proving) {
  bool R = writesConverged(V, Use, Group, Proving);
  // Only the rounds' (warp-wide) questions are logged; the group questions
  // come after the rounds.
  if (LogTaint && Group.isWarp()) {
    auto [Logged, New] = LockstepLog.try_emplace({V, Use}, R);
    if (!New && Logged->second != R)
      LockstepChanged = true;
  }
  return R;
}

bool FunctionUniformity::Impl::SymbolicView::isUniform(const Expr *E) {
  // A variable outside any function's frame (`__constant__`, `__device__`,
  // a static member) is one address: every lane reads one value there,
  // also inside an inlined helper (HierarchicalKV's RESERVED_KEY_MASK_1).
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
    if (const auto *V = dyn_cast<VarDecl>(Ref->getDecl()); V && !V->hasLocalStorage())
      return true;
  // Inside an inlined helper the caller's state says nothing about the
  // helper's own expressions.
  return !Inlining && (P.deps(E, *S) & ThreadVarying) == 0;
}

bool FunctionUniformity::Impl::SymbolicView::isUnchangingMemory(const Expr *E) {
  const FunctionDecl *FD = enclosingFunction(E, P.Ctx);
  if (!FD)
    return false;
  if (warp_tidy::isUnchangingMemory(E, FD, P.Ctx))
    return true;
  // Shared memory this function fills in another phase (BarrierPhases.cpp).
  return FD == P.FD && P.storedOnlyInOtherPhases(E);
}

TermRef FunctionUniformity::Impl::SymbolicView::memoryValue(TermRef Address, unsigned Width,
                                                            SymbolicTranslator &T) {
  if (P.Prover.sameInGroup(Address, Group) == UniformityProver::Answer::Uniform)
    return T.terms().uniform(Address, Width, 0, Point);
  return T.terms().load(Address, Width);
}

/// Translates \p E as it is evaluated at \p At (a statement of this
/// function's CFG).
TermRef FunctionUniformity::Impl::SymbolicView::translateAt(const Expr *E, const Stmt *At,
                                                            SymbolicTranslator &T) {
  std::optional<State> There = P.stateBefore(At);
  if (!There || Substitutions > 24)
    return nullptr;
  const State *SavedS = S;
  const Stmt *SavedPoint = Point;
  S = &*There;
  Point = At;
  ++Substitutions;
  // A definition made by a compound assignment is translated where it is
  // made, so its left operand is the value that reaches it.
  const auto *Compound = dyn_cast<CompoundAssignOperator>(E);
  TermRef R = Compound && E == At ? T.compoundAssignment(Compound) : T.translate(E);
  S = SavedS;
  Point = SavedPoint;
  return R;
}

namespace {
/// What every call in the unit passes for a helper's parameter, when each
/// passes a non-negative constant: `do_fft(x, KERNLEN)` from every kernel
/// makes `threadIdx.x < N / 2` a comparison with 512.
struct PassedConstants {
  uint64_t Min = 0, Max = 0;
  unsigned ZeroBits = 64; ///< low bits zero in all of them
};
} // namespace

static std::optional<PassedConstants> constantsPassedFor(const ParmVarDecl *Parm, ASTContext &Ctx) {
  if (!Parm->getType()->isIntegerType())
    return std::nullopt;
  std::optional<llvm::SmallVector<const Expr *, 4>> Args =
      UnitContext::of(Ctx).get<CallIndex>().argumentsPassedFor(Parm, Ctx);
  if (!Args || Args->empty())
    return std::nullopt;
  PassedConstants P;
  bool First = true;
  for (const Expr *Arg : *Args) {
    std::optional<int64_t> V = Arg ? integerConstant(Arg, Ctx) : std::nullopt;
    if (!V || *V < 0)
      return std::nullopt;
    uint64_t U = static_cast<uint64_t>(*V);
    P.Min = First ? U : std::min(P.Min, U);
    P.Max = First ? U : std::max(P.Max, U);
    P.ZeroBits = std::min(P.ZeroBits, U ? unsigned(llvm::countr_zero(U)) : 64u);
    First = false;
  }
  P.ZeroBits = std::min(P.ZeroBits, 31u);
  return P;
}

TermRef FunctionUniformity::Impl::SymbolicView::variable(const VarDecl *V, const Expr *Ref,
                                                         SymbolicTranslator &T) {
  if (const auto *Parm = dyn_cast<ParmVarDecl>(V)) {
    auto It = Bindings.find(Parm);
    if (It != Bindings.end())
      return It->second;
  }
  if (auto It = HelperLocals.find(V); It != HelperLocals.end())
    return It->second;
  if (Inlining || !V->hasLocalStorage())
    return nullptr;
  V = P.resolve(V);
  TermBuilder &Terms = T.terms();
  unsigned W = T.widthOf(V->getType());
  if (std::optional<LaneRegister> R = P.asmLaneRegister(V); R && !P.isMutated(V))
    return Terms.cast(laneRegisterTerm(*R, Terms), W, false);
  // A helper's parameter that every call passes as a constant: uniform,
  // whatever the dataflow assumed of an unknown caller.
  std::optional<PassedConstants> Passed;
  if (const auto *Parm = dyn_cast<ParmVarDecl>(V); Parm && !P.isMutated(V))
    Passed = constantsPassedFor(Parm, P.Ctx);
  if (Passed && Passed->Min == Passed->Max)
    return Terms.constant(Passed->Min, W);
  if (Passed)
    return Terms.uniform(V, W, Passed->ZeroBits, nullptr, Passed->Max);
  if (const Expr *Init = P.singleDefinition(V))
    if (const Stmt *At = P.DeclPoint.lookup(V))
      if (TermRef R = translateAt(Init, At, T))
        return R;
  if (P.isMutated(V)) {
    const Induction &I = P.induction(V);
    if (I.Valid && P.writesInLockstep(V, Point, Group, ProvingBlock))
      if (TermRef Value = inductionValue(V, I, W, T))
        return Value;
    // The one definition that reaches here (of several, or of one whose
    // later steps are not in lockstep): without steps since, that one is the
    // value (`begin = rowPtr[row]; size = end - begin;` before a loop that
    // advances begin); with steps, every lane took the same ones when all
    // writes ran in lockstep.
    if (I.OnlyPlainWrites) {
      Induction Reaching = P.reachingInduction(V, Point);
      if (Reaching.Valid &&
          (Reaching.Steps.empty() || P.writesInLockstep(V, Point, Group, ProvingBlock)))
        if (TermRef Value = inductionValue(V, Reaching, W, T))
          return Value;
    }
  }
  // A leaf: one per variable (and per point where it may have changed).
  const void *At = P.isMutated(V) ? Point : nullptr;
  // Only a thread-varying source makes a leaf per lane. A value that
  // depends on this helper's parameters alone is the same in every lane
  // whose caller passes the same arguments; whether callers do is asked at
  // the calls (a Site's Argument divergence), as for any other question the
  // helper's parameters decide.
  if (P.varDeps(V, *S) & ThreadVarying)
    return Terms.perLane(V, W, At);
  // A kernel parameter keeps what every launch of the kernel in this unit
  // guarantees (`GGML_ASSERT(n % 32 == 0)` before the launch).
  unsigned Zeros = 0;
  if (const auto *Parm = dyn_cast<ParmVarDecl>(V); Parm && !At)
    Zeros = P.Cache.launchFacts().knownZeroBits(Parm);
  return Terms.uniform(V, W, Zeros, At);
}

/// Init + the sum of the steps taken so far. Every lane of the warp took
/// the same steps (they run in lockstep), so each step's total is one
/// uniform unknown; it keeps the low zero bits every step has (a sum of
/// multiples of 32 is a multiple of 32).
TermRef FunctionUniformity::Impl::SymbolicView::inductionValue(const VarDecl *V, const Induction &I,
                                                               unsigned W, SymbolicTranslator &T) {
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
    // the initial value plus their sum does not overflow either; steps that
    // only add sum to a non-negative amount (the model takes it below the
    // signed maximum: a loop would have to run through more than half the
    // type's values from a negative start to pass it).
    bool SignedVar = V->getType()->isSignedIntegerOrEnumerationType();
    uint64_t Bound =
        SignedVar && W < 64 && P.stepSign(Step, At) > 0 ? (uint64_t(1) << (W - 1)) - 1 : 0;
    Value = Terms.binary(TermOp::Add, Value, Terms.uniform(At, W, Zeros, Point, Bound), SignedVar);
  }
  return Value;
}

TermRef FunctionUniformity::Impl::SymbolicView::call(const CallExpr *Call, SymbolicTranslator &T) {
  TermBuilder &Terms = T.terms();
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee)
    return nullptr;
  // Cooperative groups: ranks are positions in the block-linear order.
  if (const auto *Method = dyn_cast<CXXMethodDecl>(Callee))
    if (Method->getIdentifier()) {
      llvm::StringRef Name = Method->getName();
      const CXXRecordDecl *Class = Method->getParent();
      if (Name == "thread_rank" && Class->getIdentifier() && Class->getName() == "thread_block")
        return linearThreadId(Terms);
      unsigned N = tileSizeOfCall(Call);
      if (N && (Name == "thread_rank" || Name == "meta_group_rank")) {
        TermRef Linear = linearThreadId(Terms);
        return Terms.binary(Name == "thread_rank" ? TermOp::URem : TermOp::UDiv, Linear,
                            Terms.constant(N, 32));
      }
    }
  // A helper that only returns an expression of its parameters, perhaps
  // through const locals (`laneId()`, `roundUp32(n)`, `auto const chunk =
  // tidx / N; return chunk * N;`): its value is that expression.
  if (TermRef R = inlineHelper(Call, nullptr, T))
    return R;
  // A parameterless helper the lane recogniser reads as the lane (CUB's
  // LaneId(): `%laneid` moved into a local by asm, then returned), or that
  // returns a lane mask register the same way (`%lanemask_lt`).
  const FunctionDecl *Def = definitionOf(Callee);
  if (Def && Def->getNumParams() == 0 && !isa<CXXMethodDecl>(Def) &&
      !isInSystemHeader(Def, P.Ctx)) {
    unsigned W = T.widthOf(Call->getType());
    PositionForm F = positionForm(Call, P.Ctx);
    if (F.Kind == PositionForm::Lane && !F.Group)
      return Terms.cast(Terms.threadIndex(TermOp::HardwareLane), W, false);
    if (std::optional<LaneRegister> R = returnedLaneRegister(Def))
      return Terms.cast(laneRegisterTerm(*R, Terms), W, false);
  }
  return application(Call, T);
}

TermRef FunctionUniformity::Impl::SymbolicView::application(const CallExpr *Call,
                                                            SymbolicTranslator &T) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  QualType Result = Call->getType();
  if (!Callee || isa<CXXMemberCallExpr>(Call) || Call->getNumArgs() == 0 ||
      !(Result->isIntegralOrEnumerationType() || Result->isRealFloatingType()))
    return nullptr;
  if (const auto *Method = dyn_cast<CXXMethodDecl>(Callee); Method && !Method->isStatic())
    return nullptr;
  if (classifyCallee(Callee) || isThreadVaryingSourceCall(Callee))
    return nullptr;
  const FunctionDecl *Def = definitionOf(Callee);
  const FunctionDecl *Body = Def ? Def : Callee;
  if (Body == P.FD || (!Def && !isInSystemHeader(Callee, P.Ctx)))
    return nullptr; // recursion, or a body the analysis cannot see
  if (P.Cache.readsVaryingSource(Body) || P.Cache.containsCollective(Body))
    return nullptr;
  TermBuilder &Terms = T.terms();
  llvm::SmallVector<TermRef, 4> Arguments;
  for (const Expr *A : Call->arguments())
    Arguments.push_back(T.translate(A));
  return Terms.apply(Terms.uniform(Body->getCanonicalDecl(), 64, 0, nullptr), Arguments,
                     T.widthOf(Call->getType()));
}

/// Whether \p R is built from constants and the thread's own indices alone
/// (no leaf standing for a value the translator could not see through).
static bool onlyThreadLeaves(TermRef R) {
  return !containsLoad(R) && everyLeaf(R, 256, [](const Term &Leaf) {
    return Leaf.Op != TermOp::Uniform && Leaf.Op != TermOp::PerLane;
  });
}

namespace {
/// A helper that returns one expression in this instantiation: the return
/// its constant path reaches (ConstantPath.h), passing only definitions of
/// const integer locals (and static_asserts), which go to \p Locals in
/// order. Null for any other body.
const Expr *helperBody(const FunctionDecl *Def, llvm::SmallVectorImpl<const VarDecl *> &Locals) {
  ConstantPath Path = constantPath(Def);
  if (!Path.Return)
    return nullptr;
  for (const DeclStmt *DS : Path.Declarations)
    for (const Decl *D : DS->decls()) {
      if (isa<StaticAssertDecl>(D))
        continue;
      const auto *V = dyn_cast<VarDecl>(D);
      // Only values that cannot change after their definition.
      if (!V || !V->hasLocalStorage() || !V->getInit() || !V->getType().isConstQualified() ||
          !V->getType()->isIntegralOrEnumerationType())
        return nullptr;
      Locals.push_back(V);
    }
  return Path.Return->getRetValue();
}

/// The initialiser of \p Field in the braced list \p E of an aggregate;
/// null when \p E is not one.
const Expr *fieldInitializer(const Expr *E, const FieldDecl *Field) {
  const auto *List = dyn_cast_or_null<InitListExpr>(stripValue(E));
  if (!List || !List->getType()->isRecordType())
    return nullptr;
  unsigned Index = Field->getFieldIndex();
  if (Field->getParent()->getCanonicalDecl() !=
          List->getType()->getAsRecordDecl()->getCanonicalDecl() ||
      Index >= List->getNumInits())
    return nullptr;
  return List->getInit(Index);
}
} // namespace

TermRef FunctionUniformity::Impl::SymbolicView::inlineHelper(const CallExpr *Call,
                                                             const FieldDecl *Field,
                                                             SymbolicTranslator &T) {
  const FunctionDecl *Def = definitionOf(Call->getDirectCallee());
  if (!Def || Inlining > 3 || isInSystemHeader(Def, P.Ctx))
    return nullptr;
  llvm::SmallVector<const VarDecl *, 4> Locals;
  const Expr *Returned = helperBody(Def, Locals);
  if (Returned && Field)
    Returned = fieldInitializer(Returned, Field);
  if (!Returned)
    return nullptr;
  // A method that returns something of its object (`return n;`, a getter
  // such as cuGraph's number_of_edges()) is a leaf here: the object's
  // fields are nothing the translator can bind, and the dataflow knows
  // whether the call is warp-uniform (it is when the object is).
  if (const auto *Method = dyn_cast<CXXMethodDecl>(Def); Method && Method->isInstance()) {
    if (readsThis(Returned))
      return nullptr;
    for (const VarDecl *V : Locals)
      if (readsThis(V->getInit()))
        return nullptr;
  }
  llvm::DenseMap<const ParmVarDecl *, TermRef> Saved = Bindings;
  llvm::DenseMap<const VarDecl *, TermRef> SavedLocals = HelperLocals;
  for (unsigned I = 0; I < Def->getNumParams(); ++I)
    if (const Expr *Arg = argumentForParameter(Call, Def, I))
      Bindings[Def->getParamDecl(I)] = T.translate(Arg);
  ++Inlining;
  bool Complete = true;
  for (const VarDecl *V : Locals) {
    TermRef Value = T.translate(V->getInit());
    if (!Value) {
      Complete = false;
      break;
    }
    HelperLocals[V] = T.terms().cast(Value, T.widthOf(V->getType()),
                                     V->getType()->isSignedIntegerOrEnumerationType());
  }
  TermRef R = Complete ? T.translate(Returned) : nullptr;
  --Inlining;
  Bindings = std::move(Saved);
  HelperLocals = std::move(SavedLocals);
  return R;
}

TermRef FunctionUniformity::Impl::SymbolicView::localAggregateField(const MemberExpr *Read,
                                                                    SymbolicTranslator &T) {
  const auto *F = dyn_cast<FieldDecl>(Read->getMemberDecl());
  const auto *Base = dyn_cast<DeclRefExpr>(stripValue(Read->getBase()));
  const auto *V = Base ? dyn_cast<VarDecl>(Base->getDecl()) : nullptr;
  if (!F || Read->isArrow() || !V || Inlining || !V->hasLocalStorage() || isa<ParmVarDecl>(V) ||
      !V->getType()->isRecordType())
    return nullptr;
  V = P.resolve(V);
  const Expr *Init = P.singleDefinition(V);
  const Stmt *At = P.DeclPoint.lookup(V);
  if (!Init || !At)
    return nullptr;
  // `const uint2 k{tidx / 4, tidx % 4}`: the field's own initialiser.
  if (const Expr *Value = fieldInitializer(Init, F))
    return translateAt(Value, At, T);
  // `const auto k = chunk_index(tidx)`: the field of what the helper returns,
  // its arguments read where the local is defined.
  const auto *Call = dyn_cast<CallExpr>(stripValue(Init));
  if (!Call)
    return nullptr;
  std::optional<State> There = P.stateBefore(At);
  if (!There)
    return nullptr;
  const State *SavedS = S;
  const Stmt *SavedPoint = Point;
  S = &*There;
  Point = At;
  TermRef R = inlineHelper(Call, F, T);
  S = SavedS;
  Point = SavedPoint;
  return R;
}

TermRef FunctionUniformity::Impl::SymbolicView::field(const MemberExpr *Read,
                                                      SymbolicTranslator &T) {
  if (TermRef R = localAggregateField(Read, T))
    return R;
  // Fields read in a constructor's initialiser are earlier fields of the
  // same object (FieldConstruction.h): a few levels at most.
  const FieldDecl *F = fieldOfThis(Read);
  if (!F || FieldDepth > 4)
    return nullptr;
  const Expr *Value = constructionValue(F, P.Cache.fieldStores());
  if (!Value)
    return nullptr;
  // The constructor's expression, read where no local or parameter of this
  // function can be bound (as in a helper being inlined): what is not a
  // constant, a thread index or a lane helper becomes a leaf, and then the
  // field stays a leaf of its own.
  ++Inlining;
  ++FieldDepth;
  TermRef R = T.translate(Value);
  --FieldDepth;
  --Inlining;
  return R && onlyThreadLeaves(R) ? R : nullptr;
}

TermRef FunctionUniformity::Impl::SymbolicView::linearThreadId(TermBuilder &Terms) {
  TermRef X = Terms.threadIndex(TermOp::ThreadX), Y = Terms.threadIndex(TermOp::ThreadY),
          Z = Terms.threadIndex(TermOp::ThreadZ);
  TermRef Dx = Terms.threadIndex(TermOp::BlockDimX), Dy = Terms.threadIndex(TermOp::BlockDimY);
  return Terms.binary(TermOp::Add, X,
                      Terms.binary(TermOp::Mul, Dx,
                                   Terms.binary(TermOp::Add, Y, Terms.binary(TermOp::Mul, Dy, Z))));
}

/// True when no two lanes of \p Group can evaluate \p Cond differently,
/// given the state \p S where it is evaluated.
bool FunctionUniformity::Impl::provedUniform(unsigned BlockID, const Expr *Cond, const State &S,
                                             LaneGroup Group) {
  if (!Cond)
    return false;
  // A comparison of the lane with a constant: its split says it (for a
  // group of named lanes: whether they all take one side).
  if (Group.Size >= 32)
    if (std::optional<LaneSplit> Split = laneSplit(Cond, S)) {
      if (Group.wholeGroups())
        return Split->Uniform;
      LaneSet Named(Group.Lanes);
      return Split->TrueMust.includes(Named) || Split->FalseMust.includes(Named);
    }
  const CFGBlock *B = blockByID(BlockID);
  SymbolicView View(*this, S, B ? B->getTerminatorStmt() : Cond);
  View.Group = Group;
  View.ProvingBlock = BlockID;
  SymbolicTranslator Translator(Ctx, Cache.terms(), View, Opts.AssumeWarpAlignedBlocks);
  TermRef Term = Translator.translate(Cond);
  return Prover.sameInGroup(Term, Group) == UniformityProver::Answer::Uniform;
}

bool FunctionUniformity::Impl::branchUniformInGroups(unsigned BlockID, LaneGroup Group) {
  auto Key = std::make_pair(BlockID, Group.key());
  auto It = BranchGroupUniform.find(Key);
  if (It != BranchGroupUniform.end())
    return It->second;
  // Asked again while this proof runs (a loop whose steps another branch
  // controls, which in turn asks about this one): not proved, so cycles
  // end and nothing is assumed that was not shown.
  BranchGroupUniform[Key] = false;
  bool R = false;
  if (const CFGBlock *B = blockByID(BlockID))
    if (BranchCond[BlockID]) {
      State End = transferBlock(B, In[BlockID]);
      R = provedUniform(BlockID, BranchCond[BlockID], End, Group);
    }
  BranchGroupUniform[Key] = R;
  return R;
}

} // namespace warp_tidy
