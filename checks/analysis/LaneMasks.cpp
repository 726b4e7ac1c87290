//===--- LaneMasks.cpp - Masks that are a value of the lane ------------------===//

#include "LaneMasks.h"
#include "AstQueries.h"
#include "Uniformity.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseSet.h"

namespace warp_tidy {

static bool hasPerLaneLeaf(TermRef T, llvm::DenseSet<TermRef> &Seen) {
  if (!Seen.insert(T).second)
    return false;
  if (T->Op == TermOp::PerLane)
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
  Q.Relation = Terms.binary(TermOp::And, Executes,
                            Terms.binary(TermOp::Eq, OwnBit, Terms.constant(Bit, 1)));
  Q.Bindings = {{L, HwLane, false}, {M, Mask, false}};
  LanePairWitness W;
  Existence E = Prover.existsLanePair(Q, &W);
  if (E == Existence::Exists && Witness) {
    Witness->Lane = static_cast<unsigned>(W.Values[0]);
    Witness->Mask = static_cast<uint32_t>(W.Values[1]);
  }
  return E;
}

LaneMaskQuestions::Existence
LaneMaskQuestions::laneWithoutOwnBit(TermRef Mask, LaneSet Reaching, LaneWithoutOwnBit *Witness) {
  return laneWithOwnBitAs(false, Mask, Reaching, Witness);
}

bool LaneMaskQuestions::noLaneHasOwnBit(TermRef Mask, LaneSet Lanes) {
  return !Lanes.isEmpty() &&
         laneWithOwnBitAs(true, Mask, Lanes, nullptr) == Existence::NoneExists;
}

LaneMaskQuestions::Existence
LaneMaskQuestions::disagreeingLanes(TermRef Mask, LaneSet Reaching, DisagreeingLanes *Witness) {
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
  Q.Relation =
      Terms.binary(TermOp::And, BothExecute, Terms.binary(TermOp::And, Names, Differ));
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

const clang::Expr *maskDefinition(const clang::Expr *Mask) {
  const auto *Ref = llvm::dyn_cast_or_null<clang::DeclRefExpr>(Mask ? stripValue(Mask) : nullptr);
  const auto *Var = Ref ? llvm::dyn_cast<clang::VarDecl>(Ref->getDecl()) : nullptr;
  return Var && Var->hasLocalStorage() && !llvm::isa<clang::ParmVarDecl>(Var) ? Var->getInit()
                                                                               : nullptr;
}

TermRef laneMaskTerm(const FunctionUniformity &Analysis, const CollectiveSite &Site,
                     const clang::Expr *Mask) {
  if (!Mask || !Site.Call || Site.Helper || Site.ImplicitMask || Site.Required)
    return nullptr;
  return Analysis.symbolicValue(Mask, Site.Call, 32);
}

} // namespace warp_tidy
