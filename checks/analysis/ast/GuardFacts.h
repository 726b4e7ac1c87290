//===--- GuardFacts.h - Conditions known to hold at a statement -----------===//
//
// Both guard checks ask the same question: "at this expression, which
// conditions are known to hold?" A condition holds when the expression sits
// in the then-branch of an `if` (or its negation in the else-branch), in an
// arm of `?:`, on the right of `&&`/`||`, or after an earlier
// `if (c) return/continue/break;` in an enclosing block. This is a
// syntactic, path-insensitive approximation: it never claims a fact that is
// not guaranteed by the enclosing structure, so checks that *stay silent*
// when a fact is found are conservative.
//
// Facts are split into relational atoms and normalised to `Small < Large` or
// `Small <= Large`, so that `lane >= off`, `off <= lane`, `!(lane < off)` and
// the else-branch of `if (lane < off)` all read the same.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_ANALYSIS_GUARDFACTS_H
#define WARP_TIDY_ANALYSIS_GUARDFACTS_H

#include "ast/AstQueries.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

namespace clang {
class ASTContext;
class Decl;
class Expr;
class Stmt;
} // namespace clang

namespace warp_tidy {

/// A condition and whether it is known true (Holds) or known false there.
struct Fact {
  const clang::Expr *Cond = nullptr;
  bool Holds = true;
};

/// `Small < Large` (Strict) or `Small <= Large`.
struct Comparison {
  const clang::Expr *Small = nullptr;
  const clang::Expr *Large = nullptr;
  bool Strict = false;
  const clang::Expr *Written = nullptr; ///< The comparison as written.
};

/// Facts holding at \p S, innermost first, up to (not including) \p Limit
/// (or the enclosing function body when \p Limit is null).
llvm::SmallVector<Fact, 8> factsAt(const clang::Stmt *S, clang::ASTContext &Ctx,
                                   const clang::Stmt *Limit = nullptr);

/// Splits \p F into the relational comparisons it guarantees (through `&&`,
/// `||` under negation, `!`, and write-once boolean variables) and calls
/// \p Fn for each one.
void forEachComparison(const Fact &F, const clang::ASTContext &Ctx,
                       llvm::function_ref<void(const Comparison &)> Fn);

/// The guarantees of \p E as a value used arithmetically: `t * (lane >= d)`
/// is non-zero only where the comparison holds.
void forEachComparisonOfPredicate(const clang::Expr *E, const clang::ASTContext &Ctx,
                                  llvm::function_ref<void(const Comparison &)> Fn);

/// True when \p A and \p B are the same expression: the same variable,
/// member chain, constant value or structurally identical arithmetic.
bool sameValue(const clang::Expr *A, const clang::Expr *B, const clang::ASTContext &Ctx);

/// The parent statement of \p S. With \p ViaDecl, a declaration in between
/// (an initialiser's VarDecl) stops the walk and is returned there; without
/// it, the walk continues to the DeclStmt. Shared by the scan and partials
/// analyses.
const clang::Stmt *parentStmt(const clang::Stmt *S, clang::ASTContext &Ctx,
                              const clang::Decl **ViaDecl = nullptr);

} // namespace warp_tidy

#endif
