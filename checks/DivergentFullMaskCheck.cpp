//===--- DivergentFullMaskCheck.cpp - warp-divergent-full-mask ------------===//
//
// The judgement, per collective site of an analysed function:
//   - the lanes the mask names that do not surely arrive (Required - Must)
//     are the problem; none missing means the mask fits the lane guard;
//   - missing lanes under a divergent branch whose lanes meet again: report,
//     unless every target is sm_70+ and every path reaches the same
//     collective with the same mask (valid with independent scheduling);
//   - missing lanes only because of an early return: report shuffles only
//     (reading an exited lane is undefined; votes, ballots, reductions and
//     __syncwarp ignore exited lanes by the letter of the Programming Guide).
//
//===----------------------------------------------------------------------===//

#include "DivergentFullMaskCheck.h"
#include "arch/TargetArchs.h"
#include "ast/AstQueries.h"
#include "intrinsics/CollectiveCalls.h"
#include "intrinsics/WarpCollective.h"
#include "matchers/CheckMatchers.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdlib>
#include <functional>

using namespace clang;
using namespace clang::ast_matchers;

namespace warp_tidy {

DivergentFullMaskCheck::DivergentFullMaskCheck(llvm::StringRef Name,
                                               tidy::ClangTidyContext *Context)
    : UniformityCheck(Name, Context) {
  SchedulingOption = Options.get("IndependentThreadScheduling", "auto").str();
}

void DivergentFullMaskCheck::storeOptions(tidy::ClangTidyOptions::OptionMap &Opts) {
  UniformityCheck::storeOptions(Opts);
  Options.store(Opts, "IndependentThreadScheduling", SchedulingOption);
}

void DivergentFullMaskCheck::registerMatchers(MatchFinder *Finder) {
  // One match per function definition (template instantiations included):
  // the analysis judges all collectives of a function at once.
  Finder->addMatcher(functionDecl(isProjectFunctionDefinition()).bind("fn"), this);
}

bool DivergentFullMaskCheck::independentThreadScheduling(const ASTContext &Ctx) {
  if (IndependentScheduling)
    return *IndependentScheduling;
  bool Result;
  if (SchedulingOption == "true" || SchedulingOption == "1")
    Result = true;
  else if (SchedulingOption == "false" || SchedulingOption == "0")
    Result = false;
  else {
    std::vector<unsigned> Archs = targetArchs(Ctx, PP);
    Result = !Archs.empty() && llvm::all_of(Archs, [](unsigned A) { return A >= 70; });
  }
  IndependentScheduling = Result;
  return Result;
}

static bool isShuffle(const WarpIntrinsic *I) {
  return I && I->Direction != ShuffleDirection::None;
}

static SourceLocation fileLoc(const ASTContext &Ctx, SourceLocation Loc) {
  return Ctx.getSourceManager().getFileLoc(Loc);
}

/// What the divergent condition is, for the note. The lanes that must agree
/// are the site's: a tile's collective needs only its tile's lanes to, a
/// mask that names some lanes only those.
static std::string describeCondition(const DivergenceSource &Src, const CollectiveSite &Site) {
  std::string Lanes =
      Site.GroupSize < 32 ? "the lanes of a " + std::to_string(Site.GroupSize) + "-lane tile"
      : Site.Required && !Site.Required->isAll() ? "the lanes the mask names"
                                                 : std::string("the lanes of a warp");
  if (Src.Kind == DivergenceSource::Argument)
    return "this argument differs between " + Lanes +
           ", and inside the callee "
           "it decides whether a lane reaches the collective";
  const Stmt *T = Src.Terminator;
  std::string What = "this condition";
  if (T && isLoopStmt(T))
    What = "this loop condition";
  else if (T && isa<ConditionalOperator, BinaryConditionalOperator>(T))
    What = "this '?:' condition";
  else if (const auto *BO = dyn_cast_or_null<BinaryOperator>(T))
    What = std::string("this operand of '") + BO->getOpcodeStr().str() + "'";
  else if (T && isa<SwitchStmt>(T))
    What = "this switch condition";
  if (Src.Kind == DivergenceSource::EarlyExit)
    return What + " differs between " + Lanes +
           "; the lanes for which it "
           "leads to 'return' have exited before the shuffle";
  return What + " differs between " + Lanes +
         ", so only some lanes take the path "
         "to the collective";
}

/// The lanes a helper's collective needs converged, for the message.
static std::string neededLanes(const CollectiveSite &Site) {
  if (Site.GroupSize < 32)
    return "every lane of its " + std::to_string(Site.GroupSize) + "-lane tile";
  return Site.Required->isAll() ? std::string("the whole warp") : Site.Required->describe();
}

static std::string maskText(const CollectiveSite &Site) {
  if (Site.ImplicitMask && Site.GroupSize < 32)
    return "the implicit mask of its " + std::to_string(Site.GroupSize) + "-lane tile";
  if (Site.ImplicitMask)
    return Site.Required && !Site.Required->isAll() ? "its implicit tile mask"
                                                    : "its implicit full-warp mask";
  if (Site.Required && Site.Required->isAll())
    return "a full mask";
  return "mask " + hexMask(Site.Required ? Site.Required->bits() : 0u);
}

static std::string calleeName(const Stmt *At) {
  // Inline PTX: named by its instruction.
  const auto *Call = dyn_cast_or_null<CallExpr>(At);
  if (!Call) {
    std::optional<WarpCollective> W =
        At ? asmCollectiveNeedingLanes(cast<GCCAsmStmt>(At)) : std::nullopt;
    return W ? W->displayName() : "the collective";
  }
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD)
    return "the call";
  // Scoped collectives read better with the scope users write.
  if (const WarpIntrinsic *I = classifyCallee(FD)) {
    if (I->Kind == CollectiveKind::Matrix)
      return "wmma::" + FD->getNameAsString();
    if (I->Kind == CollectiveKind::TileMember)
      return "thread_block_tile::" + FD->getNameAsString();
    if (I->Kind == CollectiveKind::TileReduce)
      return "cooperative_groups::" + FD->getNameAsString();
  }
  return FD->getNameAsString();
}

/// The collective's name in quotes, as messages cite it (inline PTX is
/// already quoted: "inline PTX 'shfl.sync.bfly.b32'").
static std::string quotedName(const Stmt *At) {
  return isa_and_nonnull<CallExpr>(At) ? "'" + calleeName(At) + "'" : calleeName(At);
}

// Fix-it for the seed's scan: `T x = c ? __shfl_sync(m, v, l) : e;` (or any
// collective with a result in place of the shuffle) becomes
// `const auto xShfl = __shfl_sync(m, v, l);` followed by the original
// statement selecting `xShfl`. Offered only when the result is provably the
// same for the lanes that used it: nothing else diverges here, the shuffle's
// operands and the condition have no side effects (so evaluating them
// earlier changes nothing), no macro is involved, and the statement sits
// directly in a block.
static std::optional<std::pair<FixItHint, FixItHint>>
hoistFromConditional(const CollectiveSite &Site, const FunctionUniformity &Analysis,
                     ASTContext &Ctx) {
  if (!Site.Call || Site.Helper || Site.Divergence.size() != 1 || !Site.EarlyExits.empty() ||
      !Site.Required || Site.Call->getType()->isVoidType())
    return std::nullopt;
  const auto *CO = dyn_cast_or_null<ConditionalOperator>(Site.Divergence.front().Terminator);
  if (!CO)
    return std::nullopt;
  const Expr *Call = Site.Call;
  if (CO->getTrueExpr()->IgnoreParenImpCasts() != Call &&
      CO->getFalseExpr()->IgnoreParenImpCasts() != Call)
    return std::nullopt;
  if (CO->getCond()->HasSideEffects(Ctx))
    return std::nullopt;
  for (const Expr *Arg : Site.Call->arguments())
    if (Arg->HasSideEffects(Ctx))
      return std::nullopt;
  // Find the statement: a single-variable declaration or an assignment
  // expression statement, directly inside a compound statement. The path is
  // found by walking down from the function body (the TU-wide parent map
  // would cost a traversal of every header).
  llvm::SmallVector<const Stmt *, 16> Path;
  std::function<bool(const Stmt *)> FindPath = [&](const Stmt *S) {
    if (!S)
      return false;
    Path.push_back(S);
    if (S == CO)
      return true;
    for (const Stmt *Child : S->children())
      if (FindPath(Child))
        return true;
    Path.pop_back();
    return false;
  };
  const FunctionDecl *Fn = Analysis.function();
  if (!Fn || !FindPath(Fn->getBody()) || Path.size() < 3)
    return std::nullopt;
  const Stmt *Statement = nullptr;
  std::string Name;
  // Path: ... CompoundStmt, Statement, [implicit nodes...], CO.
  for (size_t I = Path.size() - 1; I-- > 1 && !Statement;) {
    const Stmt *S = Path[I];
    if (isa<ParenExpr, ImplicitCastExpr>(S))
      continue;
    if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
      const auto *LHS = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts());
      if (!BO->isAssignmentOp() || !LHS || !isa<CompoundStmt>(Path[I - 1]))
        return std::nullopt;
      Name = LHS->getDecl()->getNameAsString();
      Statement = BO;
    } else if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      const auto *VD = DS->isSingleDecl() ? dyn_cast<VarDecl>(DS->getSingleDecl()) : nullptr;
      if (!VD || !VD->getInit() || !isa<CompoundStmt>(Path[I - 1]))
        return std::nullopt;
      Name = VD->getNameAsString();
      Statement = DS;
    } else {
      return std::nullopt;
    }
  }
  if (!Statement || Name.empty())
    return std::nullopt;
  // After hoisting, the shuffle runs where the statement runs: every lane
  // named in the mask must reach that point.
  if (!Analysis.mustReach(Statement).includes(*Site.Required) ||
      !Analysis.divergenceAt(Statement).empty())
    return std::nullopt;
  const SourceManager &SM = Ctx.getSourceManager();
  if (Statement->getBeginLoc().isMacroID() || Call->getBeginLoc().isMacroID() ||
      Call->getEndLoc().isMacroID())
    return std::nullopt;
  std::string NewName = Name + "Shfl";
  // The new name must not capture or shadow anything in the function.
  if (const auto *FD = Analysis.function()) {
    llvm::SmallVector<const Stmt *, 32> Stack = {FD->getBody()};
    while (!Stack.empty()) {
      const Stmt *S = Stack.pop_back_val();
      if (!S)
        continue;
      if (const auto *Ref = dyn_cast<DeclRefExpr>(S))
        if (Ref->getDecl()->getNameAsString() == NewName)
          return std::nullopt;
      if (const auto *DS = dyn_cast<DeclStmt>(S))
        for (const Decl *D : DS->decls())
          if (const auto *ND = dyn_cast<NamedDecl>(D))
            if (ND->getNameAsString() == NewName)
              return std::nullopt;
      for (const Stmt *C : S->children())
        Stack.push_back(C);
    }
  }
  CharSourceRange CallRange = CharSourceRange::getTokenRange(Call->getSourceRange());
  llvm::StringRef CallText = Lexer::getSourceText(CallRange, SM, Ctx.getLangOpts());
  if (CallText.empty())
    return std::nullopt;
  // Keep the statement's indentation for the new line.
  SourceLocation Begin = Statement->getBeginLoc();
  unsigned Column = SM.getSpellingColumnNumber(Begin);
  llvm::StringRef Line = SM.getBufferData(SM.getFileID(Begin))
                             .substr(SM.getFileOffset(Begin) - (Column - 1), Column - 1);
  std::string Indent = Line.find_first_not_of(" \t") == llvm::StringRef::npos
                           ? Line.str()
                           : std::string(Column - 1, ' ');
  std::string Decl = "const auto " + NewName + " = " + CallText.str() + ";\n" + Indent;
  return std::make_pair(FixItHint::CreateInsertion(Begin, Decl),
                        FixItHint::CreateReplacement(CallRange, NewName));
}

void DivergentFullMaskCheck::reportDivergent(const CollectiveSite &Site, LaneSet Missing,
                                             const FunctionUniformity &Analysis, ASTContext &Ctx) {
  SourceLocation Loc = fileLoc(Ctx, Site.At->getBeginLoc());
  if (!firstReportAt(Loc))
    return;
  std::string Kind = describeKind(Site.Intrinsic->Kind).str();
  const DivergenceSource &Src = Site.Divergence.front();
  bool LaneGuard = !Site.DataDecided && !Site.Must.isEmpty();
  std::string Who = LaneGuard ? Missing.describe() + " never reach it"
                    : Site.GroupSize < 32
                        ? "the condition splits a tile, and its lanes that take the other path "
                          "never reach it"
                        : "lanes that take the other path never reach it";
  if (Site.Helper && Src.Kind == DivergenceSource::Argument) {
    diag(Loc, "%0 is called with a thread-varying argument that decides, inside %0, "
              "whether lanes reach a %1 that needs %2 converged (%3), so the %1 is "
              "undefined; pass a warp-uniform value (e.g. the result of "
              "__any_sync/__all_sync), or call the collective unconditionally")
        << Site.Helper << Kind << neededLanes(Site) << quotedName(Site.Witness);
  } else if (Site.Helper) {
    diag(Loc, "%0 is called from thread-divergent code, but the %1 inside it needs "
              "%2 converged (%3): %4, so the %1 is undefined; call %0 where all those "
              "lanes arrive together, e.g. before the branch%select{, or pass it a mask "
              "computed with __ballot_sync(0xffffffff, cond) before the branch|}5")
        << Site.Helper << Kind << neededLanes(Site) << quotedName(Site.Witness) << Who
        << (Site.GroupSize < 32 ? 1 : 0);
  } else {
    auto D = diag(Loc, "%0 with %1 is reached by only some of the lanes it names: %2, so the %3 "
                       "is undefined; call it where every named lane arrives (hoist it out "
                       "of the branch and select its result), or build the mask with "
                       "__ballot_sync(0xffffffff, cond) before the branch")
             << calleeName(Site.At) << maskText(Site) << Who << Kind;
    if (auto Fix = hoistFromConditional(Site, Analysis, Ctx))
      D << Fix->first << Fix->second;
  }
  if (Src.Condition)
    diag(fileLoc(Ctx, Src.Condition->getBeginLoc()), describeCondition(Src, Site),
         DiagnosticIDs::Note);
  if (Site.Helper && Site.Witness)
    diag(fileLoc(Ctx, Site.Witness->getBeginLoc()), "the %0 in %1 that needs the lanes is here",
         DiagnosticIDs::Note)
        << Kind << Site.Helper;
}

void DivergentFullMaskCheck::reportEarlyExit(const CollectiveSite &Site, LaneSet Missing,
                                             ASTContext &Ctx) {
  SourceLocation Loc = fileLoc(Ctx, Site.At->getBeginLoc());
  if (!firstReportAt(Loc))
    return;
  const DivergenceSource &Src = Site.EarlyExits.front();
  bool LaneGuard = !Site.DataDecided && !Site.Must.isEmpty();
  std::string Who = LaneGuard ? Missing.describe() : "some lanes";
  if (Site.Helper)
    diag(Loc, "%0 contains a shuffle with %1, but it is called after a thread-dependent "
              "early return: %2 may have exited, and a shuffle that reads an exited lane "
              "gets an undefined value; let every lane reach the call and return "
              "afterwards, or shuffle with the mask __ballot_sync(0xffffffff, cond) "
              "computed before the return")
        << Site.Helper << maskText(Site) << Who;
  else
    diag(Loc, "%0 with %1 runs after a thread-dependent early return: %2 may have exited, "
              "and a shuffle that reads an exited lane gets an undefined value; let every "
              "lane reach the shuffle and return afterwards (lanes past the end can "
              "contribute a neutral value), or use the mask __ballot_sync(0xffffffff, "
              "cond) computed before the return")
        << calleeName(Site.At) << maskText(Site) << Who;
  if (Src.Condition)
    diag(fileLoc(Ctx, Src.Condition->getBeginLoc()), describeCondition(Src, Site),
         DiagnosticIDs::Note);
  if (Site.Helper && Site.Witness)
    diag(fileLoc(Ctx, Site.Witness->getBeginLoc()), "the shuffle in %0 is here",
         DiagnosticIDs::Note)
        << Site.Helper;
}

/// The site with its run-off-the-end exits chosen by \p Keep as plain
/// divergent branches. The lanes on their way to the kernel's end have not
/// exited yet while the others run the collective: a shuffle reads them
/// anyway, and before Volta any collective finds them inactive. They never
/// reach it, as after any other divergent branch.
template <typename Pred>
static std::optional<CollectiveSite> asDivergent(const CollectiveSite &Site, Pred Keep) {
  CollectiveSite Diverged = Site;
  Diverged.EarlyExits.clear();
  for (DivergenceSource Src : Site.EarlyExits)
    if (Src.ExitsAtEnd && Keep(Src)) {
      Src.Kind = DivergenceSource::Branch;
      Diverged.Divergence.push_back(Src);
    }
  if (Diverged.Divergence.empty())
    return std::nullopt;
  return Diverged;
}

/// The site with only the exits after which a lane that arrives may read a
/// lane that left; nullopt when there are none.
static std::optional<CollectiveSite> withReadExits(const CollectiveSite &Site) {
  CollectiveSite Read = Site;
  llvm::erase_if(Read.EarlyExits,
                 [](const DivergenceSource &S) { return S.ExitedLanesUnread || S.ExitsAtEnd; });
  if (Read.EarlyExits.empty())
    return std::nullopt;
  return Read;
}

void DivergentFullMaskCheck::reportExits(const CollectiveSite &Site, LaneSet Missing,
                                         const FunctionUniformity &Analysis, ASTContext &Ctx) {
  auto Any = [](const DivergenceSource &) { return true; };
  auto Reads = [](const DivergenceSource &S) { return !S.ExitedLanesUnread; };
  if (!independentThreadScheduling(Ctx)) {
    if (std::optional<CollectiveSite> D = asDivergent(Site, Any))
      return reportDivergent(*D, Missing, Analysis, Ctx);
  }
  // Votes, ballots, barriers and reductions wait only for the lanes that
  // have not exited (the Programming Guide's "non-exited threads").
  if (!isShuffle(Site.Intrinsic))
    return;
  if (std::optional<CollectiveSite> D = asDivergent(Site, Reads))
    return reportDivergent(*D, Missing, Analysis, Ctx);
  if (std::optional<CollectiveSite> R = withReadExits(Site))
    reportEarlyExit(*R, Missing, Ctx);
}

void DivergentFullMaskCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  UniformityRef Analysis = collectiveAnalysis(Result.Nodes.getNodeAs<FunctionDecl>("fn"), Ctx);
  if (!Analysis)
    return;
  if (getenv("WARP_TIDY_DEBUG_UNIFORMITY"))
    Analysis->dump(llvm::errs());
  for (const CollectiveSite &Site : Analysis->sites()) {
    if (!Site.Required || !Site.Intrinsic)
      continue;
    if (Ctx.getSourceManager().isInSystemHeader(Site.At->getBeginLoc()))
      continue;
    LaneSet Missing = Site.Required->minus(Site.Must);
    if (Missing.isEmpty())
      continue;
    if (!Site.Divergence.empty()) {
      if (Site.CoveredOnEveryPath && independentThreadScheduling(Ctx))
        continue;
      reportDivergent(Site, Missing, *Analysis, Ctx);
    } else if (!Site.EarlyExits.empty()) {
      reportExits(Site, Missing, *Analysis, Ctx);
    }
  }
}

} // namespace warp_tidy
