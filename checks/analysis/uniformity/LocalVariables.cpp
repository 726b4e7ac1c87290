//===--- LocalVariables.cpp - Locals: aliases, single definitions, writes ---===//
//
// Indexes the function's local variables and parameters for the value
// dataflow, follows references bound to locals (aliases), and finds which
// locals are never written after their initialiser (so indexForm and the
// symbolic view may look through them) and which `mov %laneid` inline
// assembly fills.
// Part of FunctionUniformity::Impl (see FunctionAnalysis.h).
//
//===----------------------------------------------------------------------===//

#include "FunctionAnalysis.h"
#include "analysis/AstQueries.h"
#include "analysis/CollectiveCalls.h"
#include "analysis/SymbolicTerm.h"
#include "analysis/SymbolicTranslation.h"
#include "analysis/ThreadIndex.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"

using namespace clang;

namespace warp_tidy {
using namespace uniformity_detail;

void FunctionUniformity::Impl::addVar(const VarDecl *V, const CFGBlock *B) {
  if (!V->hasLocalStorage() || VarIndex.count(V))
    return;
  VarIndex[V] = VarIndex.size();
  DeclBlock[V] = B;
}

void FunctionUniformity::Impl::indexStatements() {
  const CFGBlock *Entry = &Cfg->getEntry();
  for (const ParmVarDecl *P : FD->parameters())
    addVar(P, Entry);
  for (const CFGBlock *B : *Cfg) {
    for (const CFGElement &E : *B) {
      std::optional<CFGStmt> S = E.getAs<CFGStmt>();
      if (!S)
        continue;
      const Stmt *St = S->getStmt();
      BlockOf.try_emplace(St, B);
      if (const auto *DS = dyn_cast<DeclStmt>(St))
        for (const Decl *D : DS->decls())
          if (const auto *V = dyn_cast<VarDecl>(D)) {
            addVar(V, B);
            DeclPoint.try_emplace(V, DS);
            // A reference bound to a local is that local.
            if (V->getType()->isReferenceType() && V->getInit())
              if (const auto *Ref =
                      dyn_cast<DeclRefExpr>(V->getInit()->IgnoreParenImpCasts()))
                if (const auto *T = dyn_cast<VarDecl>(Ref->getDecl()))
                  if (T->hasLocalStorage())
                    Alias[V] = resolve(T);
          }
    }
    if (const Stmt *T = B->getTerminatorStmt())
      BlockOf.try_emplace(T, B);
  }
}

const VarDecl *FunctionUniformity::Impl::resolve(const VarDecl *V) const {
  for (unsigned I = 0; I < 8; ++I) {
    auto It = Alias.find(V);
    if (It == Alias.end())
      return V;
    V = It->second;
  }
  return V;
}

/// The local variable an lvalue expression stores into (x, s.f, a[i]).
const VarDecl *FunctionUniformity::Impl::rootVar(const Expr *E) const {
  for (unsigned Depth = 0; E && Depth < 16; ++Depth) {
    E = E->IgnoreParenImpCasts();
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
      const auto *V = dyn_cast<VarDecl>(Ref->getDecl());
      if (!V || !V->hasLocalStorage())
        return nullptr;
      // A reference parameter is tracked like a local: what the function
      // leaves in it is part of its summary (ReferenceOut).
      return resolve(V);
    }
    if (const auto *M = dyn_cast<MemberExpr>(E)) {
      if (M->isArrow())
        return nullptr;
      E = M->getBase();
      continue;
    }
    if (const auto *A = dyn_cast<ArraySubscriptExpr>(E)) {
      const Expr *Base = A->getBase()->IgnoreParenImpCasts();
      if (!Base->getType()->isArrayType())
        return nullptr;
      E = Base;
      continue;
    }
    return nullptr;
  }
  return nullptr;
}

/// Finds variables written after their initialisation (or whose address
/// escapes), so that the others can be looked through by indexForm, and
/// variables written by `mov %laneid` inline assembly.
void FunctionUniformity::Impl::scanMutations(const Stmt *S) {
  if (!S)
    return;
  auto Mark = [&](const Expr *E) {
    if (const VarDecl *V = rootVar(E))
      Mutated.insert(V);
  };
  if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
    if (BO->isAssignmentOp())
      Mark(BO->getLHS());
  } else if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
    if (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf)
      Mark(UO->getSubExpr());
  } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S)) {
    if (Op->isAssignmentOp() && Op->getNumArgs() > 0)
      Mark(Op->getArg(0));
  } else if (const auto *Asm = dyn_cast<GCCAsmStmt>(S)) {
    bool Lane = llvm::StringRef(Asm->getAsmString()).contains("%laneid");
    for (unsigned I = 0; I < Asm->getNumOutputs(); ++I)
      if (const VarDecl *V = rootVar(Asm->getOutputExpr(I))) {
        if (Lane && !V->getInit())
          AsmLaneVars.insert(V);
        else
          Mutated.insert(V);
      }
  } else if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls())
      if (const auto *V = dyn_cast<VarDecl>(D))
        if (V->getType()->isReferenceType() &&
            !V->getType().getNonReferenceType().isConstQualified() && V->getInit())
          Mark(V->getInit());
  }
  if (const auto *Call = dyn_cast<CallExpr>(S)) {
    if (const FunctionDecl *Callee = Call->getDirectCallee()) {
      unsigned Offset = isa<CXXOperatorCallExpr>(Call) && isa<CXXMethodDecl>(Callee) ? 1 : 0;
      for (unsigned I = Offset; I < Call->getNumArgs(); ++I) {
        unsigned P = I - Offset;
        if (P >= Callee->getNumParams())
          break;
        QualType PT = Callee->getParamDecl(P)->getType();
        if (PT->isReferenceType() && !PT.getNonReferenceType().isConstQualified())
          Mark(Call->getArg(I));
      }
    }
  }
  for (const Stmt *Child : S->children())
    scanMutations(Child);
  if (const auto *DS = dyn_cast<DeclStmt>(S))
    for (const Decl *D : DS->decls())
      if (const auto *V = dyn_cast<VarDecl>(D))
        if (V->hasLocalStorage() && V->getInit())
          SingleDef[V] = V->getInit();
}

const Expr *FunctionUniformity::Impl::singleDefinition(const VarDecl *V) const {
  if (Mutated.count(V))
    return nullptr;
  auto It = SingleDef.find(V);
  return It == SingleDef.end() ? nullptr : It->second;
}

} // namespace warp_tidy
