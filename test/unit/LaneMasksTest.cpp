//===--- LaneMasksTest.cpp - Questions about masks that depend on the lane ===//
//
// Masks built by hand as terms over %laneid and uniform leaves, the answers
// checked against what the PTX rule says: every executing lane names itself,
// and lanes that name each other pass the same mask.

#include "uniformity/LaneMasks.h"
#include "gtest/gtest.h"

using namespace warp_tidy;

namespace {

using Existence = UniformityProver::Existence;

struct MaskTerms {
  TermBuilder B;
  UniformityProver Prover{/*WarpAlignedBlocks=*/true};
  LaneMaskQuestions Q{B, Prover};
  TermRef c(uint64_t V) { return B.constant(V, 32); }
  TermRef lane() { return B.threadIndex(TermOp::HardwareLane); }
  TermRef op(TermOp Op, TermRef L, TermRef R) { return B.binary(Op, L, R); }
  TermRef bit(TermRef Lane) { return op(TermOp::Shl, c(1), Lane); }
  /// (1u << lane) - 1: the lanes below this one (%lanemask_lt).
  TermRef lanemaskLt() { return op(TermOp::Sub, bit(lane()), c(1)); }
};

TEST(LaneMasks, OnlyLaneDependentMasksWithoutPerLaneLeavesAreAsked) {
  MaskTerms T;
  EXPECT_TRUE(LaneMaskQuestions::isLaneExpression(T.lanemaskLt()));
  EXPECT_FALSE(LaneMaskQuestions::isLaneExpression(T.c(0xffffffff)));
  EXPECT_FALSE(LaneMaskQuestions::isLaneExpression(T.B.uniform(&T, 32))); // a ballot
  // A per-lane value (a load, a __match_any_sync group) could be anything.
  TermRef Loaded = T.B.perLane(&T, 32);
  EXPECT_FALSE(LaneMaskQuestions::isLaneExpression(T.op(TermOp::Or, T.bit(T.lane()), Loaded)));
}

TEST(LaneMasks, MaskOfOneLane) {
  MaskTerms T;
  EXPECT_EQ(T.Q.maskOfLane(T.lanemaskLt(), 0), 0u);
  EXPECT_EQ(T.Q.maskOfLane(T.lanemaskLt(), 5), 0x1fu);
  TermRef Halves = T.B.ite(T.op(TermOp::ULt, T.lane(), T.c(16)), T.c(0xffff), T.c(0xffff0000));
  EXPECT_EQ(T.Q.maskOfLane(Halves, 3), 0xffffu);
  EXPECT_EQ(T.Q.maskOfLane(Halves, 20), 0xffff0000u);
  // With a uniform shift the mask of lane 0 is not one value.
  TermRef S = T.B.uniform(&T, 32);
  TermRef Pair = T.op(TermOp::Or, T.bit(T.lane()),
                      T.bit(T.op(TermOp::And, T.op(TermOp::Add, T.lane(), S), T.c(31))));
  EXPECT_EQ(T.Q.maskOfLane(Pair, 0), std::nullopt);
}

TEST(LaneMasks, LanemaskLtLeavesEveryLaneWithoutItsBit) {
  MaskTerms T;
  LaneMaskQuestions::LaneWithoutOwnBit W;
  ASSERT_EQ(T.Q.laneWithoutOwnBit(T.lanemaskLt(), LaneSet::all(), &W), Existence::Exists);
  EXPECT_LT(W.Lane, 32u);
  EXPECT_EQ(W.Mask, (1u << W.Lane) - 1); // the witness is the mask that lane passes
  // Only lane 0 executing: it passes 0.
  ASSERT_EQ(T.Q.laneWithoutOwnBit(T.lanemaskLt(), LaneSet::single(0), &W), Existence::Exists);
  EXPECT_EQ(W.Lane, 0u);
  EXPECT_EQ(W.Mask, 0u);
  // %lanemask_le names every lane itself: proved.
  TermRef Le = T.op(TermOp::Or, T.lanemaskLt(), T.bit(T.lane()));
  EXPECT_EQ(T.Q.laneWithoutOwnBit(Le, LaneSet::all(), nullptr), Existence::NoneExists);
  EXPECT_EQ(T.Q.laneWithoutOwnBit(T.lanemaskLt(), LaneSet::none(), nullptr), Existence::NoneExists);
}

TEST(LaneMasks, NeighbourPairsDisagree) {
  MaskTerms T;
  // (1u << lane) | (1u << ((lane + s) & 31)): for s = 1 lane 0 names {0, 1}
  // and lane 1 names {1, 2}.
  TermRef S = T.B.uniform(&T, 32);
  TermRef Mask = T.op(TermOp::Or, T.bit(T.lane()),
                      T.bit(T.op(TermOp::And, T.op(TermOp::Add, T.lane(), S), T.c(31))));
  LaneMaskQuestions::DisagreeingLanes W;
  ASSERT_EQ(T.Q.disagreeingLanes(Mask, LaneSet::all(), &W), Existence::Exists);
  EXPECT_NE(W.Lane, W.Named);
  EXPECT_TRUE((W.Mask >> W.Named) & 1u);
  EXPECT_TRUE((W.Mask >> W.Lane) & 1u);
  EXPECT_TRUE((W.NamedMask >> W.Named) & 1u);
  EXPECT_NE(W.Mask, W.NamedMask);
  // With only the even lanes executing, s = 2 still makes lanes 0 ({0, 2})
  // and 2 ({2, 4}) disagree.
  ASSERT_EQ(T.Q.disagreeingLanes(Mask, LaneSet(0x55555555u), &W), Existence::Exists);
  EXPECT_EQ(W.Lane % 2, 0u);
  EXPECT_EQ(W.Named % 2, 0u);
}

TEST(LaneMasks, ConsistentLaneMasksAreProved) {
  MaskTerms T;
  // Per-half constants chosen by the lane's half.
  TermRef Halves = T.B.ite(T.op(TermOp::ULt, T.lane(), T.c(16)), T.c(0xffff), T.c(0xffff0000));
  EXPECT_EQ(T.Q.disagreeingLanes(Halves, LaneSet::all(), nullptr), Existence::NoneExists);
  EXPECT_EQ(T.Q.laneWithoutOwnBit(Halves, LaneSet::all(), nullptr), Existence::NoneExists);
  // Xor partners: lanes 2k and 2k+1 both pass {2k, 2k+1}.
  TermRef Pairs = T.op(TermOp::Or, T.bit(T.lane()), T.bit(T.op(TermOp::Xor, T.lane(), T.c(1))));
  EXPECT_EQ(T.Q.disagreeingLanes(Pairs, LaneSet::all(), nullptr), Existence::NoneExists);
  // Aligned groups of 8: 0xff << (lane & ~7).
  TermRef Groups =
      T.op(TermOp::Shl, T.c(0xff), T.op(TermOp::And, T.lane(), T.c(~7u & 0xffffffffu)));
  EXPECT_EQ(T.Q.disagreeingLanes(Groups, LaneSet::all(), nullptr), Existence::NoneExists);
  // Unaligned groups of 8 (starting at lane & ~3) overlap: lanes 0 and 4.
  TermRef Overlapping =
      T.op(TermOp::Shl, T.c(0xff), T.op(TermOp::And, T.lane(), T.c(~3u & 0xffffffffu)));
  LaneMaskQuestions::DisagreeingLanes W;
  ASSERT_EQ(T.Q.disagreeingLanes(Overlapping, LaneSet::all(), &W), Existence::Exists);
  EXPECT_NE(W.Mask, W.NamedMask);
}

TEST(LaneMasks, SolverFindsWhatSamplingMisses) {
  MaskTerms T;
  // Lane 7 drops its own bit only when a uniform value is one particular
  // large number, which random draws do not hit.
  TermRef N = T.B.uniform(&T, 32);
  TermRef Special = T.op(TermOp::And, T.B.toBool(T.op(TermOp::Eq, T.lane(), T.c(7))),
                         T.B.toBool(T.op(TermOp::Eq, N, T.c(0x5eedf00d))));
  TermRef Mask = T.B.ite(Special, T.c(0), T.c(0xffffffff));
  LaneMaskQuestions::LaneWithoutOwnBit W;
  ASSERT_EQ(T.Q.laneWithoutOwnBit(Mask, LaneSet::all(), &W), Existence::Exists);
  EXPECT_EQ(W.Lane, 7u);
  EXPECT_EQ(W.Mask, 0u);
  EXPECT_EQ(T.Prover.stats().SampledVarying, 0u); // the solver's model gave it
}

// A uniform mask over a run-time length: partial for every length below 32
// that keeps the shift defined; 0xffffffff >> 32 (shift by the width, 0 in
// the term's semantics) is no execution of the program.
TEST(LaneMasks, RunTimeLengthLeavesLanesOut) {
  MaskTerms T;
  TermRef Len = T.B.uniform(&T, 32);
  TermRef Prefix = T.op(TermOp::LShr, T.c(0xffffffff), T.op(TermOp::Sub, T.c(32), Len));
  LaneMaskQuestions::LaneWithoutOwnBit W;
  ASSERT_EQ(T.Q.laneLeftOutForSomeInput(Prefix, LaneSet::all(), &W), Existence::Exists);
  EXPECT_NE(W.Mask, 0u);
  EXPECT_EQ(W.Mask & (1u << W.Lane), 0u);
  EXPECT_EQ(W.Mask & (W.Mask + 1), 0u); // a prefix of the warp
  // Only lane 0 executing: every defined length names it.
  EXPECT_EQ(T.Q.laneLeftOutForSomeInput(Prefix, LaneSet::single(0), &W), Existence::NoneExists);
  // A length that is a multiple of 32 (a launch fact): only 32 is defined.
  TermRef Whole = T.B.uniform(&W, 32, /*KnownZeroBits=*/5);
  TermRef WholePrefix = T.op(TermOp::LShr, T.c(0xffffffff), T.op(TermOp::Sub, T.c(32), Whole));
  EXPECT_EQ(T.Q.laneLeftOutForSomeInput(WholePrefix, LaneSet::all(), &W), Existence::NoneExists);
}

// A helper's parameter replaced by the caller's argument: the mask folds to
// the constant that argument makes it.
TEST(LaneMasks, SubstitutedParameterFolds) {
  MaskTerms T;
  int Param = 0;
  TermRef Len = T.B.perLane(&Param, 32);
  ASSERT_TRUE(T.B.nameOf(Len));
  EXPECT_EQ(T.B.nameOf(Len)->Key, &Param);
  EXPECT_EQ(T.B.nameOf(T.B.freshUniform(32)), std::nullopt);
  TermRef Prefix = T.op(TermOp::LShr, T.c(0xffffffff), T.op(TermOp::Sub, T.c(32), Len));
  auto With = [&](TermRef Arg) {
    return T.B.substitute(Prefix, [&](TermRef Leaf) { return Leaf == Len ? Arg : nullptr; });
  };
  EXPECT_EQ(With(T.c(16)), T.c(0xffff));
  EXPECT_EQ(With(T.c(32)), T.c(0xffffffff));
  TermRef Other = T.B.uniform(&T, 32);
  TermRef General = With(Other);
  EXPECT_FALSE(General->LaneDependent);
  EXPECT_EQ(T.B.substitute(General, [](TermRef) -> TermRef { return nullptr; }), General);
}

} // namespace
