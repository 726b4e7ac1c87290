//===--- GuardFacts.cpp - Conditions known to hold at a statement ---------===//

#include "ast/GuardFacts.h"
#include "ast/AstQueries.h"
#include "ast/LocalWrites.h"
#include "ast/ThreadIndex.h"
#include "ast/UnitParents.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace warp_tidy {

// A statement after which control never reaches the next statement of the
// same block.
static bool alwaysLeaves(const Stmt *S) {
  if (!S)
    return false;
  if (isa<ReturnStmt, ContinueStmt, BreakStmt, GotoStmt>(S))
    return true;
  if (const auto *C = dyn_cast<CompoundStmt>(S))
    return !C->body_empty() && alwaysLeaves(C->body_back());
  return false;
}

llvm::SmallVector<Fact, 8> factsAt(const Stmt *S, ASTContext &Ctx, const Stmt *Limit) {
  llvm::SmallVector<Fact, 8> Facts;
  DynTypedNode Node = DynTypedNode::create(*S);
  const Stmt *Child = S;
  for (unsigned Steps = 0; Steps < 256; ++Steps) {
    Node = firstParent(Node, Ctx);
    if (isNone(Node))
      break;
    if (Node.get<FunctionDecl>() || Node.get<LambdaExpr>())
      break;
    const Stmt *P = Node.get<Stmt>();
    if (!P)
      continue; // a VarDecl between an initialiser and its DeclStmt
    if (P == Limit)
      break;
    if (const auto *If = dyn_cast<IfStmt>(P)) {
      if (Child == If->getThen())
        Facts.push_back({If->getCond(), true});
      else if (Child == If->getElse())
        Facts.push_back({If->getCond(), false});
    } else if (const auto *CO = dyn_cast<ConditionalOperator>(P)) {
      if (Child == CO->getTrueExpr())
        Facts.push_back({CO->getCond(), true});
      else if (Child == CO->getFalseExpr())
        Facts.push_back({CO->getCond(), false});
    } else if (const auto *BO = dyn_cast<BinaryOperator>(P)) {
      if (BO->getOpcode() == BO_LAnd && Child == BO->getRHS())
        Facts.push_back({BO->getLHS(), true});
      else if (BO->getOpcode() == BO_LOr && Child == BO->getRHS())
        Facts.push_back({BO->getLHS(), false});
    } else if (const auto *For = dyn_cast<ForStmt>(P)) {
      if (Child == For->getBody() && For->getCond())
        Facts.push_back({For->getCond(), true});
    } else if (const auto *While = dyn_cast<WhileStmt>(P)) {
      if (Child == While->getBody())
        Facts.push_back({While->getCond(), true});
    } else if (const auto *Block = dyn_cast<CompoundStmt>(P)) {
      // `if (lane >= nw) return;` earlier in the block guards the rest.
      for (const Stmt *Sibling : Block->body()) {
        if (Sibling == Child)
          break;
        if (const auto *If = dyn_cast<IfStmt>(Sibling))
          if (!If->getElse() && alwaysLeaves(If->getThen()))
            Facts.push_back({If->getCond(), false});
      }
    }
    Child = P;
  }
  return Facts;
}

static bool normalise(const BinaryOperator *BO, bool Holds, Comparison &Out) {
  BinaryOperatorKind Op = BO->getOpcode();
  if (!Holds) {
    // !(a < b) == (a >= b) and so on (integers: no NaN to worry about).
    switch (Op) {
    case BO_LT:
      Op = BO_GE;
      break;
    case BO_LE:
      Op = BO_GT;
      break;
    case BO_GT:
      Op = BO_LE;
      break;
    case BO_GE:
      Op = BO_LT;
      break;
    default:
      return false;
    }
  }
  const Expr *L = BO->getLHS(), *R = BO->getRHS();
  switch (Op) {
  case BO_LT:
    Out = {L, R, true, BO};
    return true;
  case BO_LE:
    Out = {L, R, false, BO};
    return true;
  case BO_GT:
    Out = {R, L, true, BO};
    return true;
  case BO_GE:
    Out = {R, L, false, BO};
    return true;
  default:
    return false;
  }
}

static void splitFact(const Expr *E, bool Holds, const ASTContext &Ctx, unsigned Depth,
                      llvm::function_ref<void(const Comparison &)> Fn) {
  if (!E || Depth > 8)
    return;
  E = stripValue(E);
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() == UO_LNot)
      splitFact(UO->getSubExpr(), !Holds, Ctx, Depth + 1, Fn);
    return;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    // a && b true: both true; a || b false: both false.
    if ((BO->getOpcode() == BO_LAnd && Holds) || (BO->getOpcode() == BO_LOr && !Holds)) {
      splitFact(BO->getLHS(), Holds, Ctx, Depth + 1, Fn);
      splitFact(BO->getRHS(), Holds, Ctx, Depth + 1, Fn);
      return;
    }
    Comparison C;
    if (normalise(BO, Holds, C))
      Fn(C);
    return;
  }
  // `const bool inRange = lane >= off; if (inRange) ...`
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
      if (const Expr *Init = singleAssignmentInit(Var))
        splitFact(Init, Holds, Ctx, Depth + 1, Fn);
}

void forEachComparison(const Fact &F, const ASTContext &Ctx,
                       llvm::function_ref<void(const Comparison &)> Fn) {
  splitFact(F.Cond, F.Holds, Ctx, 0, Fn);
}

void forEachComparisonOfPredicate(const Expr *E, const ASTContext &Ctx,
                                  llvm::function_ref<void(const Comparison &)> Fn) {
  // Only a genuine boolean (a comparison, a logical operator, a bool
  // variable) multiplies as 0/1; `t * lane` is not a predicate.
  const Expr *S = stripValue(E);
  bool IsBool = S->getType()->isBooleanType();
  if (const auto *BO = dyn_cast<BinaryOperator>(S))
    IsBool |= BO->isComparisonOp() || BO->isLogicalOp();
  if (!IsBool)
    return;
  splitFact(S, true, Ctx, 0, Fn);
}

bool sameValue(const Expr *A, const Expr *B, const ASTContext &Ctx) {
  if (!A || !B)
    return false;
  A = stripValue(A);
  B = stripValue(B);
  std::optional<llvm::APSInt> CA = foldInteger(A, Ctx), CB = foldInteger(B, Ctx);
  if (CA || CB)
    return CA && CB && llvm::APSInt::compareValues(*CA, *CB) == 0;
  BuiltinIndex IA = classifyBuiltinIndex(A), IB = classifyBuiltinIndex(B);
  if (IA != BuiltinIndex::None || IB != BuiltinIndex::None)
    return IA == IB;
  if (const auto *RA = dyn_cast<DeclRefExpr>(A)) {
    const auto *RB = dyn_cast<DeclRefExpr>(B);
    return RB && RA->getDecl()->getCanonicalDecl() == RB->getDecl()->getCanonicalDecl();
  }
  if (const auto *MA = dyn_cast<MemberExpr>(A)) {
    const auto *MB = dyn_cast<MemberExpr>(B);
    return MB && MA->getMemberDecl() == MB->getMemberDecl() &&
           sameValue(MA->getBase(), MB->getBase(), Ctx);
  }
  if (const auto *BA = dyn_cast<BinaryOperator>(A)) {
    const auto *BB = dyn_cast<BinaryOperator>(B);
    return BB && BA->getOpcode() == BB->getOpcode() && sameValue(BA->getLHS(), BB->getLHS(), Ctx) &&
           sameValue(BA->getRHS(), BB->getRHS(), Ctx);
  }
  if (const auto *SA = dyn_cast<ArraySubscriptExpr>(A)) {
    const auto *SB = dyn_cast<ArraySubscriptExpr>(B);
    return SB && sameValue(SA->getBase(), SB->getBase(), Ctx) &&
           sameValue(SA->getIdx(), SB->getIdx(), Ctx);
  }
  if (const auto *UA = dyn_cast<UnaryOperator>(A)) {
    const auto *UB = dyn_cast<UnaryOperator>(B);
    return UB && UA->getOpcode() == UB->getOpcode() &&
           sameValue(UA->getSubExpr(), UB->getSubExpr(), Ctx);
  }
  return false;
}

const Stmt *parentStmt(const Stmt *S, ASTContext &Ctx, const Decl **ViaDecl) {
  DynTypedNode Parent = firstParent(*S, Ctx);
  if (const auto *D = Parent.get<Decl>()) {
    if (ViaDecl) {
      *ViaDecl = D;
      return nullptr;
    }
    return firstParent(*D, Ctx).get<Stmt>();
  }
  return Parent.get<Stmt>();
}

} // namespace warp_tidy
