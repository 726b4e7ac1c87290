//===--- AstQueries.cpp - Small AST questions every analysis asks ---------===//

#include "AstQueries.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"

using namespace clang;

namespace warp_tidy {

const Expr *stripValue(const Expr *E) {
  while (E) {
    const Expr *Next = E->IgnoreParenImpCasts();
    if (const auto *Cast = dyn_cast<ExplicitCastExpr>(Next))
      Next = Cast->getSubExpr();
    else if (const auto *Temp = dyn_cast<MaterializeTemporaryExpr>(Next))
      Next = Temp->getSubExpr();
    else if (const auto *Cleanups = dyn_cast<ExprWithCleanups>(Next))
      Next = Cleanups->getSubExpr();
    if (Next == E)
      return E;
    E = Next;
  }
  return E;
}

std::optional<int64_t> integerConstant(const Expr *E, const ASTContext &Ctx) {
  if (!E || E->isValueDependent() || E->isTypeDependent())
    return std::nullopt;
  Expr::EvalResult R;
  if (!E->EvaluateAsInt(R, Ctx, Expr::SE_AllowSideEffects))
    return std::nullopt;
  return R.Val.getInt().getExtValue();
}

void forEachStmt(const Stmt *S, const std::function<void(const Stmt *)> &Fn) {
  if (!S)
    return;
  Fn(S);
  for (const Stmt *C : S->children())
    forEachStmt(C, Fn);
}

const FunctionDecl *enclosingFunction(const Stmt *S, ASTContext &Ctx, bool ThroughLambdas) {
  DynTypedNode Node = DynTypedNode::create(*S);
  // Bounded: a parent chain longer than this is not a real function body.
  for (unsigned I = 0; I < 512; ++I) {
    DynTypedNodeList Parents = Ctx.getParents(Node);
    if (Parents.empty())
      return nullptr;
    Node = Parents[0];
    if (const auto *FD = Node.get<FunctionDecl>())
      return FD;
    if (Node.get<LambdaExpr>() && !ThroughLambdas)
      return nullptr;
  }
  return nullptr;
}

} // namespace warp_tidy
