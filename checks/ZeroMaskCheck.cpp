//===--- ZeroMaskCheck.cpp - warp-zero-mask -------------------------------===//

#include "ZeroMaskCheck.h"
#include "intrinsics/CollectiveCalls.h"
#include "intrinsics/WarpCollective.h"
#include "matchers/CheckMatchers.h"
#include "matchers/IntrinsicMatchers.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace warp_tidy {

void ZeroMaskCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(callExpr(calleeNamedAnyOf(namesOfMaskedIntrinsics()),
                              unless(isExpansionInSystemHeader()),
                              unless(isInDiscardedConstexprBranch()))
                         .bind("call"),
                     this);
  // Collectives written as inline PTX (`bar.warp.sync 0;`).
  Finder->addMatcher(
      asmStmt(unless(isExpansionInSystemHeader()), unless(isInDiscardedConstexprBranch()))
          .bind("asm"),
      this);
}

// Where the zero came from, when it was named rather than written: the user
// has to fix the definition, not the call.
static const NamedDecl *namedSourceOfMask(const Expr *Mask) {
  const Expr *E = Mask->IgnoreParenImpCasts();
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    return Ref->getDecl();
  return nullptr;
}

void ZeroMaskCheck::check(const MatchFinder::MatchResult &Result) {
  const Stmt *At = Result.Nodes.getNodeAs<CallExpr>("call");
  if (!At)
    At = Result.Nodes.getNodeAs<GCCAsmStmt>("asm");
  for (const WarpCollective &Collective : warpCollectivesAt(At))
    checkCollective(Collective, Result);
}

void ZeroMaskCheck::checkCollective(const WarpCollective &Collective,
                                    const MatchFinder::MatchResult &Result) {
  if (!Collective.Mask.present() || Collective.ImplicitFullMask)
    return;
  std::optional<uint32_t> Value = Collective.maskConstant(*Result.Context);
  if (!Value || *Value != 0)
    return;

  SourceLocation Loc = Result.SourceManager->getFileLoc(Collective.maskLoc());
  if (!firstReportAt(Loc))
    return;

  diag(Loc, "%0 is called with a mask that is always 0: no lane is named, so "
            "the %1 is undefined (each calling lane must have its own bit "
            "set); pass the lanes that reach this call, e.g. 0xffffffff when "
            "the whole warp is converged, or a mask from "
            "__ballot_sync(0xffffffff, cond) computed before the branch")
      << Collective.displayName() << describeKind(Collective.Intrinsic->Kind)
      << Collective.maskRange();

  if (!Collective.Mask.E)
    return;
  // A plain local is the mask because nothing writes it after its
  // initialiser: say so, since that is what made it a constant.
  if (const VarDecl *Local = maskConstantThroughLocal(Collective.Mask.E, *Result.Context))
    diag(Local->getLocation(), "%0 is initialised to 0 here and never written afterwards",
         DiagnosticIDs::Note)
        << Local;
  else if (const NamedDecl *Source = namedSourceOfMask(Collective.Mask.E))
    diag(Source->getLocation(), "%0 is defined as 0 here", DiagnosticIDs::Note) << Source;
}

} // namespace warp_tidy
