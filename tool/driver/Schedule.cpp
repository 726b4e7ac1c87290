//===--- Schedule.cpp - Which files go to workers, in which order ---------===//

#include "driver/Schedule.h"
#include "LeadingIncludes.h"
#include "PrecompiledPrologue.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace warp_tidy::driver {
namespace {

/// Of several units, each puts into the shared PCH the leading #include
/// lines it shares with another, or all of them if an earlier run saw it
/// (pchLinesForRun); a single unit, all of them (its next run reuses them):
/// no list.
std::vector<size_t> pchLines(const DriverOptions &Opts, const Schedule &S,
                             ArrayRef<std::optional<double>> Last) {
  if (S.Units.size() <= 1)
    return {};
  std::vector<std::vector<std::string>> Blocks;
  std::vector<std::string> Dirs;
  std::vector<bool> Seen;
  for (size_t N = 0; N < S.Units.size(); ++N) {
    const std::string &Path = S.AbsolutePaths[N];
    auto Buffer = MemoryBuffer::getFile(Path);
    Blocks.push_back(Buffer ? leadingIncludes((*Buffer)->getBuffer()).Lines
                            : std::vector<std::string>());
    Dirs.push_back(sys::path::parent_path(Path).str());
    Seen.push_back(Last[N].has_value());
  }
  size_t FullBlocks = Opts.NoPch ? 0 : wholeBlockPchBudget(Opts.CacheDirectory, Opts.CacheBytes);
  return pchLinesForRun(Blocks, Dirs, Seen, S.AbsolutePaths, FullBlocks);
}

template <typename T> void permute(std::vector<T> &V, ArrayRef<size_t> Order) {
  std::vector<T> Out;
  for (size_t N : Order)
    Out.push_back(V[N]);
  V = std::move(Out);
}

} // namespace

Schedule scheduleUnits(const DriverOptions &Opts, ArrayRef<FileState> States) {
  Schedule S;
  for (size_t I = 0; I < States.size(); ++I)
    if (!States[I].Finished) {
      S.Units.push_back(I);
      SmallString<256> Path(States[I].Path);
      sys::fs::make_absolute(Path);
      S.AbsolutePaths.push_back(Path.str().str());
    }
  // The cache directory holds the unit times, the PCHs and their budget
  // (and the result cache).
  if ((!Opts.NoCache || !Opts.NoPch) && !Opts.CacheDirectory.empty())
    S.Times.emplace(Opts.CacheDirectory);
  std::vector<std::optional<double>> Last(S.Units.size());
  if (S.Times)
    for (size_t N = 0; N < S.Units.size(); ++N)
      Last[N] = S.Times->lastSeconds(S.AbsolutePaths[N]);
  S.PchLines = pchLines(Opts, S, Last);
  if (S.Times && S.Units.size() > 1) {
    std::vector<size_t> Order = longestFirstOrder(Last);
    permute(S.Units, Order);
    permute(S.AbsolutePaths, Order);
    if (!S.PchLines.empty())
      permute(S.PchLines, Order);
  }
  return S;
}

} // namespace warp_tidy::driver
