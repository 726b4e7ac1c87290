//===--- Progress.h - Progress of a whole-project run on stderr -----------===//
//
// A bar redrawn in place on a terminal, one line per finished file
// otherwise (CI logs). Off for a single file and with --quiet.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_TOOL_DRIVER_PROGRESS_H
#define WARP_TIDY_TOOL_DRIVER_PROGRESS_H

#include "llvm/ADT/StringRef.h"
#include <cstddef>

namespace warp_tidy::driver {

class Progress {
public:
  Progress(size_t Total, bool Enabled);

  /// \p File was finished after \p Seconds, with the status \p What.
  void done(llvm::StringRef File, llvm::StringRef What, double Seconds);

  void finish() { clearLine(); }

  /// Before other output: a bar redrawn in place must not be left in it.
  void clearLine();

private:
  size_t Total, Done = 0;
  bool Enabled, Terminal;
};

} // namespace warp_tidy::driver

#endif
