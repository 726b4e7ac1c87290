//===--- ShflSourceOutsideMaskCheck.cpp - warp-shfl-source-outside-mask ---===//

#include "ShflSourceOutsideMaskCheck.h"
#include "intrinsics/WarpCollective.h"
#include "matchers/CheckMatchers.h"
#include "patterns/ShuffleSources.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace warp_tidy {

namespace {
/// A call whose direct callee contains a warp collective, itself or through
/// its callees: the only helper calls check() looks into. Asked before the
/// location tests (where the call's first token expands, whether it lies
/// in a discarded branch), which most calls of a unit then never pay.
AST_MATCHER_P(CallExpr, calleeContainsCollective, UniformityOptions, Options) {
  const FunctionDecl *Callee = Node.getDirectCallee();
  return Callee &&
         WarpAnalysisCache::get(Finder->getASTContext(), Options).containsCollective(Callee);
}
} // namespace

void ShflSourceOutsideMaskCheck::registerMatchers(MatchFinder *Finder) {
  // No matcher asks for the enclosing function: the first such question
  // builds the unit's parent index (UnitParents.h), a walk of every
  // instantiation. check() asks, once a candidate passed its filters, so a
  // unit with no warp code never builds it.
  Finder->addMatcher(callExpr(calleeNamedAnyOf({"__shfl_sync", "__shfl_up_sync", "__shfl_down_sync",
                                                "__shfl_xor_sync"}),
                              unless(isExpansionInSystemHeader()),
                              unless(isInDiscardedConstexprBranch()))
                         .bind("call"),
                     this);
  // shfl.sync written as inline PTX.
  Finder->addMatcher(
      asmStmt(unless(isExpansionInSystemHeader()), unless(isInDiscardedConstexprBranch()))
          .bind("asm"),
      this);
  // Helpers that shuffle with a mask parameter (`warpReduceSum(mask, v)`).
  Finder->addMatcher(callExpr(calleeIsDefinitionWithBody(), calleeContainsCollective(Uniformity),
                              unless(isExpansionInSystemHeader()),
                              unless(isInDiscardedConstexprBranch()))
                         .bind("helperCall"),
                     this);
}

/// How the shuffle reaches its source lane, for the message.
static std::string readsWhat(const ShuffleSourceFinding &F) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  switch (F.Intrinsic->Direction) {
  case ShuffleDirection::Down:
    OS << "lane + " << F.Offset;
    break;
  case ShuffleDirection::Up:
    OS << "lane - " << F.Offset;
    break;
  case ShuffleDirection::Xor:
    OS << "lane ^ " << F.Offset;
    break;
  default:
    OS << "lane " << F.Offset;
    break;
  }
  if (F.Width != 32)
    OS << " (width " << F.Width << ")";
  return Text;
}

static std::string spelling(const Expr *E, const ASTContext &Ctx) {
  CharSourceRange Range = CharSourceRange::getTokenRange(E->getSourceRange());
  StringRef Text = Lexer::getSourceText(Range, Ctx.getSourceManager(), Ctx.getLangOpts());
  return Text.empty() || Text.size() > 60 ? std::string("cond") : Text.str();
}

void ShflSourceOutsideMaskCheck::reportHelper(const ShuffleSourceFinding &F, SourceLocation Loc,
                                              ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  if (F.Origin == ShuffleSourceFinding::ConstantMask)
    diag(Loc, "%0 shuffles with the mask %1 passed here, and its %2 reads %3, so lane %4 "
              "reads lane %5, which is not in the mask: the value is undefined, yet lane "
              "%4 uses it; pass a mask that holds the lanes the helper reads, or use "
              "offsets that stay within the mask")
        << F.Helper << hexMask(F.Mask) << F.Name << readsWhat(F) << F.ReaderLane << F.SourceLane
        << F.HelperCall->getSourceRange();
  else
    diag(Loc, "%0 shuffles with the mask passed here, which holds only the lanes where "
              "'%1' was true, and its %2 reads %3: when fewer than 32 lanes take part, "
              "the lanes near the top of the mask read lanes outside it, get undefined "
              "values and use them; let every lane call it under the full mask (the "
              "others with a neutral value), or guard the use of each shuffled value "
              "with the source lane's bit of the mask")
        << F.Helper << spelling(F.BallotCondition, Ctx) << F.Name << readsWhat(F)
        << F.HelperCall->getSourceRange();
  diag(SM.getFileLoc(F.Shuffle->getBeginLoc()), "the shuffle in %0 is here", DiagnosticIDs::Note)
      << F.Helper;
  if (F.Ballot)
    diag(SM.getFileLoc(F.Ballot->getBeginLoc()),
         "the mask comes from this ballot: the lanes where '%0' is true", DiagnosticIDs::Note)
        << spelling(F.BallotCondition, Ctx);
}

void ShflSourceOutsideMaskCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *HelperCall = Result.Nodes.getNodeAs<CallExpr>("helperCall");
  const Stmt *Call = HelperCall ? HelperCall : Result.Nodes.getNodeAs<CallExpr>("call");
  if (!Call)
    Call = Result.Nodes.getNodeAs<GCCAsmStmt>("asm");
  if (!Call)
    return;
  ASTContext &Ctx = *Result.Context;
  const SourceManager &SM = *Result.SourceManager;
  SourceLocation Loc = SM.getFileLoc(Call->getBeginLoc());
  if (reportedAt(Loc))
    return;
  WarpAnalysisCache &Cache = analysisCache(Ctx);
  // Most calls are not helpers with a mask parameter: the helper-call
  // matcher keeps only calls of functions that contain a collective
  // (calleeContainsCollective). Most asm statements hold no shuffle.
  if (isa<GCCAsmStmt>(Call) && warpCollectivesAt(Call).empty())
    return;
  const FunctionDecl *Fn = enclosingCallable(Call, Ctx);
  // A template's pattern has no values yet; its instantiations are judged.
  if (Fn && Fn->isDependentContext())
    return;
  UniformityRef Analysis = Fn ? Cache.analysis(Fn) : nullptr;
  // A shuffle in a branch that folds to false in this instantiation is never
  // compiled (its offsets and masks may not even be meaningful there).
  if (Analysis && Analysis->provablyUnreachable(Call))
    return;
  std::optional<ShuffleSourceFinding> F =
      HelperCall ? analyzeHelperShuffleSource(HelperCall, Ctx, Analysis.get(), Cache)
                 : analyzeShuffleSource(Call, Ctx, Analysis.get());
  if (!F)
    return;
  firstReportAt(Loc);
  if (F->Helper) {
    reportHelper(*F, Loc, Ctx);
    return;
  }
  if (F->Origin == ShuffleSourceFinding::ConstantMask) {
    diag(Loc, "%0 reads %1, so lane %2 reads lane %3, which is not in the mask %4: a "
              "lane outside the mask does not take part and the value it returns is "
              "undefined, yet lane %2 uses it; use offsets that stay within the mask's "
              "lanes, or add the lanes that are read to the mask (and make them reach "
              "the call)")
        << F->Name << readsWhat(*F) << F->ReaderLane << F->SourceLane << hexMask(F->Mask)
        << Call->getSourceRange();
  } else {
    std::string Cond = spelling(F->BallotCondition, Ctx);
    diag(Loc, "%0 reads %1, but its mask holds only the lanes where '%2' was true: when "
              "fewer than 32 lanes take part, the lanes near the top of the mask read "
              "lanes outside it, get undefined values and use them; let every lane take "
              "part under the full mask (the others with a neutral value), or use the "
              "value only when the source lane is in the mask, e.g. "
              "'if ((mask >> (lane + offset)) & 1)'")
        << F->Name << readsWhat(*F) << Cond << Call->getSourceRange();
    diag(SM.getFileLoc(F->Ballot->getBeginLoc()),
         "the mask comes from this ballot: the lanes where '%0' is true", DiagnosticIDs::Note)
        << Cond;
  }
  // The use is worth a note when it is not on the shuffle's own line.
  if (F->Use && SM.getExpansionLineNumber(F->Use->getBeginLoc()) != SM.getExpansionLineNumber(Loc))
    diag(SM.getFileLoc(F->Use->getBeginLoc()),
         "the shuffled value is used here without a "
         "guard on the source lane",
         DiagnosticIDs::Note);
}

} // namespace warp_tidy
