//===--- InvalidShflWidthCheck.cpp - warp-invalid-shfl-width --------------===//

#include "InvalidShflWidthCheck.h"
#include "analysis/CheckMatchers.h"
#include "analysis/CollectiveCalls.h"
#include "analysis/IntrinsicMatchers.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/Support/MathExtras.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace warp_tidy {

void InvalidShflWidthCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(
      callExpr(callee(functionDecl(hasAnyName(
                   "__shfl_sync", "__shfl_up_sync", "__shfl_down_sync",
                   "__shfl_xor_sync", "__shfl", "__shfl_up", "__shfl_down",
                   "__shfl_xor"))),
               unless(isExpansionInSystemHeader()),
               unless(isInDiscardedConstexprBranch()))
          .bind("call"),
      this);
}

// The argument as the user wrote it (before the conversion to the parameter
// type), folded to a constant; nullopt when not written or not constant.
static std::optional<llvm::APSInt> writtenConstant(const CallExpr *Call, int Index,
                                                   const ASTContext &Ctx) {
  if (Index == NoArgument || static_cast<unsigned>(Index) >= Call->getNumArgs())
    return std::nullopt;
  const Expr *Arg = Call->getArg(Index);
  if (isa<CXXDefaultArgExpr>(Arg))
    return std::nullopt;
  Arg = Arg->IgnoreImpCasts();
  if (Arg->isValueDependent() || Arg->isTypeDependent())
    return std::nullopt;
  Expr::EvalResult R;
  if (!Arg->EvaluateAsInt(R, Ctx, Expr::SE_AllowSideEffects))
    return std::nullopt;
  return R.Val.getInt();
}

void InvalidShflWidthCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  std::optional<CollectiveCall> Collective = recogniseCollective(Call);
  if (!Collective || Collective->Intrinsic->Kind != CollectiveKind::Shuffle)
    return;
  const WarpIntrinsic &I = *Collective->Intrinsic;
  const ASTContext &Ctx = *Result.Context;
  const SourceManager &SM = *Result.SourceManager;

  // Width: 32 (warpSize) when defaulted.
  int64_t Width = 32;
  bool WidthValid = true;
  if (std::optional<llvm::APSInt> W = writtenConstant(Call, I.WidthArg, Ctx)) {
    const Expr *WidthExpr = Call->getArg(I.WidthArg);
    int64_t Value = W->getExtValue();
    if (Value < 1 || Value > 32 || !llvm::isPowerOf2_64(static_cast<uint64_t>(Value))) {
      WidthValid = false;
      SourceLocation Loc = SM.getFileLoc(WidthExpr->getBeginLoc());
      if (Reported.insert(Loc).second)
        diag(Loc, "%0 width %1 is not a power of two in [1, 32]: the result is "
                  "undefined; use 1, 2, 4, 8, 16 or 32 (the size of the lane "
                  "segments the shuffle works within)")
            << I.Name << toString(*W, 10) << WidthExpr->getSourceRange();
    } else {
      Width = Value;
    }
  }
  if (!WidthValid)
    return;

  std::optional<llvm::APSInt> Offset = writtenConstant(Call, I.LaneOrDeltaArg, Ctx);
  if (!Offset)
    return;
  const Expr *OffsetExpr = Call->getArg(I.LaneOrDeltaArg);
  SourceLocation Loc = SM.getFileLoc(OffsetExpr->getBeginLoc());
  int64_t Value = Offset->getExtValue();
  bool Negative = Offset->isSigned() && Offset->isNegative();
  if (!Negative && Value < Width)
    return;
  if (!Reported.insert(Loc).second)
    return;

  std::string V = toString(*Offset, 10);
  std::string WidthText = std::to_string(Width);
  switch (I.Direction) {
  case ShuffleDirection::Up:
  case ShuffleDirection::Down:
    diag(Loc, "%0 delta %1 is out of range for width %2: %select{a negative delta "
              "converts to a huge unsigned value and |}3no lane has a source %2 "
              "lanes %select{below|above}4 it, so every lane gets its own value "
              "back; use a delta in [1, %2)")
        << I.Name << V << WidthText << (Negative ? 0 : 1)
        << (I.Direction == ShuffleDirection::Up ? 0 : 1)
        << OffsetExpr->getSourceRange();
    break;
  case ShuffleDirection::Index:
    diag(Loc, "%0 source lane %1 is out of range for width %2: it is taken "
              "modulo %2 and reads lane %3 of the segment; write the lane you "
              "mean, in [0, %2)")
        << I.Name << V << WidthText
        << std::to_string(((Value % Width) + Width) % Width)
        << OffsetExpr->getSourceRange();
    break;
  case ShuffleDirection::Xor:
    diag(Loc, "%0 lane mask %1 is out of range for width %2: lanes xor-ed "
              "outside their %2-lane segment read another segment (or get "
              "their own value back from a later one); use a lane mask below "
              "%2")
        << I.Name << V << WidthText << OffsetExpr->getSourceRange();
    break;
  case ShuffleDirection::None:
    break;
  }
}

} // namespace warp_tidy
