//===--- ParallelRunner.h - Analyse files in worker processes -------------===//
//
// Whole-project runs analyse each file in a child warp-tidy (`--worker`), at
// most N at a time. Processes rather than threads: a crash in the analysis
// of one file (a clang bug, a check bug) is reported for that file and the
// run goes on, and no state leaks from one translation unit to the next.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_TOOL_PARALLELRUNNER_H
#define WARP_TIDY_TOOL_PARALLELRUNNER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <string>
#include <vector>

namespace warp_tidy {

struct WorkerJob {
  std::vector<std::string> Args; ///< argv, Args[0] being the program.
  std::string StdoutPath;        ///< Where the child's stdout goes.
  std::string StderrPath;        ///< Where the child's stderr goes.
};

struct WorkerOutcome {
  bool Started = false;
  std::string StartError;   ///< Why it could not be started.
  int ExitCode = -1;        ///< When it exited normally.
  int Signal = 0;           ///< When it was killed by a signal.
  bool TimedOut = false;    ///< Killed for running past the time limit.
  bool Interrupted = false; ///< Stopped (or never started) because the run was.
  double Seconds = 0;
};

struct RunLimits {
  unsigned Parallel = 1;
  unsigned TimeoutSeconds = 0; ///< Per job; 0: none.
  /// Polled while jobs run: once true, running children are terminated and
  /// the remaining jobs are reported Interrupted without being started.
  llvm::function_ref<bool()> ShouldStop;
  /// Called with a job's index once it has been started (may be null).
  llvm::function_ref<void(size_t)> OnStarted;
  /// Called every few milliseconds while children run and none has ended
  /// (may be null): a progress display keeps time with it.
  llvm::function_ref<void()> WhileWaiting;
};

/// Runs \p Jobs under \p Limits. \p OnDone is called in the parent, in
/// completion order, with the job's index, exactly once per job.
void runWorkers(llvm::ArrayRef<WorkerJob> Jobs, const RunLimits &Limits,
                llvm::function_ref<void(size_t, const WorkerOutcome &)> OnDone);

} // namespace warp_tidy

#endif
