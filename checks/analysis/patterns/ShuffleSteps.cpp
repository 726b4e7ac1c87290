//===--- ShuffleSteps.cpp - How a shuffle's offset moves between steps ---===//

#include "patterns/ShuffleSteps.h"
#include "ast/AstQueries.h"
#include "ast/GuardFacts.h"
#include "ast/LocalWrites.h"
#include "ast/ThreadIndex.h"
#include "lanes/LaneExpressions.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace warp_tidy {
namespace {

// --- Offset trends -----------------------------------------------------------

OffsetTrend invert(OffsetTrend T) {
  return T == OffsetTrend::Growing   ? OffsetTrend::Halving
         : T == OffsetTrend::Halving ? OffsetTrend::Growing
                                     : T;
}

// How one statement changes \p Var, if it does.
OffsetTrend modificationTrend(const Stmt *S, const VarDecl *Var, const ASTContext &Ctx) {
  auto IsVar = [&](const Expr *E) {
    const auto *Ref = dyn_cast<DeclRefExpr>(stripValue(E));
    return Ref && Ref->getDecl() == Var;
  };
  if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
    if (!IsVar(UO->getSubExpr()))
      return OffsetTrend::Unknown;
    if (UO->isIncrementOp())
      return OffsetTrend::Growing;
    if (UO->isDecrementOp())
      return OffsetTrend::Halving;
    return OffsetTrend::Unknown;
  }
  const auto *BO = dyn_cast<BinaryOperator>(S);
  if (!BO || !BO->isAssignmentOp() || !IsVar(BO->getLHS()))
    return OffsetTrend::Unknown;
  std::optional<int64_t> K = integerConstant(BO->getRHS(), Ctx);
  switch (BO->getOpcode()) {
  case BO_ShlAssign:
    return OffsetTrend::Growing;
  case BO_ShrAssign:
    return OffsetTrend::Halving;
  case BO_MulAssign:
    return K && *K > 1 ? OffsetTrend::Growing : OffsetTrend::Unknown;
  case BO_DivAssign:
    return K && *K > 1 ? OffsetTrend::Halving : OffsetTrend::Unknown;
  case BO_AddAssign:
    return (K && *K > 0) || IsVar(BO->getRHS()) ? OffsetTrend::Growing : OffsetTrend::Unknown;
  case BO_SubAssign:
    return K && *K > 0 ? OffsetTrend::Halving : OffsetTrend::Unknown;
  case BO_Assign: {
    const auto *R = dyn_cast<BinaryOperator>(stripValue(BO->getRHS()));
    if (!R)
      return OffsetTrend::Unknown;
    bool L = IsVar(R->getLHS()), Rv = IsVar(R->getRHS());
    switch (R->getOpcode()) {
    case BO_Shl:
      return L ? OffsetTrend::Growing : OffsetTrend::Unknown;
    case BO_Shr:
      return L ? OffsetTrend::Halving : OffsetTrend::Unknown;
    case BO_Mul:
      return L || Rv ? OffsetTrend::Growing : OffsetTrend::Unknown;
    case BO_Div:
      return L ? OffsetTrend::Halving : OffsetTrend::Unknown;
    case BO_Add:
      return L || Rv ? OffsetTrend::Growing : OffsetTrend::Unknown;
    case BO_Sub:
      return L ? OffsetTrend::Halving : OffsetTrend::Unknown;
    default:
      return OffsetTrend::Unknown;
    }
  }
  default:
    return OffsetTrend::Unknown;
  }
}

OffsetTrend trendOfExpr(const Expr *E, const CallExpr *Shuffle, ASTContext &Ctx, unsigned Depth);

OffsetTrend trendOfVar(const VarDecl *Var, const CallExpr *Shuffle, ASTContext &Ctx,
                       unsigned Depth) {
  for (const Stmt *P = parentStmt(Shuffle, Ctx); P; P = parentStmt(P, Ctx)) {
    if (!isLoopStmt(P))
      continue;
    OffsetTrend Found = OffsetTrend::Unknown;
    forEachStmt(P, [&](const Stmt *S) {
      if (Found == OffsetTrend::Unknown)
        Found = modificationTrend(S, Var, Ctx);
    });
    if (Found != OffsetTrend::Unknown)
      return Found;
  }
  if (const Expr *Init = singleAssignmentInit(Var))
    if (!integerConstant(Init, Ctx))
      return trendOfExpr(Init, Shuffle, Ctx, Depth + 1);
  return OffsetTrend::Unknown;
}

OffsetTrend trendOfExpr(const Expr *E, const CallExpr *Shuffle, ASTContext &Ctx, unsigned Depth) {
  if (!E || Depth > 4)
    return OffsetTrend::Unknown;
  E = stripValue(E);
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
      return trendOfVar(Var, Shuffle, Ctx, Depth);
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    // `1 << i` grows with i; `16 >> i` shrinks.
    if (BO->getOpcode() == BO_Shl && integerConstant(BO->getLHS(), Ctx))
      return trendOfExpr(BO->getRHS(), Shuffle, Ctx, Depth + 1);
    if (BO->getOpcode() == BO_Shr && integerConstant(BO->getLHS(), Ctx))
      return invert(trendOfExpr(BO->getRHS(), Shuffle, Ctx, Depth + 1));
  }
  return OffsetTrend::Unknown;
}

// `lane - d` (or a write-once variable holding it): returns d.
const Expr *offsetOfSourceLane(const Expr *SrcLane, const ASTContext &Ctx, unsigned Depth = 0) {
  if (!SrcLane || Depth > 3)
    return nullptr;
  const Expr *E = stripValue(SrcLane);
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->getOpcode() != BO_Sub || !mentionsThreadPosition(BO->getLHS(), Ctx))
      return nullptr;
    std::optional<int64_t> D = integerConstant(BO->getRHS(), Ctx);
    if (D && *D <= 0)
      return nullptr;
    return BO->getRHS();
  }
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
      if (const Expr *Init = singleAssignmentInit(Var))
        return offsetOfSourceLane(Init, Ctx, Depth + 1);
  return nullptr;
}

// Straight-line code: the constant offsets of the shuffles of the same kind
// on the same value, in source order. A function may hold several such
// sequences (a warp's tree, then a 16-lane tree of the warps' totals, both
// on `sum`): the shuffle belongs to the longest run of strictly growing or
// strictly halving offsets that contains it, of three steps at least.
OffsetTrend sequenceTrend(const CallExpr *Shuffle, const ShuffleParts &Parts, ASTContext &Ctx) {
  const FunctionDecl *FD = enclosingFunction(Shuffle, Ctx);
  if (!FD || !FD->getBody())
    return OffsetTrend::Unknown;
  llvm::SmallVector<int64_t, 8> Offsets;
  std::optional<size_t> At;
  forEachStmt(FD->getBody(), [&](const Stmt *S) {
    const auto *Call = dyn_cast<CallExpr>(S);
    if (!Call)
      return;
    ShuffleParts Other = shuffleParts(Call, Ctx);
    if (!Other.Collective || !Other.Offset ||
        Other.Collective->Intrinsic != Parts.Collective->Intrinsic ||
        !sameValue(Other.Value, Parts.Value, Ctx))
      return;
    if (std::optional<int64_t> K = integerConstant(Other.Offset, Ctx)) {
      if (Call == Shuffle)
        At = Offsets.size();
      Offsets.push_back(*K);
    }
  });
  if (Offsets.size() <= 1)
    return OffsetTrend::Single;
  if (!At)
    return OffsetTrend::Unknown;
  // The run through At in which every step goes the way Up says.
  auto RunLength = [&](bool Up) {
    auto Steps = [&](size_t From, size_t To) {
      return Up ? Offsets[To] > Offsets[From] : Offsets[To] < Offsets[From];
    };
    size_t Begin = *At, End = *At;
    while (Begin > 0 && Steps(Begin - 1, Begin))
      --Begin;
    while (End + 1 < Offsets.size() && Steps(End, End + 1))
      ++End;
    return End - Begin + 1;
  };
  size_t Growing = RunLength(true), Halving = RunLength(false);
  if (Growing == Offsets.size())
    return OffsetTrend::Growing;
  if (Halving == Offsets.size())
    return OffsetTrend::Halving;
  // Two shuffles that happen to follow each other (`v += shfl(v, 1)` in one
  // branch, a tree starting at 8 in the next) are no sequence: a run among
  // others counts from three steps on.
  constexpr size_t MinRun = 3;
  if (std::max(Growing, Halving) < MinRun || Growing == Halving)
    return OffsetTrend::Unknown;
  return Growing > Halving ? OffsetTrend::Growing : OffsetTrend::Halving;
}

unsigned segmentWidth(const CallExpr *Call, const CollectiveCall &C, const ASTContext &Ctx) {
  const WarpIntrinsic &I = *C.Intrinsic;
  if (I.Kind == CollectiveKind::TileMember) {
    // thread_block_tile<N>: the tile size is the segment.
    const auto *MC = dyn_cast<CXXMemberCallExpr>(Call);
    const Expr *Obj = MC ? MC->getImplicitObjectArgument() : nullptr;
    if (!Obj)
      return 0;
    // Through the derived-to-base cast: the tile's own type has the size.
    QualType T = stripValue(Obj)->getType().getNonReferenceType();
    if (const auto *PT = T->getAs<PointerType>())
      T = PT->getPointeeType();
    const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(T->getAsCXXRecordDecl());
    if (!Spec || Spec->getTemplateArgs().size() == 0 ||
        Spec->getTemplateArgs()[0].getKind() != TemplateArgument::Integral)
      return 0;
    return static_cast<unsigned>(Spec->getTemplateArgs()[0].getAsIntegral().getZExtValue());
  }
  if (I.WidthArg == NoArgument || Call->getNumArgs() <= static_cast<unsigned>(I.WidthArg))
    return 32;
  const Expr *W = Call->getArg(I.WidthArg);
  if (isa<CXXDefaultArgExpr>(W))
    return 32;
  std::optional<int64_t> K = integerConstant(W, Ctx);
  if (isWarpSizeValue(W, Ctx))
    return 32;
  return K && *K > 0 && *K <= 32 ? static_cast<unsigned>(*K) : 0;
}

} // namespace

ShuffleParts shuffleParts(const CallExpr *Call, const ASTContext &Ctx) {
  ShuffleParts Parts;
  Parts.Collective = recogniseCollective(Call);
  if (!Parts.Collective)
    return Parts;
  const WarpIntrinsic &I = *Parts.Collective->Intrinsic;
  if (I.Kind != CollectiveKind::Shuffle && I.Kind != CollectiveKind::TileMember)
    return Parts;
  if (I.ValueArg == NoArgument || I.LaneOrDeltaArg == NoArgument ||
      Call->getNumArgs() <= static_cast<unsigned>(I.LaneOrDeltaArg))
    return Parts;
  Parts.Value = Call->getArg(I.ValueArg);
  const Expr *Arg = Call->getArg(I.LaneOrDeltaArg);
  if (I.Direction == ShuffleDirection::Index) {
    Parts.SourceLane = Arg;
    Parts.Offset = offsetOfSourceLane(Arg, Ctx);
  } else {
    Parts.Offset = Arg;
  }
  return Parts;
}

unsigned shuffleSegmentWidth(const CallExpr *Shuffle, const ASTContext &Ctx) {
  std::optional<CollectiveCall> C = recogniseCollective(Shuffle);
  return C ? segmentWidth(Shuffle, *C, Ctx) : 0;
}

OffsetTrend offsetTrend(const Expr *Offset, const CallExpr *Shuffle, ASTContext &Ctx) {
  if (integerConstant(Offset, Ctx)) {
    ShuffleParts Parts = shuffleParts(Shuffle, Ctx);
    if (!Parts.Collective)
      return OffsetTrend::Unknown;
    return sequenceTrend(Shuffle, Parts, Ctx);
  }
  return trendOfExpr(Offset, Shuffle, Ctx, 0);
}

} // namespace warp_tidy
