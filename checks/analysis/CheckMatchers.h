//===--- CheckMatchers.h - AST matchers shared by the checks --------------===//
//
// Narrowing matchers every check's callExpr matcher applies, so that the
// rule they stand for is written once.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_ANALYSIS_CHECKMATCHERS_H
#define WARP_TIDY_ANALYSIS_CHECKMATCHERS_H

#include "AstQueries.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchers.h"

namespace warp_tidy {

/// Matches statements in a discarded `if constexpr` branch: code the
/// compiler never instantiates or compiles, so nothing in it is reported.
AST_MATCHER(clang::Stmt, isInDiscardedConstexprBranch) {
  return isInDiscardedBranch(&Node, Finder->getASTContext());
}

/// Matches a statement whose enclosing function (a lambda's call operator
/// inside a lambda) matches \p InnerMatcher: clang's `forCallable`, answered
/// by enclosingCallable() from the unit's parent index (UnitParents.h)
/// instead of clang's parent map. The index is built for the whole unit on
/// the first question, so a matcher that would ask for most calls of a
/// unit asks in its check instead, after its own cheap filters.
AST_MATCHER_P(clang::Stmt, forEnclosingCallable, clang::ast_matchers::internal::Matcher<clang::Decl>,
              InnerMatcher) {
  const clang::FunctionDecl *Function = enclosingCallable(&Node, Finder->getASTContext());
  return Function && InnerMatcher.matches(*Function, Finder, Builder);
}

} // namespace warp_tidy

#endif
