//===--- CallIndex.h - The calls of each function in the unit ---------------===//
//
// Which calls in the unit's own code name a function: a helper's parameter
// is what its callers pass (a `__shared__` array handed to a reduction
// helper as a pointer). Built by one traversal of the traversal scope (the
// unit's own declarations when warp-tidy restricts it; template
// instantiations included) on the first question, and kept for the unit.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_ANALYSIS_CALLINDEX_H
#define WARP_TIDY_ANALYSIS_CALLINDEX_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace clang {
class ASTContext;
class Expr;
class CallExpr;
class DeclRefExpr;
class FunctionDecl;
class ParmVarDecl;
} // namespace clang

namespace warp_tidy {

class CallIndex {
public:
  /// The direct calls of \p FD (by its canonical declaration).
  llvm::ArrayRef<const clang::CallExpr *> callsOf(const clang::FunctionDecl *FD,
                                                  clang::ASTContext &Ctx);
  /// The argument every call in the unit passes for \p P (a template
  /// pattern's parameter: through the calls of its instantiations); nullopt
  /// when the function may be called from another unit (external, not
  /// inline, not a template: under -rdc), is a kernel, writes \p P, or has
  /// no call here.
  std::optional<llvm::SmallVector<const clang::Expr *, 4>>
  argumentsPassedFor(const clang::ParmVarDecl *P, clang::ASTContext &Ctx);
  /// A call that passes a `__shared__` array (decayed to a pointer) for
  /// pointer parameter \p P: that array's reference; null when none does.
  const clang::DeclRefExpr *sharedArrayPassedFor(const clang::ParmVarDecl *P,
                                                 clang::ASTContext &Ctx);
  /// Forget the unit (the AST it indexed is gone).
  void clear() {
    Calls.clear();
    Built = false;
  }

private:
  void build(clang::ASTContext &Ctx);
  bool Built = false;
  llvm::DenseMap<const clang::FunctionDecl *, llvm::SmallVector<const clang::CallExpr *, 2>> Calls;
};

} // namespace warp_tidy

#endif
