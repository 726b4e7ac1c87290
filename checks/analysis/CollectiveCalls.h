//===--- CollectiveCalls.h - Recognise warp collectives in the AST --------===//
//
// Maps a clang CallExpr onto the intrinsic table. Free CUDA intrinsics are
// recognised by name among the toolchain's own declarations (a builtin or a
// system header: clang's CUDA headers, the CUDA toolkit); a project's
// function of the same name is a helper, analysed through its body. wmma functions by their enclosing `wmma` namespace;
// cooperative-groups tile members by the class they are declared in (CUDA's
// implementation spreads them over several base classes of
// `thread_block_tile`, so the recogniser normalises those names).
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_ANALYSIS_COLLECTIVECALLS_H
#define WARP_TIDY_ANALYSIS_COLLECTIVECALLS_H

#include "WarpIntrinsics.h"
#include <cstdint>
#include <optional>

namespace clang {
class ASTContext;
class CallExpr;
class Expr;
class FunctionDecl;
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
std::optional<uint32_t> evaluateMask(const clang::Expr *Mask,
                                     const clang::ASTContext &Ctx);

} // namespace warp_tidy

#endif
