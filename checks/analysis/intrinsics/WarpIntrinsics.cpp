//===--- WarpIntrinsics.cpp - The table of CUDA warp-level intrinsics -----===//
//
// Argument indices follow the CUDA C++ Programming Guide's signatures, e.g.
// `T __shfl_up_sync(unsigned mask, T var, unsigned delta, int width=warpSize)`.
// Minimum architectures: `_sync` shuffles and votes exist for every arch CUDA
// 13 still supports; `__match_*_sync` and wmma need sm_70; `__reduce_*_sync`
// needs sm_80.
//
//===----------------------------------------------------------------------===//

#include "intrinsics/WarpIntrinsics.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"

namespace warp_tidy {
namespace {

using K = CollectiveKind;
using D = ShuffleDirection;
constexpr int N = NoArgument;

// Name, kind, direction, mask, value, lane/delta, width, min arch, sync,
// whole-warp, legacy replacement, scope.
const WarpIntrinsic Table[] = {
    // Shuffles.
    {"__shfl_sync", K::Shuffle, D::Index, 0, 1, 2, 3, 30, true, false, "", ""},
    {"__shfl_up_sync", K::Shuffle, D::Up, 0, 1, 2, 3, 30, true, false, "", ""},
    {"__shfl_down_sync", K::Shuffle, D::Down, 0, 1, 2, 3, 30, true, false, "", ""},
    {"__shfl_xor_sync", K::Shuffle, D::Xor, 0, 1, 2, 3, 30, true, false, "", ""},
    // Votes and ballot.
    {"__all_sync", K::Vote, D::None, 0, 1, N, N, 30, true, false, "", ""},
    {"__any_sync", K::Vote, D::None, 0, 1, N, N, 30, true, false, "", ""},
    {"__uni_sync", K::Vote, D::None, 0, 1, N, N, 30, true, false, "", ""},
    {"__ballot_sync", K::Ballot, D::None, 0, 1, N, N, 30, true, false, "", ""},
    // Match (sm_70). clang's headers also expose the 32/64-bit spellings.
    {"__match_any_sync", K::Match, D::None, 0, 1, N, N, 70, true, false, "", ""},
    {"__match_all_sync", K::Match, D::None, 0, 1, N, N, 70, true, false, "", ""},
    {"__match32_any_sync", K::Match, D::None, 0, 1, N, N, 70, true, false, "", ""},
    {"__match64_any_sync", K::Match, D::None, 0, 1, N, N, 70, true, false, "", ""},
    {"__match32_all_sync", K::Match, D::None, 0, 1, N, N, 70, true, false, "", ""},
    {"__match64_all_sync", K::Match, D::None, 0, 1, N, N, 70, true, false, "", ""},
    // Reductions (sm_80).
    {"__reduce_add_sync", K::Reduce, D::None, 0, 1, N, N, 80, true, false, "", ""},
    {"__reduce_min_sync", K::Reduce, D::None, 0, 1, N, N, 80, true, false, "", ""},
    {"__reduce_max_sync", K::Reduce, D::None, 0, 1, N, N, 80, true, false, "", ""},
    {"__reduce_and_sync", K::Reduce, D::None, 0, 1, N, N, 80, true, false, "", ""},
    {"__reduce_or_sync", K::Reduce, D::None, 0, 1, N, N, 80, true, false, "", ""},
    {"__reduce_xor_sync", K::Reduce, D::None, 0, 1, N, N, 80, true, false, "", ""},
    // Warp barrier: the mask defaults to the full warp.
    {"__syncwarp", K::WarpBarrier, D::None, 0, N, N, N, 30, true, false, "", ""},
    // Not a collective, but masks are built from it.
    {"__activemask", K::ActiveMask, D::None, N, N, N, N, 30, false, false, "", ""},
    // Legacy forms: implicitly the lanes that happen to be converged.
    {"__shfl", K::Shuffle, D::Index, N, 0, 1, 2, 30, false, false, "__shfl_sync", ""},
    {"__shfl_up", K::Shuffle, D::Up, N, 0, 1, 2, 30, false, false, "__shfl_up_sync", ""},
    {"__shfl_down", K::Shuffle, D::Down, N, 0, 1, 2, 30, false, false, "__shfl_down_sync", ""},
    {"__shfl_xor", K::Shuffle, D::Xor, N, 0, 1, 2, 30, false, false, "__shfl_xor_sync", ""},
    {"__any", K::Vote, D::None, N, 0, N, N, 30, false, false, "__any_sync", ""},
    {"__all", K::Vote, D::None, N, 0, N, N, 30, false, false, "__all_sync", ""},
    {"__ballot", K::Ballot, D::None, N, 0, N, N, 30, false, false, "__ballot_sync", ""},
    // wmma: every lane of the warp must call these, with the same arguments.
    {"load_matrix_sync", K::Matrix, D::None, N, N, N, N, 70, true, true, "", "wmma"},
    {"store_matrix_sync", K::Matrix, D::None, N, N, N, N, 70, true, true, "", "wmma"},
    {"mma_sync", K::Matrix, D::None, N, N, N, N, 70, true, true, "", "wmma"},
    {"bmma_sync", K::Matrix, D::None, N, N, N, N, 75, true, true, "", "wmma"},
    // cooperative_groups thread_block_tile members (tile-wide collectives).
    {"shfl", K::TileMember, D::Index, N, 0, 1, N, 30, true, true, "", "thread_block_tile"},
    {"shfl_up", K::TileMember, D::Up, N, 0, 1, N, 30, true, true, "", "thread_block_tile"},
    {"shfl_down", K::TileMember, D::Down, N, 0, 1, N, 30, true, true, "", "thread_block_tile"},
    {"shfl_xor", K::TileMember, D::Xor, N, 0, 1, N, 30, true, true, "", "thread_block_tile"},
    {"any", K::TileMember, D::None, N, 0, N, N, 30, true, true, "", "thread_block_tile"},
    {"all", K::TileMember, D::None, N, 0, N, N, 30, true, true, "", "thread_block_tile"},
    {"ballot", K::TileMember, D::None, N, 0, N, N, 30, true, true, "", "thread_block_tile"},
    {"match_any", K::TileMember, D::None, N, 0, N, N, 70, true, true, "", "thread_block_tile"},
    {"match_all", K::TileMember, D::None, N, 0, N, N, 70, true, true, "", "thread_block_tile"},
    {"sync", K::TileMember, D::None, N, N, N, N, 30, true, true, "", "thread_block_tile"},
    // cooperative_groups algorithms over a tile.
    {"reduce", K::TileReduce, D::None, N, 1, N, N, 30, true, true, "", "cooperative_groups"},
    {"inclusive_scan", K::TileReduce, D::None, N, 1, N, N, 30, true, true, "",
     "cooperative_groups"},
    {"exclusive_scan", K::TileReduce, D::None, N, 1, N, N, 30, true, true, "",
     "cooperative_groups"},
    // One lane of the group runs the callable; its result is shuffled to all.
    {"invoke_one_broadcast", K::TileReduce, D::None, N, N, N, N, 30, true, true, "",
     "cooperative_groups"},
};

} // namespace

llvm::ArrayRef<WarpIntrinsic> allWarpIntrinsics() { return Table; }

bool isWarpIntrinsicName(llvm::StringRef Name) {
  static const llvm::StringSet<> Names = [] {
    llvm::StringSet<> Out;
    for (const WarpIntrinsic &I : Table)
      Out.insert(I.Name);
    return Out;
  }();
  return Names.contains(Name);
}

const WarpIntrinsic *lookupWarpIntrinsic(llvm::StringRef Name) {
  // Free CUDA intrinsics all start with "__"; anything else cannot match and
  // the early exit keeps the per-call cost of the matcher callbacks low.
  if (!Name.starts_with("__"))
    return nullptr;
  for (const WarpIntrinsic &I : Table)
    if (I.Scope.empty() && I.Name == Name)
      return &I;
  return nullptr;
}

const WarpIntrinsic *lookupScopedWarpIntrinsic(llvm::StringRef Scope, llvm::StringRef Name) {
  for (const WarpIntrinsic &I : Table)
    if (!I.Scope.empty() && I.Scope == Scope && I.Name == Name)
      return &I;
  return nullptr;
}

llvm::StringRef describeKind(CollectiveKind Kind) {
  switch (Kind) {
  case CollectiveKind::Shuffle:
    return "shuffle";
  case CollectiveKind::Vote:
    return "vote";
  case CollectiveKind::Ballot:
    return "ballot";
  case CollectiveKind::Match:
    return "match";
  case CollectiveKind::Reduce:
    return "warp reduction";
  case CollectiveKind::WarpBarrier:
    return "warp barrier";
  case CollectiveKind::ActiveMask:
    return "active-mask query";
  case CollectiveKind::Matrix:
    return "wmma matrix operation";
  case CollectiveKind::TileMember:
    return "tile collective";
  case CollectiveKind::TileReduce:
    return "tile algorithm";
  }
  llvm_unreachable("unknown collective kind");
}

} // namespace warp_tidy
