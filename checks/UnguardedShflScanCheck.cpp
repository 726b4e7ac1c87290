//===--- UnguardedShflScanCheck.cpp - warp-unguarded-shfl-scan ------------===//

#include "UnguardedShflScanCheck.h"
#include "analysis/CheckMatchers.h"
#include "analysis/ScanPatterns.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace warp_tidy {

void UnguardedShflScanCheck::onStartOfTranslationUnit() {
  Reported.clear();
}

void UnguardedShflScanCheck::registerMatchers(MatchFinder *Finder) {
  // Free shuffles, their legacy forms and cooperative-groups tile members;
  // recogniseCollective (inside the analysis) makes the final decision.
  Finder->addMatcher(
      callExpr(callee(functionDecl(hasAnyName("__shfl_up_sync", "__shfl_sync",
                                              "__shfl_down_sync", "__shfl_up", "__shfl",
                                              "__shfl_down", "shfl_up", "shfl", "shfl_down"))),
               unless(isExpansionInSystemHeader()),
               unless(isInDiscardedConstexprBranch()))
          .bind("call"),
      this);
}

static std::string sourceText(const Expr *E, const SourceManager &SM, const LangOptions &LO) {
  if (!E || E->getBeginLoc().isMacroID() || E->getEndLoc().isMacroID())
    return "";
  return Lexer::getSourceText(CharSourceRange::getTokenRange(E->getSourceRange()), SM, LO)
      .str();
}

void UnguardedShflScanCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  ASTContext &Ctx = *Result.Context;
  std::optional<ScanFinding> F = analyzeScanShuffle(Call, Ctx);
  if (!F)
    return;
  const SourceManager &SM = *Result.SourceManager;
  const LangOptions &LO = getLangOpts();

  SourceLocation Loc = F->Combine->getExprLoc();
  if (const auto *BO = dyn_cast<BinaryOperator>(F->Combine))
    Loc = BO->getOperatorLoc();
  Loc = SM.getFileLoc(Loc);
  if (!Reported.insert(Loc).second)
    return;

  std::string Acc = sourceText(F->Accumulator, SM, LO);
  if (Acc.empty())
    Acc = "the accumulator";
  std::string Offset = sourceText(F->Offset, SM, LO);
  bool Simple = isa<DeclRefExpr, IntegerLiteral>(F->Offset->IgnoreParenImpCasts());
  std::string OffsetInGuard = Offset.empty() ? "" : Simple ? Offset : "(" + Offset + ")";
  std::string ShownOffset = Offset.empty() ? "offset" : OffsetInGuard;
  std::string SourceLane = sourceText(F->SourceLane, SM, LO);
  if (SourceLane.empty())
    SourceLane = "lane - " + ShownOffset;
  unsigned Width = F->Width ? F->Width : 32;
  std::string Name = F->Intrinsic->Name.str();
  if (F->Intrinsic->Kind == CollectiveKind::TileMember)
    Name = "tile." + Name;

  auto Diag = [&]() {
    switch (F->Defect) {
    case ScanDefect::UpOwnValue:
      return diag(Loc, "the result of %0 is accumulated into '%1' without a lower-bound "
                       "guard: lanes below the offset (%2) get their own value back and "
                       "add it a second time (an H200 scan written like this got 31 of 32 "
                       "lanes wrong); accumulate only where 'lane >= %2', e.g. "
                       "'if (lane >= %2) %1 += t;' or '%1 += (lane >= %2) ? t : 0;'")
             << Name << Acc << ShownOffset;
    case ScanDefect::IndexWraps:
      return diag(Loc, "the result of %0 from source lane '%4' is accumulated into "
                       "'%1' without guarding the wrap: lanes below %2 read lane "
                       "(lane - %2) mod %3 at the top of the segment and add its value (an "
                       "H200 scan written like this got 31 of 32 lanes wrong); keep the "
                       "shuffle unconditional and accumulate only where 'lane >= %2', e.g. "
                       "'if (lane >= %2) %1 += t;'")
             << Name << Acc << ShownOffset << Width << SourceLane;
    case ScanDefect::DownOwnValue:
      return diag(Loc, "suffix scan: the result of %0 with growing offsets is accumulated "
                       "into '%1' without an upper-bound guard: lanes with lane + %2 >= %3 "
                       "get their own value back and add it a second time; accumulate only "
                       "where 'lane + %2 < %3', e.g. 'if (lane + %2 < %3) %1 += t;'")
             << Name << Acc << ShownOffset << Width;
    }
    llvm_unreachable("unknown scan defect");
  };
  {
    auto D = Diag();
    D << F->Combine->getSourceRange();
    const Stmt *S = F->FixStatement;
    if (S && F->LaneVar && !OffsetInGuard.empty() && S->getBeginLoc().isFileID() &&
        S->getEndLoc().isFileID()) {
      std::string Lane = F->LaneVar->getName().str();
      std::string Guard = F->Defect == ScanDefect::DownOwnValue
                              ? Lane + " + " + OffsetInGuard + " < " + std::to_string(Width)
                              : Lane + " >= " + OffsetInGuard;
      D << FixItHint::CreateInsertion(S->getBeginLoc(), "if (" + Guard + ") ");
    }
  }
  SourceLocation ShuffleLoc = SM.getFileLoc(F->Shuffle->getBeginLoc());
  if (SM.getSpellingLineNumber(ShuffleLoc) != SM.getSpellingLineNumber(Loc) ||
      SM.getFileID(ShuffleLoc) != SM.getFileID(Loc))
    diag(ShuffleLoc, "the value was shuffled here", DiagnosticIDs::Note);
}

} // namespace warp_tidy
