//===--- NodeKeys.h - Hashing AST node pointers in large maps -------------===//
//
// LLVM's default hash for a pointer key, `(P >> 4) ^ (P >> 9)`, keeps much
// of the address's regularity. AST nodes come from one bump allocator,
// packed and of similar sizes, so in a map over many of them (the unit's
// parent index holds half a million nodes on ggml's mmvq.cu) the keys crowd
// into neighbouring buckets: the probe sequences of the inserts, and of the
// rehashes as the map doubles, cost about twice the walk that fills it. A
// multiplicative (Fibonacci) hash spreads consecutive addresses over the
// whole table. Only the layout changes: the map holds and answers the same.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_ANALYSIS_NODEKEYS_H
#define WARP_TIDY_ANALYSIS_NODEKEYS_H

#include "llvm/ADT/DenseMapInfo.h"
#include <cstdint>

namespace warp_tidy {

/// DenseMap key traits for a pointer to an AST node (any pointer type).
template <typename Pointer> struct NodeKeyInfo {
  static Pointer getEmptyKey() { return llvm::DenseMapInfo<Pointer>::getEmptyKey(); }
  static Pointer getTombstoneKey() { return llvm::DenseMapInfo<Pointer>::getTombstoneKey(); }
  static unsigned getHashValue(Pointer P) {
    uint64_t Mixed = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(P)) * 0x9E3779B97F4A7C15ull;
    return static_cast<unsigned>(Mixed >> 32);
  }
  static bool isEqual(Pointer A, Pointer B) { return A == B; }
};

} // namespace warp_tidy

#endif
