//===--- Progress.cpp - Progress of a whole-project run on stderr ---------===//

#include "driver/Progress.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace warp_tidy::driver {

namespace {

/// The terminal's line: a bar, "<Done>/<Total>", the seconds so far and
/// what runs ("analysing <Running> (+N more)"), cut to \p Width columns.
std::string progressLine(size_t Done, size_t Total, unsigned Seconds, StringRef Running,
                         size_t AlsoRunning, unsigned Width) {
  constexpr size_t BarWidth = 30;
  size_t Filled = Total ? BarWidth * Done / Total : BarWidth;
  std::string Line = "[" + std::string(Filled, '=') + std::string(BarWidth - Filled, ' ') + "] " +
                     std::to_string(Done) + "/" + std::to_string(Total) + " " +
                     std::to_string(Seconds) + "s";
  if (!Running.empty())
    Line += " analysing " + Running.str();
  if (AlsoRunning)
    Line += " (+" + std::to_string(AlsoRunning) + " more)";
  // A line longer than the terminal wraps, and "\r" would redraw only its
  // last part.
  if (Width && Line.size() >= Width)
    Line.resize(Width - 1);
  return Line;
}

} // namespace

Progress::Progress(size_t Total, bool Enabled)
    : Total(Total), Enabled(Enabled), Terminal(sys::Process::StandardErrIsDisplayed()) {}

void Progress::started(StringRef File) {
  Running.push_back(File.str());
  if (Enabled && Terminal)
    draw();
}

void Progress::done(StringRef File, StringRef What, double Seconds) {
  ++Done;
  auto It = llvm::find(Running, File);
  if (It != Running.end())
    Running.erase(It);
  if (!Enabled)
    return;
  if (Terminal) {
    draw();
    return;
  }
  errs() << "warp-tidy: [" << Done << "/" << Total << "] " << What << " " << File
         << formatv(" ({0:f1}s)", Seconds) << "\n";
}

void Progress::tick() {
  if (Enabled && Terminal && (!Shown || Clock::now() - LastDraw >= std::chrono::seconds(1)))
    draw();
}

void Progress::draw() {
  unsigned Seconds = std::chrono::duration_cast<std::chrono::seconds>(Clock::now() - Start).count();
  StringRef Oldest = Running.empty() ? "" : sys::path::filename(Running.front());
  size_t Others = Running.empty() ? 0 : Running.size() - 1;
  errs() << "\r\x1b[K"
         << progressLine(Done, Total, Seconds, Oldest, Others, sys::Process::StandardErrColumns());
  errs().flush();
  LastDraw = Clock::now();
  Shown = true;
}

void Progress::clearLine() {
  if (Shown)
    errs() << "\r\x1b[K";
  Shown = false;
}

} // namespace warp_tidy::driver
