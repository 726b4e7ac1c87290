//===--- MaskExcludesCallerCheck.cpp - warp-mask-excludes-caller ----------===//
//
// Judgement: lanes that may reach the call (May) minus the lanes the mask
// names. When data decide which lanes arrive (a divergent condition that is
// not a lane comparison), the program may well guarantee that only the named
// lanes get there, so only the unmistakable typo form is reported then.
//
//===----------------------------------------------------------------------===//

#include "MaskExcludesCallerCheck.h"
#include "analysis/CollectiveCalls.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace warp_tidy {

void MaskExcludesCallerCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(functionDecl(isDefinition(), unless(isExpansionInSystemHeader()))
                         .bind("fn"),
                     this);
}

/// A hexadecimal literal of five to seven `f` digits: a full mask with
/// digits missing (`0xFFFFFF`), never a sensible lane set by intent.
static bool looksLikeTruncatedFullMask(const Expr *Mask, const ASTContext &Ctx) {
  const auto *Lit = dyn_cast<IntegerLiteral>(Mask->IgnoreParenImpCasts());
  if (!Lit || Lit->getBeginLoc().isMacroID())
    return false;
  llvm::StringRef Text = Lexer::getSourceText(
      CharSourceRange::getTokenRange(Lit->getSourceRange()), Ctx.getSourceManager(),
      Ctx.getLangOpts());
  Text = Text.rtrim("uUlL");
  if (!Text.consume_front("0x") && !Text.consume_front("0X"))
    return false;
  return Text.size() >= 5 && Text.size() <= 7 &&
         Text.find_first_not_of("fF") == llvm::StringRef::npos;
}

void MaskExcludesCallerCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  UniformityRef Analysis =
      collectiveAnalysis(Result.Nodes.getNodeAs<FunctionDecl>("fn"), Ctx);
  if (!Analysis)
    return;
  const SourceManager &SM = Ctx.getSourceManager();
  for (const CollectiveSite &Site : Analysis->sites()) {
    if (Site.Helper || Site.ImplicitMask || !Site.Required || Site.Required->isEmpty())
      continue; // a zero mask is warp-zero-mask's
    LaneSet Excluded = Site.May.minus(*Site.Required);
    if (Excluded.isEmpty())
      continue;
    std::optional<CollectiveCall> Collective = recogniseCollective(Site.Call);
    const Expr *Mask = Collective ? Collective->maskArg() : nullptr;
    if (!Mask || SM.isInSystemHeader(Site.Call->getBeginLoc()))
      continue;
    bool Typo = looksLikeTruncatedFullMask(Mask, Ctx);
    if (!Typo && Site.DataDecided)
      continue;
    SourceLocation Loc = SM.getFileLoc(Mask->getBeginLoc());
    if (!Reported.insert(Loc).second)
      continue;
    char MaskText[16];
    snprintf(MaskText, sizeof MaskText, "0x%08x", Site.Required->bits());
    std::string Kind = describeKind(Site.Intrinsic->Kind).str();
    if (Typo) {
      auto D = diag(Loc, "mask %0 of %1 has only %2 bits and looks like a truncated "
                         "0xffffffff: %3 can reach this call without their bit in the "
                         "mask, so the %4 is undefined for them; write all eight digits")
               << MaskText << Site.Intrinsic->Name << Site.Required->count()
               << Excluded.describe() << Kind << Mask->getSourceRange();
      // The full mask is right only when the whole warp provably gets here.
      if (Site.May.isAll() && Site.Must.isAll() && Site.Divergence.empty() &&
          Site.EarlyExits.empty())
        D << FixItHint::CreateReplacement(
            CharSourceRange::getTokenRange(Mask->IgnoreParenImpCasts()->getSourceRange()),
            "0xffffffff");
      continue;
    }
    diag(Loc, "mask %0 of %1 leaves out %2, which can reach this call: every calling lane "
              "must have its own bit set in the mask, so the %3 is undefined for them; "
              "name every lane that gets here (0xffffffff when the whole warp does), or "
              "guard the call so that only the named lanes reach it")
        << MaskText << Site.Intrinsic->Name << Excluded.describe() << Kind
        << Mask->getSourceRange();
    if (!Site.Divergence.empty() && Site.Divergence.front().Condition)
      diag(SM.getFileLoc(Site.Divergence.front().Condition->getBeginLoc()),
           "the lanes that reach the call are decided here", DiagnosticIDs::Note);
  }
}

} // namespace warp_tidy
