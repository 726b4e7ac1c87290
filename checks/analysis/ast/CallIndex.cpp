//===--- CallIndex.cpp - The calls of each function in the unit -------------===//

#include "ast/CallIndex.h"
#include "ast/AstQueries.h"
#include "ast/LocalWrites.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclTemplate.h"
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

std::optional<llvm::SmallVector<const Expr *, 4>>
CallIndex::argumentsPassedFor(const ParmVarDecl *P, ASTContext &Ctx) {
  const auto *FD = dyn_cast<FunctionDecl>(P->getDeclContext());
  if (!FD || FD->hasAttr<CUDAGlobalAttr>() || !FD->getBody())
    return std::nullopt;
  if (!FD->isInlined() && FD->isExternallyVisible() && !FD->isTemplateInstantiation() &&
      !FD->getDescribedFunctionTemplate())
    return std::nullopt;
  const LocalWriteFacts *W = localWritesOf(P);
  if (!W || W->isWrittenAfterInit(P))
    return std::nullopt;
  // A template's pattern runs as its instantiations, which the calls name.
  llvm::SmallVector<const FunctionDecl *, 4> Runs = {FD};
  if (const FunctionTemplateDecl *Template = FD->getDescribedFunctionTemplate())
    Runs.assign(Template->specializations().begin(), Template->specializations().end());
  llvm::SmallVector<const Expr *, 4> Args;
  for (const FunctionDecl *Run : Runs)
    for (const CallExpr *Call : callsOf(Run, Ctx)) {
      const Expr *Arg = argumentForParameter(Call, Run, P->getFunctionScopeIndex());
      if (!Arg)
        return std::nullopt;
      Args.push_back(Arg);
    }
  if (Args.empty())
    return std::nullopt;
  return Args;
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
