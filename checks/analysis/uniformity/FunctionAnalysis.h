//===--- FunctionAnalysis.h - State of the per-function uniformity analysis ===//
//
// Private to the uniformity analysis (checks/analysis/Uniformity.h is the
// public interface). FunctionUniformity::Impl is one analysis run over one
// function's CFG; its steps read and write the same per-function tables
// (block of each statement, variable index, dataflow states, divergent
// branches), so it stays one struct, declared here, with its member
// functions defined in one file per step:
//
//   Uniformity.cpp                  run() (the order of the steps), the public
//                                   FunctionUniformity queries, mask constants
//   uniformity/LocalVariables.cpp   aliases, single definitions, mutated and
//                                   %laneid locals
//   uniformity/ControlDivergence.cpp control dependences, early exits, the
//                                   divergent-branch fixpoint step, sources
//   uniformity/ValueAnalysis.cpp    ValueDeps transfer and worklist
//   uniformity/AggregateFields.cpp  fields of a local aggregate, one by one
//   uniformity/Butterflies.cpp      full xor butterflies
//   uniformity/SymbolicView.cpp     induction variables, the SymbolicView
//                                   environment, prover queries
//   uniformity/IndexForms.cpp       indexForm / laneSplit
//   uniformity/LaneReachability.cpp Must / May lane sets
//   uniformity/PathConditions.cpp   the conditions on the way to a site,
//                                   asked together
//   uniformity/CollectiveSites.cpp  collective sites
//   uniformity/WarpAnalysisCache.cpp per-TU cache, call-graph order, summaries
//
// docs/design/uniformity.md describes the analysis itself.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_ANALYSIS_UNIFORMITY_FUNCTIONANALYSIS_H
#define WARP_TIDY_ANALYSIS_UNIFORMITY_FUNCTIONANALYSIS_H

#include "ast/LocalWrites.h"
#include "ast/StmtReachability.h"
#include "intrinsics/WarpIntrinsics.h"
#include "lanes/LaneIdentity.h"
#include "symbolic/UniformityProver.h"
#include "uniformity/LaunchedProvers.h"
#include "uniformity/Uniformity.h"
#include "clang/AST/Expr.h"
#include "clang/AST/OperationKinds.h"
#include "clang/Analysis/Analyses/Dominators.h"
#include "clang/Analysis/Analyses/PostOrderCFGView.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include <map>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace warp_tidy {

/// Helpers shared by the pieces of the analysis (defined in Uniformity.cpp).
namespace uniformity_detail {

bool isInSystemHeader(const clang::Decl *D, const clang::ASTContext &Ctx);

/// The definition with a body we can analyse, or null.
const clang::FunctionDecl *definitionOf(const clang::FunctionDecl *FD);

/// Lanes of every N-lane tile that intersects \p Lanes.
LaneSet tilesTouching(LaneSet Lanes, unsigned N);

/// How an integer expression relates to the thread's position in its warp:
/// the one recogniser's answer (analysis/LaneIdentity.h).
using IndexForm = PositionForm;

/// Lane sets on the two edges of a branch on a lane comparison.
struct LaneSplit {
  bool Uniform = false; ///< the comparison splits between warps only
  LaneSet TrueMust, TrueMay, FalseMust, FalseMay;
};

/// The split of a condition from the lanes that take its true edge in each
/// warp that can run it: Must sides are the lanes that take that edge in
/// every warp where any lane does, May sides those that do in some warp.
LaneSplit splitOverWarps(llvm::ArrayRef<LaneSet> TruePerWarp);

} // namespace uniformity_detail

struct FunctionUniformity::Impl {
  using IndexForm = uniformity_detail::IndexForm;
  using LaneSplit = uniformity_detail::LaneSplit;

  Impl(WarpAnalysisCache &Cache, const clang::FunctionDecl *FD)
      : Cache(Cache), Ctx(Cache.context()), FD(FD), Opts(Cache.options()),
        Prover(proverFor(FD, Cache.prover(), Opts.AssumeWarpAlignedBlocks)) {}

  WarpAnalysisCache &Cache;
  clang::ASTContext &Ctx;
  const clang::FunctionDecl *FD;
  UniformityOptions Opts;
  /// Asks in the blocks that can run FD (LaunchedProvers.h).
  UniformityProver &Prover;

  std::unique_ptr<clang::CFG> Cfg;
  std::unique_ptr<clang::CFGPostDomTree> PostDom;
  /// The blocks' reverse post-order, for the value dataflow's worklist.
  std::unique_ptr<clang::PostOrderCFGView> Order;
  /// Built on demand (sourcesFor), for the order of its answers.
  std::unique_ptr<clang::ControlDependencyCalculator> ControlDeps;
  unsigned NumBlocks = 0;
  std::vector<const clang::CFGBlock *> ByID;

  llvm::DenseMap<const clang::Stmt *, const clang::CFGBlock *> BlockOf;
  llvm::DenseMap<const clang::VarDecl *, unsigned> VarIndex;
  /// Dataflow slots: one per variable, plus one per field of a local of a
  /// small aggregate type (AggregateFields.cpp): its first slot and count.
  unsigned NumSlots = 0;
  llvm::DenseMap<const clang::VarDecl *, std::pair<unsigned, unsigned>> FieldSlots;
  static constexpr unsigned MaxTrackedFields = 8;
  llvm::DenseMap<const clang::VarDecl *, const clang::VarDecl *> Alias; // reference -> target
  llvm::DenseMap<const clang::VarDecl *, const clang::CFGBlock *> DeclBlock;
  llvm::DenseMap<const clang::VarDecl *, const clang::Stmt *> DeclPoint; // its (CFG) DeclStmt
  /// Which locals are written after their initialiser: the unit's shared
  /// scan of this body (LocalWrites.h, kept by the WarpAnalysisCache).
  const LocalWriteFacts *Writes = nullptr;

  using State = std::vector<ValueDeps>;
  std::vector<State> In;                       // by block ID
  std::vector<ValueDeps> BranchDeps;           // condition deps by block ID
  std::vector<const clang::Expr *> BranchCond; // by block ID
  llvm::BitVector Divergent;                   // branch blocks with varying condition
  llvm::BitVector ExitKind;                    // ... whose lanes never rejoin
  std::vector<llvm::BitVector> Controls;       // transitive control dependences
  std::vector<LaneSet> Must, May;              // at block entry
  llvm::BitVector CollectiveBlocks;            // blocks holding a collective site

  std::vector<CollectiveSite> Sites;
  FunctionSummary Summary;

  //--- Entry point (Uniformity.cpp) -----------------------------------------

  bool run();

  //--- Local variables (LocalVariables.cpp) ---------------------------------

  void addVar(const clang::VarDecl *V, const clang::CFGBlock *B);

  void indexStatements();

  const clang::VarDecl *resolve(const clang::VarDecl *V) const;

  /// The local variable an lvalue expression stores into (x, s.f, a[i]).
  const clang::VarDecl *rootVar(const clang::Expr *E) const;

  /// Written after its initialisation (or its address escapes): not looked
  /// through by indexForm and the symbolic view.
  bool isMutated(const clang::VarDecl *V) const;

  /// Filled by `mov %laneid` inline assembly (and not otherwise written,
  /// when !isMutated).
  bool isAsmLaneVar(const clang::VarDecl *V) const;
  /// The lane special register inline asm fills \p V with (LocalWrites.h).
  std::optional<LaneRegister> asmLaneRegister(const clang::VarDecl *V) const;

  /// The initialiser of a local never written after it; null otherwise.
  const clang::Expr *singleDefinition(const clang::VarDecl *V) const;

  //--- Control dependence and divergence (ControlDivergence.cpp) ------------

  void computeControls();

  static bool hasReturn(const clang::CFGBlock *B);

  /// An early exit: the lanes never meet again in this function (the
  /// branch's immediate post-dominator is the exit); in a helper, one side
  /// also leaves through an explicit `return` on every path.
  bool isExitBranch(const clang::CFGBlock *B) const;

  /// Every path from \p From leaves through an explicit `return`.
  bool allPathsReturn(const clang::CFGBlock *From) const;

  /// \p To can be reached from \p From.
  bool reaches(const clang::CFGBlock *From, const clang::CFGBlock *To) const;

  /// A block holding a collective (CollectiveBlocks) can be reached from
  /// \p From.
  bool reachesCollective(const clang::CFGBlock *From) const;

  /// A statement with a side effect (a store, a call that may write) can
  /// run on some path from \p From before it returns or ends.
  bool hasEffectBeforeExit(const clang::CFGBlock *From) const;

  /// The lanes that the exit branch \p Branch keeps from \p Site (those
  /// taking a side from which it cannot be reached) exit without meeting
  /// another collective: through a `return`, or by running off the kernel's
  /// end with nothing else to do (AtEnd). Then the site's missing lanes
  /// exited, rather than took another path.
  bool keptLanesExited(const clang::CFGBlock *Branch, const clang::CFGBlock *Site,
                       bool &AtEnd) const;

  const clang::CFGBlock *postDominatorOf(const clang::CFGBlock *B) const;

  /// Divergent branches (of either kind) that control \p B.
  llvm::BitVector divergentControls(const clang::CFGBlock *B) const;

  /// Divergent branches after which lanes meet again, controlling \p B.
  llvm::BitVector rejoiningControls(unsigned BlockID) const;

  /// Recomputes branch conditions' dependencies; true when the set of
  /// divergent branches grew.
  bool updateDivergence();

  const clang::CFGBlock *blockByID(unsigned ID) const;

  /// The divergent branches that decide whether lanes reach \p B, innermost
  /// first; DataDecided when one of them is not a lane comparison. A site
  /// that needs only the lanes of \p Group (a tile, the lanes its mask
  /// names) ignores branches uniform over them; for a shuffle that reads segments of ReadWidth
  /// lanes in direction Reads, exits after which no lane that arrives reads one that left are
  /// marked (ExitedLanesUnread).
  llvm::SmallVector<DivergenceSource, 2>
  sourcesFor(const clang::CFGBlock *B, bool &DataDecided, LaneGroup Group = {},
             unsigned ReadWidth = 32, ShuffleDirection Reads = ShuffleDirection::None);
  /// For the exit branch \p BranchID before the shuffle in \p Site that reads
  /// lower lanes (`shfl_up`) or higher ones (`shfl_down`): proved that the
  /// lanes that leave lie all above (below) every lane that stays, so no
  /// lane that stays reads one that left: `if (gid >= n) return;`.
  bool exitsOnlyUnreadLanes(unsigned BranchID, const clang::CFGBlock *Site, ShuffleDirection Reads);

  //--- The conditions on the way to a block, at once (PathConditions.cpp) ---

  /// No two lanes of \p Group can disagree on the conjunction of the
  /// conditions of the branches that control \p Site, each taken towards it;
  /// \p Splitting are the controls that split the group when asked alone.
  bool pathAgreesInGroups(const clang::CFGBlock *Site, const llvm::BitVector &Splitting,
                          LaneGroup Group);
  std::map<std::pair<unsigned, uint64_t>, bool> PathAgrees;
  /// The successor of branch \p Branch from which \p Site can be reached
  /// without passing the branch again; none when both or neither can.
  std::optional<unsigned> sideTowards(unsigned Branch, unsigned Site);
  /// The condition of \p Branch taken along successor \p Edge, as a 1-bit
  /// term whose values read at the branch are renamed to the site's where
  /// nothing writes them on the way (so that every condition on the way
  /// names one value alike).
  TermRef conditionTowards(unsigned Branch, unsigned Edge, unsigned Site, LaneGroup Group);
  /// The blocks of every write of the local or induction step a leaf key
  /// names (induction variables with plain writes only); null otherwise.
  const llvm::SmallVector<const clang::CFGBlock *, 2> *writeBlocksOf(const void *Key);
  llvm::DenseMap<const void *, llvm::SmallVector<const clang::CFGBlock *, 2>> KeyWrites;
  bool KeyWritesBuilt = false;
  /// The blocks on a path from \p Branch back to itself that avoids its
  /// join (a loop's exit test, a `break`): lanes that left wait at the
  /// join while the others evaluate the branch again. Empty when none.
  /// Computed once per branch: the exit test, the monotonicity question and
  /// each bound's variables all ask it.
  const llvm::BitVector &cycleBeforeJoin(unsigned Branch);
  llvm::BitVector findCycleBeforeJoin(unsigned Branch) const;
  std::map<unsigned, llvm::BitVector> Cycles;
  /// +1 when every step of the induction variable \p V adds a non-negative
  /// amount, -1 when every one subtracts one, 0 otherwise.
  int stepDirection(const clang::VarDecl *V);
  /// \p E has one value in every evaluation of \p Branch within its cycle.
  bool isLoopInvariant(const clang::Expr *E, unsigned Branch);
  /// The condition of \p Branch, taken along \p Edge, holds only if it held
  /// at every earlier evaluation: a counter that only grows compared below
  /// a bound its cycle does not change (or the mirror image).
  bool holdsOnlyIfHeldBefore(unsigned Branch, unsigned Edge);

  //--- Fields of a local aggregate (AggregateFields.cpp) --------------------

  /// The record whose fields a local of type \p T keeps apart: a struct or
  /// class without bases or virtual functions, with 1 to MaxTrackedFields
  /// fields (CUDA's vector types among them); null otherwise.
  static const clang::RecordDecl *fieldwiseRecord(clang::QualType T);
  /// Gives \p V one slot per field after its own, when it has such a type.
  void addFieldSlots(const clang::VarDecl *V);
  /// The slot of `v.f` for a local \p v whose fields are kept apart.
  std::optional<unsigned> fieldSlot(const clang::MemberExpr *ME) const;
  /// The join of \p V's field slots (0 when it has none).
  ValueDeps fieldsJoined(const clang::VarDecl *V, const State &S) const;
  /// The dependencies of each of the \p NumFields fields of the aggregate
  /// \p E gives: a braced list, CUDA's `make_int2(a, b)`, another local of
  /// the same shape, a helper's returned fields; nullopt otherwise.
  std::optional<llvm::SmallVector<ValueDeps, 4>> fieldwiseDeps(const clang::Expr *E,
                                                               unsigned NumFields, const State &S);
  /// `v = Value` (or v's initialiser) for a local whose fields are kept
  /// apart; false for other variables.
  bool assignFieldwise(State &S, const clang::VarDecl *V, const clang::Expr *Value,
                       unsigned BlockID);
  /// A store into `v.f` of such a local; false for other lvalues.
  bool assignField(State &S, const clang::Expr *LHS, ValueDeps D, bool Whole, unsigned BlockID);
  /// The fields of what `return Value;` gives, when this function returns
  /// such an aggregate; empty otherwise.
  llvm::SmallVector<ValueDeps, 4> returnedFields(const clang::Expr *Value, const State &S);

  //--- Value dataflow (ValueAnalysis.cpp) -----------------------------------

  /// Sync dependence: a variable assigned under a divergent branch that it
  /// was declared outside of holds different values in different lanes once
  /// they meet again.
  ValueDeps taint(unsigned BlockID, const clang::VarDecl *V) const;

  /// Every taint() answer given during one round of run()'s value /
  /// divergence iteration, so that run() can tell whether another round
  /// would compute exactly what this one did (see roundWouldRepeat()).
  /// TaintChanged: one question got two answers within the round.
  mutable llvm::DenseMap<std::pair<unsigned, const clang::VarDecl *>, ValueDeps> TaintLog;
  mutable bool TaintChanged = false;
  bool LogTaint = false; ///< only while run() iterates
  unsigned Rounds = 0;   ///< rounds run() ran (for tests)
  /// Every writesInLockstep() answer given during one round, by induction
  /// variable and use: the prover's only read of Divergent, so a proof that a
  /// thread-varying branch is uniform holds again in the next round when
  /// these answers do (see roundWouldRepeat()). LockstepChanged: one
  /// variable got two answers within the round.
  mutable llvm::DenseMap<std::pair<const clang::VarDecl *, const clang::Stmt *>, bool> LockstepLog;
  mutable bool LockstepChanged = false;

  /// True when a further round of solveValues() and updateDivergence()
  /// would give the same states, branch dependencies and divergent set as
  /// the round just finished, now that Divergent has grown.
  bool roundWouldRepeat();

  void assign(State &S, const clang::VarDecl *V, ValueDeps D, bool Whole, unsigned BlockID);

  void transferStmt(const clang::Stmt *St, State &S, unsigned BlockID);
  void transferEffects(const clang::Stmt *St, State &S, unsigned BlockID);

  /// A call of an analysed helper with non-const reference parameters: each
  /// argument gets what the helper leaves in its parameter (a broadcast
  /// stores a uniform value, an untouched parameter keeps the argument's).
  bool transferThroughSummary(const clang::CallExpr *Call, State &S, unsigned BlockID);

  ValueDeps lvalueIndexDeps(const clang::Expr *E, const State &S);

  /// The state at the end of \p B, given \p S at its entry (in place: the
  /// dataflow's own loop, which reuses one buffer).
  State transferBlock(const clang::CFGBlock *B, State S);
  void transferBlockInPlace(const clang::CFGBlock *B, State &S);

  void solveValues();

  /// The value state just before \p E is evaluated.
  std::optional<State> stateBefore(const clang::Stmt *E) const;

  //--- Expression transfer (ValueAnalysis.cpp) ------------------------------

  ValueDeps varDeps(const clang::VarDecl *V, const State &S) const;

  ValueDeps deps(const clang::Expr *E, const State &S);

  ValueDeps callDeps(const clang::CallExpr *Call, const State &S);

  //--- Full xor butterflies (Butterflies.cpp) ---------------------------------

  /// The variables a loop leaves identical in every lane: a full-warp xor
  /// butterfly `for (o = 16; o > 0; o >>= 1) v = op(v, __shfl_xor_sync(full,
  /// v, o))` with a commutative `op` (+, *, &, |, ^, min, max). After the
  /// step with offset o, lanes i and i^o hold op(a, b) and op(b, a): equal,
  /// also in floating point; after offsets 16..1 all 32 lanes agree.
  llvm::DenseMap<const clang::Stmt *, llvm::SmallVector<const clang::VarDecl *, 1>> Butterflies;
  llvm::ArrayRef<const clang::VarDecl *> butterflyResults(const clang::Stmt *Loop);

  llvm::SmallVector<const clang::VarDecl *, 1> findButterflies(const clang::ForStmt *For);

  /// The variable a statement leaves identical in every lane by completing
  /// a straight-line butterfly: consecutive steps on one variable with the
  /// constant offsets 16, 8, 4, 2 and 1, each once, in any order (`a = c |
  /// shfl(c, 16); a |= shfl(a, 8); ...`); null for other statements.
  const clang::VarDecl *butterflyChainEnd(const clang::Stmt *S);
  llvm::DenseMap<const clang::Stmt *, const clang::VarDecl *> ButterflyChainEnds;
  bool ChainsScanned = false;
  void scanButterflyChains(const clang::CompoundStmt *Block);

  /// `v op= shfl`, `v = v op shfl`, `v = op(v, shfl)` with shfl =
  /// `__shfl_xor_sync(full mask, v, offset[, 32])`, directly or through a
  /// one-line wrapper of it, and op commutative.
  bool isButterflyStep(const clang::VarDecl *V, clang::BinaryOperatorKind Op,
                       const clang::Expr *Value, const clang::VarDecl *Offset,
                       const clang::Stmt *LocalScope);

  /// One step of a butterfly, written into V: V = Source op
  /// shfl_xor(full, Source, Lane) (Source is V itself after the first step).
  struct ButterflyStep {
    const clang::Expr *Lane;
    const clang::VarDecl *Source;
  };
  std::optional<ButterflyStep> butterflyStep(const clang::VarDecl *V, clang::BinaryOperatorKind Op,
                                             const clang::Expr *Value,
                                             const clang::Stmt *LocalScope);
  std::optional<ButterflyStep> shuffleStep(const clang::Expr *E, const clang::VarDecl *Source,
                                           const clang::Stmt *LocalScope);
  std::optional<uint32_t> maskInEveryCall(const clang::Expr *Mask);

  //--- Symbolic values, for the prover (SymbolicView.{h,cpp}) ---------------
  //
  // Where the taint says a condition may differ between lanes, the condition
  // is written as a term over the thread's position and uniform leaves
  // (SymbolicTerm.h) and the prover decides whether two lanes of one warp (or
  // tile) can disagree on it. This section tells the translator what locals
  // and calls stand for.

  /// How a local integer evolves when it is an induction variable: written
  /// once by Init, then only changed by warp-uniform steps (`i += 32`,
  /// `tid += blockDim.x * gridDim.x`, `++k`).
  struct Induction {
    bool Valid = false;
    /// Written only by plain definitions and steps (no address taken, no
    /// non-const reference, no asm output), whether or not Valid.
    bool OnlyPlainWrites = false;
    const clang::Expr *Init = nullptr;
    const clang::Stmt *InitPoint = nullptr;
    /// Every plain definition (the initialiser, `v = e` that is not a
    /// step) and where it is made; Valid needs exactly one.
    llvm::SmallVector<std::pair<const clang::Expr *, const clang::Stmt *>, 2> Inits;
    /// Each step and where it is taken; a null step expression is +-1.
    llvm::SmallVector<std::pair<const clang::Expr *, const clang::Stmt *>, 2> Steps;
  };
  llvm::DenseMap<const clang::VarDecl *, Induction> Inductions;

  const Induction &induction(const clang::VarDecl *V);
  /// +1 when the step \p Step taken at \p At (a null step is `++`/`--`)
  /// adds a non-negative amount, -1 when it subtracts one, 0 when unknown.
  int stepSign(const clang::Expr *Step, const clang::Stmt *At) const;
  /// For a variable with plain definitions and otherwise only steps (`i =
  /// a; ...; i = b; for (; ...; i += s)`): the induction that starts at the
  /// one definition reaching \p Point, where no other definition does, with
  /// the steps taken between them (ReachingInits.cpp). Not Valid when none
  /// or several reach.
  Induction reachingInduction(const clang::VarDecl *V, const clang::Stmt *Point);
  /// The definition made at \p Def reaches \p Point: some path runs from
  /// it to Point through no statement of \p Kills.
  bool reachesUnkilled(const clang::Stmt *Def, const clang::Stmt *Point,
                       llvm::ArrayRef<const clang::Stmt *> Kills) const;
  /// Fills Inductions for every variable of the body, in one walk.
  void scanInductions();
  bool InductionsScanned = false;

  /// Every write of the induction variable \p V (induction(V) was asked
  /// first) runs in lockstep: no divergent branch controls it, so all
  /// lanes of a warp apply the same steps. For a question about a narrower
  /// \p Group (a tile's collective, a mask's lanes), a divergent branch
  /// that does not split the group counts as converged too; and the branch
  /// \p Proving, whose condition is being proved the same within groups,
  /// is that proof's induction hypothesis: while the lanes of a group agreed
  /// on it, they took the same steps. Nor does a branch whose lanes leave
  /// for good (leavesForGood) break the lockstep of the lanes at \p Use.
  bool writesInLockstep(const clang::VarDecl *V, const clang::Stmt *Use, LaneGroup Group = {},
                        unsigned Proving = ~0u);
  /// The same answer, not logged (roundWouldRepeat() asks it again).
  bool writesConverged(const clang::VarDecl *V, const clang::Stmt *Use, LaneGroup Group = {},
                       unsigned Proving = ~0u);
  /// The branch \p BranchID has a side from which neither \p Write nor
  /// \p Use can be reached: a loop's exit test, a `break` or a `return`
  /// in it. The lanes that take that side never run the write again nor
  /// arrive at the use, so the lanes that do arrive all took the other side
  /// every time and the same steps with it: the grid-stride loop's `t +=
  /// stride`, read in the loop although `t < n` is thread-varying.
  bool leavesForGood(unsigned BranchID, const clang::CFGBlock *Write,
                     const clang::CFGBlock *Use) const;

  struct SymbolicView;

  /// True when no two lanes of \p Group can evaluate \p Cond differently,
  /// given the state \p S where it is evaluated.
  bool provedUniform(unsigned BlockID, const clang::Expr *Cond, const State &S, LaneGroup Group);

  /// provedUniform for the condition of branch block \p BlockID.
  llvm::DenseMap<std::pair<unsigned, uint64_t>, bool> BranchGroupUniform;
  bool branchUniformInGroups(unsigned BlockID, LaneGroup Group);

  //--- Shared memory between barriers (BarrierPhases.cpp) -------------------

  /// True when \p LValue reads a `__shared__` array of this function that
  /// nothing stores to on a path to the read without a barrier in between
  /// (and no call gets a pointer to it): the block wrote it in an earlier
  /// phase, so lanes that read one address there read one value.
  bool storedOnlyInOtherPhases(const clang::Expr *LValue);
  /// The CFG position of \p S, or of the nearest statement above it that
  /// the CFG holds; no Block when none.
  CfgPosition placeOf(const clang::Stmt *S) const;
  /// The barriers of the body, placed (computed on the first question).
  std::optional<llvm::SmallVector<CfgPosition, 8>> Barriers;
  /// The stores to each `__shared__` array asked about, placed; none when
  /// one cannot be placed or a call may write it (then it is never
  /// separated). Computed once per array: every read asks.
  llvm::DenseMap<const clang::VarDecl *, std::optional<llvm::SmallVector<CfgPosition, 4>>>
      SharedStores;
  const std::optional<llvm::SmallVector<CfgPosition, 4>> &
  sharedStoresOf(const clang::VarDecl *Root);

  //--- Index forms and lane splits (IndexForms.cpp) -------------------------

  bool isUniformExpr(const clang::Expr *E, const State &S) { return deps(E, S) == 0; }

  IndexForm indexForm(const clang::Expr *E, const State &S, unsigned Depth);

  /// integerConstant of the expressions indexForm has looked at: every
  /// dataflow round asks again about the same conditions, and clang's
  /// evaluator is costly to start. Freed with the analysis.
  llvm::DenseMap<const clang::Expr *, std::optional<int64_t>> Constants;

  /// Lane sets on the edges of `Cond`, when it compares the lane id or
  /// threadIdx.x with a constant (or threadIdx.x with a warp-aligned value).
  std::optional<LaneSplit> laneSplit(const clang::Expr *Cond, const State &S, unsigned Depth = 0);
  /// The split of branch block \p BlockID's condition, evaluated in \p End
  /// (the state at the branch): laneSplit's, else, for a condition that is a
  /// function of threadIdx.x alone, its value in every thread of a block.
  std::optional<LaneSplit> branchLaneSplit(unsigned BlockID, const State &End);
  /// branchLaneSplit of block \p BlockID in its final state, computed once:
  /// the lane sets, the must sets and the sources of a report all ask it,
  /// after the rounds, when the states no longer change.
  std::optional<LaneSplit> finalLaneSplit(unsigned BlockID);
  llvm::DenseMap<unsigned, std::optional<LaneSplit>> FinalLaneSplits;

  //--- Lane sets (LaneReachability.cpp) -------------------------------------

  void solveLaneSets();

  /// Lanes that surely reach each block. A lane surely reaches B unless some
  /// divergent branch B is control dependent on can send it the other way:
  /// intersect, over those branches, the lanes that surely take B's side
  /// (the split of a lane comparison; none when data decide). Joins need no
  /// special case: a block after an if/else depends on neither side.
  void solveMustSets();

  /// Must for block \p ID, as seen by a collective that needs only the
  /// lanes of \p Group: branches that are the same for every lane of the
  /// group send the whole group one way, so they do not count.
  LaneSet mustThrough(unsigned ID, LaneGroup Group);

  /// Blocks reachable from successor \p Edge of block \p D without
  /// passing through D again; memoised per edge.
  std::map<std::pair<unsigned, unsigned>, llvm::BitVector> Reach;
  const llvm::BitVector &reachableAvoiding(unsigned D, unsigned Edge);

  bool isLaneComparison(unsigned BlockID);

  //--- Sites (CollectiveSites.cpp) ------------------------------------------

  /// Volta+ rule: from each rejoining divergent branch, every path reaches a
  /// block with a matching site before the lanes meet again.
  bool coveredOnEveryPath(const clang::CFGBlock *B, const CollectiveSite &Site,
                          const llvm::BitVector &MatchBlocks);

  /// The site of a call, or of an inline asm statement holding a PTX
  /// collective.
  std::optional<CollectiveSite> makeSite(const clang::Stmt *At, const clang::CFGBlock *B,
                                         const State &S);

  /// A thread-varying argument \p P that decides, inside helper \p Def,
  /// whether lanes reach its collective: still fine when every such branch
  /// of the helper is uniform once the parameters hold the caller's
  /// arguments (`if (tid / 32 < 4)` called with threadIdx.x).
  bool argumentKeepsHelperConverged(const clang::FunctionDecl *Def, const FunctionSummary &Sum,
                                    const clang::CallExpr *Call, const State &S, unsigned P);

  /// The index of the parameter of this function that \p E reads, when the
  /// function never writes it; -1 otherwise.
  int unwrittenParameterIndex(const clang::Expr *E) const;

  /// A warp collective, or a call of a helper of this unit containing one.
  bool mayBeCollective(const clang::Stmt *Call);

  void collectSites();

  //--- Summary (WarpAnalysisCache.cpp) --------------------------------------

  void summarise();
};

} // namespace warp_tidy

#endif // WARP_TIDY_ANALYSIS_UNIFORMITY_FUNCTIONANALYSIS_H
