//===--- ShuffleSources.cpp - Shuffles that read lanes outside their mask -===//

#include "patterns/ShuffleSources.h"
#include "ast/AstQueries.h"
#include "ast/GuardFacts.h"
#include "ast/LocalWrites.h"
#include "intrinsics/CollectiveCalls.h"
#include "intrinsics/InlinePtx.h"
#include "intrinsics/WarpCollective.h"
#include "lanes/LaneExpressions.h"
#include "patterns/ShuffleSteps.h"
#include "uniformity/Uniformity.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"

using namespace clang;

namespace warp_tidy {
namespace {

/// A counted loop is simulated for at most this many steps; a loop that
/// runs longer is not a warp-offset loop.
constexpr unsigned MaxLoopSteps = 64;

/// A constant, with `warpSize` taken as 32 (also inside arithmetic such as
/// `warpSize / 2`, which the language itself cannot fold).
std::optional<int64_t> constantOrWarpSize(const Expr *E, const ASTContext &Ctx,
                                          unsigned Depth = 0) {
  if (!E || Depth > 8)
    return std::nullopt;
  if (isWarpSizeValue(E, Ctx))
    return 32;
  if (std::optional<int64_t> K = integerConstant(E, Ctx))
    return K;
  const auto *B = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts());
  if (!B)
    return std::nullopt;
  std::optional<int64_t> L = constantOrWarpSize(B->getLHS(), Ctx, Depth + 1);
  std::optional<int64_t> R = constantOrWarpSize(B->getRHS(), Ctx, Depth + 1);
  if (!L || !R)
    return std::nullopt;
  switch (B->getOpcode()) {
  case BO_Add:
    return *L + *R;
  case BO_Sub:
    return *L - *R;
  case BO_Mul:
    return *L * *R;
  case BO_Div:
    return *R ? std::optional<int64_t>(*L / *R) : std::nullopt;
  case BO_Shr:
    return *R >= 0 && *R < 63 ? std::optional<int64_t>(*L >> *R) : std::nullopt;
  case BO_Shl:
    return *R >= 0 && *R < 32 ? std::optional<int64_t>(*L << *R) : std::nullopt;
  default:
    return std::nullopt;
  }
}

const VarDecl *referencedVar(const Expr *E) {
  const auto *DRE = dyn_cast_or_null<DeclRefExpr>(stripValue(E));
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

bool isVar(const Expr *E, const VarDecl *Var) { return E && referencedVar(E) == Var; }

/// One step of `Var`'s update in a for-increment, or nullopt when the
/// increment is not a constant update of Var.
std::optional<int64_t> step(const Expr *Inc, const VarDecl *Var, int64_t Value,
                            const ASTContext &Ctx) {
  Inc = Inc ? Inc->IgnoreParenImpCasts() : nullptr;
  if (const auto *U = dyn_cast_or_null<UnaryOperator>(Inc)) {
    if (!isVar(U->getSubExpr(), Var))
      return std::nullopt;
    if (U->isIncrementOp())
      return Value + 1;
    if (U->isDecrementOp())
      return Value - 1;
    return std::nullopt;
  }
  const auto *B = dyn_cast_or_null<BinaryOperator>(Inc);
  if (!B || !isVar(B->getLHS(), Var))
    return std::nullopt;
  BinaryOperatorKind Op;
  const Expr *Amount;
  if (B->isCompoundAssignmentOp()) {
    Op = BinaryOperator::getOpForCompoundAssignment(B->getOpcode());
    Amount = B->getRHS();
  } else if (B->getOpcode() == BO_Assign) {
    // Var = Var op K
    const auto *R = dyn_cast<BinaryOperator>(B->getRHS()->IgnoreParenImpCasts());
    if (!R || !isVar(R->getLHS(), Var))
      return std::nullopt;
    Op = R->getOpcode();
    Amount = R->getRHS();
  } else {
    return std::nullopt;
  }
  std::optional<int64_t> K = constantOrWarpSize(Amount, Ctx);
  if (!K)
    return std::nullopt;
  switch (Op) {
  case BO_Add:
    return Value + *K;
  case BO_Sub:
    return Value - *K;
  case BO_Mul:
    return Value * *K;
  case BO_Div:
    return *K ? std::optional<int64_t>(Value / *K) : std::nullopt;
  case BO_Shl:
    return *K >= 0 && *K < 32 ? std::optional<int64_t>(Value << *K) : std::nullopt;
  case BO_Shr:
    return *K >= 0 && *K < 63 ? std::optional<int64_t>(Value >> *K) : std::nullopt;
  default:
    return std::nullopt;
  }
}

/// Whether the loop condition holds for Var == Value; nullopt when the
/// condition is not `Var <op> constant`.
std::optional<bool> holds(const Expr *Cond, const VarDecl *Var, int64_t Value,
                          const ASTContext &Ctx) {
  const auto *B = dyn_cast_or_null<BinaryOperator>(Cond ? Cond->IgnoreParenImpCasts() : nullptr);
  if (!B || !B->isComparisonOp() || !isVar(B->getLHS(), Var))
    return std::nullopt;
  std::optional<int64_t> K = constantOrWarpSize(B->getRHS(), Ctx);
  if (!K)
    return std::nullopt;
  switch (B->getOpcode()) {
  case BO_LT:
    return Value < *K;
  case BO_LE:
    return Value <= *K;
  case BO_GT:
    return Value > *K;
  case BO_GE:
    return Value >= *K;
  case BO_NE:
    return Value != *K;
  default:
    return std::nullopt;
  }
}

/// The values \p Var takes in the body of the counted for-loop \p Loop that
/// declares it (`for (int o = 16; o > 0; o >>= 1)`), when the body never
/// writes it.
std::optional<llvm::SmallVector<int64_t, 8>> loopValues(const ForStmt *Loop, const VarDecl *Var,
                                                        const ASTContext &Ctx) {
  const auto *Init = dyn_cast_or_null<DeclStmt>(Loop->getInit());
  if (!Init || !Init->isSingleDecl() || Init->getSingleDecl() != Var || !Var->getInit())
    return std::nullopt;
  if (!isNeverWrittenIn(Var, Loop->getBody()))
    return std::nullopt;
  std::optional<int64_t> Value = constantOrWarpSize(Var->getInit(), Ctx);
  if (!Value)
    return std::nullopt;
  llvm::SmallVector<int64_t, 8> Values;
  for (unsigned I = 0; I < MaxLoopSteps; ++I) {
    std::optional<bool> Continue = holds(Loop->getCond(), Var, *Value, Ctx);
    if (!Continue)
      return std::nullopt;
    if (!*Continue)
      return Values;
    Values.push_back(*Value);
    Value = step(Loop->getInc(), Var, *Value, Ctx);
    if (!Value)
      return std::nullopt;
  }
  return std::nullopt;
}

/// Every value the offset argument can have at the shuffle, or nullopt when
/// that is not known statically.
std::optional<llvm::SmallVector<int64_t, 8>> possibleOffsets(const Expr *Arg, const Stmt *Call,
                                                             ASTContext &Ctx) {
  if (std::optional<int64_t> K = constantOrWarpSize(Arg, Ctx))
    return llvm::SmallVector<int64_t, 8>{*K};
  const VarDecl *Var = referencedVar(Arg);
  if (!Var)
    return std::nullopt;
  if (const Expr *Init = singleAssignmentInit(Var))
    if (std::optional<int64_t> K = constantOrWarpSize(Init, Ctx))
      return llvm::SmallVector<int64_t, 8>{*K};
  for (const Stmt *P = parentStmt(Call, Ctx); P; P = parentStmt(P, Ctx))
    if (const auto *Loop = dyn_cast<ForStmt>(P))
      if (const auto *Init = dyn_cast_or_null<DeclStmt>(Loop->getInit()))
        if (Init->isSingleDecl() && Init->getSingleDecl() == Var)
          return loopValues(Loop, Var, Ctx);
  return std::nullopt;
}

/// The lane \p Reader reads, or nullopt when it gets its own value back (the
/// source is past its segment's edge) or the offset is not meaningful.
std::optional<unsigned> sourceLane(ShuffleDirection Dir, unsigned Reader, int64_t Offset,
                                   unsigned Width) {
  if (Offset < 0)
    return std::nullopt;
  unsigned Pos = Reader % Width, Base = Reader - Pos;
  switch (Dir) {
  case ShuffleDirection::Down:
    return Pos + Offset < Width ? std::optional<unsigned>(Reader + Offset) : std::nullopt;
  case ShuffleDirection::Up:
    return Pos >= Offset ? std::optional<unsigned>(Reader - Offset) : std::nullopt;
  case ShuffleDirection::Xor:
    // Lane masks of a segment's width or more leave the segment, where the
    // rules differ by direction; not judged.
    return Offset > 0 && Offset < Width ? std::optional<unsigned>(Reader ^ Offset) : std::nullopt;
  case ShuffleDirection::Index:
    return Base + static_cast<unsigned>(Offset % Width);
  case ShuffleDirection::None:
    return std::nullopt;
  }
  return std::nullopt;
}

bool isTreeReduction(ShuffleDirection Dir, llvm::ArrayRef<int64_t> Offsets) {
  if (Dir != ShuffleDirection::Down || Offsets.size() < 2)
    return false;
  for (size_t I = 1; I < Offsets.size(); ++I)
    if (Offsets[I] >= Offsets[I - 1])
      return false;
  return true;
}

/// One step of a tree reduction written out: `v += __shfl_down_sync(m, v, 8);
/// v += __shfl_down_sync(m, v, 4); ...`, a down shuffle with a constant
/// offset followed by others on the same value with smaller ones. Its
/// result is judged like a loop's: by the lane that ends up with the total.
bool isTreeReductionStep(const WarpCollective &C, const WarpIntrinsic &I, ASTContext &Ctx) {
  const auto *Call = dyn_cast<CallExpr>(C.At);
  if (I.Direction != ShuffleDirection::Down || !Call || !C.LaneOrDelta.E)
    return false;
  return offsetTrend(C.LaneOrDelta.E, Call, Ctx) == OffsetTrend::Halving;
}

/// The lowest lane of \p Lanes in every width-wide segment.
LaneSet firstLanes(LaneSet Lanes, unsigned Width) {
  LaneSet Result = LaneSet::none();
  for (unsigned Base = 0; Base < 32; Base += Width)
    for (unsigned Lane = Base; Lane < Base + Width; ++Lane)
      if (Lanes.contains(Lane)) {
        Result = Result | LaneSet::single(Lane);
        break;
      }
  return Result;
}

/// `__ballot_sync(...)` that \p Mask is, directly or through a write-once
/// local initialised with it.
const CallExpr *ballotOf(const Expr *Mask, const ASTContext &Ctx) {
  const Expr *E = stripValue(Mask);
  if (const VarDecl *Var = referencedVar(E))
    E = stripValue(singleAssignmentInit(Var));
  const auto *Call = dyn_cast_or_null<CallExpr>(E);
  if (!Call)
    return nullptr;
  std::optional<CollectiveCall> C = recogniseCollective(Call);
  if (!C || C->Intrinsic->Kind != CollectiveKind::Ballot || !C->Intrinsic->IsSync)
    return nullptr;
  return Call;
}

bool isComparisonOrBool(const Expr *E) {
  E = stripValue(E);
  if (E->getType()->isBooleanType())
    return true;
  const auto *B = dyn_cast<BinaryOperator>(E);
  return B && (B->isComparisonOp() || B->isLogicalOp());
}

/// True when \p Child, a child of \p Parent, only counts under a condition:
/// an arm of `?:`, the body of an `if`, the right side of `&&`/`||`, or a
/// factor multiplied (or and-ed) with a predicate.
bool isGuardedChild(const Stmt *Parent, const Stmt *Child) {
  if (const auto *If = dyn_cast<IfStmt>(Parent))
    return Child == If->getThen() || Child == If->getElse();
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(Parent))
    return Child == CO->getTrueExpr() || Child == CO->getFalseExpr();
  if (const auto *B = dyn_cast<BinaryOperator>(Parent)) {
    if (B->isLogicalOp())
      return Child == B->getRHS();
    if (B->getOpcode() == BO_Mul || B->getOpcode() == BO_And) {
      const Expr *Other = Child == B->getLHS() ? B->getRHS() : B->getLHS();
      return isComparisonOrBool(Other);
    }
  }
  return false;
}

/// True when some statement between \p Use and \p Stop (exclusive) guards it.
bool guardedBetween(const Stmt *Use, llvm::SmallPtrSetImpl<const Stmt *> &Stop, ASTContext &Ctx) {
  const Stmt *Child = Use;
  for (const Stmt *P = parentStmt(Use, Ctx); P && !Stop.count(P); Child = P, P = parentStmt(P, Ctx))
    if (isGuardedChild(P, Child))
      return true;
  return false;
}

/// Where the value of \p Call is used without a guard; null when it is
/// discarded, chosen by `?:`, or kept in a variable read only under guards.
const Expr *unguardedRead(const VarDecl *Target, const Stmt *Producer, const FunctionDecl *FD,
                          ASTContext &Ctx);

const Expr *unguardedUse(const CallExpr *Call, ASTContext &Ctx) {
  const FunctionDecl *FD = enclosingFunction(Call, Ctx);
  if (!FD || !FD->getBody())
    return nullptr;

  // Climb through the expression that consumes the shuffle's value.
  const Stmt *Child = Call;
  const VarDecl *Target = nullptr;
  while (!Target) {
    const Decl *Via = nullptr;
    const Stmt *P = parentStmt(Child, Ctx, &Via);
    if (Via) {
      // The initialiser of a declared variable.
      const auto *Var = dyn_cast<VarDecl>(Via);
      if (!Var || stripValue(Var->getInit()) != Call)
        return cast<Expr>(Child); // computed into a variable: used
      Target = Var;
    } else if (!P) {
      return nullptr;
    } else if (isGuardedChild(P, Child)) {
      return nullptr;
    } else if (const auto *B = dyn_cast<BinaryOperator>(P); B && B->isAssignmentOp()) {
      if (Child != B->getRHS())
        return nullptr;
      const VarDecl *Var = referencedVar(B->getLHS());
      if (B->getOpcode() != BO_Assign || stripValue(B->getRHS()) != Call || !Var ||
          !Var->isLocalVarDeclOrParm())
        return B; // accumulated or stored: used
      Target = Var;
    } else if (isa<ReturnStmt>(P) || isa<CallExpr>(P) || isa<ArraySubscriptExpr>(P) ||
               isa<CXXConstructExpr>(P)) {
      return cast<Expr>(Child);
    } else if (isa<CompoundStmt>(P) || !isa<Expr>(P)) {
      // The value ends here unused (a statement of its own, or a condition,
      // which is the calling lane's own business).
      return nullptr;
    } else {
      Child = P;
    }
  }
  return unguardedRead(Target, Call, FD, Ctx);
}

/// Where \p Target, which holds the value \p Producer computed, is read
/// without a guard (outside \p Producer itself); null when every read is
/// guarded.
const Expr *unguardedRead(const VarDecl *Target, const Stmt *Producer, const FunctionDecl *FD,
                          ASTContext &Ctx) {
  llvm::SmallPtrSet<const Stmt *, 16> CallAncestors;
  for (const Stmt *P = Producer; P; P = parentStmt(P, Ctx))
    CallAncestors.insert(P);
  const Expr *Unguarded = nullptr;
  forEachStmt(FD->getBody(), [&](const Stmt *S) {
    const auto *DRE = dyn_cast<DeclRefExpr>(S);
    if (Unguarded || !DRE || DRE->getDecl() != Target)
      return;
    const Stmt *Parent = parentStmt(DRE, Ctx);
    // The producing asm statement's own operands.
    if (Parent == Producer)
      return;
    // Writes of the variable are not uses of the shuffled value.
    if (const auto *B = dyn_cast_or_null<BinaryOperator>(Parent);
        B && B->getOpcode() == BO_Assign && stripValue(B->getLHS()) == DRE)
      return;
    if (!guardedBetween(DRE, CallAncestors, Ctx))
      Unguarded = DRE;
  });
  return Unguarded;
}

/// What is known about the lanes of a shuffle's mask.
struct MaskLanes {
  std::optional<uint32_t> Constant;      ///< The mask's value, when constant.
  const CallExpr *Ballot = nullptr;      ///< Or the ballot that computed it...
  const Expr *BallotCondition = nullptr; ///< ...over this thread-varying condition.
};

/// The mask \p Mask as known where it is evaluated (\p Analysis: the
/// function evaluating it); nothing when neither constant nor a ballot.
std::optional<MaskLanes> classifyMask(const CollectiveOperand &Operand, ASTContext &Ctx,
                                      const FunctionUniformity *Analysis) {
  MaskLanes M;
  const Expr *Mask = Operand.E;
  std::optional<uint32_t> Bits;
  if (Operand.Immediate)
    Bits = static_cast<uint32_t>(*Operand.Immediate);
  else if (Mask)
    Bits = resolveMaskConstant(Mask, Ctx);
  if (!Mask && !Bits)
    return std::nullopt;
  if (Bits) {
    // A zero mask and the full warp are other checks' (or no) problem.
    if (*Bits == 0 || *Bits == ~0u)
      return std::nullopt;
    M.Constant = *Bits;
    return M;
  }
  const CallExpr *Ballot = ballotOf(Mask, Ctx);
  if (!Ballot)
    return std::nullopt;
  std::optional<CollectiveCall> B = recogniseCollective(Ballot);
  int ValueArg = B->Intrinsic->ValueArg;
  const Expr *Cond =
      ValueArg != NoArgument && Ballot->getNumArgs() > static_cast<unsigned>(ValueArg)
          ? Ballot->getArg(ValueArg)
          : nullptr;
  // A warp-uniform condition gives all lanes or none.
  if (!Cond || !Analysis || !Analysis->isThreadVarying(Cond))
    return std::nullopt;
  M.Ballot = Ballot;
  M.BallotCondition = Cond;
  return M;
}

/// The width of \p C's lane segments: the width argument of a call, what the
/// control operand of inline PTX encodes; nullopt when not known.
std::optional<unsigned> segmentWidth(const WarpCollective &C, const ASTContext &Ctx) {
  if (const CallExpr *Call = C.call())
    return shuffleSegmentWidth(Call, Ctx);
  std::optional<int64_t> Control = C.ShuffleControl.constant(Ctx);
  if (!Control)
    return std::nullopt;
  return shuffleWidthFromControl(static_cast<uint64_t>(*Control));
}

/// Where the value \p C computes is used without a guard.
const Expr *unguardedResultUse(const WarpCollective &C, ASTContext &Ctx) {
  if (const CallExpr *Call = C.call())
    return unguardedUse(Call, Ctx);
  // Inline PTX: the value is in the variable of the destination operand.
  const VarDecl *Target = referencedVar(C.Destination.E);
  const FunctionDecl *FD = enclosingFunction(C.At, Ctx);
  if (!Target || !FD || !FD->getBody())
    return nullptr;
  return unguardedRead(Target, C.At, FD, Ctx);
}

/// Judges \p C, a shuffle, against mask lanes \p M; \p Readers are the
/// lanes that may execute it (for constant masks).
std::optional<ShuffleSourceFinding> judge(const WarpCollective &C, const MaskLanes &M,
                                          LaneSet Readers, ASTContext &Ctx) {
  const WarpIntrinsic &I = *C.Intrinsic;
  std::optional<unsigned> SegmentWidth = segmentWidth(C, Ctx);
  if (!SegmentWidth)
    return std::nullopt;
  unsigned Width = *SegmentWidth;
  if (Width == 0 || Width > 32 || (Width & (Width - 1)) != 0)
    return std::nullopt; // warp-invalid-shfl-width's business
  std::optional<llvm::SmallVector<int64_t, 8>> Offsets;
  if (C.LaneOrDelta.Immediate)
    Offsets = llvm::SmallVector<int64_t, 8>{*C.LaneOrDelta.Immediate};
  else if (C.LaneOrDelta.E)
    Offsets = possibleOffsets(C.LaneOrDelta.E, C.At, Ctx);
  if (!Offsets || Offsets->empty())
    return std::nullopt;

  ShuffleSourceFinding F;
  F.Shuffle = C.At;
  F.Intrinsic = &I;
  F.Name = C.displayName();
  F.Width = Width;
  bool Found = false;
  if (M.Constant) {
    LaneSet Mask(*M.Constant);
    Readers = Readers & Mask;
    // A tree reduction (down, offsets halving) leaves its result in the
    // first lane of each segment; the other lanes' partial sums may read
    // past the mask harmlessly (`0x0000ffff` with offsets 8, 4, 2, 1 sums
    // lanes 0-15 correctly into lane 0).
    if (isTreeReduction(I.Direction, *Offsets) || isTreeReductionStep(C, I, Ctx))
      Readers = firstLanes(Readers, Width);
    for (unsigned Lane = 0; Lane < 32 && !Found; ++Lane) {
      if (!Readers.contains(Lane))
        continue;
      for (int64_t Offset : *Offsets) {
        std::optional<unsigned> Src = sourceLane(I.Direction, Lane, Offset, Width);
        if (Src && *Src < 32 && !Mask.contains(*Src)) {
          F.Origin = ShuffleSourceFinding::ConstantMask;
          F.Mask = *M.Constant;
          F.ReaderLane = Lane;
          F.SourceLane = *Src;
          F.Offset = Offset;
          Found = true;
          break;
        }
      }
    }
  } else {
    // Unknown lanes: only the directions that read upwards or across, where
    // any non-zero offset reaches a lane the condition may exclude. (Up
    // shuffles under a `i < n` ballot read lanes below, which the prefix
    // contains.)
    if (I.Direction != ShuffleDirection::Down && I.Direction != ShuffleDirection::Xor)
      return std::nullopt;
    for (int64_t Offset : *Offsets)
      if (Offset > 0 && Offset < Width) {
        F.Origin = ShuffleSourceFinding::BallotMask;
        F.Ballot = M.Ballot;
        F.BallotCondition = M.BallotCondition;
        F.Offset = Offset;
        Found = true;
        break;
      }
  }
  if (!Found)
    return std::nullopt;
  F.Use = unguardedResultUse(C, Ctx);
  if (!F.Use)
    return std::nullopt;
  return F;
}

bool isJudgedShuffle(const WarpCollective &C) {
  // A PTX guard predicate decides inside the template which lanes shuffle:
  // not judged.
  return C.Intrinsic->Kind == CollectiveKind::Shuffle && C.Intrinsic->IsSync &&
         C.Intrinsic->Direction != ShuffleDirection::None && C.LaneOrDelta.present() &&
         C.Mask.present() && !C.GuardedInTemplate;
}

LaneSet mayReachOrAll(const FunctionUniformity *Analysis, const Stmt *S) {
  if (!Analysis)
    return LaneSet::all();
  LaneSet May = Analysis->mayReach(S);
  return May.isEmpty() ? LaneSet::all() : May;
}

} // namespace

std::optional<ShuffleSourceFinding> analyzeShuffleSource(const Stmt *At, ASTContext &Ctx,
                                                         const FunctionUniformity *Analysis) {
  for (const WarpCollective &C : warpCollectivesAt(At)) {
    if (!isJudgedShuffle(C))
      continue;
    std::optional<MaskLanes> M = classifyMask(C.Mask, Ctx, Analysis);
    if (!M)
      continue;
    if (std::optional<ShuffleSourceFinding> F = judge(C, *M, mayReachOrAll(Analysis, At), Ctx))
      return F;
  }
  return std::nullopt;
}

std::optional<ShuffleSourceFinding>
analyzeHelperShuffleSource(const CallExpr *Call, ASTContext &Ctx,
                           const FunctionUniformity *CallerAnalysis, WarpAnalysisCache &Cache) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  const FunctionDecl *Helper = Callee ? Callee->getDefinition() : nullptr;
  if (!Helper || !Helper->getBody() || Helper->isDependentContext() ||
      Ctx.getSourceManager().isInSystemHeader(Helper->getLocation()) || recogniseCollective(Call))
    return std::nullopt;
  std::optional<ShuffleSourceFinding> Result;
  forEachStmt(Helper->getBody(), [&](const Stmt *S) {
    if (Result || !isa<CallExpr, GCCAsmStmt>(S))
      return;
    for (const WarpCollective &C : warpCollectivesAt(S)) {
      if (Result || !isJudgedShuffle(C) || !C.Mask.E)
        continue;
      // The helper's mask must be one of its parameters, never reassigned.
      const auto *Param = dyn_cast_or_null<ParmVarDecl>(referencedVar(C.Mask.E));
      if (!Param || Param->getDeclContext() != Helper ||
          !isNeverWrittenIn(Param, Helper->getBody()))
        continue;
      unsigned Index = Param->getFunctionScopeIndex();
      if (Index >= Call->getNumArgs())
        continue;
      CollectiveOperand Passed;
      Passed.E = Call->getArg(Index);
      std::optional<MaskLanes> M = classifyMask(Passed, Ctx, CallerAnalysis);
      if (!M)
        continue;
      LaneSet Readers =
          mayReachOrAll(CallerAnalysis, Call) & mayReachOrAll(Cache.analysis(Helper).get(), S);
      Result = judge(C, *M, Readers, Ctx);
      if (Result) {
        Result->Helper = Helper;
        Result->HelperCall = Call;
      }
    }
  });
  return Result;
}

} // namespace warp_tidy
