//===--- LaneExpressions.h - Lane-id questions of the syntactic checks ----===//
//
// The scan, partials, reduction-result-lane, shuffle-source and guard-fact
// analyses ask a few yes/no questions about an expression as written: is it
// the lane id, the warp index, threadIdx.x? The answers come from the one
// recogniser (LaneIdentity.h: values, not names) with its default
// environment; this header only words them the way those analyses ask.
// "Is this local written after its initialiser" is LocalWrites.h. The
// dataflow question "is this value thread-varying" belongs to the uniformity
// analysis, not here.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_ANALYSIS_LANEEXPRESSIONS_H
#define WARP_TIDY_ANALYSIS_LANEEXPRESSIONS_H

#include "lanes/LaneIdentity.h"

namespace clang {
class ASTContext;
class Expr;
class VarDecl;
} // namespace clang

namespace warp_tidy {

/// What kind of lane id an expression is.
enum class LaneIdKind {
  None,
  WarpLane, ///< The lane within the 32-lane warp (0..31).
  TileRank, ///< A cooperative-groups tile's thread_rank() (0..size-1).
};

/// Classifies \p E as a lane id (see the file comment for the spellings).
LaneIdKind classifyLaneId(const clang::Expr *E, const clang::ASTContext &Ctx);
inline bool isLaneId(const clang::Expr *E, const clang::ASTContext &Ctx) {
  return classifyLaneId(E, Ctx) != LaneIdKind::None;
}

/// Classifies a variable as a lane id: never written after a lane-id
/// initialiser, or written only by an asm statement reading %laneid.
LaneIdKind classifyLaneIdVar(const clang::VarDecl *Var, const clang::ASTContext &Ctx);

/// True when \p E is the index of the calling thread's warp within a 1-D
/// block: `threadIdx.x / 32`, `threadIdx.x >> 5`, `threadIdx.x / warpSize`,
/// a 32-lane tile's meta_group_rank(), or a variable/helper giving one of
/// these; also a smaller tile's meta_group_rank() (the index of the group
/// whose partial a slot holds).
bool isWarpIndex(const clang::Expr *E, const clang::ASTContext &Ctx);

/// True when \p E is `threadIdx.x` itself (or a write-once variable holding
/// it, or a block's thread_rank()), nothing added.
bool isThreadIdxX(const clang::Expr *E, const clang::ASTContext &Ctx);

/// True when \p E is computed from a thread's position: it mentions
/// threadIdx, a lane id, a warp-local rank, or a write-once variable
/// initialised from one of those. Used to recognise lane comparisons in
/// guards (`lane >= offset`, `srcLane >= 0`, `lane + d < 32`).
bool mentionsThreadPosition(const clang::Expr *E, const clang::ASTContext &Ctx);

/// True when \p Lane is a lane picked out of the mask local \p Mask holds,
/// so that it is one of the mask's lanes whenever the mask has any: its
/// lowest (`__ffs(m) - 1`, `__fns(m, 0, 1)`) or its highest (`31 -
/// __clz(m)`, `__fns(m, 31, -1)`), directly or through a local holding it.
/// Any other `__fns` may find no bit and return 0xffffffff.
bool isLaneOfMask(const clang::Expr *Lane, const clang::VarDecl *Mask,
                  const clang::ASTContext &Ctx);

/// True when \p E is `warpSize` or a constant 32.
bool isWarpSizeValue(const clang::Expr *E, const clang::ASTContext &Ctx);

} // namespace warp_tidy

#endif
