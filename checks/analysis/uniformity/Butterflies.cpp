//===--- Butterflies.cpp - Full xor butterflies -----------------------------===//
//
// Recognises `for (o = 16; o > 0; o /= 2) v = op(v, __shfl_xor_sync(full, v,
// o))` with a commutative op: after the loop every lane holds the same v.
// Part of FunctionUniformity::Impl (see FunctionAnalysis.h).
//
//===----------------------------------------------------------------------===//

#include "ast/AstQueries.h"
#include "ast/CallIndex.h"
#include "ast/ConstantPath.h"
#include "ast/LocalWrites.h"
#include "ast/ThreadIndex.h"
#include "ast/UnitContext.h"
#include "intrinsics/CollectiveCalls.h"
#include "intrinsics/WarpIntrinsics.h"
#include "symbolic/SymbolicTerm.h"
#include "symbolic/SymbolicTranslation.h"
#include "uniformity/FunctionAnalysis.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"

using namespace clang;

namespace warp_tidy {
using namespace uniformity_detail;

namespace {

/// The operands of an xor shuffle, as the caller wrote them.
struct XorShuffle {
  const Expr *Value = nullptr, *Lane = nullptr, *Mask = nullptr;
  const Expr *Width = nullptr; ///< null: the intrinsic's default, 32
};

/// The shuffle \p Call makes: `__shfl_xor_sync(...)` itself, or a call of a
/// helper whose body is one `return` of such a shuffle of its parameters
/// (`shflXor(v, o)` returning `__shfl_xor_sync(mask, v, o, width)`), with
/// each parameter replaced by the call's argument (or its default). A
/// project's wrapper is the same shuffle: what the butterfly needs is the
/// operation, not its spelling.
std::optional<XorShuffle> xorShuffleOf(const CallExpr *Call, unsigned Depth = 0) {
  if (!Call || Depth > 2)
    return std::nullopt;
  if (std::optional<CollectiveCall> C = recogniseCollective(Call)) {
    if (C->Intrinsic->Kind != CollectiveKind::Shuffle ||
        C->Intrinsic->Direction != ShuffleDirection::Xor || !C->Intrinsic->IsSync)
      return std::nullopt;
    XorShuffle S;
    S.Value = Call->getArg(C->Intrinsic->ValueArg);
    S.Lane = Call->getArg(C->Intrinsic->LaneOrDeltaArg);
    S.Mask = C->maskArg();
    int W = C->Intrinsic->WidthArg;
    if (W >= 0 && static_cast<unsigned>(W) < Call->getNumArgs() &&
        !isa<CXXDefaultArgExpr>(Call->getArg(W)))
      S.Width = Call->getArg(W);
    return S;
  }
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (const FunctionDecl *Def = Callee ? Callee->getDefinition() : nullptr)
    Callee = Def;
  const auto *Body = Callee ? dyn_cast_or_null<CompoundStmt>(Callee->getBody()) : nullptr;
  const auto *Ret = Body && Body->size() == 1 ? dyn_cast<ReturnStmt>(Body->body_front()) : nullptr;
  const auto *Inner = Ret && Ret->getRetValue()
                          ? dyn_cast<CallExpr>(Ret->getRetValue()->IgnoreParenImpCasts())
                          : nullptr;
  std::optional<XorShuffle> S = xorShuffleOf(Inner, Depth + 1);
  if (!S)
    return std::nullopt;
  unsigned First = firstParameterArgument(Call, Callee);
  // A parameter of the helper stands for the caller's argument; anything
  // else in the shuffle must not depend on the helper's own state.
  auto Bind = [&](const Expr *E, bool &Ok) -> const Expr * {
    if (!E)
      return nullptr;
    const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    const auto *Parm = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
    if (!Parm) {
      Ok &= !Ref || !isa<VarDecl>(Ref->getDecl()) ||
            !cast<VarDecl>(Ref->getDecl())->hasLocalStorage();
      return E;
    }
    unsigned Index = Parm->getFunctionScopeIndex();
    if (Parm->getDeclContext() != Callee || First + Index >= Call->getNumArgs()) {
      Ok = false;
      return E;
    }
    const Expr *Arg = Call->getArg(First + Index);
    if (const auto *Default = dyn_cast<CXXDefaultArgExpr>(Arg))
      Arg = Default->getExpr();
    return Arg;
  };
  bool Ok = true;
  S->Value = Bind(S->Value, Ok);
  S->Lane = Bind(S->Lane, Ok);
  S->Mask = Bind(S->Mask, Ok);
  S->Width = Bind(S->Width, Ok);
  return Ok ? S : std::nullopt;
}

/// Whether a declaration statement within \p Scope declares \p V.
bool declares(const Stmt *Scope, const VarDecl *V) {
  bool Found = false;
  forEachStmt(Scope, [&](const Stmt *S) {
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        Found |= D == V;
  });
  return Found;
}

bool isCommutative(BinaryOperatorKind K) {
  return K == BO_Add || K == BO_Mul || K == BO_And || K == BO_Or || K == BO_Xor;
}

/// \p E as a commutative combination of two operands, put in \p A and \p B:
/// `a op b` for a commutative operator; a call of min or max; or a call of
/// a function that returns such a combination of its two parameters
/// (`static T op(T a, T b) { return a | b; }`), whatever it is named.
bool commutativeOperands(const Expr *E, const Expr *&A, const Expr *&B, unsigned Depth = 0) {
  E = E->IgnoreParenImpCasts();
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    A = BO->getLHS();
    B = BO->getRHS();
    return isCommutative(BO->getOpcode());
  }
  const auto *Call = dyn_cast<CallExpr>(E);
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  unsigned First = Callee ? firstParameterArgument(Call, Callee) : 0;
  if (!Callee || Call->getNumArgs() != First + 2 || Depth > 2)
    return false;
  A = Call->getArg(First);
  B = Call->getArg(First + 1);
  if (Callee->getIdentifier()) {
    llvm::StringRef Name = Callee->getName();
    if (Name == "max" || Name == "min" || Name == "fmaxf" || Name == "fminf" || Name == "fmax" ||
        Name == "fmin" || Name == "__hmax" || Name == "__hmin")
      return true;
  }
  const FunctionDecl *Def = Callee->getDefinition();
  const ReturnStmt *Ret = Def ? constantPath(Def).Return : nullptr;
  const Expr *InnerA = nullptr, *InnerB = nullptr;
  if (!Ret || !Ret->getRetValue() || Def->getNumParams() != 2 ||
      !commutativeOperands(Ret->getRetValue(), InnerA, InnerB, Depth + 1))
    return false;
  // The helper's own operands must be its two parameters, one each.
  auto Parameter = [&](const Expr *X) -> const ParmVarDecl * {
    const auto *Ref = dyn_cast<DeclRefExpr>(X->IgnoreParenImpCasts());
    return Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
  };
  const ParmVarDecl *PA = Parameter(InnerA), *PB = Parameter(InnerB);
  return PA && PB && PA != PB && PA->getDeclContext() == Def && PB->getDeclContext() == Def;
}

} // namespace

llvm::ArrayRef<const VarDecl *> FunctionUniformity::Impl::butterflyResults(const Stmt *Loop) {
  const auto *For = dyn_cast_or_null<ForStmt>(Loop);
  if (!For)
    return {};
  auto [It, New] = Butterflies.try_emplace(For);
  if (New)
    It->second = findButterflies(For);
  return It->second;
}

llvm::SmallVector<const VarDecl *, 1>
FunctionUniformity::Impl::findButterflies(const ForStmt *For) {
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
  std::optional<int64_t> First = Start ? integerConstant(Start, Ctx) : std::nullopt;
  if (!Offset || !First || *First != 16)
    return Result;
  const auto *Cond = dyn_cast_or_null<BinaryOperator>(
      For->getCond() ? For->getCond()->IgnoreParenImpCasts() : nullptr);
  if (!Cond)
    return Result;
  std::optional<int64_t> Limit = integerConstant(Cond->getRHS(), Ctx);
  bool Positive =
      IsOffset(Cond->getLHS()) && Limit &&
      ((Cond->getOpcode() == BO_GT && *Limit == 0) || (Cond->getOpcode() == BO_GE && *Limit == 1) ||
       (Cond->getOpcode() == BO_NE && *Limit == 0));
  if (!Positive)
    return Result;
  const auto *Inc = dyn_cast_or_null<BinaryOperator>(
      For->getInc() ? For->getInc()->IgnoreParenImpCasts() : nullptr);
  if (!Inc || !IsOffset(Inc->getLHS()))
    return Result;
  std::optional<int64_t> By = integerConstant(Inc->getRHS(), Ctx);
  bool Halves = By && ((Inc->getOpcode() == BO_ShrAssign && *By == 1) ||
                       (Inc->getOpcode() == BO_DivAssign && *By == 2));
  if (const auto *RHS = dyn_cast<BinaryOperator>(Inc->getRHS()->IgnoreParenImpCasts()))
    if (Inc->getOpcode() == BO_Assign && IsOffset(RHS->getLHS())) {
      std::optional<int64_t> K = integerConstant(RHS->getRHS(), Ctx);
      Halves =
          K && ((RHS->getOpcode() == BO_Shr && *K == 1) || (RHS->getOpcode() == BO_Div && *K == 2));
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
    if (isButterflyStep(Target, Op, Value, Offset, For->getBody()))
      ++Steps[Target];
  });
  if (OffsetWritten)
    return Result;
  for (auto [V, N] : Steps)
    if (N == 1 && Writes.lookup(V) == 1)
      Result.push_back(V);
  return Result;
}

const VarDecl *FunctionUniformity::Impl::butterflyChainEnd(const Stmt *S) {
  if (!ChainsScanned) {
    ChainsScanned = true;
    forEachStmt(FD->getBody(), [&](const Stmt *Child) {
      if (const auto *Block = dyn_cast<CompoundStmt>(Child))
        scanButterflyChains(Block);
    });
  }
  return ButterflyChainEnds.lookup(S);
}

namespace {
/// The variable \p S writes as a whole, how, and with what: `T v = e;`,
/// `v = e`, `v op= e`.
struct WholeWrite {
  const VarDecl *Target = nullptr;
  BinaryOperatorKind Op = BO_Assign;
  const Expr *Value = nullptr;
};
WholeWrite wholeWriteOf(const Stmt *S) {
  WholeWrite W;
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    const auto *V = DS->isSingleDecl() ? dyn_cast<VarDecl>(DS->getSingleDecl()) : nullptr;
    if (V && V->hasLocalStorage() && V->getInit()) {
      W.Target = V;
      W.Value = V->getInit();
    }
  } else if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp()) {
    const auto *Ref = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts());
    const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    if (V && V->hasLocalStorage()) {
      W.Target = V;
      W.Op = BO->getOpcode();
      W.Value = BO->getRHS();
    }
  }
  return W;
}
} // namespace

// After the step with offset k, each lane holds the combination over the
// lanes its index reaches by xor with the offsets so far; once 16, 8, 4, 2
// and 1 are all in, that is every lane of the warp, whatever the order. A
// shuffle may sit in a local declared by the statement just before its step
// (`T t = shfl(a, 8); a = a + t;`); any other statement ends the chain.
void FunctionUniformity::Impl::scanButterflyChains(const CompoundStmt *Block) {
  const VarDecl *Chain = nullptr;
  unsigned Offsets = 0;
  const Stmt *Pending = nullptr;
  for (const Stmt *S : Block->body()) {
    WholeWrite W = wholeWriteOf(S);
    std::optional<ButterflyStep> Step =
        W.Target ? butterflyStep(W.Target, W.Op, W.Value, Pending) : std::nullopt;
    std::optional<int64_t> K = Step ? integerConstant(Step->Lane, Ctx) : std::nullopt;
    bool PowerOfTwo = K && *K >= 1 && *K <= 16 && (*K & (*K - 1)) == 0;
    Pending = nullptr;
    if (!PowerOfTwo) {
      // A shuffle kept for the next statement's step leaves the chain open.
      if (W.Target && isa<DeclStmt>(S) &&
          xorShuffleOf(dyn_cast<CallExpr>(W.Value->IgnoreParenImpCasts()))) {
        Pending = S;
        continue;
      }
      Chain = nullptr;
      Offsets = 0;
      continue;
    }
    if (Step->Source == W.Target && W.Target == Chain && !(Offsets & *K)) {
      Offsets |= *K;
    } else {
      Chain = W.Target;
      Offsets = *K;
    }
    if (Offsets == 31) {
      ButterflyChainEnds[S] = Chain;
      Chain = nullptr;
      Offsets = 0;
    }
  }
}

/// `v op= shfl`, `v = v op shfl`, `v = op(v, shfl)` with shfl =
/// `__shfl_xor_sync(full mask, v, offset[, 32])` and op commutative.
bool FunctionUniformity::Impl::isButterflyStep(const VarDecl *V, BinaryOperatorKind Op,
                                               const Expr *Value, const VarDecl *Offset,
                                               const Stmt *LocalScope) {
  std::optional<ButterflyStep> Step = butterflyStep(V, Op, Value, LocalScope);
  const auto *Lane = Step ? dyn_cast<DeclRefExpr>(Step->Lane->IgnoreParenImpCasts()) : nullptr;
  return Step && Step->Source == V && Lane && Lane->getDecl() == Offset;
}

std::optional<FunctionUniformity::Impl::ButterflyStep>
FunctionUniformity::Impl::butterflyStep(const VarDecl *V, BinaryOperatorKind Op, const Expr *Value,
                                        const Stmt *LocalScope) {
  if (!V || !Value)
    return std::nullopt;
  const Expr *Combined = Value->IgnoreParenImpCasts();
  const Expr *A = nullptr, *B = nullptr;
  if (Op != BO_Assign) {
    // `v op= shfl`: op(v, shfl).
    if (!isCommutative(BinaryOperator::getOpForCompoundAssignment(Op)))
      return std::nullopt;
    return shuffleStep(Combined, V, LocalScope);
  }
  if (!commutativeOperands(Combined, A, B))
    return std::nullopt;
  // One operand is the shuffle, the other the variable it shuffles.
  for (auto [Source, Shuffle] : {std::pair(A, B), std::pair(B, A)})
    if (const auto *Ref = dyn_cast<DeclRefExpr>(Source->IgnoreParenImpCasts()))
      if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
        if (std::optional<ButterflyStep> Step = shuffleStep(Shuffle, Var, LocalScope))
          return Step;
  return std::nullopt;
}

/// \p E as a full-warp xor shuffle of \p Source: the call itself, or a local
/// declared within \p LocalScope by one and never written after (`T val =
/// __shfl_xor_sync(...)` in the loop's body, or just before the step): a
/// local defined earlier may hold the shuffle of an older value.
std::optional<FunctionUniformity::Impl::ButterflyStep>
FunctionUniformity::Impl::shuffleStep(const Expr *E, const VarDecl *Source,
                                      const Stmt *LocalScope) {
  E = E->IgnoreParenImpCasts();
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    if (const auto *Local = dyn_cast<VarDecl>(Ref->getDecl());
        Local && Local != Source && declares(LocalScope, Local))
      if (const Expr *Init = singleAssignmentInit(Local))
        E = Init->IgnoreParenImpCasts();
  std::optional<XorShuffle> S = xorShuffleOf(dyn_cast<CallExpr>(E));
  if (!S || !S->Mask)
    return std::nullopt;
  const auto *Value = dyn_cast<DeclRefExpr>(S->Value->IgnoreParenImpCasts());
  std::optional<uint32_t> Mask = maskInEveryCall(S->Mask);
  if (!Value || Value->getDecl() != Source || !Mask || *Mask != 0xffffffffu)
    return std::nullopt;
  if (S->Width) {
    std::optional<int64_t> Width = integerConstant(S->Width, Ctx);
    if (!Width || *Width != 32)
      return std::nullopt;
  }
  return ButterflyStep{S->Lane, Source};
}

/// A mask's value: a constant, or a parameter for which every call of the
/// function passes the same constant (`warpReduction(FULL_MASK, v)`).
std::optional<uint32_t> FunctionUniformity::Impl::maskInEveryCall(const Expr *Mask) {
  if (std::optional<uint32_t> V = resolveMaskConstant(Mask, Ctx))
    return V;
  const auto *Ref = dyn_cast<DeclRefExpr>(Mask->IgnoreParenImpCasts());
  const auto *Parm = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
  auto Args =
      Parm ? UnitContext::of(Ctx).get<CallIndex>().argumentsPassedFor(Parm, Ctx) : std::nullopt;
  if (!Args)
    return std::nullopt;
  std::optional<uint32_t> Common;
  for (const Expr *Arg : *Args) {
    std::optional<uint32_t> V = resolveMaskConstant(Arg, Ctx);
    if (!V || (Common && *Common != *V))
      return std::nullopt;
    Common = V;
  }
  return Common;
}

} // namespace warp_tidy
