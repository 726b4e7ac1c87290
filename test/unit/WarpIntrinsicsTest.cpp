// Unit tests for the warp-intrinsic table: the facts every check relies on.
#include "intrinsics/WarpIntrinsics.h"
#include "gtest/gtest.h"
#include <set>

using namespace warp_tidy;

TEST(WarpIntrinsics, ShuffleSignatures) {
  const WarpIntrinsic *Up = lookupWarpIntrinsic("__shfl_up_sync");
  ASSERT_NE(Up, nullptr);
  EXPECT_EQ(Up->Kind, CollectiveKind::Shuffle);
  EXPECT_EQ(Up->Direction, ShuffleDirection::Up);
  EXPECT_EQ(Up->MaskArg, 0);
  EXPECT_EQ(Up->ValueArg, 1);
  EXPECT_EQ(Up->LaneOrDeltaArg, 2);
  EXPECT_EQ(Up->WidthArg, 3);
  EXPECT_TRUE(Up->IsSync);
  EXPECT_EQ(lookupWarpIntrinsic("__shfl_sync")->Direction, ShuffleDirection::Index);
  EXPECT_EQ(lookupWarpIntrinsic("__shfl_down_sync")->Direction, ShuffleDirection::Down);
  EXPECT_EQ(lookupWarpIntrinsic("__shfl_xor_sync")->Direction, ShuffleDirection::Xor);
}

TEST(WarpIntrinsics, MinimumArchitectures) {
  for (const char *Name : {"__reduce_add_sync", "__reduce_min_sync", "__reduce_max_sync",
                           "__reduce_and_sync", "__reduce_or_sync", "__reduce_xor_sync"}) {
    const WarpIntrinsic *I = lookupWarpIntrinsic(Name);
    ASSERT_NE(I, nullptr) << Name;
    EXPECT_EQ(I->MinArch, 80u) << Name;
    EXPECT_EQ(I->Kind, CollectiveKind::Reduce) << Name;
  }
  EXPECT_EQ(lookupWarpIntrinsic("__match_any_sync")->MinArch, 70u);
  EXPECT_EQ(lookupWarpIntrinsic("__match_all_sync")->MinArch, 70u);
  EXPECT_EQ(lookupWarpIntrinsic("__ballot_sync")->MinArch, 30u);
}

TEST(WarpIntrinsics, LegacyFormsNameTheirReplacement) {
  const std::pair<const char *, const char *> Pairs[] = {{"__shfl", "__shfl_sync"},
                                                         {"__shfl_up", "__shfl_up_sync"},
                                                         {"__shfl_down", "__shfl_down_sync"},
                                                         {"__shfl_xor", "__shfl_xor_sync"},
                                                         {"__any", "__any_sync"},
                                                         {"__all", "__all_sync"},
                                                         {"__ballot", "__ballot_sync"}};
  for (auto [Legacy, Sync] : Pairs) {
    const WarpIntrinsic *I = lookupWarpIntrinsic(Legacy);
    ASSERT_NE(I, nullptr) << Legacy;
    EXPECT_TRUE(isLegacy(*I)) << Legacy;
    EXPECT_FALSE(I->IsSync) << Legacy;
    EXPECT_EQ(I->MaskArg, NoArgument) << Legacy;
    EXPECT_EQ(I->SyncReplacement, Sync) << Legacy;
    const WarpIntrinsic *Replacement = lookupWarpIntrinsic(Sync);
    ASSERT_NE(Replacement, nullptr) << Sync;
    EXPECT_EQ(Replacement->Kind, I->Kind) << Legacy;
    // The _sync form has the mask first, so every other index moves by one.
    EXPECT_EQ(Replacement->ValueArg, I->ValueArg + 1) << Legacy;
  }
}

TEST(WarpIntrinsics, ImplicitWholeWarpCollectives) {
  for (const char *Name : {"load_matrix_sync", "store_matrix_sync", "mma_sync"}) {
    const WarpIntrinsic *I = lookupScopedWarpIntrinsic("wmma", Name);
    ASSERT_NE(I, nullptr) << Name;
    EXPECT_TRUE(I->NeedsWholeWarp);
    EXPECT_EQ(I->Kind, CollectiveKind::Matrix);
  }
  const WarpIntrinsic *TileShfl = lookupScopedWarpIntrinsic("thread_block_tile", "shfl_down");
  ASSERT_NE(TileShfl, nullptr);
  EXPECT_TRUE(TileShfl->NeedsWholeWarp);
  EXPECT_EQ(TileShfl->Direction, ShuffleDirection::Down);
  EXPECT_NE(lookupScopedWarpIntrinsic("cooperative_groups", "reduce"), nullptr);
  // Scoped names never leak into the free-function lookup.
  EXPECT_EQ(lookupWarpIntrinsic("mma_sync"), nullptr);
  EXPECT_EQ(lookupWarpIntrinsic("shfl"), nullptr);
}

TEST(WarpIntrinsics, NonCollectivesAreUnknown) {
  EXPECT_EQ(lookupWarpIntrinsic("__syncthreads"), nullptr);
  EXPECT_EQ(lookupWarpIntrinsic("__ldg"), nullptr);
  EXPECT_EQ(lookupWarpIntrinsic("printf"), nullptr);
  EXPECT_EQ(lookupWarpIntrinsic(""), nullptr);
}

TEST(WarpIntrinsics, TableIsConsistent) {
  std::set<std::pair<std::string, std::string>> Seen;
  for (const WarpIntrinsic &I : allWarpIntrinsics()) {
    EXPECT_TRUE(Seen.insert({I.Scope.str(), I.Name.str()}).second)
        << "duplicate entry " << I.Name.str();
    if (I.Kind == CollectiveKind::Shuffle) {
      EXPECT_NE(I.Direction, ShuffleDirection::None) << I.Name.str();
    }
    if (I.IsSync && I.Scope.empty() && I.Kind != CollectiveKind::ActiveMask) {
      EXPECT_EQ(I.MaskArg, 0) << I.Name.str();
    }
    EXPECT_GE(I.MinArch, 30u);
    EXPECT_FALSE(describeKind(I.Kind).empty());
  }
}
