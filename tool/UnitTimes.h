//===--- UnitTimes.h - How long each unit took last time ------------------===//
//
// A whole-project run starts its workers in the order of its inputs. Units
// differ a lot in cost (ggml-cuda: fattn.cu takes two analysis passes and
// about 2.4 s, argmax.cu 0.3 s), and the longest one started last leaves
// the other cores idle at the end of the run: with -j2 over six ggml-cuda
// units, fattn.cu last in the list runs alone for more than a second. So a
// run records how long each unit took, in the cache directory, and the next
// run starts the units it has no time for first (in input order: nothing
// is known about them), then the others longest first (Graham's
// longest-processing-time order, within 4/3 of the best schedule). Only the
// start order changes: reports come out in input order as before, and the
// times are hints, never part of a result.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_TOOL_UNITTIMES_H
#define WARP_TIDY_TOOL_UNITTIMES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>
#include <vector>

namespace warp_tidy {

class UnitTimes {
public:
  /// The times recorded in \p CacheDir (none if there are none, or if the
  /// file cannot be read as written).
  explicit UnitTimes(llvm::StringRef CacheDir);

  /// Seconds the analysis of \p Unit (an absolute path) took last time.
  std::optional<double> lastSeconds(llvm::StringRef Unit) const;
  /// Notes this run's time for \p Unit.
  void record(llvm::StringRef Unit, double Seconds);
  /// Writes this run's times into the file, over what is there now (another
  /// run may have written meanwhile), atomically; failures are silent.
  void save() const;

  /// The file, in \p CacheDir.
  static std::string pathIn(llvm::StringRef CacheDir);

private:
  std::string Path;
  llvm::StringMap<double> Known;
  llvm::StringMap<double> Recorded;
};

/// The order to start units in, given each one's last time: those without
/// one first, in input order, then the others longest first (ties in input
/// order).
std::vector<size_t> longestFirstOrder(llvm::ArrayRef<std::optional<double>> Times);

} // namespace warp_tidy

#endif
