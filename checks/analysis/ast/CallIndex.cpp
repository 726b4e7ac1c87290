//===--- CallIndex.cpp - The calls of each function in the unit -------------===//

#include "ast/CallIndex.h"
#include "ast/AstQueries.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace warp_tidy {
namespace {
struct CallCollector : RecursiveASTVisitor<CallCollector> {
  llvm::DenseMap<const FunctionDecl *, llvm::SmallVector<const CallExpr *, 2>> &Calls;
  explicit CallCollector(decltype(Calls) &Calls) : Calls(Calls) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }
  bool VisitCallExpr(CallExpr *Call) {
    if (const FunctionDecl *Callee = Call->getDirectCallee())
      Calls[Callee->getCanonicalDecl()].push_back(Call);
    return true;
  }
};
} // namespace

void CallIndex::build(ASTContext &Ctx) {
  Built = true;
  CallCollector Collector(Calls);
  for (Decl *D : Ctx.getTraversalScope())
    Collector.TraverseDecl(D);
}

llvm::ArrayRef<const CallExpr *> CallIndex::callsOf(const FunctionDecl *FD, ASTContext &Ctx) {
  if (!Built)
    build(Ctx);
  auto It = Calls.find(FD->getCanonicalDecl());
  if (It == Calls.end())
    return {};
  return It->second;
}

const DeclRefExpr *CallIndex::sharedArrayPassedFor(const ParmVarDecl *P, ASTContext &Ctx) {
  const auto *FD = dyn_cast<FunctionDecl>(P->getDeclContext());
  if (!FD)
    return nullptr;
  for (const CallExpr *Call : callsOf(FD, Ctx)) {
    const Expr *Arg = argumentForParameter(Call, FD, P->getFunctionScopeIndex());
    const auto *Ref = Arg ? dyn_cast<DeclRefExpr>(Arg->IgnoreParenImpCasts()) : nullptr;
    const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    if (Var && Var->hasAttr<CUDASharedAttr>() && Var->getType()->isArrayType())
      return Ref;
  }
  return nullptr;
}

} // namespace warp_tidy
