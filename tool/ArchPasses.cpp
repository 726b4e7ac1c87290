//===--- ArchPasses.cpp - Analyse every arch path the source distinguishes ===//
//
// One pass is clang-tidy's runClangTidy for one file with two additions: the
// compile command's --cuda-gpu-arch is replaced by the pass's arch, and the
// frontend action adds a recorder to the preprocessor (ArchGuards, asked about
// every candidate arch instead of the targets) and, once the AST is built,
// turns what it saw into a PassRecord that outlives the compiler instance:
// file names and offsets, never SourceLocations.
//
//===----------------------------------------------------------------------===//

#include "ArchPasses.h"
#include "DiagnosticKinds.h"
#include "PrecompiledPrologue.h"
#include "SkippedWarpCode.h"
#include "UserCodeScope.h"
#include "arch/ArchGuards.h"
#include "arch/TargetArchs.h"
#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyModule.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Basic/TargetInfo.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringSet.h"
#include <cstdlib>
#include <map>
#include <set>

using namespace clang;
using namespace clang::tidy;

namespace warp_tidy {

// Real architectures clang 22 analyses with CUDA 12/13 headers (sm_101 was
// renamed sm_110 in CUDA 13 and is refused by clang with it).
llvm::ArrayRef<unsigned> knownDeviceArchs() {
  static const unsigned Archs[] = {75, 80, 86, 87, 88, 89, 90, 100, 103, 110, 120, 121};
  return Archs;
}

namespace {

/// A bound on passes per file: each is a whole parse.

/// The check whose findings come from pass 1 only (see ArchPasses.h).
constexpr const char *PassOneOnlyCheck = "warp-missing-arch-guard";

using Place = std::pair<std::string, unsigned>; // file, offset

/// A piece of warp code in text a pass skipped, with the candidate archs
/// that compile it (bit i = Candidates[i]).
struct Site {
  Place Where;
  uint64_t Definite = 0, Possible = 0;
};

/// A conditional branch of user code and the candidate archs compiling it
/// (its chain's and every enclosing branch's conditions together).
struct BranchRecord {
  std::string File;
  unsigned Begin = 0, End = 0;
  uint64_t Definite = 0, Possible = 0;
};

struct PassRecord {
  unsigned Arch = 0;
  bool Device = false;
  std::vector<unsigned> Targets;
  llvm::StringSet<> Files; ///< Files the pass read.
  std::set<Place> Skipped; ///< Every token of interest in skipped text.
  std::vector<Site> Sites; ///< Those that are (or may reach) warp code.
  std::vector<BranchRecord> Branches;
};

std::string fileName(const SourceManager &SM, FileID File) {
  if (OptionalFileEntryRef Entry = SM.getFileEntryRefForID(File))
    return Entry->getName().str();
  return "";
}

/// Shared by the passes of one file: the candidate archs (fixed by pass 1 so
/// that masks of all passes mean the same) and the records.
struct PassState {
  std::vector<unsigned> Candidates;
  unsigned MinimumArch = 0;
  PassRecord *Current = nullptr;
};

/// At the end of a translation unit: the recorder's map as a PassRecord.
class RecordingConsumer : public ASTConsumer {
public:
  RecordingConsumer(Preprocessor &PP, std::shared_ptr<ArchGuardMap> Map, PassState &State)
      : PP(PP), Map(std::move(Map)), State(State) {}

  void HandleTranslationUnit(ASTContext &Ctx) override {
    PassRecord &R = *State.Current;
    const SourceManager &SM = Ctx.getSourceManager();
    R.Device = true;
    for (unsigned A : targetArchs(PP, State.MinimumArch))
      if (!llvm::is_contained(R.Targets, A))
        R.Targets.push_back(A);
    llvm::sort(R.Targets);
    for (auto It = SM.fileinfo_begin(); It != SM.fileinfo_end(); ++It)
      R.Files.insert(It->first.getName());

    unsigned AnalysedBit = 64;
    for (unsigned I = 0; I < Map->Archs.size(); ++I)
      if (Map->Archs[I] == Map->AnalysedArch)
        AnalysedBit = I;
    auto AddSite = [&](const Place &P, const ArchMask &M) {
      if (R.Skipped.insert(P).second)
        R.Sites.push_back({P, M.Definite, M.Possible});
    };
    SkippedWarpCode Scanner(Ctx, PP, *Map);
    const bool DebugPasses = getenv("WARP_TIDY_DEBUG_PASSES") != nullptr;
    std::set<Place> Scanned;
    for (const GuardBranch &B : Map->Branches) {
      SourceLocation Loc = SM.getComposedLoc(B.File, B.Begin);
      ArchMask M = Map->archsAt(Loc, SM);
      std::string Name = fileName(SM, B.File);
      R.Branches.push_back({Name, B.Begin, B.End, M.Definite, M.Possible});
      // A branch this parse compiled is analysed, whatever the evaluator
      // could tell of its condition.
      bool Taken = B.Compiled || (AnalysedBit < 64 && (M.Definite >> AnalysedBit & 1));
      // Text no other candidate compiles (host-only code, `#if 0`, archs
      // below this one) cannot gain from a pass: not scanned.
      uint64_t Others = M.Possible & ~(AnalysedBit < 64 ? 1ull << AnalysedBit : 0);
      if (Taken || !Others || !Scanned.insert({Name, B.Begin}).second)
        continue;
      SkippedWarpCode::Pieces Found = Scanner.scan(B.File, B.Begin, B.End);
      // Each piece gets the archs of its innermost branch.
      for (unsigned Offset : Found.Warp) {
        // Why a file takes another pass: the skipped pieces that count as
        // warp code (SkippedWarpCode.h), where they are.
        if (DebugPasses) {
          SourceLocation L = SM.getComposedLoc(B.File, Offset);
          llvm::errs() << "warp-tidy: debug: passes: warp code skipped at sm_" << Map->AnalysedArch
                       << ": " << SM.getFilename(L) << ":" << SM.getSpellingLineNumber(L) << "\n";
        }
        AddSite({Name, Offset}, Map->archsAt(SM.getComposedLoc(B.File, Offset), SM));
      }
      for (unsigned Offset : Found.Other)
        R.Skipped.insert({Name, Offset}); // skipped here; not warp code as far as known
    }
  }

private:
  Preprocessor &PP;
  std::shared_ptr<ArchGuardMap> Map;
  PassState &State;
};

unsigned cpuArch(const CompilerInstance &CI) {
  return parseMinimumArch(CI.getTarget().getTargetOpts().CPU);
}

/// Adds the arch recorder to one parse's checks (device parses only).
std::unique_ptr<ASTConsumer> withRecorder(CompilerInstance &CI, PassState &State,
                                          std::unique_ptr<ASTConsumer> Tidy) {
  const LangOptions &LO = CI.getLangOpts();
  unsigned Arch = cpuArch(CI);
  if (!LO.CUDA || !LO.CUDAIsDevice || !Arch || !Tidy)
    return Tidy;
  if (State.Candidates.empty()) {
    for (unsigned A : knownDeviceArchs())
      if (A >= Arch)
        State.Candidates.push_back(A);
    if (!llvm::is_contained(State.Candidates, Arch))
      State.Candidates.insert(State.Candidates.begin(), Arch);
  }
  // A parse repeated (the plain fallback of a PCH-backed one) records anew.
  unsigned PassArch = State.Current->Arch;
  *State.Current = PassRecord();
  State.Current->Arch = PassArch;
  Preprocessor &PP = CI.getPreprocessor();
  auto Map = std::make_shared<ArchGuardMap>();
  Map->useArchs(State.Candidates, Arch);
  PP.addPPCallbacks(makeArchGuardRecorder(PP, Map, 0));
  std::vector<std::unique_ptr<ASTConsumer>> Consumers;
  Consumers.push_back(std::move(Tidy));
  Consumers.push_back(std::make_unique<RecordingConsumer>(PP, Map, State));
  return std::make_unique<MultiplexConsumer>(std::move(Consumers));
}

/// The file's commands with the device arch replaced (0: unchanged).
class ArchDatabase : public tooling::CompilationDatabase {
public:
  ArchDatabase(const tooling::CompilationDatabase &Inner, unsigned Arch)
      : Inner(Inner), Arch(Arch) {}
  std::vector<tooling::CompileCommand> getCompileCommands(llvm::StringRef File) const override {
    std::vector<tooling::CompileCommand> Commands = Inner.getCompileCommands(File);
    if (Arch)
      for (tooling::CompileCommand &C : Commands)
        for (std::string &A : C.CommandLine)
          if (llvm::StringRef(A).starts_with("--cuda-gpu-arch="))
            A = "--cuda-gpu-arch=sm_" + std::to_string(Arch);
    return Commands;
  }

private:
  const tooling::CompilationDatabase &Inner;
  unsigned Arch;
};

/// One pass: clang-tidy over \p File at \p Arch (0: the command's own),
/// with the shared prologue (PrecompiledPrologue.h) when it is on.
std::vector<ClangTidyError>
runPass(ClangTidyContext &Context, const tooling::CompilationDatabase &Database,
        llvm::StringRef File, llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> BaseFS,
        bool ApplyAnyFix, unsigned Arch, PassState &State, PassRecord &Record,
        const PrologueSettings &Prologue, PrologueOutcome &Outcome) {
  ArchDatabase Commands(Database, Arch);
  State.Current = &Record;
  const bool SystemHeaders = Context.getOptionsForFile(File).SystemHeaders.value_or(false);
  ConsumerHook Hook = [&State, SystemHeaders](CompilerInstance &CI, llvm::StringRef,
                                              std::unique_ptr<ASTConsumer> Checks) {
    return withUserCodeScope(withRecorder(CI, State, std::move(Checks)), SystemHeaders);
  };
  std::vector<ClangTidyError> Errors = runClangTidyWithPrologue(
      Context, Commands, File, BaseFS, ApplyAnyFix, Prologue, Outcome, Hook);
  State.Current = nullptr;
  return Errors;
}

/// Options of the extra passes: those of pass 1, without the check that
/// pass 1 alone runs.
class ExtraPassOptions : public ClangTidyOptionsProvider {
public:
  explicit ExtraPassOptions(ClangTidyContext &First) : First(First) {}
  const ClangTidyGlobalOptions &getGlobalOptions() override { return First.getGlobalOptions(); }
  std::vector<OptionsSource> getRawOptions(llvm::StringRef FileName) override {
    ClangTidyOptions Off;
    Off.Checks = std::string("-") + PassOneOnlyCheck;
    return {{First.getOptionsForFile(FileName), "warp-tidy pass 1"}, {Off, "warp-tidy arch pass"}};
  }

private:
  ClangTidyContext &First;
};

bool covered(const Place &P, llvm::ArrayRef<PassRecord> Passes) {
  for (const PassRecord &R : Passes)
    if (R.Device && R.Files.contains(P.first) && !R.Skipped.count(P))
      return true;
  return false;
}

/// The candidate to analyse next for the uncovered sites, or 0.
unsigned nextArch(const std::vector<Site> &Uncovered, const std::vector<unsigned> &Candidates,
                  const std::vector<unsigned> &Tried, const std::vector<unsigned> &Targets) {
  unsigned Best = 0;
  std::tuple<size_t, size_t, bool> BestScore{0, 0, false};
  for (unsigned I = 0; I < Candidates.size() && I < 64; ++I) {
    unsigned A = Candidates[I];
    if (llvm::is_contained(Tried, A))
      continue;
    size_t Definite = 0, Possible = 0;
    for (const Site &S : Uncovered) {
      Definite += S.Definite >> I & 1;
      Possible += S.Possible >> I & 1;
    }
    if (!Possible)
      continue;
    // Most sites known to be compiled, then most possibly compiled, then a
    // target of the build; ties go to the lowest arch (candidates ascend).
    std::tuple<size_t, size_t, bool> Score{Definite, Possible, llvm::is_contained(Targets, A)};
    if (!Best || Score > BestScore) {
      Best = A;
      BestScore = Score;
    }
  }
  return Best;
}

std::string key(const ClangTidyError &E) {
  return E.DiagnosticName + "\x1f" + E.Message.FilePath + "\x1f" +
         std::to_string(E.Message.FileOffset) + "\x1f" + E.Message.Message;
}

/// "sm_75", "sm_80 to sm_89", "sm_90 and newer" pieces over the known archs.
std::string describeArchRange(const std::vector<unsigned> &Archs) {
  llvm::ArrayRef<unsigned> Known = knownDeviceArchs();
  std::vector<std::string> Pieces;
  size_t I = 0;
  std::vector<unsigned> Sorted = Archs;
  llvm::sort(Sorted);
  while (I < Sorted.size()) {
    // A run of consecutive known archs.
    size_t J = I;
    auto Pos = llvm::find(Known, Sorted[I]);
    if (Pos != Known.end())
      while (J + 1 < Sorted.size() && Pos + (J + 1 - I) < Known.end() &&
             *(Pos + (J + 1 - I)) == Sorted[J + 1])
        ++J;
    bool ToNewest = Pos != Known.end() && Sorted[J] == Known.back();
    if (J > I && ToNewest)
      Pieces.push_back("sm_" + std::to_string(Sorted[I]) + " and newer");
    else if (J >= I + 2)
      Pieces.push_back("sm_" + std::to_string(Sorted[I]) + " to sm_" + std::to_string(Sorted[J]));
    else
      for (size_t K = I; K <= J; ++K)
        Pieces.push_back("sm_" + std::to_string(Sorted[K]));
    I = J + 1;
  }
  std::string Out;
  for (size_t K = 0; K < Pieces.size(); ++K) {
    if (K)
      Out += K + 1 == Pieces.size() ? " and " : ", ";
    Out += Pieces[K];
  }
  return Out;
}

std::vector<unsigned> maskToArchs(uint64_t Mask, const std::vector<unsigned> &Candidates) {
  std::vector<unsigned> Out;
  for (unsigned I = 0; I < Candidates.size() && I < 64; ++I)
    if (Mask >> I & 1)
      Out.push_back(Candidates[I]);
  return Out;
}

/// The candidate archs compiling offset \p Offset of \p File, by every
/// branch any pass recorded there.
uint64_t compiledAt(const std::string &File, unsigned Offset, llvm::ArrayRef<PassRecord> Passes,
                    uint64_t All) {
  uint64_t M = All;
  for (const PassRecord &R : Passes)
    for (const BranchRecord &B : R.Branches)
      if (B.File == File && B.Begin <= Offset && Offset < B.End)
        M &= B.Possible;
  return M;
}

/// The message suffix of a finding that some passes found and others did
/// not; see archsOfFinding for its reading.
std::string archNote(const ClangTidyError &E, const std::vector<unsigned> &FoundIn,
                     llvm::ArrayRef<PassRecord> Passes, const std::vector<unsigned> &Candidates,
                     const std::vector<unsigned> &Targets) {
  uint64_t All = Candidates.size() >= 64 ? ~0ull : (1ull << Candidates.size()) - 1;
  uint64_t Compiled = compiledAt(E.Message.FilePath, E.Message.FileOffset, Passes, All);
  // Every pass that found it compiles the place. When the conditions say
  // otherwise they depend on macros an arch path defines (`#if HAS_REDUX`),
  // which a pass evaluates with its own definitions: then the place is taken
  // to be compiled by the archs each finding pass stands for (those from its
  // arch up to the next pass's).
  bool Consistent = true;
  for (unsigned A : FoundIn) {
    auto Pos = llvm::find(Candidates, A);
    if (Pos == Candidates.end() || !(Compiled >> (Pos - Candidates.begin()) & 1))
      Consistent = false;
  }
  if (!Consistent) {
    Compiled = 0;
    for (unsigned I = 0; I < Candidates.size() && I < 64; ++I) {
      unsigned Rep = 0;
      for (const PassRecord &R : Passes)
        if (R.Arch <= Candidates[I] && R.Arch > Rep)
          Rep = R.Arch;
      if (llvm::is_contained(FoundIn, Rep))
        Compiled |= 1ull << I;
    }
  }
  // Each candidate arch is represented by the highest analysed arch at or
  // below it among the passes that compiled this place.
  std::vector<unsigned> Analysed;
  for (const PassRecord &R : Passes)
    for (unsigned I = 0; I < Candidates.size() && I < 64; ++I)
      if (Candidates[I] == R.Arch && (Compiled >> I & 1))
        Analysed.push_back(R.Arch);
  llvm::sort(Analysed);
  std::vector<unsigned> Holds;
  for (unsigned I = 0; I < Candidates.size() && I < 64; ++I) {
    if (!(Compiled >> I & 1))
      continue;
    unsigned Rep = Analysed.empty() ? 0 : Analysed.front();
    for (unsigned A : Analysed)
      if (A <= Candidates[I])
        Rep = A;
    if (llvm::is_contained(FoundIn, Rep))
      Holds.push_back(Candidates[I]);
  }
  for (unsigned A : FoundIn)
    if (!llvm::is_contained(Holds, A))
      Holds.push_back(A);
  llvm::sort(Holds);

  std::vector<unsigned> CompiledArchs = maskToArchs(Compiled, Candidates);
  std::vector<unsigned> TargetsCompiling, TargetsHolding;
  for (unsigned T : Targets) {
    if (llvm::is_contained(CompiledArchs, T) || !llvm::is_contained(Candidates, T))
      TargetsCompiling.push_back(T);
    if (llvm::is_contained(Holds, T))
      TargetsHolding.push_back(T);
  }
  std::string HoldsText = describeArchRange(Holds);
  std::string TargetsText = describeArchs(Targets);
  bool Plural = Holds.size() > 1;
  if (TargetsCompiling.empty())
    return " [holds for " + HoldsText + ": this path is only compiled for " +
           (CompiledArchs.empty() ? HoldsText : describeArchRange(CompiledArchs)) + ", " +
           (CompiledArchs.size() > 1 ? "none of which is" : "which is not") +
           " among this build's targets (" + TargetsText + ")]";
  if (TargetsHolding.empty())
    return " [holds for " + HoldsText + ", " + (Plural ? "none of which is" : "which is not") +
           " among this build's targets (" + TargetsText + ")]";
  return " [holds for " + HoldsText +
         "; of this build's targets: " + describeArchs(TargetsHolding) + "]";
}

/// The minimum arch the checks are configured for (warp-missing-arch-guard's
/// MinimumArch, else the global option), 0 if none.
unsigned configuredMinimumArch(ClangTidyContext &Context, llvm::StringRef File) {
  const ClangTidyOptions &Options = Context.getOptionsForFile(File);
  auto Option = [&](llvm::StringRef Name) -> std::string {
    auto It = Options.CheckOptions.find(Name);
    return It == Options.CheckOptions.end() ? "" : It->second.Value;
  };
  std::string Minimum = Option(std::string(PassOneOnlyCheck) + "." + MinimumArchOption);
  if (Minimum.empty())
    Minimum = Option(MinimumArchOption);
  return parseMinimumArch(Minimum);
}

/// The context of the extra passes: the checks other than
/// warp-missing-arch-guard; null with none of those enabled (there is
/// nothing for extra passes to find).
std::unique_ptr<ClangTidyContext> extraPassContext(ClangTidyContext &Context,
                                                   llvm::StringRef File) {
  auto Provider = std::make_unique<ExtraPassOptions>(Context);
  if (getCheckNames(Provider->getOptions(File), false, false).empty())
    return nullptr;
  return std::make_unique<ClangTidyContext>(std::move(Provider), false, false, false);
}

/// The sites no device pass of \p Passes compiled, as the latest pass that
/// skipped each saw it.
std::vector<Site> uncoveredSites(llvm::ArrayRef<PassRecord> Passes) {
  std::map<Place, Site> Latest;
  for (const PassRecord &R : Passes)
    for (const Site &S : R.Sites)
      Latest[S.Where] = S;
  std::vector<Site> Uncovered;
  for (const auto &[P, S] : Latest)
    if (!covered(P, Passes))
      Uncovered.push_back(S);
  return Uncovered;
}

/// How many places of warp code no pass of \p Passes compiled.
unsigned uncoveredCount(llvm::ArrayRef<PassRecord> Passes) {
  std::set<Place> Pending;
  for (const PassRecord &R : Passes)
    for (const Site &S : R.Sites)
      if (!covered(S.Where, Passes))
        Pending.insert(S.Where);
  return Pending.size();
}

/// The findings of every pass, one per check, place and message, each with
/// the archs of the passes that found it (\p FoundIn), in source order (as
/// clang-tidy orders one pass's findings).
std::vector<ClangTidyError> mergeFindings(std::vector<std::vector<ClangTidyError>> &Results,
                                          llvm::ArrayRef<PassRecord> Passes,
                                          std::vector<std::vector<unsigned>> &FoundIn) {
  std::vector<ClangTidyError> Merged;
  std::vector<std::vector<unsigned>> Found;
  std::map<std::string, size_t> Index;
  for (size_t P = 0; P < Results.size(); ++P)
    for (ClangTidyError &E : Results[P]) {
      auto [It, New] = Index.try_emplace(key(E), Merged.size());
      if (New) {
        Merged.push_back(std::move(E));
        Found.emplace_back();
      }
      if (Found[It->second].empty() || Found[It->second].back() != Passes[P].Arch)
        Found[It->second].push_back(Passes[P].Arch);
    }
  std::vector<size_t> Order(Merged.size());
  for (size_t I = 0; I < Order.size(); ++I)
    Order[I] = I;
  llvm::stable_sort(Order, [&](size_t A, size_t B) {
    const ClangTidyError &X = Merged[A], &Y = Merged[B];
    return std::tie(X.Message.FilePath, X.Message.FileOffset, X.DiagnosticName, X.Message.Message) <
           std::tie(Y.Message.FilePath, Y.Message.FileOffset, Y.DiagnosticName, Y.Message.Message);
  });
  std::vector<ClangTidyError> Sorted;
  FoundIn.clear();
  for (size_t I : Order) {
    Sorted.push_back(std::move(Merged[I]));
    FoundIn.push_back(std::move(Found[I]));
  }
  return Sorted;
}
} // namespace

std::vector<ClangTidyError>
runArchPasses(ClangTidyContext &Context, const tooling::CompilationDatabase &Database,
              llvm::StringRef File, llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> BaseFS,
              bool ApplyAnyFix, const PrologueSettings &Prologue, PrologueOutcome &Outcome,
              unsigned PassLimit, ArchPassSummary &Summary) {
  Summary.PassLimit = std::max(1u, PassLimit);
  const unsigned MaxPasses = Summary.PassLimit;
  PassState State;
  State.MinimumArch = configuredMinimumArch(Context, File);

  std::vector<PassRecord> Passes(1);
  std::vector<std::vector<ClangTidyError>> Results;
  Results.push_back(runPass(Context, Database, File, BaseFS, ApplyAnyFix, 0, State, Passes[0],
                            Prologue, Outcome));
  if (!Passes[0].Device || State.Candidates.empty())
    return std::move(Results[0]);
  // Copied: Passes grows below.
  const unsigned FirstArch = Passes[0].Arch = State.Candidates.front();
  const std::vector<unsigned> Targets = Passes[0].Targets;
  Summary.Passes = {FirstArch};
  Summary.Targets = Targets;
  Summary.SkippedWarpSites = Passes[0].Sites.size();
  // A unit that does not compile is reported as such; passes at other archs
  // would only repeat its errors.
  if (llvm::any_of(Results[0], isCompilerError)) {
    Summary.UncoveredSites = Summary.SkippedWarpSites;
    return std::move(Results[0]);
  }

  // Extra passes run only checks other than warp-missing-arch-guard.
  std::unique_ptr<ClangTidyContext> Extra = extraPassContext(Context, File);
  std::vector<unsigned> Tried = {FirstArch};
  while (Extra && Passes.size() < MaxPasses) {
    unsigned Arch = nextArch(uncoveredSites(Passes), State.Candidates, Tried, Targets);
    if (!Arch)
      break;
    Tried.push_back(Arch);
    Passes.emplace_back();
    Passes.back().Arch = Arch;
    PrologueOutcome ExtraOutcome;
    Results.push_back(runPass(*Extra, Database, File, BaseFS, ApplyAnyFix, Arch, State,
                              Passes.back(), Prologue, ExtraOutcome));
    mergeStamps(Outcome.Deps, ExtraOutcome.Deps);
    Summary.Passes.push_back(Arch);
  }
  Summary.UncoveredSites = uncoveredCount(Passes);
  if (Passes.size() == 1)
    return std::move(Results[0]);

  std::vector<std::vector<unsigned>> FoundIn;
  std::vector<ClangTidyError> Merged = mergeFindings(Results, Passes, FoundIn);
  std::vector<unsigned> AllPasses = Summary.Passes;
  for (size_t I = 0; I < Merged.size(); ++I) {
    ClangTidyError &E = Merged[I];
    bool PassOneOnly = E.DiagnosticName == PassOneOnlyCheck;
    if (PassOneOnly || FoundIn[I] == AllPasses)
      continue;
    // A compile error that only an extra pass met: clang cannot parse that
    // arch's path (code written for nvcc alone); said, but not the build's
    // failure, which the targets' own pass decides.
    if (isCompilerError(E) && !llvm::is_contained(FoundIn[I], FirstArch))
      E.DiagLevel = ClangTidyError::Warning;
    E.Message.Message += archNote(E, FoundIn[I], Passes, State.Candidates, Targets);
  }
  return Merged;
}

std::string describeArchPasses(const ArchPassSummary &Summary) {
  if (Summary.Passes.empty())
    return "1 analysis pass (no device arch)";
  std::string Out = std::to_string(Summary.Passes.size()) + " analysis pass" +
                    (Summary.Passes.size() == 1 ? "" : "es") + " (sm_" +
                    std::to_string(Summary.Passes.front());
  if (Summary.Passes.size() > 1) {
    std::vector<unsigned> Extra(Summary.Passes.begin() + 1, Summary.Passes.end());
    Out += "; then " + describeArchs(Extra) + " for warp code the first pass skipped";
  }
  Out += ")";
  if (Summary.UncoveredSites)
    Out += "; " + std::to_string(Summary.UncoveredSites) +
           " skipped piece(s) of warp code not analysed (no analysable arch compiles "
           "them, or the bound of " +
           std::to_string(Summary.PassLimit) + " passes was reached)";
  return Out;
}

llvm::json::Value archPassSummaryToJson(const ArchPassSummary &Summary) {
  llvm::json::Array Passes, Targets;
  for (unsigned A : Summary.Passes)
    Passes.push_back(A);
  for (unsigned A : Summary.Targets)
    Targets.push_back(A);
  return llvm::json::Object{{"passes", std::move(Passes)},
                            {"targets", std::move(Targets)},
                            {"skippedWarpSites", Summary.SkippedWarpSites},
                            {"uncoveredSites", Summary.UncoveredSites},
                            {"passLimit", Summary.PassLimit}};
}

bool archPassSummaryFromJson(const llvm::json::Value *Value, ArchPassSummary &Summary) {
  const llvm::json::Object *O = Value ? Value->getAsObject() : nullptr;
  if (!O)
    return false;
  auto Numbers = [&](llvm::StringRef Key, std::vector<unsigned> &Out) {
    if (const llvm::json::Array *A = O->getArray(Key))
      for (const llvm::json::Value &V : *A)
        if (std::optional<int64_t> N = V.getAsInteger())
          Out.push_back(static_cast<unsigned>(*N));
  };
  Numbers("passes", Summary.Passes);
  Numbers("targets", Summary.Targets);
  Summary.SkippedWarpSites = O->getInteger("skippedWarpSites").value_or(0);
  Summary.UncoveredSites = O->getInteger("uncoveredSites").value_or(0);
  Summary.PassLimit = O->getInteger("passLimit").value_or(6);
  return true;
}

std::vector<std::string> archsOfFinding(llvm::StringRef Message) {
  size_t Start = Message.rfind(" [holds for ");
  if (Start == llvm::StringRef::npos || !Message.ends_with("]"))
    return {};
  llvm::StringRef List = Message.substr(Start + 12);
  for (llvm::StringRef End :
       {": this path", ", which is not", ", none of which", "; of this build", "]"})
    List = List.take_front(List.find(End));
  std::string Text = List.str();
  // "sm_90 and newer" first, so that " and " below only separates pieces.
  for (size_t P; (P = Text.find(" and newer")) != std::string::npos;)
    Text.replace(P, 10, "+");
  llvm::SmallVector<llvm::StringRef, 8> Pieces;
  llvm::StringRef(Text).split(Pieces, ", ");
  std::vector<unsigned> Archs;
  llvm::ArrayRef<unsigned> Known = knownDeviceArchs();
  for (llvm::StringRef Piece : Pieces) {
    llvm::SmallVector<llvm::StringRef, 2> Parts;
    Piece.split(Parts, " and ");
    for (llvm::StringRef Part : Parts) {
      auto [From, To] = Part.split(" to ");
      unsigned Low = 0, High = 0;
      bool Newer = From.consume_back("+");
      if (!From.consume_front("sm_") || From.getAsInteger(10, Low))
        continue;
      High = Low;
      if (Newer)
        High = ~0u;
      else if (To.consume_front("sm_") && !To.empty())
        To.getAsInteger(10, High);
      if (High == Low) {
        Archs.push_back(Low);
        continue;
      }
      for (unsigned A : Known)
        if (A >= Low && A <= High)
          Archs.push_back(A);
    }
  }
  std::vector<std::string> Out;
  for (unsigned A : Archs)
    Out.push_back("sm_" + std::to_string(A));
  return Out;
}

} // namespace warp_tidy
