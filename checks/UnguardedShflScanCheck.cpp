//===--- UnguardedShflScanCheck.cpp - warp-unguarded-shfl-scan ------------===//

#include "UnguardedShflScanCheck.h"
#include "ast/GuardFacts.h"
#include "matchers/CheckMatchers.h"
#include "patterns/ScanPatterns.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace warp_tidy {

void UnguardedShflScanCheck::onStartOfTranslationUnit() { WarpCheck::onStartOfTranslationUnit(); }

void UnguardedShflScanCheck::registerMatchers(MatchFinder *Finder) {
  // Free shuffles, their legacy forms and cooperative-groups tile members;
  // recogniseCollective (inside the analysis) makes the final decision.
  Finder->addMatcher(
      callExpr(calleeNamedAnyOf({"__shfl_up_sync", "__shfl_sync", "__shfl_down_sync", "__shfl_up",
                                 "__shfl", "__shfl_down", "shfl_up", "shfl", "shfl_down"}),
               unless(isExpansionInSystemHeader()), unless(isInDiscardedConstexprBranch()))
          .bind("call"),
      this);
}

static std::string sourceText(const Expr *E, const SourceManager &SM, const LangOptions &LO) {
  if (!E || E->getBeginLoc().isMacroID() || E->getEndLoc().isMacroID())
    return "";
  return Lexer::getSourceText(CharSourceRange::getTokenRange(E->getSourceRange()), SM, LO).str();
}

/// The `if` whose then-branch is exactly \p S (directly or as the only
/// statement of a block), without an else.
static const IfStmt *guardingIf(const Stmt *S, ASTContext &Ctx) {
  const Stmt *Child = S;
  for (const Stmt *P = parentStmt(S, Ctx); P; Child = P, P = parentStmt(P, Ctx)) {
    if (const auto *Block = dyn_cast<CompoundStmt>(P)) {
      if (Block->size() != 1)
        return nullptr;
      continue;
    }
    if (const auto *If = dyn_cast<IfStmt>(P))
      return If->getThen() == Child && !If->getElse() ? If : nullptr;
    if (!isa<ExprWithCleanups>(P))
      return nullptr;
  }
  return nullptr;
}

void UnguardedShflScanCheck::reportStaleLanes(const ScanFinding &F, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LO = getLangOpts();
  const LaneFlowVerdict &Flow = F.Flow;
  const BinaryOperator *Store = Flow.PartialStore;
  SourceLocation Loc = SM.getFileLoc(Store->getOperatorLoc());
  if (!firstReportAt(Loc))
    return;
  std::string Var = sourceText(Store->getLHS(), SM, LO);
  if (Var.empty())
    Var = "the accumulator";
  std::string Value = sourceText(Store->getRHS(), SM, LO);
  const IfStmt *If = guardingIf(Store, Ctx);
  std::string Cond = If ? sourceText(If->getCond(), SM, LO) : "";

  std::string Shape = std::to_string(Flow.Shape.X);
  if (Flow.Shape.Y != 1 || Flow.Shape.Z != 1)
    Shape = "(" + Shape + ", " + std::to_string(Flow.Shape.Y) +
            (Flow.Shape.Z != 1 ? ", " + std::to_string(Flow.Shape.Z) : "") + ")";
  std::string When =
      Flow.ShapeFromLaunch
          ? "with the block of " + Shape + " threads one of its launches uses"
          : "with a block of " + Shape +
                " threads (no launch in this file shows the block size, so any may be used)";
  std::string Exactly = Flow.OnlyNonPowerOfTwoWarps
                            ? "; this happens exactly when the number of warps in the block "
                              "is not a power of two"
                            : "";
  // The identity of the reduction's combine: what the other lanes must add.
  const auto *Combine = dyn_cast<BinaryOperator>(F.Combine);
  bool Product =
      Combine && (Combine->getOpcode() == BO_Mul || Combine->getOpcode() == BO_MulAssign);
  std::string Identity = Product ? "1" : "0";
  std::string Fix = !Cond.empty() && !Value.empty()
                        ? "'" + Var + " = (" + Cond + ") ? " + Value + " : " + Identity + ";'"
                        : "giving the other lanes the identity (" + Identity + ")";
  diag(Loc, "'%0' is overwritten only in some lanes; the others keep the partial values of "
            "the warp reduction above, and the shuffles after it add them into a value that "
            "is used: %1, lane %2 ends up with lane %3's stale value%4; overwrite every lane, "
            "e.g. %5, or guard the shuffle's read")
      << Var << When << Flow.UserLane << Flow.SourceLane << Exactly << Fix
      << Store->getSourceRange();
  diag(SM.getFileLoc(F.Combine->getExprLoc()),
       "the warp reduction whose result only one lane holds exactly; the others hold "
       "partial values",
       DiagnosticIDs::Note);
  if (Flow.Carrier)
    diag(SM.getFileLoc(Flow.Carrier->getBeginLoc()), "the stale value is read here",
         DiagnosticIDs::Note);
  if (Flow.Use)
    diag(SM.getFileLoc(Flow.Use->getBeginLoc()), "and used here by lane %0", DiagnosticIDs::Note)
        << Flow.UserLane;
  if (Flow.ShapeFromLaunch && Flow.Shape.Launch)
    diag(SM.getFileLoc(Flow.Shape.Launch->getBeginLoc()),
         "launched here with a block of %0 threads", DiagnosticIDs::Note)
        << Shape;
}

void UnguardedShflScanCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  ASTContext &Ctx = *Result.Context;
  std::optional<ScanFinding> F = analyzeScanShuffle(Call, Ctx);
  if (!F)
    return;
  if (F->Defect == ScanDefect::StaleLanes)
    return reportStaleLanes(*F, Ctx);
  const SourceManager &SM = *Result.SourceManager;
  const LangOptions &LO = getLangOpts();

  SourceLocation Loc = F->Combine->getExprLoc();
  if (const auto *BO = dyn_cast<BinaryOperator>(F->Combine))
    Loc = BO->getOperatorLoc();
  Loc = SM.getFileLoc(Loc);
  if (!firstReportAt(Loc))
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
    case ScanDefect::StaleLanes:
      break;
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
