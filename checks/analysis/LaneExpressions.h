//===--- LaneExpressions.h - Lane ids, warp indices and thread indices ----===//
//
// Warp code names the same few per-thread quantities in many spellings: the
// lane id (`threadIdx.x % 32`, `& 31`, `% warpSize`, `& (warpSize - 1)`,
// `%laneid` read through inline asm, a tile's `thread_rank()`, a helper that
// returns one of these, a variable initialised from one) and the warp index
// (`threadIdx.x / 32`, `>> 5`, `/ warpSize`, a tile's `meta_group_rank()`).
// The scan and partials checks ask these questions syntactically, on the
// expression as written; the dataflow question "is this value thread-varying"
// belongs to the uniformity analysis, not here.
//
// A variable counts as one of these only when it is a local (or parameter-free)
// variable that is written once, by its initialiser (or by one asm output
// reading %laneid): a variable that is reassigned could hold anything.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_ANALYSIS_LANEEXPRESSIONS_H
#define WARP_TIDY_ANALYSIS_LANEEXPRESSIONS_H

namespace clang {
class ASTContext;
class CallExpr;
class Expr;
class Stmt;
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

/// Classifies a variable as a lane id: write-once from a lane-id initialiser,
/// or written only by an asm statement reading %laneid.
LaneIdKind classifyLaneIdVar(const clang::VarDecl *Var, const clang::ASTContext &Ctx);

/// True when \p E is the index of the calling thread's warp within a 1-D
/// block: `threadIdx.x / 32`, `threadIdx.x >> 5`, `threadIdx.x / warpSize`,
/// a tile's meta_group_rank(), or a variable/helper giving one of these.
bool isWarpIndex(const clang::Expr *E, const clang::ASTContext &Ctx);

/// True when \p E is `threadIdx.x` itself (or a write-once variable holding
/// it, or a block's thread_rank()).
bool isThreadIdxX(const clang::Expr *E, const clang::ASTContext &Ctx);

/// True when \p E is computed from a thread's position: it mentions
/// threadIdx, a lane id, a warp-local rank, or a write-once variable
/// initialised from one of those. Used to recognise lane comparisons in
/// guards (`lane >= offset`, `srcLane >= 0`, `lane + d < 32`).
bool mentionsThreadPosition(const clang::Expr *E, const clang::ASTContext &Ctx);

/// True when \p E is `warpSize` or a constant 32.
bool isWarpSizeValue(const clang::Expr *E, const clang::ASTContext &Ctx);

/// The write-once initialiser of \p Var (looking through nothing): null when
/// the variable is not a local written only by its initialiser.
const clang::Expr *singleAssignmentInit(const clang::VarDecl *Var,
                                        const clang::ASTContext &Ctx);

/// The object of a member call (`tile` in `tile.thread_rank()`), whether the
/// member is static or not; null for other expressions.
const clang::Expr *memberCallObject(const clang::Expr *E);

/// Forgets the per-function write counts cached by the queries above; call
/// at the start of every translation unit (a new AST may reuse addresses).
void resetLaneExpressionCache();

/// True when \p Var is never written after its declaration (no assignment,
/// increment, address taken, non-const reference binding or asm output)
/// within \p Scope. The reference parameters of \p ReadOnlyCall, when
/// given, are known not to be written (a launcher that only forwards its
/// arguments to a kernel, whose parameters are values).
bool isNeverWrittenIn(const clang::VarDecl *Var, const clang::Stmt *Scope,
                      const clang::CallExpr *ReadOnlyCall = nullptr);

} // namespace warp_tidy

#endif
