//===--- UserCodeScope.cpp - Traverse the project's code, not the system's ===//

#include "UserCodeScope.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/MultiplexConsumer.h"

using namespace clang;

namespace warp_tidy {

namespace {

class UserCodeScopeConsumer : public ASTConsumer {
public:
  void HandleTranslationUnit(ASTContext &Ctx) override {
    const SourceManager &SM = Ctx.getSourceManager();
    std::vector<Decl *> Scope = Ctx.getTraversalScope();
    // The whole unit: its top-level declarations stand for it. (A scope an
    // earlier consumer narrowed, after a PCH, is filtered as it is.)
    if (Scope.size() == 1 && isa<TranslationUnitDecl>(Scope.front())) {
      auto *TU = cast<TranslationUnitDecl>(Scope.front());
      Scope.assign(TU->decls_begin(), TU->decls_end());
    }
    std::vector<Decl *> User;
    User.reserve(Scope.size());
    for (Decl *D : Scope) {
      SourceLocation Loc = D->getLocation();
      // Implicit declarations have no place; they stay (nothing to drop).
      if (Loc.isInvalid() || !SM.isInSystemHeader(SM.getExpansionLoc(Loc)))
        User.push_back(D);
    }
    Ctx.setTraversalScope(User);
  }
};

} // namespace

std::unique_ptr<ASTConsumer> withUserCodeScope(std::unique_ptr<ASTConsumer> Checks,
                                               bool SystemHeaders) {
  if (SystemHeaders || !Checks)
    return Checks;
  std::vector<std::unique_ptr<ASTConsumer>> Consumers;
  Consumers.push_back(std::make_unique<UserCodeScopeConsumer>());
  Consumers.push_back(std::move(Checks));
  return std::make_unique<MultiplexConsumer>(std::move(Consumers));
}

} // namespace warp_tidy
