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
// main() is the sequence of the run's stages, each in its own file under
// driver/: the command line (Options), the clang-tidy configuration
// (Configuration), the compile commands (CompileCommands), the files
// (Inputs, FileStates), the result cache (CachedResults), the analysis in
// worker processes (Schedule, Analyse; a worker runs Worker) and the
// output (FindingStream, Progress, Report). The order of the stages is the
// order in which usage and tool errors are reported.
//
//===----------------------------------------------------------------------===//

#include "driver/Analyse.h"
#include "driver/CachedResults.h"
#include "driver/CompileCommands.h"
#include "driver/Configuration.h"
#include "driver/ExitStatus.h"
#include "driver/FileStates.h"
#include "driver/FindingStream.h"
#include "driver/Inputs.h"
#include "driver/Messages.h"
#include "driver/Options.h"
#include "driver/Progress.h"
#include "driver/Report.h"
#include "driver/Worker.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/InitLLVM.h"
#include <chrono>

using namespace warp_tidy::driver;

extern volatile int WarpTidyModuleAnchorSource;
static int LLVM_ATTRIBUTE_UNUSED WarpTidyModuleAnchorDestination = WarpTidyModuleAnchorSource;

int main(int argc, const char **argv) {
  llvm::InitLLVM X(argc, argv);

  // The command line and the configuration; the modes that only print it.
  DriverOptions Opts;
  if (!parseCommandLine(argc, argv, Opts))
    return ExitToolError;
  if (std::optional<int> Exit = applyDiff(Opts))
    return *Exit;
  if (!checkBaselineOptions(Opts))
    return ExitToolError;
  auto Provider = makeOptionsProvider(Opts);
  if (!Provider || !checkVfsOverlay(Opts) || !checkCheckGlobs(Opts))
    return ExitToolError;
  if (std::optional<int> Exit = answerConfigurationQuery(Opts, *Provider))
    return *Exit;
  if (!validateRunOptions(Opts))
    return ExitToolError;
  auto Start = std::chrono::steady_clock::now();

  // Compile commands; a worker analyses its one file with them.
  std::optional<CompileCommands> Commands = loadCompileCommands(Opts);
  if (!Commands)
    return ExitToolError;
  const warp_tidy::WarpCompilationDatabase &Database = *Commands->Database;
  if (Opts.isWorker())
    return runWorker(Opts, *makeTidyContext(std::move(Provider)), Database);

  // The files of the run.
  std::optional<SelectedFiles> Selected = selectFiles(Opts, *Commands);
  if (!Selected)
    return ExitToolError;
  if (!Opts.ExportCompileCommands.empty())
    return exportCompileCommands(Opts, Database, Selected->Files);
  if (!keepShard(Opts, Selected->Files))
    return ExitClean;
  auto Context = makeTidyContext(std::move(Provider));
  std::vector<FileState> States = makeFileStates(Opts, Database, *Selected);
  if (!everyFileHasChecks(Opts, *Context, States))
    return ExitToolError;

  // Results: from the cache, then from workers, printed in file order as
  // they come.
  CachedResults Cache(Opts);
  Cache.lookUp(Opts, *Context, States);
  if (!Opts.Quiet)
    for (const std::string &N : Selected->Notes)
      note(N);
  size_t ToAnalyse = llvm::count_if(States, [](const FileState &S) { return !S.Finished; });
  Progress Bar(ToAnalyse, !Opts.Quiet && States.size() != 1);
  FindingStream Stream(Opts, *Context, Bar, States.size() == 1);
  if (!Stream.loadBaseline())
    return ExitToolError;
  Stream.printFinished(States);
  bool Analysed = analyseInWorkers(Opts, States, Cache, Bar, [&](FileState &S, double Seconds) {
    Bar.done(S.Path, S.Report.Status, Seconds);
    Stream.printFinished(States);
  });
  if (!Analysed)
    return ExitToolError;
  Bar.finish();
  Stream.printFinished(States);

  return finishRun(Opts, *Context, Database, States, Stream, Cache, Start);
}
