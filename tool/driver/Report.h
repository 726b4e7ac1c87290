//===--- Report.h - The end of a run: fixes, reports, exit status ---------===//
//
// The last stage, once every file is finished and printed: fix-its are
// applied (--fix), the report written (--format=json/sarif, --output,
// --update-baseline, --export-fixes), the closing messages and the summary
// line printed, and the exit status chosen (README.md documents it).
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_TOOL_DRIVER_REPORT_H
#define WARP_TIDY_TOOL_DRIVER_REPORT_H

#include "WarpCompilationDatabase.h"
#include "driver/CachedResults.h"
#include "driver/FileStates.h"
#include "driver/FindingStream.h"
#include "driver/Options.h"
#include <chrono>
#include <vector>

namespace warp_tidy::driver {

/// Finishes the run started at \p Start; its exit status.
int finishRun(const DriverOptions &Opts, clang::tidy::ClangTidyContext &Context,
              const WarpCompilationDatabase &Database, llvm::ArrayRef<FileState> States,
              FindingStream &Stream, const CachedResults &Cache,
              std::chrono::steady_clock::time_point Start);

} // namespace warp_tidy::driver

#endif
