//===--- Schedule.h - Which files go to workers, in which order -----------===//
//
// The files the cache did not finish are analysed by workers. The schedule
// says in which order they start (the longest first, by the times the last
// run recorded: UnitTimes.h) and how many of its leading #include lines
// each may put into the shared PCH (LeadingIncludes.h: pchLinesForRun).
// Only the start order changes: reports come out in input order.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_TOOL_DRIVER_SCHEDULE_H
#define WARP_TIDY_TOOL_DRIVER_SCHEDULE_H

#include "UnitTimes.h"
#include "driver/FileStates.h"
#include "driver/Options.h"
#include <optional>
#include <string>
#include <vector>

namespace warp_tidy::driver {

struct Schedule {
  std::vector<size_t> Units;              ///< Indices of the file states.
  std::vector<std::string> AbsolutePaths; ///< Of each unit.
  std::vector<size_t> PchLines;           ///< Of each unit; empty: all.
  /// The times of the last run, where this one records its own; none when
  /// the cache directory is not to be touched at all.
  std::optional<UnitTimes> Times;
};

/// The unfinished files of \p States, in start order.
Schedule scheduleUnits(const DriverOptions &Opts, llvm::ArrayRef<FileState> States);

} // namespace warp_tidy::driver

#endif
