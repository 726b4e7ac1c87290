//===--- LegacyIntrinsicCheck.cpp - warp-legacy-intrinsic -----------------===//

#include "LegacyIntrinsicCheck.h"
#include "analysis/CollectiveCalls.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace warp_tidy {

static std::vector<StringRef> legacyNames() {
  std::vector<StringRef> Names;
  for (const WarpIntrinsic &I : allWarpIntrinsics())
    if (I.Scope.empty() && isLegacy(I))
      Names.push_back(I.Name);
  return Names;
}

void LegacyIntrinsicCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(callExpr(callee(functionDecl(hasAnyName(legacyNames()))),
                              unless(isExpansionInSystemHeader()))
                         .bind("call"),
                     this);
}

void LegacyIntrinsicCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  std::optional<CollectiveCall> Collective = recogniseCollective(Call);
  if (!Collective || !isLegacy(*Collective->Intrinsic))
    return;
  const WarpIntrinsic &I = *Collective->Intrinsic;
  SourceLocation Loc = Result.SourceManager->getFileLoc(Call->getBeginLoc());
  if (!Reported.insert(Loc).second)
    return;
  diag(Loc, "%0 is a legacy warp %1 without a mask: it works on whichever lanes "
            "happen to be converged, which independent thread scheduling "
            "(sm_70+) no longer guarantees, and nvcc does not provide it for "
            "sm_70 and newer; use %2 with the mask of the lanes that reach this "
            "call: 0xffffffff only if the whole warp does, otherwise compute it "
            "with __ballot_sync(0xffffffff, cond) before the branch")
      << I.Name << describeKind(I.Kind) << (I.SyncReplacement + "(mask, ...)").str()
      << Call->getSourceRange();
}

} // namespace warp_tidy
