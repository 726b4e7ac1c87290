//===--- LaneMasks.h - Masks that are a value of the lane --------------------===//
//
// A collective's mask need not be a constant: `__ballot_sync(lanemask_lt(),
// p)`, `__syncwarp((1u << lane) | (1u << ((lane + s) & 31)))` or `lane < 16
// ? 0xffff : 0xffff0000` give each lane its own mask. The PTX rule behind
// every mask (shfl.sync, vote.sync, match.sync, bar.warp.sync): the executing
// thread must be in membermask, and it waits until every non-exited thread
// of membermask has executed the instruction with the *same* membermask. So
// two questions decide whether such a mask is right:
//   - does some lane that executes the call leave its own bit out?
//   - do two lanes, one named in the other's mask, pass different masks?
//     (lane a's mask names lane b, b executes the call with another value:
//     a waits for b to arrive with a's mask, which b never does.)
//
// The mask is the uniformity analysis' symbolic value of the argument (a
// term over the thread's position and uniform leaves, SymbolicTerm.h); the
// questions are asked of the UniformityProver as lane-pair questions, so a
// "yes" comes with a concrete witness (two lanes and the masks they pass)
// from sampling or from the solver's model, and a "no" is a proof. A mask
// with a per-lane leaf (a value the translator could not see through: a
// load, `__match_any_sync`'s groups) is not asked about: data may make it
// anything, so nothing about it is provable.
//
// No clang dependency here except laneMaskTerm, which fetches the term of a
// site's mask from the function's analysis, and ballotMaskLeavingCallersOut,
// which reads where a ballot mask comes from.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_ANALYSIS_LANEMASKS_H
#define WARP_TIDY_ANALYSIS_LANEMASKS_H

#include "ast/LaneSet.h"
#include "symbolic/SymbolicTerm.h"
#include "symbolic/UniformityProver.h"
#include <optional>

namespace clang {
class CallExpr;
class Expr;
} // namespace clang

namespace warp_tidy {

class FieldStores;

class FunctionUniformity;
struct CollectiveSite;

class LaneMaskQuestions {
public:
  using Existence = UniformityProver::Existence;

  LaneMaskQuestions(TermBuilder &Terms, UniformityProver &Prover) : Terms(Terms), Prover(Prover) {}

  /// A mask the questions below can answer exactly: it differs between
  /// lanes, and is built from the thread's position, constants and uniform
  /// leaves only (no per-lane leaf).
  static bool isLaneExpression(TermRef Mask);

  /// The mask lane \p Lane passes, when it is one value in every warp and
  /// for every value of the uniform leaves (proved); nullopt otherwise.
  std::optional<uint32_t> maskOfLane(TermRef Mask, unsigned Lane);

  /// A lane that executes the call and passes a mask without its own bit.
  struct LaneWithoutOwnBit {
    unsigned Lane = 0;
    uint32_t Mask = 0;
  };
  /// Is there a lane of \p Reaching whose mask lacks its own bit? NoneExists
  /// proves that every lane of \p Reaching names itself.
  Existence laneWithoutOwnBit(TermRef Mask, LaneSet Reaching, LaneWithoutOwnBit *Witness);
  /// Proved: no lane of \p Lanes has its own bit in its mask (`lanemask_lt`),
  /// so whichever of them executes the call is left out, even when data
  /// decide which ones do.
  bool noLaneHasOwnBit(TermRef Mask, LaneSet Lanes);

  /// For a warp-uniform mask computed at run time (RunTimeMasks.h): is
  /// there a lane of \p Reaching that \p Mask leaves out, with a mask other
  /// than 0 (that is warp-zero-mask's), for some value of its uniform leaves
  /// that keeps every shift of the term defined (an amount below the width)?
  Existence laneLeftOutForSomeInput(TermRef Mask, LaneSet Reaching, LaneWithoutOwnBit *Witness);

  /// Two lanes that execute the call, the first naming the second in its
  /// mask, passing different masks.
  struct DisagreeingLanes {
    unsigned Lane = 0, Named = 0;
    uint32_t Mask = 0, NamedMask = 0;
  };
  /// Is there such a pair among the lanes of \p Reaching? NoneExists proves
  /// that every two lanes of \p Reaching that name each other agree.
  Existence disagreeingLanes(TermRef Mask, LaneSet Reaching, DisagreeingLanes *Witness);

private:
  /// Is there a lane of \p Reaching whose own bit in its mask is \p Bit?
  Existence laneWithOwnBitAs(bool Bit, TermRef Mask, LaneSet Reaching, LaneWithoutOwnBit *Witness);
  /// `(Set >> Lane) & 1`, as a width-1 term.
  TermRef laneIn(TermRef Set, TermRef Lane);
  /// A fresh leaf for a LanePairQuery binding.
  TermRef bound(TermRef Value) { return Terms.freshUniform(Value->Width); }

  TermBuilder &Terms;
  UniformityProver &Prover;
};

/// The mask of \p Site as a 32-bit term where the site evaluates it (the
/// collective's mask argument, an inline-PTX collective's mask operand, or
/// the argument a wrapper passes on as its collective's mask: the site's
/// MaskExpr), or null when the site has a constant or implicit mask or the
/// analysis cannot write it as a term.
TermRef laneMaskTerm(const FunctionUniformity &Analysis, const CollectiveSite &Site);

/// Where a mask written as a local variable (`__syncwarp(segment)`) or a
/// field holding its constructor's value (CUB's `member_mask`,
/// FieldConstruction.h) is computed: the initialiser (the arm a constant
/// `?:` selects), for a note; null otherwise.
const clang::Expr *maskDefinition(const clang::Expr *Mask, FieldStores &Stores);

/// True when every lane that enters the function reaches \p Site: no
/// divergent branch or early exit before it, and data decide nothing.
bool reachedByEveryLane(const CollectiveSite &Site);

/// The lanes that can be taken as executing \p Site for a provable finding:
/// the lanes that may reach it when lane comparisons alone decide that, the
/// lanes that surely reach it when data decide.
LaneSet lanesExecuting(const CollectiveSite &Site);

/// A mask that is a ballot, `__ballot_sync(m, p)` (directly or through
/// locals never written after their initialiser), names only lanes for
/// which `p` held: exactly those with the whole warp as `m`, fewer with
/// `__activemask()` or a partial `m`. When every lane that took part in
/// the ballot also reaches \p Site (neither call is under a divergent branch
/// or after an early exit), the lanes for which `p` was false execute the
/// collective without their own bit (NVIDIA/warp GH-1133: a row-chunk
/// validity ballot handed to a full-warp reduction; illegal instruction on
/// the GPU). Returns that ballot when `p` provably differs between two lanes
/// of a warp, so that some calling lane has it false; null otherwise.
const clang::CallExpr *ballotMaskLeavingCallersOut(const FunctionUniformity &Analysis,
                                                   const CollectiveSite &Site,
                                                   UniformityProver &Prover);

} // namespace warp_tidy

#endif
