//===--- Analyse.h - The files the cache did not answer, in workers -------===//
//
// Every file not finished yet is analysed by a worker process (Worker.h),
// at most -j at a time, each under --timeout and --memory-limit, in the
// order of the schedule (Schedule.h). A worker's outcome (its result, or
// why there is none: a crash, a timeout, an interrupt) becomes its file's
// state; results are stored in the cache for the next run.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_TOOL_DRIVER_ANALYSE_H
#define WARP_TIDY_TOOL_DRIVER_ANALYSE_H

#include "driver/CachedResults.h"
#include "driver/FileStates.h"
#include "driver/Options.h"
#include "driver/Progress.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <vector>

namespace warp_tidy::driver {

/// Analyses the unfinished files of \p States; \p OnFinished is called for
/// each as it finishes, in completion order, with the seconds it took.
/// \p Bar hears of each start and keeps time while workers run. False (an
/// error printed) if the workers' temporary directory cannot be created.
bool analyseInWorkers(const DriverOptions &Opts, std::vector<FileState> &States,
                      CachedResults &Cache, Progress &Bar,
                      llvm::function_ref<void(FileState &, double Seconds)> OnFinished);

} // namespace warp_tidy::driver

#endif
