//===--- CheckMatchers.h - AST matchers shared by the checks --------------===//
//
// Narrowing matchers every check's callExpr matcher applies, so that the
// rule they stand for is written once.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_ANALYSIS_CHECKMATCHERS_H
#define WARP_TIDY_ANALYSIS_CHECKMATCHERS_H

#include "ast/AstQueries.h"
#include "ast/DiscardedBranches.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "llvm/ADT/StringSet.h"
#include <initializer_list>
#include <memory>
#include <vector>

namespace warp_tidy {

/// The unqualified names a call matcher accepts (no `::` in any of them).
class CalleeNames {
public:
  CalleeNames(llvm::ArrayRef<llvm::StringRef> Names);
  CalleeNames(const std::vector<llvm::StringRef> &Names)
      : CalleeNames(llvm::ArrayRef<llvm::StringRef>(Names)) {}
  CalleeNames(std::initializer_list<llvm::StringRef> Names)
      : CalleeNames(llvm::ArrayRef<llvm::StringRef>(Names)) {}

  bool contains(llvm::StringRef Name) const { return Names->contains(Name); }

private:
  std::shared_ptr<const llvm::StringSet<>> Names;
};

/// The function a call names, as clang's `callee(functionDecl(...))` sees it
/// (the callee declaration, skipped as that matcher skips it when the
/// traversal ignores implicit nodes); null when it is not a function.
const clang::FunctionDecl *
matchedCalleeFunction(const clang::CallExpr &Call,
                      clang::ast_matchers::internal::ASTMatchFinder &Finder);

/// Matches what `callee(functionDecl(hasAnyName(Names)))` matches for names
/// without a scope: a call whose callee declaration is a function with one of
/// \p Names as its identifier. Every check's call matcher runs on every call
/// of the unit; clang's composition builds a fresh `callExpr(hasDeclaration(
/// ...))` matcher for each call it tests, which made the matchers a larger
/// share of a unit's cost than the checks.
AST_MATCHER_P(clang::CallExpr, calleeNamedAnyOf, CalleeNames, Names) {
  const clang::FunctionDecl *Function = matchedCalleeFunction(Node, *Finder);
  return Function && Function->getIdentifier() && Names.contains(Function->getName());
}

/// Matches what `callee(functionDecl(hasBody(stmt())))` matches: a call whose
/// callee declaration is a function definition, this declaration having the
/// body (a call through an earlier declaration does not match).
AST_MATCHER(clang::CallExpr, calleeIsDefinitionWithBody) {
  const clang::FunctionDecl *Function = matchedCalleeFunction(Node, *Finder);
  return Function && Function->doesThisDeclarationHaveABody() && Function->getBody();
}

/// Matches what `functionDecl(isDefinition(), unless(isExpansionInSystemHeader()))`
/// matches, in one step: this declaration is the function's definition, and
/// it does not begin (where its first token expands) in a system header. The
/// checks that analyse whole functions all register it, and it runs on every
/// function of the unit, every instantiation included.
AST_MATCHER(clang::FunctionDecl, isProjectFunctionDefinition) {
  if (!Node.isThisDeclarationADefinition())
    return false;
  const clang::SourceManager &SM = Finder->getASTContext().getSourceManager();
  clang::SourceLocation Expansion = SM.getExpansionLoc(Node.getBeginLoc());
  return Expansion.isInvalid() || !SM.isInSystemHeader(Expansion);
}

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
AST_MATCHER_P(clang::Stmt, forEnclosingCallable,
              clang::ast_matchers::internal::Matcher<clang::Decl>, InnerMatcher) {
  const clang::FunctionDecl *Function = enclosingCallable(&Node, Finder->getASTContext());
  return Function && InnerMatcher.matches(*Function, Finder, Builder);
}

} // namespace warp_tidy

#endif
