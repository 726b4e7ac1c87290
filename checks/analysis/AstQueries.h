//===--- AstQueries.h - Small AST questions every analysis asks -----------===//
//
// The constant value of an expression, a walk over a statement tree, the
// function a statement belongs to: asked by the scan, partials and
// shuffle-source analyses alike, so answered once here.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_ANALYSIS_ASTQUERIES_H
#define WARP_TIDY_ANALYSIS_ASTQUERIES_H

#include <cstdint>
#include <functional>
#include <optional>

namespace clang {
class ASTContext;
class Expr;
class FunctionDecl;
class Stmt;
} // namespace clang

namespace warp_tidy {

/// \p E without parentheses, implicit and explicit casts, temporaries and
/// cleanups: the value as written.
const clang::Expr *stripValue(const clang::Expr *E);

/// The integer value of \p E when the language can fold it (side effects
/// allowed, as in `f(), 4`); nullopt for dependent or runtime values.
std::optional<int64_t> integerConstant(const clang::Expr *E, const clang::ASTContext &Ctx);

/// Calls \p Fn on \p S and every statement below it, pre-order.
void forEachStmt(const clang::Stmt *S, const std::function<void(const clang::Stmt *)> &Fn);

/// The function whose body contains \p S; null outside any function, and
/// inside a lambda (whose callers are not the enclosing function's) unless
/// \p ThroughLambdas asks for the function around the lambda.
const clang::FunctionDecl *enclosingFunction(const clang::Stmt *S, clang::ASTContext &Ctx,
                                             bool ThroughLambdas = false);

} // namespace warp_tidy

#endif
