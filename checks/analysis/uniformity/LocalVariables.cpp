//===--- LocalVariables.cpp - Locals: aliases, single definitions, writes ---===//
//
// Indexes the function's local variables and parameters for the value
// dataflow and follows references bound to locals (aliases). Which locals are
// never written after their initialiser (so indexForm and the symbolic view
// may look through them) and which `mov %laneid` inline assembly fills is the
// unit's shared scan (analysis/LocalWrites.h); this file only asks it.
// Part of FunctionUniformity::Impl (see FunctionAnalysis.h).
//
//===----------------------------------------------------------------------===//

#include "ast/AstQueries.h"
#include "ast/ThreadIndex.h"
#include "intrinsics/CollectiveCalls.h"
#include "symbolic/SymbolicTerm.h"
#include "symbolic/SymbolicTranslation.h"
#include "uniformity/FunctionAnalysis.h"
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
  VarIndex[V] = NumSlots++;
  addFieldSlots(V);
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
              if (const auto *Ref = dyn_cast<DeclRefExpr>(V->getInit()->IgnoreParenImpCasts()))
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
  // A reference parameter is tracked like a local: what the function leaves
  // in it is part of its summary (ReferenceOut).
  const VarDecl *V = storedLocal(E);
  return V ? resolve(V) : nullptr;
}

bool FunctionUniformity::Impl::isMutated(const VarDecl *V) const {
  return Writes && Writes->isWrittenAfterInit(V);
}

bool FunctionUniformity::Impl::isAsmLaneVar(const VarDecl *V) const {
  return Writes && Writes->isLaneRegisterOutput(V);
}

std::optional<LaneRegister> FunctionUniformity::Impl::asmLaneRegister(const VarDecl *V) const {
  return Writes ? Writes->laneRegisterOutput(V) : std::nullopt;
}

const Expr *FunctionUniformity::Impl::singleDefinition(const VarDecl *V) const {
  return Writes ? Writes->singleDefinition(V) : nullptr;
}

} // namespace warp_tidy
