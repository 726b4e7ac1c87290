//===--- ScanPatterns.cpp - Unguarded warp-shuffle scans ------------------===//

#include "patterns/ScanPatterns.h"
#include "ast/AstQueries.h"
#include "ast/GuardFacts.h"
#include "ast/LocalWrites.h"
#include "intrinsics/CollectiveCalls.h"
#include "lanes/LaneExpressions.h"
#include "patterns/ScanConsumers.h"
#include "patterns/ShuffleSteps.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <functional>

using namespace clang;

namespace warp_tidy {
namespace {

const Stmt *enclosingLoop(const Stmt *S, ASTContext &Ctx) {
  for (const Stmt *P = parentStmt(S, Ctx); P; P = parentStmt(P, Ctx))
    if (isLoopStmt(P))
      return P;
  return nullptr;
}

bool isAncestor(const Stmt *Ancestor, const Stmt *S, ASTContext &Ctx) {
  for (const Stmt *P = S; P; P = parentStmt(P, Ctx))
    if (P == Ancestor)
      return true;
  return false;
}

// Does \p E mention the offset (`off`, `off - 1`, `32 - off`, `lane + off`)?
bool involves(const Expr *E, const Expr *Offset, const ASTContext &Ctx) {
  if (!E || !Offset)
    return false;
  if (sameValue(E, Offset, Ctx))
    return true;
  // A constant offset only counts when written as that same constant.
  if (integerConstant(Offset, Ctx))
    return false;
  for (const Stmt *C : stripValue(E)->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(C))
      if (involves(CE, Offset, Ctx))
        return true;
  return false;
}

// Everything the tracing needs to know about one shuffle.
struct ScanContext {
  ASTContext &Ctx;
  ScanDefect Defect;
  const CallExpr *Shuffle;
  const Expr *Accumulator;
  const Expr *Offset;
  const Expr *SourceLane; // `lane - d` for IndexWraps, else null
  const Stmt *Limit;      // innermost loop around the shuffle (or null)
  llvm::SmallPtrSet<const Expr *, 8> ShuffleFacts;

  bool wantsLowerBound() const { return Defect != ScanDefect::DownOwnValue; }

  // A comparison that excludes the lanes without a partner.
  bool isGuard(const Comparison &C) const {
    bool SmallLane = mentionsThreadPosition(C.Small, Ctx);
    bool LargeLane = mentionsThreadPosition(C.Large, Ctx);
    if (wantsLowerBound()) {
      // lane >= d, lane > d - 1, srcLane >= 0, lane - d >= 0.
      if (LargeLane && !SmallLane)
        return true;
      return involves(C.Small, Offset, Ctx) && !involves(C.Large, Offset, Ctx);
    }
    // lane + d < 32, lane < 32 - d, lane + d < width.
    if (SmallLane && !LargeLane)
      return true;
    return involves(C.Small, Offset, Ctx) || involves(C.Large, Offset, Ctx);
  }

  // Any lane comparison at all: overwriting the shuffled value under one is
  // how an edge fix-up looks (`if (lane < d) t = 0;`, `if (lane == 0) t = 0;`).
  bool isLaneCondition(const Fact &F) const {
    bool Found = false;
    forEachComparison(F, Ctx, [&](const Comparison &C) {
      Found |= mentionsThreadPosition(C.Small, Ctx) || mentionsThreadPosition(C.Large, Ctx) ||
               involves(C.Small, Offset, Ctx) || involves(C.Large, Offset, Ctx);
    });
    if (Found)
      return true;
    // Equality tests (`lane == 0`) are not split into comparisons.
    const Expr *Cond = stripValue(F.Cond);
    if (const auto *BO = dyn_cast<BinaryOperator>(Cond))
      if (BO->isEqualityOp())
        return mentionsThreadPosition(BO->getLHS(), Ctx) ||
               mentionsThreadPosition(BO->getRHS(), Ctx);
    return false;
  }

  bool factGuards(const Fact &F) const {
    bool Guarded = false;
    forEachComparison(F, Ctx, [&](const Comparison &C) { Guarded |= isGuard(C); });
    return Guarded;
  }

  // Conditions at \p S (within the scan step) that do not already hold at
  // the shuffle, one of which excludes the partnerless lanes.
  bool guardedAt(const Stmt *S) const {
    for (const Fact &F : factsAt(S, Ctx, Limit))
      if (!ShuffleFacts.count(F.Cond) && factGuards(F))
        return true;
    return false;
  }
};

enum class Outcome { None, Idempotent, Guarded, Unguarded };

struct TraceResult {
  Outcome What = Outcome::None;
  const Expr *Combine = nullptr;   // the unguarded accumulation
  const Stmt *Statement = nullptr; // its statement (the assignment)
  bool ThroughVariable = false;    // the combined operand is a named variable
};

TraceResult traceValue(const ScanContext &SC, const Expr *Start, unsigned Depth);

bool isIdempotentCallee(const CallExpr *Call) {
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD || !FD->getIdentifier())
    return false;
  std::string Name = FD->getName().lower();
  return llvm::StringRef(Name).contains("max") || llvm::StringRef(Name).contains("min");
}

// Writes to \p Var after \p After, within the scan step, under a lane
// condition or as a lane-selected `?:`: an explicit fix-up of the edge lanes.
bool overwrittenAtEdges(const ScanContext &SC, const VarDecl *Var, const Expr *Skip) {
  const FunctionDecl *FD = enclosingFunction(SC.Shuffle, SC.Ctx);
  const Stmt *Scope = SC.Limit ? SC.Limit : (FD ? FD->getBody() : nullptr);
  bool Found = false;
  forEachStmt(Scope, [&](const Stmt *S) {
    const auto *BO = dyn_cast<BinaryOperator>(S);
    if (Found || !BO || !BO->isAssignmentOp() || BO == Skip)
      return;
    const auto *Ref = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts());
    if (!Ref || Ref->getDecl() != Var)
      return;
    if (isAncestor(BO, SC.Shuffle, SC.Ctx))
      return; // `t = __shfl_up_sync(...)` itself
    for (const Fact &F : factsAt(BO, SC.Ctx, SC.Limit))
      if (!SC.ShuffleFacts.count(F.Cond) && SC.isLaneCondition(F))
        Found = true;
    if (const auto *CO = dyn_cast<ConditionalOperator>(stripValue(BO->getRHS())))
      if (SC.isLaneCondition({CO->getCond(), true}))
        Found = true;
  });
  return Found;
}

// The shuffled value was stored in \p Var: follow its reads.
TraceResult traceVariable(const ScanContext &SC, const VarDecl *Var, const Expr *Store,
                          unsigned Depth) {
  if (Depth > 4 || !Var || !Var->isLocalVarDecl())
    return {};
  const FunctionDecl *FD = enclosingFunction(SC.Shuffle, SC.Ctx);
  if (!FD || !FD->getBody())
    return {};
  const SourceManager &SM = SC.Ctx.getSourceManager();
  TraceResult Best;
  forEachStmt(FD->getBody(), [&](const Stmt *S) {
    const auto *Ref = dyn_cast<DeclRefExpr>(S);
    if (!Ref || Ref->getDecl() != Var || Best.What == Outcome::Unguarded)
      return;
    if (!SM.isBeforeInTranslationUnit(Store->getBeginLoc(), Ref->getBeginLoc()))
      return;
    // Writes are handled by overwrittenAtEdges.
    if (const Stmt *P = parentStmt(Ref, SC.Ctx))
      if (const auto *BO = dyn_cast<BinaryOperator>(P))
        if (BO->isAssignmentOp() && BO->getLHS()->IgnoreParens() == Ref)
          return;
    TraceResult R = traceValue(SC, Ref, Depth + 1);
    if (R.What == Outcome::Unguarded) {
      Best = R;
      // The named variable is the combined operand when the reference is a
      // direct operand of the combine (the fix-it then reads `v += t`).
      const Stmt *P = parentStmt(Ref, SC.Ctx);
      while (P && isa<ImplicitCastExpr, ParenExpr>(P))
        P = parentStmt(P, SC.Ctx);
      Best.ThroughVariable = P == R.Combine;
    } else if (static_cast<int>(R.What) > static_cast<int>(Best.What)) {
      Best = R;
    }
  });
  if (Best.What == Outcome::Unguarded && overwrittenAtEdges(SC, Var, nullptr))
    Best.What = Outcome::Guarded;
  return Best;
}

// `v + t` computed; does the sum end up in the accumulator, and guarded?
TraceResult finishCombine(const ScanContext &SC, const Expr *Combine, unsigned Depth) {
  const Expr *Cur = Combine;
  for (unsigned Steps = 0; Steps < 16; ++Steps) {
    const Decl *ViaDecl = nullptr;
    const Stmt *P = parentStmt(Cur, SC.Ctx, &ViaDecl);
    if (!P) {
      // `T n = v + t;` then `v = n` (or a guarded `if (lane >= d) v = n;`).
      const auto *Var = dyn_cast_or_null<VarDecl>(ViaDecl);
      if (!Var || Depth > 3)
        return {};
      if (SC.guardedAt(Combine))
        return {Outcome::Guarded};
      TraceResult R = traceVariable(SC, Var, Combine, Depth + 1);
      return R;
    }
    if (isa<ParenExpr, ImplicitCastExpr, ExplicitCastExpr>(P)) {
      Cur = cast<Expr>(P);
      continue;
    }
    if (const auto *CO = dyn_cast<ConditionalOperator>(P)) {
      if (Cur == CO->getCond())
        return {};
      if (SC.factGuards({CO->getCond(), Cur == CO->getTrueExpr()}))
        return {Outcome::Guarded};
      Cur = CO;
      continue;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(P)) {
      if (BO->getOpcode() == BO_Assign && Cur == BO->getRHS()) {
        if (!sameValue(BO->getLHS(), SC.Accumulator, SC.Ctx))
          return {};
        if (SC.guardedAt(BO))
          return {Outcome::Guarded};
        return {Outcome::Unguarded, Combine, BO};
      }
      // `v + t + u`: keep climbing.
      if (BO->isAdditiveOp() || BO->getOpcode() == BO_Mul) {
        Cur = BO;
        continue;
      }
    }
    return {};
  }
  return {};
}

TraceResult traceValue(const ScanContext &SC, const Expr *Start, unsigned Depth) {
  if (Depth > 6)
    return {};
  const Expr *Cur = Start;
  for (unsigned Steps = 0; Steps < 16; ++Steps) {
    const Decl *ViaDecl = nullptr;
    const Stmt *P = parentStmt(Cur, SC.Ctx, &ViaDecl);
    if (!P) {
      // `T t = __shfl_up_sync(...)`.
      const auto *Var = dyn_cast_or_null<VarDecl>(ViaDecl);
      return traceVariable(SC, Var, Start, Depth);
    }
    if (isa<ParenExpr, ImplicitCastExpr, ExplicitCastExpr, MaterializeTemporaryExpr,
            ExprWithCleanups>(P)) {
      Cur = cast<Expr>(P);
      continue;
    }
    if (const auto *CO = dyn_cast<ConditionalOperator>(P)) {
      if (Cur == CO->getCond())
        return {};
      // `(lane >= d) ? t : 0` selects the identity for the other lanes.
      if (SC.factGuards({CO->getCond(), Cur == CO->getTrueExpr()}))
        return {Outcome::Guarded};
      Cur = CO;
      continue;
    }
    if (const auto *CE = dyn_cast<CallExpr>(P)) {
      if (isIdempotentCallee(CE))
        return {Outcome::Idempotent};
      return {};
    }
    const auto *BO = dyn_cast<BinaryOperator>(P);
    if (!BO)
      return {};
    const Expr *Other = Cur == BO->getLHS() ? BO->getRHS() : BO->getLHS();
    switch (BO->getOpcode()) {
    case BO_Assign: {
      if (Cur != BO->getRHS())
        return {};
      if (sameValue(BO->getLHS(), SC.Accumulator, SC.Ctx))
        return {}; // `v = __shfl_up_sync(...)`: a move, not a combine
      const auto *Ref = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts());
      return traceVariable(SC, Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr, Start, Depth);
    }
    case BO_Or:
    case BO_And:
    case BO_OrAssign:
    case BO_AndAssign:
    case BO_LAnd:
    case BO_LOr:
      return {Outcome::Idempotent};
    case BO_Mul: {
      // `t * (lane >= d)`: zero where the partner does not exist.
      bool Guarded = false;
      forEachComparisonOfPredicate(Other, SC.Ctx,
                                   [&](const Comparison &C) { Guarded |= SC.isGuard(C); });
      if (Guarded)
        return {Outcome::Guarded};
      [[fallthrough]];
    }
    case BO_Add:
    case BO_Xor:
      return finishCombine(SC, BO, Depth);
    case BO_AddAssign:
    case BO_MulAssign:
    case BO_XorAssign:
      if (Cur != BO->getRHS() || !sameValue(BO->getLHS(), SC.Accumulator, SC.Ctx))
        return {};
      if (SC.guardedAt(BO))
        return {Outcome::Guarded};
      return {Outcome::Unguarded, BO, BO};
    default:
      return {};
    }
  }
  return {};
}

// A write-once lane-id variable declared in a block enclosing \p S, before it.
const VarDecl *laneVariableInScope(const Stmt *S, LaneIdKind Want, const Expr *TileObject,
                                   ASTContext &Ctx) {
  const Stmt *Child = S;
  for (const Stmt *P = parentStmt(S, Ctx); P; Child = P, P = parentStmt(P, Ctx)) {
    const auto *Block = dyn_cast<CompoundStmt>(P);
    if (!Block)
      continue;
    for (const Stmt *Sibling : Block->body()) {
      if (Sibling == Child)
        break;
      const auto *DS = dyn_cast<DeclStmt>(Sibling);
      if (!DS)
        continue;
      for (const Decl *D : DS->decls()) {
        const auto *Var = dyn_cast<VarDecl>(D);
        if (!Var || !Var->getIdentifier())
          continue;
        LaneIdKind K = classifyLaneIdVar(Var, Ctx);
        if (K != Want)
          continue;
        if (K == LaneIdKind::TileRank) {
          // Only the rank in the very tile that shuffles.
          const Expr *Obj = Var->getInit() ? memberCallObject(stripValue(Var->getInit())) : nullptr;
          if (!Obj || !TileObject || !sameValue(Obj, TileObject, Ctx))
            continue;
        }
        return Var;
      }
    }
  }
  return nullptr;
}

std::optional<ScanDefect> defectOf(ShuffleDirection D) {
  switch (D) {
  case ShuffleDirection::Up:
    return ScanDefect::UpOwnValue;
  case ShuffleDirection::Index:
    return ScanDefect::IndexWraps;
  case ShuffleDirection::Down:
    return ScanDefect::DownOwnValue;
  default:
    return std::nullopt;
  }
}

ScanContext scanContextOf(const CallExpr *Call, ScanDefect Defect, const ShuffleParts &Parts,
                          ASTContext &Ctx) {
  ScanContext SC{Ctx,
                 Defect,
                 Call,
                 stripValue(Parts.Value),
                 Parts.Offset,
                 Parts.SourceLane,
                 enclosingLoop(Call, Ctx),
                 {}};
  for (const Fact &F : factsAt(Call, Ctx, SC.Limit))
    SC.ShuffleFacts.insert(F.Cond);
  return SC;
}

// The local that \p Call shuffles and adds back into (guarded or not), if
// it is one step of an up or down scan or reduction.
const VarDecl *accumulatingStep(const CallExpr *Call, ASTContext &Ctx) {
  ShuffleParts Parts = shuffleParts(Call, Ctx);
  if (!Parts.Collective || !Parts.Value || !Parts.Offset)
    return nullptr;
  ShuffleDirection D = Parts.Collective->Intrinsic->Direction;
  if (D != ShuffleDirection::Up && D != ShuffleDirection::Down)
    return nullptr;
  const auto *Ref = dyn_cast<DeclRefExpr>(stripValue(Parts.Value));
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!Var || !Var->hasLocalStorage() || Var->getType()->isReferenceType())
    return nullptr;
  Outcome O = traceValue(scanContextOf(Call, *defectOf(D), Parts, Ctx), Call, 0).What;
  return O == Outcome::Unguarded || O == Outcome::Guarded ? Var : nullptr;
}

// What one statement next to a straight-line scan step is to the run.
enum class RunPart { Step, Glue, End };

RunPart runPartOf(const Stmt *S, ScanRegion &Steps, ASTContext &Ctx) {
  bool Ends = false;
  llvm::SmallVector<const CallExpr *, 4> Found;
  forEachStmt(S, [&](const Stmt *X) {
    if (isLoopStmt(X) || isa<ReturnStmt, BreakStmt, ContinueStmt, GotoStmt, SwitchStmt>(X))
      Ends = true;
    const auto *Call = dyn_cast<CallExpr>(X);
    if (Ends || !Call || !recogniseCollective(Call))
      return;
    if (const VarDecl *Acc = accumulatingStep(Call, Ctx)) {
      Found.push_back(Call);
      if (!llvm::is_contained(Steps.Accumulators, Acc))
        Steps.Accumulators.push_back(Acc);
    } else {
      Ends = true; // another collective: not part of this run
    }
  });
  if (Ends)
    return RunPart::End;
  Steps.Steps.append(Found.begin(), Found.end());
  return Found.empty() ? RunPart::Glue : RunPart::Step;
}

// The scan that \p Call is a step of: \p ScanLoop, or the run of
// straight-line steps around \p Call in its block, from the first step to
// the last with the statements between them. No steps when there is none.
ScanRegion scanRegion(const CallExpr *Call, const VarDecl *Acc, const Stmt *ScanLoop,
                      ASTContext &Ctx) {
  ScanRegion R;
  if (ScanLoop) {
    R.First = R.Last = ScanLoop;
    R.Loop = true;
    R.Steps.push_back(Call);
    R.Accumulators.push_back(Acc);
    return R;
  }
  const Stmt *Own = Call;
  const Stmt *P = parentStmt(Call, Ctx);
  for (; P && !isa<CompoundStmt>(P); Own = P, P = parentStmt(P, Ctx))
    if (isLoopStmt(P))
      return R;
  const auto *Block = dyn_cast_or_null<CompoundStmt>(P);
  if (!Block)
    return R;
  llvm::ArrayRef<Stmt *> Body(Block->body_begin(), Block->body_end());
  size_t At = llvm::find(Body, Own) - Body.begin();
  if (At == Body.size())
    return R;
  // Classify outwards from the call's statement; a run ends at a step.
  auto Extend = [&](size_t From, int Dir) {
    size_t Edge = From;
    for (size_t I = From + Dir; I < Body.size(); I += Dir) {
      ScanRegion Probe;
      RunPart Part = runPartOf(Body[I], Probe, Ctx);
      if (Part == RunPart::End)
        break;
      if (Part == RunPart::Step)
        Edge = I;
    }
    return Edge;
  };
  size_t Begin = Extend(At, -1), End = Extend(At, +1);
  for (size_t I = Begin; I <= End; ++I)
    if (runPartOf(Body[I], R, Ctx) == RunPart::End)
      return ScanRegion{};
  if (!R.isStep(Call))
    return ScanRegion{};
  R.First = Body[Begin];
  R.Last = Body[End];
  return R;
}

} // namespace

std::optional<ScanFinding> analyzeScanShuffle(const CallExpr *Call, ASTContext &Ctx) {
  ShuffleParts Parts = shuffleParts(Call, Ctx);
  if (!Parts.Collective || !Parts.Value || !Parts.Offset)
    return std::nullopt;
  const WarpIntrinsic &I = *Parts.Collective->Intrinsic;
  std::optional<ScanDefect> DefectFound = defectOf(I.Direction);
  if (!DefectFound)
    return std::nullopt;
  ScanDefect Defect = *DefectFound;
  if (std::optional<int64_t> K = integerConstant(Parts.Offset, Ctx))
    if (*K <= 0)
      return std::nullopt;

  // A scan shuffles the accumulator itself.
  const Expr *Acc = stripValue(Parts.Value);
  if (!isa<DeclRefExpr, MemberExpr>(Acc))
    return std::nullopt;

  OffsetTrend Trend = offsetTrend(Parts.Offset, Call, Ctx);
  if (Defect == ScanDefect::DownOwnValue) {
    // Halving offsets are a tree reduction (only lane 0's result counts);
    // only a suffix scan's growing offsets need the upper-bound guard.
    if (Trend != OffsetTrend::Growing)
      return std::nullopt;
  } else if (Trend == OffsetTrend::Halving) {
    // The mirror image of a tree reduction, towards the top lane.
    return std::nullopt;
  }

  ScanContext SC = scanContextOf(Call, Defect, Parts, Ctx);

  TraceResult R = traceValue(SC, Call, 0);
  if (R.What != Outcome::Unguarded)
    return std::nullopt;
  auto Found = [&](ScanDefect D, unsigned Width) {
    ScanFinding F{};
    F.Defect = D;
    F.Shuffle = Call;
    F.Intrinsic = &I;
    F.Combine = R.Combine;
    F.Accumulator = Acc;
    F.Offset = Parts.Offset;
    F.SourceLane = Parts.SourceLane;
    F.Width = Width;
    return F;
  };

  // The far lane of each segment (the last for an up-scan, the first for a
  // suffix scan) never lacks a partner, so its result is exact: a scan used
  // only there (`__shfl_sync(m, v, 31)`, `if (lane == 31) out = v;`) is
  // correct. Straight-line steps have no scan loop; reads between them are
  // recognised as steps.
  if (const auto *AccRef = dyn_cast<DeclRefExpr>(Acc))
    if (const auto *AccVar = dyn_cast<VarDecl>(AccRef->getDecl())) {
      unsigned Width = shuffleSegmentWidth(Call, Ctx);
      const Stmt *ScanLoop = integerConstant(Parts.Offset, Ctx) ? nullptr : SC.Limit;
      ExactLanes Exact{Width, Defect == ScanDefect::DownOwnValue ? 0u : Width - 1};
      if (Width && onlyExactLanesUseScan(Call, AccVar, ScanLoop, Exact, Ctx))
        return std::nullopt;
      // Uses the syntactic rules above cannot judge (a partial overwrite, a
      // second shuffle reduction, a use pinned to a thread rather than a
      // lane): run the code on every thread of the block shapes it can have.
      ScanRegion Region = scanRegion(Call, AccVar, ScanLoop, Ctx);
      if (Width && !Region.Steps.empty()) {
        LaneFlowVerdict Flow = followScanLanes(Region, Exact, Ctx);
        switch (Flow.Kind) {
        case LaneFlowVerdict::NoWrongUse:
        case LaneFlowVerdict::Deferred:
          return std::nullopt;
        case LaneFlowVerdict::StaleLanes: {
          ScanFinding Finding = Found(ScanDefect::StaleLanes, Width);
          Finding.Flow = Flow;
          return Finding;
        }
        case LaneFlowVerdict::WrongUse:
        case LaneFlowVerdict::Unknown:
          break;
        }
      }
    }

  ScanFinding Finding = Found(Defect, shuffleSegmentWidth(Call, Ctx));

  // Fix-it only for `v += t;` / `v = v + t;` directly in a block, where
  // inserting `if (guard) ` changes nothing else.
  const Stmt *Statement = R.Statement;
  const Stmt *Parent = Statement ? parentStmt(Statement, Ctx) : nullptr;
  bool PlainShape = R.ThroughVariable && Parent && isa<CompoundStmt>(Parent);
  if (PlainShape) {
    const auto *BO = dyn_cast<BinaryOperator>(R.Combine);
    const auto *Assign = dyn_cast<BinaryOperator>(Statement);
    PlainShape = BO && Assign &&
                 (BO->getOpcode() == BO_AddAssign ||
                  (BO->getOpcode() == BO_Add && Assign->getOpcode() == BO_Assign &&
                   stripValue(Assign->getRHS()) == BO &&
                   (sameValue(BO->getLHS(), Acc, Ctx) || sameValue(BO->getRHS(), Acc, Ctx))));
  }
  if (PlainShape && Finding.Width != 0 && !Parts.Offset->HasSideEffects(Ctx)) {
    const Expr *TileObject = nullptr;
    LaneIdKind Want = LaneIdKind::WarpLane;
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call)) {
      TileObject = MC->getImplicitObjectArgument();
      Want = LaneIdKind::TileRank;
    }
    const VarDecl *Lane = laneVariableInScope(Statement, Want, TileObject, Ctx);
    if (!Lane && Want == LaneIdKind::TileRank && Finding.Width == 32)
      Lane = laneVariableInScope(Statement, LaneIdKind::WarpLane, nullptr, Ctx);
    // A warp lane id is the position in the segment only for full-warp
    // segments.
    if (Lane && (Want == LaneIdKind::TileRank || Finding.Width == 32)) {
      Finding.FixStatement = Statement;
      Finding.LaneVar = Lane;
    }
  }
  return Finding;
}

} // namespace warp_tidy
