//===--- LaneSet.h - A set of lanes of one warp ---------------------------===//
//
// Warp masks and the lanes that can reach a point are both subsets of the 32
// lanes of a warp, so one 32-bit value represents either. The uniformity
// analysis tracks two of them per point (lanes that surely / possibly reach
// it) and the checks compare them with a collective's mask.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_ANALYSIS_LANESET_H
#define WARP_TIDY_ANALYSIS_LANESET_H

#include <cstdint>
#include <cstdio>
#include <string>

namespace warp_tidy {

/// A 32-lane mask as users write it: `0x0000ffff`.
inline std::string hexMask(uint32_t Mask) {
  char Buf[16];
  snprintf(Buf, sizeof Buf, "0x%08x", Mask);
  return Buf;
}

class LaneSet {
public:
  constexpr LaneSet() = default;
  constexpr explicit LaneSet(uint32_t Bits) : Bits(Bits) {}

  static constexpr LaneSet all() { return LaneSet(~0u); }
  static constexpr LaneSet none() { return LaneSet(0u); }
  /// Lanes 0 .. N-1 (N is clamped to [0, 32]).
  static constexpr LaneSet below(long long N) {
    return N <= 0 ? none() : N >= 32 ? all() : LaneSet((1u << N) - 1u);
  }
  static constexpr LaneSet single(unsigned Lane) {
    return Lane < 32 ? LaneSet(1u << Lane) : none();
  }

  constexpr uint32_t bits() const { return Bits; }
  constexpr bool isAll() const { return Bits == ~0u; }
  constexpr bool isEmpty() const { return Bits == 0; }
  constexpr bool contains(unsigned Lane) const { return Lane < 32 && (Bits >> Lane) & 1u; }
  /// True when every lane of \p Other is in this set.
  constexpr bool includes(LaneSet Other) const { return (Other.Bits & ~Bits) == 0; }
  unsigned count() const { return __builtin_popcount(Bits); }

  constexpr LaneSet operator|(LaneSet O) const { return LaneSet(Bits | O.Bits); }
  constexpr LaneSet operator&(LaneSet O) const { return LaneSet(Bits & O.Bits); }
  constexpr LaneSet operator~() const { return LaneSet(~Bits); }
  /// Lanes of this set that are not in \p O.
  constexpr LaneSet minus(LaneSet O) const { return LaneSet(Bits & ~O.Bits); }
  constexpr bool operator==(LaneSet O) const { return Bits == O.Bits; }
  constexpr bool operator!=(LaneSet O) const { return Bits != O.Bits; }

  /// "lane 0", "lanes 16-31", "lanes 0-7 and 24-31", "no lane" for messages.
  std::string describe() const {
    if (Bits == 0)
      return "no lane";
    std::string Ranges;
    unsigned Runs = 0;
    for (unsigned L = 0; L < 32;) {
      if (!contains(L)) {
        ++L;
        continue;
      }
      unsigned End = L;
      while (End + 1 < 32 && contains(End + 1))
        ++End;
      ++Runs;
      std::string Run = std::to_string(L);
      if (End != L)
        Run += "-" + std::to_string(End);
      Ranges += (Ranges.empty() ? "" : ", ") + Run;
      L = End + 1;
    }
    // Many runs read badly as text; a hex set is what users write anyway.
    if (Runs > 3) {
      return "lanes " + hexMask(Bits);
    }
    if (count() == 1)
      return "lane " + Ranges;
    size_t Last = Ranges.rfind(", ");
    if (Last != std::string::npos)
      Ranges.replace(Last, 2, " and ");
    return "lanes " + Ranges;
  }

private:
  uint32_t Bits = 0;
};

} // namespace warp_tidy

#endif
