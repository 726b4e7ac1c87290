//===--- CachedResults.h - The result cache of a run ----------------------===//
//
// Before any worker starts, each file whose inputs are unchanged since an
// earlier run gets that run's diagnostics from the result cache
// (ResultCache.h); the workers store what they find for the next one. The
// key holds everything the result depends on besides the files read: this
// binary, the effective configuration, the line filter, the compile
// commands.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_TOOL_DRIVER_CACHEDRESULTS_H
#define WARP_TIDY_TOOL_DRIVER_CACHEDRESULTS_H

#include "ResultCache.h"
#include "driver/FileStates.h"
#include "driver/Options.h"
#include "llvm/Support/JSON.h"
#include <optional>

namespace warp_tidy::driver {

class CachedResults {
public:
  /// Opens the cache directory unless --no-cache; without it (a warning
  /// printed when it cannot be used) every file is analysed.
  explicit CachedResults(const DriverOptions &Opts);

  /// Gives every file not failed its key, and finishes the ones the cache
  /// has a valid entry for.
  void lookUp(const DriverOptions &Opts, clang::tidy::ClangTidyContext &Context,
              std::vector<FileState> &States);

  /// Stores a worker's result for \p S, if it says it is cacheable.
  void store(const FileState &S, const llvm::json::Object &Result);

  /// Bounds the cache directory, PCHs included, with or without the result
  /// cache (unless nothing there is to be touched).
  void evict(const DriverOptions &Opts);

  bool enabled() const { return Cache.has_value(); }
  unsigned hits() const { return Hits; }
  unsigned misses() const { return Misses; }

private:
  std::optional<ResultCache> Cache;
  unsigned Hits = 0, Misses = 0;
};

} // namespace warp_tidy::driver

#endif
