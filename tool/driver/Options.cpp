//===--- Options.cpp - warp-tidy's command line ---------------------------===//
//
// Every option of warp-tidy, in clang-tidy's spelling where clang-tidy has
// one. They are parsed once, into DriverOptions; nothing outside this file
// reads a cl::opt.
//
//===----------------------------------------------------------------------===//

#include "driver/Options.h"
#include "BuildInfo.h"
#include "ResultCache.h"
#include "driver/Messages.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace warp_tidy::driver {
namespace {

cl::OptionCategory Category("warp-tidy options");

cl::list<std::string> Inputs(cl::Positional, cl::desc("<file or directory>..."), cl::cat(Category));
cl::opt<std::string>
    BuildPath("p",
              cl::desc("Directory holding compile_commands.json (e.g. a CMake build "
                       "directory). nvcc command lines in it are translated."),
              cl::value_desc("build-dir"), cl::cat(Category));
cl::opt<std::string> Checks("checks", cl::desc("Check glob, as in clang-tidy (default: warp-*)."),
                            cl::cat(Category));
cl::opt<std::string> Config("config", cl::desc("Inline YAML configuration."), cl::cat(Category));
cl::opt<std::string> ConfigFile("config-file", cl::desc("Read the configuration from this file."),
                                cl::cat(Category));
cl::opt<std::string> WarningsAsErrors("warnings-as-errors",
                                      cl::desc("Checks whose warnings become errors."),
                                      cl::cat(Category));
cl::opt<std::string>
    HeaderFilter("header-filter",
                 cl::desc("Regex of headers whose diagnostics are shown (default: all "
                          "non-system headers)."),
                 cl::init(".*"), cl::cat(Category));
cl::opt<std::string>
    ExcludeHeaderFilter("exclude-header-filter",
                        cl::desc("Regex of headers whose diagnostics are not shown, even if they "
                                 "match --header-filter (as in clang-tidy)."),
                        cl::cat(Category));
cl::opt<std::string>
    LineFilter("line-filter",
               cl::desc("Only report diagnostics on these lines, as clang-tidy: a JSON list "
                        "like [{\"name\":\"a.cu\",\"lines\":[[1,3],[5,7]]},{\"name\":\"b.cuh\"}]. "
                        "This is what clang-tidy-diff passes."),
               cl::cat(Category));
cl::opt<std::string>
    FormatStyle("format-style",
                cl::desc("Style for formatting code around applied fixes, as clang-tidy: "
                         "none (default), file, llvm, google, ... or inline {...}."),
                cl::cat(Category));
cl::opt<bool> UseColor("use-color",
                       cl::desc("Use colors in diagnostics (default: when stdout is "
                                "a terminal)."),
                       cl::cat(Category));
cl::opt<std::string>
    VfsOverlay("vfsoverlay",
               cl::desc("Overlay the virtual file system described by this file over the "
                        "real one, as clang-tidy."),
               cl::value_desc("file"), cl::cat(Category));
cl::opt<bool> SystemHeaders("system-headers", cl::desc("Also report inside system headers."),
                            cl::cat(Category));
cl::opt<bool> Fix("fix", cl::desc("Apply fix-its in place (atomically per file)."),
                  cl::cat(Category));
cl::opt<bool> FixErrors("fix-errors",
                        cl::desc("Apply fix-its even if the file has compile errors."),
                        cl::cat(Category));
cl::opt<bool> FixNotes("fix-notes", cl::desc("Also apply fix-its attached to notes."),
                       cl::cat(Category));
cl::opt<std::string> ExportFixes("export-fixes", cl::desc("Write fix-its as YAML to this file."),
                                 cl::value_desc("file"), cl::cat(Category));
cl::list<std::string> ExtraArg("extra-arg", cl::desc("Append a compiler argument."),
                               cl::cat(Category));
cl::list<std::string> ExtraArgBefore("extra-arg-before", cl::desc("Prepend a compiler argument."),
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
cl::opt<bool>
    AllowNoChecks("allow-no-checks",
                  cl::desc("Accept a configuration that enables no check (otherwise: \"no "
                           "checks enabled\", exit 2)."),
                  cl::cat(Category));
cl::opt<bool>
    VerifyConfig("verify-config",
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

/// --format's parser. A name that is none of its values is not rejected
/// while parsing (cl's own message, before anything else is looked at): it
/// becomes OutputFormat::Unknown, which validateRunOptions reports with the
/// other usage errors, in their order and words.
class FormatParser : public cl::parser<OutputFormat> {
public:
  using cl::parser<OutputFormat>::parser;

  bool parse(cl::Option &O, StringRef ArgName, StringRef Arg, OutputFormat &Value) {
    Written = Arg.str();
    if (findOption(Arg) == getNumOptions()) {
      Value = OutputFormat::Unknown;
      return false;
    }
    return cl::parser<OutputFormat>::parse(O, ArgName, Arg, Value);
  }

  std::string Written = "text";
};

cl::opt<OutputFormat, false, FormatParser> Format(
    "format", cl::desc("Output format (default: text)."),
    cl::values(clEnumValN(OutputFormat::Text, "text",
                          "clang-style, for terminals, editors and problem matchers"),
               clEnumValN(OutputFormat::Json, "json", "a JSON report"),
               clEnumValN(OutputFormat::Sarif, "sarif", "SARIF 2.1.0, for GitHub code scanning")),
    cl::init(OutputFormat::Text), cl::cat(Category));
cl::opt<std::string>
    OutputFile("output", cl::desc("Write the json/sarif report to this file (default: stdout)."),
               cl::value_desc("file"), cl::cat(Category));
cl::opt<unsigned> Jobs("j",
                       cl::desc("Analyse this many files in parallel (default: "
                                "the number of cores)."),
                       cl::value_desc("N"), cl::Prefix, cl::init(0), cl::cat(Category));
cl::opt<std::string>
    Shard("shard",
          cl::desc("i/N: analyse only the i-th of N shards (1 <= i <= N) of the sorted "
                   "file list, for CI matrices."),
          cl::value_desc("i/N"), cl::cat(Category));
cl::opt<bool> NoCache("no-cache", cl::desc("Neither read nor write the result cache."),
                      cl::cat(Category));
cl::opt<unsigned>
    MaxArchPasses("max-arch-passes",
                  cl::desc("Analyse a file at most this many times: once at the command's own "
                           "architecture, and once more for each architecture whose warp code "
                           "(#if __CUDA_ARCH__ >= N, NV_IF_TARGET) that pass skipped "
                           "(docs/arch-passes.md). 1 analyses the command's architecture only, "
                           "at the cost of the code only other architectures compile. Default 6."),
                  cl::init(6), cl::value_desc("N"), cl::cat(Category));
cl::opt<bool>
    NoPch("no-pch",
          cl::desc("Do not use the shared precompiled prologue (a PCH of clang's CUDA "
                   "wrapper headers, warp-tidy's shims and the unit's leading #include "
                   "lines, built once per set of flags and lines in <cache-dir>/pch); every "
                   "unit is then parsed from scratch. The results are the same either way."),
          cl::cat(Category));
cl::opt<std::string>
    CacheDir("cache-dir",
             cl::desc("Result cache directory, also holding the shared precompiled "
                      "prologue in pch/ (default: $XDG_CACHE_HOME/warp-tidy or "
                      "~/.cache/warp-tidy)."),
             cl::value_desc("dir"), cl::cat(Category));
cl::opt<std::string>
    CacheSize("cache-size",
              cl::desc("Size bound of the cache directory, e.g. 512M or 2G (default 2G); "
                       "the least recently used entries are evicted."),
              // Precompiled leading blocks are 20-50 MB each and half of the bound
              // goes to them: 2G gives about 45 units their own, enough for a project
              // of ggml-cuda's size to reach its steady state (docs/evaluation.md).
              cl::init("2G"), cl::cat(Category));
cl::opt<std::string>
    MaxFileSize("max-file-size",
                cl::desc("Refuse input files larger than this, e.g. 64M or 1G (default 64M; 0: no "
                         "limit). Parsing a file costs time and memory in proportion to its "
                         "size; a generated file of hundreds of MiB would run for minutes."),
                cl::init("64M"), cl::cat(Category));
cl::opt<std::string>
    SarifHelpBase("sarif-help-base",
                  cl::desc("Base URL of the check pages for SARIF helpUri (<base><check without "
                           "warp->.md); default: $WARP_TIDY_DOCS_URL, the build's published "
                           "base, the pages installed with warp-tidy, or none."),
                  cl::cat(Category));
cl::opt<std::string>
    SourceRoot("source-root",
               cl::desc("Directory that SARIF URIs are relative to (default: the current "
                        "directory)."),
               cl::value_desc("dir"), cl::cat(Category));

cl::opt<unsigned>
    Timeout("timeout",
            cl::desc("Stop the analysis of a file after this many seconds and report it "
                     "as that file's error (default 300; 0: no limit)."),
            cl::value_desc("seconds"), cl::init(300), cl::cat(Category));
cl::opt<std::string>
    MemoryLimit("memory-limit",
                cl::desc("Stop the analysis of a file that needs more memory than this, e.g. "
                         "4G, and report it as that file's error (default 8G; 0: no limit)."),
                cl::init("8G"), cl::cat(Category));

// Gradual adoption (docs/integration.md, "Adopting warp-tidy on an existing
// codebase").
cl::opt<std::string>
    BaselineFile("baseline",
                 cl::desc("Do not report findings recorded in this earlier warp-tidy report "
                          "(--format=sarif or json output; matched by fingerprint)."),
                 cl::value_desc("report.sarif|report.json"), cl::cat(Category));
cl::opt<bool>
    UpdateBaseline("update-baseline",
                   cl::desc("Record every current finding in the --baseline file (SARIF if it "
                            "ends in .sarif, else JSON) instead of reporting them."),
                   cl::cat(Category));
cl::opt<std::string>
    Diff("diff", cl::ValueOptional,
         cl::desc("Report only on lines changed since <rev> (default HEAD: uncommitted "
                  "changes), from git; with no files named, analyse the changed "
                  "CUDA files. Write it --diff=<rev>."),
         cl::value_desc("rev"), cl::cat(Category));

// Internal: a worker analyses one file for a parent warp-tidy and writes its
// diagnostics and the files it read as JSON.
cl::opt<std::string> WorkerFile("worker", cl::Hidden, cl::cat(Category));
cl::opt<std::string> WorkerOutput("worker-output", cl::Hidden, cl::cat(Category));
cl::opt<std::string> WorkerMemoryLimit("worker-memory-limit", cl::Hidden, cl::cat(Category));
// How many of its leading #include lines the worker's shared PCH may hold
// (PrecompiledPrologue.h); the parent gives each unit of a run the ones it
// shares with another.
cl::opt<unsigned> WorkerPchLines("worker-pch-lines", cl::Hidden, cl::init(~0u), cl::cat(Category));

/// Everything after the first `--` (past argv[0]) is compiler arguments.
void splitAtDoubleDash(int argc, const char **argv, std::vector<const char *> &ToolArgv,
                       DriverOptions &Opts) {
  for (int I = 0; I < argc; ++I) {
    if (!Opts.HasDoubleDash && StringRef(argv[I]) == "--" && I > 0) {
      Opts.HasDoubleDash = true;
      continue;
    }
    if (Opts.HasDoubleDash)
      Opts.CompilerArgs.push_back(argv[I]);
    else
      ToolArgv.push_back(argv[I]);
  }
  Opts.ToolArgs.assign(ToolArgv.begin(), ToolArgv.end());
}

// clang-tidy's layout: drivers (cpp-linter, run-clang-tidy) read the first
// "version X.Y.Z" as the clang-tidy version, which is LLVM's here.
void printVersion(raw_ostream &OS) {
  OS << "warp-tidy LLVM version " << LLVM_VERSION_STRING << "\n"
     << "  Optimized build.\n"
     << "  warp-tidy " << WARP_TIDY_VERSION << " (CUDA warp-level intrinsic checks)\n";
}

template <typename T> std::optional<T> ifGiven(const cl::opt<T> &Option) {
  if (!Option.getNumOccurrences())
    return std::nullopt;
  return Option.getValue();
}

ConfigArguments configArguments() {
  ConfigArguments C;
  C.Checks = ifGiven(Checks);
  C.WarningsAsErrors = ifGiven(WarningsAsErrors);
  C.HeaderFilter = ifGiven(HeaderFilter);
  C.ExcludeHeaderFilter = ifGiven(ExcludeHeaderFilter);
  C.FormatStyle = ifGiven(FormatStyle);
  C.Config = ifGiven(Config);
  C.ConfigFile = ifGiven(ConfigFile);
  C.SystemHeaders = ifGiven(SystemHeaders);
  C.UseColor = ifGiven(UseColor);
  C.LineFilter = LineFilter;
  C.LineFilterGiven = LineFilter.getNumOccurrences() != 0;
  return C;
}

void copyInputAndOutputOptions(DriverOptions &Opts) {
  Opts.Inputs.assign(Inputs.begin(), Inputs.end());
  Opts.BuildPath = BuildPath;
  Opts.ExtraArgs.assign(ExtraArg.begin(), ExtraArg.end());
  Opts.ExtraArgsBefore.assign(ExtraArgBefore.begin(), ExtraArgBefore.end());
  Opts.CudaPath = CudaPath;
  Opts.VfsOverlay = VfsOverlay;
  Opts.Config = configArguments();
  Opts.ListChecks = ListChecks;
  Opts.DumpConfig = DumpConfig;
  Opts.VerifyConfig = VerifyConfig;
  Opts.AllowNoChecks = AllowNoChecks;
  Opts.ExportCompileCommands = ExportCompileCommands;
  Opts.Fix = Fix;
  Opts.FixErrors = FixErrors;
  Opts.FixNotes = FixNotes;
  Opts.ExportFixes = ExportFixes;
  Opts.Format = Format;
  Opts.FormatName = Format.getParser().Written;
  Opts.OutputFile = OutputFile;
  Opts.Quiet = Quiet;
  Opts.ExitZero = ExitZero;
  Opts.PrintCommands = PrintCommands;
  Opts.PassStats = Stats;
  Opts.SarifHelpBase = SarifHelpBase;
  Opts.SourceRoot = SourceRoot;
  Opts.BaselineFile = BaselineFile;
  Opts.UpdateBaseline = UpdateBaseline;
  Opts.Diff = Diff.getNumOccurrences() != 0;
  Opts.DiffRevision = Diff;
}

void copyRunOptions(DriverOptions &Opts) {
  Opts.Jobs = Jobs;
  Opts.Shard = Shard;
  Opts.NoCache = NoCache;
  Opts.NoPch = NoPch;
  Opts.CacheDir = CacheDir;
  Opts.CacheDirectory = CacheDir.empty() ? defaultCacheDir() : CacheDir.getValue();
  Opts.MaxArchPasses = MaxArchPasses;
  Opts.Timeout = Timeout;
  Opts.CacheSize = CacheSize;
  Opts.MaxFileSize = MaxFileSize;
  Opts.MemoryLimit = MemoryLimit;
  Opts.WorkerFile = WorkerFile;
  Opts.WorkerOutput = WorkerOutput;
  Opts.WorkerMemoryLimit = WorkerMemoryLimit;
  Opts.WorkerPchLines = WorkerPchLines;
}

bool parseShard(StringRef Text, unsigned &Index, unsigned &Count) {
  auto [I, N] = Text.split('/');
  return !I.trim().getAsInteger(10, Index) && !N.trim().getAsInteger(10, Count) && Count >= 1 &&
         Index >= 1 && Index <= Count;
}

/// A size option's value in bytes into \p Bytes; false (an error naming
/// the option and \p Expected) if it is not a size.
bool parseSizeOption(StringRef Name, StringRef Text, StringRef Expected, uint64_t &Bytes) {
  std::optional<uint64_t> Parsed = parseByteSize(Text);
  if (!Parsed) {
    error("invalid --" + Name + " '" + Text + "': expected " + Expected);
    return false;
  }
  Bytes = *Parsed;
  return true;
}

} // namespace

bool parseCommandLine(int argc, const char **argv, DriverOptions &Opts) {
  std::vector<const char *> ToolArgv;
  splitAtDoubleDash(argc, argv, ToolArgv, Opts);
  cl::HideUnrelatedOptions(Category);
  cl::SetVersionPrinter(printVersion);
  if (!cl::ParseCommandLineOptions(
          static_cast<int>(ToolArgv.size()), ToolArgv.data(),
          "warp-tidy: finds misuse of CUDA warp-level intrinsics.\n\n"
          "  warp-tidy kernels/            every .cu/.cuh below, embedded defaults\n"
          "  warp-tidy -p build/ a.cu      flags from build/compile_commands.json\n"
          "  warp-tidy a.cu -- -arch=sm_80 explicit flags (nvcc or clang style)\n\n"
          "Exit status: 0 no findings, 1 findings, 2 usage or tool error.\n",
          &errs()))
    return false;
  Opts.Executable = sys::fs::getMainExecutable(argv[0], (void *)&parseCommandLine);
  copyInputAndOutputOptions(Opts);
  copyRunOptions(Opts);
  return true;
}

bool checkBaselineOptions(const DriverOptions &Opts) {
  if (Opts.UpdateBaseline && Opts.BaselineFile.empty()) {
    error("--update-baseline needs --baseline=<file>");
    return false;
  }
  return true;
}

bool validateRunOptions(DriverOptions &Opts) {
  if (!Opts.isWorker() && Opts.Inputs.empty() && Opts.BuildPath.empty()) {
    error("no input files; give files or directories, or -p <build-dir> (see --help)");
    return false;
  }
  if (Opts.Format == OutputFormat::Unknown) {
    error("unknown --format '" + Opts.FormatName + "': use text, json or sarif");
    return false;
  }
  if (!Opts.OutputFile.empty() && Opts.Format == OutputFormat::Text) {
    error("--output needs --format=json or --format=sarif");
    return false;
  }
  if (!Opts.Shard.empty() && !parseShard(Opts.Shard, Opts.ShardIndex, Opts.ShardCount)) {
    error("invalid --shard '" + Opts.Shard + "': expected i/N with 1 <= i <= N");
    return false;
  }
  return parseSizeOption("cache-size", Opts.CacheSize, "e.g. 512M or 2G", Opts.CacheBytes) &&
         parseSizeOption("memory-limit", Opts.MemoryLimit, "e.g. 4G, or 0", Opts.MemoryBytes) &&
         parseSizeOption("max-file-size", Opts.MaxFileSize, "e.g. 64M or 1G, or 0",
                         Opts.MaxFileBytes);
}

} // namespace warp_tidy::driver
