//===--- TacticSolver.h - Z3's default solver for an LLVM SMT query -------===//
//
// LLVM's SMT API builds Z3's "simple" solver: the SMT core without Z3's
// preprocessing tactics. On Z3 4.8 (Debian's) that core runs out of any
// effort bound we can afford on carry questions about 64-bit sums: whether
// bits 4 and up of `(a << 5) + warp_x * 32 + lane` agree for two lanes of a
// 16-lane tile took 4 s and ended "unknown", where Z3's default solver
// (simplifier, bit-blaster, SAT preprocessing) answers in 3 ms. The address
// of a load at a tile's index is such a sum, so a load the warp model makes
// uniform came out unproved.
//
// The query is still written through LLVM's API (the prover's lowering);
// this hands its assertions, as SMT-LIB text, to a default solver in a Z3
// context of its own, and reads a model back by the constants' names.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_SYMBOLIC_TACTICSOLVER_H
#define WARP_TIDY_SYMBOLIC_TACTICSOLVER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMTAPI.h"
#include <cstdint>
#include <memory>
#include <optional>

namespace warp_tidy {

class TacticSolver {
public:
  TacticSolver();
  ~TacticSolver();
  TacticSolver(const TacticSolver &) = delete;
  TacticSolver &operator=(const TacticSolver &) = delete;

  /// Is the conjunction of \p Query's assertions satisfiable? Bounded by
  /// Z3's deterministic effort limit \p RLimit and, when not 0, by
  /// \p TimeoutMs of wall-clock time; nullopt when a bound ends it first.
  std::optional<bool> check(const llvm::SMTSolver &Query, unsigned RLimit, unsigned TimeoutMs);

  /// After check() said satisfiable: the model's value of the bit-vector
  /// constant \p Name of \p Width bits (at most 64); nullopt when the model
  /// leaves it open or has no such constant.
  std::optional<uint64_t> valueOf(llvm::StringRef Name, unsigned Width);

private:
  struct Impl;
  std::unique_ptr<Impl> Z;
};

} // namespace warp_tidy

#endif
