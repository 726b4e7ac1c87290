//===--- PartialsRead.h - Second stage of a block reduction ---------------===//
//
// A block reduction writes one partial per warp to a `__shared__` array at
// the warp index (`s[threadIdx.x / 32] = v`), synchronises, and lets one warp
// read the partials back at its lane index (`s[lane]`). Only as many slots as
// the block has warps were written, so the read must be bounded by the number
// of warps, rounded *up* (a partial last warp also wrote its slot). Measured
// on an H200: an unbounded read summed 348 as 24153 in a 64-thread block; a
// `lane < blockDim.x / 32` bound lost 16 of 48 elements.
//
// The partials may be one dimension of a larger array (`s[j][warp]` written,
// `s[j][lane]` read) or elements of a struct array (`MD s[32]` of an online
// softmax). A store at the lane index that comes after the read (the result
// written back) does not fill the slots before it.
//
// This analysis recognises the read, finds the bounds that hold there (see
// GuardFacts) and classifies them. It reports nothing for shared arrays that
// are not written at a warp index in the same function. The array may be a
// helper's pointer parameter, never reassigned, that a call in the unit
// hands a `__shared__` array (LightGBM's ShuffleReduceSum(value,
// shared_mem_buffer, len)); the slots are then the caller's array's.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_ANALYSIS_PARTIALSREAD_H
#define WARP_TIDY_ANALYSIS_PARTIALSREAD_H

#include "launch/LaunchBlockShapes.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <functional>
#include <optional>

namespace clang {
class ASTContext;
class ArraySubscriptExpr;
class DeclRefExpr;
class FunctionDecl;
class ParmVarDecl;
class Expr;
class Stmt;
class VarDecl;
} // namespace clang

namespace warp_tidy {

enum class PartialsDefect {
  Unbounded,         ///< No bound by the number of warps.
  FlooredBound,      ///< `lane < blockDim.x / 32`: drops a partial last warp.
  ArrayTooSmall,     ///< Lanes can read past the end of the array.
  BoundExceedsWarps, ///< A constant bound above what __launch_bounds__ allows.
};

struct PartialsFinding {
  PartialsDefect Defect;
  const clang::ArraySubscriptExpr *Read = nullptr;
  const clang::VarDecl *Array = nullptr;
  /// The store at the warp index (for the note).
  const clang::Expr *WarpIndexWrite = nullptr;
  /// When Array is a pointer parameter: the caller's `__shared__` array
  /// passed for it (for a note).
  const clang::DeclRefExpr *SharedArgument = nullptr;
  /// The read's subscript that is the lane index (`lane` in `s[j][lane]`).
  const clang::Expr *LaneIndex = nullptr;
  /// FlooredBound / BoundExceedsWarps: the bound as written.
  const clang::Expr *Bound = nullptr;
  /// Declared slots (0 when unknown, e.g. `extern __shared__`).
  uint64_t ArraySize = 0;
  /// Most warps a block can have (__launch_bounds__, else 32).
  unsigned MaxWarps = 32;
  /// The constant bound for BoundExceedsWarps / ArrayTooSmall (0 if none).
  int64_t ConstantBound = 0;
  /// __launch_bounds__ maximum threads, 0 when absent.
  int64_t LaunchBoundThreads = 0;

  /// Unbounded: the expression to replace with the guarded read (the read
  /// itself) when that is provably right: `v = s[lane];` / `T v = s[lane];`,
  /// arithmetic `v`, later reduced by a sum (identity 0). Null otherwise.
  const clang::Expr *GuardedReadFix = nullptr;
  /// FlooredBound: the floor expression to replace with its ceiling form,
  /// when it is written in place (not through a variable or macro).
  const clang::Expr *CeilingFix = nullptr;
  /// How the floor is spelled, for the ceiling form: '/ 32', '/ warpSize'
  /// or '>> 5'.
  enum class FloorSpelling { Div32, DivWarpSize, Shr5 } Spelling = FloorSpelling::Div32;
  /// A launch in the unit whose block shows the defect (FlooredBound: a
  /// blockDim.x that is not whole warps; Unbounded: fewer than 32 warps),
  /// when the unit shows every launch that runs the read; else null.
  BlockShape WitnessLaunch;
};

struct PartialsOptions {
  /// Block sizes are known to be whole warps: a floored bound is exact.
  bool AssumeWholeWarps = false;
  /// For partials kept behind a pointer parameter (a helper handed the
  /// caller's `__shared__` array): a call of the helper in the unit that
  /// passes a `__shared__` array for that parameter, the reference to that
  /// array; null when no call does (then nothing is said: the pointer may
  /// name memory the program filled first).
  std::function<const clang::DeclRefExpr *(const clang::ParmVarDecl *)> SharedArgument;
  /// The block shapes of every launch in the unit that runs a function
  /// (ReachingLaunches.h); nullopt when they are not all known. A floored
  /// bound is exact when every such blockDim.x is whole warps, and an
  /// unbounded read is filled when every such block has 32 warps.
  std::function<std::optional<llvm::SmallVector<BlockShape, 8>>(const clang::FunctionDecl *)>
      LaunchedShapes;
  /// Low bits of blockDim.x known zero in every launch that runs a function,
  /// also where the shapes are run-time values (ReachingLaunches.h); nullopt
  /// when not all are known. Five or more: the floored bound is exact.
  std::function<std::optional<unsigned>(const clang::FunctionDecl *)> LaunchedXZeroBits;
};

std::optional<PartialsFinding> analyzePartialsRead(const clang::ArraySubscriptExpr *Read,
                                                   clang::ASTContext &Ctx,
                                                   const PartialsOptions &Opts = {});

// The store/read split the analysis rests on (public for its unit test).

/// What \p S stores into, when it is a store: an assignment's left side,
/// the operand of `++`/`--` or of `&`, or the object of an assignment
/// operator; else null.
const clang::Expr *storeTarget(const clang::Stmt *S);
/// The subscript a store's target \p Target is, through parentheses, `.`
/// members and no-op casts; else null. isRead is false for it, so the
/// analysis skips it without asking.
const clang::ArraySubscriptExpr *storedSubscript(const clang::Expr *Target);
/// The element's value is loaded: `v = s[lane]`, `s[lane].m`, a struct
/// element copied.
bool isRead(const clang::ArraySubscriptExpr *ASE, clang::ASTContext &Ctx);

} // namespace warp_tidy

#endif
