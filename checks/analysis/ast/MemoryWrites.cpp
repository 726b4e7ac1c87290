//===--- MemoryWrites.cpp - Which memory a function may write --------------===//

#include "ast/MemoryWrites.h"
#include "ast/AstQueries.h"
#include "ast/LocalWrites.h"
#include "ast/UnitContext.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

using namespace clang;

namespace warp_tidy {
namespace {

/// The roots each body writes through, per unit.
struct MemoryWriteIndex {
  llvm::DenseMap<const FunctionDecl *, llvm::DenseSet<const VarDecl *>> Written;
};

/// A pointer or reference parameter type through which a callee may write.
bool mayWriteThrough(QualType Param) {
  if (Param.isNull())
    return true; // a variadic argument
  if (Param->isPointerType() || Param->isReferenceType())
    return !Param->getPointeeType().isConstQualified();
  return false;
}

void noteCallWrites(const CallExpr *Call, llvm::DenseSet<const VarDecl *> &Out) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
    const Expr *Arg = Call->getArg(I);
    if (!Arg->getType()->isPointerType() && !Arg->isGLValue())
      continue;
    QualType Param;
    if (Callee && I < Callee->getNumParams())
      Param = Callee->getParamDecl(I)->getType();
    bool Unknown = !Callee;
    if ((Unknown || mayWriteThrough(Param)) && Arg->getType()->isPointerType())
      if (const VarDecl *Root = memoryRoot(Arg))
        Out.insert(Root);
  }
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call))
    if (const CXXMethodDecl *Method = Member->getMethodDecl(); Method && !Method->isConst())
      if (const VarDecl *Root = memoryRoot(Member->getImplicitObjectArgument()))
        Out.insert(Root);
}

llvm::DenseSet<const VarDecl *> rootsWrittenIn(const Stmt *Body) {
  llvm::DenseSet<const VarDecl *> Out;
  forEachStore(Body, nullptr, [&](const Expr *LValue, const GCCAsmStmt *, unsigned) {
    if (const VarDecl *Root = memoryRoot(LValue))
      Out.insert(Root);
  });
  forEachStmt(Body, [&](const Stmt *S) {
    if (const auto *Call = dyn_cast<CallExpr>(S))
      noteCallWrites(Call, Out);
  });
  return Out;
}

} // namespace

const VarDecl *memoryRoot(const Expr *E) {
  for (unsigned Steps = 0; E && Steps < 32; ++Steps) {
    E = E->IgnoreParens();
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
      return dyn_cast<VarDecl>(Ref->getDecl());
    if (const auto *Sub = dyn_cast<ArraySubscriptExpr>(E)) {
      E = Sub->getBase();
    } else if (const auto *Member = dyn_cast<MemberExpr>(E)) {
      E = Member->getBase();
    } else if (const auto *Cast = dyn_cast<CastExpr>(E)) {
      E = Cast->getSubExpr();
    } else if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      if (UO->getOpcode() != UO_Deref && UO->getOpcode() != UO_AddrOf)
        return nullptr;
      E = UO->getSubExpr();
    } else if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      if (!BO->isAdditiveOp())
        return nullptr;
      E = BO->getLHS()->getType()->isPointerType() ? BO->getLHS() : BO->getRHS();
    } else {
      return nullptr;
    }
  }
  return nullptr;
}

bool callMayWriteThrough(const CallExpr *Call, const VarDecl *Root) {
  llvm::DenseSet<const VarDecl *> Written;
  noteCallWrites(Call, Written);
  return Written.contains(Root);
}

bool writesThrough(const FunctionDecl *FD, const VarDecl *Root, ASTContext &Ctx) {
  if (!FD || !FD->getBody())
    return true;
  auto &Index = UnitContext::of(Ctx).get<MemoryWriteIndex>();
  auto [It, New] = Index.Written.try_emplace(FD);
  if (New)
    It->second = rootsWrittenIn(FD->getBody());
  return It->second.count(Root) != 0;
}

bool isUnchangingMemory(const Expr *LValue, const FunctionDecl *FD, ASTContext &Ctx) {
  QualType T = LValue->getType();
  if (T.isVolatileQualified())
    return false;
  if (T.isConstQualified())
    return true;
  const VarDecl *Root = memoryRoot(LValue);
  return Root && !Root->getType().isVolatileQualified() && !writesThrough(FD, Root, Ctx);
}

} // namespace warp_tidy
