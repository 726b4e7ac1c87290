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

#include "ArchShims.h"
#include "CudaInstallation.h"
#include "DiagnosticsSerialization.h"
#include "InputFiles.h"
#include "OutputFormats.h"
#include "ParallelRunner.h"
#include "ResultCache.h"
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
#include <chrono>
#include <map>
#include <csignal>
#include <cstdlib>
#include <thread>

using namespace llvm;
using namespace clang::tidy;

extern volatile int WarpTidyModuleAnchorSource;
static int LLVM_ATTRIBUTE_UNUSED WarpTidyModuleAnchorDestination =
    WarpTidyModuleAnchorSource;

#ifndef WARP_TIDY_VERSION
#define WARP_TIDY_VERSION "unknown"
#endif
#ifndef WARP_TIDY_DOCS_URL
#define WARP_TIDY_DOCS_URL ""
#endif
#ifndef WARP_TIDY_CLANG_RESOURCE_DIR
#define WARP_TIDY_CLANG_RESOURCE_DIR ""
#endif

namespace {

// Exit statuses, documented in README.md.
enum ExitStatus { ExitClean = 0, ExitFindings = 1, ExitToolError = 2 };

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
cl::opt<bool> DumpConfig("dump-config", cl::desc("Print the effective configuration."),
                         cl::cat(Category));
cl::opt<bool> PrintCommands("print-commands",
                            cl::desc("Print the compile command used for each file."),
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
cl::opt<std::string> CacheDir(
    "cache-dir",
    cl::desc("Result cache directory (default: $XDG_CACHE_HOME/warp-tidy or "
             "~/.cache/warp-tidy)."),
    cl::value_desc("dir"), cl::cat(Category));
cl::opt<std::string> CacheSize(
    "cache-size",
    cl::desc("Size bound of the cache directory, e.g. 512M or 2G (default 512M); "
             "the least recently used entries are evicted."),
    cl::init("512M"), cl::cat(Category));
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

// Internal: a worker analyses one file for a parent warp-tidy and writes its
// diagnostics and the files it read as JSON.
cl::opt<std::string> WorkerFile("worker", cl::Hidden, cl::cat(Category));
cl::opt<std::string> WorkerOutput("worker-output", cl::Hidden, cl::cat(Category));

void error(const Twine &Message) {
  WithColor::error(errs(), "warp-tidy") << Message << "\n";
}
void warning(const Twine &Message) {
  WithColor::warning(errs(), "warp-tidy") << Message << "\n";
}

std::unique_ptr<ClangTidyOptionsProvider> makeOptionsProvider() {
  ClangTidyGlobalOptions Global;
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
  // .clang-tidy files next to the sources apply, as with clang-tidy.
  return std::make_unique<FileOptionsProvider>(std::move(Global), std::move(Defaults),
                                               std::move(Overrides), FS);
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
std::vector<ClangTidyError> dedupe(std::vector<ClangTidyError> Errors) {
  std::vector<ClangTidyError> Unique;
  StringSet<> Seen;
  for (ClangTidyError &E : Errors) {
    std::string Key = E.DiagnosticName + "\x1f" +
                      warp_tidy::absolutePath(E.Message.FilePath, E.BuildDirectory) + "\x1f" +
                      std::to_string(E.Message.FileOffset) + "\x1f" + E.Message.Message;
    if (Seen.insert(Key).second)
      Unique.push_back(std::move(E));
  }
  return Unique;
}

bool isCompilerError(const ClangTidyError &E) {
  return E.DiagLevel == ClangTidyError::Error &&
         StringRef(E.DiagnosticName).starts_with("clang-diagnostic-");
}

bool isWarpFinding(const ClangTidyError &E) {
  return !StringRef(E.DiagnosticName).starts_with("clang-diagnostic-");
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
      SmallString<256> Abs;
      Path.toVector(Abs);
      if (!sys::path::is_absolute(Abs))
        if (auto CWD = getCurrentWorkingDirectory()) {
          SmallString<256> Joined(*CWD);
          sys::path::append(Joined, Abs);
          Abs = Joined;
        }
      // Only "./" goes: "dir/../" is not lexical when dir is a symlink.
      sys::path::remove_dots(Abs, /*remove_dot_dot=*/false);
      if (auto Status = (*File)->status())
        Files.try_emplace(Abs.str(),
                          Opened{Status->getSize(),
                                 std::chrono::duration_cast<std::chrono::nanoseconds>(
                                     Status->getLastModificationTime().time_since_epoch())
                                     .count()});
    }
    return File;
  }

  StringMap<Opened> Files;
};

int runWorker(ClangTidyContext &Context,
              const warp_tidy::WarpCompilationDatabase &Database) {
  // Test hook: lets the lit suite check how a crashing analysis is reported.
  if (auto Crash = sys::Process::GetEnv("WARP_TIDY_TEST_CRASH_IN_WORKER"))
    if (!Crash->empty() && StringRef(WorkerFile).contains(*Crash))
      std::abort();

  auto Tracker = makeIntrusiveRefCnt<TrackingFileSystem>(vfs::getRealFileSystem());
  auto BaseFS = makeIntrusiveRefCnt<vfs::OverlayFileSystem>(Tracker);
  std::vector<std::string> Files = {WorkerFile};
  std::vector<ClangTidyError> Errors =
      runClangTidy(Context, Database, Files, BaseFS, FixNotes,
                   /*EnableCheckProfile=*/false, "", /*Quiet=*/true);

  // Cacheable only when the result depends on nothing but the files read:
  // a unit that does not compile may be fixed by a header appearing, and a
  // file changed while it was analysed has no single content to record.
  bool Cacheable = !llvm::any_of(Errors, isCompilerError);
  std::vector<warp_tidy::FileStamp> Deps;
  std::vector<std::string> Paths;
  for (const auto &Entry : Tracker->Files)
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
  if (Deps.empty())
    Cacheable = false;

  json::Object Out{{"diagnostics", warp_tidy::diagnosticsToJson(Errors)},
                   {"deps", warp_tidy::stampsToJson(Deps)},
                   {"cacheable", Cacheable}};
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
  bool Failed = false; ///< Tool error for this file (not its findings).
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

  void finish() {
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
  cl::SetVersionPrinter([](raw_ostream &OS) {
    OS << "warp-tidy " << WARP_TIDY_VERSION << " (LLVM " << LLVM_VERSION_STRING << ")\n";
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

  auto OptionsProvider = makeOptionsProvider();
  if (!OptionsProvider)
    return ExitToolError;

  if (ListChecks || DumpConfig) {
    ClangTidyOptions Effective = OptionsProvider->getOptions(
        Inputs.empty() ? "dummy.cu" : StringRef(Inputs.front()));
    std::vector<std::string> Enabled = getCheckNames(Effective, false, false);
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
        if (!sys::fs::file_size(File, Size) && Size > *MaxFileBytes)
          Expanded.Errors.push_back(
              formatv("'{0}' is {1}, larger than --max-file-size ({2}): not analysed; "
                      "pass --max-file-size=0 (no limit) or a larger size to analyse it "
                      "anyway",
                      File, humanSize(Size), humanSize(*MaxFileBytes))
                  .str());
      }
    for (const std::string &Message : Expanded.Errors)
      error(Message);
    if (!Expanded.Errors.empty())
      return ExitToolError;
  }

  bool DatabaseFailed = false;
  auto Inner = loadDatabase(DatabaseFailed);
  if (DatabaseFailed)
    return ExitToolError;
  const clang::tooling::CompilationDatabase *RawDatabase = Inner.get();

  warp_tidy::CommandSettings Settings;
  Settings.Cuda = *Cuda;
  Settings.ResourceDir = WARP_TIDY_CLANG_RESOURCE_DIR;
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

  // Files named in the database but absent on disk: reported per file.
  for (FileState &S : States) {
    if (sys::fs::exists(S.Path))
      continue;
    S.Failed = true;
    S.Report.Status = "failed";
    S.Report.Messages.push_back("cannot read '" + S.Path +
                                "' (listed in the compilation database): no such file");
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
      std::vector<std::string> Parts = {"warp-tidy-result/1", WARP_TIDY_VERSION,
                                        LLVM_VERSION_STRING, Identity,
                                        configurationAsText(Context.getOptionsForFile(S.Path)),
                                        FixNotes ? "fix-notes" : "", S.Path};
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
        ++CacheHits;
      } else {
        ++CacheMisses;
      }
    }
  }

  // Everything else is analysed by worker processes.
  std::vector<size_t> ToAnalyse;
  for (size_t I = 0; I < States.size(); ++I)
    if (!States[I].Failed && States[I].Report.Status != "cached")
      ToAnalyse.push_back(I);
  bool ToolErrors = llvm::any_of(States, [](const FileState &S) { return S.Failed; });
  if (!ToAnalyse.empty()) {
    SmallString<128> TempDir;
    if (std::error_code EC = sys::fs::createUniqueDirectory("warp-tidy", TempDir)) {
      error("cannot create a temporary directory: " + EC.message());
      return ExitToolError;
    }
    std::string Exe = sys::fs::getMainExecutable(argv[0], (void *)&executableIdentity);
    std::vector<warp_tidy::WorkerJob> WorkerJobs;
    std::vector<std::string> OutputPaths;
    for (size_t N = 0; N < ToAnalyse.size(); ++N) {
      warp_tidy::WorkerJob Job;
      Job.Args.push_back(Exe);
      for (size_t A = 1; A < ToolArgv.size(); ++A)
        Job.Args.push_back(ToolArgv[A]);
      SmallString<128> Out(TempDir), Err(TempDir);
      sys::path::append(Out, std::to_string(N) + ".json");
      sys::path::append(Err, std::to_string(N) + ".stderr");
      Job.Args.push_back("--worker=" + States[ToAnalyse[N]].Path);
      Job.Args.push_back("--worker-output=" + Out.str().str());
      OutputPaths.push_back(Out.str().str());
      if (HasDoubleDash) {
        Job.Args.push_back("--");
        llvm::append_range(Job.Args, CompilerArgs);
      }
      Job.StdoutPath = "/dev/null";
      Job.StderrPath = Err.str().str();
      WorkerJobs.push_back(std::move(Job));
    }
    unsigned Parallel = Jobs ? Jobs.getValue() : std::thread::hardware_concurrency();
    Progress Bar(ToAnalyse.size(), !Quiet && !SingleFile);
    warp_tidy::runWorkers(
        WorkerJobs, std::max(1u, Parallel),
        [&](size_t N, const warp_tidy::WorkerOutcome &O) {
          FileState &S = States[ToAnalyse[N]];
          const std::string &OutPath = OutputPaths[N];
          S.WorkerStderr = readFileOrEmpty(WorkerJobs[N].StderrPath);
          auto Fail = [&](const std::string &Status, const std::string &Message) {
            S.Failed = true;
            S.Report.Status = Status;
            S.Report.Messages.push_back(Message);
          };
          if (!O.Started) {
            Fail("failed", "cannot start the analysis of '" + S.Path + "': " + O.StartError);
          } else if (O.Signal) {
            Fail("crashed", "analysing '" + S.Path + "' crashed (signal " +
                                std::to_string(O.Signal) + ")");
          } else if (!O.StartError.empty()) {
            Fail("failed", "analysing '" + S.Path + "' failed: " + O.StartError);
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
        });
    Bar.finish();
    sys::fs::remove_directories(TempDir);
    if (Cache)
      Cache->evict();
  }

  // Per-file messages, in file order, before the diagnostics.
  if (!Quiet)
    for (const std::string &N : Notes)
      WithColor::note(errs(), "warp-tidy") << N << "\n";
  std::vector<ClangTidyError> Merged;
  for (FileState &S : States) {
    if (!S.WorkerStderr.empty())
      errs() << S.WorkerStderr;
    for (const std::string &M : S.Report.Messages)
      error(M);
    if (S.Failed)
      ToolErrors = true;
    for (ClangTidyError &E : S.Errors)
      Merged.push_back(std::move(E));
    S.Errors.clear();
  }
  std::vector<ClangTidyError> Errors = dedupe(std::move(Merged));

  std::vector<std::string> Dropped = Database.droppedFlags();
  if (!Dropped.empty()) {
    std::string List;
    for (const std::string &D : Dropped)
      List += (List.empty() ? "" : " ") + D;
    warning("ignored compiler flags clang does not understand: " + List);
  }

  size_t CompileErrors = llvm::count_if(Errors, isCompilerError);
  size_t Findings = llvm::count_if(Errors, isWarpFinding);
  if (!SingleFile)
    for (FileState &S : States) {
      size_t N = llvm::count_if(Errors, [&](const ClangTidyError &E) {
        return isCompilerError(E) && warp_tidy::absolutePath(E.Message.FilePath, E.BuildDirectory) ==
                                         warp_tidy::absolutePath(S.Path, "");
      });
      if (N && !S.Failed) {
        S.Report.Status = "failed";
        S.Report.Messages.push_back(S.Path + " does not compile (" + std::to_string(N) +
                                    " error(s)); it was not fully analysed");
      }
    }

  FixBehaviour Behaviour = FixNotes ? FB_FixNotes : (Fix || FixErrors) ? FB_Fix : FB_NoFix;
  bool FixesBlocked = CompileErrors && !FixErrors && Behaviour != FB_NoFix;
  FixBehaviour Effective = FixesBlocked ? FB_NoFix : Behaviour;
  double Seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - StartTime).count();

  if (Format == "text") {
    Context.setCurrentFile(Files.front());
    unsigned WarningsAsErrorsCount = 0;
    auto BaseFS = makeIntrusiveRefCnt<vfs::OverlayFileSystem>(vfs::getRealFileSystem());
    handleErrors(Errors, Context, Effective, WarningsAsErrorsCount, BaseFS);
  } else {
    if (Effective != FB_NoFix) {
      unsigned Total = 0;
      bool FixFailed = false;
      unsigned Applied = warp_tidy::applyFixes(Errors, Effective == FB_FixNotes, Total,
                                               FixFailed);
      if (FixFailed)
        ToolErrors = true;
      if (!Quiet && Total)
        errs() << "warp-tidy: applied " << Applied << " of " << Total
               << " suggested fix(es)\n";
    }
    warp_tidy::Report R;
    R.Errors = Errors;
    std::vector<warp_tidy::FileReport> Reports;
    for (const FileState &S : States)
      Reports.push_back(S.Report);
    R.Files = Reports;
    R.EnabledChecks = getCheckNames(Context.getOptionsForFile(Files.front()), false, false);
    R.ToolVersion = WARP_TIDY_VERSION;
    SmallString<256> Root(SourceRoot);
    if (Root.empty())
      sys::fs::current_path(Root);
    R.SourceRoot = warp_tidy::absolutePath(Root, "");
    R.HelpBase = SarifHelpBase;
    if (!R.HelpBase.empty() && !StringRef(R.HelpBase).ends_with("/"))
      R.HelpBase += "/";
    R.Seconds = Seconds;
    R.CacheHits = CacheHits;
    R.CacheMisses = CacheMisses;
    R.ToolErrors = ToolErrors || CompileErrors;
    auto Write = [&](raw_ostream &OS) {
      if (Format == "json")
        warp_tidy::writeJsonReport(R, OS);
      else
        warp_tidy::writeSarifReport(R, OS);
      return Error::success();
    };
    if (OutputFile.empty()) {
      cantFail(Write(outs()));
      outs().flush();
    } else if (Error E = writeToOutput(OutputFile, Write)) {
      error("cannot write '" + OutputFile + "': " + toString(std::move(E)));
      return ExitToolError;
    }
  }

  if (!ExportFixes.empty()) {
    std::error_code EC;
    raw_fd_ostream OS(ExportFixes, EC, sys::fs::OF_None);
    if (EC) {
      error("cannot write --export-fixes file '" + ExportFixes + "': " + EC.message());
      return ExitToolError;
    }
    exportReplacements(Files.front(), Errors, OS);
  }

  if (FixesBlocked)
    warning("fix-its were NOT applied because of the compile errors above "
            "(use --fix-errors to apply them anyway)");

  if (!SingleFile)
    for (const FileState &S : States)
      if (!S.Failed && S.Report.Status == "failed")
        error(S.Report.Messages.back());
  if (CompileErrors)
    error(Twine(CompileErrors) + " compile error(s): the code above does not "
          "compile with clang for CUDA, so it was not fully analysed (check "
          "the include paths and flags; -p <build-dir> uses the project's own)");

  if (SingleFile) {
    // Unchanged one-file output.
    if (CompileErrors || ToolErrors)
      return ExitToolError;
    if (!Quiet && Findings)
      errs() << Findings << " warp diagnostic(s) in " << Files.size() << " file(s)\n";
  } else if (!Quiet) {
    std::map<std::string, unsigned> ByCheck;
    for (const ClangTidyError &E : Errors)
      if (isWarpFinding(E))
        ++ByCheck[E.DiagnosticName];
    std::string PerCheck;
    for (const auto &[Name, Count] : ByCheck)
      PerCheck += (PerCheck.empty() ? "" : ", ") + Name + ": " + std::to_string(Count);
    size_t FailedFiles = llvm::count_if(
        States, [](const FileState &S) { return S.Report.Status == "failed" ||
                                                S.Report.Status == "crashed"; });
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
