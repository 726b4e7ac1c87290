//===--- WarpIntrinsics.h - The table of CUDA warp-level intrinsics -------===//
//
// One table describes every warp-level collective warp-tidy knows about: the
// CUDA `*_sync` intrinsics, their pre-Volta legacy forms, `__activemask`,
// wmma's warp-wide matrix operations and cooperative-groups tile members.
// Every check asks this table instead of matching names itself, so adding an
// intrinsic (or fixing an argument index) happens in exactly one place.
//
// The table has no clang dependency: callers look entries up by the callee's
// name (and, for members, the class name), which keeps it unit-testable.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_ANALYSIS_WARPINTRINSICS_H
#define WARP_TIDY_ANALYSIS_WARPINTRINSICS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <optional>

namespace warp_tidy {

/// What a collective does; checks use it to choose wording and to decide
/// which rules apply (e.g. reading from an exited lane matters for shuffles
/// only).
enum class CollectiveKind {
  Shuffle,     ///< __shfl*_sync and legacy __shfl*: reads another lane's value.
  Vote,        ///< __any/__all/__uni_sync and legacy __any/__all.
  Ballot,      ///< __ballot_sync and legacy __ballot.
  Match,       ///< __match_any_sync / __match_all_sync.
  Reduce,      ///< __reduce_*_sync.
  WarpBarrier, ///< __syncwarp.
  ActiveMask,  ///< __activemask: not a collective, reports converged lanes.
  Matrix,      ///< nvcuda::wmma load/store/mma_sync: whole warp, no mask.
  TileMember,  ///< cooperative_groups tile members (shfl*, any, all, sync...).
  TileReduce,  ///< cooperative_groups::reduce / inclusive_scan /
               ///< invoke_one_broadcast on a tile.
};

/// Which direction a shuffle reads from; drives the scan checks.
enum class ShuffleDirection { None, Index, Up, Down, Xor };

/// Sentinel for "this intrinsic has no such argument".
inline constexpr int NoArgument = -1;

struct WarpIntrinsic {
  llvm::StringRef Name; ///< Unqualified callee name.
  CollectiveKind Kind;
  ShuffleDirection Direction;
  int MaskArg;                     ///< Index of the 32-bit lane mask.
  int ValueArg;                    ///< Index of the value operand.
  int LaneOrDeltaArg;              ///< srcLane / delta / laneMask.
  int WidthArg;                    ///< Index of the optional `width`.
  unsigned MinArch;                ///< Lowest sm_XX (as XX*10) providing it.
  bool IsSync;                     ///< Has an explicit (or implicit) mask.
  bool NeedsWholeWarp;             ///< Implicit full-warp collective.
  llvm::StringRef SyncReplacement; ///< For legacy forms: the `_sync` name.
  llvm::StringRef Scope;           ///< Required enclosing namespace/class
                                   ///< ("" for free CUDA intrinsics).
};

/// Every entry, in a stable order.
llvm::ArrayRef<WarpIntrinsic> allWarpIntrinsics();

/// Whether any entry, free or scoped, has \p Name: a call of any other name
/// is no collective, whatever its callee's scope.
bool isWarpIntrinsicName(llvm::StringRef Name);

/// Looks up a free function (CUDA intrinsic) by unqualified name.
const WarpIntrinsic *lookupWarpIntrinsic(llvm::StringRef Name);

/// Looks up a scoped collective: \p Scope is the innermost enclosing
/// namespace or class name as written (e.g. "wmma", "thread_block_tile",
/// "cooperative_groups"), \p Name the member or function name.
const WarpIntrinsic *lookupScopedWarpIntrinsic(llvm::StringRef Scope, llvm::StringRef Name);

/// Human-readable name of a kind, used in diagnostics ("shuffle", "vote"...).
llvm::StringRef describeKind(CollectiveKind Kind);

/// True for the legacy non-`_sync` intrinsics removed for sm_70+ by nvcc.
inline bool isLegacy(const WarpIntrinsic &I) { return !I.SyncReplacement.empty(); }

} // namespace warp_tidy

#endif
