//===--- CheckMatchers.h - AST matchers shared by the checks --------------===//
//
// Narrowing matchers every check's callExpr matcher applies, so that the
// rule they stand for is written once.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_ANALYSIS_CHECKMATCHERS_H
#define WARP_TIDY_ANALYSIS_CHECKMATCHERS_H

#include "AstQueries.h"
#include "UnitParents.h"
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
/// from the unit's parent index (UnitParents.h) instead of clang's parent
/// map. Like forCallable it follows the last parent at each step, so a
/// statement an instantiation shares with its template's pattern is
/// attributed to the latest instantiation, not to the dependent pattern.
AST_MATCHER_P(clang::Stmt, forEnclosingCallable, clang::ast_matchers::internal::Matcher<clang::Decl>,
              InnerMatcher) {
  clang::ASTContext &Ctx = Finder->getASTContext();
  clang::DynTypedNode Current = lastParent(clang::DynTypedNode::create(Node), Ctx);
  // Bounded like enclosingFunction.
  for (unsigned Steps = 0; Steps < 512 && !isNone(Current); ++Steps) {
    if (const auto *Function = Current.get<clang::FunctionDecl>())
      return InnerMatcher.matches(*Function, Finder, Builder);
    if (const auto *Lambda = Current.get<clang::LambdaExpr>())
      return InnerMatcher.matches(*Lambda->getCallOperator(), Finder, Builder);
    Current = lastParent(Current, Ctx);
  }
  return false;
}

} // namespace warp_tidy

#endif
