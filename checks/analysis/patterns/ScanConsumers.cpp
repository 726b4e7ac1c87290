//===--- ScanConsumers.cpp - Which lanes use a warp scan's result ---------===//

#include "patterns/ScanConsumers.h"
#include "ast/AstQueries.h"
#include "ast/DiscardedBranches.h"
#include "ast/GuardFacts.h"
#include "intrinsics/CollectiveCalls.h"
#include "lanes/LaneExpressions.h"
#include "patterns/ShuffleSteps.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace warp_tidy {
namespace {

// Bounds the variables and callers followed from one scan.
constexpr unsigned MaxDepth = 3;

bool encloses(const Stmt *Outer, const Stmt *S, ASTContext &Ctx) {
  for (const Stmt *P = S; P; P = parentStmt(P, Ctx))
    if (P == Outer)
      return true;
  return false;
}

/// Some loop contains both \p A and \p B: a read written before the scan
/// may run after it, in the next iteration.
bool shareLoop(const Stmt *A, const Stmt *B, ASTContext &Ctx) {
  for (const Stmt *P = parentStmt(A, Ctx); P; P = parentStmt(P, Ctx))
    if (isLoopStmt(P) && encloses(P, B, Ctx))
      return true;
  return false;
}

/// The lane (0..31) or tile rank that \p E == \p K pins down.
struct Pinned {
  bool Known = false;
  bool TileRank = false;
  unsigned Value = 0;
};

Pinned pinnedBy(const Expr *E, const Expr *K, ASTContext &Ctx) {
  std::optional<int64_t> C = integerConstant(K, Ctx);
  if (!C || *C < 0 || *C > 31)
    return {};
  switch (classifyLaneId(E, Ctx)) {
  case LaneIdKind::WarpLane:
    return {true, false, static_cast<unsigned>(*C)};
  case LaneIdKind::TileRank:
    return {true, true, static_cast<unsigned>(*C)};
  case LaneIdKind::None:
    break;
  }
  return {};
}

/// Lane positions (bit i: position i of the segment) that can run where
/// \p F holds; every position when \p F says nothing about the lane.
uint32_t positionsAllowedBy(const Fact &F, ExactLanes Exact, ASTContext &Ctx) {
  const uint32_t All = Exact.Width >= 32 ? ~0u : ((1u << Exact.Width) - 1u);
  auto PositionOfLane = [&](unsigned Lane) { return 1u << (Lane % Exact.Width); };
  auto PositionsOfLanes = [&](uint32_t Lanes) {
    uint32_t Out = 0;
    for (unsigned L = 0; L < 32; ++L)
      if (Lanes & (1u << L))
        Out |= PositionOfLane(L);
    return Out;
  };
  const Expr *Cond = stripValue(F.Cond);
  if (const auto *BO = dyn_cast<BinaryOperator>(Cond))
    if (BO->isEqualityOp() && (BO->getOpcode() == BO_EQ) == F.Holds) {
      Pinned P = pinnedBy(BO->getLHS(), BO->getRHS(), Ctx);
      if (!P.Known)
        P = pinnedBy(BO->getRHS(), BO->getLHS(), Ctx);
      if (P.Known)
        return P.TileRank ? (P.Value < Exact.Width ? 1u << P.Value : 0u) : PositionOfLane(P.Value);
    }
  // `lane > 30`, `lane >= 31`, `!(lane < 31)`: a range of warp lanes.
  uint32_t Lanes = ~0u;
  forEachComparison(F, Ctx, [&](const Comparison &C) {
    bool SmallLane = classifyLaneId(C.Small, Ctx) == LaneIdKind::WarpLane;
    bool LargeLane = classifyLaneId(C.Large, Ctx) == LaneIdKind::WarpLane;
    if (LargeLane && !SmallLane) {
      if (std::optional<int64_t> K = integerConstant(C.Small, Ctx)) {
        int64_t Min = *K + (C.Strict ? 1 : 0);
        for (int64_t L = 0; L < 32 && L < Min; ++L)
          Lanes &= ~(1u << L);
      }
    } else if (SmallLane && !LargeLane) {
      if (std::optional<int64_t> K = integerConstant(C.Large, Ctx)) {
        int64_t Max = *K - (C.Strict ? 1 : 0);
        for (int64_t L = std::max<int64_t>(Max + 1, 0); L < 32; ++L)
          Lanes &= ~(1u << L);
      }
    }
  });
  return Lanes == ~0u ? All : PositionsOfLanes(Lanes);
}

/// Only exact lanes run \p S: the conditions around it leave no other
/// lane position.
bool onlyExactLanesRun(const Stmt *S, ExactLanes Exact, ASTContext &Ctx) {
  const uint32_t All = Exact.Width >= 32 ? ~0u : ((1u << Exact.Width) - 1u);
  uint32_t Positions = All;
  for (const Fact &F : factsAt(S, Ctx))
    Positions &= positionsAllowedBy(F, Exact, Ctx);
  return Positions != 0 && (Positions & ~(1u << Exact.ExactPosition)) == 0;
}

/// \p Value is the value operand of an index shuffle from a constant source
/// lane that is an exact lane (`__shfl_sync(m, v, 31)`, `tile.shfl(v, 15)`).
bool isBroadcastFromExactLane(const Expr *Value, ExactLanes Exact, ASTContext &Ctx) {
  const Stmt *P = parentStmt(Value, Ctx);
  while (P && isa<ImplicitCastExpr, ParenExpr, MaterializeTemporaryExpr>(P))
    P = parentStmt(P, Ctx);
  const auto *Call = dyn_cast_or_null<CallExpr>(P);
  if (!Call)
    return false;
  std::optional<CollectiveCall> C = recogniseCollective(Call);
  if (!C || C->Intrinsic->Direction != ShuffleDirection::Index)
    return false;
  const WarpIntrinsic &I = *C->Intrinsic;
  if (I.ValueArg == NoArgument || I.LaneOrDeltaArg == NoArgument ||
      Call->getNumArgs() <= static_cast<unsigned>(I.LaneOrDeltaArg) ||
      stripValue(Call->getArg(I.ValueArg)) != stripValue(Value))
    return false;
  std::optional<int64_t> Src = integerConstant(Call->getArg(I.LaneOrDeltaArg), Ctx);
  unsigned Width = shuffleSegmentWidth(Call, Ctx);
  // The broadcast's segments must be made of whole scan segments, so that
  // the lane it reads sits at the same position in a scan segment.
  if (!Src || *Src < 0 || Width == 0 || Width < Exact.Width || Width % Exact.Width != 0)
    return false;
  return (static_cast<unsigned>(*Src) % Width) % Exact.Width == Exact.ExactPosition;
}

bool mentions(const Stmt *S, const VarDecl *Var) {
  bool Found = false;
  forEachStmt(S, [&](const Stmt *X) {
    if (const auto *Ref = dyn_cast<DeclRefExpr>(X))
      Found |= Ref->getDecl() == Var;
  });
  return Found;
}

/// \p Var is assigned from an expression that mentions \p Temp somewhere
/// in \p Body (`v += t`, `v = v + t`).
bool accumulatedFrom(const VarDecl *Var, const VarDecl *Temp, const Stmt *Body) {
  bool Found = false;
  forEachStmt(Body, [&](const Stmt *S) {
    const auto *BO = dyn_cast<BinaryOperator>(S);
    if (Found || !BO || !BO->isAssignmentOp())
      return;
    const auto *LHS = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts());
    Found = LHS && LHS->getDecl() == Var && mentions(BO->getRHS(), Temp);
  });
  return Found;
}

/// The result of \p Shuffle flows back into \p Var: directly (`v += shfl`,
/// `v = v + shfl`) or through a local it is stored in (`t = shfl; v += t;`).
bool resultAccumulatesInto(const CallExpr *Shuffle, const VarDecl *Var, ASTContext &Ctx) {
  const FunctionDecl *FD = enclosingFunction(Shuffle, Ctx);
  const Expr *Cur = Shuffle;
  for (unsigned Steps = 0; Steps < 16; ++Steps) {
    const Decl *ViaDecl = nullptr;
    const Stmt *P = parentStmt(Cur, Ctx, &ViaDecl);
    if (!P) {
      const auto *Temp = dyn_cast_or_null<VarDecl>(ViaDecl);
      return Temp && FD && FD->getBody() && accumulatedFrom(Var, Temp, FD->getBody());
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(P)) {
      if (BO->isAssignmentOp()) {
        const auto *LHS = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts());
        if (!LHS || Cur != BO->getRHS())
          return false;
        if (LHS->getDecl() == Var)
          return true;
        const auto *Temp = dyn_cast<VarDecl>(LHS->getDecl());
        return Temp && FD && FD->getBody() && accumulatedFrom(Var, Temp, FD->getBody());
      }
      Cur = BO;
      continue;
    }
    if (isa<ImplicitCastExpr, ParenExpr, ExplicitCastExpr, ConditionalOperator>(P)) {
      Cur = cast<Expr>(P);
      continue;
    }
    return false;
  }
  return false;
}

/// A read of \p Var that belongs to the scan itself: inside the scan's loop,
/// the value operand of a scan step's shuffle (same intrinsic, a lane
/// offset rather than a constant source), or part of an accumulation into
/// \p Var (`v += t`, `v = v + t`).
bool isPartOfScan(const DeclRefExpr *Read, const VarDecl *Var, const CallExpr *Shuffle,
                  const Stmt *ScanLoop, ASTContext &Ctx) {
  if (ScanLoop && encloses(ScanLoop, Read, Ctx))
    return true;
  const Stmt *Child = Read;
  for (const Stmt *P = parentStmt(Read, Ctx); P; Child = P, P = parentStmt(P, Ctx)) {
    if (isa<ImplicitCastExpr, ParenExpr, ConditionalOperator>(P))
      continue;
    if (const auto *Call = dyn_cast<CallExpr>(P)) {
      std::optional<CollectiveCall> C = recogniseCollective(Call);
      std::optional<CollectiveCall> Scan = recogniseCollective(Shuffle);
      if (!C || !Scan || C->Intrinsic != Scan->Intrinsic)
        return false;
      const WarpIntrinsic &I = *C->Intrinsic;
      if (I.LaneOrDeltaArg == NoArgument ||
          Call->getNumArgs() <= static_cast<unsigned>(I.LaneOrDeltaArg))
        return false;
      if (I.Direction == ShuffleDirection::Index &&
          integerConstant(Call->getArg(I.LaneOrDeltaArg), Ctx))
        return false; // a broadcast: a use, judged as such
      // A step of the scan only when its result goes back into the
      // accumulator; `prev = __shfl_up_sync(m, v, 1)` after the scan is a
      // use of the (partly wrong) scanned values.
      return resultAccumulatesInto(Call, Var, Ctx);
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(P)) {
      if (BO->isAssignmentOp()) {
        const auto *LHS = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts());
        return LHS && LHS->getDecl() == Var &&
               (Child == BO->getRHS() || BO->isCompoundAssignmentOp());
      }
      if (BO->isAdditiveOp() || BO->isMultiplicativeOp() || BO->isBitwiseOp())
        continue;
    }
    return false;
  }
  return false;
}

bool valueUsedOnlyByExactLanes(const Expr *Value, ExactLanes Exact, ASTContext &Ctx,
                               unsigned Depth);

/// Every read of \p Var (other than those \p IsPartOfScan names, and
/// those written before \p After that no loop brings back after it) is made
/// by exact lanes only or reads an exact lane.
bool readsUseOnlyExactLanes(const VarDecl *Var, const Stmt *After, ExactLanes Exact,
                            ASTContext &Ctx, unsigned Depth,
                            llvm::function_ref<bool(const DeclRefExpr *)> IsPartOfScan) {
  if (Depth > MaxDepth || !Var || !Var->hasLocalStorage() || Var->getType()->isReferenceType())
    return false;
  const FunctionDecl *FD = enclosingFunction(After, Ctx);
  if (!FD || !FD->getBody())
    return false;
  const SourceManager &SM = Ctx.getSourceManager();
  bool AllExact = true;
  forEachStmt(FD->getBody(), [&](const Stmt *S) {
    const auto *Ref = dyn_cast<DeclRefExpr>(S);
    if (!AllExact || !Ref || Ref->getDecl() != Var)
      return;
    // A plain store replaces the value: not a use of it.
    if (const Stmt *P = parentStmt(Ref, Ctx))
      if (const auto *BO = dyn_cast<BinaryOperator>(P))
        if (BO->getOpcode() == BO_Assign && BO->getLHS()->IgnoreParens() == Ref)
          return;
    // Reads inside \p After itself (`v = scan(v)`) see the value before.
    if (encloses(After, Ref, Ctx))
      return;
    if (SM.isBeforeInTranslationUnit(Ref->getBeginLoc(), After->getBeginLoc()) &&
        !shareLoop(Ref, After, Ctx))
      return;
    if (IsPartOfScan(Ref))
      return;
    if (!valueUsedOnlyByExactLanes(Ref, Exact, Ctx, Depth))
      AllExact = false;
  });
  return AllExact;
}

/// The functions that are one source function: a template's pattern and
/// its instantiations.
const FunctionDecl *sourceFunction(const FunctionDecl *FD) {
  if (const FunctionDecl *Pattern = FD->getTemplateInstantiationPattern())
    FD = Pattern;
  return FD->getCanonicalDecl();
}

/// The calls of \p FD (or of another instantiation of its template) in the
/// translation unit's user code.
llvm::SmallVector<const CallExpr *, 4> callsOf(const FunctionDecl *FD, ASTContext &Ctx) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const FunctionDecl *Target;
    const SourceManager &SM;
    llvm::SmallVector<const CallExpr *, 4> Calls;
    Finder(const FunctionDecl *T, const SourceManager &SM) : Target(T), SM(SM) {}
    bool shouldVisitTemplateInstantiations() const { return true; }
    bool TraverseDecl(Decl *D) {
      // The toolchain's headers do not call the project's functions.
      if (D && !isa<TranslationUnitDecl>(D) && D->getLocation().isValid() &&
          SM.isInSystemHeader(D->getLocation()))
        return true;
      return RecursiveASTVisitor<Finder>::TraverseDecl(D);
    }
    bool VisitCallExpr(CallExpr *Call) {
      if (const FunctionDecl *Callee = Call->getDirectCallee())
        if (sourceFunction(Callee) == Target)
          Calls.push_back(Call);
      return true;
    }
  } F(sourceFunction(FD), Ctx.getSourceManager());
  F.TraverseDecl(Ctx.getTranslationUnitDecl());
  return F.Calls;
}

/// One use of the scanned value: a read of the accumulator, a variable it
/// was copied into, or a call returning it.
bool valueUsedOnlyByExactLanes(const Expr *Value, ExactLanes Exact, ASTContext &Ctx,
                               unsigned Depth) {
  if (isInDiscardedBranch(Value, Ctx))
    return true; // never compiled
  if (onlyExactLanesRun(Value, Exact, Ctx) || isBroadcastFromExactLane(Value, Exact, Ctx))
    return true;
  // Through copies: `T total = v;`, `total = v;`, `return v;`.
  const Decl *ViaDecl = nullptr;
  const Stmt *P = parentStmt(Value, Ctx, &ViaDecl);
  while (P && isa<ImplicitCastExpr, ParenExpr, MaterializeTemporaryExpr, ExprWithCleanups,
                  CXXConstructExpr>(P))
    P = parentStmt(P, Ctx, &ViaDecl);
  if (!P) {
    const auto *Var = dyn_cast_or_null<VarDecl>(ViaDecl);
    return Var && readsUseOnlyExactLanes(Var, Value, Exact, Ctx, Depth + 1,
                                         [](const DeclRefExpr *) { return false; });
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(P))
    if (BO->getOpcode() == BO_Assign)
      if (const auto *LHS = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts()))
        if (const auto *Var = dyn_cast<VarDecl>(LHS->getDecl()))
          return readsUseOnlyExactLanes(Var, BO, Exact, Ctx, Depth + 1,
                                        [](const DeclRefExpr *) { return false; });
  if (isa<ReturnStmt>(P)) {
    const FunctionDecl *FD = enclosingFunction(P, Ctx);
    if (!FD || Depth + 1 > MaxDepth)
      return false;
    llvm::SmallVector<const CallExpr *, 4> Calls = callsOf(FD, Ctx);
    // A function nobody here calls may be called from anywhere.
    if (Calls.empty())
      return false;
    for (const CallExpr *Call : Calls)
      if (!valueUsedOnlyByExactLanes(Call, Exact, Ctx, Depth + 1))
        return false;
    return true;
  }
  return false;
}

} // namespace

bool onlyExactLanesUseScan(const CallExpr *Shuffle, const VarDecl *Acc, const Stmt *ScanLoop,
                           ExactLanes Exact, ASTContext &Ctx) {
  if (!Shuffle || !Acc || Exact.Width == 0 || Exact.Width > 32 || 32 % Exact.Width != 0 ||
      Exact.ExactPosition >= Exact.Width)
    return false;
  const Stmt *After = ScanLoop ? ScanLoop : Shuffle;
  return readsUseOnlyExactLanes(Acc, After, Exact, Ctx, 0, [&](const DeclRefExpr *Read) {
    return isPartOfScan(Read, Acc, Shuffle, ScanLoop, Ctx);
  });
}

} // namespace warp_tidy
