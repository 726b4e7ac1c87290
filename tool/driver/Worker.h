//===--- Worker.h - The analysis of one file, in a child process ----------===//
//
// A whole-project run analyses each file in a child warp-tidy started with
// --worker=<file> (ParallelRunner.h says why processes). The worker runs
// the analysis passes of its file (ArchPasses.h) and writes, as JSON, the
// diagnostics, the files it read (the dependencies of a cache entry),
// whether the result may be cached, and the passes it took.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_TOOL_DRIVER_WORKER_H
#define WARP_TIDY_TOOL_DRIVER_WORKER_H

#include "WarpCompilationDatabase.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "driver/Options.h"

namespace warp_tidy::driver {

/// Analyses Opts.WorkerFile and writes the result to Opts.WorkerOutput;
/// the worker's exit status.
int runWorker(const DriverOptions &Opts, clang::tidy::ClangTidyContext &Context,
              const WarpCompilationDatabase &Database);

} // namespace warp_tidy::driver

#endif
