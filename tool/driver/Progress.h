//===--- Progress.h - Progress of a whole-project run on stderr -----------===//
//
// A line redrawn in place on a terminal, one line per finished file
// otherwise (CI logs, which must stay stable). Off for a single file and
// with --quiet. The terminal's line shows the file that has been running
// longest and the time going by, redrawn every second, so a long analysis
// is never a frozen screen; the log's lines come only as files finish.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_TOOL_DRIVER_PROGRESS_H
#define WARP_TIDY_TOOL_DRIVER_PROGRESS_H

#include "llvm/ADT/StringRef.h"
#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

namespace warp_tidy::driver {

class Progress {
public:
  Progress(size_t Total, bool Enabled);

  /// The analysis of \p File has started.
  void started(llvm::StringRef File);

  /// \p File was finished after \p Seconds, with the status \p What.
  void done(llvm::StringRef File, llvm::StringRef What, double Seconds);

  /// Called while files are analysed: a terminal's line is redrawn once a
  /// second (the time goes by), and at once after other output cleared it.
  void tick();

  void finish() { clearLine(); }

  /// Before other output: a line redrawn in place must not be left in it.
  void clearLine();

private:
  using Clock = std::chrono::steady_clock;
  void draw();

  size_t Total, Done = 0;
  bool Enabled, Terminal;
  std::vector<std::string> Running; ///< Oldest first.
  Clock::time_point Start = Clock::now(), LastDraw;
  bool Shown = false;
};

} // namespace warp_tidy::driver

#endif
