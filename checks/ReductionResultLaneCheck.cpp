//===--- ReductionResultLaneCheck.cpp - warp-reduction-result-lane --------===//

#include "ReductionResultLaneCheck.h"
#include "matchers/CheckMatchers.h"
#include "patterns/ReductionResultLane.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace warp_tidy {

void ReductionResultLaneCheck::onStartOfTranslationUnit() {
  UniformityCheck::onStartOfTranslationUnit();
  Reach.emplace();
}

void ReductionResultLaneCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(functionDecl(isProjectFunctionDefinition(), hasBody(stmt())).bind("function"),
                     this);
}

void ReductionResultLaneCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *FD = Result.Nodes.getNodeAs<FunctionDecl>("function");
  // Device code only: a host function cannot shuffle.
  if (!FD->hasAttr<CUDADeviceAttr>() && !FD->hasAttr<CUDAGlobalAttr>())
    return;
  if (!Reach)
    Reach.emplace();
  const SourceManager &SM = *Result.SourceManager;
  UniformityRef Analysis;
  for (const LaneZeroTotalUse &U : findLaneZeroTotalUses(FD, *Result.Context, *Reach)) {
    SourceLocation Loc = SM.getFileLoc(U.Use->getBeginLoc());
    if (reportedAt(Loc))
      continue;
    // A use that only lane 0 can reach, however its guard is written
    // (`(t & 31) == 0` with t = threadIdx.x % 64, `lane == 0 && n > 0`):
    // the lane sets of the uniformity analysis say which lanes get there.
    if (!Analysis)
      Analysis = collectiveAnalysis(FD, *Result.Context);
    LaneSet Users = Analysis ? Analysis->mayReach(U.Use) : LaneSet::all();
    if (!Users.isEmpty() && LaneSet::single(0).includes(Users))
      continue;
    firstReportAt(Loc);
    std::string What = U.Var ? "'" + U.Var->getName().str() + "'" : "the result of this call";
    diag(Loc, "%0 holds the total of a __shfl_down_sync tree reduction only in lane 0 "
              "(every other lane holds a partial sum of the lanes at and above it), but "
              "lanes other than lane 0 use it here; broadcast the total first "
              "('__shfl_sync(mask, v, 0)'), reduce with __shfl_xor_sync so that every "
              "lane holds it, or use it only in lane 0")
        << What << U.Use->getSourceRange();
    if (U.HelperCall)
      diag(SM.getFileLoc(U.HelperCall->getBeginLoc()),
           "the value comes from this call, whose reduction leaves the total in lane 0",
           DiagnosticIDs::Note);
    diag(SM.getFileLoc(U.Shuffle->getBeginLoc()),
         "the reduction moves values down towards lane 0 here", DiagnosticIDs::Note);
  }
}

} // namespace warp_tidy
