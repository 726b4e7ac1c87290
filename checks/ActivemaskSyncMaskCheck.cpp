//===--- ActivemaskSyncMaskCheck.cpp - warp-activemask-sync-mask ----------===//

#include "ActivemaskSyncMaskCheck.h"
#include "ast/AstQueries.h"
#include "ast/ConstantPath.h"
#include "ast/LocalWrites.h"
#include "intrinsics/CollectiveCalls.h"
#include "intrinsics/WarpCollective.h"
#include "lanes/LaneExpressions.h"
#include "matchers/CheckMatchers.h"
#include "uniformity/Uniformity.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace warp_tidy {

// One match per function definition; its body is walked for collectives.
// (Matching the calls with forFunction() would build the parent map of the
// whole translation unit, headers included.)
void ActivemaskSyncMaskCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(functionDecl(isProjectFunctionDefinition()).bind("fn"), this);
}

static bool isActivemaskCall(const Expr *E) {
  const auto *Call = dyn_cast<CallExpr>(E);
  if (!Call)
    return false;
  const WarpIntrinsic *I = classifyCallee(Call->getDirectCallee());
  return I && I->Kind == CollectiveKind::ActiveMask;
}

/// The __activemask() call inside \p E (the mask expression, or a value
/// assigned to the mask variable), looking through arithmetic on it
/// (`__activemask() & 0xff` is no better) and into helpers that only return
/// one (`unsigned ACTIVE_MASK() { return __activemask(); }`), but not into
/// other calls.
static const Stmt *findActivemask(const Expr *E, unsigned Depth = 0) {
  if (!E || Depth > 8)
    return nullptr;
  E = E->IgnoreParenImpCasts();
  if (const auto *Default = dyn_cast<CXXDefaultArgExpr>(E))
    E = Default->getExpr()->IgnoreParenImpCasts();
  if (isActivemaskCall(E))
    return cast<CallExpr>(E);
  if (const auto *Call = dyn_cast<CallExpr>(E))
    return findActivemask(onlyReturnedExpr(Call->getDirectCallee()), Depth + 1);
  for (const Stmt *Child : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(Child))
      if (const Stmt *Found = findActivemask(CE, Depth + 1))
        return Found;
  return nullptr;
}

/// True when an `activemask` instruction in \p Asm's template writes \p Var
/// (`asm("activemask.b32 %0;" : "=r"(m))`).
static bool asmWritesActivemaskTo(const GCCAsmStmt *Asm, const VarDecl *Var) {
  for (const WarpCollective &C : warpCollectivesAt(Asm))
    if (C.Intrinsic->Kind == CollectiveKind::ActiveMask && C.Destination.E)
      if (const auto *Ref = dyn_cast<DeclRefExpr>(C.Destination.E->IgnoreParenImpCasts()))
        if (Ref->getDecl() == Var)
          return true;
  return false;
}

/// Where the value of local variable \p Var can come from __activemask():
/// its initialiser, any assignment to it in \p Body, or an inline PTX
/// `activemask` writing it.
static const Stmt *activemaskAssignedTo(const VarDecl *Var, const Stmt *Body) {
  if (const Stmt *C = findActivemask(Var->getInit()))
    return C;
  llvm::SmallVector<const Stmt *, 32> Stack = {Body};
  while (!Stack.empty()) {
    const Stmt *S = Stack.pop_back_val();
    if (!S)
      continue;
    if (const auto *BO = dyn_cast<BinaryOperator>(S))
      if (BO->isAssignmentOp())
        if (const auto *Ref = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts()))
          if (Ref->getDecl() == Var)
            if (const Stmt *C = findActivemask(BO->getRHS()))
              return C;
    if (const auto *Asm = dyn_cast<GCCAsmStmt>(S))
      if (asmWritesActivemaskTo(Asm, Var))
        return Asm;
    const Stmt *Discarded = discardedBranch(S);
    for (const Stmt *Child : S->children())
      if (Child != Discarded)
        Stack.push_back(Child);
  }
  return nullptr;
}

void ActivemaskSyncMaskCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *FD = Result.Nodes.getNodeAs<FunctionDecl>("fn");
  if (!FD || !FD->getBody() || FD->isDependentContext())
    return;
  llvm::SmallVector<const Stmt *, 64> Stack = {FD->getBody()};
  while (!Stack.empty()) {
    const Stmt *S = Stack.pop_back_val();
    if (!S || isa<LambdaExpr>(S))
      continue;
    if (const auto *Call = dyn_cast<CallExpr>(S))
      checkCall(Call, FD, Result);
    else if (const auto *Asm = dyn_cast<GCCAsmStmt>(S))
      checkAsm(Asm, FD, Result);
    // A discarded `if constexpr` branch is never compiled.
    const Stmt *Discarded = discardedBranch(S);
    for (const Stmt *Child : S->children())
      if (Child != Discarded)
        Stack.push_back(Child);
  }
}

void ActivemaskSyncMaskCheck::checkCall(const CallExpr *Call, const FunctionDecl *FD,
                                        const MatchFinder::MatchResult &Result) {
  if (Result.SourceManager->isInSystemHeader(Call->getBeginLoc()))
    return;
  std::optional<CollectiveCall> Collective = recogniseCollective(Call);
  const Expr *Mask = nullptr;
  const WarpIntrinsic *Intrinsic = nullptr;
  const FunctionDecl *Wrapper = nullptr;
  const Stmt *Inside = nullptr;
  if (Collective) {
    if (Collective->Intrinsic->Kind == CollectiveKind::ActiveMask ||
        Collective->hasImplicitFullMask())
      return;
    Mask = Collective->maskArg();
    Intrinsic = Collective->Intrinsic;
  } else if (const FunctionDecl *Callee = Call->getDirectCallee()) {
    // A wrapper whose collective computes its mask from a parameter (the
    // parameter itself, or a value the wrapper derives from it, such as a
    // peer-group loop's `unclaimed ^= group`): the argument is where the
    // mask comes from, as if written here.
    const FunctionSummary *Sum = nullptr;
    if (!Callee->isDependentContext())
      Sum = analysisCache(*Result.Context).summary(Callee);
    if (!Sum || !Sum->MaskSources)
      return;
    for (unsigned P = 0; P < Call->getNumArgs() && P < Callee->getNumParams(); ++P)
      if (Sum->MaskSources & parameterDep(P)) {
        Mask = Call->getArg(P);
        break;
      }
    Intrinsic = Sum->MaskSourceIntrinsic;
    Wrapper = Callee;
    Inside = Sum->MaskSourceWitness;
  }
  if (!Mask || !Intrinsic)
    return;
  // A wrapper's collective may be inline PTX: name it as written.
  std::string Name = Intrinsic->Name.str();
  if (const auto *InsideAsm = dyn_cast_or_null<GCCAsmStmt>(Inside))
    if (std::optional<WarpCollective> W = asmCollectiveNeedingLanes(InsideAsm))
      Name = W->displayName();
  judgeMask(Call, Mask, Name, Intrinsic->Kind, Wrapper, Inside, FD, Result);
}

void ActivemaskSyncMaskCheck::checkAsm(const GCCAsmStmt *Asm, const FunctionDecl *FD,
                                       const MatchFinder::MatchResult &Result) {
  const SourceManager &SM = *Result.SourceManager;
  if (SM.isInSystemHeader(Asm->getBeginLoc()))
    return;
  for (const WarpCollective &C : warpCollectivesAt(Asm)) {
    if (C.Intrinsic->Kind == CollectiveKind::ActiveMask || C.ImplicitFullMask)
      continue;
    if (C.MaskFromActivemaskInTemplate) {
      SourceLocation Loc = SM.getFileLoc(Asm->getBeginLoc());
      if (!firstReportAt(Loc))
        continue;
      diag(Loc, "the mask of %0 is a register the same template sets with activemask, "
                "which only reports the lanes that happen to be converged at that instant "
                "and does not converge them; lanes still on their way are left out, so "
                "the %1 is undefined for them; compute the mask with "
                "__ballot_sync(0xffffffff, cond) before the branch and pass it in, or use "
                "0xffffffff where the whole warp is converged")
          << C.displayName() << describeKind(C.Intrinsic->Kind);
      continue;
    }
    if (C.Mask.E)
      judgeMask(Asm, C.Mask.E, C.displayName(), C.Intrinsic->Kind, nullptr, nullptr, FD, Result);
  }
}

/// True when the mask cannot lose a lane: no lane reaches the collective
/// (dead code such as `if (false) {...}`), or the __activemask() is taken
/// where every lane of the warp arrives and no divergent branch lies on any
/// path before it, and the collective is reached by the whole warp too: the
/// mask it reports is then the whole warp. \p Source may sit in a helper the
/// mask expression calls; the call at \p At stands for it then.
bool ActivemaskSyncMaskCheck::collectsWholeWarp(const Stmt *At, const Stmt *Source,
                                                const FunctionDecl *FD, ASTContext &Ctx) const {
  if (!FD || FD->isDependentContext())
    return false;
  UniformityRef A = analysisCache(Ctx).analysis(FD);
  if (!A)
    return false;
  if (A->provablyUnreachable(At))
    return true;
  bool SourceHere = !A->mayReach(Source).isEmpty() || A->provablyUnreachable(Source);
  const Stmt *Taken = SourceHere ? Source : At;
  return reachedByWholeWarp(At, FD, Ctx) && reachedByWholeWarp(Taken, FD, Ctx) &&
         !A->divergesBefore(Taken);
}

/// True when the collective at \p At is `__shfl_sync(m, v, leader)` with
/// m a local holding one __activemask() and leader a lane picked out of m
/// (the warp-aggregation idiom: `leader = __ffs(m) - 1`). Whichever lanes
/// happen to be converged, each of them names that same group and reads a
/// lane of it, so the shuffle is defined for every grouping, as with
/// coalesced_threads(). A reduction or a scan over m is not: a partial
/// group gives a partial result.
static bool broadcastsWithinMask(const Stmt *At, const VarDecl *Mask, const ASTContext &Ctx) {
  const auto *Call = dyn_cast<CallExpr>(At);
  std::optional<CollectiveCall> C = Call ? recogniseCollective(Call) : std::nullopt;
  if (!C || !Mask || C->Intrinsic->Direction != ShuffleDirection::Index ||
      C->Intrinsic->LaneOrDeltaArg == NoArgument ||
      static_cast<unsigned>(C->Intrinsic->LaneOrDeltaArg) >= Call->getNumArgs())
    return false;
  // The mask must be one value wherever it is read.
  if (!singleAssignmentInit(Mask) && !onlyAssignedValue(Mask))
    return false;
  return isLaneOfMask(Call->getArg(C->Intrinsic->LaneOrDeltaArg), Mask, Ctx);
}

void ActivemaskSyncMaskCheck::judgeMask(const Stmt *At, const Expr *Mask, std::string Name,
                                        CollectiveKind Kind, const FunctionDecl *Wrapper,
                                        const Stmt *Inside, const FunctionDecl *FD,
                                        const MatchFinder::MatchResult &Result) {
  const Stmt *Source = findActivemask(Mask);
  const VarDecl *Through = nullptr;
  if (!Source) {
    // Through a local variable: `unsigned m = __activemask(); ...(m, ...)`,
    // possibly combined (`m & 0xff`).
    llvm::SmallVector<const Expr *, 4> Work = {Mask};
    while (!Work.empty() && !Source) {
      const Expr *E = Work.pop_back_val()->IgnoreParenImpCasts();
      if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
        const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
        if (Var && Var->hasLocalStorage() && !isa<ParmVarDecl>(Var) && FD && FD->getBody())
          if ((Source = activemaskAssignedTo(Var, FD->getBody())))
            Through = Var;
        continue;
      }
      if (isa<CallExpr>(E))
        continue;
      for (const Stmt *Child : E->children())
        if (const auto *CE = dyn_cast_or_null<Expr>(Child))
          Work.push_back(CE);
    }
  }
  if (!Source)
    return;

  ASTContext &Ctx = *Result.Context;
  if (broadcastsWithinMask(At, Through, Ctx))
    return;
  if (!Wrapper && collectsWholeWarp(At, Source, FD, Ctx))
    return;
  // A defaulted mask is written nowhere here: point at the call.
  bool Defaulted = isa<CXXDefaultArgExpr>(Mask);
  SourceLocation Loc =
      Result.SourceManager->getFileLoc(Defaulted ? At->getBeginLoc() : Mask->getBeginLoc());
  if (!firstReportAt(Loc))
    return;

  // Say where the lanes diverge when the analysis knows: that is where the
  // mask silently loses the lanes still on their way.
  const DivergenceSource *Divergence = nullptr;
  llvm::SmallVector<DivergenceSource, 2> Sources;
  if (FD && !FD->isDependentContext())
    if (UniformityRef A = analysisCache(Ctx).analysis(FD)) {
      Sources = A->divergenceAt(At);
      if (!Sources.empty())
        Divergence = &Sources.front();
    }

  diag(Loc, "the mask of %0 comes from __activemask()%1, which only reports the lanes "
            "that happen to be converged at that instant and does not converge them; "
            "lanes still on their way are left out, so the %2 is undefined for them; "
            "compute the mask with __ballot_sync(0xffffffff, cond) before the branch, "
            "or pass 0xffffffff where the whole warp is converged")
      << (Wrapper ? Wrapper->getNameAsString() : Name)
      << (Through ? (" through '" + Through->getNameAsString() + "'") : std::string())
      << describeKind(Kind) << Mask->getSourceRange();
  if (Wrapper && Inside)
    diag(Result.SourceManager->getFileLoc(Inside->getBeginLoc()),
         "%0 uses the argument as the mask of this %1", DiagnosticIDs::Note)
        << Wrapper << Name;
  // An __activemask() returned by a helper: show where it is.
  const SourceManager &SM = *Result.SourceManager;
  SourceLocation SourceLoc = SM.getFileLoc(Source->getBeginLoc());
  SourceRange Written(Loc, Defaulted ? Loc : SM.getFileLoc(Mask->getEndLoc()));
  bool InMaskText = !Defaulted && SM.isWrittenInSameFile(SourceLoc, Written.getBegin()) &&
                    !SM.isBeforeInTranslationUnit(SourceLoc, Written.getBegin()) &&
                    !SM.isBeforeInTranslationUnit(Written.getEnd(), SourceLoc);
  if (!Through && !InMaskText)
    diag(SourceLoc, "the mask is this __activemask(), returned by a helper", DiagnosticIDs::Note);
  if (Through)
    diag(Result.SourceManager->getFileLoc(Source->getBeginLoc()),
         "'%0' is set from %select{__activemask()|inline PTX activemask}1 here",
         DiagnosticIDs::Note)
        << Through->getName() << (isa<GCCAsmStmt>(Source) ? 1 : 0);
  if (Divergence && Divergence->Condition)
    diag(Result.SourceManager->getFileLoc(Divergence->Condition->getBeginLoc()),
         "the lanes diverge here: this condition differs between the lanes of a warp",
         DiagnosticIDs::Note);
}

} // namespace warp_tidy
