// Unit tests for the inline-PTX template parser: the forms real libraries
// write, mapped onto the intrinsic with the same semantics.
#include "intrinsics/InlinePtx.h"
#include "gtest/gtest.h"

using namespace warp_tidy;

static void expectAsmOperand(const std::optional<PtxOperand> &Op, unsigned Index) {
  ASSERT_TRUE(Op.has_value());
  EXPECT_EQ(Op->Kind, PtxOperand::AsmOperand);
  EXPECT_EQ(Op->AsmIndex, Index);
}

static void expectImmediate(const std::optional<PtxOperand> &Op, int64_t Value) {
  ASSERT_TRUE(Op.has_value());
  EXPECT_EQ(Op->Kind, PtxOperand::Immediate);
  EXPECT_EQ(Op->Value, Value);
}

TEST(InlinePtx, ShuffleOperandsInIsaOrder) {
  auto C = parseInlinePtxCollectives("shfl.sync.bfly.b32 %0, %1, %2, %3, %4;");
  ASSERT_EQ(C.size(), 1u);
  EXPECT_EQ(C[0].Instruction, "shfl.sync.bfly.b32");
  ASSERT_NE(C[0].Equivalent, nullptr);
  EXPECT_EQ(C[0].Equivalent->Name, "__shfl_xor_sync");
  expectAsmOperand(C[0].Destination, 0);
  expectAsmOperand(C[0].Value, 1);
  expectAsmOperand(C[0].LaneOrDelta, 2);
  expectAsmOperand(C[0].Control, 3);
  expectAsmOperand(C[0].Mask, 4);
  EXPECT_FALSE(C[0].Guarded);
}

TEST(InlinePtx, ShuffleModes) {
  const std::pair<const char *, const char *> Modes[] = {
      {"shfl.sync.up.b32 %0, %1, 1, 0, -1;", "__shfl_up_sync"},
      {"shfl.sync.down.b32 %0, %1, 1, 0x1f, -1;", "__shfl_down_sync"},
      {"shfl.sync.idx.b32 %0, %1, 0, 0x1f, -1;", "__shfl_sync"},
      {"shfl.sync.bfly.b32 %0, %1, 16, 0x1f, -1;", "__shfl_xor_sync"}};
  for (auto [Text, Name] : Modes) {
    auto C = parseInlinePtxCollectives(Text);
    ASSERT_EQ(C.size(), 1u) << Text;
    EXPECT_EQ(C[0].Equivalent->Name, Name) << Text;
    // -1 is the full mask: a 32-bit operand keeps the low bits.
    expectImmediate(C[0].Mask, -1);
    EXPECT_EQ(static_cast<uint32_t>(C[0].Mask->Value), 0xffffffffu);
  }
}

TEST(InlinePtx, PredicateDestinationAndNamedOperands) {
  std::vector<std::string> Names = {"out", "valid", "v", "lane", "mask"};
  auto C = parseInlinePtxCollectives(
      "shfl.sync.idx.b32 %[out]|%[valid], %[v], %[lane], 0x1f, %[mask];", Names);
  ASSERT_EQ(C.size(), 1u);
  expectAsmOperand(C[0].Destination, 0);
  expectAsmOperand(C[0].Value, 2);
  expectAsmOperand(C[0].LaneOrDelta, 3);
  expectImmediate(C[0].Control, 0x1f);
  expectAsmOperand(C[0].Mask, 4);
}

TEST(InlinePtx, ScopedBlockWithSeveralInstructions) {
  const char *Text = "{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %1, 0;\n"
                     "\tvote.sync.ballot.b32 %0, p, 0xffffffff;\n}\n";
  auto C = parseInlinePtxCollectives(Text);
  ASSERT_EQ(C.size(), 1u);
  EXPECT_EQ(C[0].Equivalent->Name, "__ballot_sync");
  expectAsmOperand(C[0].Destination, 0);
  ASSERT_TRUE(C[0].Value.has_value());
  EXPECT_EQ(C[0].Value->Kind, PtxOperand::Register);
  EXPECT_EQ(C[0].Value->Text, "p");
  expectImmediate(C[0].Mask, 0xffffffff);
  EXPECT_EQ(llvm::StringRef(Text).substr(C[0].Offset).take_front(9), "vote.sync");
}

TEST(InlinePtx, VoteNegatedPredicateAndModes) {
  auto C = parseInlinePtxCollectives(
      "{ .reg .pred q; setp.eq.u32 q, %1, 1; vote.sync.any.pred q, !q, %2; "
      "selp.u32 %0, 1, 0, q; }");
  ASSERT_EQ(C.size(), 1u);
  EXPECT_EQ(C[0].Equivalent->Name, "__any_sync");
  EXPECT_TRUE(C[0].Value->Negated);
  expectAsmOperand(C[0].Mask, 2);
  EXPECT_EQ(parseInlinePtxCollectives("vote.sync.all.pred %0, %1, %2;")[0].Equivalent->Name,
            "__all_sync");
  EXPECT_EQ(parseInlinePtxCollectives("vote.sync.uni.pred %0, %1, %2;")[0].Equivalent->Name,
            "__uni_sync");
}

TEST(InlinePtx, MatchReduxBarrierActivemask) {
  auto Match = parseInlinePtxCollectives("match.any.sync.b64 %0, %1, %2;");
  ASSERT_EQ(Match.size(), 1u);
  EXPECT_EQ(Match[0].Equivalent->Name, "__match_any_sync");
  EXPECT_EQ(Match[0].Equivalent->MinArch, 70u);
  auto All = parseInlinePtxCollectives("match.all.sync.b32 %0|%1, %2, 0xffffffff;");
  ASSERT_EQ(All.size(), 1u);
  EXPECT_EQ(All[0].Equivalent->Name, "__match_all_sync");
  expectAsmOperand(All[0].Value, 2);

  auto Redux = parseInlinePtxCollectives("redux.sync.min.u32 %0, %1, 0xffffffff;");
  ASSERT_EQ(Redux.size(), 1u);
  EXPECT_EQ(Redux[0].Equivalent->Name, "__reduce_min_sync");
  EXPECT_EQ(Redux[0].Equivalent->MinArch, 80u);
  EXPECT_EQ(parseInlinePtxCollectives("redux.sync.add.s32 %0, %1, %2;")[0].Equivalent->Name,
            "__reduce_add_sync");
  EXPECT_EQ(parseInlinePtxCollectives("redux.sync.or.b32 %0, %1, %2;")[0].Equivalent->Name,
            "__reduce_or_sync");

  auto Bar = parseInlinePtxCollectives("bar.warp.sync %0;");
  ASSERT_EQ(Bar.size(), 1u);
  EXPECT_EQ(Bar[0].Equivalent->Name, "__syncwarp");
  expectAsmOperand(Bar[0].Mask, 0);
  EXPECT_FALSE(Bar[0].Destination.has_value());

  auto Active = parseInlinePtxCollectives("activemask.b32 %0;");
  ASSERT_EQ(Active.size(), 1u);
  EXPECT_EQ(Active[0].Equivalent->Kind, CollectiveKind::ActiveMask);
  expectAsmOperand(Active[0].Destination, 0);
}

TEST(InlinePtx, ImmediateForms) {
  for (auto [Text, Value] :
       {std::pair<const char *, int64_t>{"bar.warp.sync 0xFFFFFFFF;", 0xffffffff},
        {"bar.warp.sync 0x0000ffffU;", 0xffff},
        {"bar.warp.sync -1;", -1},
        {"bar.warp.sync 0;", 0},
        {"bar.warp.sync 017;", 15},
        {"bar.warp.sync 0b101;", 5},
        {"bar.warp.sync 65535;", 65535}}) {
    auto C = parseInlinePtxCollectives(Text);
    ASSERT_EQ(C.size(), 1u) << Text;
    expectImmediate(C[0].Mask, Value);
  }
}

TEST(InlinePtx, MaskMovedIntoALocalRegister) {
  auto C = parseInlinePtxCollectives(
      "{ .reg .b32 m; mov.u32 m, 0xffffffff; shfl.sync.down.b32 %0, %1, %2, 0x1f, m; }");
  ASSERT_EQ(C.size(), 1u);
  expectImmediate(C[0].Mask, 0xffffffff);
  auto FromOperand = parseInlinePtxCollectives("{ .reg .b32 m; mov.b32 m, %3; bar.warp.sync m; }");
  ASSERT_EQ(FromOperand.size(), 1u);
  expectAsmOperand(FromOperand[0].Mask, 3);
  // Written by something else afterwards: no longer known.
  auto Overwritten = parseInlinePtxCollectives(
      "{ .reg .b32 m; mov.b32 m, 0xffffffff; and.b32 m, m, %1; bar.warp.sync m; }");
  ASSERT_EQ(Overwritten.size(), 1u);
  EXPECT_EQ(Overwritten[0].Mask->Kind, PtxOperand::Register);
}

TEST(InlinePtx, SeveralCollectivesCommentsLabelsAndGuards) {
  auto C = parseInlinePtxCollectives("// butterfly step\n"
                                     "shfl.sync.bfly.b32 %0, %2, 16, 0x1f, -1; /* then */\n"
                                     "L1: @%p3 shfl.sync.bfly.b32 %1, %2, 8, 0x1f, -1;\n"
                                     "mov.u32 %%r1, %%laneid;");
  ASSERT_EQ(C.size(), 2u);
  EXPECT_FALSE(C[0].Guarded);
  EXPECT_TRUE(C[1].Guarded);
  expectImmediate(C[1].LaneOrDelta, 8);
  expectAsmOperand(C[1].Destination, 1);
}

TEST(InlinePtx, NotCollectives) {
  EXPECT_TRUE(parseInlinePtxCollectives("mov.u32 %0, %%laneid;").empty());
  EXPECT_TRUE(parseInlinePtxCollectives("bar.sync 0;").empty());
  EXPECT_TRUE(parseInlinePtxCollectives("membar.gl;").empty());
  // Pre-Volta shuffles have no mask: not a `.sync` collective.
  EXPECT_TRUE(parseInlinePtxCollectives("shfl.bfly.b32 %0, %1, 16, 0x1f;").empty());
  // Wrong operand count: not judged.
  EXPECT_TRUE(parseInlinePtxCollectives("shfl.sync.bfly.b32 %0, %1, 16, 0x1f;").empty());
  EXPECT_TRUE(parseInlinePtxCollectives("").empty());
}

TEST(InlinePtx, ShuffleControlWord) {
  EXPECT_EQ(shuffleWidthFromControl(0x1f), 32u);
  EXPECT_EQ(shuffleWidthFromControl(0x101f), 16u);
  EXPECT_EQ(shuffleWidthFromControl(0x181f), 8u);
  EXPECT_EQ(shuffleWidthFromControl(0x1f00), 1u);
  EXPECT_EQ(shuffleWidthFromControl(0x0), 32u);
  EXPECT_EQ(shuffleWidthFromControl(0x0c1f), std::nullopt); // segmask 12: width 20
  EXPECT_EQ(shuffleSegmentMask(0x181f), 24u);
}

TEST(InlinePtx, ActivemaskIntoALocalRegister) {
  auto C = parseInlinePtxCollectives(
      "{ .reg .b32 m; activemask.b32 m; shfl.sync.idx.b32 %0, %1, 0, 0x1f, m; }");
  ASSERT_EQ(C.size(), 2u);
  EXPECT_EQ(C[0].Equivalent->Kind, CollectiveKind::ActiveMask);
  ASSERT_TRUE(C[1].Mask.has_value());
  EXPECT_EQ(C[1].Mask->Kind, PtxOperand::Register);
  EXPECT_TRUE(C[1].Mask->FromActivemask);
  auto Overwritten = parseInlinePtxCollectives(
      "{ .reg .b32 m; activemask.b32 m; mov.b32 m, -1; bar.warp.sync m; }");
  ASSERT_EQ(Overwritten.size(), 2u);
  expectImmediate(Overwritten[1].Mask, -1);
}
