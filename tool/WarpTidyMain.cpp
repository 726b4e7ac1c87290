//===--- WarpTidyMain.cpp - The warp-tidy command line --------------------===//
//
// A clang-tidy driver specialised for CUDA warp checks. It keeps clang-tidy's
// vocabulary (--checks, --config, .clang-tidy files, NOLINT, --fix,
// --export-fixes) and changes what a CUDA user would otherwise trip over:
//   * the default check set is warp-*;
//   * files and directories are accepted, no compilation database or `--`
//     is needed (the CUDA toolkit is found and sensible flags are used);
//   * nvcc command lines in compile_commands.json are translated;
//   * the exit status separates findings (1) from tool errors (2).
//
//===----------------------------------------------------------------------===//

#include "ArchPasses.h"
#include "NvccAsmEscapes.h"
#include "ArchShims.h"
#include "Baseline.h"
#include "BuildInfo.h"
#include "ChangedLines.h"
#include "CheckSelection.h"
#include "CudaInstallation.h"
#include "DiagnosticKinds.h"
#include "DiagnosticsSerialization.h"
#include "InputFiles.h"
#include "OutputFormats.h"
#include "ParallelRunner.h"
#include "LeadingIncludes.h"
#include "PrecompiledPrologue.h"
#include "ResultCache.h"
#include "UnitTimes.h"
#include "WarpCompilationDatabase.h"
#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MemAlloc.h"
#include "llvm/Support/Signals.h"
#include <sys/resource.h>
#include <unistd.h>
#include <chrono>
#include <map>
#include <csignal>
#include <cstdlib>
#include <thread>

using namespace llvm;
using namespace clang::tidy;
using warp_tidy::isCompilerError;
using warp_tidy::isWarpFinding;

extern volatile int WarpTidyModuleAnchorSource;
static int LLVM_ATTRIBUTE_UNUSED WarpTidyModuleAnchorDestination =
    WarpTidyModuleAnchorSource;

namespace {

// Exit statuses, documented in README.md.
enum ExitStatus { ExitClean = 0, ExitFindings = 1, ExitToolError = 2 };
// A worker that hit --memory-limit exits with this (never seen by users).
constexpr int ExitOutOfMemory = 3;

// Set from the SIGINT/SIGTERM handler (llvm::sys::SetInterruptFunction).
volatile std::sig_atomic_t InterruptRequested = 0;
void onInterrupt() { InterruptRequested = 1; }

cl::OptionCategory Category("warp-tidy options");

cl::list<std::string> Inputs(cl::Positional, cl::desc("<file or directory>..."),
                             cl::cat(Category));
cl::opt<std::string> BuildPath(
    "p", cl::desc("Directory holding compile_commands.json (e.g. a CMake build "
                  "directory). nvcc command lines in it are translated."),
    cl::value_desc("build-dir"), cl::cat(Category));
cl::opt<std::string> Checks(
    "checks", cl::desc("Check glob, as in clang-tidy (default: warp-*)."),
    cl::cat(Category));
cl::opt<std::string> Config("config", cl::desc("Inline YAML configuration."),
                            cl::cat(Category));
cl::opt<std::string> ConfigFile("config-file",
                                cl::desc("Read the configuration from this file."),
                                cl::cat(Category));
cl::opt<std::string> WarningsAsErrors(
    "warnings-as-errors", cl::desc("Checks whose warnings become errors."),
    cl::cat(Category));
cl::opt<std::string> HeaderFilter(
    "header-filter",
    cl::desc("Regex of headers whose diagnostics are shown (default: all "
             "non-system headers)."),
    cl::init(".*"), cl::cat(Category));
cl::opt<std::string> ExcludeHeaderFilter(
    "exclude-header-filter",
    cl::desc("Regex of headers whose diagnostics are not shown, even if they "
             "match --header-filter (as in clang-tidy)."),
    cl::cat(Category));
cl::opt<std::string> LineFilter(
    "line-filter",
    cl::desc("Only report diagnostics on these lines, as clang-tidy: a JSON list "
             "like [{\"name\":\"a.cu\",\"lines\":[[1,3],[5,7]]},{\"name\":\"b.cuh\"}]. "
             "This is what clang-tidy-diff passes."),
    cl::cat(Category));
cl::opt<std::string> FormatStyle(
    "format-style",
    cl::desc("Style for formatting code around applied fixes, as clang-tidy: "
             "none (default), file, llvm, google, ... or inline {...}."),
    cl::cat(Category));
cl::opt<bool> UseColor("use-color",
                       cl::desc("Use colors in diagnostics (default: when stdout is "
                                "a terminal)."),
                       cl::cat(Category));
cl::opt<std::string> VfsOverlay(
    "vfsoverlay",
    cl::desc("Overlay the virtual file system described by this file over the "
             "real one, as clang-tidy."),
    cl::value_desc("file"), cl::cat(Category));
cl::opt<bool> SystemHeaders("system-headers",
                            cl::desc("Also report inside system headers."),
                            cl::cat(Category));
cl::opt<bool> Fix("fix", cl::desc("Apply fix-its in place (atomically per file)."),
                  cl::cat(Category));
cl::opt<bool> FixErrors("fix-errors",
                        cl::desc("Apply fix-its even if the file has compile errors."),
                        cl::cat(Category));
cl::opt<bool> FixNotes("fix-notes", cl::desc("Also apply fix-its attached to notes."),
                       cl::cat(Category));
cl::opt<std::string> ExportFixes("export-fixes",
                                 cl::desc("Write fix-its as YAML to this file."),
                                 cl::value_desc("file"), cl::cat(Category));
cl::list<std::string> ExtraArg("extra-arg", cl::desc("Append a compiler argument."),
                               cl::cat(Category));
cl::list<std::string> ExtraArgBefore("extra-arg-before",
                                     cl::desc("Prepend a compiler argument."),
                                     cl::cat(Category));
cl::opt<std::string> CudaPath("cuda-path",
                              cl::desc("CUDA toolkit to use (default: found "
                                       "automatically)."),
                              cl::cat(Category));
cl::opt<bool> ExitZero("exit-zero",
                       cl::desc("Report findings but exit 0 (tool errors still "
                                "exit 2)."),
                       cl::cat(Category));
cl::opt<bool> Quiet("quiet", cl::desc("Print only diagnostics."), cl::cat(Category));
cl::opt<bool> ListChecks("list-checks", cl::desc("List the enabled checks and exit."),
                         cl::cat(Category));
cl::opt<bool> AllowNoChecks(
    "allow-no-checks",
    cl::desc("Accept a configuration that enables no check (otherwise: \"no "
             "checks enabled\", exit 2)."),
    cl::cat(Category));
cl::opt<bool> VerifyConfig(
    "verify-config",
    cl::desc("Check the configuration (--checks, --config, .clang-tidy files) for "
             "warp- checks and options that do not exist, then exit (0: none, 1: "
             "some)."),
    cl::cat(Category));
cl::opt<bool> DumpConfig("dump-config", cl::desc("Print the effective configuration."),
                         cl::cat(Category));
cl::opt<bool> PrintCommands("print-commands",
                            cl::desc("Print the compile command used for each file."),
                            cl::cat(Category));

cl::opt<bool> Stats("pass-stats",
                    cl::desc("Print, for each file, the analysis passes it took: one, "
                             "plus one per arch variant whose warp code the first "
                             "skipped (docs/arch-passes.md)."),
                    cl::cat(Category));

cl::opt<std::string> ExportCompileCommands(
    "export-compile-commands",
    cl::desc("Write the translated compile commands (what warp-tidy runs) as "
             "<dir>/compile_commands.json for clangd/warp-clangd, then exit."),
    cl::value_desc("dir"), cl::cat(Category));

// Whole-project runs, output formats and the result cache.
cl::opt<std::string> Format(
    "format",
    cl::desc("Output: text (default; clang-style, for terminals, editors and "
             "problem matchers), json, or sarif (SARIF 2.1.0, GitHub code "
             "scanning)."),
    cl::init("text"), cl::cat(Category));
cl::opt<std::string> OutputFile(
    "output", cl::desc("Write the json/sarif report to this file (default: stdout)."),
    cl::value_desc("file"), cl::cat(Category));
cl::opt<unsigned> Jobs("j",
                       cl::desc("Analyse this many files in parallel (default: "
                                "the number of cores)."),
                       cl::value_desc("N"), cl::Prefix, cl::init(0), cl::cat(Category));
cl::opt<std::string> Shard(
    "shard",
    cl::desc("i/N: analyse only the i-th of N shards (1 <= i <= N) of the sorted "
             "file list, for CI matrices."),
    cl::value_desc("i/N"), cl::cat(Category));
cl::opt<bool> NoCache("no-cache", cl::desc("Neither read nor write the result cache."),
                      cl::cat(Category));
cl::opt<unsigned> MaxArchPasses(
    "max-arch-passes",
    cl::desc("Analyse a file at most this many times: once at the command's own "
             "architecture, and once more for each architecture whose warp code "
             "(#if __CUDA_ARCH__ >= N, NV_IF_TARGET) that pass skipped "
             "(docs/arch-passes.md). 1 analyses the command's architecture only, "
             "at the cost of the code only other architectures compile. Default 6."),
    cl::init(6), cl::value_desc("N"), cl::cat(Category));
cl::opt<bool> NoPch(
    "no-pch",
    cl::desc("Do not use the shared precompiled prologue (a PCH of clang's CUDA "
             "wrapper headers, warp-tidy's shims and the unit's leading #include "
             "lines, built once per set of flags and lines in <cache-dir>/pch); every "
             "unit is then parsed from scratch. The results are the same either way."),
    cl::cat(Category));
cl::opt<std::string> CacheDir(
    "cache-dir",
    cl::desc("Result cache directory, also holding the shared precompiled "
             "prologue in pch/ (default: $XDG_CACHE_HOME/warp-tidy or "
             "~/.cache/warp-tidy)."),
    cl::value_desc("dir"), cl::cat(Category));
cl::opt<std::string> CacheSize(
    "cache-size",
    cl::desc("Size bound of the cache directory, e.g. 512M or 2G (default 2G); "
             "the least recently used entries are evicted."),
    // Precompiled leading blocks are 20-50 MB each and half of the bound
    // goes to them: 2G gives about 45 units their own, enough for a project
    // of ggml-cuda's size to reach its steady state (docs/evaluation.md).
    cl::init("2G"), cl::cat(Category));
cl::opt<std::string> MaxFileSize(
    "max-file-size",
    cl::desc("Refuse input files larger than this, e.g. 64M or 1G (default 64M; 0: no "
             "limit). Parsing a file costs time and memory in proportion to its "
             "size; a generated file of hundreds of MiB would run for minutes."),
    cl::init("64M"), cl::cat(Category));
cl::opt<std::string> SarifHelpBase(
    "sarif-help-base",
    cl::desc("Base URL of the check pages for SARIF helpUri (<base><check without "
             "warp->.md)."),
    cl::init(WARP_TIDY_DOCS_URL), cl::cat(Category));
cl::opt<std::string> SourceRoot(
    "source-root",
    cl::desc("Directory that SARIF URIs are relative to (default: the current "
             "directory)."),
    cl::value_desc("dir"), cl::cat(Category));

cl::opt<unsigned> Timeout(
    "timeout",
    cl::desc("Stop the analysis of a file after this many seconds and report it "
             "as that file's error (default 300; 0: no limit)."),
    cl::value_desc("seconds"), cl::init(300), cl::cat(Category));
cl::opt<std::string> MemoryLimit(
    "memory-limit",
    cl::desc("Stop the analysis of a file that needs more memory than this, e.g. "
             "4G, and report it as that file's error (default 8G; 0: no limit)."),
    cl::init("8G"), cl::cat(Category));

// Gradual adoption (docs/integration.md, "Adopting warp-tidy on an existing
// codebase").
cl::opt<std::string> BaselineFile(
    "baseline",
    cl::desc("Do not report findings recorded in this earlier warp-tidy report "
             "(--format=sarif or json output; matched by fingerprint)."),
    cl::value_desc("report.sarif|report.json"), cl::cat(Category));
cl::opt<bool> UpdateBaseline(
    "update-baseline",
    cl::desc("Record every current finding in the --baseline file (SARIF if it "
             "ends in .sarif, else JSON) instead of reporting them."),
    cl::cat(Category));
cl::opt<std::string> Diff(
    "diff", cl::ValueOptional,
    cl::desc("Report only on lines changed since <rev> (default HEAD: uncommitted "
             "changes), from git; with no files named, analyse the changed "
             "CUDA files. Write it --diff=<rev>."),
    cl::value_desc("rev"), cl::cat(Category));

// Internal: a worker analyses one file for a parent warp-tidy and writes its
// diagnostics and the files it read as JSON.
cl::opt<std::string> WorkerFile("worker", cl::Hidden, cl::cat(Category));
cl::opt<std::string> WorkerOutput("worker-output", cl::Hidden, cl::cat(Category));
cl::opt<std::string> WorkerMemoryLimit("worker-memory-limit", cl::Hidden,
                                       cl::cat(Category));
// How many of its leading #include lines the worker's shared PCH may hold
// (PrecompiledPrologue.h); the parent gives each unit of a run the ones it
// shares with another.
cl::opt<unsigned> WorkerPchLines("worker-pch-lines", cl::Hidden, cl::init(~0u),
                                 cl::cat(Category));

void error(const Twine &Message) {
  WithColor::error(errs(), "warp-tidy") << Message << "\n";
}
void warning(const Twine &Message) {
  WithColor::warning(errs(), "warp-tidy") << Message << "\n";
}

std::unique_ptr<ClangTidyOptionsProvider> makeOptionsProvider() {
  ClangTidyGlobalOptions Global;
  if (std::error_code EC = parseLineFilter(LineFilter, Global)) {
    error("invalid --line-filter: " + EC.message());
    return nullptr;
  }
  ClangTidyOptions Defaults = ClangTidyOptions::getDefaults();
  Defaults.Checks = "-*,warp-*";
  Defaults.HeaderFilterRegex = HeaderFilter;
  Defaults.SystemHeaders = SystemHeaders;
  Defaults.WarningsAsErrors = "";

  ClangTidyOptions Overrides;
  if (Checks.getNumOccurrences())
    Overrides.Checks = Checks;
  if (WarningsAsErrors.getNumOccurrences())
    Overrides.WarningsAsErrors = WarningsAsErrors;
  if (HeaderFilter.getNumOccurrences())
    Overrides.HeaderFilterRegex = HeaderFilter;
  if (SystemHeaders.getNumOccurrences())
    Overrides.SystemHeaders = SystemHeaders;
  if (ExcludeHeaderFilter.getNumOccurrences())
    Overrides.ExcludeHeaderFilterRegex = ExcludeHeaderFilter;
  if (FormatStyle.getNumOccurrences())
    Overrides.FormatStyle = FormatStyle;
  if (UseColor.getNumOccurrences())
    Overrides.UseColor = UseColor;

  auto FS = vfs::getRealFileSystem();
  std::string Text = Config;
  std::string Source = "<--config>";
  if (ConfigFile.getNumOccurrences()) {
    auto Buffer = MemoryBuffer::getFile(ConfigFile);
    if (!Buffer) {
      error("cannot read --config-file '" + ConfigFile +
            "': " + Buffer.getError().message());
      return nullptr;
    }
    Text = (*Buffer)->getBuffer().str();
    Source = ConfigFile;
  }
  if (Config.getNumOccurrences() || ConfigFile.getNumOccurrences()) {
    ErrorOr<ClangTidyOptions> Parsed =
        parseConfiguration(MemoryBufferRef(Text, Source));
    if (!Parsed) {
      error("invalid configuration in " + Source + ": " + Parsed.getError().message());
      return nullptr;
    }
    return std::make_unique<ConfigOptionsProvider>(
        std::move(Global), std::move(Defaults), std::move(*Parsed),
        std::move(Overrides), FS);
  }
  // .clang-tidy files next to the sources apply, as with clang-tidy, except
  // that one written for clang-tidy alone does not turn warp-tidy off.
  return warp_tidy::keepWarpChecksOn(std::make_unique<FileOptionsProvider>(
      std::move(Global), std::move(Defaults), std::move(Overrides), FS));
}

// --vfsoverlay: the overlay over \p Base, or null (and an error printed).
IntrusiveRefCntPtr<vfs::FileSystem> loadVfsOverlay(IntrusiveRefCntPtr<vfs::FileSystem> Base) {
  auto Buffer = Base->getBufferForFile(VfsOverlay);
  if (!Buffer) {
    error("cannot read --vfsoverlay '" + VfsOverlay + "': " + Buffer.getError().message());
    return nullptr;
  }
  IntrusiveRefCntPtr<vfs::FileSystem> Overlay =
      vfs::getVFSFromYAML(std::move(*Buffer), nullptr, VfsOverlay, nullptr, Base);
  if (!Overlay)
    error("invalid --vfsoverlay '" + VfsOverlay + "'");
  return Overlay;
}

// clang's resource headers (__clang_cuda_runtime_wrapper.h, ...): an
// installed warp-tidy carries its own copy next to it, so it works from any
// prefix and needs no -dev package; a build tree has a link to clang's;
// otherwise the directory of the clang it was built with.
std::string resourceDir(const char *Argv0) {
  SmallString<256> Bin(sys::fs::getMainExecutable(Argv0, (void *)&resourceDir));
  sys::path::remove_filename(Bin);
  std::string Major = std::to_string(LLVM_VERSION_MAJOR);
  for (StringRef Relative : {"../lib/warp-tidy/lib/clang", "../lib/clang"}) {
    SmallString<256> Dir(Bin);
    sys::path::append(Dir, Relative, Major);
    SmallString<256> Probe(Dir);
    sys::path::append(Probe, "include", "__clang_cuda_runtime_wrapper.h");
    if (sys::fs::exists(Probe)) {
      sys::path::remove_dots(Dir, /*remove_dot_dot=*/true);
      return Dir.str().str();
    }
  }
  return WARP_TIDY_CLANG_RESOURCE_DIR;
}

// clang-tidy's wording first (tools grep for it), then what to do.
std::string noChecksMessage(StringRef File) {
  return "no checks enabled for '" + File.str() +
         "': the effective Checks (--checks, --config, .clang-tidy) switch off "
         "every warp- check; name some (e.g. --checks='-*,warp-*') or pass "
         "--allow-no-checks";
}

// Only an explicit -p loads a database. Searching the sources' parent
// directories (as clang-tidy does) picks up unrelated databases, e.g. a C++
// project's own build tree, and silently analyses CUDA files with flags
// inferred from C++ ones; without -p the embedded CUDA defaults apply.
std::unique_ptr<clang::tooling::CompilationDatabase> loadDatabase(bool &Failed) {
  if (BuildPath.empty())
    return nullptr;
  if (!sys::fs::is_directory(BuildPath)) {
    error("cannot load a compilation database from '" + BuildPath +
          "': not a directory");
    Failed = true;
    return nullptr;
  }
  std::string Message;
  auto DB = clang::tooling::CompilationDatabase::autoDetectFromDirectory(BuildPath,
                                                                         Message);
  if (!DB) {
    error("cannot load a compilation database from '" + BuildPath + "': " + Message);
    Failed = true;
  }
  return DB;
}


// The same header diagnostic reached through several translation units is
// one finding; the first occurrence (in file order) is kept.
std::string dedupeKey(const ClangTidyError &E) {
  return E.DiagnosticName + "\x1f" +
         warp_tidy::absolutePath(E.Message.FilePath, E.BuildDirectory) + "\x1f" +
         std::to_string(E.Message.FileOffset) + "\x1f" + E.Message.Message;
}

//===-- Worker: one file, in a child process -------------------------------===//

// Records every file the analysis reads (the main file and each header, the
// toolkit's included), with the size and time it had when it was opened: the
// dependency list of a cache entry.
class TrackingFileSystem : public vfs::ProxyFileSystem {
public:
  struct Opened {
    uint64_t Size;
    int64_t MTimeNs;
  };
  using ProxyFileSystem::ProxyFileSystem;

  ErrorOr<std::unique_ptr<vfs::File>> openFileForRead(const Twine &Path) override {
    auto File = ProxyFileSystem::openFileForRead(Path);
    if (File) {
      if (auto Status = (*File)->status())
        Files.try_emplace(warp_tidy::dependencyPath(Path, *this),
                          Opened{Status->getSize(),
                                 warp_tidy::mtimeNs(Status->getLastModificationTime())});
    }
    return File;
  }

  StringMap<Opened> Files;
};

// Out of memory under --memory-limit: a distinct exit status the parent
// reports as this file's error (not as a crash).
void exitOutOfMemory(void *, const char *, bool) {
  static const char Message[] = "warp-tidy: worker: out of memory\n";
  (void)!::write(2, Message, sizeof(Message) - 1);
  ::_exit(ExitOutOfMemory);
}

// The address-space limit makes an exploding analysis fail its allocation
// (exit ExitOutOfMemory) instead of taking the machine down.
void limitWorkerMemory() {
  std::optional<uint64_t> Bytes = warp_tidy::parseByteSize(WorkerMemoryLimit);
  if (!Bytes || !*Bytes)
    return;
  struct rlimit Limit;
  Limit.rlim_cur = Limit.rlim_max = *Bytes;
  setrlimit(RLIMIT_AS, &Limit);
  install_bad_alloc_error_handler(exitOutOfMemory);
  install_out_of_memory_new_handler();
}

bool workerTestHook(const char *Variable) {
  auto Value = sys::Process::GetEnv(Variable);
  return Value && !Value->empty() && StringRef(WorkerFile).contains(*Value);
}

// The shared precompiled prologue lives next to the result cache (and is
// evicted with it); --no-pch turns it off. So does --vfsoverlay: a PCH is
// shared by flags, and the overlay could remap a header it holds.
warp_tidy::PrologueSettings prologueSettings() {
  warp_tidy::PrologueSettings S;
  std::string Dir = CacheDir.empty() ? warp_tidy::defaultCacheDir() : CacheDir;
  if (!NoPch && !Dir.empty() && VfsOverlay.empty())
    S.Directory = warp_tidy::prologueDirectory(Dir);
  if (WorkerPchLines != ~0u)
    S.LeadingLines = WorkerPchLines;
  return S;
}

int runWorker(ClangTidyContext &Context,
              const warp_tidy::WarpCompilationDatabase &Database) {
  limitWorkerMemory();
  // Test hooks: let the lit suite check how a crashing, hanging or exploding
  // analysis is reported.
  if (workerTestHook("WARP_TIDY_TEST_CRASH_IN_WORKER"))
    std::abort();
  if (workerTestHook("WARP_TIDY_TEST_HANG_IN_WORKER"))
    for (;;)
      std::this_thread::sleep_for(std::chrono::seconds(1));
  if (workerTestHook("WARP_TIDY_TEST_EXPLODE_IN_WORKER")) {
    // Bounded (64 GiB of address space, pages untouched): if the limit were
    // not applied, the test sees a crash, and the machine is not harmed.
    static std::vector<void *> Kept;
    for (int I = 0; I < 1024; ++I)
      Kept.push_back(safe_malloc(64 << 20));
    std::abort();
  }

  auto Tracker = makeIntrusiveRefCnt<TrackingFileSystem>(vfs::getRealFileSystem());
  auto BaseFS = makeIntrusiveRefCnt<vfs::OverlayFileSystem>(Tracker);
  if (!VfsOverlay.empty()) {
    IntrusiveRefCntPtr<vfs::FileSystem> Overlay = loadVfsOverlay(Tracker);
    if (!Overlay)
      return ExitToolError;
    BaseFS->pushOverlay(Overlay);
  }
  // One pass per arch variant with warp code (ArchPasses.h), usually one,
  // each over the shared prologue when it is on (PrecompiledPrologue.h).
  warp_tidy::ArchPassSummary Passes;
  warp_tidy::PrologueOutcome Prologue;
  std::vector<ClangTidyError> Errors = warp_tidy::runArchPasses(
      Context, Database, WorkerFile, BaseFS, FixNotes, prologueSettings(), Prologue,
      MaxArchPasses, Passes);
  // Inline asm written for nvcc (`%laneid` in an asm with operands): read it
  // as nvcc does, in memory, rather than leave the unit unanalysed
  // (NvccAsmEscapes.h). Each round doubles the `%`s clang named; one asm
  // statement reports one at a time. No PCH: its headers would hold the
  // edited text under the key of the files on disk.
  warp_tidy::AsmEscapeEdits AsmEdits;
  for (unsigned Round = 0; Round < 16 && AsmEdits.addEditsFor(Errors, *BaseFS); ++Round) {
    warp_tidy::PrologueSettings NoPch = prologueSettings();
    NoPch.Directory.clear();
    Passes = warp_tidy::ArchPassSummary();
    Prologue = warp_tidy::PrologueOutcome();
    Errors = warp_tidy::runArchPasses(Context, Database, WorkerFile, AsmEdits.overlay(BaseFS),
                                      FixNotes, NoPch, Prologue, MaxArchPasses, Passes);
  }
  if (!AsmEdits.empty()) {
    AsmEdits.mapBack(Errors);
    if (sys::Process::GetEnv("WARP_TIDY_DEBUG_ASM"))
      errs() << "warp-tidy: debug: asm: read the '%' escapes of inline asm as nvcc does\n";
  }

  // Cacheable only when the result depends on nothing but the files read:
  // a unit that does not compile may be fixed by a header appearing, and a
  // file changed while it was analysed has no single content to record.
  bool Cacheable = !llvm::any_of(Errors, isCompilerError);
  std::vector<warp_tidy::FileStamp> Deps;
  std::vector<std::string> Paths;
  for (const auto &Entry : Tracker->Files)
    if (!Prologue.isPrologueFile(Entry.getKey()))
      Paths.push_back(Entry.getKey().str());
  llvm::sort(Paths);
  for (const std::string &P : Paths) {
    const TrackingFileSystem::Opened &O = Tracker->Files.find(P)->second;
    std::optional<warp_tidy::FileStamp> S = warp_tidy::stampFile(P);
    if (!S || S->Size != O.Size || S->MTimeNs != O.MTimeNs) {
      if (sys::Process::GetEnv("WARP_TIDY_DEBUG_CACHE"))
        errs() << "warp-tidy: debug: not cacheable: " << P << " changed while read ("
               << O.Size << "/" << O.MTimeNs << " -> "
               << (S ? std::to_string(S->Size) + "/" + std::to_string(S->MTimeNs) : "gone")
               << ")\n";
      Cacheable = false;
      continue;
    }
    Deps.push_back(std::move(*S));
  }
  // The prologue's headers were read into the PCH, not by this analysis:
  // they are dependencies all the same.
  warp_tidy::mergeStamps(Deps, Prologue.Deps);
  if (Deps.empty())
    Cacheable = false;

  json::Object Out{{"diagnostics", warp_tidy::diagnosticsToJson(Errors)},
                   {"deps", warp_tidy::stampsToJson(Deps)},
                   {"cacheable", Cacheable},
                   {"archPasses", warp_tidy::archPassSummaryToJson(Passes)}};
  std::error_code EC;
  raw_fd_ostream OS(WorkerOutput, EC, sys::fs::OF_None);
  if (EC) {
    error("cannot write '" + WorkerOutput + "': " + EC.message());
    return ExitToolError;
  }
  OS << json::Value(std::move(Out));
  OS.close();
  return OS.has_error() ? ExitToolError : ExitClean;
}

//===-- Parent: many files -------------------------------------------------===//

// A database entry is a CUDA unit when its file is .cu/.cuh or its command
// compiles it as CUDA (nvcc/clang `-x cu`, `-x cuda`).
bool isCudaUnit(const clang::tooling::CompilationDatabase &DB, StringRef File) {
  if (warp_tidy::isCudaSourceName(File))
    return true;
  for (const clang::tooling::CompileCommand &C : DB.getCompileCommands(File)) {
    const std::vector<std::string> &A = C.CommandLine;
    for (size_t I = 0; I < A.size(); ++I) {
      StringRef Arg = A[I];
      StringRef Lang;
      if ((Arg == "-x" || Arg == "--x") && I + 1 < A.size())
        Lang = A[I + 1];
      else if (Arg.starts_with("-x") && !Arg.starts_with("-xc++"))
        Lang = Arg.drop_front(2).ltrim('=');
      else if (Arg.starts_with("--x="))
        Lang = Arg.drop_front(4);
      if (Lang == "cu" || Lang == "cuda")
        return true;
    }
  }
  return false;
}

// Identifies this build of the tool for cache keys: a rebuilt binary (new
// checks, fixed bugs) must not reuse results of the old one, while the same
// binary rebuilt bit for bit (a CI runner restoring its cache) may.
std::string executableIdentity(const char *Argv0) {
  std::string Exe = sys::fs::getMainExecutable(Argv0, (void *)&executableIdentity);
  if (std::optional<warp_tidy::FileStamp> S = warp_tidy::stampFile(Exe))
    return S->Hash;
  return Exe;
}

struct FileState {
  std::string Path;
  std::vector<clang::tooling::CompileCommand> Commands;
  std::string Key;                   ///< Cache key (empty: not cacheable).
  std::vector<ClangTidyError> Errors; ///< Its diagnostics.
  warp_tidy::FileReport Report;
  std::string WorkerStderr;
  std::string StatsLine; ///< --pass-stats: its analysis passes.
  bool Failed = false;   ///< Tool error for this file (not its findings).
  bool Finished = false; ///< Its result (or error) is known.
};

// Progress on stderr: a bar redrawn in place on a terminal, one line per
// finished file otherwise (CI logs).
class Progress {
public:
  Progress(size_t Total, bool Enabled)
      : Total(Total), Enabled(Enabled),
        Terminal(sys::Process::StandardErrIsDisplayed()) {}

  void done(StringRef File, StringRef What, double Seconds) {
    ++Done;
    if (!Enabled)
      return;
    if (Terminal) {
      constexpr unsigned Width = 30;
      unsigned Filled = static_cast<unsigned>(Width * Done / Total);
      errs() << "\r\x1b[K[" << std::string(Filled, '=')
             << std::string(Width - Filled, ' ') << "] " << Done << "/" << Total << " "
             << sys::path::filename(File);
      if (What != "analysed")
        errs() << " (" << What << ")";
      return;
    }
    errs() << "warp-tidy: [" << Done << "/" << Total << "] " << What << " " << File
           << formatv(" ({0:f1}s)", Seconds) << "\n";
  }

  void finish() { clearLine(); }

  /// Before other output: a bar redrawn in place must not be left in it.
  void clearLine() {
    if (Enabled && Terminal && Done)
      errs() << "\r\x1b[K";
  }

private:
  size_t Total, Done = 0;
  bool Enabled, Terminal;
};

bool parseShard(StringRef Text, unsigned &Index, unsigned &Count) {
  auto [I, N] = Text.split('/');
  return !I.trim().getAsInteger(10, Index) && !N.trim().getAsInteger(10, Count) &&
         Count >= 1 && Index >= 1 && Index <= Count;
}

std::string readFileOrEmpty(StringRef Path) {
  auto Buffer = MemoryBuffer::getFile(Path);
  return Buffer ? (*Buffer)->getBuffer().str() : std::string();
}

// Editors run clangd on the project's compile_commands.json, which for CMake
// + nvcc is unusable by clang. The translated database fixes that for
// warp-clangd (and plain clangd) users.
/// 1.5 MiB, 12 KiB, 300 bytes: sizes in messages.
std::string humanSize(uint64_t Bytes) {
  if (Bytes >= (1ull << 20))
    return formatv("{0:F1} MiB", double(Bytes) / (1ull << 20)).str();
  if (Bytes >= 1024)
    return formatv("{0:F1} KiB", double(Bytes) / 1024).str();
  return std::to_string(Bytes) + " bytes";
}

int writeCompileCommands(const warp_tidy::WarpCompilationDatabase &Database,
                         ArrayRef<std::string> Files, StringRef Dir) {
  if (std::error_code EC = sys::fs::create_directories(Dir)) {
    error("cannot create '" + Dir + "': " + EC.message());
    return ExitToolError;
  }
  // The commands force-include the arch-shims header, which a warp-tidy run
  // keeps in the temporary directory. An exported database outlives that
  // (clangd reads it after a reboot), so it gets its own copy, next to it.
  SmallString<256> Shims(Dir);
  sys::fs::make_absolute(Shims);
  sys::path::append(Shims, "warp-tidy-arch-shims.h");
  sys::path::remove_dots(Shims, /*remove_dot_dot=*/true);
  std::string TempShims = warp_tidy::archShimsPath();
  if (!TempShims.empty()) {
    if (Error E = writeToOutput(Shims, [&](raw_ostream &OS) {
          OS << warp_tidy::archShimsText();
          return Error::success();
        })) {
      error("cannot write '" + Shims + "': " + toString(std::move(E)));
      return ExitToolError;
    }
  }
  json::Array Entries;
  for (const std::string &F : Files)
    for (const clang::tooling::CompileCommand &C : Database.getCompileCommands(F)) {
      json::Array Arguments;
      for (const std::string &A : C.CommandLine)
        Arguments.push_back(!TempShims.empty() && A == TempShims ? std::string(Shims) : A);
      Entries.push_back(json::Object{{"directory", C.Directory},
                                     {"file", C.Filename},
                                     {"arguments", std::move(Arguments)}});
    }
  SmallString<256> Path(Dir);
  sys::path::append(Path, "compile_commands.json");
  // Written through a temporary file and renamed: a reader never sees half.
  if (Error E = writeToOutput(Path, [&](raw_ostream &OS) {
        OS << formatv("{0:2}", json::Value(std::move(Entries))) << "\n";
        return Error::success();
      })) {
    error("cannot write '" + Path + "': " + toString(std::move(E)));
    return ExitToolError;
  }
  if (!Quiet)
    errs() << "warp-tidy: wrote " << Path << "\n";
  return ExitClean;
}

} // namespace

int main(int argc, const char **argv) {
  InitLLVM X(argc, argv);

  // Everything after the first `--` is compiler arguments.
  std::vector<const char *> ToolArgv;
  std::vector<std::string> CompilerArgs;
  bool HasDoubleDash = false;
  for (int I = 0; I < argc; ++I) {
    if (!HasDoubleDash && StringRef(argv[I]) == "--" && I > 0) {
      HasDoubleDash = true;
      continue;
    }
    if (HasDoubleDash)
      CompilerArgs.push_back(argv[I]);
    else
      ToolArgv.push_back(argv[I]);
  }

  cl::HideUnrelatedOptions(Category);
  // clang-tidy's layout: drivers (cpp-linter, run-clang-tidy) read the first
  // "version X.Y.Z" as the clang-tidy version, which is LLVM's here.
  cl::SetVersionPrinter([](raw_ostream &OS) {
    OS << "warp-tidy LLVM version " << LLVM_VERSION_STRING << "\n"
       << "  Optimized build.\n"
       << "  warp-tidy " << WARP_TIDY_VERSION
       << " (CUDA warp-level intrinsic checks)\n";
  });
  if (!cl::ParseCommandLineOptions(
          static_cast<int>(ToolArgv.size()), ToolArgv.data(),
          "warp-tidy: finds misuse of CUDA warp-level intrinsics.\n\n"
          "  warp-tidy kernels/            every .cu/.cuh below, embedded defaults\n"
          "  warp-tidy -p build/ a.cu      flags from build/compile_commands.json\n"
          "  warp-tidy a.cu -- -arch=sm_80 explicit flags (nvcc or clang style)\n\n"
          "Exit status: 0 no findings, 1 findings, 2 usage or tool error.\n",
          &errs()))
    return ExitToolError;

  // --diff: git's changed lines become the line filter. Workers receive the
  // filter (--line-filter), so git runs once and the cache key sees it.
  if (Diff.getNumOccurrences() && WorkerFile.empty()) {
    if (LineFilter.getNumOccurrences()) {
      error("--diff and --line-filter cannot be combined (--diff builds the line filter)");
      return ExitToolError;
    }
    std::string Revision = Diff.empty() ? "HEAD" : Diff.getValue();
    std::vector<warp_tidy::ChangedFile> Changed;
    std::string Why;
    if (!warp_tidy::changedLines(Revision, Changed, Why)) {
      error(Why);
      return ExitToolError;
    }
    LineFilter = warp_tidy::lineFilterJson(Changed);
    if (Inputs.empty() && BuildPath.empty()) {
      for (const warp_tidy::ChangedFile &F : Changed)
        if (warp_tidy::isCudaSourceName(F.Path) && !F.Lines.empty() &&
            sys::fs::exists(F.Path))
          Inputs.push_back(F.Path);
      if (Inputs.empty()) {
        if (!Quiet)
          WithColor::note(errs(), "warp-tidy")
              << "no CUDA source has changed lines since " << Revision << "\n";
        return ExitClean;
      }
    }
  }
  if (UpdateBaseline && BaselineFile.empty()) {
    error("--update-baseline needs --baseline=<file>");
    return ExitToolError;
  }

  auto OptionsProvider = makeOptionsProvider();
  if (!OptionsProvider)
    return ExitToolError;
  if (!VfsOverlay.empty() && !loadVfsOverlay(vfs::getRealFileSystem()))
    return ExitToolError;

  // A typo in an explicit glob would otherwise switch everything off. (The
  // parent has judged the globs before starting a worker.)
  if (Checks.getNumOccurrences() && WorkerFile.empty()) {
    for (const std::string &Glob : warp_tidy::unmatchedGlobs(Checks, false)) {
      StringRef Name = StringRef(Glob).ltrim('-');
      std::string Near = warp_tidy::closestCheck(Name);
      std::string Message = "--checks glob '" + Name.str() + "' matches no check" +
                            (Near.empty() ? "" : "; did you mean '" + Near + "'?") +
                            " (--list-checks --checks='*' lists them)";
      if (Glob[0] == '-') {
        warning(Message);
        continue;
      }
      error(Message);
      return ExitToolError;
    }
  }

  StringRef FirstInput = Inputs.empty() ? StringRef("dummy.cu") : StringRef(Inputs.front());
  if (VerifyConfig) {
    std::vector<std::string> Problems;
    std::vector<std::string> Files(Inputs.begin(), Inputs.end());
    if (Files.empty())
      Files.push_back("dummy.cu");
    for (StringRef File : Files) {
      SmallString<256> Abs(File);
      sys::fs::make_absolute(Abs);
      for (std::string &P : warp_tidy::verifyConfiguration(*OptionsProvider, Abs))
        if (!llvm::is_contained(Problems, P))
          Problems.push_back(std::move(P));
    }
    for (const std::string &P : Problems)
      errs() << P << "\n";
    if (!Problems.empty())
      return 1;
    outs() << "No config errors detected.\n";
    return ExitClean;
  }

  if (ListChecks || DumpConfig) {
    ClangTidyOptions Effective = OptionsProvider->getOptions(FirstInput);
    std::vector<std::string> Enabled = getCheckNames(Effective, false, false);
    if (ListChecks && Enabled.empty() && !AllowNoChecks) {
      error(noChecksMessage(FirstInput));
      return ExitToolError;
    }
    if (ListChecks) {
      outs() << "Enabled checks:";
      for (const std::string &Name : Enabled)
        outs() << "\n    " << Name;
      outs() << "\n";
    } else {
      Effective.CheckOptions = getCheckOptions(Effective, false, false);
      filterCheckOptions(Effective, Enabled);
      outs() << configurationAsText(Effective) << "\n";
    }
    return ExitClean;
  }

  bool Worker = !WorkerFile.empty();
  if (!Worker && Inputs.empty() && BuildPath.empty()) {
    error("no input files; give files or directories, or -p <build-dir> (see --help)");
    return ExitToolError;
  }
  if (Format != "text" && Format != "json" && Format != "sarif") {
    error("unknown --format '" + Format + "': use text, json or sarif");
    return ExitToolError;
  }
  if (!OutputFile.empty() && Format == "text") {
    error("--output needs --format=json or --format=sarif");
    return ExitToolError;
  }
  unsigned ShardIndex = 1, ShardCount = 1;
  if (!Shard.empty() && !parseShard(Shard, ShardIndex, ShardCount)) {
    error("invalid --shard '" + Shard + "': expected i/N with 1 <= i <= N");
    return ExitToolError;
  }
  std::optional<uint64_t> CacheBytes = warp_tidy::parseByteSize(CacheSize);
  if (!CacheBytes) {
    error("invalid --cache-size '" + CacheSize + "': expected e.g. 512M or 2G");
    return ExitToolError;
  }
  std::optional<uint64_t> MemoryBytes = warp_tidy::parseByteSize(MemoryLimit);
  if (!MemoryBytes) {
    error("invalid --memory-limit '" + MemoryLimit + "': expected e.g. 4G, or 0");
    return ExitToolError;
  }
  std::optional<uint64_t> MaxFileBytes = warp_tidy::parseByteSize(MaxFileSize);
  if (!MaxFileBytes) {
    error("invalid --max-file-size '" + MaxFileSize + "': expected e.g. 64M or 1G, or 0");
    return ExitToolError;
  }
  auto StartTime = std::chrono::steady_clock::now();

  std::string Why;
  std::optional<warp_tidy::CudaInstallation> Cuda =
      warp_tidy::findCudaInstallation(CudaPath, Why);
  if (!Cuda) {
    error(Why);
    return ExitToolError;
  }

  warp_tidy::ExpandedInputs Expanded;
  if (!Worker) {
    Expanded = warp_tidy::expandInputs(Inputs);
    if (*MaxFileBytes)
      for (const std::string &File : Expanded.Files) {
        uint64_t Size = 0;
        if (!Expanded.Errors.count(File) && !sys::fs::file_size(File, Size) &&
            Size > *MaxFileBytes)
          Expanded.Errors[File] =
              formatv("'{0}' is {1}, larger than --max-file-size ({2}): not analysed; "
                      "pass --max-file-size=0 (no limit) or a larger size to analyse it "
                      "anyway",
                      File, humanSize(Size), humanSize(*MaxFileBytes))
                  .str();
      }
  }

  bool DatabaseFailed = false;
  auto Inner = loadDatabase(DatabaseFailed);
  if (DatabaseFailed)
    return ExitToolError;
  const clang::tooling::CompilationDatabase *RawDatabase = Inner.get();

  warp_tidy::CommandSettings Settings;
  Settings.Cuda = *Cuda;
  Settings.ResourceDir = resourceDir(argv[0]);
  if (auto Env = sys::Process::GetEnv("WARP_TIDY_RESOURCE_DIR"))
    Settings.ResourceDir = *Env;
  Settings.ExtraArgs = CompilerArgs;
  Settings.ExtraArgs.insert(Settings.ExtraArgs.end(), ExtraArg.begin(), ExtraArg.end());
  Settings.ExtraArgsBefore.assign(ExtraArgBefore.begin(), ExtraArgBefore.end());
  warp_tidy::WarpCompilationDatabase Database(std::move(Inner), std::move(Settings));

  if (Worker) {
    InitializeAllTargetInfos();
    InitializeAllTargetMCs();
    InitializeAllAsmParsers();
    ClangTidyContext Context(std::move(OptionsProvider), false, false, false);
    return runWorker(Context, Database);
  }

  std::vector<std::string> Files = Expanded.Files;
  std::vector<std::string> Notes;
  if (Files.empty() && RawDatabase) {
    // -p alone: every CUDA unit in the database, sorted; the others are
    // skipped with a note (name them explicitly to analyse them).
    std::vector<std::string> All = Database.getAllFiles();
    llvm::sort(All);
    std::vector<std::string> Skipped;
    for (std::string &F : All) {
      if (isCudaUnit(*RawDatabase, F))
        Files.push_back(std::move(F));
      else
        Skipped.push_back(std::move(F));
    }
    if (!Skipped.empty()) {
      std::string List;
      for (size_t I = 0; I < Skipped.size() && I < 3; ++I)
        List += (I ? ", " : "") + Skipped[I];
      if (Skipped.size() > 3)
        List += ", ...";
      Notes.push_back("skipped " + std::to_string(Skipped.size()) +
                      " non-CUDA unit(s) of the compilation database (" + List +
                      "); name them explicitly to analyse them");
    }
    if (Files.empty()) {
      error("the compilation database in '" + BuildPath + "' has no CUDA sources");
      return ExitToolError;
    }
  }

  if (!ExportCompileCommands.empty())
    return writeCompileCommands(Database, Files, ExportCompileCommands);

  if (ShardCount > 1) {
    // Stable: the k-th file of the sorted list goes to shard k mod N, so every
    // shard of a CI matrix sees a disjoint part of the same list.
    std::vector<std::string> Mine;
    for (size_t I = 0; I < Files.size(); ++I)
      if (I % ShardCount == ShardIndex - 1)
        Mine.push_back(Files[I]);
    Files = std::move(Mine);
    if (Files.empty()) {
      if (!Quiet)
        errs() << "warp-tidy: shard " << Shard << " has no files\n";
      return ExitClean;
    }
  }
  bool SingleFile = Files.size() == 1;

  InitializeAllTargetInfos();
  InitializeAllTargetMCs();
  InitializeAllAsmParsers();
  ClangTidyContext Context(std::move(OptionsProvider), false, false, false);

  std::vector<FileState> States(Files.size());
  for (size_t I = 0; I < Files.size(); ++I) {
    FileState &S = States[I];
    S.Path = Files[I];
    S.Report.Path = Files[I];
    S.Report.Status = "analysed";
    S.Commands = Database.getCompileCommands(S.Path);
    if (PrintCommands)
      for (const auto &C : S.Commands) {
        errs() << "warp-tidy: command for " << S.Path << ":";
        for (const std::string &A : C.CommandLine)
          errs() << " " << A;
        errs() << "\n";
      }
    if (S.Commands.size() > 1)
      Notes.push_back("'" + S.Path + "' has " + std::to_string(S.Commands.size()) +
                      " different entries in the compilation database; each is "
                      "analysed and the findings merged");
  }

  // Never silently off: every file must get some check.
  if (!AllowNoChecks)
    for (const FileState &S : States)
      if (getCheckNames(Context.getOptionsForFile(S.Path), false, false).empty()) {
        error(noChecksMessage(S.Path));
        return ExitToolError;
      }

  // Unusable arguments and files named in the database but absent on disk:
  // each is that file's error; the others are analysed.
  for (FileState &S : States) {
    std::string Message;
    auto Bad = Expanded.Errors.find(S.Path);
    if (Bad != Expanded.Errors.end())
      Message = Bad->second;
    else if (!sys::fs::exists(S.Path))
      Message = "cannot read '" + S.Path +
                "' (listed in the compilation database): no such file";
    else
      continue;
    S.Failed = true;
    S.Finished = true;
    S.Report.Status = "failed";
    S.Report.Messages.push_back(Message);
  }

  // The result cache.
  std::optional<warp_tidy::ResultCache> Cache;
  if (!NoCache) {
    std::string Dir = CacheDir.empty() ? warp_tidy::defaultCacheDir() : CacheDir;
    if (!Dir.empty()) {
      Cache.emplace(Dir, *CacheBytes);
      std::string CacheWhy;
      if (!Cache->open(CacheWhy)) {
        warning(CacheWhy + "; running without the cache");
        Cache.reset();
      }
    }
  }
  unsigned CacheHits = 0, CacheMisses = 0;
  if (Cache) {
    std::string Identity = executableIdentity(argv[0]);
    for (FileState &S : States) {
      if (S.Failed)
        continue;
      std::vector<std::string> Parts = {"warp-tidy-result/2", WARP_TIDY_VERSION,
                                        LLVM_VERSION_STRING, Identity,
                                        configurationAsText(Context.getOptionsForFile(S.Path)),
                                        FixNotes ? "fix-notes" : "", LineFilter,
                                        "arch-passes=" + std::to_string(MaxArchPasses),
                                        VfsOverlay.empty() ? ""
                                            : readFileOrEmpty(VfsOverlay),
                                        S.Path};
      for (const auto &C : S.Commands) {
        Parts.push_back(C.Directory);
        Parts.push_back(C.Filename);
        for (const std::string &A : C.CommandLine)
          Parts.push_back(A);
        Parts.push_back("\x1e");
      }
      S.Key = warp_tidy::hashParts(Parts);
      if (auto Hit = Cache->lookup(S.Key)) {
        S.Errors = std::move(*Hit);
        S.Report.Status = "cached";
        S.StatsLine = "cached (no analysis pass)";
        S.Finished = true;
        ++CacheHits;
      } else {
        ++CacheMisses;
      }
    }
  }

  // Output is streamed: a file's diagnostics are printed as soon as it and
  // every file before it are finished, so a run killed half-way has shown
  // what it found, and the order never depends on timing.
  if (!Quiet)
    for (const std::string &N : Notes)
      WithColor::note(errs(), "warp-tidy") << N << "\n";
  bool TextOutput = Format == "text";
  unsigned Parallel = Jobs ? Jobs.getValue() : std::thread::hardware_concurrency();
  size_t ToAnalyseCount =
      llvm::count_if(States, [](const FileState &S) { return !S.Finished; });
  Progress Bar(ToAnalyseCount, !Quiet && !SingleFile);
  auto DiagnosticFS = makeIntrusiveRefCnt<vfs::OverlayFileSystem>(vfs::getRealFileSystem());
  StringSet<> Seen;
  // --baseline: findings recorded earlier are not reported. Fingerprints
  // are relative to the source root, as in the SARIF/JSON reports.
  SmallString<256> RootDir(SourceRoot);
  if (RootDir.empty())
    sys::fs::current_path(RootDir);
  std::string SourceRootPath = warp_tidy::absolutePath(RootDir, "");
  StringSet<> Baseline;
  bool UseBaseline = !BaselineFile.empty() && !UpdateBaseline;
  if (UseBaseline) {
    std::string Why;
    if (!warp_tidy::loadBaseline(BaselineFile, Baseline, Why)) {
      error(Why);
      return ExitToolError;
    }
  }
  warp_tidy::Fingerprinter Fingerprint(SourceRootPath);
  size_t Baselined = 0;
  std::vector<ClangTidyError> Errors; // Deduplicated, in file order.
  size_t NextToPrint = 0;
  unsigned WarningsAsErrorsCount = 0;
  auto PrintFinished = [&] {
    while (NextToPrint < States.size() && States[NextToPrint].Finished) {
      FileState &S = States[NextToPrint++];
      Bar.clearLine();
      if (!S.WorkerStderr.empty())
        errs() << S.WorkerStderr;
      if (Stats && !S.StatsLine.empty())
        errs() << "warp-tidy: stats: " << S.Path << ": " << S.StatsLine << "\n";
      for (const std::string &M : S.Report.Messages)
        error(M);
      std::vector<ClangTidyError> Fresh;
      for (ClangTidyError &E : S.Errors)
        if (Seen.insert(dedupeKey(E)).second)
          Fresh.push_back(std::move(E));
      S.Errors.clear();
      if (UseBaseline)
        llvm::erase_if(Fresh, [&](const ClangTidyError &E) {
          bool Known = isWarpFinding(E) && Baseline.contains(Fingerprint(E));
          Baselined += Known;
          return Known;
        });
      if (TextOutput && !UpdateBaseline && !Fresh.empty()) {
        Context.setCurrentFile(S.Path);
        handleErrors(Fresh, Context, FB_NoFix, WarningsAsErrorsCount, DiagnosticFS);
        outs().flush();
      }
      size_t OwnCompileErrors = llvm::count_if(Fresh, [&](const ClangTidyError &E) {
        return isCompilerError(E) &&
               warp_tidy::absolutePath(E.Message.FilePath, E.BuildDirectory) ==
                   warp_tidy::absolutePath(S.Path, "");
      });
      if (!SingleFile && OwnCompileErrors && !S.Failed) {
        S.Report.Status = "failed";
        S.Report.Messages.push_back(S.Path + " does not compile (" +
                                    std::to_string(OwnCompileErrors) +
                                    " error(s)); it was not fully analysed");
        error(S.Report.Messages.back());
      }
      std::move(Fresh.begin(), Fresh.end(), std::back_inserter(Errors));
    }
  };
  PrintFinished();

  // Everything else is analysed by worker processes.
  std::vector<size_t> ToAnalyse;
  for (size_t I = 0; I < States.size(); ++I)
    if (!States[I].Finished)
      ToAnalyse.push_back(I);
  if (!ToAnalyse.empty()) {
    SmallString<128> TempDir;
    if (std::error_code EC = sys::fs::createUniqueDirectory("warp-tidy", TempDir)) {
      error("cannot create a temporary directory: " + EC.message());
      return ExitToolError;
    }
    std::string Exe = sys::fs::getMainExecutable(argv[0], (void *)&executableIdentity);
    std::vector<std::string> AbsolutePaths;
    for (size_t I : ToAnalyse) {
      SmallString<256> Path(States[I].Path);
      sys::fs::make_absolute(Path);
      AbsolutePaths.push_back(Path.str().str());
    }
    // The cache directory holds the unit times, the PCHs and their budget
    // (and the result cache). Start the longest units first (UnitTimes.h),
    // by the times the last run recorded there; unless that directory is
    // not to be touched at all.
    std::string CacheDirectory = CacheDir.empty() ? warp_tidy::defaultCacheDir() : CacheDir;
    std::optional<warp_tidy::UnitTimes> Times;
    if ((!NoCache || !NoPch) && !CacheDirectory.empty())
      Times.emplace(CacheDirectory);
    std::vector<std::optional<double>> Last(ToAnalyse.size());
    if (Times)
      for (size_t N = 0; N < ToAnalyse.size(); ++N)
        Last[N] = Times->lastSeconds(AbsolutePaths[N]);
    std::vector<size_t> Order = warp_tidy::longestFirstOrder(Last);
    // Of several units, each puts into the shared PCH the leading #include
    // lines it shares with another, or all of them if an earlier run saw
    // it (LeadingIncludes.h: pchLinesForRun); a single unit, all of them
    // (its next run reuses them).
    std::vector<size_t> PchLines;
    if (ToAnalyse.size() > 1) {
      std::vector<std::vector<std::string>> Blocks;
      std::vector<std::string> Dirs;
      std::vector<bool> Seen;
      for (size_t N = 0; N < ToAnalyse.size(); ++N) {
        const std::string &Path = AbsolutePaths[N];
        auto Buffer = MemoryBuffer::getFile(Path);
        Blocks.push_back(Buffer ? warp_tidy::leadingIncludes((*Buffer)->getBuffer()).Lines
                                : std::vector<std::string>());
        Dirs.push_back(sys::path::parent_path(Path).str());
        Seen.push_back(Last[N].has_value());
      }
      size_t FullBlocks =
          NoPch ? 0 : warp_tidy::wholeBlockPchBudget(CacheDirectory, *CacheBytes);
      PchLines = warp_tidy::pchLinesForRun(Blocks, Dirs, Seen, AbsolutePaths, FullBlocks);
    }
    if (Times && ToAnalyse.size() > 1) {
      auto Permute = [&](auto &V) {
        std::remove_reference_t<decltype(V)> Out;
        for (size_t N : Order)
          Out.push_back(V[N]);
        V = std::move(Out);
      };
      Permute(ToAnalyse);
      Permute(AbsolutePaths);
      if (!PchLines.empty())
        Permute(PchLines);
    }
    if (sys::Process::GetEnv("WARP_TIDY_DEBUG_SCHEDULE"))
      for (size_t I : ToAnalyse)
        errs() << "warp-tidy: debug: schedule: " << States[I].Path << "\n";
    std::vector<warp_tidy::WorkerJob> WorkerJobs;
    std::vector<std::string> OutputPaths;
    for (size_t N = 0; N < ToAnalyse.size(); ++N) {
      warp_tidy::WorkerJob Job;
      Job.Args.push_back(Exe);
      for (size_t A = 1; A < ToolArgv.size(); ++A)
        if (!StringRef(ToolArgv[A]).ltrim('-').starts_with("diff"))
          Job.Args.push_back(ToolArgv[A]);
      if (Diff.getNumOccurrences())
        Job.Args.push_back("--line-filter=" + LineFilter.getValue());
      SmallString<128> Out(TempDir), Err(TempDir);
      sys::path::append(Out, std::to_string(N) + ".json");
      sys::path::append(Err, std::to_string(N) + ".stderr");
      Job.Args.push_back("--worker=" + States[ToAnalyse[N]].Path);
      if (!PchLines.empty())
        Job.Args.push_back("--worker-pch-lines=" + std::to_string(PchLines[N]));
      Job.Args.push_back("--worker-output=" + Out.str().str());
      // In KiB with its unit: parseByteSize reads a bare number as MiB.
      Job.Args.push_back("--worker-memory-limit=" + std::to_string(*MemoryBytes / 1024) +
                         "K");
      OutputPaths.push_back(Out.str().str());
      if (HasDoubleDash) {
        Job.Args.push_back("--");
        llvm::append_range(Job.Args, CompilerArgs);
      }
      Job.StdoutPath = "/dev/null";
      Job.StderrPath = Err.str().str();
      WorkerJobs.push_back(std::move(Job));
    }
    // SIGINT/SIGTERM (a CI timeout, Ctrl-C): stop the workers, report what
    // is finished. A second signal kills at once.
    sys::SetInterruptFunction(onInterrupt);
    warp_tidy::RunLimits Limits;
    Limits.Parallel = std::max(1u, Parallel);
    Limits.TimeoutSeconds = Timeout;
    auto StopRequested = [] { return InterruptRequested != 0; };
    Limits.ShouldStop = StopRequested; // A function_ref: the lambda must outlive it.
    warp_tidy::runWorkers(
        WorkerJobs, Limits, [&](size_t N, const warp_tidy::WorkerOutcome &O) {
          FileState &S = States[ToAnalyse[N]];
          const std::string &OutPath = OutputPaths[N];
          if (Times && O.Started && !O.Interrupted)
            Times->record(AbsolutePaths[N], O.Seconds);
          S.WorkerStderr = readFileOrEmpty(WorkerJobs[N].StderrPath);
          S.Finished = true;
          auto Fail = [&](const std::string &Status, const std::string &Message) {
            S.Failed = true;
            S.Report.Status = Status;
            S.Report.Messages.push_back(Message);
          };
          if (O.Interrupted || (InterruptRequested && O.Signal)) {
            S.WorkerStderr.clear();
            Fail("interrupted", "'" + S.Path + "' was not analysed: the run was interrupted");
          } else if (!O.Started) {
            Fail("failed", "cannot start the analysis of '" + S.Path + "': " + O.StartError);
          } else if (O.TimedOut) {
            Fail("timeout", formatv("analysing '{0}' took longer than --timeout={1}s; it "
                                    "was stopped (raise --timeout, or 0 for no limit)",
                                    S.Path, Timeout.getValue())
                                .str());
          } else if (O.Signal) {
            Fail("crashed", "analysing '" + S.Path + "' crashed (signal " +
                                std::to_string(O.Signal) + ")");
          } else if (!O.StartError.empty()) {
            Fail("failed", "analysing '" + S.Path + "' failed: " + O.StartError);
          } else if (O.ExitCode == ExitOutOfMemory) {
            Fail("failed", "analysing '" + S.Path + "' needed more memory than "
                               "--memory-limit=" + MemoryLimit.getValue() +
                               "; it was stopped (raise --memory-limit, or 0 for no limit)");
          } else if (O.ExitCode != 0) {
            Fail("failed", "analysing '" + S.Path + "' failed (exit status " +
                               std::to_string(O.ExitCode) + ")");
          } else {
            std::string Text = readFileOrEmpty(OutPath);
            Expected<json::Value> Parsed = json::parse(Text);
            const json::Object *Obj = Parsed ? Parsed->getAsObject() : nullptr;
            const json::Value *Diags = Obj ? Obj->get("diagnostics") : nullptr;
            if (!Parsed)
              consumeError(Parsed.takeError());
            warp_tidy::ArchPassSummary Passes;
            if (Obj && warp_tidy::archPassSummaryFromJson(Obj->get("archPasses"), Passes)) {
              S.Report.ArchPasses = Passes.Passes;
              S.StatsLine = warp_tidy::describeArchPasses(Passes);
            }
            if (!Diags || !warp_tidy::diagnosticsFromJson(*Diags, S.Errors)) {
              Fail("failed", "analysing '" + S.Path + "' produced no readable result");
            } else if (Cache && !S.Key.empty() && Obj->getBoolean("cacheable") == true) {
              std::vector<warp_tidy::FileStamp> Deps;
              if (const json::Value *D = Obj->get("deps"))
                if (warp_tidy::stampsFromJson(*D, Deps) && !Deps.empty())
                  Cache->store(S.Key, Deps, *Diags->getAsArray());
            }
          }
          Bar.done(S.Path, S.Report.Status, O.Seconds);
          PrintFinished();
        });
    Bar.finish();
    if (Times)
      Times->save();
    sys::fs::remove_directories(TempDir);
    // The bound holds for the directory, PCHs included, with or without
    // the result cache.
    if (Cache)
      Cache->evict();
    else if (!NoPch && !CacheDirectory.empty())
      warp_tidy::ResultCache(CacheDirectory, *CacheBytes).evict();
  }
  PrintFinished();
  bool ToolErrors = llvm::any_of(States, [](const FileState &S) { return S.Failed; });
  size_t InterruptedFiles = llvm::count_if(
      States, [](const FileState &S) { return S.Report.Status == "interrupted"; });

  std::vector<std::string> Dropped = Database.droppedFlags();
  if (!Dropped.empty()) {
    std::string List;
    for (const std::string &D : Dropped)
      List += (List.empty() ? "" : " ") + D;
    warning("ignored compiler flags clang does not understand: " + List);
  }

  size_t CompileErrors = llvm::count_if(Errors, isCompilerError);
  size_t Findings = llvm::count_if(Errors, isWarpFinding);

  // One fix-application path for every format: clang-tidy's selection of
  // fix-its, clang-format's cleanup (and formatting with --format-style)
  // around them, each file replaced atomically.
  FixBehaviour Behaviour = FixNotes ? FB_FixNotes : (Fix || FixErrors) ? FB_Fix : FB_NoFix;
  bool FixesBlocked = CompileErrors && !FixErrors && Behaviour != FB_NoFix;
  FixBehaviour Effective = FixesBlocked ? FB_NoFix : Behaviour;
  if (Effective != FB_NoFix) {
    unsigned Total = 0;
    bool FixFailed = false;
    unsigned Applied = warp_tidy::applyFixes(
        Errors, Effective == FB_FixNotes,
        [&](StringRef File) {
          return Context.getOptionsForFile(File).FormatStyle.value_or("none");
        },
        Total, FixFailed);
    if (FixFailed)
      ToolErrors = true;
    if (!Quiet && Total)
      errs() << "warp-tidy: applied " << Applied << " of " << Total
             << " suggested fix(es)\n";
  }
  double Seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - StartTime).count();

  warp_tidy::Report R;
  R.Errors = Errors;
  std::vector<warp_tidy::FileReport> Reports;
  for (const FileState &S : States)
    Reports.push_back(S.Report);
  R.Files = Reports;
  R.EnabledChecks = getCheckNames(Context.getOptionsForFile(Files.front()), false, false);
  R.ToolVersion = WARP_TIDY_VERSION;
  R.SourceRoot = SourceRootPath;
  R.HelpBase = SarifHelpBase;
  if (!R.HelpBase.empty() && !StringRef(R.HelpBase).ends_with("/"))
    R.HelpBase += "/";
  R.Seconds = Seconds;
  R.CacheHits = CacheHits;
  R.CacheMisses = CacheMisses;
  R.ToolErrors = ToolErrors || CompileErrors;
  auto WriteReport = [&](bool Sarif) {
    return [&R, Sarif](raw_ostream &OS) {
      if (Sarif)
        warp_tidy::writeSarifReport(R, OS);
      else
        warp_tidy::writeJsonReport(R, OS);
      return Error::success();
    };
  };

  if (UpdateBaseline) {
    // Written whole or not at all (a temporary file and a rename).
    if (Error E = writeToOutput(BaselineFile,
                                WriteReport(warp_tidy::baselineIsSarif(BaselineFile)))) {
      error("cannot write --baseline '" + BaselineFile + "': " + toString(std::move(E)));
      return ExitToolError;
    }
    if (!Quiet)
      errs() << "warp-tidy: recorded " << Findings << " finding(s) in the baseline '"
             << BaselineFile << "'\n";
    return CompileErrors || ToolErrors ? ExitToolError : ExitClean;
  }

  if (!TextOutput) {
    if (OutputFile.empty()) {
      cantFail(WriteReport(Format == "sarif")(outs()));
      outs().flush();
    } else if (Error E = writeToOutput(OutputFile, WriteReport(Format == "sarif"))) {
      error("cannot write '" + OutputFile + "': " + toString(std::move(E)));
      return ExitToolError;
    }
  }

  if (!ExportFixes.empty()) {
    if (Error E = writeToOutput(ExportFixes, [&](raw_ostream &OS) {
          exportReplacements(Files.front(), Errors, OS);
          return Error::success();
        })) {
      error("cannot write --export-fixes file '" + ExportFixes +
            "': " + toString(std::move(E)));
      return ExitToolError;
    }
  }

  if (FixesBlocked)
    warning("fix-its were NOT applied because of the compile errors " +
            Twine(TextOutput ? "above" : "in the report") +
            " (use --fix-errors to apply them anyway)");
  if (CompileErrors)
    error(Twine(CompileErrors) + " compile error(s): the code " +
          (TextOutput ? "above" : "named in the report") +
          " does not compile with clang for CUDA, so it was not fully analysed "
          "(check the include paths and flags; -p <build-dir> uses the project's own)");
  if (Baselined && !Quiet)
    WithColor::note(errs(), "warp-tidy")
        << Baselined << " finding(s) recorded in the baseline '" << BaselineFile
        << "' not reported\n";
  if (InterruptedFiles)
    error(Twine("interrupted: ") + Twine(InterruptedFiles) + " of " + Twine(States.size()) +
          " file(s) not analysed; the output holds the files that were finished");

  // One file: clang-tidy's output, no summary. Several: a summary line.
  if (!SingleFile && !Quiet) {
    std::map<std::string, unsigned> ByCheck;
    for (const ClangTidyError &E : Errors)
      if (isWarpFinding(E))
        ++ByCheck[E.DiagnosticName];
    std::string PerCheck;
    for (const auto &[Name, Count] : ByCheck)
      PerCheck += (PerCheck.empty() ? "" : ", ") + Name + ": " + std::to_string(Count);
    size_t FailedFiles = llvm::count_if(States, [](const FileState &S) {
      return S.Failed || S.Report.Status == "failed";
    });
    errs() << Findings << " warp diagnostic(s) in " << Files.size() << " file(s)";
    if (!PerCheck.empty())
      errs() << " (" << PerCheck << ")";
    errs() << formatv("; {0:f1}s", Seconds);
    if (Cache)
      errs() << "; cache: " << CacheHits << " hit(s), " << CacheMisses << " miss(es)";
    else
      errs() << "; cache: off";
    if (FailedFiles)
      errs() << "; " << FailedFiles << " file(s) failed";
    errs() << "\n";
  }
  if (CompileErrors || ToolErrors)
    return ExitToolError;
  if (Findings && !ExitZero)
    return ExitFindings;
  return ExitClean;
}
