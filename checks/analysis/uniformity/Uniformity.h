//===--- Uniformity.h - Which lanes of a warp reach each collective -------===//
//
// The analysis every mask check stands on. Per function, over clang's CFG:
//
//  1. Values. A forward dataflow computes, for every local variable, whether
//     its value can differ between the lanes of one warp ("thread-varying")
//     or is the same for all of them ("warp-uniform"). The lattice value is a
//     small bit set (ValueDeps): bit 0 means thread-varying, bit i+1 means
//     "as varying as parameter i", so one result serves every caller.
//     Sources and propagation follow docs/design/uniformity.md.
//  2. Divergence. A branch (if, switch, loop condition, ?:, &&, ||) whose
//     condition is thread-varying is divergent; statements control dependent
//     on it (clang's ControlDependencyCalculator, closed transitively) are
//     reached by only some lanes. A divergent branch whose lanes never meet
//     again in the function (its immediate post-dominator is the exit) is an
//     early exit: the lanes that left have exited, not diverged.
//  3. Lane sets. Where conditions compare the lane id or threadIdx.x with
//     constants, a second dataflow tracks which lanes surely (Must) and
//     possibly (May) reach each block; data-dependent conditions give an
//     unknown subset (Must = none).
//  4. Sites. Every warp collective, and every call of a function whose
//     summary needs converged lanes, becomes a CollectiveSite carrying those
//     facts, so checks only compare them with the mask and report.
//
// Results are cached per FunctionDecl in a WarpAnalysisCache owned by the
// ASTContext (one per translation unit), so all checks share one CFG build.
// Only functions that contain a collective (directly or through callees)
// are analysed for sites; helpers that read thread-varying sources are
// analysed for their return value only when a caller needs it.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_ANALYSIS_UNIFORMITY_H
#define WARP_TIDY_ANALYSIS_UNIFORMITY_H

#include "ast/LaneSet.h"
#include "intrinsics/WarpIntrinsics.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <memory>
#include <optional>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace clang {
class ASTContext;
class CallExpr;
class Expr;
class FunctionDecl;
class Stmt;
} // namespace clang

namespace warp_tidy {

struct UniformityOptions {
  /// Blocks are a whole number of warps wide (blockDim.x % 32 == 0): then
  /// threadIdx.y / threadIdx.z are warp-uniform, blockIdx.x * blockDim.x is a
  /// multiple of 32, and threadIdx.x % 32 is the lane id.
  bool AssumeWarpAlignedBlocks = true;
};

/// Lattice value of the value analysis: bit 0 = thread-varying, bit i+1 =
/// depends on parameter i (for parameters 0..62). 0 = warp-uniform.
using ValueDeps = uint64_t;
inline constexpr ValueDeps ThreadVarying = 1;
inline ValueDeps parameterDep(unsigned Index) {
  return Index < 63 ? ValueDeps(1) << (Index + 1) : 0;
}

/// Why some lanes may not reach a point.
struct DivergenceSource {
  enum SourceKind {
    Branch,    ///< a divergent branch whose lanes meet again later
    EarlyExit, ///< a divergent branch after which some lanes have returned
    Argument,  ///< a thread-varying argument decides, inside the callee,
               ///< whether lanes reach the collective
  };
  SourceKind Kind = Branch;
  const clang::Expr *Condition = nullptr;  ///< condition, or the argument
  const clang::Stmt *Terminator = nullptr; ///< if/for/?:/... (null for Argument)
  bool LaneComparison = false;             ///< condition compares lane/threadIdx.x
  /// EarlyExit only: the lanes leave by running off the kernel's end, not
  /// through a `return`.
  bool ExitsAtEnd = false;
  /// EarlyExit only: no lane that arrives reads one that left. The branch is
  /// the same for every lane of each aligned segment the site's shuffle
  /// reads (CollectiveSite::ReadWidth), or the lanes that leave all lie above
  /// those that stay and the shuffle reads lower lanes (`shfl_up`), or
  /// below them for one that reads higher lanes (`shfl_down`).
  bool ExitedLanesUnread = false;
};

/// A warp collective (or a call of a helper containing one) with the facts
/// the mask checks need.
struct CollectiveSite {
  /// The statement in this function: the call, or an inline asm statement
  /// holding a PTX collective (then Call is null).
  const clang::Stmt *At = nullptr;
  const clang::CallExpr *Call = nullptr;       ///< the call in this function
  const WarpIntrinsic *Intrinsic = nullptr;    ///< the collective that needs the lanes
                                               ///< (for inline PTX: its equivalent)
  const clang::FunctionDecl *Helper = nullptr; ///< set for calls of helpers
  /// The collective itself (in Helper, or == At): a call or an asm statement.
  const clang::Stmt *Witness = nullptr;
  /// Lanes the mask names (implicit collectives: the warp / the tile);
  /// nullopt for a mask only known at run time.
  std::optional<LaneSet> Required;
  bool ImplicitMask = false;
  /// The lanes that must arrive together: 32 for a warp collective, N for a
  /// collective of a cooperative-groups tile of N lanes (a branch that is
  /// the same for every lane of each tile does not diverge it).
  unsigned GroupSize = 32;
  /// A shuffle reads only lanes of its own aligned segment of ReadWidth
  /// lanes (its `width`; a tile's size); a helper's site: its widest.
  unsigned ReadWidth = 32;
  /// A xor shuffle whose lane mask is this function's unwritten parameter
  /// (its index); -1 otherwise.
  int XorParameter = -1;
  LaneSet Must;                                      ///< lanes that surely reach the call
  LaneSet May;                                       ///< lanes that possibly reach it
  llvm::SmallVector<DivergenceSource, 2> Divergence; ///< Branch/Argument sources, innermost first
  llvm::SmallVector<DivergenceSource, 1> EarlyExits;
  /// The innermost condition of either kind (Divergence or EarlyExits).
  const clang::Expr *InnermostCondition = nullptr;
  /// Some divergent condition is not a lane comparison: data decide which
  /// lanes arrive.
  bool DataDecided = false;
  /// Every divergent branch above leads each of its paths to a call of the
  /// same collective with the same mask before its lanes meet again (the
  /// pattern valid on sm_70+).
  bool CoveredOnEveryPath = false;
  /// Parameters whose value decides whether the call is reached.
  ValueDeps ParamConditions = 0;
  /// The mask is this function's parameter (index), not yet known: callers
  /// that pass a constant are judged with it. -1 otherwise.
  int MaskParameter = -1;
  /// Parameters of this function the mask's value is computed from, as the
  /// parameter bits of its ValueDeps (directly, through locals, written or
  /// not, or through a helper's mask parameter).
  ValueDeps MaskSources = 0;
  /// The mask as this call gives it: the collective's mask operand, or the
  /// argument a wrapper uses as its collective's mask; null when implicit.
  const clang::Expr *MaskExpr = nullptr;
};

/// What callers need to know about a function.
struct FunctionSummary {
  /// Lanes that must be converged on entry because a collective inside
  /// needs them (directly or through callees); nullopt when none.
  std::optional<LaneSet> RequiredLanes;
  const clang::Stmt *Witness = nullptr; ///< that collective (call or asm)
  const WarpIntrinsic *WitnessIntrinsic = nullptr;
  /// A collective (not divergent inside the function) whose mask is the
  /// function's parameter MaskParameter (-1: none): a caller passing a
  /// constant mask, or leaving a defaulted one, needs those lanes converged.
  int MaskParameter = -1;
  const clang::Stmt *MaskWitness = nullptr; ///< call or asm statement
  const WarpIntrinsic *MaskWitnessIntrinsic = nullptr;
  /// That collective's ReadWidth and XorParameter (CollectiveSite).
  unsigned MaskReadWidth = 32;
  int MaskXorParameter = -1;
  /// Parameters some collective's mask is computed from, whether or not the
  /// function writes them first (`unclaimed ^= group` in a peer-group loop):
  /// what a caller passes there ends up in that mask, so an __activemask()
  /// argument is as bad as one written at the collective. MaskSourceWitness
  /// is the first such collective.
  ValueDeps MaskSources = 0;
  const clang::Stmt *MaskSourceWitness = nullptr;
  const WarpIntrinsic *MaskSourceIntrinsic = nullptr;
  /// The largest group of lanes the function's collectives need converged
  /// (32 unless every one of them is a collective of a smaller tile).
  unsigned GroupSize = 32;
  /// The widest segment the RequiredLanes collectives read (ReadWidth).
  unsigned ReadWidth = 32;
  /// Every RequiredLanes collective is a xor shuffle whose lane mask is
  /// this parameter (index): a caller's constant bounds what they read.
  int XorParameter = -1;
  /// Parameters that decide inside the function whether the witness runs.
  ValueDeps RequirementConditions = 0;
  /// The branches (condition, CFG block) those parameters decide through, so
  /// a caller can ask whether its argument makes them warp-uniform.
  llvm::SmallVector<std::pair<const clang::Expr *, unsigned>, 2> RequirementBranches;
  /// For each non-const reference parameter: what the function leaves in it
  /// (ThreadVarying and parameter bits, as ReturnDeps); nullopt for other
  /// parameters.
  llvm::SmallVector<std::optional<ValueDeps>, 4> ReferenceOut;
  /// Dependencies of the returned value.
  ValueDeps ReturnDeps = ThreadVarying;
  /// For a returned aggregate whose fields are kept apart (a scan's
  /// `make_int2(exclusive, total)`): each field's dependencies, as
  /// ReturnDeps; empty for other functions.
  llvm::SmallVector<ValueDeps, 4> ReturnFields;
};

class WarpAnalysisCache;
class FunctionUniformity;
class LaunchFacts;
class LocalWriteFacts;
class FieldStores;
class TermBuilder;
class UniformityProver;
struct Term;
using TermRef = const Term *;

/// The analysis result for one function.
class FunctionUniformity {
public:
  ~FunctionUniformity();
  const clang::FunctionDecl *function() const;
  /// Dependencies of \p E where it is evaluated (ThreadVarying when \p E is
  /// not part of this function's CFG).
  ValueDeps dependencies(const clang::Expr *E) const;
  bool isThreadVarying(const clang::Expr *E) const { return dependencies(E) & ThreadVarying; }
  /// Lanes that surely / possibly reach \p S (all lanes at entry).
  LaneSet mustReach(const clang::Stmt *S) const;
  LaneSet mayReach(const clang::Stmt *S) const;
  /// True when \p S is in this function's CFG but no lane reaches it: a branch
  /// whose condition folds to false (e.g. `if (64 <= 32)` in one template
  /// instance) is never compiled into the program.
  bool provablyUnreachable(const clang::Stmt *S) const;
  /// True when some path from the entry to \p S passes a statement's
  /// branch whose condition differs between lanes, even one after which the
  /// lanes meet again before \p S (or when \p S is not in the CFG): what a
  /// lane sees of the others' progress there (`__activemask()`) is not
  /// settled. The selects of `?:`, `&&` and `||` rejoin within their
  /// expression and do not count.
  bool divergesBefore(const clang::Stmt *S) const;
  /// Divergent conditions \p S is control dependent on (innermost first),
  /// early exits included.
  llvm::SmallVector<DivergenceSource, 2> divergenceAt(const clang::Stmt *S) const;
  /// \p E as a symbolic term (SymbolicTerm.h, in the cache's TermBuilder)
  /// with the values locals have just before \p At (a statement of this
  /// function's CFG, e.g. the call \p E is an argument of), converted to
  /// \p Width bits as an unsigned value; null when \p At is not in the CFG.
  TermRef symbolicValue(const clang::Expr *E, const clang::Stmt *At, unsigned Width) const;
  /// Collectives and helper calls, in source order.
  llvm::ArrayRef<CollectiveSite> sites() const;
  const FunctionSummary &summary() const;
  /// Branches and sites, for debugging (WARP_TIDY_DEBUG_UNIFORMITY=1 makes
  /// warp-divergent-full-mask print this for every analysed function).
  void dump(llvm::raw_ostream &OS) const;

  struct Impl;

private:
  friend class WarpAnalysisCache;
  explicit FunctionUniformity(std::unique_ptr<Impl> P);
  std::unique_ptr<Impl> P;
};

/// A function's analysis. The cache keeps only the most recently used
/// analyses (the heavy per-block state) and recomputes the others on demand,
/// so a caller holds this handle while it reads the analysis: the result
/// stays alive for as long as the handle does.
using UniformityRef = std::shared_ptr<const FunctionUniformity>;

/// Per translation unit cache of analyses and summaries.
///
/// Memory: summaries (what callers need) are kept for the whole unit; the
/// full analyses (CFG, per-block dataflow states, lane sets, sites) only
/// for the RecentCapacity most recently used functions. clang-tidy runs
/// every check's matchers in one traversal of the AST, so the questions
/// about one function come close together; an analysis asked for again
/// after eviction is recomputed from the same inputs (the callees'
/// summaries), which gives the same result. Analyses whose inputs could
/// differ on a recomputation (members of a recursive cycle, or an analysis
/// that saw another function still in progress) are kept for the unit.
class WarpAnalysisCache {
public:
  /// The cache of \p Ctx's translation unit for these options; it lives as
  /// long as the ASTContext.
  static WarpAnalysisCache &get(clang::ASTContext &Ctx, const UniformityOptions &Opts = {});

  WarpAnalysisCache(clang::ASTContext &Ctx, const UniformityOptions &Opts);
  ~WarpAnalysisCache();

  /// The analysis of \p FD, or null when it has no body, is a dependent
  /// template, contains no collective (directly or through its callees) and
  /// reads no thread-varying source, or cannot be analysed.
  UniformityRef analysis(const clang::FunctionDecl *FD);
  /// The summary of \p FD; null while \p FD is being analysed (recursion) or
  /// when it cannot be analysed.
  const FunctionSummary *summary(const clang::FunctionDecl *FD);
  /// True when \p FD (outside system headers) contains a warp collective,
  /// directly or through the functions it calls.
  bool containsCollective(const clang::FunctionDecl *FD);
  /// True when \p FD reads threadIdx, a lane id, an atomic result... directly
  /// or through callees (system headers included).
  bool readsVaryingSource(const clang::FunctionDecl *FD);

  clang::ASTContext &context() const { return Ctx; }
  const UniformityOptions &options() const { return Opts; }
  /// The symbolic terms and the solver-backed prover shared by every
  /// function of the translation unit (created on first use).
  TermBuilder &terms();
  UniformityProver &prover();
  /// What the unit's launches guarantee about kernel parameters.
  LaunchFacts &launchFacts();
  /// Which fields the unit's code stores into after construction
  /// (FieldConstruction.h).
  FieldStores &fieldStores();

private:
  struct Traits {
    bool Known = false;
    bool HasCollective = false;
    bool HasVaryingSource = false;
  };
  Traits traits(const clang::FunctionDecl *FD);
  Traits traitsOfDefinition(const clang::FunctionDecl *Def);
  /// What one body does itself, and the functions it calls.
  struct DirectFacts {
    bool Collective = false; ///< a collective, outside system headers
    bool Varying = false;    ///< a thread-varying source
    llvm::SmallVector<const clang::FunctionDecl *, 4> Callees;
  };
  const DirectFacts &directFacts(const clang::FunctionDecl *Def);
  /// Analyses \p Root and the user-code functions it calls that have no
  /// analysis yet, callees first (strongly connected components of their
  /// call graph in post-order); a recursive cycle is iterated until its
  /// summaries stop changing.
  void analyseWithCallees(const clang::FunctionDecl *Root);
  /// Runs the analysis of one function and stores it.
  void analyseOne(const clang::FunctionDecl *Def);
  /// Runs the analysis of \p Def again (its full result was evicted).
  UniformityRef recompute(const clang::FunctionDecl *Def);
  /// Keeps \p A among the most recently used analyses.
  void remember(const clang::FunctionDecl *Def, UniformityRef A);
  /// Records the finished analysis \p A of \p Def (null: not analysable).
  void store(const clang::FunctionDecl *Def, UniformityRef A, bool Pin);
  /// Iterates the analyses of a recursive cycle to a fixed point.
  void analyseCycle(llvm::ArrayRef<const clang::FunctionDecl *> Members);

  clang::ASTContext &Ctx;
  UniformityOptions Opts;
  /// By definition (definitionOf), and by any other declaration asked about
  /// (with its definition's traits, or none).
  llvm::DenseMap<const clang::FunctionDecl *, Traits> TraitsCache;
  llvm::DenseMap<const clang::FunctionDecl *, DirectFacts> DirectCache;

public:
  /// How many full analyses are kept besides the pinned ones.
  static constexpr unsigned RecentCapacity = 16;
  /// How many analyses have been run (recomputations included); for tests.
  unsigned analysesRun() const { return AnalysesRun; }

private:
  enum class Outcome { NotAnalysable, Recomputable, Pinned };
  /// Every function analysed so far and what became of its analysis.
  llvm::DenseMap<const clang::FunctionDecl *, Outcome> Done;
  /// Summaries of every analysed function, for the whole unit.
  llvm::DenseMap<const clang::FunctionDecl *, std::unique_ptr<FunctionSummary>> Summaries;
  /// Analyses kept for the whole unit (see the class comment).
  llvm::DenseMap<const clang::FunctionDecl *, UniformityRef> PinnedAnalyses;
  /// The most recently used recomputable analyses, most recent last.
  llvm::SmallVector<std::pair<const clang::FunctionDecl *, UniformityRef>, RecentCapacity> Recent;
  llvm::DenseMap<const clang::FunctionDecl *, bool> InProgress;
  /// The functions whose analyses are running, innermost last.
  llvm::SmallVector<const clang::FunctionDecl *, 4> Running;
  /// Answers that depended on the order of analysis (a function still in
  /// progress, a provisional summary): an analysis that received one is
  /// pinned, since a recomputation could get another answer.
  unsigned OrderDependentAnswers = 0;
  unsigned AnalysesRun = 0;
  unsigned Recomputations = 0;
  /// Summaries of the members of the recursive cycle being iterated: what
  /// their callers see until the cycle is solved.
  llvm::DenseMap<const clang::FunctionDecl *, std::unique_ptr<FunctionSummary>> Provisional;
  std::unique_ptr<TermBuilder> Terms;
  std::unique_ptr<UniformityProver> Prover;
};

} // namespace warp_tidy

#endif
