//===--- LaneExpressions.cpp - Lane ids, warp indices and thread indices --===//

#include "lanes/LaneExpressions.h"
#include "ast/AstQueries.h"
#include "ast/LocalWrites.h"
#include "ast/ThreadIndex.h"
#include "lanes/LaneIdentity.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include <optional>

using namespace clang;

namespace warp_tidy {

// Locals are followed a few levels deep only: the bound keeps malformed code
// cheap.
static constexpr unsigned MaxDepth = 6;

bool isWarpSizeValue(const Expr *E, const ASTContext &Ctx) {
  if (classifyBuiltinIndex(E) == BuiltinIndex::WarpSize)
    return true;
  std::optional<int64_t> V = integerConstant(E, Ctx);
  return V && *V == 32;
}

// `obj.member()` on a cooperative-groups object; returns the member's name.
static llvm::StringRef cgMemberCall(const Expr *E, QualType *ObjectType) {
  const Expr *Obj = memberCallObject(E);
  const auto *Call = dyn_cast_or_null<CallExpr>(E);
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  if (!Obj || !Callee || !Callee->getIdentifier())
    return "";
  *ObjectType = Obj->IgnoreParenImpCasts()->getType();
  return Callee->getName();
}

static LaneIdKind laneIdKindOf(const PositionForm &F) {
  if (F.Kind == PositionForm::GroupRank || (F.Kind == PositionForm::Lane && F.Group))
    return LaneIdKind::TileRank;
  return F.Kind == PositionForm::Lane ? LaneIdKind::WarpLane : LaneIdKind::None;
}

LaneIdKind classifyLaneId(const Expr *E, const ASTContext &Ctx) {
  if (!E)
    return LaneIdKind::None;
  return laneIdKindOf(positionForm(E, Ctx));
}

LaneIdKind classifyLaneIdVar(const VarDecl *Var, const ASTContext &Ctx) {
  PositionEnvironment Defaults;
  if (!Var || !Var->hasLocalStorage())
    return LaneIdKind::None;
  if (Defaults.isLaneRegister(Var))
    return LaneIdKind::WarpLane;
  if (const Expr *Init = Defaults.definition(Var))
    return classifyLaneId(Init, Ctx);
  return LaneIdKind::None;
}

bool isThreadIdxX(const Expr *E, const ASTContext &Ctx) {
  return E && positionForm(E, Ctx).isExactThreadIdxX();
}

bool isWarpIndex(const Expr *E, const ASTContext &Ctx) {
  if (!E)
    return false;
  PositionForm F = positionForm(E, Ctx);
  return F.isWarpIndex() || F.Kind == PositionForm::GroupIndex;
}

static bool mentionsImpl(const Expr *E, const ASTContext &Ctx, unsigned Depth) {
  if (!E || Depth > MaxDepth)
    return false;
  E = stripValue(E);
  switch (classifyBuiltinIndex(E)) {
  case BuiltinIndex::ThreadIdxX:
  case BuiltinIndex::ThreadIdxY:
  case BuiltinIndex::ThreadIdxZ:
    return true;
  case BuiltinIndex::None:
    break;
  default:
    return false;
  }
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
    if (!Var)
      return false;
    if (classifyLaneIdVar(Var, Ctx) != LaneIdKind::None)
      return true;
    if (const Expr *Init = singleAssignmentInit(Var))
      return mentionsImpl(Init, Ctx, Depth + 1);
    return false;
  }
  if (classifyLaneId(E, Ctx) != LaneIdKind::None)
    return true;
  QualType ObjType;
  llvm::StringRef Member = cgMemberCall(E, &ObjType);
  if (!Member.empty())
    return Member == "thread_rank" || Member == "thread_index";
  if (isa<CallExpr>(E))
    return false;
  for (const Stmt *Child : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(Child))
      if (mentionsImpl(CE, Ctx, Depth + 1))
        return true;
  return false;
}

bool mentionsThreadPosition(const Expr *E, const ASTContext &Ctx) {
  return mentionsImpl(E, Ctx, 0);
}

static bool namesVariable(const Expr *E, const VarDecl *V) {
  const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  return Ref && Ref->getDecl() == V;
}

static bool callsOn(const Expr *E, llvm::StringRef Name, const VarDecl *Mask) {
  const auto *Call = dyn_cast<CallExpr>(E->IgnoreParenImpCasts());
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  return Callee && Callee->getIdentifier() && Callee->getName() == Name &&
         Call->getNumArgs() >= 1 && namesVariable(Call->getArg(0), Mask);
}

bool isLaneOfMask(const Expr *Lane, const VarDecl *Mask, const ASTContext &Ctx) {
  for (unsigned Depth = 0; Lane && Depth < MaxDepth; ++Depth) {
    Lane = Lane->IgnoreParenImpCasts();
    // __fns(m, base, n) is 0xffffffff when m has no n-th set bit from base:
    // only the first from lane 0 up, or from lane 31 down, always exists.
    if (callsOn(Lane, "__fns", Mask)) {
      const auto *Call = cast<CallExpr>(Lane);
      std::optional<int64_t> Base =
          Call->getNumArgs() == 3 ? integerConstant(Call->getArg(1), Ctx) : std::nullopt;
      std::optional<int64_t> Offset =
          Call->getNumArgs() == 3 ? integerConstant(Call->getArg(2), Ctx) : std::nullopt;
      return (Base == 0 && Offset == 1) || (Base == 31 && Offset == -1);
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(Lane); BO && BO->getOpcode() == BO_Sub) {
      std::optional<int64_t> L = integerConstant(BO->getLHS(), Ctx);
      std::optional<int64_t> R = integerConstant(BO->getRHS(), Ctx);
      return (R == 1 && callsOn(BO->getLHS(), "__ffs", Mask)) ||
             (L == 31 && callsOn(BO->getRHS(), "__clz", Mask));
    }
    const auto *Ref = dyn_cast<DeclRefExpr>(Lane);
    const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    if (!Var || !Var->hasLocalStorage() || isa<ParmVarDecl>(Var))
      return false;
    Lane = singleAssignmentInit(Var);
    if (!Lane)
      Lane = onlyAssignedValue(Var);
  }
  return false;
}

} // namespace warp_tidy
