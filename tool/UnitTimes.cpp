//===--- UnitTimes.cpp - How long each unit took last time ----------------===//

#include "UnitTimes.h"
#include "ResultCache.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <algorithm>
#include <numeric>

using namespace llvm;

namespace warp_tidy {

namespace {

/// Bounds the file: a cache directory shared by many projects keeps the
/// times of the most recent units.
constexpr size_t MaxUnits = 20000;

/// Lines `<seconds>\t<path>`; anything else is skipped.
StringMap<double> readTimes(StringRef Path) {
  StringMap<double> Times;
  auto Buffer = MemoryBuffer::getFile(Path);
  if (!Buffer)
    return Times;
  SmallVector<StringRef, 0> Lines;
  (*Buffer)->getBuffer().split(Lines, '\n', -1, /*KeepEmpty=*/false);
  for (StringRef Line : Lines) {
    auto [Seconds, Unit] = Line.split('\t');
    double Value;
    if (Unit.empty() || !to_float(Seconds, Value) || !(Value >= 0))
      continue;
    Times[Unit] = Value;
  }
  return Times;
}

} // namespace

UnitTimes::UnitTimes(StringRef CacheDir) : Path(pathIn(CacheDir)), Known(readTimes(Path)) {}

std::string UnitTimes::pathIn(StringRef CacheDir) {
  SmallString<256> P(CacheDir);
  sys::path::append(P, "unit-times.tsv");
  return P.str().str();
}

std::optional<double> UnitTimes::lastSeconds(StringRef Unit) const {
  auto It = Known.find(Unit);
  if (It == Known.end())
    return std::nullopt;
  return It->second;
}

void UnitTimes::record(StringRef Unit, double Seconds) { Recorded[Unit] = Seconds; }

void UnitTimes::save() const {
  if (Recorded.empty())
    return;
  // This run's units, then the others the file holds, up to the bound.
  StringMap<double> Now = readTimes(Path);
  std::string Text;
  size_t Written = 0;
  auto Write = [&](StringRef Unit, double Seconds) {
    Text += formatv("{0:f3}\t{1}\n", Seconds, Unit).str();
    ++Written;
  };
  std::vector<StringRef> Units;
  for (const auto &Entry : Recorded)
    Units.push_back(Entry.getKey());
  llvm::sort(Units);
  for (StringRef Unit : Units)
    Write(Unit, Recorded.lookup(Unit));
  std::vector<StringRef> Others;
  for (const auto &Entry : Now)
    if (!Recorded.count(Entry.getKey()))
      Others.push_back(Entry.getKey());
  llvm::sort(Others);
  for (StringRef Unit : Others) {
    if (Written >= MaxUnits)
      break;
    Write(Unit, Now.lookup(Unit));
  }
  writeAtomically(Path, Text);
}

std::vector<size_t> longestFirstOrder(ArrayRef<std::optional<double>> Times) {
  std::vector<size_t> Order(Times.size());
  std::iota(Order.begin(), Order.end(), 0);
  llvm::stable_sort(Order, [&](size_t A, size_t B) {
    if (Times[A].has_value() != Times[B].has_value())
      return !Times[A].has_value(); // Unknown first.
    return Times[A] && *Times[A] > *Times[B];
  });
  return Order;
}

} // namespace warp_tidy
