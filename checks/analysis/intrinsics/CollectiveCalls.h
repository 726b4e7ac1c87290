//===--- CollectiveCalls.h - Recognise warp collectives in the AST --------===//
//
// Maps a clang CallExpr onto the intrinsic table. Free CUDA intrinsics are
// recognised by name among the toolchain's own declarations (a builtin or a
// system header: clang's CUDA headers, the CUDA toolkit); a project's
// function of the same name is a helper, analysed through its body. wmma functions by their
// enclosing `wmma` namespace; cooperative-groups tile members by the class they are declared in
// (CUDA's implementation spreads them over several base classes of `thread_block_tile`, so the
// recogniser normalises those names).
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_ANALYSIS_COLLECTIVECALLS_H
#define WARP_TIDY_ANALYSIS_COLLECTIVECALLS_H

#include "intrinsics/WarpIntrinsics.h"
#include <cstdint>
#include <optional>

namespace clang {
class ASTContext;
class CallExpr;
class Expr;
class FunctionDecl;
class VarDecl;
} // namespace clang

namespace warp_tidy {

/// A call recognised as a warp collective.
struct CollectiveCall {
  const clang::CallExpr *Call = nullptr;
  const WarpIntrinsic *Intrinsic = nullptr;

  /// The mask argument as written, or null when the intrinsic has none.
  /// For `__syncwarp()` this is the defaulted argument (full warp).
  const clang::Expr *maskArg() const;
  /// True when the mask was not written (`__syncwarp()`) or the collective
  /// is implicitly warp-wide (wmma, tiles).
  bool hasImplicitFullMask() const;
};

/// Returns the table entry for \p Callee, or null if it is not a collective.
const WarpIntrinsic *classifyCallee(const clang::FunctionDecl *Callee);

/// Recognises \p Call; std::nullopt when it is not a warp collective.
std::optional<CollectiveCall> recogniseCollective(const clang::CallExpr *Call);

/// Folds a mask expression to a constant when the language can: literals,
/// const/constexpr variables, enumerators, macros and constant expressions.
/// Template-dependent or runtime masks give std::nullopt.
std::optional<uint32_t> evaluateMask(const clang::Expr *Mask, const clang::ASTContext &Ctx);

/// The constant value of a mask argument: what evaluateMask folds, plus
/// local variables initialised with a constant and never written or
/// escaping afterwards (`unsigned mask = 0xffffffff;`, `uint32_t m{0};`),
/// followed through a few such copies. Every check that asks "is this mask
/// a constant" asks this, so a mask spelled through a plain local is judged
/// the same everywhere.
std::optional<uint32_t> resolveMaskConstant(const clang::Expr *Mask, const clang::ASTContext &Ctx);

/// The local variable whose initialiser resolveMaskConstant() read for \p
/// Mask, when the mask is not itself a constant expression (a `const`
/// variable counts as one): where a report has to send the user.
const clang::VarDecl *maskConstantThroughLocal(const clang::Expr *Mask,
                                               const clang::ASTContext &Ctx);

/// The size of the cooperative-groups tile \p Object (an expression of type
/// thread_block_tile<N, ...>), or 0 when it is not a statically sized tile.
unsigned tileSizeOf(const clang::Expr *Object);

/// The tile size of a cooperative-groups tile member call or algorithm:
/// from the object (`tile.shfl(...)`, also when the member is static), the
/// first argument (`cg::reduce(tile, ...)`), or the size-templated base class
/// the member is declared in.
unsigned tileSizeOfCall(const clang::CallExpr *Call);

} // namespace warp_tidy

#endif
