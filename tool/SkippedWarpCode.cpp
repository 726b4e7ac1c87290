//===--- SkippedWarpCode.cpp - Warp code in text a pass did not compile ---===//

#include "SkippedWarpCode.h"
#include "arch/ArchConditions.h"
#include "ast/ThreadIndex.h"
#include "intrinsics/CollectiveCalls.h"
#include "intrinsics/InlinePtx.h"
#include "intrinsics/WarpIntrinsics.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/MacroInfo.h"

using namespace clang;

namespace warp_tidy {

namespace {

/// Library names that stand for warp-level code even though their bodies
/// live in system headers the recorder does not look into.
bool namesWarpLibrary(llvm::StringRef Name) {
  static const llvm::StringSet<> Names = {"cub",
                                          "WarpReduce",
                                          "WarpScan",
                                          "WarpExchange",
                                          "WarpLoad",
                                          "WarpStore",
                                          "WarpMergeSort",
                                          "tiled_partition",
                                          "coalesced_threads",
                                          "thread_block_tile",
                                          "coalesced_group",
                                          "labeled_partition",
                                          "binary_partition",
                                          "wmma"};
  return Names.contains(Name);
}

bool isAsmKeyword(llvm::StringRef Name) {
  return Name == "asm" || Name == "__asm__" || Name == "__asm";
}

/// Whether inline PTX with this template can change what a check reports:
/// it holds a collective that the checks' own PTX reader maps onto an
/// intrinsic, or reads a lane-varying register (%laneid, %tid, ...) that the
/// uniformity analysis reads. Any other asm (mma.sync, ldmatrix, cvt, ld)
/// computes its outputs from its operands: scalar code to the analysis, as
/// arithmetic in a skipped branch is.
bool asmTemplateMattersToChecks(llvm::StringRef Template) {
  if (isLaneVaryingAsm(Template.data(), Template.size()))
    return true;
  return llvm::any_of(parseInlinePtxCollectives(Template),
                      [](const PtxCollective &C) { return C.Equivalent != nullptr; });
}

/// The template of the asm statement whose keyword ends at \p After, when
/// it is written as plain string literals (after `volatile`, `goto` or
/// `inline`): their contents, concatenated, with escapes decoded. Anything
/// else (a macro, a prefixed or raw literal, text this cannot follow) gives
/// std::nullopt, and the statement counts as warp code.
std::optional<std::string> literalAsmTemplate(const SourceManager &SM, FileID File,
                                              llvm::StringRef Buffer, unsigned After,
                                              const LangOptions &LangOpts) {
  Lexer L(SM.getLocForStartOfFile(File), LangOpts, Buffer.begin(), Buffer.begin() + After,
          Buffer.end());
  L.SetCommentRetentionState(false);
  Token T;
  do
    L.LexFromRawLexer(T);
  while (T.is(tok::raw_identifier) &&
         llvm::is_contained({"volatile", "__volatile__", "__volatile", "goto", "inline"},
                            T.getRawIdentifier()));
  if (T.isNot(tok::l_paren))
    return std::nullopt;
  std::string Template;
  bool AnyLiteral = false;
  for (L.LexFromRawLexer(T); T.is(tok::string_literal); L.LexFromRawLexer(T)) {
    llvm::StringRef Spelling(T.getLiteralData(), T.getLength());
    if (Spelling.size() < 2 || !Spelling.starts_with("\"") || !Spelling.ends_with("\""))
      return std::nullopt;
    Spelling = Spelling.drop_front().drop_back();
    for (size_t I = 0; I < Spelling.size(); ++I) {
      char C = Spelling[I];
      if (C == '\\' && I + 1 < Spelling.size()) {
        char Escaped = Spelling[++I];
        C = Escaped == 'n' ? '\n' : Escaped == 't' ? '\t' : Escaped;
      }
      Template += C;
    }
    AnyLiteral = true;
  }
  if (!AnyLiteral || !T.isOneOf(tok::colon, tok::coloncolon, tok::r_paren))
    return std::nullopt;
  return Template;
}

bool namesWarpIntrinsic(llvm::StringRef Name) {
  static const llvm::StringSet<> Names = [] {
    llvm::StringSet<> S;
    for (const WarpIntrinsic &I : allWarpIntrinsics())
      S.insert(I.Name);
    return S;
  }();
  return Names.contains(Name);
}

/// The name a call is made through, also in templates (dependent callees).
llvm::StringRef calleeName(const CallExpr *Call) {
  const Expr *Callee = Call->getCallee()->IgnoreParenImpCasts();
  if (const auto *Ref = dyn_cast<DeclRefExpr>(Callee))
    return Ref->getDecl()->getIdentifier() ? Ref->getDecl()->getName() : "";
  if (const auto *Member = dyn_cast<MemberExpr>(Callee))
    return Member->getMemberDecl()->getIdentifier() ? Member->getMemberDecl()->getName() : "";
  if (const auto *Lookup = dyn_cast<UnresolvedLookupExpr>(Callee))
    return Lookup->getName().isIdentifier() ? Lookup->getName().getAsIdentifierInfo()->getName()
                                            : "";
  if (const auto *Member = dyn_cast<UnresolvedMemberExpr>(Callee))
    return Member->getMemberName().isIdentifier()
               ? Member->getMemberName().getAsIdentifierInfo()->getName()
               : "";
  if (const auto *Member = dyn_cast<CXXDependentScopeMemberExpr>(Callee))
    return Member->getMember().isIdentifier() ? Member->getMember().getAsIdentifierInfo()->getName()
                                              : "";
  return "";
}

/// A call that is warp code by itself: a collective, or a warp intrinsic's
/// name (also unresolved, in templates).
bool callIsWarpCode(const CallExpr *Call, llvm::StringRef Name) {
  return recogniseCollective(Call) || namesWarpIntrinsic(Name);
}

/// Inline asm that matters to the checks (asmTemplateMattersToChecks); asm
/// that is not GCC-style is taken to matter.
bool asmIsWarpCode(const AsmStmt *Asm) {
  const auto *Gcc = dyn_cast<GCCAsmStmt>(Asm);
  return !Gcc || asmTemplateMattersToChecks(Gcc->getAsmString());
}

/// Names of user functions that may reach a warp collective: those calling
/// one (or holding inline asm that matters to the checks) and, transitively,
/// their callers. By name, which over-approximates (overloads, methods of
/// other classes): towards running the extra pass.
///
/// One walk of the unit's own code. A call or asm counts for every named
/// function whose body it lies in (a local class's method inside a kernel
/// counts for both), which is what scanning each body on its own gave, at
/// half the cost on units made mostly of function bodies.
class WarpReach : public RecursiveASTVisitor<WarpReach> {
public:
  explicit WarpReach(const SourceManager &SM) : SM(SM) {}

  /// Runs the walk; then the bodies the walk did not enter (a defaulted
  /// function's generated body) are walked on their own, for their own
  /// functions only, as the functions they declare were never found.
  void walk(TranslationUnitDecl *TU) {
    TraverseDecl(TU);
    auto NotEntered = std::move(Pending);
    Pending.clear();
    ++NotRegistering;
    for (auto &[Body, Entries] : NotEntered) {
      Open.assign(Entries.begin(), Entries.end());
      RecursiveASTVisitor::TraverseStmt(const_cast<Stmt *>(Body));
    }
    Open.clear();
    --NotRegistering;
  }

  bool TraverseDecl(Decl *D) {
    // Outside any body, system headers are not the unit's code. Inside one
    // (a header included in a function), what they hold still runs as part
    // of that body, but declares no function of the unit.
    if (D && !isa<TranslationUnitDecl>(D) && SM.isInSystemHeader(D->getLocation())) {
      if (Open.empty())
        return true;
      ++NotRegistering;
      bool Result = RecursiveASTVisitor::TraverseDecl(D);
      --NotRegistering;
      return Result;
    }
    return RecursiveASTVisitor::TraverseDecl(D);
  }
  bool TraverseStmt(Stmt *S, DataRecursionQueue *Queue = nullptr) {
    // A function's body is entered from its declaration, never queued.
    auto It = Queue || !S ? Pending.end() : Pending.find(S);
    if (It == Pending.end())
      return RecursiveASTVisitor::TraverseStmt(S, Queue);
    llvm::SmallVector<Entry *, 2> Entries = std::move(It->second);
    Pending.erase(It);
    size_t Depth = Open.size();
    Open.append(Entries.begin(), Entries.end());
    bool Result = RecursiveASTVisitor::TraverseStmt(S, Queue);
    Open.truncate(Depth);
    return Result;
  }
  bool VisitFunctionDecl(FunctionDecl *F) {
    if (NotRegistering || !F->getIdentifier() || !F->doesThisDeclarationHaveABody())
      return true;
    Entry &E = Functions[F->getName()];
    if (const Stmt *Body = F->getBody())
      Pending[Body].push_back(&E);
    return true;
  }
  bool VisitCallExpr(CallExpr *Call) {
    if (Open.empty())
      return true;
    llvm::StringRef Name = calleeName(Call);
    bool Direct = callIsWarpCode(Call, Name);
    for (Entry *E : Open) {
      if (Direct)
        E->Direct = true;
      else if (!Name.empty())
        E->Callees.insert(Name);
    }
    return true;
  }
  bool VisitAsmStmt(AsmStmt *Asm) {
    if (Open.empty())
      return true;
    bool Matters = asmIsWarpCode(Asm);
    for (Entry *E : Open)
      E->Direct |= Matters;
    return true;
  }

  llvm::StringSet<> reaching() const {
    llvm::StringSet<> Out;
    for (const auto &F : Functions)
      if (F.second.Direct)
        Out.insert(F.first());
    for (bool Changed = true; Changed;) {
      Changed = false;
      for (const auto &F : Functions) {
        if (Out.contains(F.first()))
          continue;
        for (const auto &C : F.second.Callees)
          if (Out.contains(C.first())) {
            Out.insert(F.first());
            Changed = true;
            break;
          }
      }
    }
    return Out;
  }

private:
  struct Entry {
    bool Direct = false;
    llvm::StringSet<> Callees;
  };
  const SourceManager &SM;
  /// StringMap entries keep their address while the map grows.
  llvm::StringMap<Entry> Functions;
  /// Bodies of named functions not entered yet, with the functions' entries.
  llvm::DenseMap<const Stmt *, llvm::SmallVector<Entry *, 2>> Pending;
  /// The entries of the bodies the walk is in, outermost first.
  llvm::SmallVector<Entry *, 4> Open;
  /// Inside a system header's declaration within a body, or a body walked
  /// on its own: the functions declared there are not the unit's own.
  unsigned NotRegistering = 0;
};

/// Words that qualify a declaration but never change a value, a mask or
/// which code runs: a macro that stands for these alone (`__restrict__` on
/// one path, nothing on another) cannot change what warp code computes.
bool isQualifierWord(llvm::StringRef Word) {
  static const llvm::StringSet<> Words = {
      "__restrict__", "__restrict", "restrict",   "const",           "volatile",
      "inline",       "__inline__", "__inline",   "__forceinline__", "__noinline__",
      "static",       "constexpr",  "__device__", "__host__"};
  return Words.contains(Word);
}

} // namespace

SkippedWarpCode::SkippedWarpCode(ASTContext &Ctx, Preprocessor &PP, const ArchGuardMap &Map)
    : Ctx(Ctx), PP(PP), Map(Map) {}

SkippedWarpCode::Tokens SkippedWarpCode::lex(FileID File, unsigned Begin, unsigned End) const {
  Tokens Out;
  const SourceManager &SM = Ctx.getSourceManager();
  bool Invalid = false;
  llvm::StringRef Buffer = SM.getBufferData(File, &Invalid);
  if (Invalid || End > Buffer.size() || Begin >= End)
    return Out;
  Lexer L(SM.getLocForStartOfFile(File), PP.getLangOpts(), Buffer.begin(), Buffer.begin() + Begin,
          Buffer.end());
  L.SetCommentRetentionState(false);
  auto OffsetOf = [&](const Token &T) {
    return static_cast<unsigned>(SM.getFileOffset(T.getLocation()));
  };
  Token T, Previous;
  Previous.startToken();
  bool HavePrevious = false, DirectiveName = false;
  bool ExpectMacroName = false; // just after `#define` / `#undef`
  int OpenMacro = -1;           // the directive whose tokens follow
  unsigned MacroDirective = 0;  // the offset of its `#`
  while (true) {
    L.LexFromRawLexer(T);
    if (T.is(tok::eof) || OffsetOf(T) >= End)
      break;
    if (T.isAtStartOfLine())
      OpenMacro = -1;
    if (OpenMacro >= 0) {
      // A token of the replacement list (or the parameter list).
      MacroPiece &M = Out.Macros[OpenMacro];
      M.QualifiersOnly &= T.is(tok::raw_identifier) && isQualifierWord(T.getRawIdentifier());
    }
    if (ExpectMacroName) {
      if (T.is(tok::raw_identifier)) {
        Out.Macros.push_back({MacroDirective, T.getRawIdentifier().str(), true});
        OpenMacro = static_cast<int>(Out.Macros.size()) - 1;
      }
      ExpectMacroName = false;
      Previous = T;
      HavePrevious = true;
      continue;
    }
    if (T.is(tok::hash) && T.isAtStartOfLine()) {
      DirectiveName = true;
      Previous = T;
      HavePrevious = true;
      continue;
    }
    if (DirectiveName && T.is(tok::raw_identifier)) {
      llvm::StringRef D = T.getRawIdentifier();
      if (D == "define" || D == "undef") {
        ExpectMacroName = true;
        MacroDirective = OffsetOf(Previous);
      } else if (D == "include" || D == "include_next" || D == "import")
        Out.Direct.push_back(OffsetOf(Previous));
    }
    DirectiveName = false;
    if (T.is(tok::l_paren) && HavePrevious && Previous.is(tok::raw_identifier))
      Out.Calls.push_back({OffsetOf(Previous), Previous.getRawIdentifier().str()});
    if (T.is(tok::raw_identifier)) {
      llvm::StringRef Name = T.getRawIdentifier();
      if (namesWarpIntrinsic(Name) || namesWarpLibrary(Name))
        Out.Direct.push_back(OffsetOf(T));
      else if (isAsmKeyword(Name)) {
        std::optional<std::string> Template =
            literalAsmTemplate(SM, File, Buffer, OffsetOf(T) + T.getLength(), PP.getLangOpts());
        if (!Template || asmTemplateMattersToChecks(*Template))
          Out.Direct.push_back(OffsetOf(T));
      }
    }
    Previous = T;
    HavePrevious = true;
  }
  return Out;
}

bool SkippedWarpCode::reaches(llvm::StringRef Callee) {
  if (!Reaching) {
    WarpReach Reach(Ctx.getSourceManager());
    Reach.walk(Ctx.getTranslationUnitDecl());
    Reaching = Reach.reaching();
  }
  return Reaching->contains(Callee);
}

// Nested macro directives are followed a few levels deep; past that, a
// directive counts as warp code.
static constexpr unsigned MaxMacroDepth = 4;

bool SkippedWarpCode::holdsWarpCode(FileID File, unsigned Begin, unsigned End, unsigned Depth) {
  Tokens Found = lex(File, Begin, End);
  if (!Found.Direct.empty())
    return true;
  for (const auto &Call : Found.Calls)
    if (reaches(Call.second))
      return true;
  for (const MacroPiece &Macro : Found.Macros)
    if (macroMayChangeWarpCode(Macro, Depth + 1))
      return true;
  return false;
}

/// Does the macro of this pass named \p II stand for qualifier words alone
/// (or nothing)?
static bool definedAsQualifiers(Preprocessor &PP, const IdentifierInfo *II) {
  const MacroInfo *MI = PP.getMacroInfo(II);
  if (!MI || MI->isFunctionLike())
    return false;
  for (const Token &T : MI->tokens())
    if (!T.getIdentifierInfo() || !isQualifierWord(T.getIdentifierInfo()->getName()))
      return false;
  return true;
}

bool SkippedWarpCode::macroMayChangeWarpCode(const MacroPiece &Macro, unsigned Depth) {
  if (Depth > MaxMacroDepth)
    return true;
  const std::string Key = Macro.Name + (Macro.QualifiersOnly ? "/q" : "");
  auto Known = MacroVerdicts.find(Key);
  if (Known != MacroVerdicts.end())
    return Known->second;
  // Provisionally no, so that a conditional naming the macro it sits in
  // does not recurse forever; replaced below.
  MacroVerdicts[Key] = false;
  bool Verdict = false;
  // A macro of this pass (defined here, or defined once and undefined) is
  // expanded or tested in code this pass compiled; a new definition may
  // change any of it, unless both stand for qualifier words alone.
  if (const IdentifierInfo *II = PP.getIdentifierInfo(Macro.Name); II && II->hadMacroDefinition())
    Verdict = !(Macro.QualifiersOnly && definedAsQualifiers(PP, II));
  llvm::StringRef Name = Macro.Name;
  const SourceManager &SM = Ctx.getSourceManager();
  for (size_t I = 0; I < Map.Branches.size() && !Verdict; ++I) {
    const GuardBranch &B = Map.Branches[I];
    bool Tests = false;
    for (const CondToken &T : lexConditionText(B.Condition))
      Tests |= T.Kind == CondToken::Identifier && T.Text == Name;
    if (!Tests)
      continue;
    const GuardChain &Chain = Map.Chains[B.Chain];
    if (Chain.Begin.isInvalid() || Chain.End.isInvalid() || !Chain.Begin.isFileID() ||
        SM.getFileID(Chain.Begin) != B.File) {
      Verdict = true; // a chain this cannot read: assume the worst
      break;
    }
    Verdict =
        holdsWarpCode(B.File, SM.getFileOffset(Chain.Begin), SM.getFileOffset(Chain.End), Depth);
  }
  MacroVerdicts[Key] = Verdict;
  return Verdict;
}

SkippedWarpCode::Pieces SkippedWarpCode::scan(FileID File, unsigned Begin, unsigned End) {
  Tokens Found = lex(File, Begin, End);
  Pieces Out;
  Out.Warp = std::move(Found.Direct);
  for (const auto &[Offset, Callee] : Found.Calls)
    (reaches(Callee) ? Out.Warp : Out.Other).push_back(Offset);
  for (const MacroPiece &Macro : Found.Macros)
    (macroMayChangeWarpCode(Macro, 0) ? Out.Warp : Out.Other).push_back(Macro.Offset);
  return Out;
}

} // namespace warp_tidy
