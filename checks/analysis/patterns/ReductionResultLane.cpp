//===--- ReductionResultLane.cpp - Which lane holds a reduction's total ---===//

#include "patterns/ReductionResultLane.h"
#include "ast/AstQueries.h"
#include "ast/GuardFacts.h"
#include "ast/LocalWrites.h"
#include "ast/StmtReachability.h"
#include "intrinsics/CollectiveCalls.h"
#include "lanes/LaneExpressions.h"
#include "patterns/ShuffleSteps.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include <algorithm>
#include <limits>

using namespace clang;

namespace warp_tidy {
namespace {

constexpr unsigned MaxHelperDepth = 3;

const VarDecl *referencedVar(const Expr *E) {
  const auto *Ref = dyn_cast_or_null<DeclRefExpr>(E ? stripValue(E) : nullptr);
  return Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
}

/// The element access \p E is, when it is one: `val[i]` of a local array or
/// of a pointer the function holds (TCLB reduces `val[i] += __shfl_down_sync(
/// ..., val[i], off)` over a parameter's elements).
const ArraySubscriptExpr *elementAccess(const Expr *E) {
  const auto *Sub = dyn_cast_or_null<ArraySubscriptExpr>(E ? stripValue(E) : nullptr);
  if (!Sub)
    return nullptr;
  const VarDecl *Base = referencedVar(Sub->getBase()->IgnoreParenImpCasts());
  return Base && Base->hasLocalStorage() ? Sub : nullptr;
}

/// The field access \p E is, when it reads a field of a local aggregate held
/// by value (`sum.x` of a `double2`): the thread's own storage, like a local.
const MemberExpr *fieldAccess(const Expr *E) {
  const auto *Member = dyn_cast_or_null<MemberExpr>(E ? stripValue(E) : nullptr);
  if (!Member || Member->isArrow() || !isa<FieldDecl>(Member->getMemberDecl()))
    return nullptr;
  const VarDecl *Base = referencedVar(Member->getBase()->IgnoreParenImpCasts());
  return Base && Base->hasLocalStorage() && !Base->getType()->isReferenceType() ? Member : nullptr;
}

/// The field \p E reads or writes, when it is a field access; else null.
const FieldDecl *fieldOf(const Expr *E) {
  const MemberExpr *Member = fieldAccess(E);
  return Member ? cast<FieldDecl>(Member->getMemberDecl()) : nullptr;
}

/// The variable a reduction accumulates in: a local (or parameter), the
/// array whose element \p E is, or the aggregate whose field it is.
const VarDecl *accumulatorVar(const Expr *E) {
  if (const VarDecl *V = referencedVar(E))
    return V;
  if (const ArraySubscriptExpr *Sub = elementAccess(E))
    return referencedVar(Sub->getBase()->IgnoreParenImpCasts());
  if (const MemberExpr *Member = fieldAccess(E))
    return referencedVar(Member->getBase()->IgnoreParenImpCasts());
  return nullptr;
}

/// The local variable that indexes \p E when it is an element access at a
/// variable (`c[i]`); null otherwise.
const VarDecl *elementIndexVar(const Expr *E) {
  const ArraySubscriptExpr *Sub = elementAccess(E);
  const VarDecl *Index = Sub ? referencedVar(Sub->getIdx()) : nullptr;
  return Index && Index->hasLocalStorage() ? Index : nullptr;
}

/// The element index of \p E when it is an element access with a constant
/// index; nullopt for a variable index or no element at all.
std::optional<int64_t> constantElement(const Expr *E, const ASTContext &Ctx) {
  if (const ArraySubscriptExpr *Sub = elementAccess(E))
    return integerConstant(Sub->getIdx(), Ctx);
  return std::nullopt;
}

bool isConstant(const Expr *E, int64_t Value, const ASTContext &Ctx) {
  std::optional<int64_t> K = integerConstant(E, Ctx);
  return K && *K == Value;
}

// Does the loop test \p Cond keep running while \p Offset >= 1, i.e. stop
// only at 0: `off > 0`, `off >= 1`, `off != 0`, `0 < off`, `off`?
bool runsDownToOne(const Expr *Cond, const VarDecl *Offset, const ASTContext &Ctx) {
  Cond = stripValue(Cond);
  if (referencedVar(Cond) == Offset)
    return true;
  const auto *BO = dyn_cast<BinaryOperator>(Cond);
  if (!BO)
    return false;
  const Expr *L = BO->getLHS(), *R = BO->getRHS();
  switch (BO->getOpcode()) {
  case BO_GT:
    return referencedVar(L) == Offset && isConstant(R, 0, Ctx);
  case BO_GE:
    return referencedVar(L) == Offset && isConstant(R, 1, Ctx);
  case BO_NE:
    return (referencedVar(L) == Offset && isConstant(R, 0, Ctx)) ||
           (referencedVar(R) == Offset && isConstant(L, 0, Ctx));
  case BO_LT:
    return referencedVar(R) == Offset && isConstant(L, 0, Ctx);
  case BO_LE:
    return referencedVar(R) == Offset && isConstant(L, 1, Ctx);
  default:
    return false;
  }
}

/// A down-direction shuffle (`__shfl_down_sync`, a tile's `shfl_down`) and
/// the operands a tree step is made of.
struct DownShuffle {
  CollectiveCall Collective;
  const Expr *Value = nullptr;
  const Expr *Delta = nullptr;
};

std::optional<DownShuffle> downShuffle(const CallExpr *Call) {
  std::optional<CollectiveCall> C = recogniseCollective(Call);
  if (!C || C->Intrinsic->Direction != ShuffleDirection::Down)
    return std::nullopt;
  int ValueArg = C->Intrinsic->ValueArg, DeltaArg = C->Intrinsic->LaneOrDeltaArg;
  if (ValueArg == NoArgument || DeltaArg == NoArgument ||
      Call->getNumArgs() <= static_cast<unsigned>(std::max(ValueArg, DeltaArg)))
    return std::nullopt;
  return DownShuffle{*C, Call->getArg(ValueArg), Call->getArg(DeltaArg)};
}

/// Calls \p Visit with every down-direction shuffle of \p Var in the
/// function (lambdas included) that holds \p Shuffle, and its offset.
void forEachDownShuffleOf(const CallExpr *Shuffle, const VarDecl *Var, ASTContext &Ctx,
                          llvm::function_ref<void(const CallExpr *, const Expr *)> Visit) {
  const FunctionDecl *FD = enclosingFunction(Shuffle, Ctx, /*ThroughLambdas=*/true);
  if (!FD || !FD->getBody())
    return;
  forEachStmt(FD->getBody(), [&](const Stmt *S) {
    const auto *Call = dyn_cast<CallExpr>(S);
    std::optional<DownShuffle> Down = Call ? downShuffle(Call) : std::nullopt;
    if (Down && accumulatorVar(Down->Value) == Var)
      Visit(Call, Down->Delta);
  });
}

// Only a tree whose last step has offset 1 leaves the total in lane 0
// alone. One that stops at offset k (`for (i = 16; i >= lanes; i >>= 1)`)
// leaves k results, in lanes 0..k-1, on purpose; so does an unrolled tree
// without its `1` step.
bool reachesOffsetOne(const CallExpr *Shuffle, const Expr *Delta, const VarDecl *Var,
                      ASTContext &Ctx) {
  if (integerConstant(Delta, Ctx)) {
    bool SawOne = false;
    forEachDownShuffleOf(Shuffle, Var, Ctx, [&](const CallExpr *, const Expr *StepDelta) {
      SawOne |= isConstant(StepDelta, 1, Ctx);
    });
    return SawOne;
  }
  const VarDecl *Offset = referencedVar(Delta);
  if (!Offset)
    return false;
  for (const Stmt *P = parentStmt(Shuffle, Ctx); P; P = parentStmt(P, Ctx)) {
    const Expr *Cond = nullptr;
    if (const auto *For = dyn_cast<ForStmt>(P)) {
      // A tree that starts below 16 (`for (i = TB / 2; ...)` with TB = 8)
      // sums segments of 2 * start lanes: each segment's total is in its
      // first lane, which the caller reads there on purpose. Not judged,
      // as trees on a narrower width are not.
      // In a template's pattern a start that depends on its parameters
      // (`TB / 2`) is judged in each instantiation instead.
      const auto *Init = dyn_cast_or_null<DeclStmt>(For->getInit());
      if (Init && Init->isSingleDecl() && Init->getSingleDecl() == Offset && Offset->getInit()) {
        if (Offset->getInit()->isValueDependent())
          return false;
        if (std::optional<int64_t> Start = integerConstant(Offset->getInit(), Ctx);
            Start && *Start < 16)
          return false;
      }
      Cond = For->getCond();
    } else if (const auto *While = dyn_cast<WhileStmt>(P))
      Cond = While->getCond();
    else if (const auto *Do = dyn_cast<DoStmt>(P))
      Cond = Do->getCond();
    if (Cond && runsDownToOne(Cond, Offset, Ctx))
      return true;
    if (isa<LambdaExpr>(P))
      break;
  }
  return false;
}

/// The step \p Call (offset \p Delta) of a tree of \p Var moves values
/// towards lane 0 of the whole warp: its segment is the warp, or it is a
/// later step of a cascade that starts on the whole warp (`(v, 16, 32)`)
/// and shrinks the width with the offset (`(v, 8, 16)`, `(v, 4, 8)`, ...),
/// which moves the same values as width 32 would. A tree on a narrower
/// width alone leaves one total per segment, and is not judged.
bool stepFeedsWholeWarpTotal(const CallExpr *Call, const Expr *Delta, const VarDecl *Var,
                             ASTContext &Ctx) {
  unsigned Width = shuffleSegmentWidth(Call, Ctx);
  if (Width == 32)
    return true;
  std::optional<int64_t> Offset = integerConstant(Delta, Ctx);
  if (!Width || !Offset || *Offset <= 0 || 2 * *Offset > Width)
    return false;
  bool WholeWarpStep = false;
  forEachDownShuffleOf(Call, Var, Ctx, [&](const CallExpr *Step, const Expr *StepDelta) {
    WholeWarpStep |= shuffleSegmentWidth(Step, Ctx) == 32 && isConstant(StepDelta, 16, Ctx);
  });
  return WholeWarpStep;
}

// A shuffle in \p E that reads \p Var from a higher lane, one step of a
// whole-warp tree whose offsets halve (16, 8, ..., 1).
const CallExpr *downTreeShuffleOf(const Expr *E, const VarDecl *Var, ASTContext &Ctx) {
  const CallExpr *Found = nullptr;
  forEachStmt(E, [&](const Stmt *S) {
    const auto *Call = dyn_cast<CallExpr>(S);
    if (Found || !Call)
      return;
    std::optional<DownShuffle> Down = downShuffle(Call);
    if (!Down || accumulatorVar(Down->Value) != Var)
      return;
    const CollectiveCall &C = Down->Collective;
    // The total ends in lane 0 when lane 0 takes part: a full warp, or a
    // constant mask that names lane 0 (the narrowing cascades that write
    // `0xffff`, `0xff`, ... for the later steps: one tree, whatever their
    // masks' own bugs, which warp-mask-excludes-caller reports). A mask
    // known only at run time (a ballot's lanes) may leave lane 0 out and
    // the total elsewhere; such a tree is not judged here.
    if (!C.hasImplicitFullMask()) {
      std::optional<uint32_t> Mask = resolveMaskConstant(C.maskArg(), Ctx);
      if (!Mask || !(*Mask & 1u))
        return;
    }
    if (!stepFeedsWholeWarpTotal(Call, Down->Delta, Var, Ctx) ||
        offsetTrend(Down->Delta, Call, Ctx) != OffsetTrend::Halving ||
        !reachesOffsetOne(Call, Down->Delta, Var, Ctx))
      return;
    Found = Call;
  });
  return Found;
}

/// The function whose body the analysis reads for a call of \p Callee (a
/// helper that may return a reduction's total; DownShuffleReach follows the
/// same calls): its definition, when it has a body and returns a value; else
/// null, and the call is not followed.
const FunctionDecl *followedDefinition(const FunctionDecl *Callee) {
  if (const FunctionDecl *Def = Callee->getDefinition())
    Callee = Def;
  if (!Callee->hasBody() || Callee->getReturnType()->isVoidType())
    return nullptr;
  return Callee;
}

/// What happens to a variable at one point of the function.
struct Event {
  const Stmt *At = nullptr;             ///< The statement (or declaration's init).
  SourceLocation End;                   ///< Where it takes effect.
  const CallExpr *Shuffle = nullptr;    ///< Non-null: a reduction leaves the total in lane 0.
  const CallExpr *HelperCall = nullptr; ///< The reduction happened in this call's callee.
  /// For an array: the one element written, when its index is a constant.
  std::optional<int64_t> Element;
  /// For an array: the local variable the written element's index is.
  const VarDecl *IndexVar = nullptr;
  /// The value stored, when the event stores one.
  const Expr *Value = nullptr;
  /// For an aggregate: the one field written (null: the whole variable).
  const FieldDecl *Field = nullptr;
};

/// The statements that change \p Index (with events \p IndexEvents) when
/// each of them moves it the same way (`++i`, `i += 2`, all up or all down)
/// and nothing else writes it, so that past any of them `a[i]` names
/// another element than before; empty otherwise.
llvm::SmallVector<const Stmt *, 2>
monotoneSteps(const VarDecl *Index, const std::vector<Event> &IndexEvents, const ASTContext &Ctx) {
  llvm::SmallVector<const Stmt *, 2> Steps;
  int Direction = 0;
  for (const Event &E : IndexEvents) {
    if (E.At == Index->getInit())
      continue;
    int D = 0;
    if (const auto *UO = dyn_cast<UnaryOperator>(E.At)) {
      if (UO->isIncrementOp())
        D = 1;
      else if (UO->isDecrementOp())
        D = -1;
    } else if (const auto *BO = dyn_cast<CompoundAssignOperator>(E.At)) {
      std::optional<int64_t> K = integerConstant(BO->getRHS(), Ctx);
      if (K && *K > 0 && BO->getOpcode() == BO_AddAssign)
        D = 1;
      else if (K && *K > 0 && BO->getOpcode() == BO_SubAssign)
        D = -1;
    }
    if (D == 0 || (Direction != 0 && D != Direction))
      return {};
    Direction = D;
    Steps.push_back(E.At);
  }
  // A write the events do not hold (a reference argument) may step it back.
  const LocalWriteFacts *Writes = localWritesOf(Index);
  if (!Writes || Writes->writesAfterInit(Index) != Steps.size())
    return {};
  return Steps;
}

/// The event whose value \p Use reads: the last one before it in source
/// order that reaches it on a CFG path no other event of the variable lies
/// on (a write in an `if`'s other arm, or one that a later write in the
/// loop replaces, is not what the use sees). \p Applies filters the events
/// (an element the use does not read); \p MoreKills(event, kills) adds the
/// statements past which an event no longer reaches the use. Null when none.
template <typename Filter, typename KillsOf>
const Event *reachingEvent(const std::vector<Event> &Events, const Stmt *Use,
                           const SourceManager &SM, StmtReachability &Paths, Filter Applies,
                           KillsOf MoreKills) {
  llvm::SmallVector<const Event *, 8> Earlier;
  llvm::SmallVector<const Stmt *, 8> Writes;
  for (const Event &E : Events) {
    if (!Applies(E))
      continue;
    Writes.push_back(E.At);
    if (SM.isBeforeInTranslationUnit(E.End, Use->getBeginLoc()))
      Earlier.push_back(&E);
  }
  // Only a reduction's event is ever reported: without one, the answer
  // matters to no caller, and the CFG is not built.
  if (llvm::none_of(Earlier, [](const Event *E) { return E->Shuffle != nullptr; }))
    return Earlier.empty() ? nullptr : Earlier.back();
  for (const Event *E : llvm::reverse(Earlier)) {
    llvm::SmallVector<const Stmt *, 8> Others;
    for (const Stmt *W : Writes)
      if (W != E->At)
        Others.push_back(W);
    MoreKills(*E, Others);
    if (Paths.mayFollow(E->At, Use, Others))
      return E;
  }
  return nullptr;
}

class Analyzer {
public:
  Analyzer(ASTContext &Ctx, DownShuffleReach &Reach)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Reach(Reach) {}

  std::vector<LaneZeroTotalUse> run(const FunctionDecl *FD);

  /// The down-tree shuffle whose lane-0 total \p FD returns, else null.
  const CallExpr *returnedLaneZeroTotal(const FunctionDecl *FD, unsigned Depth);

private:
  // What \p Value (assigned to a variable) leaves in it: the shuffle and
  // helper call of a reduction when its total sits in lane 0 only.
  bool reductionValue(const Expr *Value, const VarDecl *Var, unsigned Depth,
                      const CallExpr *&Shuffle, const CallExpr *&HelperCall);
  // The events of every local variable of \p Body, in source order.
  llvm::DenseMap<const VarDecl *, std::vector<Event>> collectEvents(const Stmt *Body,
                                                                    unsigned Depth);
  /// `acc[x] = v;`, `float t = v;`: a copy of a local that holds a lane-0
  /// total holds it too. Marks such events with the reduction and
  /// remembers the copied reads (CopiedReads), whose own use is the copy's.
  void propagateCopies(llvm::DenseMap<const VarDecl *, std::vector<Event>> &Events,
                       StmtReachability &Paths);
  bool onlyLaneZero(const Expr *Use);
  const Expr *valueOf(const Expr *Ref);
  bool isBroadcastFromLaneZero(const Expr *Value);
  bool isWrite(const DeclRefExpr *Ref, const Expr *Value);
  bool before(SourceLocation A, SourceLocation B) const {
    return SM.isBeforeInTranslationUnit(A, B);
  }
  bool contains(const Stmt *Outer, const Stmt *Inner) const {
    return !before(Inner->getBeginLoc(), Outer->getBeginLoc()) &&
           !before(Outer->getEndLoc(), Inner->getEndLoc());
  }

  ASTContext &Ctx;
  const SourceManager &SM;
  DownShuffleReach &Reach;
  llvm::DenseMap<const FunctionDecl *, const CallExpr *> HelperResults;
  llvm::DenseSet<const DeclRefExpr *> CopiedReads;
};

bool Analyzer::reductionValue(const Expr *Value, const VarDecl *Var, unsigned Depth,
                              const CallExpr *&Shuffle, const CallExpr *&HelperCall) {
  if (const CallExpr *S = downTreeShuffleOf(Value, Var, Ctx)) {
    Shuffle = S;
    return true;
  }
  // `v = warpReduceSum(x)`: a helper returning its own down tree's result.
  if (const auto *Call = dyn_cast<CallExpr>(stripValue(Value)))
    if (const FunctionDecl *Callee = Call->getDirectCallee())
      if (const CallExpr *S = returnedLaneZeroTotal(Callee, Depth + 1)) {
        Shuffle = S;
        HelperCall = Call;
        return true;
      }
  return false;
}

const CallExpr *Analyzer::returnedLaneZeroTotal(const FunctionDecl *FD, unsigned Depth) {
  if (Depth > MaxHelperDepth)
    return nullptr;
  FD = followedDefinition(FD);
  if (!FD)
    return nullptr;
  // No down shuffle within reach: null at any depth, so skipping the walk
  // (and the memo entries it would leave for FD and its callees, all null
  // too) changes no answer.
  if (!Reach.mayReach(FD))
    return nullptr;
  auto It = HelperResults.find(FD);
  if (It != HelperResults.end())
    return It->second;
  HelperResults[FD] = nullptr; // recursion: not a reduction helper
  auto Events = collectEvents(FD->getBody(), Depth);
  StmtReachability Paths(FD, Ctx);
  propagateCopies(Events, Paths);
  // Every return must hand back a variable whose last event is a reduction.
  const CallExpr *Result = nullptr;
  bool AllReturnsReduce = true, AnyReturn = false;
  forEachStmt(FD->getBody(), [&](const Stmt *S) {
    const auto *Ret = dyn_cast<ReturnStmt>(S);
    if (!Ret || !AllReturnsReduce)
      return;
    AnyReturn = true;
    const VarDecl *Var = referencedVar(Ret->getRetValue());
    const Event *Last = nullptr;
    if (Var) {
      auto It = Events.find(Var);
      if (It != Events.end())
        Last = reachingEvent(
            It->second, Ret, SM, Paths, [](const Event &) { return true; },
            [](const Event &, llvm::SmallVectorImpl<const Stmt *> &) {});
    }
    if (!Last || !Last->Shuffle) {
      AllReturnsReduce = false;
      return;
    }
    Result = Last->Shuffle;
  });
  if (!AnyReturn || !AllReturnsReduce)
    Result = nullptr;
  HelperResults[FD] = Result;
  return Result;
}

llvm::DenseMap<const VarDecl *, std::vector<Event>> Analyzer::collectEvents(const Stmt *Body,
                                                                            unsigned Depth) {
  llvm::DenseMap<const VarDecl *, std::vector<Event>> Events;
  auto Record = [&](const VarDecl *Var, const Stmt *At, const Expr *Value,
                    const Expr *Target = nullptr) {
    if (!Var || !Var->hasLocalStorage())
      return;
    Event E;
    E.At = At;
    E.End = At->getEndLoc();
    if (Target) {
      E.Element = constantElement(Target, Ctx);
      E.IndexVar = elementIndexVar(Target);
      E.Field = fieldOf(Target);
    }
    if (Value)
      reductionValue(Value, Var, Depth, E.Shuffle, E.HelperCall);
    E.Value = Value;
    Events[Var].push_back(E);
  };
  forEachStmt(Body, [&](const Stmt *S) {
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls())
        if (const auto *Var = dyn_cast<VarDecl>(D))
          if (const Expr *Init = Var->getInit())
            Record(Var, Init, Init);
      return;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
      if (BO->isAssignmentOp())
        Record(accumulatorVar(BO->getLHS()), BO, BO->getRHS(), BO->getLHS());
      return;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(S))
      if (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf)
        Record(accumulatorVar(UO->getSubExpr()), UO, nullptr, UO->getSubExpr());
  });
  for (auto &Entry : Events)
    llvm::stable_sort(Entry.second,
                      [&](const Event &A, const Event &B) { return before(A.End, B.End); });
  return Events;
}

// A condition that only lane 0 of a warp can satisfy: `lane == 0`,
// `threadIdx.x == 0`, `!lane`, a global thread id equal to 0.
bool isLaneZeroTest(const Expr *Cond, bool Holds, const ASTContext &Ctx, unsigned Depth = 0) {
  if (!Cond || Depth > 4)
    return false;
  Cond = stripValue(Cond);
  // The lane id (or a tile's rank), or threadIdx.x plus a warp-uniform
  // multiple of 32 (`blockIdx.x * blockDim.x + threadIdx.x`): 0 only in
  // lane 0 of a warp.
  auto IsPosition = [&](const Expr *E) {
    return isLaneId(E, Ctx) || positionForm(E, Ctx).Kind == PositionForm::ThreadX;
  };
  auto IsZero = [&](const Expr *E) {
    std::optional<int64_t> K = integerConstant(E, Ctx);
    return K && *K == 0;
  };
  if (const auto *UO = dyn_cast<UnaryOperator>(Cond))
    if (UO->getOpcode() == UO_LNot)
      return isLaneZeroTest(UO->getSubExpr(), !Holds, Ctx, Depth + 1);
  if (const auto *BO = dyn_cast<BinaryOperator>(Cond)) {
    BinaryOperatorKind Op = BO->getOpcode();
    if (Op == BO_LAnd && Holds)
      return isLaneZeroTest(BO->getLHS(), true, Ctx, Depth + 1) ||
             isLaneZeroTest(BO->getRHS(), true, Ctx, Depth + 1);
    if (Op == BO_LOr && !Holds)
      return isLaneZeroTest(BO->getLHS(), false, Ctx, Depth + 1) ||
             isLaneZeroTest(BO->getRHS(), false, Ctx, Depth + 1);
    if ((Op == BO_EQ && Holds) || (Op == BO_NE && !Holds))
      return (IsPosition(BO->getLHS()) && IsZero(BO->getRHS())) ||
             (IsPosition(BO->getRHS()) && IsZero(BO->getLHS()));
    // `lane < 1`
    if (Op == BO_LT && Holds) {
      std::optional<int64_t> K = integerConstant(BO->getRHS(), Ctx);
      return K && *K == 1 && IsPosition(BO->getLHS());
    }
    return false;
  }
  // `if (lane) return;`: past it, lane is 0.
  return !Holds && IsPosition(Cond);
}

void Analyzer::propagateCopies(llvm::DenseMap<const VarDecl *, std::vector<Event>> &Events,
                               StmtReachability &Paths) {
  for (auto &Entry : Events)
    for (Event &E : Entry.second) {
      // A plain copy: `t = v` or `T t = v`, not `t += v` (a use of v).
      const auto *Assign = dyn_cast<BinaryOperator>(E.At);
      if (!E.Value || E.Shuffle || (Assign && Assign->getOpcode() != BO_Assign))
        continue;
      const auto *Read = dyn_cast<DeclRefExpr>(stripValue(E.Value));
      const auto *Source = Read ? dyn_cast<VarDecl>(Read->getDecl()) : nullptr;
      // Into the thread's own storage only: a store through a pointer is
      // a use (other threads, the host read it).
      QualType Target = Entry.first->getType();
      if (!Source || Source == Entry.first || !Source->hasLocalStorage() ||
          Target->isPointerType() || Target->isReferenceType())
        continue;
      auto It = Events.find(Source);
      if (It == Events.end())
        continue;
      const Event *From = reachingEvent(
          It->second, Read, SM, Paths, [](const Event &) { return true; },
          [](const Event &, llvm::SmallVectorImpl<const Stmt *> &) {});
      if (!From || !From->Shuffle)
        continue;
      E.Shuffle = From->Shuffle;
      E.HelperCall = From->HelperCall;
      CopiedReads.insert(Read);
    }
}

bool Analyzer::onlyLaneZero(const Expr *Use) {
  for (const Fact &F : factsAt(Use, Ctx))
    if (isLaneZeroTest(F.Cond, F.Holds, Ctx))
      return true;
  return false;
}

// The outermost expression that still stands for the value \p Ref names:
// through parentheses and casts, and for an array, the element it is the base
// of (`val[i]`).
const Expr *Analyzer::valueOf(const Expr *Ref) {
  const Expr *Cur = Ref;
  for (const Stmt *P = parentStmt(Cur, Ctx); P; P = parentStmt(Cur, Ctx)) {
    const auto *Sub = dyn_cast<ArraySubscriptExpr>(P);
    const auto *Member = dyn_cast<MemberExpr>(P);
    if (!isa<ImplicitCastExpr, ParenExpr>(P) && !(Sub && Sub->getBase() == Cur) &&
        !(Member && !Member->isArrow() && Member->getBase() == Cur))
      break;
    Cur = cast<Expr>(P);
  }
  return Cur;
}

// `__shfl_sync(mask, v, 0)` / `tile.shfl(v, 0)`: every lane gets lane 0's
// value, the total. \p Value is valueOf() the use.
bool Analyzer::isBroadcastFromLaneZero(const Expr *Value) {
  const Stmt *Cur = Value;
  const Stmt *P = parentStmt(Cur, Ctx);
  const auto *Call = dyn_cast_or_null<CallExpr>(P);
  if (!Call)
    return false;
  std::optional<CollectiveCall> C = recogniseCollective(Call);
  if (!C || C->Intrinsic->Direction != ShuffleDirection::Index)
    return false;
  int ValueArg = C->Intrinsic->ValueArg, Source = C->Intrinsic->LaneOrDeltaArg;
  if (ValueArg == NoArgument || Source == NoArgument ||
      Call->getNumArgs() <= static_cast<unsigned>(std::max(ValueArg, Source)) ||
      Call->getArg(ValueArg) != Cur)
    return false;
  std::optional<int64_t> Lane = integerConstant(Call->getArg(Source), Ctx);
  return Lane && *Lane == 0 && shuffleSegmentWidth(Call, Ctx) == 32;
}

// \p Value is valueOf(\p Ref).
bool Analyzer::isWrite(const DeclRefExpr *Ref, const Expr *Value) {
  // `v = ...` or, for an array, `val[k] = ...`.
  const Expr *Target = Ref;
  if (const auto *Sub = dyn_cast<ArraySubscriptExpr>(Value->IgnoreParenImpCasts()))
    Target = Sub;
  else if (const auto *Member = dyn_cast<MemberExpr>(Value->IgnoreParenImpCasts()))
    Target = Member;
  const Stmt *P = parentStmt(Target, Ctx);
  while (P && isa<ParenExpr>(P))
    P = parentStmt(P, Ctx);
  if (const auto *BO = dyn_cast_or_null<BinaryOperator>(P))
    return BO->getOpcode() == BO_Assign && BO->getLHS()->IgnoreParens() == Target;
  if (const auto *UO = dyn_cast_or_null<UnaryOperator>(P))
    return UO->getOpcode() == UO_AddrOf;
  return false;
}

std::vector<LaneZeroTotalUse> Analyzer::run(const FunctionDecl *FD) {
  std::vector<LaneZeroTotalUse> Result;
  const Stmt *Body = FD->getBody();
  auto Events = collectEvents(Body, 0);
  StmtReachability Paths(FD, Ctx);
  propagateCopies(Events, Paths);
  llvm::DenseMap<const Stmt *, bool> Reported; // one report per reduction event
  bool AnyReduction = llvm::any_of(Events, [](const auto &Entry) {
    return llvm::any_of(Entry.second, [](const Event &E) { return E.Shuffle != nullptr; });
  });

  // Uses of variables that hold a lane-0 total.
  if (AnyReduction) {
    forEachStmt(Body, [&](const Stmt *S) {
      const auto *Ref = dyn_cast<DeclRefExpr>(S);
      const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
      if (!Var)
        return;
      auto It = Events.find(Var);
      if (It == Events.end())
        return;
      // Every question below is about the expression that stands for the
      // value: its parents are asked once.
      const Expr *Value = valueOf(Ref);
      if (isWrite(Ref, Value) || CopiedReads.count(Ref))
        return; // a copy's uses are judged as the copy's

      // An element with a constant index is only what was written to it
      // (or to every element, through a variable index).
      std::optional<int64_t> Element = constantElement(Value, Ctx);
      const FieldDecl *Field = fieldOf(Value);
      for (const Event &E : It->second)
        if (contains(E.At, Ref) && E.Shuffle)
          return; // a step of the reduction itself
      // `c[i]` written and read at the same index variable: a path that
      // steps i (a loop's `++i`) reaches another element.
      const VarDecl *IndexVar = elementIndexVar(Value);
      auto StepsOfIndex = [&](const Event &E, llvm::SmallVectorImpl<const Stmt *> &Kills) {
        if (!IndexVar || E.IndexVar != IndexVar)
          return;
        auto Index = Events.find(IndexVar);
        if (Index != Events.end())
          llvm::append_range(Kills, monotoneSteps(IndexVar, Index->second, Ctx));
      };
      const Event *Last = reachingEvent(
          It->second, Ref, SM, Paths,
          [&](const Event &E) {
            return !(Element && E.Element && *E.Element != *Element) &&
                   !(Field && E.Field && E.Field != Field);
          },
          StepsOfIndex);
      if (!Last || !Last->Shuffle || Reported.count(Last->At))
        return;
      // Through the copy an aggregate's return makes (`return val;` of a
      // struct whose fields were each reduced).
      const Stmt *P = parentStmt(Value, Ctx);
      while (P && isa<ImplicitCastExpr, ParenExpr, CXXConstructExpr, ExprWithCleanups>(P))
        P = parentStmt(P, Ctx);
      if (isa_and_nonnull<ReturnStmt>(P))
        return; // judged where the caller uses it
      if (isBroadcastFromLaneZero(Value) || onlyLaneZero(Ref))
        return;
      Reported[Last->At] = true;
      Result.push_back({Ref, Var, Last->Shuffle, Last->HelperCall});
    });
  }

  // A helper's lane-0 result used directly (`out[i] = warpReduceSum(v) / n`).
  forEachStmt(Body, [&](const Stmt *S) {
    const auto *Call = dyn_cast<CallExpr>(S);
    const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
    if (!Callee)
      return;
    // returnedLaneZeroTotal(Callee, 0) is null for these: ask no parents.
    const FunctionDecl *Followed = followedDefinition(Callee);
    if (!Followed || !Reach.mayReach(Followed))
      return;
    const Stmt *P = parentStmt(Call, Ctx);
    while (P && isa<ImplicitCastExpr, ParenExpr, ExprWithCleanups>(P))
      P = parentStmt(P, Ctx);
    // Stored into a variable (judged above), returned, or discarded.
    if (!P || isa<DeclStmt, ReturnStmt, CompoundStmt>(P))
      return;
    if (const auto *BO = dyn_cast<BinaryOperator>(P))
      if (BO->isAssignmentOp() && accumulatorVar(BO->getLHS()) &&
          accumulatorVar(BO->getLHS())->hasLocalStorage())
        return;
    const CallExpr *Shuffle = returnedLaneZeroTotal(Callee, 0);
    if (!Shuffle || isBroadcastFromLaneZero(valueOf(Call)) || onlyLaneZero(Call))
      return;
    Result.push_back({Call, nullptr, Shuffle, Call});
  });
  return Result;
}

} // namespace

DownShuffleReach::Answer DownShuffleReach::visit(const FunctionDecl *FD) {
  auto K = Known.find(FD);
  if (K != Known.end())
    return {K->second, NoneOpen};
  auto Open = InProgress.find(FD);
  if (Open != InProgress.end())
    return {false, Open->second};
  unsigned Level = InProgress.size();
  InProgress[FD] = Level;
  // The statements the analysis' forEachStmt visits (lambdas included, a
  // discarded `if constexpr` branch not), over every call it could follow;
  // an explicit stack, so that the walk stops at the first down shuffle.
  Answer A;
  llvm::SmallVector<const Stmt *, 64> Stack = {FD->getBody()};
  while (!Stack.empty() && !A.Reaches) {
    const Stmt *S = Stack.pop_back_val();
    if (!S)
      continue;
    if (const auto *Call = dyn_cast<CallExpr>(S))
      if (const FunctionDecl *Callee = Call->getDirectCallee()) {
        Answer C = viaCallee(Callee);
        A.Reaches = C.Reaches;
        A.LowestOpen = std::min(A.LowestOpen, C.LowestOpen);
      }
    const Stmt *Discarded = discardedBranch(S);
    for (const Stmt *Child : S->children())
      if (Child != Discarded)
        Stack.push_back(Child);
  }
  InProgress.erase(FD);
  // A "no" that leaned on a function further up the stack may change once
  // that one is done; FD's own recursion (Level) does not matter.
  if (A.Reaches || A.LowestOpen >= Level) {
    Known[FD] = A.Reaches;
    A.LowestOpen = NoneOpen;
  }
  return A;
}

DownShuffleReach::Answer DownShuffleReach::viaCallee(const FunctionDecl *Callee) {
  auto K = CalleeLeadsDown.find(Callee);
  if (K != CalleeLeadsDown.end())
    return {K->second, NoneOpen};
  Answer A;
  const WarpIntrinsic *I = classifyCallee(Callee);
  if (I && I->Direction == ShuffleDirection::Down)
    A.Reaches = true;
  else if (const FunctionDecl *Def = followedDefinition(Callee))
    A = visit(Def);
  if (A.Reaches || A.LowestOpen == NoneOpen)
    CalleeLeadsDown[Callee] = A.Reaches;
  return A;
}

bool DownShuffleReach::mayReach(const FunctionDecl *FD) { return visit(FD).Reaches; }

std::vector<LaneZeroTotalUse> findLaneZeroTotalUses(const FunctionDecl *FD, ASTContext &Ctx,
                                                    DownShuffleReach &Reach) {
  if (!FD || !FD->hasBody() || !Reach.mayReach(FD))
    return {};
  return Analyzer(Ctx, Reach).run(FD);
}

} // namespace warp_tidy
