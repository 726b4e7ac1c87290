//===--- IndexForms.cpp - Lane ids, threadIdx.x forms and lane splits -------===//
//
// indexForm classifies an integer expression by how it relates to the
// thread's position in the warp (lane id, threadIdx.x plus a multiple of 32,
// warp index, ...); laneSplit turns a comparison of such a form with a
// constant into the lane sets on its two edges.
// Part of FunctionUniformity::Impl (see FunctionAnalysis.h).
//
//===----------------------------------------------------------------------===//

#include "FunctionAnalysis.h"
#include "analysis/AstQueries.h"
#include "analysis/CollectiveCalls.h"
#include "analysis/SymbolicTerm.h"
#include "analysis/SymbolicTranslation.h"
#include "analysis/ThreadIndex.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"

using namespace clang;

namespace warp_tidy {
using namespace uniformity_detail;

IndexForm FunctionUniformity::Impl::indexForm(const Expr *E, const State &S, unsigned Depth) {
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
std::optional<LaneSplit> FunctionUniformity::Impl::laneSplit(const Expr *Cond, const State &S,
                                                             unsigned Depth) {
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

} // namespace warp_tidy
