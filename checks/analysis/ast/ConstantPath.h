//===--- ConstantPath.h - The return a body reaches on constants ----------===//
//
// Helpers that select their answer by a template constant
// (`switch (dim) { case 1: return threadIdx.x; case 2: ... } return -1;`,
// `if (dim == 0) { return blockDim.x; }`) compute one expression in each
// instantiation: every branch on the way is decided at compile time. The
// analyses that read a helper as the expression it returns ask here for
// that expression, instead of requiring the body to be a lone `return`.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_ANALYSIS_CONSTANTPATH_H
#define WARP_TIDY_ANALYSIS_CONSTANTPATH_H

#include "llvm/ADT/SmallVector.h"

namespace clang {
class DeclStmt;
class Expr;
class FunctionDecl;
class ReturnStmt;
} // namespace clang

namespace warp_tidy {

/// The statements a function body runs, in order, when every `if` and
/// `switch` on the way is decided by a constant of the instantiation.
struct ConstantPath {
  /// The return the body reaches; null when a branch depends on a run-time
  /// value, a loop or jump is on the way, or a statement other than a
  /// declaration or an expression without effects (`(void)item;`) runs.
  const clang::ReturnStmt *Return = nullptr;
  /// The declarations run before it, in order.
  llvm::SmallVector<const clang::DeclStmt *, 4> Declarations;
};

/// The constant path of \p Def's body. Template patterns (dependent code)
/// have none: their branches are decided per instantiation.
ConstantPath constantPath(const clang::FunctionDecl *Def);

/// The expression \p FD's definition returns when its body declares nothing
/// and decides its branches by constants (`{ return threadIdx.x & 31; }`);
/// null for any other body.
const clang::Expr *onlyReturnedExpr(const clang::FunctionDecl *FD);

} // namespace warp_tidy

#endif
