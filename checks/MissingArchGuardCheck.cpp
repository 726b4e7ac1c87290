//===--- MissingArchGuardCheck.cpp - warp-missing-arch-guard --------------===//
//
// Calls come from two places: the AST (code the analysed pass compiled;
// warp-tidy's forced-include shim declares the sm_70/sm_80 intrinsics for
// older archs so such calls parse instead of being "undeclared identifier"
// errors) and ArchGuardMap::Calls (text the analysed pass skipped). Both are
// judged the same way: which target archs compile this location?
//
//===----------------------------------------------------------------------===//

#include "MissingArchGuardCheck.h"
#include "arch/TargetArchs.h"
#include "ast/UnitParents.h"
#include "intrinsics/CollectiveCalls.h"
#include "intrinsics/WarpCollective.h"
#include "matchers/CheckMatchers.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/SmallSet.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace warp_tidy {

MissingArchGuardCheck::MissingArchGuardCheck(StringRef Name, tidy::ClangTidyContext *Context)
    : WarpCheck(Name, Context),
      MinimumArchText(Options.getLocalOrGlobal(MinimumArchOption, "").str()),
      MinimumArch(parseMinimumArch(MinimumArchText)) {}

void MissingArchGuardCheck::storeOptions(tidy::ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, MinimumArchOption, MinimumArchText);
}

void MissingArchGuardCheck::registerPPCallbacks(const SourceManager &, Preprocessor *PP,
                                                Preprocessor *) {
  Map = std::make_shared<ArchGuardMap>();
  AstCalls.clear();
  AsmInstructions.clear();
  Functions.clear();
  Ctx = nullptr;
  DeviceCompile = PP->getLangOpts().CUDAIsDevice;
  Preproc = PP;
  PP->addPPCallbacks(makeArchGuardRecorder(*PP, Map, MinimumArch));
}

static std::vector<StringRef> archLimitedNames() {
  std::vector<StringRef> Names;
  for (const WarpIntrinsic &I : allWarpIntrinsics())
    if (I.Scope.empty() && I.MinArch > 30)
      Names.push_back(I.Name);
  return Names;
}

void MissingArchGuardCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(translationUnitDecl().bind("tu"), this);
  Finder->addMatcher(callExpr(calleeNamedAnyOf(archLimitedNames()),
                              unless(isExpansionInSystemHeader()),
                              unless(isInDiscardedConstexprBranch()))
                         .bind("call"),
                     this);
  Finder->addMatcher(functionDecl(isProjectFunctionDefinition()).bind("function"), this);
  Finder->addMatcher(
      asmStmt(unless(isExpansionInSystemHeader()), unless(isInDiscardedConstexprBranch()))
          .bind("asm"),
      this);
}

/// The variable an asm statement's operand names, when it is one.
static std::string asmVariable(const Expr *E) {
  const auto *Ref = dyn_cast_or_null<DeclRefExpr>(E ? E->IgnoreParenImpCasts() : nullptr);
  return Ref && isa<VarDecl>(Ref->getDecl()) ? Ref->getDecl()->getName().str() : "";
}

void MissingArchGuardCheck::check(const MatchFinder::MatchResult &Result) {
  Ctx = Result.Context;
  if (const auto *F = Result.Nodes.getNodeAs<FunctionDecl>("function")) {
    if (F->hasBody())
      Functions.push_back(F);
    return;
  }
  if (const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call"))
    if (std::optional<CollectiveCall> C = recogniseCollective(Call))
      AstCalls.push_back({Call, C->Intrinsic});
  if (const auto *Asm = Result.Nodes.getNodeAs<GCCAsmStmt>("asm"))
    for (const WarpCollective &C : warpCollectivesAt(Asm)) {
      if (C.Intrinsic->MinArch <= 30)
        continue;
      AsmInstructions.push_back({Asm, C.Intrinsic, C.displayName(), asmVariable(C.Destination.E)});
    }
}

void MissingArchGuardCheck::onEndOfTranslationUnit() {
  if (Map && Preproc)
    Map->readTargets(*Preproc, MinimumArch);
  // The host pass (clangd, --cuda-host-only) compiles no device code.
  if (!Ctx || !Map || !DeviceCompile || Map->Archs.empty()) {
    Map.reset();
    return;
  }
  reportMissingGuards();
  reportMissingFallbacks();
  Map.reset();
  AstCalls.clear();
  AsmInstructions.clear();
  Functions.clear();
}

namespace {

std::string archList(const ArchGuardMap &Map, uint64_t Mask) {
  std::vector<unsigned> Archs;
  for (unsigned I = 0; I < Map.Archs.size(); ++I)
    if (Mask >> I & 1)
      Archs.push_back(Map.Archs[I]);
  return describeArchs(Archs);
}

uint64_t archsBelow(const ArchGuardMap &Map, unsigned MinArch) {
  uint64_t M = 0;
  for (unsigned I = 0; I < Map.Archs.size(); ++I)
    if (Map.Archs[I] < MinArch)
      M |= 1ull << I;
  return M;
}

/// `x op= value` for the combine step of a reduction, per __reduce_ kind.
std::string combine(StringRef Intrinsic, StringRef Acc, StringRef Value) {
  if (Intrinsic.contains("_add_"))
    return (Acc + " += " + Value).str();
  if (Intrinsic.contains("_min_"))
    return (Acc + " = min(" + Acc + ", " + Value + ")").str();
  if (Intrinsic.contains("_max_"))
    return (Acc + " = max(" + Acc + ", " + Value + ")").str();
  if (Intrinsic.contains("_and_"))
    return (Acc + " &= " + Value).str();
  if (Intrinsic.contains("_or_"))
    return (Acc + " |= " + Value).str();
  return (Acc + " ^= " + Value).str();
}

/// Shuffle-based code computing what `X = Intrinsic(Mask, X);` computes, for
/// architectures without __reduce_*_sync. A full mask gets the usual xor
/// butterfly (every lane ends with the result, as with __reduce); any other
/// mask gets a loop over the named lanes, which only reads lanes that take
/// part and so stays correct for partial masks.
std::string reductionFallback(StringRef Intrinsic, StringRef X, StringRef Mask, bool FullMask) {
  if (FullMask)
    return "for (int warpTidyOffset = 16; warpTidyOffset > 0; warpTidyOffset /= 2) " +
           combine(Intrinsic, X,
                   ("__shfl_xor_sync(" + Mask + ", " + X + ", warpTidyOffset)").str()) +
           ";";
  bool Idempotent =
      Intrinsic.contains("_min_") || Intrinsic.contains("_max_") || Intrinsic.contains("_and_");
  std::string Init = Idempotent ? X.str() : "0";
  return ("{ decltype(" + X + ") warpTidyAcc = " + Init +
          "; for (int warpTidyLane = 0; warpTidyLane < 32; ++warpTidyLane) if ((" + Mask +
          ") >> warpTidyLane & 1u) " +
          combine(Intrinsic, "warpTidyAcc",
                  ("__shfl_sync(" + Mask + ", " + X + ", warpTidyLane)").str()) +
          "; " + X + " = warpTidyAcc; }")
      .str();
}

/// Offset of the start of \p Loc's line and its indentation.
std::pair<SourceLocation, std::string> lineStart(SourceLocation Loc, const SourceManager &SM) {
  auto [FID, Offset] = SM.getDecomposedLoc(Loc);
  StringRef Buffer = SM.getBufferData(FID);
  size_t Start = Buffer.rfind('\n', Offset == 0 ? 0 : Offset - 1);
  Start = Start == StringRef::npos ? 0 : Start + 1;
  std::string Indent;
  for (size_t I = Start; I < Offset && (Buffer[I] == ' ' || Buffer[I] == '\t'); ++I)
    Indent += Buffer[I];
  return {SM.getComposedLoc(FID, Start), Indent};
}

/// True when only whitespace precedes \p Loc on its line.
bool startsLine(SourceLocation Loc, const SourceManager &SM) {
  auto [FID, Offset] = SM.getDecomposedLoc(Loc);
  StringRef Buffer = SM.getBufferData(FID);
  for (size_t I = Offset; I > 0; --I) {
    char C = Buffer[I - 1];
    if (C == '\n')
      return true;
    if (C != ' ' && C != '\t')
      return false;
  }
  return true;
}

/// Location just after the end of \p Loc's line (after '\n'), when only
/// whitespace or a line comment follows \p Loc; invalid otherwise.
SourceLocation endOfLineAfter(SourceLocation Loc, const SourceManager &SM) {
  auto [FID, Offset] = SM.getDecomposedLoc(Loc);
  StringRef Buffer = SM.getBufferData(FID);
  size_t I = Offset;
  while (I < Buffer.size() && (Buffer[I] == ' ' || Buffer[I] == '\t' || Buffer[I] == '\r'))
    ++I;
  if (Buffer.substr(I).starts_with("//"))
    I = Buffer.find('\n', I);
  if (I == StringRef::npos || I >= Buffer.size() || Buffer[I] != '\n')
    return SourceLocation();
  return SM.getComposedLoc(FID, I + 1);
}

const DeclRefExpr *asVarRef(const Expr *E) {
  const auto *Ref = dyn_cast_or_null<DeclRefExpr>(E ? E->IgnoreParenImpCasts() : nullptr);
  return Ref && isa<VarDecl>(Ref->getDecl()) ? Ref : nullptr;
}

/// Collects references to variables named Name in a function body.
struct RefCollector : RecursiveASTVisitor<RefCollector> {
  StringRef Name;
  std::vector<const DeclRefExpr *> Refs;
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (const auto *V = dyn_cast<VarDecl>(E->getDecl()))
      if (V->getIdentifier() && V->getName() == Name)
        Refs.push_back(E);
    return true;
  }
};

} // namespace

void MissingArchGuardCheck::reportMissingGuards() {
  const SourceManager &SM = Ctx->getSourceManager();
  llvm::SmallSet<SourceLocation, 16> Seen;

  struct Site {
    SourceLocation Loc;
    const WarpIntrinsic *Intrinsic;
    const CallExpr *Call; // null for textual sites and inline PTX
    std::string Name;     // how the message names it
    bool InlinePtx = false;
  };
  std::vector<Site> Sites;
  for (const AstCall &C : AstCalls)
    Sites.push_back(
        {SM.getFileLoc(C.Call->getBeginLoc()), C.Intrinsic, C.Call, C.Intrinsic->Name.str()});
  for (const AsmInstruction &A : AsmInstructions)
    Sites.push_back({SM.getFileLoc(A.Asm->getBeginLoc()), A.Intrinsic, nullptr, A.Name, true});
  for (const TextualCall &C : Map->Calls)
    Sites.push_back({C.Loc, C.Intrinsic, nullptr,
                     C.PtxInstruction.empty() ? C.Intrinsic->Name.str()
                                              : "inline PTX '" + C.PtxInstruction + "'",
                     !C.PtxInstruction.empty()});

  for (const Site &S : Sites) {
    if (!Seen.insert(S.Loc).second)
      continue;
    ArchMask Compiled = Map->archsAt(S.Loc, SM);
    uint64_t Bad = Compiled.Definite & archsBelow(*Map, S.Intrinsic->MinArch);
    if (!Bad)
      continue;
    unsigned Need = S.Intrinsic->MinArch;
    {
      auto D = diag(S.Loc, "%0 needs sm_%1 or newer but this %select{call|instruction}5 is "
                           "compiled for %2 (the compile targets %3), where it does not "
                           "exist: %select{nvcc rejects it as undefined|ptxas rejects it}5; "
                           "guard it with '#if __CUDA_ARCH__ >= %4' and an '#else' fallback "
                           "for older architectures (or NV_IF_ELSE_TARGET(NV_PROVIDES_SM_%1, "
                           "...)), or set the project's MinimumArch")
               << S.Name << Need << archList(*Map, Bad) << describeArchs(Map->Archs) << Need * 10
               << (S.InlinePtx ? 1 : 0);

      // Fix-it: `x = __reduce_op_sync(m, x);` on its own line(s) gets wrapped
      // in a guard with a shuffle fallback.
      if (S.Call && S.Intrinsic->Kind == CollectiveKind::Reduce && S.Call->getNumArgs() == 2 &&
          !S.Call->getBeginLoc().isMacroID()) {
        DynTypedNode Parent = firstParent(*S.Call, *Ctx);
        const Expr *Child = S.Call;
        while (Parent.get<ImplicitCastExpr>()) {
          Child = Parent.get<ImplicitCastExpr>();
          Parent = firstParent(*Child, *Ctx);
        }
        const auto *Assign = Parent.get<BinaryOperator>();
        const DeclRefExpr *Lhs = Assign ? asVarRef(Assign->getLHS()) : nullptr;
        const DeclRefExpr *Arg = asVarRef(S.Call->getArg(1));
        bool Statement = Assign && firstParent(*Assign, *Ctx).get<CompoundStmt>();
        if (Assign && Assign->getOpcode() == BO_Assign && Lhs && Arg &&
            Lhs->getDecl() == Arg->getDecl() && Statement && Assign->getBeginLoc().isFileID() &&
            startsLine(Assign->getBeginLoc(), SM)) {
          SourceLocation Semi = Lexer::findLocationAfterToken(Assign->getEndLoc(), tok::semi, SM,
                                                              getLangOpts(), false);
          SourceLocation After = Semi.isValid() ? endOfLineAfter(Semi, SM) : SourceLocation();
          if (After.isValid()) {
            auto [Start, Indent] = lineStart(Assign->getBeginLoc(), SM);
            StringRef X = Lhs->getDecl()->getName();
            std::string MaskText = Lexer::getSourceText(CharSourceRange::getTokenRange(
                                                            S.Call->getArg(0)->getSourceRange()),
                                                        SM, getLangOpts())
                                       .str();
            std::optional<uint32_t> MaskValue = resolveMaskConstant(S.Call->getArg(0), *Ctx);
            std::string Fallback = reductionFallback(S.Intrinsic->Name, X, MaskText,
                                                     MaskValue && *MaskValue == 0xffffffffu);
            D << FixItHint::CreateInsertion(
                     Start, "#if __CUDA_ARCH__ >= " + std::to_string(Need * 10) + "\n")
              << FixItHint::CreateInsertion(After, "#else\n" + Indent + Fallback + "\n#endif\n");
          }
        }
      }

    } // The warning is emitted here, before its notes.

    // Point at the guard that lets the old architectures through.
    std::vector<unsigned> Branches = Map->branchesAt(S.Loc, SM);
    for (auto It = Branches.rbegin(); It != Branches.rend(); ++It) {
      const GuardBranch &B = Map->Branches[*It];
      if (B.Own.Definite & Bad) {
        diag(B.DirectiveLoc, "this guard ('%0') is true for %1", DiagnosticIDs::Note)
            << B.Condition << archList(*Map, B.Own.Definite & Bad);
        break;
      }
    }
  }
}

void MissingArchGuardCheck::reportMissingFallbacks() {
  const SourceManager &SM = Ctx->getSourceManager();
  // Sites with the variable they assign: textual ones carry it; AST ones
  // read it from `x = call` / `x op= call`.
  struct Site {
    SourceLocation Loc;
    const WarpIntrinsic *Intrinsic;
    std::string Var;
    const TextualCall *Text;
    std::string Name; // how the message names it
  };
  std::vector<Site> Sites;
  for (const TextualCall &C : Map->Calls)
    if (!C.AssignedVar.empty())
      Sites.push_back({C.Loc, C.Intrinsic, C.AssignedVar, &C,
                       C.PtxInstruction.empty() ? C.Intrinsic->Name.str()
                                                : "inline PTX '" + C.PtxInstruction + "'"});
  for (const AsmInstruction &A : AsmInstructions)
    if (!A.AssignedVar.empty())
      Sites.push_back(
          {SM.getFileLoc(A.Asm->getBeginLoc()), A.Intrinsic, A.AssignedVar, nullptr, A.Name});
  for (const AstCall &C : AstCalls) {
    const Stmt *Child = C.Call;
    DynTypedNode Parent = firstParent(*Child, *Ctx);
    while (Parent.get<ImplicitCastExpr>() || Parent.get<ParenExpr>()) {
      Child = Parent.get<Expr>();
      Parent = firstParent(*Child, *Ctx);
    }
    if (const auto *Assign = Parent.get<BinaryOperator>())
      if (Assign->isAssignmentOp())
        if (const DeclRefExpr *Lhs = asVarRef(Assign->getLHS()))
          Sites.push_back({SM.getFileLoc(C.Call->getBeginLoc()), C.Intrinsic,
                           Lhs->getDecl()->getName().str(), nullptr, C.Intrinsic->Name.str()});
  }

  llvm::SmallSet<unsigned, 8> ReportedChains;
  for (const Site &S : Sites) {
    std::vector<unsigned> Branches = Map->branchesAt(S.Loc, SM);
    // The innermost guard without an else that some target arch skips.
    for (auto It = Branches.rbegin(); It != Branches.rend(); ++It) {
      const GuardBranch &B = Map->Branches[*It];
      const GuardChain &C = Map->Chains[B.Chain];
      if (C.HasElse || C.End.isInvalid())
        continue;
      uint64_t Taken = 0;
      for (unsigned Index : C.Branches)
        Taken |= Map->Branches[Index].Own.Possible;
      // Archs reaching the chain: the branches around it, not its own.
      uint64_t Reaching = Map->allArchs();
      for (unsigned Outer : Map->branchesAt(C.Begin, SM))
        if (Map->Branches[Outer].Chain != B.Chain)
          Reaching &= Map->Branches[Outer].Own.Definite;
      uint64_t Skipping = Reaching & ~Taken;
      if (!Skipping)
        continue;
      if (ReportedChains.count(B.Chain))
        break;

      // Is the variable read after the guard, in the same function?
      SourceLocation EndLoc = SM.getFileLoc(C.End);
      const FunctionDecl *Function = nullptr;
      for (const FunctionDecl *F : Functions) {
        SourceRange R(SM.getFileLoc(F->getBody()->getBeginLoc()),
                      SM.getFileLoc(F->getBody()->getEndLoc()));
        if (SM.isPointWithin(SM.getFileLoc(C.Begin), R.getBegin(), R.getEnd()) &&
            (!Function || SM.isBeforeInTranslationUnit(
                              SM.getFileLoc(Function->getBody()->getBeginLoc()), R.getBegin())))
          Function = F;
      }
      if (!Function)
        break;
      RefCollector Refs;
      Refs.Name = S.Var;
      Refs.TraverseStmt(const_cast<Stmt *>(Function->getBody()));
      const DeclRefExpr *Use = nullptr;
      for (const DeclRefExpr *R : Refs.Refs) {
        SourceLocation L = SM.getFileLoc(R->getLocation());
        const auto *V = cast<VarDecl>(R->getDecl());
        if (SM.isBeforeInTranslationUnit(EndLoc, L) &&
            SM.isBeforeInTranslationUnit(SM.getFileLoc(V->getLocation()), SM.getFileLoc(C.Begin)) &&
            (!Use || SM.isBeforeInTranslationUnit(L, SM.getFileLoc(Use->getLocation()))))
          Use = R;
      }
      if (!Use)
        break;
      ReportedChains.insert(B.Chain);

      {
        auto D = diag(C.Begin, "'%0' is computed with %1 only under '%2', which has no "
                               "%select{#else|else branch}3: on %4 the work is silently "
                               "skipped and '%0' is used after the guard with its "
                               "un-reduced per-lane value; add an %select{#else|else "
                               "branch}3 that computes it without %1 (e.g. a "
                               "__shfl_xor_sync loop)")
                 << S.Var << S.Name << B.Condition << (C.Kind == GuardKind::NvTarget ? 1 : 0)
                 << archList(*Map, Skipping);
        // Fix-it for the seed's shape: the guard holds exactly one
        // `x = __reduce_op_sync(m, x);`.
        if (S.Text && S.Text->SimpleReduction && C.Kind == GuardKind::PreprocessorIf &&
            C.Branches.size() == 1) {
          unsigned CallsInBranch = 0;
          for (const TextualCall &T : Map->Calls)
            if (llvm::is_contained(Map->branchesAt(T.Loc, SM), *It))
              ++CallsInBranch;
          auto [EndifLine, EndifIndent] = lineStart(EndLoc, SM);
          auto [StmtLine, StmtIndent] = lineStart(S.Text->StmtBegin, SM);
          if (CallsInBranch == 1 && startsLine(S.Text->StmtBegin, SM)) {
            bool Full =
                S.Text->MaskValue && (uint64_t(*S.Text->MaskValue) & 0xffffffffu) == 0xffffffffu;
            D << FixItHint::CreateInsertion(
                EndifLine, "#else\n" + StmtIndent +
                               reductionFallback(S.Intrinsic->Name, S.Var, S.Text->MaskText, Full) +
                               "\n");
          }
        }
      } // The warning is emitted here, before its note.
      diag(Use->getLocation(), "'%0' is used here, after the guard", DiagnosticIDs::Note) << S.Var;
      break;
    }
  }
}

} // namespace warp_tidy
