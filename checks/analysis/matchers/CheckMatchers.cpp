//===--- CheckMatchers.cpp - AST matchers shared by the checks ------------===//

#include "matchers/CheckMatchers.h"
#include <cassert>

using namespace clang;

namespace warp_tidy {

CalleeNames::CalleeNames(llvm::ArrayRef<llvm::StringRef> List) {
  auto Set = std::make_shared<llvm::StringSet<>>();
  for (llvm::StringRef Name : List) {
    // hasAnyName compares a qualified name with the declaration's qualified
    // name; these names are only ever compared with the identifier.
    assert(!Name.contains("::") && "a scoped name needs hasAnyName");
    Set->insert(Name);
  }
  Names = std::move(Set);
}

const FunctionDecl *matchedCalleeFunction(const CallExpr &Call,
                                          ast_matchers::internal::ASTMatchFinder &Finder) {
  const Decl *Callee = Call.getCalleeDecl();
  if (!Callee || (Finder.isTraversalIgnoringImplicitNodes() && Callee->isImplicit()))
    return nullptr;
  return dyn_cast<FunctionDecl>(Callee);
}

} // namespace warp_tidy
