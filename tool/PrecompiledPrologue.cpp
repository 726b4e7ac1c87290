//===--- PrecompiledPrologue.cpp - A shared PCH of the implicit CUDA prologue =//

#include "PrecompiledPrologue.h"
#include "DiagnosticKinds.h"
#include "LeadingIncludes.h"
#include "arch/ArchGuardRecord.h"
#include "arch/ArchGuards.h"
#include "arch/PchUserFiles.h"
#include "arch/TargetArchs.h"
#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyModule.h"
#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExternalASTSource.h"
#include "clang/Basic/Version.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Lex/HeaderSearch.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>
#include <fcntl.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace llvm;
using namespace clang;
using namespace clang::tidy;

namespace warp_tidy {

namespace {

constexpr int PchFormatVersion = 2;
/// A failed build is not retried for this long (units parse plainly).
constexpr std::chrono::seconds FailedBuildMemory(600);
/// A lock this old belongs to a builder that died.
constexpr std::chrono::seconds StaleLock(300);

bool debugEnabled() {
  static const bool On = sys::Process::GetEnv("WARP_TIDY_DEBUG_PCH").has_value();
  return On;
}
void debug(const Twine &Message) {
  if (debugEnabled())
    errs() << "warp-tidy: debug: pch: " << Message << "\n";
}

/// The force-included headers that make up the implicit prologue: clang's
/// CUDA runtime wrapper (added by the driver) and warp-tidy's arch shims
/// (ArchShims.h; the temporary copy or the one an exported database names).
bool isPrologueInclude(StringRef Path) {
  StringRef Name = sys::path::filename(Path);
  return Name == "__clang_cuda_runtime_wrapper.h" || Name.starts_with("warp-tidy-arch-shims");
}

/// How many of the invocation's leading `-include`s are the prologue.
size_t prologueIncludeCount(const PreprocessorOptions &PP) {
  size_t N = 0;
  while (N < PP.Includes.size() && isPrologueInclude(PP.Includes[N]))
    ++N;
  return N;
}

std::chrono::system_clock::time_point modificationTime(StringRef Path, bool &Exists) {
  sys::fs::file_status Status;
  Exists = !sys::fs::status(Path, Status) && sys::fs::exists(Status);
  return Exists ? Status.getLastModificationTime() : std::chrono::system_clock::time_point();
}

/// Records the files a PCH build opens: what the PCH was built from.
class RecordingFileSystem : public vfs::ProxyFileSystem {
public:
  using ProxyFileSystem::ProxyFileSystem;
  ErrorOr<std::unique_ptr<vfs::File>> openFileForRead(const Twine &Path) override {
    auto File = ProxyFileSystem::openFileForRead(Path);
    if (File)
      Opened.insert(dependencyPath(Path, *this));
    return File;
  }
  StringSet<> Opened;
};

/// Counts a PCH build's errors and keeps the first one's text.
class ErrorCounter : public DiagnosticConsumer {
public:
  void HandleDiagnostic(DiagnosticsEngine::Level Level, const Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    if (Level >= DiagnosticsEngine::Error && First.empty()) {
      SmallString<128> Text;
      Info.FormatDiagnostic(Text);
      First = Text.str().str();
    }
  }
  std::string First;
};

/// The unit's leading `#include` lines (LeadingIncludes.h) and the
/// directory its quoted includes are looked up in first; empty: a PCH of
/// the prologue alone.
struct LeadingBlock {
  std::string Text;
  std::string Directory;
  size_t End = 0; ///< Where the block ends in the unit's main file.
  bool HasConditional = false;
  bool empty() const { return Text.empty(); }
};

/// The block of at most \p MaxLines lines, cut where every conditional is
/// closed; with \p StopAtConditional, before the first conditional.
LeadingBlock leadingBlock(const FrontendInputFile &Input, FileManager &Files, size_t MaxLines,
                          bool StopAtConditional) {
  LeadingBlock Block;
  if (!Input.isFile() || !MaxLines)
    return Block;
  auto Buffer = Files.getBufferForFile(Input.getFile());
  if (!Buffer)
    return Block;
  LeadingIncludeBlock Found = leadingIncludes((*Buffer)->getBuffer());
  size_t Count = balancedLineCount(
      Found, StopAtConditional ? std::min(MaxLines, Found.BeforeConditional) : MaxLines);
  if (!Count)
    return Block;
  Block.HasConditional = Found.BeforeConditional < Count;
  Block.Text = leadingIncludesText(Found.Lines, Count);
  Block.End = Found.Ends[Count - 1];
  if (Block.Text.empty())
    return Block;
  SmallString<256> Main(Input.getFile());
  Files.makeAbsolutePath(Main);
  Block.Directory = sys::path::parent_path(Main).str();
  if (Block.Directory.empty())
    Block.Text.clear();
  return Block;
}

/// The running executable, as size and time: the guard record of a PCH is
/// written by the recorder of the binary that built it.
std::string executableStamp() {
  static const std::string Stamp = [] {
    std::string Exe = sys::fs::getMainExecutable(nullptr, (void *)&executableStamp);
    sys::fs::file_status Status;
    if (sys::fs::status(Exe, Status))
      return Exe;
    return Exe + "/" + std::to_string(Status.getSize()) + "/" + std::to_string(mtimeNs(Status));
  }();
  return Stamp;
}

/// The target list the command gives the checks (TargetArchs.h).
std::vector<unsigned> commandTargets(const PreprocessorOptions &PP) {
  std::string Prefix = std::string(TargetArchsMacroName) + "=";
  std::vector<unsigned> Targets;
  for (const auto &[Macro, IsUndef] : PP.Macros)
    if (!IsUndef && StringRef(Macro).starts_with(Prefix))
      Targets = parseArchList(StringRef(Macro).drop_front(Prefix.size()));
  return Targets;
}

/// The PCH build with leading user headers: also records their arch guards
/// (ArchGuardRecord.h).
class LeadingPchAction : public GeneratePCHAction {
public:
  std::optional<json::Value> Record;
  std::string Problem;

protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI, StringRef InFile) override {
    std::unique_ptr<ASTConsumer> Writer = GeneratePCHAction::CreateASTConsumer(CI, InFile);
    if (!Writer)
      return Writer;
    Preprocessor &PP = CI.getPreprocessor();
    unsigned Analysed = parseMinimumArch(CI.getTargetOpts().CPU);
    auto Map = std::make_shared<ArchGuardMap>();
    Map->useArchs(recordedArchs(commandTargets(CI.getPreprocessorOpts()), Analysed), Analysed);
    PP.addPPCallbacks(makeArchGuardRecorder(PP, Map, 0));
    std::vector<std::unique_ptr<ASTConsumer>> Consumers;
    Consumers.push_back(std::make_unique<Inspector>(*this, PP, std::move(Map)));
    Consumers.push_back(std::move(Writer));
    return std::make_unique<MultiplexConsumer>(std::move(Consumers));
  }

private:
  class Inspector : public ASTConsumer {
  public:
    Inspector(LeadingPchAction &Action, Preprocessor &PP, std::shared_ptr<ArchGuardMap> Map)
        : Action(Action), PP(PP), Map(std::move(Map)) {}
    void HandleTranslationUnit(ASTContext &) override {
      const SourceManager &SM = PP.getSourceManager();
      // A conditional of the block itself must take the same branch for
      // every arch (LeadingIncludes.h): an arch pass can then skip nothing
      // in the PCH's copy of the block that this pass did not.
      for (const GuardBranch &B : Map->Branches) {
        bool SameForAll = B.Own.Definite == B.Own.Possible &&
                          (B.Own.Definite == 0 || B.Own.Definite == Map->allArchs());
        if (B.File == SM.getMainFileID() && !SameForAll) {
          Action.Problem =
              "a conditional of the leading block ('" + B.Condition + "') depends on the arch";
          return;
        }
      }
      Action.Record = guardRecordToJson(*Map, SM);
      if (!Action.Record)
        Action.Problem = "an arch guard of the leading headers lies in a macro expansion";
    }

  private:
    LeadingPchAction &Action;
    Preprocessor &PP;
    std::shared_ptr<ArchGuardMap> Map;
  };
};

/// The PCHs of one directory: finds, validates, builds.
/// The invocation that builds the PCH of \p Unit's prologue into \p Output,
/// from \p Source: an empty unit after the first \p PrologueIncludes
/// `-include`s, or the leading block after all of them.
std::shared_ptr<CompilerInvocation> pchInvocation(const CompilerInvocation &Unit, StringRef Source,
                                                  StringRef Output, size_t PrologueIncludes,
                                                  const LeadingBlock &Leading) {
  auto Invocation = std::make_shared<CompilerInvocation>(Unit);
  FrontendOptions &FO = Invocation->getFrontendOpts();
  InputKind Kind = FO.Inputs.front().getKind();
  FO.Inputs = {FrontendInputFile(Source, Kind)};
  FO.OutputFile = Output.str();
  FO.ProgramAction = frontend::GeneratePCH;
  Invocation->getCodeGenOpts().MainFileName.clear();
  Invocation->getDependencyOutputOpts() = DependencyOutputOptions();
  std::vector<std::string> &Includes = Invocation->getPreprocessorOpts().Includes;
  if (Leading.empty()) {
    Includes.resize(PrologueIncludes);
  } else {
    // The unit's quoted includes look in its own directory first; here that
    // directory comes first among the quoted ones instead.
    auto &Entries = Invocation->getHeaderSearchOpts().UserEntries;
    Entries.insert(Entries.begin(), HeaderSearchOptions::Entry(Leading.Directory, frontend::Quoted,
                                                               /*IsFramework=*/false,
                                                               /*IgnoreSysRoot=*/true));
  }
  return Invocation;
}

/// Stamps the files a PCH build opened (those outside the PCH directory
/// \p PchDirectory), sorted, into \p Deps; false (with \p Why) if one is
/// gone.
bool stampBuildInputs(const RecordingFileSystem &Recorder, StringRef PchDirectory,
                      std::vector<FileStamp> &Deps, std::string &Why) {
  std::vector<std::string> Paths;
  for (const auto &E : Recorder.Opened)
    if (!StringRef(E.getKey()).starts_with(PchDirectory))
      Paths.push_back(E.getKey().str());
  llvm::sort(Paths);
  Deps.clear();
  for (const std::string &P : Paths) {
    std::optional<FileStamp> S = stampFile(P);
    if (!S) {
      Why = "'" + P + "' disappeared while the PCH was built";
      return false;
    }
    Deps.push_back(std::move(*S));
  }
  return true;
}

class PchStore {
public:
  PchStore(const PrologueSettings &Settings) : Settings(Settings) {}

  /// The PCH for \p Unit (whose first \p PrologueIncludes `-include`s are
  /// the prologue), built if needed; empty when there is none to use.
  /// With a non-empty \p Leading, the PCH holds every `-include` and the
  /// leading block after them.
  std::string acquire(const CompilerInvocation &Unit, size_t PrologueIncludes,
                      const LeadingBlock &Leading, FileManager &Files,
                      std::shared_ptr<PCHContainerOperations> PCHOps, PrologueOutcome &Outcome);

  /// The PCH at \p Pch gave a parse that the plain parse contradicts:
  /// drop it, and parse plainly for a while.
  void reject(StringRef Pch, StringRef Why);

  const PrologueSettings &settings() const { return Settings; }

private:
  std::string key(const CompilerInvocation &Unit, const LeadingBlock &Leading,
                  FileManager &Files) const;
  bool valid(StringRef Pch, bool Leading, std::vector<FileStamp> &Deps) const;
  bool recentlyFailed(StringRef Pch, std::string &Why) const;
  bool build(StringRef Pch, const CompilerInvocation &Unit, size_t PrologueIncludes,
             const LeadingBlock &Leading, FileManager &Files,
             std::shared_ptr<PCHContainerOperations> PCHOps, std::vector<FileStamp> &Deps,
             std::string &Why) const;

  PrologueSettings Settings;
};

std::string PchStore::key(const CompilerInvocation &Unit, const LeadingBlock &Leading,
                          FileManager &Files) const {
  // Everything of the device invocation but the names of its input and
  // outputs: language, standard, target and arch, every preprocessor
  // option (-D/-U/-I/-isystem/-include, __clang_analyzer__), warnings.
  CompilerInvocation Copy(Unit);
  Copy.getFrontendOpts().Inputs.clear();
  Copy.getFrontendOpts().OutputFile.clear();
  Copy.getCodeGenOpts().MainFileName.clear();
  Copy.getDependencyOutputOpts() = DependencyOutputOptions();
  // The CUDA compilation-unit id is derived from the main file's path; it
  // names static device variables in code generation, which an analysis
  // does not run.
  Copy.getLangOpts().CUID.clear();
  std::vector<std::string> Parts = {"warp-tidy-pch/" + std::to_string(PchFormatVersion),
                                    getClangFullVersion()};
  if (auto CWD = Files.getVirtualFileSystem().getCurrentWorkingDirectory())
    Parts.push_back(*CWD);
  Parts.push_back(Unit.getFileSystemOpts().WorkingDir);
  for (std::string &A : Copy.getCC1CommandLine())
    Parts.push_back(std::move(A));
  if (!Leading.empty()) {
    // The block, where its quoted includes are found, and the binary whose
    // recorder wrote the guard record.
    Parts.push_back("leading-includes");
    Parts.push_back(Leading.Text);
    Parts.push_back(Leading.Directory);
    Parts.push_back(executableStamp());
  }
  return hashParts(Parts);
}

bool PchStore::valid(StringRef Pch, bool Leading, std::vector<FileStamp> &Deps) const {
  auto Buffer = MemoryBuffer::getFile(Pch + ".deps");
  if (!Buffer)
    return false;
  Expected<json::Value> Parsed = json::parse((*Buffer)->getBuffer());
  if (!Parsed) {
    consumeError(Parsed.takeError());
    return false;
  }
  const json::Object *O = Parsed->getAsObject();
  std::vector<FileStamp> Recorded;
  if (!O || O->getInteger("format") != PchFormatVersion || !O->get("deps") ||
      !stampsFromJson(*O->get("deps"), Recorded) || Recorded.empty())
    return false;
  // The PCH itself: whole (the content the builder recorded).
  std::optional<FileStamp> Self = stampFile(Pch);
  if (!Self || O->getString("hash") != StringRef(Self->Hash)) {
    debug("'" + Pch + "' does not match its record");
    return false;
  }
  // The guard record of its user headers: the one written with it.
  if (Leading) {
    auto Guards = MemoryBuffer::getFile(guardRecordPath(Pch));
    Expected<json::Value> Record =
        Guards ? json::parse((*Guards)->getBuffer())
               : Expected<json::Value>(createStringError("no guard record"));
    if (!Record) {
      consumeError(Record.takeError());
      debug("'" + Pch + "' has no guard record");
      return false;
    }
    const json::Object *G = Record->getAsObject();
    if (!G || G->getString("pch") != StringRef(Self->Hash)) {
      debug("the guard record of '" + Pch + "' is not its own");
      return false;
    }
  }
  // What it was built from: unchanged (size and modification time, which
  // is what clang itself compares when it loads a PCH).
  for (const FileStamp &D : Recorded) {
    sys::fs::file_status Status;
    if (sys::fs::status(D.Path, Status) || Status.getSize() != D.Size ||
        mtimeNs(Status) != D.MTimeNs) {
      debug("'" + D.Path + "' changed since '" + Pch + "' was built");
      return false;
    }
  }
  Deps = std::move(Recorded);
  // Least recently *used*, for the cache's eviction.
  ::utimensat(AT_FDCWD, Pch.str().c_str(), nullptr, 0);
  return true;
}

bool PchStore::recentlyFailed(StringRef Pch, std::string &Why) const {
  bool Exists;
  auto When = modificationTime((Pch + ".failed").str(), Exists);
  if (!Exists || std::chrono::system_clock::now() - When > FailedBuildMemory)
    return false;
  auto Buffer = MemoryBuffer::getFile(Pch + ".failed");
  Why = Buffer ? (*Buffer)->getBuffer().trim().str() : "an earlier build failed";
  return true;
}

bool PchStore::build(StringRef Pch, const CompilerInvocation &Unit, size_t PrologueIncludes,
                     const LeadingBlock &Leading, FileManager &Files,
                     std::shared_ptr<PCHContainerOperations> PCHOps, std::vector<FileStamp> &Deps,
                     std::string &Why) const {
  // The unit the PCH is built from (empty, or the leading block): clang
  // makes a PCH user include its main file, so it stays next to the PCH
  // (and is evicted with it). Never anything written into the project.
  std::string Empty = (Pch + ".cu").str();
  if (!sys::fs::exists(Empty) && !writeAtomically(Empty, Leading.Text)) {
    Why = "cannot write '" + Empty + "'";
    return false;
  }
  SmallString<256> Temp;
  sys::fs::createUniquePath(Pch + ".%%%%%%%%.tmp", Temp, /*MakeAbsolute=*/false);
  std::shared_ptr<CompilerInvocation> Invocation =
      pchInvocation(Unit, Empty, Temp, PrologueIncludes, Leading);

  auto Recorder = makeIntrusiveRefCnt<RecordingFileSystem>(Files.getVirtualFileSystemPtr());
  ErrorCounter Errors;
  bool Built;
  std::optional<json::Value> GuardRecord;
  {
    CompilerInstance CI(std::move(Invocation), std::move(PCHOps));
    CI.setVirtualFileSystem(Recorder);
    CI.createFileManager();
    CI.createDiagnostics(&Errors, /*ShouldOwnClient=*/false);
    CI.createSourceManager();
    if (Leading.empty()) {
      GeneratePCHAction Action;
      Built = CI.ExecuteAction(Action) && !Errors.getNumErrors();
    } else {
      LeadingPchAction Action;
      Built = CI.ExecuteAction(Action) && !Errors.getNumErrors();
      if (Built && !Action.Record) {
        sys::fs::remove(Temp);
        Why = Action.Problem.empty() ? "no guard record" : Action.Problem;
        return false;
      }
      GuardRecord = std::move(Action.Record);
    }
  }
  if (!Built) {
    sys::fs::remove(Temp);
    Why = Errors.First.empty() ? "clang could not build it" : "clang: " + Errors.First;
    return false;
  }
  std::optional<FileStamp> Self = stampFile(Temp);
  if (!Self) {
    sys::fs::remove(Temp);
    Why = "cannot read the PCH just written";
    return false;
  }
  if (!stampBuildInputs(*Recorder, Settings.Directory, Deps, Why)) {
    sys::fs::remove(Temp);
    return false;
  }
  json::Object Record{
      {"format", PchFormatVersion}, {"hash", Self->Hash}, {"deps", stampsToJson(Deps)}};
  std::string Text;
  raw_string_ostream(Text) << json::Value(std::move(Record));
  std::string GuardText;
  if (GuardRecord) {
    GuardRecord->getAsObject()->try_emplace("pch", Self->Hash);
    raw_string_ostream(GuardText) << *GuardRecord;
  }
  // The records first, then the PCH: a reader that finds the PCH finds its
  // records (and checks the content hash, so an older record cannot pass).
  if ((GuardRecord && !writeAtomically(guardRecordPath(Pch), GuardText)) ||
      !writeAtomically((Pch + ".deps").str(), Text) || sys::fs::rename(Temp, Pch)) {
    sys::fs::remove(Temp);
    Why = "cannot write into '" + Settings.Directory + "' (disk full?)";
    return false;
  }
  sys::fs::remove(Pch + ".failed");
  return true;
}

std::string PchStore::acquire(const CompilerInvocation &Unit, size_t PrologueIncludes,
                              const LeadingBlock &Leading, FileManager &Files,
                              std::shared_ptr<PCHContainerOperations> PCHOps,
                              PrologueOutcome &Outcome) {
  auto Plain = [&](const std::string &Why) {
    if (Outcome.What == PrologueOutcome::Off)
      Outcome.What = PrologueOutcome::Plain;
    Outcome.Why = Why;
    debug("plain parse: " + Why);
    return std::string();
  };
  if (std::error_code EC = sys::fs::create_directories(Settings.Directory))
    return Plain("cannot create '" + Settings.Directory + "': " + EC.message());
  if (!sys::fs::is_directory(Settings.Directory))
    return Plain("cannot create '" + Settings.Directory + "': not a directory");
  SmallString<256> PchPath(Settings.Directory);
  sys::path::append(PchPath, key(Unit, Leading, Files) + ".pch");
  std::string Pch = PchPath.str().str();
  std::string Lock = Pch + ".lock";
  auto Use = [&](std::vector<FileStamp> Deps) {
    Outcome.What = PrologueOutcome::Used;
    llvm::append_range(Outcome.Deps, Deps);
    debug("using '" + Pch + "'" +
          (Leading.empty() ? "" : " (it holds the unit's leading #include lines too)"));
    return Pch;
  };

  auto Deadline = std::chrono::steady_clock::now() + std::chrono::seconds(Settings.WaitSeconds);
  for (;;) {
    std::vector<FileStamp> Deps;
    if (valid(Pch, !Leading.empty(), Deps))
      return Use(std::move(Deps));
    std::string Why;
    if (recentlyFailed(Pch, Why))
      return Plain("the PCH could not be built recently: " + Why);
    // One builder: whoever creates the lock file.
    int FD;
    std::error_code LockError = sys::fs::openFileForWrite(Lock, FD, sys::fs::CD_CreateNew);
    if (LockError && LockError != std::errc::file_exists)
      return Plain("cannot create '" + Lock + "': " + LockError.message());
    if (!LockError) {
      ::close(FD);
      bool Built = valid(Pch, !Leading.empty(), Deps); // Finished while we looked?
      if (!Built) {
        auto Start = std::chrono::steady_clock::now();
        Built = build(Pch, Unit, PrologueIncludes, Leading, Files, PCHOps, Deps, Why);
        debug((Built ? "built '" : "could not build '") + Pch + "' in " +
              std::to_string(
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count()) +
              " s" + (Built ? "" : ": " + Why));
        if (!Built) {
          writeAtomically(Pch + ".failed", Why + "\n");
          sys::fs::remove(Pch + ".cu"); // Nothing to build it from again soon.
        }
      }
      sys::fs::remove(Lock);
      return Built ? Use(std::move(Deps)) : Plain(Why);
    }
    // Someone else builds it: wait for it, a bounded time.
    bool LockExists;
    auto LockTime = modificationTime(Lock, LockExists);
    if (LockExists && std::chrono::system_clock::now() - LockTime > StaleLock) {
      debug("removing the stale lock '" + Lock + "'");
      sys::fs::remove(Lock);
      continue;
    }
    if (std::chrono::steady_clock::now() > Deadline)
      return Plain("another process was still building '" + Pch + "'");
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

void PchStore::reject(StringRef Pch, StringRef Why) {
  debug("rejecting '" + Pch + "': " + Why);
  writeAtomically((Pch + ".failed").str(), ("the PCH was rejected: " + Why + "\n").str());
  sys::fs::remove(Pch);
  sys::fs::remove(guardRecordPath(Pch));
}

bool listedByUnit(const Decl *D);

/// The top-level declarations of the PCH's user files, in the order of the
/// unit.
std::vector<Decl *> pchUserDecls(ASTContext &Ctx) {
  std::vector<Decl *> Out;
  ExternalASTSource *Source = Ctx.getExternalSource();
  if (!Source)
    return Out;
  SourceManager &SM = Ctx.getSourceManager();
  for (const auto &Entry : pchUserFiles(SM))
    for (FileID File : Entry.getValue()) {
      SmallVector<Decl *, 64> InFile;
      Source->FindFileRegionDecls(File, 0, SM.getFileIDSize(File), InFile);
      for (Decl *D : InFile)
        if (D && listedByUnit(D))
          Out.push_back(D);
    }
  llvm::sort(Out);
  Out.erase(std::unique(Out.begin(), Out.end()), Out.end());
  BeforeThanCompare<SourceLocation> Before(SM);
  llvm::stable_sort(Out, [&](const Decl *A, const Decl *B) {
    return Before(SM.getExpansionLoc(A->getBeginLoc()), SM.getExpansionLoc(B->getBeginLoc()));
  });
  return Out;
}

/// Whether \p D, a file-level declaration of the PCH, is one the
/// translation unit lists itself (what a traversal of the whole unit
/// visits at top level): not the pattern of a template, nor an
/// instantiation (both are visited through their template).
bool listedByUnit(const Decl *D) {
  if (!isa<TranslationUnitDecl>(D->getLexicalDeclContext()))
    return false; // In a namespace: visited through it.
  if (const auto *F = dyn_cast<FunctionDecl>(D))
    return !F->getDescribedFunctionTemplate() &&
           (F->getTemplateSpecializationKind() == TSK_Undeclared ||
            F->getTemplateSpecializationKind() == TSK_ExplicitSpecialization);
  if (const auto *S = dyn_cast<ClassTemplateSpecializationDecl>(D))
    return S->getSpecializationKind() != TSK_ImplicitInstantiation;
  if (const auto *S = dyn_cast<VarTemplateSpecializationDecl>(D))
    return S->getSpecializationKind() != TSK_ImplicitInstantiation;
  if (const auto *R = dyn_cast<CXXRecordDecl>(D))
    return !R->getDescribedClassTemplate();
  if (const auto *V = dyn_cast<VarDecl>(D))
    return !V->getDescribedVarTemplate();
  if (const auto *A = dyn_cast<TypeAliasDecl>(D))
    return !A->getDescribedAliasTemplate();
  return true;
}

/// Narrows the traversal to the unit's own declarations: those parsed after
/// the PCH (the unit's code and every header it includes, project and
/// system alike) and, when the PCH holds the unit's leading project
/// headers, the top-level declarations of every user file in it, found by
/// file (ExternalASTSource::FindFileRegionDecls) so that the PCH's system
/// headers stay unread.
///
/// The unit's own part is the translation unit's lexical declarations that
/// were not read from the PCH, in order: what a traversal of the plain
/// parse's translation unit visits after the PCH's part. Not the
/// declarations handed to HandleTopLevelDecl: Sema hands every template
/// instantiation it performs there too (for code generation), and the
/// traversal reaches those through their templates already, so each would
/// be analysed twice (on ggml-cuda's fattn.cu, 409 function analyses
/// instead of 242 and twice the prover's questions, with the same
/// findings).
class UnitScopeConsumer : public ASTConsumer {
public:
  explicit UnitScopeConsumer(bool UserHeadersInPch) : UserHeadersInPch(UserHeadersInPch) {}
  void HandleTranslationUnit(ASTContext &Ctx) override {
    std::vector<Decl *> Decls;
    if (UserHeadersInPch)
      Decls = pchUserDecls(Ctx);
    // noload_decls: the PCH's lexical declarations are not deserialised.
    for (Decl *D : Ctx.getTranslationUnitDecl()->noload_decls())
      if (!D->isFromASTFile())
        Decls.push_back(D);
    Ctx.setTraversalScope(Decls);
  }

private:
  bool UserHeadersInPch;
};

/// runClangTidy's action factory, plus the prologue.
class PrologueActionFactory : public tooling::FrontendActionFactory {
public:
  PrologueActionFactory(ClangTidyContext &Context,
                        IntrusiveRefCntPtr<vfs::OverlayFileSystem> BaseFS, PchStore *Store,
                        PrologueOutcome &Outcome, const ConsumerHook &Hook)
      : ConsumerFactory(Context, std::move(BaseFS)), Store(Store), Outcome(Outcome), Hook(Hook) {}

  std::unique_ptr<FrontendAction> create() override { return std::make_unique<Action>(*this); }

  bool runInvocation(std::shared_ptr<CompilerInvocation> Invocation, FileManager *Files,
                     std::shared_ptr<PCHContainerOperations> PCHContainerOps,
                     DiagnosticConsumer *DiagConsumer) override {
    // As clang-tidy: the analysis sees __clang_analyzer__ (so does the PCH,
    // built from this invocation).
    Invocation->getPreprocessorOpts().SetUpStaticAnalyzer = true;
    // As runClangTidy with Quiet (what warp-tidy's workers asked for): no
    // "N warnings generated" line.
    Invocation->getDiagnosticOpts().ShowCarets = false;
    UsePch = UserHeadersInPch = false;
    PreprocessorOptions &PP = Invocation->getPreprocessorOpts();
    size_t Prologue = prologueIncludeCount(PP);
    if (Store && Prologue && PP.MacroIncludes.empty() && PP.ImplicitPCHInclude.empty() &&
        Invocation->getFrontendOpts().Inputs.size() == 1) {
      // First a PCH that also holds the unit's leading includes, shared by
      // the units that start with the same ones; else the prologue alone.
      const FrontendInputFile &Input = Invocation->getFrontendOpts().Inputs.front();
      size_t MaxLines = Store->settings().LeadingLines;
      LeadingBlock Leading = leadingBlock(Input, *Files, MaxLines, /*StopAtConditional=*/false);
      std::string Pch;
      if (!Leading.empty())
        Pch = Store->acquire(*Invocation, Prologue, Leading, *Files, PCHContainerOps, Outcome);
      // A block whose conditionals depend on the arch cannot be in a PCH:
      // then the lines before its first conditional.
      if (Pch.empty() && Leading.HasConditional) {
        Leading = leadingBlock(Input, *Files, MaxLines, /*StopAtConditional=*/true);
        if (!Leading.empty())
          Pch = Store->acquire(*Invocation, Prologue, Leading, *Files, PCHContainerOps, Outcome);
      }
      if (!Pch.empty()) {
        // Every `-include` is in it, before the block, as in the unit; the
        // unit's own parse starts after its #include lines (clang's
        // preamble skip), so each header is read once, as without the PCH.
        PP.Includes.clear();
        UserHeadersInPch = true;
        LeadingEnd = Leading.End;
      } else {
        Pch =
            Store->acquire(*Invocation, Prologue, LeadingBlock(), *Files, PCHContainerOps, Outcome);
        // The PCH holds the prologue `-include`s; the others (the
        // project's own) stay in the unit, after it, in order.
        if (!Pch.empty())
          PP.Includes.erase(PP.Includes.begin(), PP.Includes.begin() + Prologue);
      }
      if (!Pch.empty()) {
        PP.ImplicitPCHInclude = Pch;
        UsePch = true;
        UsedPchs.push_back(Pch);
      }
    }
    return FrontendActionFactory::runInvocation(std::move(Invocation), Files,
                                                std::move(PCHContainerOps), DiagConsumer);
  }

  std::vector<std::string> UsedPchs;

private:
  class Action : public ASTFrontendAction {
  public:
    Action(PrologueActionFactory &Factory) : Factory(Factory) {}
    std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &Compiler,
                                                   StringRef File) override {
      std::unique_ptr<ASTConsumer> Checks =
          Factory.ConsumerFactory.createASTConsumer(Compiler, File);
      if (Factory.Hook && Checks)
        Checks = Factory.Hook(Compiler, File, std::move(Checks));
      if (Factory.UsePch && Factory.UserHeadersInPch)
        Compiler.getPreprocessor().setSkipMainFilePreamble(Factory.LeadingEnd,
                                                           /*StartOfLine=*/true);
      if (!Factory.UsePch || !Checks)
        return Checks;
      std::vector<std::unique_ptr<ASTConsumer>> Consumers;
      Consumers.push_back(std::make_unique<UnitScopeConsumer>(Factory.UserHeadersInPch));
      Consumers.push_back(std::move(Checks));
      return std::make_unique<MultiplexConsumer>(std::move(Consumers));
    }

  private:
    PrologueActionFactory &Factory;
  };

  ClangTidyASTConsumerFactory ConsumerFactory;
  PchStore *Store;
  PrologueOutcome &Outcome;
  const ConsumerHook &Hook;
  bool UsePch = false;
  bool UserHeadersInPch = false;
  size_t LeadingEnd = 0;
};

/// Holds back what the process writes to stderr (clang's "N warnings
/// generated" line) while a PCH-backed parse runs: if the plain parse has to
/// answer instead, only the plain parse's output may show.
class StderrCapture {
public:
  StderrCapture() {
    SmallString<128> Path;
    int Fd;
    if (sys::fs::createTemporaryFile("warp-tidy-stderr", "txt", Fd, Path))
      return;
    errs().flush();
    Saved = ::dup(2);
    if (Saved < 0 || ::dup2(Fd, 2) < 0) {
      ::close(Fd);
      sys::fs::remove(Path);
      Saved = -1;
      return;
    }
    ::close(Fd);
    File = Path.str().str();
  }
  /// Restores stderr; returns what was written meanwhile.
  std::string release() {
    if (Saved < 0)
      return "";
    errs().flush();
    ::dup2(Saved, 2);
    ::close(Saved);
    Saved = -1;
    auto Buffer = MemoryBuffer::getFile(File);
    sys::fs::remove(File);
    return Buffer ? (*Buffer)->getBuffer().str() : "";
  }
  ~StderrCapture() { errs() << release(); }

private:
  int Saved = -1;
  std::string File;
};

/// One analysis, as clang-tidy's runClangTidy does it (the same argument
/// adjusters, diagnostics consumer and action), with \p Store's PCH when
/// it is given. \p Failed: clang reported the command could not be run.
std::vector<ClangTidyError> runOnce(ClangTidyContext &Context,
                                    const tooling::CompilationDatabase &Database, StringRef File,
                                    IntrusiveRefCntPtr<vfs::OverlayFileSystem> BaseFS,
                                    bool ApplyAnyFix, PchStore *Store, PrologueOutcome &Outcome,
                                    std::vector<std::string> &UsedPchs, bool &Failed,
                                    const ConsumerHook &Hook) {
  std::vector<std::string> Files = {File.str()};
  tooling::ClangTool Tool(Database, Files, std::make_shared<PCHContainerOperations>(), BaseFS);
  tooling::ArgumentsAdjuster PerFileExtraArgs =
      [&Context](const tooling::CommandLineArguments &Args, StringRef Filename) {
        ClangTidyOptions Opts = Context.getOptionsForFile(Filename);
        tooling::CommandLineArguments Adjusted = Args;
        if (Opts.ExtraArgsBefore) {
          auto I = Adjusted.begin();
          if (I != Adjusted.end() && !StringRef(*I).starts_with("-"))
            ++I; // The compiler's name.
          Adjusted.insert(I, Opts.ExtraArgsBefore->begin(), Opts.ExtraArgsBefore->end());
        }
        if (Opts.ExtraArgs)
          Adjusted.insert(Adjusted.end(), Opts.ExtraArgs->begin(), Opts.ExtraArgs->end());
        return Adjusted;
      };
  Tool.appendArgumentsAdjuster(PerFileExtraArgs);
  Tool.appendArgumentsAdjuster(tooling::getStripPluginsAdjuster());
  Tool.setPrintErrorMessage(false);
  ClangTidyDiagnosticConsumer DiagConsumer(Context, nullptr, true, ApplyAnyFix);
  auto DiagOpts = std::make_unique<DiagnosticOptions>();
  DiagnosticsEngine DE(DiagnosticIDs::create(), *DiagOpts, &DiagConsumer,
                       /*ShouldOwnClient=*/false);
  Context.setDiagnosticsEngine(std::move(DiagOpts), &DE);
  Tool.setDiagnosticConsumer(&DiagConsumer);
  PrologueActionFactory Factory(Context, BaseFS, Store, Outcome, Hook);
  Failed = Tool.run(&Factory) != 0;
  UsedPchs = Factory.UsedPchs;
  return DiagConsumer.take();
}

} // namespace

std::string prologueDirectory(StringRef CacheDir) {
  SmallString<256> Dir(CacheDir);
  sys::fs::make_absolute(Dir);
  sys::path::append(Dir, "pch");
  return Dir.str().str();
}

size_t wholeBlockPchBudget(StringRef CacheDir, uint64_t CacheBytes) {
  // A PCH with leading lines has a guard record next to it. Their mean
  // size, not the largest: one unit's block with CUB in it is 50 MB on
  // ggml-cuda, the others 21 MB, and sizing every grant by the largest
  // left most units without one.
  uint64_t Total = 0, Count = 0;
  std::error_code EC;
  for (sys::fs::directory_iterator It(prologueDirectory(CacheDir), EC), End; It != End && !EC;
       It.increment(EC)) {
    StringRef Path = It->path();
    sys::fs::file_status Status;
    if (Path.ends_with(".pch") && !sys::fs::status(Path, Status) &&
        sys::fs::exists(guardRecordPath(Path))) {
      Total += Status.getSize();
      ++Count;
    }
  }
  uint64_t Each = Count ? std::max<uint64_t>(Total / Count, 1) : uint64_t(32) << 20;
  return static_cast<size_t>(CacheBytes / 2 / Each);
}

void mergeStamps(std::vector<FileStamp> &Deps, ArrayRef<FileStamp> More) {
  StringSet<> Known;
  for (const FileStamp &D : Deps)
    Known.insert(D.Path);
  for (const FileStamp &M : More)
    if (Known.insert(M.Path).second)
      Deps.push_back(M);
  llvm::sort(Deps, [](const FileStamp &A, const FileStamp &B) { return A.Path < B.Path; });
}

bool PrologueOutcome::isPrologueFile(StringRef Path) const {
  return !Directory.empty() && Path.starts_with(Directory);
}

std::vector<ClangTidyError>
runClangTidyWithPrologue(ClangTidyContext &Context, const tooling::CompilationDatabase &Database,
                         StringRef File, IntrusiveRefCntPtr<vfs::OverlayFileSystem> BaseFS,
                         bool ApplyAnyFix, const PrologueSettings &Settings,
                         PrologueOutcome &Outcome, const ConsumerHook &Hook) {
  Outcome = PrologueOutcome();
  Outcome.Directory = Settings.Directory;
  // Tests shorten the wait for another builder.
  PrologueSettings Effective = Settings;
  if (auto Wait = sys::Process::GetEnv("WARP_TIDY_PCH_WAIT_SECONDS"))
    StringRef(*Wait).getAsInteger(10, Effective.WaitSeconds);
  std::optional<PchStore> Store;
  if (!Settings.Directory.empty())
    Store.emplace(Effective);
  std::vector<std::string> UsedPchs;
  bool Failed = false;
  std::optional<StderrCapture> Capture;
  if (Store)
    Capture.emplace();
  std::vector<ClangTidyError> Errors =
      runOnce(Context, Database, File, BaseFS, ApplyAnyFix, Store ? &*Store : nullptr, Outcome,
              UsedPchs, Failed, Hook);
  auto FirstError = llvm::find_if(Errors, isCompilerError);
  if (UsedPchs.empty() || (!Failed && FirstError == Errors.end()))
    return Errors; // The capture's output is written out as it was.
  // Of the PCH-backed parse's output, only warp-tidy's own notes stay.
  std::string Held = Capture->release();
  for (StringRef Line : split(Held, '\n'))
    if (Line.starts_with("warp-tidy: debug: pch:"))
      errs() << Line << "\n";

  // An error with the PCH: the plain parse answers. If it has none, the PCH
  // was at fault (rejected by clang, stale, corrupt): it goes.
  std::string Why =
      FirstError != Errors.end() ? FirstError->Message.Message : std::string("the analysis failed");
  PrologueOutcome Plain;
  Plain.Directory = Settings.Directory;
  bool PlainFailed = false;
  std::vector<std::string> None;
  std::vector<ClangTidyError> PlainErrors = runOnce(Context, Database, File, BaseFS, ApplyAnyFix,
                                                    nullptr, Plain, None, PlainFailed, Hook);
  if (!PlainFailed && llvm::none_of(PlainErrors, isCompilerError))
    for (const std::string &Pch : UsedPchs)
      Store->reject(Pch, Why);
  Outcome.What = PrologueOutcome::FellBack;
  Outcome.Why = Why;
  Outcome.Deps.clear();
  debug("fell back to the plain parse: " + Why);
  return PlainErrors;
}

} // namespace warp_tidy
