//===--- LaneMasks.cpp - Masks that are a value of the lane ------------------===//

#include "uniformity/LaneMasks.h"
#include "ast/AstQueries.h"
#include "ast/FieldConstruction.h"
#include "ast/LocalWrites.h"
#include "intrinsics/CollectiveCalls.h"
#include "uniformity/Uniformity.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseSet.h"

namespace warp_tidy {

/// A value that may differ per lane in a way the term does not say: a
/// per-lane leaf, or a load (equal where addresses are, else anything).
static bool hasPerLaneLeaf(TermRef T, llvm::DenseSet<TermRef> &Seen) {
  if (!Seen.insert(T).second)
    return false;
  if (T->Op == TermOp::PerLane || T->Op == TermOp::Load)
    return true;
  for (TermRef O : T->Ops)
    if (hasPerLaneLeaf(O, Seen))
      return true;
  return false;
}

bool LaneMaskQuestions::isLaneExpression(TermRef Mask) {
  if (!Mask || !Mask->LaneDependent)
    return false;
  llvm::DenseSet<TermRef> Seen;
  return !hasPerLaneLeaf(Mask, Seen);
}

TermRef LaneMaskQuestions::laneIn(TermRef Set, TermRef Lane) {
  TermRef Bit = Terms.binary(TermOp::And, Terms.binary(TermOp::LShr, Set, Lane),
                             Terms.constant(1, Set->Width));
  return Terms.binary(TermOp::Ne, Bit, Terms.constant(0, Set->Width));
}

std::optional<uint32_t> LaneMaskQuestions::maskOfLane(TermRef Mask, unsigned Lane) {
  if (!Mask || Lane >= 32)
    return std::nullopt;
  TermRef HwLane = Terms.threadIndex(TermOp::HardwareLane);
  TermRef L = bound(HwLane), M = bound(Mask);
  TermRef IsLane = Terms.binary(TermOp::Eq, L, Terms.constant(Lane, 32));
  // One value the lane can pass...
  LanePairQuery Q;
  Q.Relation = IsLane;
  Q.Bindings = {{L, HwLane, false}, {M, Mask, false}};
  LanePairWitness W;
  if (Prover.existsLanePair(Q, &W) != Existence::Exists)
    return std::nullopt;
  uint64_t Value = W.Values[1];
  // ...and a proof that it can pass no other.
  Q.Relation = Terms.binary(TermOp::And, IsLane,
                            Terms.binary(TermOp::Ne, M, Terms.constant(Value, Mask->Width)));
  if (Prover.existsLanePair(Q) != Existence::NoneExists)
    return std::nullopt;
  return static_cast<uint32_t>(Value);
}

LaneMaskQuestions::Existence LaneMaskQuestions::laneWithOwnBitAs(bool Bit, TermRef Mask,
                                                                 LaneSet Reaching,
                                                                 LaneWithoutOwnBit *Witness) {
  if (Reaching.isEmpty())
    return Existence::NoneExists;
  if (!Mask || Mask->Width != 32)
    return Existence::Unknown;
  TermRef HwLane = Terms.threadIndex(TermOp::HardwareLane);
  TermRef L = bound(HwLane), M = bound(Mask);
  TermRef Executes = laneIn(Terms.constant(Reaching.bits(), 32), L);
  TermRef OwnBit = laneIn(M, L);
  LanePairQuery Q;
  Q.Relation =
      Terms.binary(TermOp::And, Executes, Terms.binary(TermOp::Eq, OwnBit, Terms.constant(Bit, 1)));
  Q.Bindings = {{L, HwLane, false}, {M, Mask, false}};
  LanePairWitness W;
  Existence E = Prover.existsLanePair(Q, &W);
  if (E == Existence::Exists && Witness) {
    Witness->Lane = static_cast<unsigned>(W.Values[0]);
    Witness->Mask = static_cast<uint32_t>(W.Values[1]);
  }
  return E;
}

LaneMaskQuestions::Existence LaneMaskQuestions::laneWithoutOwnBit(TermRef Mask, LaneSet Reaching,
                                                                  LaneWithoutOwnBit *Witness) {
  return laneWithOwnBitAs(false, Mask, Reaching, Witness);
}

bool LaneMaskQuestions::noLaneHasOwnBit(TermRef Mask, LaneSet Lanes) {
  return !Lanes.isEmpty() && laneWithOwnBitAs(true, Mask, Lanes, nullptr) == Existence::NoneExists;
}

LaneMaskQuestions::Existence
LaneMaskQuestions::laneLeftOutForSomeInput(TermRef Mask, LaneSet Reaching,
                                           LaneWithoutOwnBit *Witness) {
  if (Reaching.isEmpty())
    return Existence::NoneExists;
  if (!Mask || Mask->Width != 32 || Mask->LaneDependent)
    return Existence::Unknown;
  TermRef HwLane = Terms.threadIndex(TermOp::HardwareLane);
  TermRef L = bound(HwLane), M = bound(Mask);
  TermRef Relation =
      Terms.binary(TermOp::And,
                   Terms.binary(TermOp::And, laneIn(Terms.constant(Reaching.bits(), 32), L),
                                Terms.binary(TermOp::Eq, laneIn(M, L), Terms.constant(0, 1))),
                   Terms.binary(TermOp::Ne, M, Terms.constant(0, 32)));
  // C leaves a shift by the width or more undefined, and the term's own
  // semantics (0) would make up a mask no execution has.
  llvm::DenseSet<TermRef> Seen;
  llvm::SmallVector<TermRef, 16> Work{Mask};
  while (!Work.empty()) {
    TermRef T = Work.pop_back_val();
    if (!Seen.insert(T).second)
      continue;
    if ((T->Op == TermOp::Shl || T->Op == TermOp::LShr || T->Op == TermOp::AShr) &&
        !T->Ops[1]->isConst())
      Relation = Terms.binary(
          TermOp::And, Relation,
          Terms.binary(TermOp::ULt, T->Ops[1], Terms.constant(T->Width, T->Ops[1]->Width)));
    Work.append(T->Ops.begin(), T->Ops.end());
  }
  LanePairQuery Q;
  Q.Relation = Relation;
  Q.Bindings = {{L, HwLane, false}, {M, Mask, false}};
  LanePairWitness W;
  Existence E = Prover.existsLanePair(Q, &W);
  if (E == Existence::Exists && Witness) {
    Witness->Lane = static_cast<unsigned>(W.Values[0]);
    Witness->Mask = static_cast<uint32_t>(W.Values[1]);
  }
  return E;
}

LaneMaskQuestions::Existence LaneMaskQuestions::disagreeingLanes(TermRef Mask, LaneSet Reaching,
                                                                 DisagreeingLanes *Witness) {
  if (Reaching.isEmpty())
    return Existence::NoneExists;
  if (!Mask || Mask->Width != 32)
    return Existence::Unknown;
  TermRef HwLane = Terms.threadIndex(TermOp::HardwareLane);
  TermRef LA = bound(HwLane), MA = bound(Mask), LB = bound(HwLane), MB = bound(Mask);
  TermRef Set = Terms.constant(Reaching.bits(), 32);
  TermRef BothExecute = Terms.binary(TermOp::And, laneIn(Set, LA), laneIn(Set, LB));
  TermRef Names = laneIn(MA, LB);
  TermRef Differ = Terms.binary(TermOp::Ne, MA, MB);
  LanePairQuery Q;
  Q.Relation = Terms.binary(TermOp::And, BothExecute, Terms.binary(TermOp::And, Names, Differ));
  Q.Bindings = {{LA, HwLane, false}, {MA, Mask, false}, {LB, HwLane, true}, {MB, Mask, true}};
  LanePairWitness W;
  Existence E = Prover.existsLanePair(Q, &W);
  if (E == Existence::Exists && Witness) {
    Witness->Lane = static_cast<unsigned>(W.Values[0]);
    Witness->Mask = static_cast<uint32_t>(W.Values[1]);
    Witness->Named = static_cast<unsigned>(W.Values[2]);
    Witness->NamedMask = static_cast<uint32_t>(W.Values[3]);
  }
  return E;
}

LaneSet lanesExecuting(const CollectiveSite &Site) {
  return Site.DataDecided ? Site.Must : Site.May;
}

const clang::Expr *maskDefinition(const clang::Expr *Mask, FieldStores &Stores) {
  if (const auto *Read =
          llvm::dyn_cast_or_null<clang::MemberExpr>(Mask ? stripValue(Mask) : nullptr)) {
    const clang::FieldDecl *F = fieldOfThis(Read);
    if (!F)
      return nullptr;
    return selectedArm(constructionValue(F, Stores), F->getASTContext());
  }
  const auto *Ref = llvm::dyn_cast_or_null<clang::DeclRefExpr>(Mask ? stripValue(Mask) : nullptr);
  const auto *Var = Ref ? llvm::dyn_cast<clang::VarDecl>(Ref->getDecl()) : nullptr;
  return Var && Var->hasLocalStorage() && !llvm::isa<clang::ParmVarDecl>(Var) ? Var->getInit()
                                                                              : nullptr;
}

TermRef laneMaskTerm(const FunctionUniformity &Analysis, const CollectiveSite &Site) {
  if (!Site.MaskExpr || Site.ImplicitMask || Site.Required)
    return nullptr;
  return Analysis.symbolicValue(Site.MaskExpr, Site.At, 32);
}

/// The `__ballot_sync` call whose result \p Mask is, through locals that are
/// initialised once and never written afterwards.
static const clang::CallExpr *ballotOf(const clang::Expr *Mask) {
  for (unsigned Depth = 0; Mask && Depth < 4; ++Depth) {
    const clang::Expr *E = Mask->IgnoreParenImpCasts();
    if (const auto *Call = llvm::dyn_cast<clang::CallExpr>(E)) {
      std::optional<CollectiveCall> C = recogniseCollective(Call);
      bool Ballot = C && C->Intrinsic->Kind == CollectiveKind::Ballot && C->Intrinsic->IsSync &&
                    C->Intrinsic->ValueArg >= 0 &&
                    static_cast<unsigned>(C->Intrinsic->ValueArg) < Call->getNumArgs();
      return Ballot ? Call : nullptr;
    }
    const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(E);
    const auto *Var = Ref ? llvm::dyn_cast<clang::VarDecl>(Ref->getDecl()) : nullptr;
    if (!Var || !Var->hasLocalStorage() || llvm::isa<clang::ParmVarDecl>(Var))
      return nullptr;
    Mask = singleAssignmentInit(Var);
  }
  return nullptr;
}

bool reachedByEveryLane(const CollectiveSite &Site) {
  return Site.Divergence.empty() && Site.EarlyExits.empty() && !Site.DataDecided &&
         Site.Must.isAll();
}

const clang::CallExpr *ballotMaskLeavingCallersOut(const FunctionUniformity &Analysis,
                                                   const CollectiveSite &Site,
                                                   UniformityProver &Prover) {
  if (Site.Required || Site.ImplicitMask || !Site.MaskExpr || !reachedByEveryLane(Site))
    return nullptr;
  const clang::CallExpr *Ballot = ballotOf(Site.MaskExpr);
  if (!Ballot)
    return nullptr;
  // Whatever the ballot's own mask (the whole warp, __activemask(), a
  // constant), its result names no lane whose predicate was false.
  std::optional<CollectiveCall> C = recogniseCollective(Ballot);
  // The ballot itself: reached by every lane, in this function.
  const CollectiveSite *BallotSite = nullptr;
  for (const CollectiveSite &S : Analysis.sites())
    if (S.At == Ballot)
      BallotSite = &S;
  if (!BallotSite || !reachedByEveryLane(*BallotSite))
    return nullptr;
  const clang::Expr *Predicate = Ballot->getArg(C->Intrinsic->ValueArg);
  // A predicate the dataflow finds warp-uniform here (computed from the
  // function's parameters and loads alone) decides branches as uniform too:
  // `if (act) __syncwarp(__ballot_sync(m, act))` in a helper is then reached
  // by "every lane", while the prover, which takes a parameter as possibly
  // different per lane, would call the predicate varying. Only a predicate
  // that reads the thread's position can make some calling lane fail it.
  if (!Analysis.isThreadVarying(Predicate))
    return nullptr;
  TermRef P = Analysis.symbolicValue(Predicate, Ballot, 32);
  if (!P || Prover.sameInGroup(P, 32) != UniformityProver::Answer::Varying)
    return nullptr;
  return Ballot;
}

} // namespace warp_tidy
