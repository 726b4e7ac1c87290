//===--- ArchGuards.cpp - Which target archs compile each piece of code ---===//
//
// The recorder mirrors the preprocessor's conditional stack. Directives the
// preprocessor reports (everything outside skipped text) arrive as
// callbacks; directives inside a branch the analysed pass skipped are never
// reported, so when such a branch closes its text is lexed raw and its
// nested directives are replayed here with the same bookkeeping.
//
//===----------------------------------------------------------------------===//

#include "arch/ArchGuards.h"
#include "arch/ArchGuardRecord.h"
#include "arch/TargetArchs.h"
#include "intrinsics/InlinePtx.h"
#include "clang/Basic/DiagnosticFrontend.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Basic/TargetInfo.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/MacroArgs.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace clang;

namespace warp_tidy {

namespace {

bool isAssignmentOp(const Token &T) {
  switch (T.getKind()) {
  case tok::equal:
  case tok::plusequal:
  case tok::minusequal:
  case tok::starequal:
  case tok::slashequal:
  case tok::percentequal:
  case tok::ampequal:
  case tok::pipeequal:
  case tok::caretequal:
  case tok::lesslessequal:
  case tok::greatergreaterequal:
    return true;
  default:
    return false;
  }
}

class Recorder : public PPCallbacks {
public:
  Recorder(Preprocessor &PP, std::shared_ptr<ArchGuardMap> Map, unsigned MinimumArch)
      : PP(PP), SM(PP.getSourceManager()), Map(std::move(Map)), MinimumArch(MinimumArch) {}

  void If(SourceLocation Loc, SourceRange CondRange, ConditionValueKind V) override {
    if (!open(Loc))
      return;
    std::string Text = conditionText(Loc, CondRange);
    startBranch(Loc, evaluate(lexConditionText(Text), known(V), V == CVK_True), false,
                "#if " + Text, V != CVK_True);
  }
  void Ifdef(SourceLocation Loc, const Token &Name, const MacroDefinition &MD) override {
    if (!open(Loc))
      return;
    std::string N = PP.getSpelling(Name);
    startBranch(Loc, evaluate(lexConditionText("defined(" + N + ")"), bool(MD)), false,
                "#ifdef " + N, !MD);
  }
  void Ifndef(SourceLocation Loc, const Token &Name, const MacroDefinition &MD) override {
    if (!open(Loc))
      return;
    std::string N = PP.getSpelling(Name);
    startBranch(Loc, evaluate(lexConditionText("!defined(" + N + ")"), !MD), false, "#ifndef " + N,
                bool(MD));
  }
  void Elif(SourceLocation Loc, SourceRange CondRange, ConditionValueKind V,
            SourceLocation) override {
    if (!next(Loc))
      return;
    std::string Text = conditionText(Loc, CondRange);
    // Not evaluated: an earlier branch was taken, and the condition's own
    // value is unknown.
    std::optional<bool> Value;
    if (V != CVK_NotEvaluated)
      Value = V == CVK_True;
    startBranch(Loc, evaluate(lexConditionText(Text), V == CVK_True, Value), false, "#elif " + Text,
                V != CVK_True);
  }
  void Elifdef(SourceLocation Loc, const Token &Name, const MacroDefinition &MD) override {
    if (!next(Loc))
      return;
    std::string N = PP.getSpelling(Name);
    startBranch(Loc, evaluate(lexConditionText("defined(" + N + ")"), bool(MD)), false,
                "#elifdef " + N, !MD);
  }
  void Elifdef(SourceLocation Loc, SourceRange CondRange, SourceLocation) override {
    if (!next(Loc))
      return;
    std::string Text = conditionText(Loc, CondRange);
    startBranch(Loc, evaluate(lexConditionText("defined(" + Text + ")"), false), false,
                "#elifdef " + Text, true);
  }
  void Elifndef(SourceLocation Loc, const Token &Name, const MacroDefinition &MD) override {
    if (!next(Loc))
      return;
    std::string N = PP.getSpelling(Name);
    startBranch(Loc, evaluate(lexConditionText("!defined(" + N + ")"), !MD), false,
                "#elifndef " + N, bool(MD));
  }
  void Elifndef(SourceLocation Loc, SourceRange CondRange, SourceLocation) override {
    if (!next(Loc))
      return;
    std::string Text = conditionText(Loc, CondRange);
    startBranch(Loc, evaluate(lexConditionText("!defined(" + Text + ")"), false), false,
                "#elifndef " + Text, true);
  }
  void Else(SourceLocation Loc, SourceLocation) override {
    if (!next(Loc))
      return;
    Open &O = Stack.back();
    bool Taken = !O.AnalysedTaken;
    startBranch(Loc, evaluate({makeCondToken("1", false, true)}, Taken), true, "#else", !Taken);
  }
  void Endif(SourceLocation Loc, SourceLocation) override {
    if (Stack.empty())
      return;
    if (!Stack.back().Ignored) {
      closeBranch(Loc);
      Map->Chains[Stack.back().Chain].End = Loc;
    }
    Stack.pop_back();
  }

  void MacroExpands(const Token &NameTok, const MacroDefinition &, SourceRange Range,
                    const MacroArgs *Args) override;

  /// A PCH warp-tidy built with user headers in it comes with the map of
  /// those headers (ArchGuardRecord.h): it goes in front of this parse's,
  /// as soon as the main file is entered (the PCH is loaded by then, and
  /// the consumers read the map before EndOfMainFile).
  void FileChanged(SourceLocation Loc, FileChangeReason Reason, SrcMgr::CharacteristicKind,
                   FileID) override {
    if (PchChecked || Reason != EnterFile || SM.getFileID(Loc) != SM.getMainFileID())
      return;
    PchChecked = true;
    const std::string &Pch = PP.getPreprocessorOpts().ImplicitPCHInclude;
    if (Pch.empty())
      return;
    auto Buffer = llvm::MemoryBuffer::getFile(guardRecordPath(Pch));
    if (!Buffer)
      return; // No user code in it (or not warp-tidy's).
    initialise();
    std::string Why;
    llvm::Expected<llvm::json::Value> Record = llvm::json::parse((*Buffer)->getBuffer());
    if (!Record)
      Why = llvm::toString(Record.takeError());
    else if (importGuardRecord(*Record, *Map, SM, Why))
      return;
    // Never a different answer: an error makes warp-tidy parse plainly. A
    // built-in diagnostic, not a custom one: clang-tidy's consumer looks the
    // ID up in its own DiagnosticIDs, which do not know this engine's custom
    // IDs (that crashed).
    PP.getDiagnostics().Report(diag::err_fe_error_reading)
        << guardRecordPath(Pch)
        << ("the arch guards recorded with the precompiled header "
            "cannot be used: " +
            Why);
  }

private:
  struct Open {
    bool Ignored = false;
    unsigned Chain = 0;
    ArchMask Covered; ///< Archs an earlier branch already took.
    bool AnalysedTaken = false;
    int Branch = -1;            ///< Current branch index in Map->Branches.
    bool BranchSkipped = false; ///< The analysed pass skipped its text.
  };

  Preprocessor &PP;
  SourceManager &SM;
  std::shared_ptr<ArchGuardMap> Map;
  unsigned MinimumArch;
  std::vector<Open> Stack;
  bool PchChecked = false;
  llvm::DenseMap<const MacroInfo *, std::unique_ptr<CondMacro>> MacroCache;

  static std::optional<bool> known(ConditionValueKind V) {
    if (V == CVK_NotEvaluated)
      return false; // an earlier branch was taken
    return V == CVK_True;
  }

  void initialise() { Map->readTargets(PP, MinimumArch); }

  bool userCode(SourceLocation Loc) const {
    return Loc.isValid() && Loc.isFileID() && !SM.isInSystemHeader(Loc);
  }

  /// The condition of the directive whose name is at \p DirectiveLoc, as
  /// written. From the end of that name, not from the start of \p R: clang's
  /// range begins after a leading `__has_include(...)` (the builtin lexes its
  /// operand itself), which left `) && __CUDA_ARCH__ >= 900` to evaluate.
  std::string conditionText(SourceLocation DirectiveLoc, SourceRange R) const {
    if (R.isInvalid())
      return "";
    SourceLocation Begin = R.getBegin();
    if (DirectiveLoc.isValid() && DirectiveLoc.isFileID() && R.getEnd().isFileID()) {
      SourceLocation AfterName = Lexer::getLocForEndOfToken(DirectiveLoc, 0, SM, PP.getLangOpts());
      if (AfterName.isValid() && SM.getFileID(AfterName) == SM.getFileID(R.getEnd()) &&
          SM.getFileOffset(AfterName) <= SM.getFileOffset(R.getEnd()))
        Begin = AfterName;
    }
    std::string Text = Lexer::getSourceText(CharSourceRange::getTokenRange(Begin, R.getEnd()), SM,
                                            PP.getLangOpts())
                           .str();
    // Line continuations.
    std::string Out;
    for (size_t I = 0; I < Text.size(); ++I) {
      if (Text[I] == '\\' && I + 1 < Text.size() && (Text[I + 1] == '\n' || Text[I + 1] == '\r')) {
        ++I;
        continue;
      }
      Out += Text[I];
    }
    return llvm::StringRef(Out).trim().str();
  }

  const CondMacro *lookupMacro(llvm::StringRef Name) {
    IdentifierInfo *II = PP.getIdentifierInfo(Name);
    const MacroInfo *MI = II ? PP.getMacroInfo(II) : nullptr;
    if (!MI)
      return nullptr;
    std::unique_ptr<CondMacro> &Slot = MacroCache[MI];
    if (!Slot) {
      Slot = std::make_unique<CondMacro>();
      Slot->FunctionLike = MI->isFunctionLike();
      Slot->Variadic = MI->isVariadic();
      for (const IdentifierInfo *P : MI->params())
        Slot->Params.push_back(P->getName().str());
      for (const Token &T : MI->tokens())
        Slot->Body.push_back(convert(T));
    }
    return Slot.get();
  }

  CondToken convert(const Token &T) const {
    std::string Spelling = PP.getSpelling(T);
    bool Ident = T.getIdentifierInfo() != nullptr || T.is(tok::raw_identifier);
    return makeCondToken(Spelling, Ident, T.is(tok::numeric_constant));
  }

  /// Evaluates a condition for every target arch; \p AnalysedValue, when
  /// given, is the preprocessor's own answer for the analysed arch (whether
  /// it takes the branch), \p ConditionValue the value it computed for the
  /// condition itself.
  ArchMask evaluate(const std::vector<CondToken> &Tokens, std::optional<bool> AnalysedValue,
                    std::optional<bool> ConditionValue = std::nullopt) {
    ArchMask M;
    MacroLookup Lookup = [this](llvm::StringRef N) { return lookupMacro(N); };
    // A condition that reads nothing arch-dependent has the preprocessor's
    // value at every arch, also where the evaluator could not compute it
    // (`__has_include`, `__has_cpp_attribute`): fmt's and mdspan's feature
    // tests are no reason to think another arch compiles their other branch.
    if (ConditionValue && !conditionReadsArch(Tokens, Lookup)) {
      if (*ConditionValue)
        M.Definite = M.Possible = Map->allArchs();
      return M;
    }
    for (unsigned I = 0; I < Map->Archs.size(); ++I) {
      unsigned Arch = Map->Archs[I];
      std::optional<int64_t> V;
      if (AnalysedValue && Arch == Map->AnalysedArch)
        V = *AnalysedValue;
      else
        V = evaluateCondition(Tokens, Lookup, Arch * 10);
      uint64_t Bit = 1ull << I;
      if (!V)
        M.Possible |= Bit;
      else if (*V) {
        M.Possible |= Bit;
        M.Definite |= Bit;
      }
    }
    return M;
  }

  bool open(SourceLocation Loc) {
    initialise();
    Open O;
    if (!userCode(Loc)) {
      O.Ignored = true;
      Stack.push_back(O);
      return false;
    }
    O.Chain = Map->Chains.size();
    GuardChain C;
    C.Kind = GuardKind::PreprocessorIf;
    C.Begin = Loc;
    Map->Chains.push_back(C);
    Stack.push_back(O);
    return true;
  }

  bool next(SourceLocation Loc) {
    if (Stack.empty() || Stack.back().Ignored)
      return false;
    closeBranch(Loc);
    return true;
  }

  void startBranch(SourceLocation Loc, ArchMask Cond, bool IsElse, std::string Text,
                   bool SkippedByPP) {
    Open &O = Stack.back();
    GuardBranch B;
    B.File = SM.getFileID(Loc);
    B.Begin = SM.getFileOffset(Loc);
    B.End = B.Begin;
    B.Own = {Cond.Definite & ~O.Covered.Possible, Cond.Possible & ~O.Covered.Definite};
    B.Chain = O.Chain;
    B.Else = IsElse;
    B.DirectiveLoc = Loc;
    B.Condition = std::move(Text);
    B.Compiled = !SkippedByPP;
    O.Covered.Definite |= Cond.Definite;
    O.Covered.Possible |= Cond.Possible;
    if (!SkippedByPP)
      O.AnalysedTaken = true;
    O.Branch = Map->Branches.size();
    O.BranchSkipped = SkippedByPP;
    Map->Chains[O.Chain].Branches.push_back(O.Branch);
    if (IsElse)
      Map->Chains[O.Chain].HasElse = true;
    Map->Branches.push_back(std::move(B));
  }

  void closeBranch(SourceLocation Loc) {
    Open &O = Stack.back();
    if (O.Branch < 0)
      return;
    GuardBranch &B = Map->Branches[O.Branch];
    B.End = SM.getFileOffset(Loc);
    if (O.BranchSkipped)
      scanText(B.File, B.Begin, B.End, /*SkipFirstLine=*/true, /*Directives=*/true);
    O.Branch = -1;
  }

  void scanText(FileID File, unsigned Begin, unsigned End, bool SkipFirstLine, bool Directives);
  void finishStatement(std::vector<Token> &Stmt);
};

// Lexes [Begin, End) of a file raw. Directives (when asked) open nested
// chains exactly like the callbacks do; calls of arch-limited intrinsics are
// collected per statement so their shape (`x = call(...)`) is known.
void Recorder::scanText(FileID File, unsigned Begin, unsigned End, bool SkipFirstLine,
                        bool Directives) {
  bool Invalid = false;
  llvm::StringRef Buffer = SM.getBufferData(File, &Invalid);
  if (Invalid || End > Buffer.size() || Begin >= End)
    return;
  if (SkipFirstLine) {
    // The directive that opened the branch, with its continuation lines.
    size_t I = Begin;
    while (I < End) {
      size_t NL = Buffer.find('\n', I);
      if (NL == llvm::StringRef::npos || NL >= End)
        return;
      size_t Last = NL;
      while (Last > I && (Buffer[Last - 1] == '\r'))
        --Last;
      if (Last > I && Buffer[Last - 1] == '\\') {
        I = NL + 1;
        continue;
      }
      Begin = NL + 1;
      break;
    }
  }
  const LangOptions &LO = PP.getLangOpts();
  // The raw lexer needs the buffer's terminating NUL: lex to the end of the
  // file and stop at End.
  Lexer L(SM.getLocForStartOfFile(File), LO, Buffer.begin(), Buffer.begin() + Begin, Buffer.end());
  SourceLocation StartOfFile = SM.getLocForStartOfFile(File);
  auto PastEnd = [&](const Token &T) {
    return T.is(tok::eof) || static_cast<unsigned>(T.getLocation().getRawEncoding() -
                                                   StartOfFile.getRawEncoding()) >= End;
  };
  std::vector<Token> Stmt;
  size_t BaseDepth = Stack.size();
  // One token of look-ahead: the token that ends a directive line starts
  // the next line and must be seen again.
  std::optional<Token> Pending;
  auto Next = [&](Token &Out) {
    if (Pending) {
      Out = *Pending;
      Pending.reset();
      return;
    }
    L.LexFromRawLexer(Out);
    if (PastEnd(Out)) {
      Out.startToken();
      Out.setKind(tok::eof);
    }
  };
  Token T;
  while (true) {
    Next(T);
    if (T.is(tok::eof))
      break;
    if (Directives && T.is(tok::hash) && T.isAtStartOfLine()) {
      finishStatement(Stmt);
      Token Name;
      L.LexFromRawLexer(Name);
      if (PastEnd(Name))
        break;
      std::string Directive = Name.is(tok::raw_identifier) ? Name.getRawIdentifier().str() : "";
      // The rest of the directive line.
      std::vector<CondToken> Cond;
      std::string CondText;
      Token Rest;
      while (true) {
        L.LexFromRawLexer(Rest);
        if (PastEnd(Rest)) {
          Rest.startToken();
          Rest.setKind(tok::eof);
          break;
        }
        if (Rest.isAtStartOfLine())
          break;
        std::string S = Lexer::getSpelling(Rest, SM, LO);
        Cond.push_back(
            makeCondToken(S, Rest.is(tok::raw_identifier), Rest.is(tok::numeric_constant)));
        CondText += (CondText.empty() ? "" : " ") + S;
      }
      Pending = Rest;
      SourceLocation Loc = Name.getLocation();
      if (Directive == "if" || Directive == "ifdef" || Directive == "ifndef") {
        if (Directive != "if")
          Cond =
              lexConditionText((Directive == "ifdef" ? "defined(" : "!defined(") + CondText + ")");
        open(Loc);
        startBranch(Loc, evaluate(Cond, std::nullopt), false, "#" + Directive + " " + CondText,
                    /*SkippedByPP=*/false);
        // Nested text is scanned as part of this pass, not again on close.
        Stack.back().BranchSkipped = false;
        Map->Branches[Stack.back().Branch].Compiled = false; // inside skipped text
      } else if ((Directive.rfind("elif", 0) == 0 || Directive == "else") &&
                 Stack.size() > BaseDepth) {
        closeBranch(Loc);
        if (Directive == "else")
          Cond = lexConditionText("1");
        else if (Directive == "elifdef")
          Cond = lexConditionText("defined(" + CondText + ")");
        else if (Directive == "elifndef")
          Cond = lexConditionText("!defined(" + CondText + ")");
        startBranch(Loc, evaluate(Cond, std::nullopt), Directive == "else",
                    "#" + Directive + (CondText.empty() ? "" : " " + CondText), false);
        Stack.back().BranchSkipped = false;
        Map->Branches[Stack.back().Branch].Compiled = false; // inside skipped text
      } else if (Directive == "endif" && Stack.size() > BaseDepth) {
        closeBranch(Loc);
        Map->Chains[Stack.back().Chain].End = Loc;
        Stack.pop_back();
      }
      continue;
    }
    if (T.isOneOf(tok::semi, tok::l_brace, tok::r_brace)) {
      if (T.is(tok::semi))
        Stmt.push_back(T);
      finishStatement(Stmt);
      continue;
    }
    Stmt.push_back(T);
  }
  finishStatement(Stmt);
  // Unterminated nested chains (malformed text): close them at End.
  while (Stack.size() > BaseDepth) {
    SourceLocation EndLoc = SM.getComposedLoc(File, End);
    closeBranch(EndLoc);
    Map->Chains[Stack.back().Chain].End = EndLoc;
    Stack.pop_back();
  }
}

/// The text of a raw string-literal token: quotes removed, the escapes asm
/// templates use (\n, \t, \", \\) resolved.
static std::string stringContents(llvm::StringRef Spelling) {
  size_t Open = Spelling.find('"');
  size_t Close = Spelling.rfind('"');
  if (Open == llvm::StringRef::npos || Close <= Open)
    return "";
  llvm::StringRef Body = Spelling.slice(Open + 1, Close);
  std::string Out;
  for (size_t I = 0; I < Body.size(); ++I) {
    if (Body[I] != '\\' || I + 1 == Body.size()) {
      Out += Body[I];
      continue;
    }
    char C = Body[++I];
    Out += C == 'n' ? '\n' : C == 't' ? '\t' : C;
  }
  return Out;
}

/// Arch-limited instructions of an inline asm statement in skipped text
/// (`asm volatile("redux.sync.add.s32 %0, %1, -1;" : "=r"(v) : "r"(v));`).
static void recordAsmInstructions(const std::vector<Token> &Stmt, const SourceManager &SM,
                                  const LangOptions &LO, std::vector<TextualCall> &Calls) {
  for (size_t K = 0; K < Stmt.size(); ++K) {
    if (!Stmt[K].is(tok::raw_identifier))
      continue;
    llvm::StringRef Id = Stmt[K].getRawIdentifier();
    if (Id != "asm" && Id != "__asm__" && Id != "__asm")
      continue;
    size_t I = K + 1;
    while (I < Stmt.size() && Stmt[I].is(tok::raw_identifier) &&
           llvm::is_contained({"volatile", "__volatile__", "goto", "inline"},
                              Stmt[I].getRawIdentifier()))
      ++I;
    if (I >= Stmt.size() || !Stmt[I].is(tok::l_paren))
      continue;
    std::string Template;
    SourceLocation TemplateLoc;
    for (++I; I < Stmt.size() && Stmt[I].is(tok::string_literal); ++I) {
      if (TemplateLoc.isInvalid())
        TemplateLoc = Stmt[I].getLocation();
      Template += stringContents(Lexer::getSpelling(Stmt[I], SM, LO));
    }
    if (Template.empty())
      continue;
    // The single output: `: "=r"(v)` right after the template.
    std::string Output;
    if (I + 4 < Stmt.size() && Stmt[I].is(tok::colon) && Stmt[I + 1].is(tok::string_literal) &&
        Stmt[I + 2].is(tok::l_paren) && Stmt[I + 3].is(tok::raw_identifier) &&
        Stmt[I + 4].is(tok::r_paren) && (I + 5 >= Stmt.size() || !Stmt[I + 5].is(tok::comma)))
      Output = Stmt[I + 3].getRawIdentifier().str();
    for (const PtxCollective &P : parseInlinePtxCollectives(Template)) {
      if (!P.Equivalent || P.Equivalent->MinArch <= 30)
        continue;
      TextualCall C;
      C.Loc = TemplateLoc;
      C.Intrinsic = P.Equivalent;
      C.PtxInstruction = P.Instruction;
      C.AssignedVar = Output;
      C.StmtBegin = Stmt.front().getLocation();
      C.StmtEnd = Stmt.back().getLocation();
      Calls.push_back(std::move(C));
    }
  }
}

void Recorder::finishStatement(std::vector<Token> &Stmt) {
  const LangOptions &LO = PP.getLangOpts();
  recordAsmInstructions(Stmt, SM, LO, Map->Calls);
  for (size_t K = 0; K + 1 < Stmt.size(); ++K) {
    if (!Stmt[K].is(tok::raw_identifier) || !Stmt[K + 1].is(tok::l_paren))
      continue;
    const WarpIntrinsic *I = lookupWarpIntrinsic(Stmt[K].getRawIdentifier());
    if (!I || !I->Scope.empty() || I->MinArch <= 30)
      continue;
    TextualCall C;
    C.Loc = Stmt[K].getLocation();
    C.Intrinsic = I;
    C.StmtBegin = Stmt.front().getLocation();
    C.StmtEnd = Stmt.back().getLocation();
    if (K >= 2 && Stmt[0].is(tok::raw_identifier) && isAssignmentOp(Stmt[1]))
      C.AssignedVar = Stmt[0].getRawIdentifier().str();
    // `x = __reduce_op_sync(<mask>, x);`
    if (K == 2 && Stmt[1].is(tok::equal) && I->Kind == CollectiveKind::Reduce && Stmt.size() >= 9 &&
        Stmt.back().is(tok::semi) && Stmt[Stmt.size() - 2].is(tok::r_paren) &&
        Stmt[Stmt.size() - 3].is(tok::raw_identifier) &&
        Stmt[Stmt.size() - 3].getRawIdentifier() == C.AssignedVar &&
        Stmt[Stmt.size() - 4].is(tok::comma)) {
      std::vector<CondToken> Mask;
      bool Nested = false;
      for (size_t M = 4; M + 4 < Stmt.size(); ++M) {
        if (Stmt[M].isOneOf(tok::comma, tok::l_paren, tok::r_paren) && !Nested) {
          if (Stmt[M].is(tok::comma))
            Nested = true; // a second top-level comma: not the simple shape
        }
        std::string S = Lexer::getSpelling(Stmt[M], SM, LO);
        Mask.push_back(
            makeCondToken(S, Stmt[M].is(tok::raw_identifier), Stmt[M].is(tok::numeric_constant)));
        C.MaskText += (C.MaskText.empty() ? "" : " ") + S;
      }
      if (!Nested && !Mask.empty()) {
        C.SimpleReduction = true;
        MacroLookup Lookup = [this](llvm::StringRef N) { return lookupMacro(N); };
        C.MaskValue = evaluateExpression(Mask, Lookup);
      }
    }
    Map->Calls.push_back(std::move(C));
  }
  Stmt.clear();
}

void Recorder::MacroExpands(const Token &NameTok, const MacroDefinition &, SourceRange Range,
                            const MacroArgs *Args) {
  const IdentifierInfo *II = NameTok.getIdentifierInfo();
  if (!II || !Args)
    return;
  llvm::StringRef Name = II->getName();
  bool IfTarget = Name == "NV_IF_TARGET" || Name == "NV_IF_ELSE_TARGET";
  bool Dispatch = Name == "NV_DISPATCH_TARGET";
  if (!IfTarget && !Dispatch)
    return;
  SourceLocation Loc = NameTok.getLocation();
  if (!userCode(Loc))
    return;
  initialise();

  // Items separated by top-level commas across all (variadic) arguments.
  std::vector<std::vector<Token>> Items(1);
  for (unsigned A = 0; A < Args->getNumMacroArguments(); ++A) {
    if (A)
      Items.emplace_back();
    int Nest = 0;
    for (const Token *T = Args->getUnexpArgument(A); T->isNot(tok::eof); ++T) {
      if (T->is(tok::l_paren))
        ++Nest;
      else if (T->is(tok::r_paren))
        --Nest;
      else if (T->is(tok::comma) && Nest == 0) {
        Items.emplace_back();
        continue;
      }
      Items.back().push_back(*T);
    }
  }
  std::vector<std::pair<std::string, std::vector<Token>>> Arms; // condition, body
  if (IfTarget) {
    if (Items.size() < 2)
      return;
    std::string Cond = Items[0].size() == 1 ? PP.getSpelling(Items[0][0]) : "";
    Arms.push_back({Cond, Items[1]});
    if (Items.size() > 2)
      Arms.push_back({"NV_ANY_TARGET", Items[2]});
  } else {
    for (size_t K = 0; K + 1 < Items.size(); K += 2)
      Arms.push_back({Items[K].size() == 1 ? PP.getSpelling(Items[K][0]) : "", Items[K + 1]});
  }

  GuardChain C;
  C.Kind = GuardKind::NvTarget;
  C.Begin = Loc;
  C.End = Range.getEnd();
  unsigned ChainIndex = Map->Chains.size();
  Map->Chains.push_back(C);
  ArchMask Covered;
  for (size_t K = 0; K < Arms.size(); ++K) {
    const auto &[Cond, Body] = Arms[K];
    if (Body.empty() || !Body.front().getLocation().isFileID() ||
        !Body.back().getLocation().isFileID())
      continue;
    ArchMask M;
    bool Unknown = false;
    for (unsigned I = 0; I < Map->Archs.size(); ++I) {
      std::optional<bool> V = evaluateNvTarget(Cond, Map->Archs[I]);
      if (!V)
        Unknown = true;
      if (!V || *V)
        M.Possible |= 1ull << I;
      if (V && *V)
        M.Definite |= 1ull << I;
    }
    GuardBranch B;
    B.File = SM.getFileID(Body.front().getLocation());
    // Inside the parentheses that wrap each arm.
    unsigned First = Body.front().is(tok::l_paren) ? 1 : 0;
    SourceLocation BeginLoc =
        First < Body.size() ? Body[First].getLocation() : Body.front().getLocation();
    B.Begin = SM.getFileOffset(BeginLoc);
    B.End = SM.getFileOffset(Body.back().getLocation()) + Body.back().getLength();
    B.Own = {M.Definite & ~Covered.Possible, M.Possible & ~Covered.Definite};
    B.Chain = ChainIndex;
    B.Else = IfTarget && K == 1;
    B.DirectiveLoc = Loc;
    B.Condition = Name.str() + "(" + Cond + ", ...)";
    if (B.Else) {
      B.Condition = Name.str() + " else branch";
      Map->Chains[ChainIndex].HasElse = true;
    }
    if (Dispatch && K + 1 == Arms.size() && (Cond == "NV_ANY_TARGET" || Cond == "NV_IS_DEVICE"))
      Map->Chains[ChainIndex].HasElse = true;
    Covered.Definite |= M.Definite;
    Covered.Possible |= M.Possible;
    unsigned Index = Map->Branches.size();
    Map->Chains[ChainIndex].Branches.push_back(Index);
    bool AnalysedSelected = false;
    for (unsigned I = 0; I < Map->Archs.size(); ++I)
      if (Map->Archs[I] == Map->AnalysedArch && (B.Own.Definite >> I & 1))
        AnalysedSelected = true;
    if (!llvm::is_contained(Map->Archs, Map->AnalysedArch))
      AnalysedSelected = !Unknown && evaluateNvTarget(Cond, Map->AnalysedArch).value_or(true);
    FileID File = B.File;
    unsigned Begin = B.Begin, End = B.End;
    Map->Branches.push_back(std::move(B));
    // The arm clang dropped never reaches the AST: read it as text.
    if (!AnalysedSelected)
      scanText(File, Begin, End, /*SkipFirstLine=*/false, /*Directives=*/false);
  }
}

} // namespace

std::unique_ptr<PPCallbacks>
makeArchGuardRecorder(Preprocessor &PP, std::shared_ptr<ArchGuardMap> Map, unsigned MinimumArch) {
  return std::make_unique<Recorder>(PP, std::move(Map), MinimumArch);
}

} // namespace warp_tidy
