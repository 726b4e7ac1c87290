//===--- Progress.cpp - Progress of a whole-project run on stderr ---------===//

#include "driver/Progress.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include <string>

using namespace llvm;

namespace warp_tidy::driver {

Progress::Progress(size_t Total, bool Enabled)
    : Total(Total), Enabled(Enabled), Terminal(sys::Process::StandardErrIsDisplayed()) {}

void Progress::done(StringRef File, StringRef What, double Seconds) {
  ++Done;
  if (!Enabled)
    return;
  if (Terminal) {
    constexpr unsigned Width = 30;
    unsigned Filled = static_cast<unsigned>(Width * Done / Total);
    errs() << "\r\x1b[K[" << std::string(Filled, '=') << std::string(Width - Filled, ' ') << "] "
           << Done << "/" << Total << " " << sys::path::filename(File);
    if (What != "analysed")
      errs() << " (" << What << ")";
    return;
  }
  errs() << "warp-tidy: [" << Done << "/" << Total << "] " << What << " " << File
         << formatv(" ({0:f1}s)", Seconds) << "\n";
}

void Progress::clearLine() {
  if (Enabled && Terminal && Done)
    errs() << "\r\x1b[K";
}

} // namespace warp_tidy::driver
