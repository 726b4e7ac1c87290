//===--- CheckMatchers.h - AST matchers shared by the checks --------------===//
//
// Narrowing matchers every check's callExpr matcher applies, so that the
// rule they stand for is written once.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_ANALYSIS_CHECKMATCHERS_H
#define WARP_TIDY_ANALYSIS_CHECKMATCHERS_H

#include "AstQueries.h"
#include "clang/ASTMatchers/ASTMatchers.h"

namespace warp_tidy {

/// Matches statements in a discarded `if constexpr` branch: code the
/// compiler never instantiates or compiles, so nothing in it is reported.
AST_MATCHER(clang::Stmt, isInDiscardedConstexprBranch) {
  return isInDiscardedBranch(&Node, Finder->getASTContext());
}

} // namespace warp_tidy

#endif
