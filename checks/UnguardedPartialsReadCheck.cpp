//===--- UnguardedPartialsReadCheck.cpp - warp-unguarded-partials-read ----===//

#include "UnguardedPartialsReadCheck.h"
#include "ast/CallIndex.h"
#include "ast/UnitContext.h"
#include "launch/ReachingLaunches.h"
#include "matchers/CheckMatchers.h"
#include "patterns/PartialsRead.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace warp_tidy {

// The option is read as text: the bool overloads of OptionsView are not
// exported by the installed libclangTidy.
UnguardedPartialsReadCheck::UnguardedPartialsReadCheck(llvm::StringRef Name,
                                                       clang::tidy::ClangTidyContext *Context)
    : WarpCheck(Name, Context) {
  std::string Value = Options.get("AssumeWholeWarps", "false").lower();
  AssumeWholeWarps = Value == "true" || Value == "1" || Value == "yes";
}

void UnguardedPartialsReadCheck::storeOptions(clang::tidy::ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "AssumeWholeWarps", AssumeWholeWarps ? "true" : "false");
}

void UnguardedPartialsReadCheck::registerMatchers(MatchFinder *Finder) {
  // One- and two-dimensional shared arrays (`s[lane]`, `s[j][lane]`).
  // A helper's pointer parameter may be the caller's shared array
  // (analysis/PartialsRead.h asks the callers).
  auto SharedArray = declRefExpr(to(varDecl(hasAttr(attr::CUDAShared))));
  auto PointerParameter = declRefExpr(to(parmVarDecl(hasType(pointerType()))));
  Finder->addMatcher(
      arraySubscriptExpr(hasBase(ignoringParenImpCasts(anyOf(
                             SharedArray, PointerParameter,
                             arraySubscriptExpr(hasBase(ignoringParenImpCasts(SharedArray)))))),
                         unless(isExpansionInSystemHeader()),
                         unless(isInDiscardedConstexprBranch()))
          .bind("read"),
      this);
}

static std::string sourceText(const Expr *E, const SourceManager &SM, const LangOptions &LO) {
  if (!E || E->getBeginLoc().isMacroID() || E->getEndLoc().isMacroID())
    return "";
  return Lexer::getSourceText(CharSourceRange::getTokenRange(E->getSourceRange()), SM, LO).str();
}

void UnguardedPartialsReadCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Read = Result.Nodes.getNodeAs<ArraySubscriptExpr>("read");
  ASTContext &Ctx = *Result.Context;
  // Who passes what to a helper that takes the partials as a pointer.
  CallIndex &Calls = UnitContext::of(Ctx).get<CallIndex>();
  PartialsOptions Opts;
  Opts.AssumeWholeWarps = AssumeWholeWarps;
  Opts.SharedArgument = [&](const ParmVarDecl *P) { return Calls.sharedArrayPassedFor(P, Ctx); };
  Opts.LaunchedShapes = [&](const FunctionDecl *FD) { return blockShapesReaching(FD, Calls, Ctx); };
  Opts.LaunchedXZeroBits = [&](const FunctionDecl *FD) {
    return blockXZeroBitsReaching(FD, Calls, Ctx);
  };
  std::optional<PartialsFinding> F = analyzePartialsRead(Read, Ctx, Opts);
  if (!F)
    return;
  const SourceManager &SM = *Result.SourceManager;
  const LangOptions &LO = getLangOpts();
  SourceLocation Loc = SM.getFileLoc(Read->getBeginLoc());
  if (!firstReportAt(Loc))
    return;

  std::string Idx = sourceText(F->LaneIndex, SM, LO);
  if (Idx.empty())
    Idx = "lane";
  std::string ReadText = sourceText(Read, SM, LO);

  switch (F->Defect) {
  case PartialsDefect::Unbounded: {
    auto D = diag(Loc, "per-warp partials in %0 are read at the lane index without a bound "
                       "by the number of warps: with fewer than 32 warps in the block, "
                       "lanes past the last warp read slots no warp wrote (on an H200 a "
                       "64-thread block summed 348 as 24153); read only where '%1 < "
                       "(blockDim.x + 31) / 32' and use the reduction's identity elsewhere")
             << F->Array << Idx << Read->getSourceRange();
    if (F->GuardedReadFix && !ReadText.empty() && F->LaneIndex->getBeginLoc().isFileID())
      D << FixItHint::CreateReplacement(CharSourceRange::getTokenRange(Read->getSourceRange()),
                                        "(" + Idx + " < (blockDim.x + 31) / 32) ? " + ReadText +
                                            " : 0");
    break;
  }
  case PartialsDefect::FlooredBound: {
    std::string Bound = sourceText(F->Bound, SM, LO);
    auto D = diag(SM.getFileLoc(F->Bound->getBeginLoc()),
                  "the bound on the per-warp partials read from %0 rounds the number of "
                  "warps down: when blockDim.x is not a multiple of 32 the last, partial "
                  "warp's sum is dropped (on an H200 a 48-thread block lost 16 of its "
                  "elements); round up, e.g. '(blockDim.x + 31) / 32'")
             << F->Array << F->Bound->getSourceRange();
    if (F->CeilingFix && F->CeilingFix->getBeginLoc().isFileID() &&
        F->CeilingFix->getEndLoc().isFileID()) {
      const char *Ceil = F->Spelling == PartialsFinding::FloorSpelling::DivWarpSize
                             ? "(blockDim.x + warpSize - 1) / warpSize"
                         : F->Spelling == PartialsFinding::FloorSpelling::Shr5
                             ? "((blockDim.x + 31) >> 5)"
                             : "(blockDim.x + 31) / 32";
      D << FixItHint::CreateReplacement(
          CharSourceRange::getTokenRange(F->CeilingFix->getSourceRange()), Ceil);
    }
    (void)Bound;
    break;
  }
  case PartialsDefect::ArrayTooSmall:
    if (F->ConstantBound)
      diag(Loc, "%0 has %1 slots but the read is bounded by %2: lanes %1 to %3 read past "
                "its end; bound the read by the number of warps, at most the array size")
          << F->Array << static_cast<unsigned>(F->ArraySize) << static_cast<int>(F->ConstantBound)
          << static_cast<int>(F->ConstantBound - 1) << Read->getSourceRange();
    else
      diag(Loc, "%0 has %1 slots but is read at the lane index by all 32 lanes: lanes %1 "
                "to 31 read past its end; read only where '%2 < (blockDim.x + 31) / 32' "
                "(and keep the array at least as large as the number of warps)")
          << F->Array << static_cast<unsigned>(F->ArraySize) << Idx << Read->getSourceRange();
    break;
  case PartialsDefect::BoundExceedsWarps:
    diag(Loc, "the read of %0 is bounded by %1, but __launch_bounds__(%2) allows at most "
              "%3 warps: slots %3 to %4 are never written; bound the read by the number "
              "of warps, '%5 < (blockDim.x + 31) / 32'")
        << F->Array << static_cast<int>(F->ConstantBound) << static_cast<int>(F->LaunchBoundThreads)
        << F->MaxWarps << static_cast<int>(F->ConstantBound - 1) << Idx << Read->getSourceRange();
    break;
  }
  diag(SM.getFileLoc(F->WarpIndexWrite->getBeginLoc()),
       "the partials are written at the warp index here", DiagnosticIDs::Note);
  if (const Stmt *Launch = F->WitnessLaunch.Launch) {
    const BlockShape &B = F->WitnessLaunch;
    if (F->Defect == PartialsDefect::FlooredBound)
      diag(SM.getFileLoc(Launch->getBeginLoc()),
           "this launch can use %0 threads in x: its last warp is partial", DiagnosticIDs::Note)
          << B.X;
    else
      diag(SM.getFileLoc(Launch->getBeginLoc()),
           "this launch can use a block of %0 threads: %1 warps write partials, "
           "lanes %1 to 31 read slots no warp wrote",
           DiagnosticIDs::Note)
          << B.threads() << (B.threads() + 31) / 32;
  }
  if (F->SharedArgument)
    diag(SM.getFileLoc(F->SharedArgument->getBeginLoc()), "%0 is this caller's shared array %1",
         DiagnosticIDs::Note)
        << F->Array << F->SharedArgument->getDecl();
}

} // namespace warp_tidy
