//===--- ThreadIndex.h - Recognise CUDA's built-in index variables --------===//
//
// clang implements threadIdx & co. as objects whose fields are
// `__declspec(property)`s, so `threadIdx.x` reaches the AST as a
// PseudoObjectExpr over an MSPropertyRefExpr (nvcc-style headers would give a
// plain MemberExpr). This file hides that detail: everything else asks
// "which built-in is this expression?".
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_ANALYSIS_THREADINDEX_H
#define WARP_TIDY_ANALYSIS_THREADINDEX_H

namespace clang {
class Expr;
class FunctionDecl;
} // namespace clang

namespace warp_tidy {

enum class BuiltinIndex {
  None,
  ThreadIdxX,
  ThreadIdxY,
  ThreadIdxZ,
  BlockIdx, ///< any component
  BlockDimX,
  BlockDimYZ,
  GridDim, ///< any component
  WarpSize,
};

/// Classifies `threadIdx.x`, `blockDim.y`, `warpSize`... (parentheses and
/// implicit casts are looked through). BuiltinIndex::None for anything else.
BuiltinIndex classifyBuiltinIndex(const clang::Expr *E);

/// The component ('x', 'y' or 'z') of a built-in index expression that
/// classifyBuiltinIndex recognises; 0 for anything else (and warpSize).
char builtinIndexComponent(const clang::Expr *E);

/// Calls of CUDA's block-wide reductions of a predicate
/// (`__syncthreads_or/_and/_count`, and the `__nvvm_bar0_*` builtins clang's
/// headers implement them with): every thread of the block gets the same
/// result. Only CUDA's or clang's own declarations count.
bool isBlockUniformResultCall(const clang::FunctionDecl *Callee);

/// Calls whose result differs between the lanes of a warp although their
/// arguments do not: atomics (each lane gets a different old value),
/// random generators, cooperative-groups `thread_rank()`... (not clocks:
/// the lanes that read one together read one value). Only
/// the toolchain's own declarations count (isToolchainDeclaration): a
/// project's function with such a name is analysed through its body.
bool isThreadVaryingSourceCall(const clang::FunctionDecl *Callee);

/// True when \p AsmText reads a per-lane special register (%laneid, %tid,
/// %lanemask_*).
bool isLaneVaryingAsm(const char *AsmText, unsigned Length);

} // namespace warp_tidy

#endif
