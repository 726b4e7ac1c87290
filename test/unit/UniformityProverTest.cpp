//===--- UniformityProverTest.cpp - Terms and the warp-uniformity prover --===//
//
// The pieces under the uniformity analysis's "can two lanes disagree?"
// question, without clang: terms built by hand, answers checked against what
// the warp model says.

#include "symbolic/UniformityProver.h"
#include "symbolic/SymbolicTerm.h"
#include "gtest/gtest.h"

using namespace warp_tidy;

namespace {

// No wall-clock bound on solver queries: the deterministic effort bound
// (rlimit) alone decides, so a loaded machine cannot turn an answer into
// Unknown and fail a test.
constexpr unsigned NoWallClockLimit = 0;

struct Terms {
  TermBuilder B;
  TermRef c(uint64_t V, unsigned W = 32) { return B.constant(V, W); }
  TermRef tidX() { return B.threadIndex(TermOp::ThreadX); }
  TermRef tidY() { return B.threadIndex(TermOp::ThreadY); }
  TermRef dimX() { return B.threadIndex(TermOp::BlockDimX); }
  TermRef op(TermOp Op, TermRef L, TermRef R, bool NoWrap = false) {
    return B.binary(Op, L, R, NoWrap);
  }
};

TEST(SymbolicTerm, FoldsConstantsAndHashConses) {
  Terms T;
  EXPECT_EQ(T.op(TermOp::Add, T.c(3), T.c(4)), T.c(7));
  EXPECT_EQ(T.op(TermOp::SDiv, T.c(static_cast<uint64_t>(-7) & 0xffffffffu), T.c(2)),
            T.c(static_cast<uint64_t>(-3) & 0xffffffffu)); // C truncates towards zero
  TermRef A = T.op(TermOp::And, T.tidX(), T.c(31));
  EXPECT_EQ(A, T.op(TermOp::And, T.tidX(), T.c(31)));
  EXPECT_TRUE(A->LaneDependent);
  EXPECT_FALSE(T.B.uniform(&T, 32)->LaneDependent);
}

TEST(SymbolicTerm, KnownZeroBitsOfRoundedBounds) {
  Terms T;
  TermRef N = T.B.uniform(&T, 32);
  EXPECT_EQ(TermBuilder::knownZeroBits(T.op(TermOp::Mul, T.op(TermOp::SDiv, N, T.c(8)), T.c(8))),
            3u);
  EXPECT_EQ(TermBuilder::knownZeroBits(T.op(TermOp::And, N, T.c(~7u))), 3u);
  EXPECT_EQ(TermBuilder::knownZeroBits(T.op(TermOp::Sub, N, T.op(TermOp::SRem, N, T.c(8)))), 3u);
  EXPECT_EQ(TermBuilder::knownZeroBits(T.dimX(), /*AlignedBlocks=*/true), 5u);
  EXPECT_EQ(TermBuilder::knownZeroBits(T.dimX(), /*AlignedBlocks=*/false), 0u);
}

TEST(SymbolicTerm, SignedDivisionOfNonNegativeBecomesShift) {
  Terms T;
  // threadIdx.x is at most 1023, so (int)threadIdx.x / 8 is a shift.
  TermRef D = T.op(TermOp::SDiv, T.tidX(), T.c(8));
  EXPECT_EQ(D->Op, TermOp::LShr);
  // An unbounded value keeps its signed division.
  EXPECT_EQ(T.op(TermOp::SDiv, T.B.uniform(&T, 32), T.c(8))->Op, TermOp::SDiv);
}

TEST(SymbolicTerm, EvaluationFlagsSignedOverflow) {
  Terms T;
  TermRef Sum = T.op(TermOp::Add, T.B.uniform(&T, 32), T.c(1), /*NoWrap=*/true);
  LaneValues V;
  V.Leaf = [](const Term &) -> uint64_t { return 0x7fffffff; };
  bool Undefined = false;
  EXPECT_EQ(evaluate(Sum, V, &Undefined), 0x80000000u);
  EXPECT_TRUE(Undefined);
}

TEST(SymbolicTerm, StridedLoopBoundCancelsTheLaneOffset) {
  Terms T;
  TermRef Start = T.op(TermOp::Mul, T.B.uniform(&T, 32), T.B.uniform(&T.B, 32));
  TermRef End = T.op(TermOp::Mul, T.op(TermOp::Add, T.B.uniform(&T, 32), T.c(1), true),
                     T.B.uniform(&T.B, 32));
  TermRef Step = T.B.freshUniform(32);
  // (start + tid) + step < end + tid, every sum signed and overflow-free:
  // no lane can disagree, and the term says so without a solver.
  TermRef Cond =
      T.op(TermOp::SLt, T.op(TermOp::Add, T.op(TermOp::Add, Start, T.tidX(), true), Step, true),
           T.op(TermOp::Add, End, T.tidX(), true));
  EXPECT_FALSE(Cond->LaneDependent);
  // The rest is compared in 64 bits: values whose 32-bit sum would wrap
  // compare as the integers they are (the program has no such execution).
  LaneValues V;
  V.Leaf = [&](const Term &Leaf) -> uint64_t { return Leaf.Id == Step->Id ? 5 : 0; };
  EXPECT_EQ(evaluate(Cond, V), 0u); // 0 + 5 < 0
  // Twice the lane on one side, once on the other: it does not cancel.
  TermRef Twice =
      T.op(TermOp::SLt, T.op(TermOp::Add, T.op(TermOp::Add, Start, T.tidX(), true), T.tidX(), true),
           T.op(TermOp::Add, End, T.tidX(), true));
  EXPECT_TRUE(Twice->LaneDependent);
  // Unsigned sums may wrap: they keep their comparison.
  TermRef Unsigned =
      T.op(TermOp::SLt, T.op(TermOp::Add, Start, T.tidX()), T.op(TermOp::Add, End, T.tidX()));
  EXPECT_TRUE(Unsigned->LaneDependent);
  // As does an unsigned comparison of signed sums.
  TermRef ULt = T.op(TermOp::ULt, T.op(TermOp::Add, Start, T.tidX(), true),
                     T.op(TermOp::Add, End, T.tidX(), true));
  EXPECT_TRUE(ULt->LaneDependent);
}

TEST(UniformityProver, LaneComparisonDisagreesBySampling) {
  Terms T;
  UniformityProver P(/*WarpAlignedBlocks=*/true, NoWallClockLimit);
  TermRef Lane0 = T.op(TermOp::Eq, T.op(TermOp::And, T.tidX(), T.c(31)), T.c(0));
  EXPECT_EQ(P.sameInGroup(Lane0), UniformityProver::Answer::Varying);
  EXPECT_EQ(P.stats().SampledVarying, 1u);
  EXPECT_EQ(P.stats().SolverQueries, 0u);
}

// fattn.cu's tile loops: `1 <= base + tid.y * 8 + tid.x / 4` with base a
// multiple of 16. The lanes split only where base is 0, so random bases never
// show it; the sampler moves base to meet the constant in some lane.
TEST(UniformityProver, SamplingMeetsConstantThresholds) {
  Terms T;
  UniformityProver P(/*WarpAlignedBlocks=*/false, NoWallClockLimit);
  TermRef Base = T.B.freshUniform(32, /*KnownZeroBits=*/4);
  TermRef Row = T.op(TermOp::Add, T.op(TermOp::Add, Base, T.op(TermOp::Mul, T.tidY(), T.c(8))),
                     T.op(TermOp::UDiv, T.tidX(), T.c(4)));
  EXPECT_EQ(P.sameInGroup(T.op(TermOp::SLe, T.c(1), Row)), UniformityProver::Answer::Varying);
  EXPECT_EQ(P.stats().SolverQueries, 0u);
}

// `w <= v * 16 + tid.x % 16` with per-lane v and w: a full-width v overflows
// the product in almost every warp, and such a draw is no execution; samples
// of small values alone show the lanes disagree.
TEST(UniformityProver, SmallSamplesAvoidOverflowingProducts) {
  Terms T;
  UniformityProver P(false, NoWallClockLimit);
  TermRef V = T.B.freshPerLane(32), W = T.B.freshPerLane(32);
  TermRef Sum = T.op(TermOp::Add, T.op(TermOp::Mul, V, T.c(16), /*NoWrap=*/true),
                     T.op(TermOp::URem, T.tidX(), T.c(16)), /*NoWrap=*/true);
  EXPECT_EQ(P.sameInGroup(T.op(TermOp::SLe, W, Sum)), UniformityProver::Answer::Varying);
  EXPECT_EQ(P.stats().SolverQueries, 0u);
}

// mmvq.cu's strided loop: `kbx < blocks_per_row_x` with kbx = tid / 16 plus
// steps that are multiples of 8, and blocks_per_row_x = ncols_x / 256. The
// two half-warps disagree only where the bound equals the second half's
// kbx; a random ncols_x almost never lands there, so the sampler sets it
// through the division (bound * 256) to meet some lane's kbx.
TEST(UniformityProver, SamplingSteersThroughDivisionByConstant) {
  for (bool Aligned : {true, false}) {
    Terms T;
    UniformityProver P(Aligned, NoWallClockLimit);
    TermRef Tid = T.op(TermOp::Add, T.op(TermOp::Mul, T.c(32), T.tidY()), T.tidX());
    TermRef Kbx = T.op(TermOp::Add, T.op(TermOp::LShr, Tid, T.c(4)),
                       T.B.freshUniform(32, /*KnownZeroBits=*/3), /*NoWrap=*/true);
    TermRef Bound = T.op(TermOp::UDiv, T.B.freshUniform(32), T.c(256));
    EXPECT_EQ(P.sameInGroup(T.op(TermOp::SLt, Kbx, Bound)), UniformityProver::Answer::Varying);
    EXPECT_EQ(P.stats().SolverQueries, 0u);
  }
  // One kbx per warp (tid / 32, whole warps): steering the bound onto it
  // makes no two lanes disagree, and sampling must not say they do.
  Terms T;
  UniformityProver P(/*WarpAlignedBlocks=*/true, NoWallClockLimit);
  TermRef PerWarp = T.op(TermOp::Add, T.op(TermOp::LShr, T.tidX(), T.c(5)),
                         T.B.freshUniform(32, /*KnownZeroBits=*/3), /*NoWrap=*/true);
  TermRef Bound = T.op(TermOp::UDiv, T.B.freshUniform(32), T.c(256));
  EXPECT_EQ(P.sameInGroup(T.op(TermOp::SLt, PerWarp, Bound)), UniformityProver::Answer::Uniform);
  EXPECT_EQ(P.stats().SampledVarying, 0u);
}

// FasterTransformer's attention loop: `ti < ti_end` with ti = first +
// tid.x / 4 + 16 * k and ti_end = div_up(len - first, 8) * 8 + first. The
// shared `first` cancels in the integers (no signed sum overflows), and the
// rest, eight lanes per step against a multiple of 8, never splits a warp
// of an aligned block. Rounded to 4 instead, it does.
TEST(UniformityProver, SharedAddendOfComparedSumsCancels) {
  for (uint64_t Round : {8, 4}) {
    Terms T;
    UniformityProver P(/*WarpAlignedBlocks=*/true, NoWallClockLimit);
    TermRef First = T.B.freshUniform(32), Len = T.B.freshUniform(32);
    TermRef Ti =
        T.op(TermOp::Add, T.op(TermOp::Add, First, T.op(TermOp::LShr, T.tidX(), T.c(2)), true),
             T.B.freshUniform(32, /*KnownZeroBits=*/4), true);
    TermRef Steps = T.op(
        TermOp::SDiv,
        T.op(TermOp::Sub, T.op(TermOp::Add, T.op(TermOp::Sub, Len, First, true), T.c(Round), true),
             T.c(1), true),
        T.c(Round));
    TermRef End = T.op(TermOp::Add, T.op(TermOp::Mul, Steps, T.c(Round), true), First, true);
    EXPECT_EQ(P.sameInGroup(T.op(TermOp::SLt, Ti, End)),
              Round == 8 ? UniformityProver::Answer::Uniform : UniformityProver::Answer::Varying)
        << "rounded to " << Round;
  }
}

// A per-lane leaf named twice has one value in a lane: `v + v == v * 2`
// holds in every lane, so sampling must not call it varying.
TEST(UniformityProver, PerLaneLeafHasOneValuePerLane) {
  Terms T;
  UniformityProver P(false, NoWallClockLimit);
  TermRef V = T.B.freshPerLane(32);
  TermRef Same = T.op(TermOp::Eq, T.op(TermOp::Add, V, V), T.op(TermOp::Mul, V, T.c(2)));
  EXPECT_NE(P.sameInGroup(Same), UniformityProver::Answer::Varying);
  EXPECT_EQ(P.stats().SampledVarying, 0u);
}

// The arch passes of one file ask the same questions: a later prover of the
// process takes a settled answer instead of asking the solver again.
TEST(UniformityProver, LaterProversReuseSettledAnswers) {
  Terms T;
  // (base + tid.x) >> 5 == 12345 with base a multiple of 128: the warp
  // index against a constant, uniform in warp-aligned blocks, which only
  // the solver can show.
  auto Ask = [&](UniformityProver &P) {
    TermRef Base = T.B.freshUniform(32, /*KnownZeroBits=*/7);
    TermRef Warp = T.op(TermOp::LShr, T.op(TermOp::Add, Base, T.tidX()), T.c(5));
    return P.sameInGroup(T.op(TermOp::Eq, Warp, T.c(12345)));
  };
  UniformityProver First(true, NoWallClockLimit), Second(true, NoWallClockLimit);
  EXPECT_EQ(Ask(First), UniformityProver::Answer::Uniform);
  EXPECT_EQ(First.stats().SolverQueries + First.stats().SharedHits, 1u);
  EXPECT_EQ(Ask(Second), UniformityProver::Answer::Uniform);
  EXPECT_EQ(Second.stats().SolverQueries, 0u);
  EXPECT_EQ(Second.stats().SharedHits, 1u);
}

TEST(UniformityProver, WarpIndexAndRoundedGroupBoundAreUniform) {
  Terms T;
  UniformityProver P(true, NoWallClockLimit);
  EXPECT_EQ(P.sameInGroup(T.op(TermOp::LShr, T.tidX(), T.c(5))), UniformityProver::Answer::Uniform);
  // g = (base + tid.x) >> 2 with base a multiple of 32; g < n / 8 * 8.
  TermRef Base = T.B.uniform(&T, 32, 5, nullptr, (1u << 31) - 1024);
  TermRef G = T.op(TermOp::AShr, T.op(TermOp::Add, Base, T.tidX()), T.c(2));
  TermRef N = T.B.uniform(&P, 32);
  TermRef Rounded8 = T.op(TermOp::Mul, T.op(TermOp::SDiv, N, T.c(8)), T.c(8));
  TermRef Rounded4 = T.op(TermOp::Mul, T.op(TermOp::SDiv, N, T.c(4)), T.c(4));
  EXPECT_EQ(P.sameInGroup(T.op(TermOp::SLt, G, Rounded8)), UniformityProver::Answer::Uniform);
  EXPECT_EQ(P.sameInGroup(T.op(TermOp::SLt, G, Rounded4)), UniformityProver::Answer::Varying);
  // The same bound splits 8-lane groups? No: 4 rounded groups of 4 lanes
  // are 16 lanes, a multiple of 8 lanes.
  EXPECT_EQ(P.sameInGroup(T.op(TermOp::SLt, G, Rounded4), 8), UniformityProver::Answer::Uniform);
}

// Only the lanes a mask names must agree: the half-warp index is the same
// in lanes 0-15 and in lanes 16-31, not across the warp; a lane parity is
// the same in no half. Sampling and solver both honour the lane set.
TEST(UniformityProver, NamedLanesAgreeOnTheirHalfOnly) {
  Terms T;
  UniformityProver P(true, NoWallClockLimit);
  TermRef Half = T.op(TermOp::LShr, T.op(TermOp::And, T.tidX(), T.c(31)), T.c(4));
  TermRef Row = T.op(TermOp::Add, T.B.uniform(&T, 32), Half);
  TermRef InRange = T.op(TermOp::SLt, Row, T.B.uniform(&P, 32));
  EXPECT_EQ(P.sameInGroup(InRange), UniformityProver::Answer::Varying);
  EXPECT_EQ(P.sameInGroup(InRange, LaneGroup(32, 0x0000ffffu)), UniformityProver::Answer::Uniform);
  EXPECT_EQ(P.sameInGroup(InRange, LaneGroup(32, 0xffff0000u)), UniformityProver::Answer::Uniform);
  EXPECT_EQ(P.sameInGroup(InRange, LaneGroup(32, 0x00018000u)), UniformityProver::Answer::Varying);
  TermRef Parity = T.op(TermOp::And, T.tidX(), T.c(1));
  EXPECT_EQ(P.sameInGroup(Parity, LaneGroup(32, 0x0000ffffu)), UniformityProver::Answer::Varying);
  // One named lane per group has nothing to disagree with.
  EXPECT_EQ(P.sameInGroup(Parity, LaneGroup(32, 0x00000100u)), UniformityProver::Answer::Uniform);
  EXPECT_EQ(P.sameInGroup(Parity, LaneGroup(4, 0x11111111u)), UniformityProver::Answer::Uniform);
}

TEST(UniformityProver, LinearisedIdIsTheHardwareWarpInAnyBlockShape) {
  Terms T;
  UniformityProver General(/*WarpAlignedBlocks=*/false, NoWallClockLimit);
  // (x + Dx * (y + Dy * z)) / 32 is the warp whatever blockDim.x is.
  TermRef Z = T.B.threadIndex(TermOp::ThreadZ), Dy = T.B.threadIndex(TermOp::BlockDimY);
  TermRef Linear =
      T.op(TermOp::Add, T.tidX(),
           T.op(TermOp::Mul, T.dimX(), T.op(TermOp::Add, T.tidY(), T.op(TermOp::Mul, Dy, Z))));
  EXPECT_EQ(General.sameInGroup(T.op(TermOp::LShr, Linear, T.c(5))),
            UniformityProver::Answer::Uniform);
  // Without z it is the warp only in 2-D blocks: a 16x3x2 block puts rows of
  // both z layers into warp 1.
  TermRef Planar = T.op(TermOp::Add, T.tidX(), T.op(TermOp::Mul, T.dimX(), T.tidY()));
  EXPECT_EQ(General.sameInGroup(T.op(TermOp::LShr, Planar, T.c(5))),
            UniformityProver::Answer::Varying);
  // threadIdx.x / 32 alone is the warp only when blocks are 32-aligned.
  EXPECT_EQ(General.sameInGroup(T.op(TermOp::LShr, T.tidX(), T.c(5))),
            UniformityProver::Answer::Varying);
}

// With the block shapes of the unit's launches, lanes sit where those
// shapes put them: in 16 x 16 blocks tid.x + 16 * tid.y is the linear id,
// so over 32 it is the warp and over 16 the half-warp, which the
// warp-aligned model denies; in 32 x 8 blocks the same value splits warps.
TEST(UniformityProver, LaunchedBlocksPlaceTheLanes) {
  Terms T;
  TermRef Linear16 = T.op(TermOp::Add, T.tidX(), T.op(TermOp::Mul, T.c(16), T.tidY()));
  TermRef Warp = T.op(TermOp::LShr, Linear16, T.c(5));
  TermRef Half = T.op(TermOp::And, T.op(TermOp::LShr, Linear16, T.c(4)), T.c(1));
  UniformityProver Aligned(true, NoWallClockLimit);
  UniformityProver Square(true, NoWallClockLimit, {{16, 16, 1}});
  UniformityProver Wide(true, NoWallClockLimit, {{32, 8, 1}});
  UniformityProver Both(true, NoWallClockLimit, {{16, 16, 1}, {32, 8, 1}});
  EXPECT_EQ(Aligned.sameInGroup(Warp), UniformityProver::Answer::Varying);
  EXPECT_EQ(Square.sameInGroup(Warp), UniformityProver::Answer::Uniform);
  EXPECT_EQ(Square.sameInGroup(Half, 16), UniformityProver::Answer::Uniform);
  EXPECT_EQ(Wide.sameInGroup(Warp), UniformityProver::Answer::Varying);
  // Uniform only if uniform in every launched shape.
  EXPECT_EQ(Both.sameInGroup(Warp), UniformityProver::Answer::Varying);
  // A 48-thread block: its second warp has lanes 0-15 only (tid.x 32-47),
  // so tid.x < 48 holds in every lane that exists.
  UniformityProver Partial(true, NoWallClockLimit, {{48, 1, 1}});
  EXPECT_EQ(Partial.sameInGroup(T.op(TermOp::ULt, T.tidX(), T.c(48))),
            UniformityProver::Answer::Uniform);
  EXPECT_EQ(Partial.sameInGroup(T.op(TermOp::ULt, T.tidX(), T.c(40))),
            UniformityProver::Answer::Varying);
}

TEST(UniformityProver, AnswersAreCachedByShapeNotByName) {
  Terms T;
  UniformityProver P(true, NoWallClockLimit);
  TermRef A = T.op(TermOp::SLt, T.tidX(), T.B.uniform(&T, 32));
  TermRef B = T.op(TermOp::SLt, T.tidX(), T.B.uniform(&P, 32));
  ASSERT_NE(A, B);
  EXPECT_EQ(P.sameInGroup(A), UniformityProver::Answer::Varying);
  EXPECT_EQ(P.sameInGroup(B), UniformityProver::Answer::Varying);
  EXPECT_EQ(P.stats().CacheHits, 1u);
}

// The same term asked again is answered from the by-term cache, counted as a
// cache hit like the canonical one; the group size is part of the question
// (a lane-within-16 test is uniform in groups of 16, not of 32).
TEST(UniformityProver, SameTermAgainIsCachedPerGroupSize) {
  Terms T;
  UniformityProver P(true, NoWallClockLimit);
  TermRef Half = T.op(TermOp::ULt, T.op(TermOp::URem, T.tidX(), T.c(32)), T.c(16));
  EXPECT_EQ(P.sameInGroup(Half, 32), UniformityProver::Answer::Varying);
  EXPECT_EQ(P.sameInGroup(Half, 32), UniformityProver::Answer::Varying);
  EXPECT_EQ(P.stats().CacheHits, 1u);
  EXPECT_EQ(P.sameInGroup(Half, 16), UniformityProver::Answer::Uniform);
  EXPECT_EQ(P.sameInGroup(Half, 16), UniformityProver::Answer::Uniform);
  EXPECT_EQ(P.stats().CacheHits, 2u);
}

} // namespace

// Memory is a value: a load of one address is one value. `rowPtr[gid / 4]`
// is the same in the lanes of each 4-lane group (the solver, through the
// address, with the load a function of it), and differs within an 8-lane
// group (sampling reads different addresses, hence different values).
TEST(UniformityProver, LoadsAtAGroupAddressAreGroupUniform) {
  Terms T;
  UniformityProver P(/*WarpAlignedBlocks=*/true, NoWallClockLimit);
  TermRef Base = T.B.freshUniform(64);
  TermRef Row = T.op(TermOp::UDiv, T.tidX(), T.c(4));
  TermRef Address =
      T.op(TermOp::Add, Base, T.op(TermOp::Shl, T.B.cast(Row, 64, false), T.c(2, 64)));
  TermRef Positive = T.op(TermOp::SLt, T.c(0), T.B.load(Address, 32));
  EXPECT_EQ(P.sameInGroup(Positive, 4), UniformityProver::Answer::Uniform);
  EXPECT_EQ(P.sameInGroup(Positive, 8), UniformityProver::Answer::Varying);
  EXPECT_EQ(P.sameInGroup(Positive, 32), UniformityProver::Answer::Varying);
  // Equal addresses read equal values in an evaluation.
  LaneValues A, B;
  A.ThreadX = 8;
  B.ThreadX = 11;
  A.Leaf = B.Leaf = [](const Term &) -> uint64_t { return 4096; };
  EXPECT_EQ(evaluate(T.B.load(Address, 32), A), evaluate(T.B.load(Address, 32), B));
  EXPECT_TRUE(containsLoad(Positive));
  EXPECT_FALSE(containsLoad(Address));
}

// A 2-D block's global warp index, `(tid.x + tid.y * Dx + base) / 32` with
// base a multiple of 32 below 2^31 - 1024: uniform only because a block
// holds at most 1024 threads, so the sum never reaches the sign bit, where
// a signed division would round two lanes apart.
TEST(UniformityProver, TwoDimensionalWarpIndexStaysBelowTheSignBit) {
  Terms T;
  UniformityProver P(/*WarpAlignedBlocks=*/true, NoWallClockLimit);
  TermRef Base = T.B.uniform(&T, 32, 5, nullptr, (1u << 31) - 1024);
  TermRef Linear = T.op(TermOp::Add, T.tidX(), T.op(TermOp::Mul, T.tidY(), T.dimX()));
  TermRef Warp = T.op(TermOp::SDiv, T.op(TermOp::Add, Linear, Base), T.c(32));
  EXPECT_EQ(P.sameInGroup(Warp), UniformityProver::Answer::Uniform);
  EXPECT_EQ(P.stats().Unknown, 0u);
}

// SuperLU_DIST's column loop bound: `lsub[k + 1] - lsub[k]` with `k = x %
// y + rows[n - warp - 1] * ld`, warp = gid / 32. Every address is one per
// warp, but as one question the solver must relate products of unknowns,
// a remainder and two levels of loads between two lanes, and gives up. Each
// costly operation's lane-dependent operand is proved uniform on its own
// first and then stands for one value both lanes share.
TEST(UniformityProver, UniformOperandsOfCostlyOperationsAreProvedFirst) {
  Terms T;
  UniformityProver P(/*WarpAlignedBlocks=*/true, NoWallClockLimit);
  auto At = [&](TermRef Index) {
    return T.op(TermOp::Add, T.B.freshUniform(64),
                T.op(TermOp::Shl, T.B.cast(Index, 64, true), T.c(2, 64)));
  };
  TermRef Base = T.B.uniform(&T, 32, 5, nullptr, (1u << 31) - 1024);
  TermRef Linear = T.op(TermOp::Add, T.tidX(), T.op(TermOp::Mul, T.tidY(), T.dimX()));
  TermRef Warp = T.op(TermOp::SDiv, T.op(TermOp::Add, Linear, Base), T.c(32));
  TermRef Row = T.op(TermOp::Sub, T.op(TermOp::Sub, T.B.freshUniform(32), Warp), T.c(1));
  TermRef Rem = T.op(TermOp::SRem, T.B.freshUniform(32), T.B.freshUniform(32));
  TermRef K = T.op(TermOp::Add, Rem,
                   T.op(TermOp::Mul, T.B.load(At(Row), 32), T.B.freshUniform(32), true), true);
  TermRef Next = T.op(TermOp::Add, K, T.c(1), true);
  TermRef Count = T.op(TermOp::Sub, T.B.load(At(Next), 32), T.B.load(At(K), 32), true);
  TermRef Loop = T.op(TermOp::SLt, T.op(TermOp::Add, Warp, T.B.freshUniform(32, 5)), Count);
  EXPECT_EQ(P.sameInGroup(Loop), UniformityProver::Answer::Uniform);
  EXPECT_EQ(P.stats().Unknown, 0u);
  TermRef Lane = T.op(TermOp::And, T.tidX(), T.c(31));
  TermRef ByLane = T.op(TermOp::Mul, T.B.load(At(Lane), 32), T.B.freshUniform(32), true);
  EXPECT_EQ(P.sameInGroup(T.op(TermOp::SLt, T.c(0), ByLane)), UniformityProver::Answer::Varying);
}

// A 64-bit global thread id over a 16-lane tile, `keys[(Dx * bid + tid) /
// 16]`, in 1024-wide blocks: the address agrees in a tile because the sum
// carries nothing out of the low four bits. LLVM's binding of Z3 (the SMT
// core alone) gave up on this carry question at its effort bound; the
// default solver settles it (symbolic/TacticSolver.h).
TEST(UniformityProver, LoadAtA64BitTileIndexIsProvedInALaunchedShape) {
  Terms T;
  auto Wide = [&](TermRef X) { return T.B.cast(X, 64, false); };
  TermRef Id = T.op(TermOp::Add, T.op(TermOp::Mul, Wide(T.dimX()), Wide(T.B.freshUniform(32))),
                    Wide(T.tidX()));
  TermRef Address = T.op(TermOp::Add, T.B.freshUniform(64),
                         T.op(TermOp::Shl, T.op(TermOp::UDiv, Id, T.c(16, 64)), T.c(2, 64)));
  TermRef Key = T.B.load(Address, 32);
  TermRef Valid =
      T.op(TermOp::And, T.op(TermOp::Ne, Key, T.c(0)), T.op(TermOp::Ne, Key, T.c(0xffffffff)));
  auto Answer = [&](llvm::ArrayRef<LaunchedBlock> Shapes) {
    UniformityProver P(true, NoWallClockLimit, Shapes);
    UniformityProver::Answer A = P.sameInGroup(Valid, 16);
    EXPECT_EQ(P.stats().Unknown, 0u);
    return A;
  };
  EXPECT_EQ(Answer({{1024, 1, 1}}), UniformityProver::Answer::Uniform);
  EXPECT_EQ(Answer({{1024, 1, 1}, {256, 1, 1}}), UniformityProver::Answer::Uniform);
  EXPECT_EQ(Answer({}), UniformityProver::Answer::Uniform);
}
