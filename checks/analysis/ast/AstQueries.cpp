//===--- AstQueries.cpp - Small AST questions every analysis asks ---------===//

#include "ast/AstQueries.h"
#include "ast/UnitParents.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

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
    else if (const auto *List = dyn_cast<InitListExpr>(Next);
             List && List->getNumInits() == 1 && List->getType()->isScalarType())
      // `const unsigned tidx{threadIdx.x}`: a scalar's braces hold its value.
      Next = List->getInit(0);
    if (Next == E)
      return E;
    E = Next;
  }
  return E;
}

/// False when folding \p E certainly fails: an operand of its arithmetic
/// reads a parameter or a variable that is neither const nor constexpr, which
/// the constant evaluator never reads outside a call it is evaluating, and
/// arithmetic, bitwise and comparison operators, negation and value casts
/// fail when an operand does; so does a call of a function that is neither
/// constexpr nor a builtin (`threadIdx.x` reads through one). Everything else
/// (other calls, `&&`, `||`, `?:` and the comma, which may short-circuit,
/// subscripts, members) may fold; the evaluator decides. The analyses fold
/// every subexpression they translate, and most read a thread index or a
/// loop variable: this answers those without building the evaluator's state.
static bool mayFold(const Expr *E) {
  for (unsigned Depth = 0; E && Depth < 64; ++Depth) {
    E = E->IgnoreParens();
    if (const auto *Cast = dyn_cast<CastExpr>(E)) {
      switch (Cast->getCastKind()) {
      case CK_LValueToRValue:
      case CK_NoOp:
      case CK_IntegralCast:
      case CK_IntegralToBoolean:
      case CK_BooleanToSignedIntegral:
        E = Cast->getSubExpr();
        continue;
      default:
        return true;
      }
    }
    if (const auto *U = dyn_cast<UnaryOperator>(E)) {
      switch (U->getOpcode()) {
      case UO_Plus:
      case UO_Minus:
      case UO_Not:
      case UO_LNot:
        E = U->getSubExpr();
        continue;
      default:
        return true;
      }
    }
    if (const auto *B = dyn_cast<BinaryOperator>(E)) {
      if (B->isLogicalOp() || B->isCommaOp() || B->isAssignmentOp() || B->isPtrMemOp())
        return true;
      if (!mayFold(B->getLHS()))
        return false;
      E = B->getRHS();
      continue;
    }
    // `threadIdx.x`: a property whose getter is a call.
    if (const auto *Pseudo = dyn_cast<PseudoObjectExpr>(E)) {
      E = Pseudo->getResultExpr();
      continue;
    }
    // A call of a function that is not constexpr (nor a builtin the
    // evaluator knows) is never evaluated.
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      const FunctionDecl *Callee = Call->getDirectCallee();
      return !Callee || Callee->isConstexpr() || Callee->getBuiltinID() != 0;
    }
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
      const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
      if (!Var || Var->getType()->isReferenceType())
        return true;
      if (isa<ParmVarDecl>(Var))
        return false;
      return Var->isConstexpr() || Var->getType().isConstQualified();
    }
    return true;
  }
  return true;
}

std::optional<llvm::APSInt> foldInteger(const Expr *E, const ASTContext &Ctx) {
  if (!E || E->isValueDependent() || E->isTypeDependent() || !mayFold(E))
    return std::nullopt;
  Expr::EvalResult R;
  if (!E->EvaluateAsInt(R, Ctx, Expr::SE_AllowSideEffects) || !R.Val.isInt())
    return std::nullopt;
  return R.Val.getInt();
}

std::optional<bool> compareIntegers(BinaryOperatorKind Op, int64_t A, int64_t B) {
  switch (Op) {
  case BO_LT:
    return A < B;
  case BO_LE:
    return A <= B;
  case BO_GT:
    return A > B;
  case BO_GE:
    return A >= B;
  case BO_EQ:
    return A == B;
  case BO_NE:
    return A != B;
  default:
    return std::nullopt;
  }
}

std::optional<int64_t> integerConstant(const Expr *E, const ASTContext &Ctx) {
  std::optional<llvm::APSInt> V = foldInteger(E, Ctx);
  if (!V || V->getSignificantBits() > 64)
    return std::nullopt;
  return V->getExtValue();
}

const Stmt *discardedBranch(const Stmt *S) {
  const auto *If = dyn_cast_or_null<IfStmt>(S);
  if (!If || !If->isConstexpr())
    return nullptr;
  // Sema folds a non-dependent `if constexpr` condition into a ConstantExpr
  // holding its value; a dependent one is decided per instantiation.
  const auto *Cond = dyn_cast_or_null<ConstantExpr>(If->getCond());
  if (!Cond || Cond->isValueDependent() || Cond->getResultAPValueKind() != APValue::Int)
    return nullptr;
  return Cond->getResultAsAPSInt().getBoolValue() ? If->getElse() : If->getThen();
}

bool isLoopStmt(const Stmt *S) { return isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S); }

void forEachStmt(const Stmt *S, llvm::function_ref<void(const Stmt *)> Fn) {
  if (!S)
    return;
  Fn(S);
  const Stmt *Discarded = isa<IfStmt>(S) ? discardedBranch(S) : nullptr;
  for (const Stmt *C : S->children())
    if (C && C != Discarded)
      forEachStmt(C, Fn);
}

bool isToolchainDeclaration(const FunctionDecl *FD) {
  if (!FD)
    return false;
  // Builtins (`__nvvm_atom_*`, `__atomic_*`) are declared implicitly, at
  // the location of their first use, which may well be the user's file.
  if (FD->getBuiltinID() != 0)
    return true;
  const SourceManager &SM = FD->getASTContext().getSourceManager();
  // Any declaration in a system header makes it the toolchain's: a project
  // may redeclare CUDA's function, but that is still the same function.
  for (const FunctionDecl *Redecl : FD->redecls()) {
    SourceLocation Loc = Redecl->getLocation();
    if (Loc.isValid() && SM.isInSystemHeader(Loc))
      return true;
  }
  // A template's instantiation is declared where its pattern is.
  if (const FunctionDecl *Pattern = FD->getTemplateInstantiationPattern())
    if (Pattern != FD)
      return isToolchainDeclaration(Pattern);
  return false;
}

const FunctionDecl *enclosingFunction(const Stmt *S, ASTContext &Ctx, bool ThroughLambdas) {
  DynTypedNode Node = DynTypedNode::create(*S);
  // Bounded: a parent chain longer than this is not a real function body.
  for (unsigned I = 0; I < 512; ++I) {
    Node = firstParent(Node, Ctx);
    if (isNone(Node))
      return nullptr;
    if (const auto *FD = Node.get<FunctionDecl>())
      return FD;
    if (Node.get<LambdaExpr>() && !ThroughLambdas)
      return nullptr;
  }
  return nullptr;
}

const FunctionDecl *enclosingCallable(const Stmt *S, ASTContext &Ctx) {
  DynTypedNode Current = lastParent(DynTypedNode::create(*S), Ctx);
  // Bounded like enclosingFunction.
  for (unsigned Steps = 0; Steps < 512 && !isNone(Current); ++Steps) {
    if (const auto *Function = Current.get<FunctionDecl>())
      return Function;
    if (const auto *Lambda = Current.get<LambdaExpr>())
      return Lambda->getCallOperator();
    Current = lastParent(Current, Ctx);
  }
  return nullptr;
}

unsigned firstParameterArgument(const CallExpr *Call, const FunctionDecl *Callee) {
  return isa<CXXOperatorCallExpr>(Call) && isa<CXXMethodDecl>(Callee) ? 1 : 0;
}

const Expr *argumentForParameter(const CallExpr *Call, const FunctionDecl *Callee, unsigned P) {
  unsigned A = P + firstParameterArgument(Call, Callee);
  return A < Call->getNumArgs() ? Call->getArg(A) : nullptr;
}

} // namespace warp_tidy
