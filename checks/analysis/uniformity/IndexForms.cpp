//===--- IndexForms.cpp - Lane ids, threadIdx.x forms and lane splits -------===//
//
// indexForm asks the one lane-id recogniser (analysis/LaneIdentity.h) how an
// integer expression relates to the thread's position in the warp, with the
// dataflow's knowledge of which leaves are warp-uniform; laneSplit turns a
// comparison of such a form with a constant into the lane sets on its two
// edges; branchLaneSplit also evaluates, thread by thread, a condition whose
// value is a function of threadIdx.x alone that those forms do not cover.
// Part of FunctionUniformity::Impl (see FunctionAnalysis.h).
//
//===----------------------------------------------------------------------===//

#include "ast/AstQueries.h"
#include "ast/ThreadIndex.h"
#include "intrinsics/CollectiveCalls.h"
#include "symbolic/SymbolicTerm.h"
#include "symbolic/SymbolicTranslation.h"
#include "uniformity/FunctionAnalysis.h"
#include "uniformity/SymbolicView.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"

using namespace clang;

namespace warp_tidy {
using namespace uniformity_detail;

namespace {
/// What the value dataflow knows at one program point, for the recogniser:
/// locals seen through the function's own aliases, leaves uniform where the
/// state says so.
struct DataflowEnvironment final : PositionEnvironment {
  DataflowEnvironment(FunctionUniformity::Impl &P, const FunctionUniformity::Impl::State &S)
      : PositionEnvironment(P.Opts.AssumeWarpAlignedBlocks), P(P), S(S) {
    Self = P.FD;
  }
  FunctionUniformity::Impl &P;
  const FunctionUniformity::Impl::State &S;

  const Expr *definition(const VarDecl *V) override {
    return PositionEnvironment::definition(P.resolve(V));
  }
  bool isLaneRegister(const VarDecl *V) override {
    return PositionEnvironment::isLaneRegister(P.resolve(V));
  }
  bool isWarpUniformLeaf(const Expr *E) override { return P.deps(E, S) == 0; }
  std::optional<int64_t> constant(const Expr *E, const ASTContext &Ctx) override {
    auto [It, New] = P.Constants.try_emplace(E);
    if (New)
      It->second = integerConstant(E, Ctx);
    return It->second;
  }
};
} // namespace

IndexForm FunctionUniformity::Impl::indexForm(const Expr *E, const State &S, unsigned Depth) {
  if (!E || Depth > 8)
    return IndexForm();
  DataflowEnvironment Env(*this, S);
  IndexForm F = positionForm(E, Ctx, Env);
  // A rank or index within a smaller group is, for the lane questions
  // asked here, only as uniform as the dataflow says.
  if (F.Kind == IndexForm::GroupRank || F.Kind == IndexForm::GroupIndex) {
    IndexForm Leaf;
    if (deps(E, S) == 0)
      Leaf.Kind = IndexForm::WarpUniform;
    return Leaf;
  }
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
  auto Holds = [&](long long X) { return compareIntegers(Op, X, C).value_or(false); };
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
  // constant are the only ones whose lanes split. A block has at most 1024
  // threads in x (warps 0-31): `threadIdx.x == INT_MAX` holds in no lane.
  long long Q = C >= 0 ? C / 32 : -1;
  llvm::SmallVector<LaneSet, 4> TruePerWarp = {LanesOfWarp(0)};
  for (long long W : {Q - 1, Q, Q + 1})
    if (W > 0 && W < 32)
      TruePerWarp.push_back(LanesOfWarp(32 * W));
  return splitOverWarps(TruePerWarp);
}

uniformity_detail::LaneSplit
uniformity_detail::splitOverWarps(llvm::ArrayRef<LaneSet> TruePerWarp) {
  LaneSplit Split;
  Split.TrueMust = Split.FalseMust = LaneSet::all();
  Split.TrueMay = Split.FalseMay = LaneSet::none();
  bool AnyTrue = false, AnyFalse = false, AnyMixed = false;
  for (LaneSet T : TruePerWarp) {
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

std::optional<FunctionUniformity::Impl::LaneSplit>
FunctionUniformity::Impl::branchLaneSplit(unsigned BlockID, const State &End) {
  const Expr *Cond = BranchCond[BlockID];
  if (!Cond)
    return std::nullopt;
  if (std::optional<LaneSplit> Split = laneSplit(Cond, End))
    return Split;
  // `tidx * QK_VEC_SIZE < Dh_MAX`, `(threadIdx.x & 7) == 0 && threadIdx.x <
  // 64`: any function of threadIdx.x alone is evaluated for every thread a
  // block can have (1024), warp by warp. Only with whole-warp rows is
  // threadIdx.x = 32 * warp + lane.
  if (!Opts.AssumeWarpAlignedBlocks)
    return std::nullopt;
  const CFGBlock *B = blockByID(BlockID);
  SymbolicView View(*this, End, B ? B->getTerminatorStmt() : Cond);
  SymbolicTranslator Translator(Ctx, Cache.terms(), View, Opts.AssumeWarpAlignedBlocks);
  TermRef Term = Translator.translate(Cond);
  if (!Term || !Term->LaneDependent || !everyLeaf(Term, 4096, [](const warp_tidy::Term &Leaf) {
        return Leaf.Op == TermOp::ThreadX;
      }))
    return std::nullopt;
  llvm::SmallVector<LaneSet, 32> TruePerWarp;
  for (uint64_t W = 0; W < 32; ++W) {
    uint32_t Bits = 0;
    for (uint64_t L = 0; L < 32; ++L) {
      LaneValues Thread;
      Thread.ThreadX = 32 * W + L;
      bool Undefined = false;
      uint64_t V = evaluate(Term, Thread, &Undefined);
      if (Undefined)
        return std::nullopt; // not an execution the program has
      if (V)
        Bits |= 1u << L;
    }
    TruePerWarp.push_back(LaneSet(Bits));
  }
  return splitOverWarps(TruePerWarp);
}

} // namespace warp_tidy
