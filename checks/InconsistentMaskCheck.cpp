//===--- InconsistentMaskCheck.cpp - warp-inconsistent-mask ---------------===//
//
// Judgement: the site's mask as a term of the lane (constant, uniform and
// unreadable masks are left alone) is asked whether two executing lanes, one
// named in the other's mask, pass different masks. A mask in which some
// lane lacks its own bit is warp-mask-excludes-caller's finding and is not
// reported twice.
//
//===----------------------------------------------------------------------===//

#include "InconsistentMaskCheck.h"
#include "intrinsics/CollectiveCalls.h"
#include "matchers/CheckMatchers.h"
#include "uniformity/LaneMasks.h"
#include "uniformity/LaunchedProvers.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace warp_tidy {

void InconsistentMaskCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(functionDecl(isProjectFunctionDefinition()).bind("fn"), this);
}

void InconsistentMaskCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  UniformityRef Analysis = collectiveAnalysis(Result.Nodes.getNodeAs<FunctionDecl>("fn"), Ctx);
  if (!Analysis)
    return;
  const SourceManager &SM = Ctx.getSourceManager();
  WarpAnalysisCache &Cache = analysisCache(Ctx);
  LaneMaskQuestions Questions(Cache.terms(), proverFor(Analysis->function(), Cache.prover(),
                                                       Cache.options().AssumeWarpAlignedBlocks));
  for (const CollectiveSite &Site : Analysis->sites()) {
    // The mask as the site gives it: the collective's argument, an inline
    // PTX collective's operand, or what a wrapper passes on as its mask.
    const Expr *Mask = Site.MaskExpr;
    if (!Mask || SM.isInSystemHeader(Site.At->getBeginLoc()))
      continue;
    TermRef MaskTerm = laneMaskTerm(*Analysis, Site);
    if (!LaneMaskQuestions::isLaneExpression(MaskTerm))
      continue;
    LaneSet Executing = lanesExecuting(Site);
    // A lane without its own bit is warp-mask-excludes-caller's.
    if (Questions.laneWithoutOwnBit(MaskTerm, Executing, nullptr) !=
        LaneMaskQuestions::Existence::NoneExists)
      continue;
    LaneMaskQuestions::DisagreeingLanes W;
    if (Questions.disagreeingLanes(MaskTerm, Executing, &W) != LaneMaskQuestions::Existence::Exists)
      continue;
    SourceLocation Loc = SM.getFileLoc(Mask->getBeginLoc());
    if (!firstReportAt(Loc))
      continue;
    diag(Loc, "lanes %0 and %1 pass different masks to %2: lane %0 passes %3, which names "
              "lane %1, and lane %1 passes %4; a lane waits until every lane of its mask has "
              "executed the %5 with the same mask, so the %5 is undefined for them (it can "
              "hang or exchange wrong values); compute a mask that is the same in every lane "
              "it names (from the lane's group, e.g. `0xffu << (lane & ~7)`, not from the "
              "lane itself)")
        << W.Lane << W.Named << Site.Intrinsic->Name << hexMask(W.Mask) << hexMask(W.NamedMask)
        << describeKind(Site.Intrinsic->Kind) << Mask->getSourceRange();
    if (const Expr *Definition = maskDefinition(Mask, Cache.fieldStores()))
      diag(SM.getFileLoc(Definition->getBeginLoc()), "the mask is computed from the lane here",
           DiagnosticIDs::Note);
  }
}

} // namespace warp_tidy
