//===--- LegacyIntrinsicCheck.cpp - warp-legacy-intrinsic -----------------===//

#include "LegacyIntrinsicCheck.h"
#include "intrinsics/CollectiveCalls.h"
#include "matchers/CheckMatchers.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Expr.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace warp_tidy {

static constexpr llvm::StringLiteral FullMask = "0xffffffff";

static std::vector<StringRef> legacyNames() {
  std::vector<StringRef> Names;
  for (const WarpIntrinsic &I : allWarpIntrinsics())
    if (I.Scope.empty() && isLegacy(I))
      Names.push_back(I.Name);
  return Names;
}

void LegacyIntrinsicCheck::registerMatchers(MatchFinder *Finder) {
  // The enclosing callable is optional: a call in a default argument or a
  // global initialiser is still reported, just never rewritten.
  Finder->addMatcher(callExpr(calleeNamedAnyOf(legacyNames()), unless(isExpansionInSystemHeader()),
                              unless(isInDiscardedConstexprBranch()),
                              optionally(forEnclosingCallable(functionDecl().bind("fn"))))
                         .bind("call"),
                     this);
}

/// `__shfl_down(v, 1)` -> `__shfl_down_sync(0xffffffff, v, 1)`: the name
/// becomes the `_sync` name and the mask goes in front of the first argument.
/// Nothing when the call is spelled inside a macro (the macro body is shared
/// with other uses) or its callee is not a plain name.
static std::vector<FixItHint> fullMaskRewrite(const CallExpr *Call, const WarpIntrinsic &I,
                                              const SourceManager &SM) {
  const auto *Name = dyn_cast<DeclRefExpr>(Call->getCallee()->IgnoreImplicit());
  if (!Name || Call->getNumArgs() == 0 || isa<CXXDefaultArgExpr>(Call->getArg(0)))
    return {};
  SourceLocation NameLoc = Name->getLocation();
  SourceLocation RParen = Call->getRParenLoc();
  if (NameLoc.isMacroID() || RParen.isMacroID() || Call->getBeginLoc().isMacroID() ||
      SM.getFileID(NameLoc) != SM.getFileID(RParen))
    return {};
  // A macro inside the first argument expands at the argument's first token,
  // which is where the mask goes.
  SourceLocation ArgStart = SM.getExpansionLoc(Call->getArg(0)->getBeginLoc());
  if (SM.getFileID(ArgStart) != SM.getFileID(NameLoc))
    return {};
  return {FixItHint::CreateReplacement(CharSourceRange::getTokenRange(NameLoc, NameLoc),
                                       I.SyncReplacement),
          FixItHint::CreateInsertion(ArgStart, (FullMask + ", ").str())};
}

void LegacyIntrinsicCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  const auto *Fn = Result.Nodes.getNodeAs<FunctionDecl>("fn");
  std::optional<CollectiveCall> Collective = recogniseCollective(Call);
  if (!Collective || !isLegacy(*Collective->Intrinsic))
    return;
  const SourceManager &SM = *Result.SourceManager;
  SourceLocation Loc = SM.getFileLoc(Call->getBeginLoc());
  auto [It, New] = Sites.insert({Loc, LegacySite()});
  LegacySite &Site = It->second;
  if (New) {
    Site.Intrinsic = Collective->Intrinsic;
    Site.Range = Call->getSourceRange();
    Site.FullMaskRewrite = fullMaskRewrite(Call, *Site.Intrinsic, SM);
  }
  // A template's pattern proves nothing; its instantiations decide.
  if (Fn && Fn->isDependentContext())
    return;
  ++Site.AnalysedContexts;
  if (!Site.FullMaskRewrite.empty() && reachedByWholeWarp(Call, Fn, *Result.Context))
    ++Site.WholeWarpContexts;
}

void LegacyIntrinsicCheck::onEndOfTranslationUnit() {
  for (auto &[Loc, Site] : Sites) {
    const WarpIntrinsic &I = *Site.Intrinsic;
    bool WholeWarp = Site.AnalysedContexts > 0 && Site.WholeWarpContexts == Site.AnalysedContexts;
    if (WholeWarp) {
      diag(Loc, "%0 is a legacy warp %1 without a mask: it works on whichever lanes "
                "happen to be converged, which independent thread scheduling "
                "(sm_70+) no longer guarantees, and nvcc does not provide it for "
                "sm_70 and newer; every lane of the warp reaches this call, so use "
                "%2")
          << I.Name << describeKind(I.Kind) << (I.SyncReplacement + "(" + FullMask + ", ...)").str()
          << Site.Range << Site.FullMaskRewrite;
      continue;
    }
    diag(Loc, "%0 is a legacy warp %1 without a mask: it works on whichever lanes "
              "happen to be converged, which independent thread scheduling "
              "(sm_70+) no longer guarantees, and nvcc does not provide it for "
              "sm_70 and newer; use %2 with the mask of the lanes that reach this "
              "call: 0xffffffff only if the whole warp does, otherwise compute it "
              "with __ballot_sync(0xffffffff, cond) before the branch")
        << I.Name << describeKind(I.Kind) << (I.SyncReplacement + "(mask, ...)").str()
        << Site.Range;
  }
  Sites.clear();
}

} // namespace warp_tidy
