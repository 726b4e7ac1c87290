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

#include "clang/AST/OperationKinds.h"
#include "llvm/ADT/APSInt.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace clang {
class ASTContext;
class CallExpr;
class Expr;
class FunctionDecl;
class IfStmt;
class Stmt;
} // namespace clang

namespace warp_tidy {

/// \p E without parentheses, implicit and explicit casts, temporaries,
/// cleanups and the braces of a scalar's list initialisation (`T x{e}`):
/// the value as written.
const clang::Expr *stripValue(const clang::Expr *E);

/// The integer value of \p E when the language can fold it (side effects
/// allowed, as in `f(), 4`); nullopt for dependent or runtime values. The
/// one constant folder of the analyses: every other integer question
/// (integerConstant, masks, collective operands, the symbolic translator)
/// goes through it.
std::optional<llvm::APSInt> foldInteger(const clang::Expr *E, const clang::ASTContext &Ctx);

/// foldInteger's value when it fits in a signed 64-bit integer.
std::optional<int64_t> integerConstant(const clang::Expr *E, const clang::ASTContext &Ctx);

/// `A Op B` for a comparison operator \p Op (<, <=, >, >=, ==, !=); nullopt
/// for any other operator.
std::optional<bool> compareIntegers(clang::BinaryOperatorKind Op, int64_t A, int64_t B);

/// The branch of \p S that the compiler discards: for `if constexpr` whose
/// condition is known (not template-dependent), the substatement not taken
/// (null when that branch is absent); null for every other statement. A
/// discarded statement is never instantiated or compiled, so no analysis
/// may look into it (in template instantiations clang has already replaced
/// it by an empty block; in ordinary functions and template patterns it is
/// still in the AST).
const clang::Stmt *discardedBranch(const clang::Stmt *S);

/// True for the four loop statements (for, range-for, while, do).
bool isLoopStmt(const clang::Stmt *S);

/// Calls \p Fn on \p S and every statement below it, pre-order, skipping
/// discarded `if constexpr` branches. (A function_ref, not a std::function:
/// the analyses walk every body several times, and the call per node shows.)
void forEachStmt(const clang::Stmt *S, llvm::function_ref<void(const clang::Stmt *)> Fn);

/// True when \p FD is the toolchain's own: a compiler builtin, or declared
/// in a system header (clang's CUDA wrapper headers, the CUDA toolkit's
/// headers, CCCL). The intrinsic table and the lists of thread-varying
/// sources name CUDA's functions; a project's function that happens to share
/// a name (`float4 __shfl_down(float4, unsigned)` built on
/// `__shfl_down_sync`, an `atomicAggInc`) is code to analyse, not a stand-in
/// for the intrinsic.
bool isToolchainDeclaration(const clang::FunctionDecl *FD);

/// The function whose body contains \p S; null outside any function, and
/// inside a lambda (whose callers are not the enclosing function's) unless
/// \p ThroughLambdas asks for the function around the lambda.
const clang::FunctionDecl *enclosingFunction(const clang::Stmt *S, clang::ASTContext &Ctx,
                                             bool ThroughLambdas = false);

/// The function whose body holds \p S, a lambda's call operator included:
/// what clang's `forCallable` matcher finds, following the last parent at
/// each step, so a statement an instantiation shares with its template's
/// pattern is attributed to the latest instantiation, not to the dependent
/// pattern. Null outside any function.
const clang::FunctionDecl *enclosingCallable(const clang::Stmt *S, clang::ASTContext &Ctx);

/// The index of the argument of \p Call bound to the first parameter of its
/// callee \p Callee: 1 for a member operator call (`op(a, b)`, `x = y`),
/// whose argument 0 is the object, and 0 otherwise. Parameter P is bound to
/// argument P + this.
unsigned firstParameterArgument(const clang::CallExpr *Call, const clang::FunctionDecl *Callee);

/// The argument of \p Call bound to parameter \p P of \p Callee (a defaulted
/// one as its CXXDefaultArgExpr); null past the arguments.
const clang::Expr *argumentForParameter(const clang::CallExpr *Call,
                                        const clang::FunctionDecl *Callee, unsigned P);

} // namespace warp_tidy

#endif
