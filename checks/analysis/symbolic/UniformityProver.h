//===--- UniformityProver.h - Can two lanes of a warp disagree on a value? ===//
//
// The question behind every "is this branch divergent" after the taint
// analysis has said "it may be": can two lanes of the same warp (or of the
// same aligned group of G lanes, for cooperative-groups tiles of size G)
// evaluate a term differently?
//
// The warp model (CUDA Programming Guide, "SIMT architecture"): warps are
// formed from the linear thread id  x + Dx * (y + Dy * z); lane = linear %
// 32, warp = linear / 32. With AssumeWarpAlignedBlocks (blockDim.x % 32 ==
// 0) that is: the lanes of a warp share y, z and x / 32 and differ in x % 32.
//
// Two steps, cheap first:
//  1. Sampling. The term is evaluated on concrete blocks, warps and values of
//     its uniform leaves, for every lane of the warp. A disagreement found
//     there is a real one (a counterexample of the model): the answer is
//     Varying and no solver runs. Most thread-varying conditions (`lane ==
//     0`, data loaded per lane) end here.
//  2. Proof. Otherwise Z3 is asked whether term(A) != term(B) is
//     satisfiable for two lanes A, B of one group: the query is written
//     through LLVM's SMT API and decided by Z3's default solver
//     (TacticSolver.h). With the launches' block shapes known, once per
//     shape, with constant extents.
//     Lane-independent subterms with nonlinear arithmetic (blockIdx.x *
//     blockDim.x) are replaced by fresh uniform symbols that keep only their
//     known zero low bits: a weaker model, so UNSAT still proves uniformity,
//     and the solver sees little more than lane arithmetic. Only UNSAT makes
//     a value uniform; SAT, unknown or a resource-limit hit keep the taint's
//     answer. Every query is bounded by a deterministic resource limit (so
//     results do not depend on machine load) and a time limit as backstop.
//
// Answers are cached per (term, group size); terms are hash-consed, so the
// same condition asked again (the divergence fixpoint repeats questions)
// costs a map lookup.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_ANALYSIS_UNIFORMITYPROVER_H
#define WARP_TIDY_ANALYSIS_UNIFORMITYPROVER_H

#include "symbolic/SymbolicTerm.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <map>
#include <memory>
#include <string>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace warp_tidy {

/// Counters for the benchmark and `WARP_TIDY_SOLVER_STATS`.
struct ProverStats {
  unsigned Questions = 0; ///< sameInGroup calls (cache hits included)
  unsigned CacheHits = 0;
  unsigned SampledVarying = 0; ///< disproved by sampling, no solver
  unsigned SharedHits = 0;     ///< settled by another prover of the process
  unsigned SolverQueries = 0;
  unsigned ProvedUniform = 0; ///< solver said UNSAT
  unsigned SolverVarying = 0; ///< solver said SAT
  unsigned Unknown = 0;       ///< resource or time limit, or no solver
  double SolverSeconds = 0;

  void add(const ProverStats &O);
  void print(llvm::raw_ostream &OS) const;
};

/// A question about two lanes A and B of one warp (A == B allowed): is there
/// an execution in which the width-1 term Relation is 1? Relation is written
/// over *bound* leaves: each Binding names a uniform leaf of Relation that
/// stands for the value of a term in lane A or in lane B (the lane id of B is
/// bound to HardwareLane in lane B, a mask of A to the mask term in lane A).
/// Every other uniform leaf (a kernel parameter) has one value shared by both
/// lanes, as in the warp; per-lane leaves may differ. Relation itself should
/// not read the thread's position: bind what it needs.
struct LanePairQuery {
  struct Binding {
    TermRef Leaf;  ///< a uniform leaf of Relation
    TermRef Value; ///< what it stands for
    bool InLaneB;  ///< evaluated in lane B (else lane A)
  };
  TermRef Relation = nullptr;
  llvm::SmallVector<Binding, 6> Bindings;
};

/// Two lanes for which a LanePairQuery's relation holds, with the value of
/// each binding (in the order of the query's bindings).
/// A block shape the warp model can be restricted to: the blockDim of a
/// launch that the unit shows.
struct LaunchedBlock {
  unsigned X = 1, Y = 1, Z = 1;
  bool operator<(const LaunchedBlock &O) const {
    return X != O.X ? X < O.X : Y != O.Y ? Y < O.Y : Z < O.Z;
  }
  bool operator==(const LaunchedBlock &O) const { return X == O.X && Y == O.Y && Z == O.Z; }
};

struct LanePairWitness {
  unsigned LaneA = 0, LaneB = 0;
  llvm::SmallVector<uint64_t, 6> Values;
  bool FromSolver = false; ///< found by Z3 (else by sampling)
};

/// The lanes that must agree on a value: those named in \p Lanes (a bit per
/// lane id) within one aligned group of \p Size lanes. The warp is {32, all};
/// a cooperative-groups tile of N lanes is {N, all}; a collective whose mask
/// names half a warp needs only {32, 0x0000ffff} to agree. A size alone
/// converts to its whole group.
struct LaneGroup {
  unsigned Size = 32;
  uint32_t Lanes = ~0u;
  LaneGroup(unsigned Size = 32, uint32_t Lanes = ~0u) : Size(Size), Lanes(Lanes) {}
  /// At most one named lane in every group: nothing to disagree with.
  bool trivial() const;
  bool wholeGroups() const { return Lanes == ~0u; }
  /// The whole warp: the question every branch is asked first.
  bool isWarp() const { return Size >= 32 && wholeGroups(); }
  /// A key for maps: size and lanes in one number.
  uint64_t key() const { return (static_cast<uint64_t>(Size) << 32) | Lanes; }
};

class UniformityProver {
public:
  enum class Answer { Uniform, Varying, Unknown };
  enum class Existence { Exists, NoneExists, Unknown };

  /// \p WallClockLimitMs bounds each solver query in wall-clock time, a
  /// backstop besides the deterministic effort bound (rlimit) that makes
  /// answers independent of the machine; 0: no wall-clock bound (tests, so
  /// that machine load cannot turn an answer into Unknown).
  /// 20 s: far above what the effort bound allows on an idle machine, so
  /// that load does not decide answers (at 2 s, proofs of 100-300 ms timed
  /// out under a load of 10 on 2 cores and brought a false positive back).
  static constexpr unsigned DefaultWallClockLimitMs = 20000;
  ///
  /// \p Blocks, when not empty, are every block shape the code can run in
  /// (the launches that reach it are all known): the model then lays the
  /// warps out over those extents only, partial last warp included, and
  /// \p WarpAlignedBlocks is replaced by what the shapes say. The solver is
  /// asked once per shape, with constant extents; an answer holds for all of
  /// them (Uniform only if uniform in every shape; a witness comes from one).
  explicit UniformityProver(bool WarpAlignedBlocks,
                            unsigned WallClockLimitMs = DefaultWallClockLimitMs,
                            llvm::ArrayRef<LaunchedBlock> Blocks = {});
  ~UniformityProver();

  /// Do all lanes of \p Group (by default the warp; a cooperative-groups
  /// tile; the lanes a mask names) hold the same value of \p T?
  Answer sameInGroup(TermRef T, LaneGroup Group = {});

  /// Is there a pair of lanes of one warp for which \p Q's relation holds?
  /// Sampling first (a hit is a real execution of the model), then Z3: SAT
  /// gives a witness from its model, UNSAT proves that no lane pair of any
  /// warp satisfies it ("P holds for all lanes" is "not P exists nowhere").
  /// \p Witness is filled when the answer is Exists.
  Existence existsLanePair(const LanePairQuery &Q, LanePairWitness *Witness = nullptr);

  /// The lanes that exist in some warp of the blocks modelled: every lane,
  /// unless every launched block has fewer than 32 threads (`<<<1, 16>>>`
  /// makes lanes 0-15 only).
  uint32_t existingLanes() const;

  const ProverStats &stats() const { return Stats; }
  /// The Z3 session (an implementation detail, public for the lowering).
  struct Solver;
  /// Totals over every prover of this process (printed at exit when the
  /// environment variable WARP_TIDY_SOLVER_STATS is set).
  static ProverStats &processTotals();

private:
  bool samplingFindsDisagreement(TermRef T, LaneGroup Group);
  Answer prove(TermRef T, LaneGroup Group);
  /// The lane-dependent operands of \p T's costly operations (products of
  /// two unknowns, loads, opaque divisions) that are the same in every lane
  /// of \p Group, each asked on its own first (see prove).
  llvm::DenseSet<TermRef> uniformOperands(TermRef T, LaneGroup Group);
  Answer proveInShape(TermRef T, LaneGroup Group, const LaunchedBlock *Shape,
                      const llvm::DenseSet<TermRef> &SharedUniform);
  bool samplingFindsLanePair(const LanePairQuery &Q, LanePairWitness &Witness);
  Existence solveLanePair(const LanePairQuery &Q, LanePairWitness &Witness);
  Existence solveLanePairInShape(const LanePairQuery &Q, const LaunchedBlock *Shape,
                                 LanePairWitness &Witness);

  bool Aligned; ///< blockDim.x is a multiple of 32 (assumed, or in every shape of Blocks)
  llvm::SmallVector<LaunchedBlock, 4> Blocks;
  std::string ModelKey; ///< the warp model, for answers shared between provers
  unsigned WallClockLimitMs;
  ProverStats Stats;
  std::map<std::string, Answer> Cache; ///< by canonical term and group
  /// By the term itself: terms are built once per distinct value, so the
  /// same question (the next round, another check) skips the canonical key,
  /// which is as long as the term. (The terms asked of a prover come from
  /// one TermBuilder that lives as long as it: the unit's WarpAnalysisCache.)
  llvm::DenseMap<std::pair<TermRef, uint64_t>, Answer> ByTerm;
  std::map<std::string, std::pair<Existence, LanePairWitness>> PairCache;
  std::unique_ptr<Solver> Z3;
};

} // namespace warp_tidy

#endif
