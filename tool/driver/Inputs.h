//===--- Inputs.h - The files a run analyses ------------------------------===//
//
// What the command line names becomes a sorted list of files: directories
// are walked (InputFiles.h), -p alone means every CUDA unit of the
// database, --diff means the CUDA files git says changed, --shard keeps one
// part of the list. A file that cannot be analysed (unreadable, over
// --max-file-size) stays in the list with its reason: it is that file's
// error in the report while the others are analysed.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_TOOL_DRIVER_INPUTS_H
#define WARP_TIDY_TOOL_DRIVER_INPUTS_H

#include "driver/CompileCommands.h"
#include "driver/Options.h"
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace warp_tidy::driver {

/// --diff: git's changed lines become the line filter, and with neither
/// files nor -p given, the changed CUDA files the inputs. Workers receive
/// the filter (--line-filter), so git runs once and the cache key sees it.
/// The exit status when the run ends here (2 on an error, 0 when no CUDA
/// file has changed lines), nullopt to go on.
std::optional<int> applyDiff(DriverOptions &Opts);

struct SelectedFiles {
  std::vector<std::string> Files;            ///< In report order.
  std::map<std::string, std::string> Errors; ///< Path -> why it is unusable.
  std::vector<std::string> Notes;            ///< Shown before the results.
};

/// The files of the run; nullopt (an error printed) when -p alone finds
/// no CUDA unit in the database.
std::optional<SelectedFiles> selectFiles(const DriverOptions &Opts,
                                         const CompileCommands &Commands);

/// --shard=i/N: keeps the files of shard i (the k-th file of the sorted
/// list goes to shard k mod N, so every shard of a CI matrix sees a
/// disjoint part of the same list). False when it has none (said unless
/// --quiet): the run ends there, cleanly.
bool keepShard(const DriverOptions &Opts, std::vector<std::string> &Files);

} // namespace warp_tidy::driver

#endif
