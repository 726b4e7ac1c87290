//===--- Butterflies.cpp - Full xor butterflies -----------------------------===//
//
// Recognises `for (o = 16; o > 0; o /= 2) v = op(v, __shfl_xor_sync(full, v,
// o))` with a commutative op: after the loop every lane holds the same v.
// Part of FunctionUniformity::Impl (see FunctionAnalysis.h).
//
//===----------------------------------------------------------------------===//

#include "ast/AstQueries.h"
#include "ast/ThreadIndex.h"
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
/// `__shfl_xor_sync(full mask, v, offset[, 32])`, directly or through a
/// one-line wrapper (xorShuffleOf), and op commutative.
bool FunctionUniformity::Impl::isButterflyStep(const VarDecl *V, BinaryOperatorKind Op,
                                               const Expr *Value, const VarDecl *Offset) {
  auto IsV = [&](const Expr *E) {
    const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return Ref && Ref->getDecl() == V;
  };
  auto IsShuffle = [&](const Expr *E) {
    std::optional<XorShuffle> S = xorShuffleOf(dyn_cast<CallExpr>(E->IgnoreParenImpCasts()));
    if (!S || !S->Mask)
      return false;
    std::optional<uint32_t> Mask = resolveMaskConstant(S->Mask, Ctx);
    const auto *Lane = dyn_cast<DeclRefExpr>(S->Lane->IgnoreParenImpCasts());
    if (!Mask || *Mask != 0xffffffffu || !IsV(S->Value) || !Lane || Lane->getDecl() != Offset)
      return false;
    if (S->Width) {
      std::optional<int64_t> Width = integerConstant(S->Width, Ctx);
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
    return Commutative(BO->getOpcode()) && ((IsV(BO->getLHS()) && IsShuffle(BO->getRHS())) ||
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

} // namespace warp_tidy
