//===--- Options.h - warp-tidy's command line -----------------------------===//
//
// The first stage of a run: the command line, parsed into plain values that
// the later stages read. The options themselves (names, help texts,
// defaults) are declared in Options.cpp and nowhere else. A worker process
// is started with its parent's command line plus the hidden --worker
// options, so the same parse serves both.
//
// Usage errors are reported at the point of the run where they always were:
// --update-baseline without --baseline after --diff has been resolved, the
// rest (inputs, --format, --output, --shard, sizes) once the modes that only
// print configuration (--verify-config, --list-checks, --dump-config) have
// had their turn.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_TOOL_DRIVER_OPTIONS_H
#define WARP_TIDY_TOOL_DRIVER_OPTIONS_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace warp_tidy::driver {

enum class OutputFormat { Text, Json, Sarif, Unknown };

/// The options that make up the clang-tidy configuration, each set only
/// when the command line names it (as clang-tidy's own overrides).
struct ConfigArguments {
  std::optional<std::string> Checks, WarningsAsErrors, HeaderFilter, ExcludeHeaderFilter,
      FormatStyle, Config, ConfigFile;
  std::optional<bool> SystemHeaders, UseColor;
  std::string LineFilter;       ///< --line-filter, or the one --diff builds.
  bool LineFilterGiven = false; ///< --line-filter is on the command line.
};

struct DriverOptions {
  // The command line itself: workers are started with it again.
  std::string Executable;                ///< This binary, absolute.
  std::vector<std::string> ToolArgs;     ///< argv before the first `--`.
  std::vector<std::string> CompilerArgs; ///< argv after it.
  bool HasDoubleDash = false;

  // What to analyse, and how to compile it.
  std::vector<std::string> Inputs;
  std::string BuildPath;
  std::vector<std::string> ExtraArgs, ExtraArgsBefore;
  std::string CudaPath;
  std::string VfsOverlay;
  ConfigArguments Config;

  // Modes that print and exit.
  bool ListChecks = false, DumpConfig = false, VerifyConfig = false;
  bool AllowNoChecks = false;
  std::string ExportCompileCommands;

  // Fix-its.
  bool Fix = false, FixErrors = false, FixNotes = false;
  std::string ExportFixes;

  // Output.
  OutputFormat Format = OutputFormat::Text;
  std::string FormatName; ///< --format as written.
  std::string OutputFile;
  bool Quiet = false, ExitZero = false, PrintCommands = false, PassStats = false;
  std::string SarifHelpBase, SourceRoot;
  std::string BaselineFile;
  bool UpdateBaseline = false;
  bool Diff = false;
  std::string DiffRevision; ///< --diff=<rev>; empty: HEAD.

  // Whole-project runs, the cache and the limits.
  unsigned Jobs = 0;
  std::string Shard;
  unsigned ShardIndex = 1, ShardCount = 1; ///< From Shard, once validated.
  bool NoCache = false, NoPch = false;
  std::string CacheDir;       ///< --cache-dir as given.
  std::string CacheDirectory; ///< --cache-dir or the default; may be empty.
  unsigned MaxArchPasses = 6;
  unsigned Timeout = 300;
  std::string CacheSize, MaxFileSize, MemoryLimit;            ///< As written.
  uint64_t CacheBytes = 0, MaxFileBytes = 0, MemoryBytes = 0; ///< Validated.

  // A worker (hidden options): the file it analyses and where it writes.
  std::string WorkerFile, WorkerOutput, WorkerMemoryLimit;
  unsigned WorkerPchLines = ~0u; ///< ~0u: every leading #include line.

  bool isWorker() const { return !WorkerFile.empty(); }
};

/// Parses \p argv into \p Opts; false (a message printed by the parser) on
/// a usage error. Everything after the first `--` is compiler arguments.
bool parseCommandLine(int argc, const char **argv, DriverOptions &Opts);

/// --update-baseline needs --baseline; false (an error printed) without it.
bool checkBaselineOptions(const DriverOptions &Opts);

/// The usage errors of a run that analyses: no input, an unknown --format,
/// --output with text, and unreadable --shard, --cache-size, --memory-limit
/// and --max-file-size values, whose parsed forms it fills in. False (an
/// error printed) on the first one found.
bool validateRunOptions(DriverOptions &Opts);

} // namespace warp_tidy::driver

#endif
