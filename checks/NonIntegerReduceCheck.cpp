//===--- NonIntegerReduceCheck.cpp - warp-non-integer-reduce --------------===//

#include "NonIntegerReduceCheck.h"
#include "ast/UnitParents.h"
#include "intrinsics/CollectiveCalls.h"
#include "matchers/CheckMatchers.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace warp_tidy {

void NonIntegerReduceCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(
      callExpr(calleeNamedAnyOf({"__reduce_add_sync", "__reduce_min_sync", "__reduce_max_sync",
                                 "__reduce_and_sync", "__reduce_or_sync", "__reduce_xor_sync"}),
               unless(isExpansionInSystemHeader()), unless(isInDiscardedConstexprBranch()))
          .bind("call"),
      this);
}

// True when the call's result is converted to a floating type by its
// immediate context (an implicit conversion, a cast, or a floating
// variable's initialiser): the caller wanted a floating-point reduction.
static bool resultBecomesFloating(const CallExpr *Call, ASTContext &Ctx) {
  DynTypedNode Parent = firstParent(*Call, Ctx);
  while (!isNone(Parent)) {
    const auto *E = Parent.get<Expr>();
    if (!E)
      return false;
    if (isa<ParenExpr>(E)) {
      Parent = firstParent(*E, Ctx);
      continue;
    }
    if (const auto *Cast = dyn_cast<CastExpr>(E))
      return Cast->getType()->isRealFloatingType();
    return false;
  }
  return false;
}

void NonIntegerReduceCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  std::optional<CollectiveCall> Collective = recogniseCollective(Call);
  if (!Collective || Collective->Intrinsic->Kind != CollectiveKind::Reduce)
    return;
  const WarpIntrinsic &I = *Collective->Intrinsic;
  if (static_cast<unsigned>(I.ValueArg) >= Call->getNumArgs())
    return;
  ASTContext &Ctx = *Result.Context;
  const Expr *Arg = Call->getArg(I.ValueArg);
  if (Arg->isTypeDependent())
    return;
  QualType ParamType = Arg->getType();
  // What the user passed, before the conversion to the parameter type.
  const Expr *Written = Arg->IgnoreParenImpCasts();
  QualType WrittenType = Written->getType();
  SourceLocation Loc = Result.SourceManager->getFileLoc(Written->getBeginLoc());

  if (WrittenType->isRealFloatingType()) {
    if (!firstReportAt(Loc))
      return;
    diag(Loc, "%0 is an integer-only warp reduction: this %1 value is "
              "silently converted to %2, dropping its fraction (and wrapping "
              "negative values); reduce floating-point values with a "
              "__shfl_down_sync/__shfl_xor_sync loop or cooperative_groups::reduce")
        << I.Name << WrittenType << ParamType << Written->getSourceRange();
    return;
  }

  if (WrittenType->isIntegerType() && !WrittenType->isDependentType() &&
      Ctx.getTypeSize(WrittenType) > 32) {
    if (!firstReportAt(Loc))
      return;
    diag(Loc, "%0 reduces 32-bit values: this %1 value is truncated to %2, "
              "losing its upper 32 bits; reduce the halves separately or use a "
              "64-bit __shfl_down_sync/__shfl_xor_sync loop")
        << I.Name << WrittenType << ParamType << Written->getSourceRange();
    return;
  }

  // `(int)v` / `static_cast<int>(v)` on a float, with the result turned back
  // into a float: the cast only silenced the type error.
  if (const auto *Cast = dyn_cast<ExplicitCastExpr>(Written)) {
    const Expr *From = Cast->getSubExpr()->IgnoreParenImpCasts();
    if (From->getType()->isRealFloatingType() &&
        isa<DeclRefExpr, MemberExpr, ArraySubscriptExpr>(From) &&
        resultBecomesFloating(Call, Ctx)) {
      if (!firstReportAt(Loc))
        return;
      diag(Loc, "%0 is an integer-only warp reduction: casting the %1 value to "
                "%2 and the result back to floating point drops every "
                "fraction before it is summed; reduce floating-point values "
                "with a __shfl_down_sync/__shfl_xor_sync loop or "
                "cooperative_groups::reduce")
          << I.Name << From->getType() << Cast->getType() << Written->getSourceRange();
    }
  }
}

} // namespace warp_tidy
