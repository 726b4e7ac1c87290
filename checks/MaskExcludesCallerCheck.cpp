//===--- MaskExcludesCallerCheck.cpp - warp-mask-excludes-caller ----------===//
//
// Judgement: lanes that may reach the call (May) minus the lanes the mask
// names; for a mask computed from the lane, whether some executing lane
// provably passes a mask without its own bit (analysis/LaneMasks.h). When data decide which lanes
// arrive (a divergent condition that is not a lane comparison), the program may well guarantee that
// only the named lanes get there, so only the unmistakable typo form is reported then.
//
//===----------------------------------------------------------------------===//

#include "MaskExcludesCallerCheck.h"
#include "intrinsics/CollectiveCalls.h"
#include "intrinsics/WarpCollective.h"
#include "matchers/CheckMatchers.h"
#include "symbolic/SymbolicTerm.h"
#include "uniformity/LaneMasks.h"
#include "uniformity/LaunchedProvers.h"
#include "uniformity/RunTimeMasks.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace warp_tidy {

void MaskExcludesCallerCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(functionDecl(isProjectFunctionDefinition()).bind("fn"), this);
}

/// The prover for questions about \p Analysis's function: in the block
/// shapes of its launches when the unit shows them all.
static UniformityProver &functionProver(const FunctionUniformity &Analysis,
                                        WarpAnalysisCache &Cache) {
  return proverFor(Analysis.function(), Cache.prover(), Cache.options().AssumeWarpAlignedBlocks);
}

/// A hexadecimal literal of five to seven `f` digits: a full mask with
/// digits missing (`0xFFFFFF`), never a sensible lane set by intent.
static bool looksLikeTruncatedFullMask(const Expr *Mask, const ASTContext &Ctx) {
  const auto *Lit = dyn_cast<IntegerLiteral>(Mask->IgnoreParenImpCasts());
  if (!Lit || Lit->getBeginLoc().isMacroID())
    return false;
  llvm::StringRef Text = Lexer::getSourceText(CharSourceRange::getTokenRange(Lit->getSourceRange()),
                                              Ctx.getSourceManager(), Ctx.getLangOpts());
  Text = Text.rtrim("uUlL");
  if (!Text.consume_front("0x") && !Text.consume_front("0X"))
    return false;
  return Text.size() >= 5 && Text.size() <= 7 &&
         Text.find_first_not_of("fF") == llvm::StringRef::npos;
}

/// The intrinsic, or the helper as clang names it in notes ('f<float>').
static std::string calleeForMessage(const CollectiveSite &Site, const ASTContext &Ctx) {
  if (!Site.Helper)
    return Site.Intrinsic->Name.str();
  std::string Name;
  llvm::raw_string_ostream OS(Name);
  Site.Helper->getNameForDiagnostic(OS, Ctx.getPrintingPolicy(), /*Qualified=*/true);
  return "'" + OS.str() + "'";
}

/// A mask computed from the lane (`lanemask_lt()`, `(1u << lane) - 1`):
/// reported when some lane that executes the call provably passes a mask
/// without its own bit (analysis/LaneMasks.h), with that lane as witness.
void MaskExcludesCallerCheck::checkLaneExpressionMask(const FunctionUniformity &Analysis,
                                                      const CollectiveSite &Site, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  // The mask as the site gives it: the collective's argument, an inline PTX
  // collective's operand, or what a wrapper passes on as its mask.
  const Expr *Mask = Site.MaskExpr;
  if (!Mask || SM.isInSystemHeader(Site.At->getBeginLoc()))
    return;
  TermRef MaskTerm = laneMaskTerm(Analysis, Site);
  if (!LaneMaskQuestions::isLaneExpression(MaskTerm))
    return;
  WarpAnalysisCache &Cache = analysisCache(Ctx);
  LaneMaskQuestions Questions(Cache.terms(), functionProver(Analysis, Cache));
  LaneMaskQuestions::LaneWithoutOwnBit W;
  bool Proved = Questions.laneWithoutOwnBit(MaskTerm, lanesExecuting(Site), &W) ==
                LaneMaskQuestions::Existence::Exists;
  // When data decide which lanes arrive, it is still provable if no lane
  // that may arrive has its own bit: whichever arrives is left out.
  bool Whichever =
      !Proved && Site.DataDecided && Questions.noLaneHasOwnBit(MaskTerm, Site.May) &&
      Questions.laneWithoutOwnBit(MaskTerm, Site.May, &W) == LaneMaskQuestions::Existence::Exists;
  if (!Proved && !Whichever)
    return;
  SourceLocation Loc = SM.getFileLoc(Mask->getBeginLoc());
  if (!firstReportAt(Loc))
    return;
  std::string MaskText = hexMask(W.Mask);
  diag(Loc, "mask of %0 is computed from the lane and leaves the calling lane out: "
            "%select{lane %2 executes the call and passes %3, without its own bit|no lane "
            "that can reach the call has its own bit (lane %2 passes %3)}1; every calling lane "
            "must have its own bit set in the mask, so the %4 is undefined for it; add the "
            "calling lane's bit (`| (1u << lane)`), or guard the call so that only lanes "
            "named in their own mask reach it")
      << calleeForMessage(Site, Ctx) << (Proved ? 0 : 1) << W.Lane << MaskText
      << describeKind(Site.Intrinsic->Kind) << Mask->getSourceRange();
  if (const Expr *Definition = maskDefinition(Mask, Cache.fieldStores()))
    diag(SM.getFileLoc(Definition->getBeginLoc()), "the mask is computed from the lane here",
         DiagnosticIDs::Note);
}

/// A ballot of the whole warp as the mask of a collective every lane
/// reaches (analysis/LaneMasks.h, ballotMaskLeavingCallersOut).
void MaskExcludesCallerCheck::checkBallotMask(const FunctionUniformity &Analysis,
                                              const CollectiveSite &Site, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  if (SM.isInSystemHeader(Site.At->getBeginLoc()) || !Site.Intrinsic)
    return;
  const CallExpr *Ballot =
      ballotMaskLeavingCallersOut(Analysis, Site, functionProver(Analysis, analysisCache(Ctx)));
  if (!Ballot)
    return;
  const Expr *Mask = Site.MaskExpr;
  bool Defaulted = isa<CXXDefaultArgExpr>(Mask);
  SourceLocation Loc = SM.getFileLoc(Defaulted ? Site.At->getBeginLoc() : Mask->getBeginLoc());
  if (!firstReportAt(Loc))
    return;
  const Expr *Predicate = Ballot->getArg(1);
  std::string Kind = describeKind(Site.Intrinsic->Kind).str();
  std::optional<CollectiveCall> BallotCall = recogniseCollective(Ballot);
  std::optional<uint32_t> BallotMask =
      BallotCall ? resolveMaskConstant(BallotCall->maskArg(), Ctx) : std::nullopt;
  bool WholeWarp = BallotMask && *BallotMask == 0xffffffffu;
  diag(Loc, "%select{the mask of|the mask passed to}2 %0 is a __ballot_sync%select{| of the whole "
            "warp}3, which names only the lanes whose predicate held, but every lane reaches "
            "this call: the lanes for which it was false execute the %1 without their own bit "
            "in the mask, so it is undefined for them (on sm_70+ it can stop with an illegal "
            "instruction); call it only where the predicate holds (`if (pred)`), or pass "
            "0xffffffff and give the other lanes a neutral value")
      << calleeForMessage(Site, Ctx) << Kind << (Site.Helper ? 1 : 0) << (WholeWarp ? 1 : 0)
      << Mask->getSourceRange();
  diag(SM.getFileLoc(Ballot->getBeginLoc()), "the mask is this ballot of '%0'", DiagnosticIDs::Note)
      << Lexer::getSourceText(CharSourceRange::getTokenRange(Predicate->getSourceRange()), SM,
                              Ctx.getLangOpts());
  if (Site.Helper && Site.Witness)
    diag(SM.getFileLoc(Site.Witness->getBeginLoc()), "%0 uses the argument as the mask of this %1",
         DiagnosticIDs::Note)
        << Site.Helper << Site.Intrinsic->Name;
}

/// A mask the same in every lane but computed at run time, executed by the
/// whole warp, that some value of its inputs makes leave a lane out
/// (analysis/RunTimeMasks.h): in a kernel, or in a helper the whole warp
/// calls from this function.
void MaskExcludesCallerCheck::checkRunTimeMasks(const FunctionUniformity &Analysis,
                                                ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  WarpAnalysisCache &Cache = analysisCache(Ctx);
  // Masks are evaluated in this function's blocks, a helper's with the
  // arguments of this function's call.
  UniformityProver &Prover = functionProver(Analysis, Cache);
  llvm::SmallVector<RunTimeMaskFinding, 2> Findings = runTimeMasksOfKernel(
      Analysis, Cache.terms(), Prover, Cache.options().AssumeWarpAlignedBlocks);
  for (const CollectiveSite &Call : Analysis.sites()) {
    // The helper's full analysis only when it can hold such a mask: it may
    // have been evicted from the cache, and recomputing it costs.
    if (!callMayPassRunTimeMask(Call, Call.Helper ? Cache.summary(Call.Helper) : nullptr))
      continue;
    UniformityRef Helper = Cache.analysis(Call.Helper);
    if (!Helper)
      continue;
    for (const RunTimeMaskFinding &F :
         runTimeMasksAtCall(Analysis, Call, *Helper, Cache.terms(), Prover,
                            Cache.options().AssumeWarpAlignedBlocks))
      Findings.push_back(F);
  }
  for (const RunTimeMaskFinding &F : Findings) {
    const CollectiveSite &Site = *F.Site;
    const Expr *Mask = Site.MaskExpr;
    if (SM.isInSystemHeader(Site.At->getBeginLoc()))
      continue;
    SourceLocation Loc = SM.getFileLoc(Mask->getBeginLoc());
    if (!firstReportAt(Loc))
      continue;
    diag(Loc, "mask of %0 is computed at run time and leaves out lanes that execute the "
              "call: every lane of the warp %select{that runs this kernel|that calls this "
              "function at the call noted}1 executes the %2, but %select{for some values "
              "of what the mask is computed from|with that call's arguments}5 it is %3, "
              "without lane %4's bit, so the %2 is undefined for that lane; pass "
              "0xffffffff and give the lanes that should not contribute a neutral value, "
              "or guard the call so that only the lanes named in the mask reach it")
        << calleeForMessage(Site, Ctx) << (F.Call ? 1 : 0) << describeKind(Site.Intrinsic->Kind)
        << hexMask(F.Mask) << F.Lane << (F.Constant ? 1 : 0) << Mask->getSourceRange();
    if (const Expr *Definition = maskDefinition(Mask, Cache.fieldStores()))
      diag(SM.getFileLoc(Definition->getBeginLoc()), "the mask is computed here",
           DiagnosticIDs::Note);
    if (F.Call)
      diag(SM.getFileLoc(F.Call->At->getBeginLoc()), "every lane of the warp calls %0 here",
           DiagnosticIDs::Note)
          << F.Call->Helper;
  }
}

void MaskExcludesCallerCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  UniformityRef Analysis = collectiveAnalysis(Result.Nodes.getNodeAs<FunctionDecl>("fn"), Ctx);
  if (!Analysis)
    return;
  const SourceManager &SM = Ctx.getSourceManager();
  checkRunTimeMasks(*Analysis, Ctx);
  for (const CollectiveSite &Site : Analysis->sites()) {
    if (!Site.ImplicitMask && !Site.Required)
      checkBallotMask(*Analysis, Site, Ctx);
    if (!Site.ImplicitMask && !Site.Required) {
      checkLaneExpressionMask(*Analysis, Site, Ctx);
      continue;
    }
    if (Site.Helper || Site.ImplicitMask || !Site.Required || Site.Required->isEmpty())
      continue; // a zero mask is warp-zero-mask's
    LaneSet Excluded = Site.May.minus(*Site.Required);
    if (Excluded.isEmpty())
      continue;
    // The site's collective: a call, or the PTX instruction of an asm.
    std::optional<WarpCollective> Collective =
        Site.Call ? warpCollectiveAt(Site.Call)
                  : asmCollectiveNeedingLanes(cast<GCCAsmStmt>(Site.At));
    if (!Collective || !Collective->Mask.present() || SM.isInSystemHeader(Site.At->getBeginLoc()))
      continue;
    const Expr *Mask = Collective->Mask.E;
    bool Typo = Mask && looksLikeTruncatedFullMask(Mask, Ctx);
    if (!Typo && Site.DataDecided)
      continue;
    SourceLocation Loc = SM.getFileLoc(Collective->maskLoc());
    if (!firstReportAt(Loc))
      continue;
    std::string MaskText = hexMask(Site.Required->bits());
    std::string Kind = describeKind(Site.Intrinsic->Kind).str();
    if (Typo) {
      auto D = diag(Loc, "mask %0 of %1 has only %2 bits and looks like a truncated "
                         "0xffffffff: %3 can reach this call without their bit in the "
                         "mask, so the %4 is undefined for them; write all eight digits")
               << MaskText << Collective->displayName() << Site.Required->count()
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
        << MaskText << Collective->displayName() << Excluded.describe() << Kind
        << Collective->maskRange();
    if (Site.InnermostCondition)
      diag(SM.getFileLoc(Site.InnermostCondition->getBeginLoc()),
           "the lanes that reach the call are decided here", DiagnosticIDs::Note);
  }
}

} // namespace warp_tidy
