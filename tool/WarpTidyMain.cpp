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

#include "CudaInstallation.h"
#include "InputFiles.h"
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
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;
using namespace clang::tidy;

extern volatile int WarpTidyModuleAnchorSource;
static int LLVM_ATTRIBUTE_UNUSED WarpTidyModuleAnchorDestination =
    WarpTidyModuleAnchorSource;

#ifndef WARP_TIDY_VERSION
#define WARP_TIDY_VERSION "unknown"
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
// one finding.
std::vector<ClangTidyError> dedupe(std::vector<ClangTidyError> Errors) {
  std::vector<ClangTidyError> Unique;
  StringSet<> Seen;
  for (ClangTidyError &E : Errors) {
    std::string Key = E.DiagnosticName + "\x1f" + E.Message.FilePath + "\x1f" +
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

// Editors run clangd on the project's compile_commands.json, which for CMake
// + nvcc is unusable by clang. The translated database fixes that for
// warp-clangd (and plain clangd) users.
int writeCompileCommands(const warp_tidy::WarpCompilationDatabase &Database,
                         ArrayRef<std::string> Files, StringRef Dir) {
  json::Array Entries;
  for (const std::string &F : Files)
    for (const clang::tooling::CompileCommand &C : Database.getCompileCommands(F)) {
      json::Array Arguments;
      for (const std::string &A : C.CommandLine)
        Arguments.push_back(A);
      Entries.push_back(json::Object{{"directory", C.Directory},
                                     {"file", C.Filename},
                                     {"arguments", std::move(Arguments)}});
    }
  if (std::error_code EC = sys::fs::create_directories(Dir)) {
    error("cannot create '" + Dir + "': " + EC.message());
    return ExitToolError;
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

  if (Inputs.empty() && BuildPath.empty()) {
    error("no input files; give files or directories, or -p <build-dir> (see --help)");
    return ExitToolError;
  }

  std::string Why;
  std::optional<warp_tidy::CudaInstallation> Cuda =
      warp_tidy::findCudaInstallation(CudaPath, Why);
  if (!Cuda) {
    error(Why);
    return ExitToolError;
  }

  warp_tidy::ExpandedInputs Expanded = warp_tidy::expandInputs(Inputs);
  for (const std::string &Message : Expanded.Errors)
    error(Message);
  if (!Expanded.Errors.empty())
    return ExitToolError;

  bool DatabaseFailed = false;
  auto Inner = loadDatabase(DatabaseFailed);
  if (DatabaseFailed)
    return ExitToolError;

  std::vector<std::string> Files = Expanded.Files;
  if (Files.empty() && Inner) {
    // -p alone: every CUDA unit in the database.
    for (const std::string &F : Inner->getAllFiles())
      if (warp_tidy::isCudaSourceName(F))
        Files.push_back(F);
    if (Files.empty()) {
      error("the compilation database in '" + BuildPath + "' has no CUDA sources");
      return ExitToolError;
    }
  }

  warp_tidy::CommandSettings Settings;
  Settings.Cuda = *Cuda;
  Settings.ResourceDir = WARP_TIDY_CLANG_RESOURCE_DIR;
  if (auto Env = sys::Process::GetEnv("WARP_TIDY_RESOURCE_DIR"))
    Settings.ResourceDir = *Env;
  Settings.ExtraArgs = CompilerArgs;
  Settings.ExtraArgs.insert(Settings.ExtraArgs.end(), ExtraArg.begin(), ExtraArg.end());
  Settings.ExtraArgsBefore.assign(ExtraArgBefore.begin(), ExtraArgBefore.end());
  warp_tidy::WarpCompilationDatabase Database(std::move(Inner), std::move(Settings));

  if (!ExportCompileCommands.empty())
    return writeCompileCommands(Database, Files, ExportCompileCommands);

  if (PrintCommands)
    for (const std::string &F : Files)
      for (const auto &C : Database.getCompileCommands(F)) {
        errs() << "warp-tidy: command for " << F << ":";
        for (const std::string &A : C.CommandLine)
          errs() << " " << A;
        errs() << "\n";
      }

  InitializeAllTargetInfos();
  InitializeAllTargetMCs();
  InitializeAllAsmParsers();

  auto BaseFS = makeIntrusiveRefCnt<vfs::OverlayFileSystem>(vfs::getRealFileSystem());
  ClangTidyContext Context(std::move(OptionsProvider), false, false, false);
  std::vector<ClangTidyError> Errors =
      dedupe(runClangTidy(Context, Database, Files, BaseFS, FixNotes,
                          /*EnableCheckProfile=*/false, "", /*Quiet=*/true));

  std::vector<std::string> Dropped = Database.droppedFlags();
  if (!Dropped.empty()) {
    std::string List;
    for (const std::string &D : Dropped)
      List += (List.empty() ? "" : " ") + D;
    warning("ignored compiler flags clang does not understand: " + List);
  }

  size_t CompileErrors = llvm::count_if(Errors, isCompilerError);
  size_t Findings = Errors.size() -
                    llvm::count_if(Errors, [](const ClangTidyError &E) {
                      return StringRef(E.DiagnosticName).starts_with("clang-diagnostic-");
                    });

  FixBehaviour Behaviour = FixNotes ? FB_FixNotes : (Fix || FixErrors) ? FB_Fix : FB_NoFix;
  bool FixesBlocked = CompileErrors && !FixErrors && Behaviour != FB_NoFix;
  unsigned WarningsAsErrorsCount = 0;
  handleErrors(Errors, Context, FixesBlocked ? FB_NoFix : Behaviour,
               WarningsAsErrorsCount, BaseFS);

  if (!ExportFixes.empty()) {
    std::error_code EC;
    raw_fd_ostream OS(ExportFixes, EC, sys::fs::OF_None);
    if (EC) {
      error("cannot write --export-fixes file '" + ExportFixes + "': " + EC.message());
      return ExitToolError;
    }
    exportReplacements(Files.empty() ? "" : Files.front(), Errors, OS);
  }

  if (FixesBlocked)
    warning("fix-its were NOT applied because of the compile errors above "
            "(use --fix-errors to apply them anyway)");

  if (CompileErrors) {
    error(Twine(CompileErrors) + " compile error(s): the code above does not "
          "compile with clang for CUDA, so it was not fully analysed (check "
          "the include paths and flags; -p <build-dir> uses the project's own)");
    return ExitToolError;
  }
  if (!Quiet && Findings)
    errs() << Findings << " warp diagnostic(s) in " << Files.size() << " file(s)\n";
  if (Findings && !ExitZero)
    return ExitFindings;
  return ExitClean;
}
