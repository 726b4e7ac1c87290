//===--- FileStates.h - Where each file of a run stands -------------------===//
//
// A run keeps one record per file, in report order: its compile commands,
// its cache key, its diagnostics and its entry in the report. The cache
// finishes some of them, workers the others; output is printed from them in
// order, as soon as a file and every file before it are finished.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_TOOL_DRIVER_FILESTATES_H
#define WARP_TIDY_TOOL_DRIVER_FILESTATES_H

#include "OutputFormats.h"
#include "WarpCompilationDatabase.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "driver/Inputs.h"
#include "driver/Options.h"
#include <string>
#include <vector>

namespace warp_tidy::driver {

struct FileState {
  std::string Path;
  std::vector<clang::tooling::CompileCommand> Commands;
  std::string Key;                                 ///< Cache key (empty: not cacheable).
  std::vector<clang::tidy::ClangTidyError> Errors; ///< Its diagnostics.
  FileReport Report;
  std::string WorkerStderr;
  std::string StatsLine; ///< --pass-stats: its analysis passes.
  /// Why it did not compile (CompileFailure.h); empty when it did.
  std::string CompileFailure;
  bool Failed = false;   ///< Tool error for this file (not its findings).
  bool Finished = false; ///< Its result (or error) is known.
};

/// One state per selected file, with its compile commands (printed with
/// --print-commands; several for one file are noted in \p Selected). Files
/// that cannot be analysed (an unusable argument, a file the database
/// names that is not on disk, a directory or a file that cannot be opened
/// for reading) are finished already, failed with their reason; the
/// others are analysed.
std::vector<FileState> makeFileStates(const DriverOptions &Opts,
                                      const WarpCompilationDatabase &Database,
                                      SelectedFiles &Selected);

/// Never silently off: every file must get some check. False (an error
/// printed) otherwise, unless --allow-no-checks.
bool everyFileHasChecks(const DriverOptions &Opts, clang::tidy::ClangTidyContext &Context,
                        llvm::ArrayRef<FileState> States);

} // namespace warp_tidy::driver

#endif
