//===--- Analyse.cpp - The files the cache did not answer, in workers -----===//

#include "driver/Analyse.h"
#include "ArchPasses.h"
#include "DiagnosticsSerialization.h"
#include "ParallelRunner.h"
#include "driver/CompileFailure.h"
#include "driver/ExitStatus.h"
#include "driver/Messages.h"
#include "driver/Schedule.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"
#include <csignal>
#include <thread>

using namespace llvm;

namespace warp_tidy::driver {
namespace {

// Set from the SIGINT/SIGTERM handler (llvm::sys::SetInterruptFunction).
volatile std::sig_atomic_t InterruptRequested = 0;
void onInterrupt() { InterruptRequested = 1; }

std::string readFileOrEmpty(StringRef Path) {
  auto Buffer = MemoryBuffer::getFile(Path);
  return Buffer ? (*Buffer)->getBuffer().str() : std::string();
}

/// <TempDir>/<N><Suffix>: where worker N writes.
std::string tempPath(StringRef TempDir, size_t N, StringRef Suffix) {
  SmallString<128> Path(TempDir);
  sys::path::append(Path, std::to_string(N) + Suffix);
  return Path.str().str();
}

/// A worker is started with the parent's command line (less --diff, whose
/// line filter it gets instead) and the options that make it one.
WorkerJob workerJob(const DriverOptions &Opts, StringRef File, StringRef OutPath, StringRef ErrPath,
                    std::optional<size_t> PchLines) {
  WorkerJob Job;
  Job.Args.push_back(Opts.Executable);
  for (size_t A = 1; A < Opts.ToolArgs.size(); ++A)
    if (!StringRef(Opts.ToolArgs[A]).ltrim('-').starts_with("diff"))
      Job.Args.push_back(Opts.ToolArgs[A]);
  if (Opts.Diff)
    Job.Args.push_back("--line-filter=" + Opts.Config.LineFilter);
  Job.Args.push_back(("--worker=" + File).str());
  if (PchLines)
    Job.Args.push_back("--worker-pch-lines=" + std::to_string(*PchLines));
  Job.Args.push_back(("--worker-output=" + OutPath).str());
  // In KiB with its unit: parseByteSize reads a bare number as MiB.
  Job.Args.push_back("--worker-memory-limit=" + std::to_string(Opts.MemoryBytes / 1024) + "K");
  if (Opts.HasDoubleDash) {
    Job.Args.push_back("--");
    llvm::append_range(Job.Args, Opts.CompilerArgs);
  }
  Job.StdoutPath = "/dev/null";
  Job.StderrPath = ErrPath.str();
  return Job;
}

/// A worker stopped by the interrupt of the run (not one that crashed).
bool interrupted(const WorkerOutcome &O) {
  return O.Interrupted || (InterruptRequested && O.Signal);
}

/// Why a worker gave no result, as (status, message); nullopt when it
/// exited cleanly and its output is to be read.
std::optional<std::pair<std::string, std::string>>
failureOf(const DriverOptions &Opts, const FileState &S, const WorkerOutcome &O) {
  auto Failure = [](StringRef Status, std::string Message) {
    return std::make_pair(Status.str(), std::move(Message));
  };
  if (interrupted(O))
    return Failure("interrupted", "'" + S.Path + "' was not analysed: the run was interrupted");
  if (!O.Started)
    return Failure("failed", "cannot start the analysis of '" + S.Path + "': " + O.StartError);
  if (O.TimedOut)
    return Failure("timeout", formatv("analysing '{0}' took longer than --timeout={1}s; it "
                                      "was stopped (raise --timeout, or 0 for no limit)",
                                      S.Path, Opts.Timeout)
                                  .str());
  if (O.Signal)
    return Failure("crashed",
                   "analysing '" + S.Path + "' crashed (signal " + std::to_string(O.Signal) + ")");
  if (!O.StartError.empty())
    return Failure("failed", "analysing '" + S.Path + "' failed: " + O.StartError);
  if (O.ExitCode == ExitOutOfMemory)
    return Failure("failed", "analysing '" + S.Path +
                                 "' needed more memory than "
                                 "--memory-limit=" +
                                 Opts.MemoryLimit +
                                 "; it was stopped (raise --memory-limit, or 0 for no "
                                 "limit)");
  if (O.ExitCode != 0)
    return Failure("failed", "analysing '" + S.Path + "' failed (exit status " +
                                 std::to_string(O.ExitCode) + ")");
  return std::nullopt;
}

void fail(FileState &S, const std::string &Status, const std::string &Message) {
  S.Failed = true;
  S.Report.Status = Status;
  S.Report.Messages.push_back(Message);
}

/// Reads what a worker wrote into \p S (and stores it in the cache).
void readWorkerResult(FileState &S, StringRef OutPath, CachedResults &Cache) {
  std::string Text = readFileOrEmpty(OutPath);
  Expected<json::Value> Parsed = json::parse(Text);
  const json::Object *Obj = Parsed ? Parsed->getAsObject() : nullptr;
  const json::Value *Diags = Obj ? Obj->get("diagnostics") : nullptr;
  if (!Parsed)
    consumeError(Parsed.takeError());
  ArchPassSummary Passes;
  if (Obj && archPassSummaryFromJson(Obj->get("archPasses"), Passes)) {
    S.Report.ArchPasses = Passes.Passes;
    S.StatsLine = describeArchPasses(Passes);
  }
  if (!Diags || !diagnosticsFromJson(*Diags, S.Errors)) {
    fail(S, "failed", "analysing '" + S.Path + "' produced no readable result");
    return;
  }
  Cache.store(S, *Obj);
  // Known before the progress line is printed, which says "failed" too;
  // the message joins the report when the file's output is printed.
  S.CompileFailure = compileFailure(S.Path, S.Errors);
  if (!S.CompileFailure.empty())
    S.Report.Status = "failed";
}

void recordOutcome(const DriverOptions &Opts, FileState &S, const WorkerJob &Job, StringRef OutPath,
                   const WorkerOutcome &O, CachedResults &Cache) {
  S.WorkerStderr = readFileOrEmpty(Job.StderrPath);
  S.Finished = true;
  if (auto Failure = failureOf(Opts, S, O)) {
    if (interrupted(O))
      S.WorkerStderr.clear();
    fail(S, Failure->first, Failure->second);
    return;
  }
  readWorkerResult(S, OutPath, Cache);
}

} // namespace

bool analyseInWorkers(const DriverOptions &Opts, std::vector<FileState> &States,
                      CachedResults &Cache, Progress &Bar,
                      function_ref<void(FileState &, double Seconds)> OnFinished) {
  if (llvm::all_of(States, [](const FileState &S) { return S.Finished; }))
    return true;
  SmallString<128> TempDir;
  if (std::error_code EC = sys::fs::createUniqueDirectory("warp-tidy", TempDir)) {
    error("cannot create a temporary directory: " + EC.message());
    return false;
  }
  Schedule Plan = scheduleUnits(Opts, States);
  if (sys::Process::GetEnv("WARP_TIDY_DEBUG_SCHEDULE"))
    for (size_t I : Plan.Units)
      errs() << "warp-tidy: debug: schedule: " << States[I].Path << "\n";
  std::vector<WorkerJob> Jobs;
  std::vector<std::string> OutputPaths;
  for (size_t N = 0; N < Plan.Units.size(); ++N) {
    std::optional<size_t> PchLines;
    if (!Plan.PchLines.empty())
      PchLines = Plan.PchLines[N];
    OutputPaths.push_back(tempPath(TempDir, N, ".json"));
    Jobs.push_back(workerJob(Opts, States[Plan.Units[N]].Path, OutputPaths.back(),
                             tempPath(TempDir, N, ".stderr"), PchLines));
  }
  // SIGINT/SIGTERM (a CI timeout, Ctrl-C): stop the workers, report what
  // is finished. A second signal kills at once.
  sys::SetInterruptFunction(onInterrupt);
  RunLimits Limits;
  Limits.Parallel = std::max(1u, Opts.Jobs ? Opts.Jobs : std::thread::hardware_concurrency());
  Limits.TimeoutSeconds = Opts.Timeout;
  auto StopRequested = [] { return InterruptRequested != 0; };
  Limits.ShouldStop = StopRequested; // A function_ref: the lambda must outlive it.
  auto Started = [&](size_t N) { Bar.started(States[Plan.Units[N]].Path); };
  auto Waiting = [&] { Bar.tick(); };
  Limits.OnStarted = Started;
  Limits.WhileWaiting = Waiting;
  runWorkers(Jobs, Limits, [&](size_t N, const WorkerOutcome &O) {
    FileState &S = States[Plan.Units[N]];
    if (Plan.Times && O.Started && !O.Interrupted)
      Plan.Times->record(Plan.AbsolutePaths[N], O.Seconds);
    recordOutcome(Opts, S, Jobs[N], OutputPaths[N], O, Cache);
    OnFinished(S, O.Seconds);
  });
  if (Plan.Times)
    Plan.Times->save();
  sys::fs::remove_directories(TempDir);
  Cache.evict(Opts);
  return true;
}

} // namespace warp_tidy::driver
