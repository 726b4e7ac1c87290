//===--- LaneExpressions.cpp - Lane ids, warp indices and thread indices --===//

#include "LaneExpressions.h"
#include "AstQueries.h"
#include "ThreadIndex.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"
#include <functional>
#include <optional>

using namespace clang;

namespace warp_tidy {

// Helpers and variables are followed a few levels deep only: real code names
// the lane once or twice (`lane = laneId()`), and the bound keeps malformed or
// recursive code cheap.
static constexpr unsigned MaxDepth = 6;

bool isWarpSizeValue(const Expr *E, const ASTContext &Ctx) {
  if (classifyBuiltinIndex(E) == BuiltinIndex::WarpSize)
    return true;
  std::optional<int64_t> V = integerConstant(E, Ctx);
  return V && *V == 32;
}

// `warpSize - 1` or a constant 31: the mask that keeps a lane id.
static bool isLaneMaskValue(const Expr *E, const ASTContext &Ctx) {
  E = stripValue(E);
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    if (BO->getOpcode() == BO_Sub && isWarpSizeValue(BO->getLHS(), Ctx)) {
      std::optional<int64_t> One = integerConstant(BO->getRHS(), Ctx);
      return One && *One == 1;
    }
  std::optional<int64_t> V = integerConstant(E, Ctx);
  return V && *V == 31;
}

// --- Write-once variables ---------------------------------------------------

namespace {
struct WriteInfo {
  unsigned Writes = 0;                 // writes other than the initialiser
  const GCCAsmStmt *AsmWriter = nullptr; // the single asm output, if any
};

// Counts every way a statement can change a variable. Taking its address or
// binding it to a non-const reference counts as a write: the callee may
// change it.
void collectWrites(const Stmt *S, llvm::DenseMap<const VarDecl *, WriteInfo> &Out,
                   const Stmt *IgnoredCall = nullptr) {
  if (!S)
    return;
  auto Target = [](const Expr *E) -> const VarDecl * {
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
      return dyn_cast<VarDecl>(Ref->getDecl());
    return nullptr;
  };
  if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
    if (BO->isAssignmentOp())
      if (const VarDecl *V = Target(BO->getLHS()))
        ++Out[V].Writes;
  } else if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
    if (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf)
      if (const VarDecl *V = Target(UO->getSubExpr()))
        ++Out[V].Writes;
  } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S)) {
    if (Op->isAssignmentOp() && Op->getNumArgs() > 0)
      if (const VarDecl *V = Target(Op->getArg(0)))
        ++Out[V].Writes;
  } else if (const auto *Asm = dyn_cast<GCCAsmStmt>(S)) {
    for (unsigned I = 0, N = Asm->getNumOutputs(); I < N; ++I)
      if (const VarDecl *V = Target(Asm->getOutputExpr(I))) {
        WriteInfo &W = Out[V];
        ++W.Writes;
        W.AsmWriter = Asm;
      }
  } else if (const auto *Call = dyn_cast<CallExpr>(S); Call && Call != IgnoredCall) {
    // Arguments bound to non-const reference parameters.
    if (const FunctionDecl *FD = Call->getDirectCallee())
      for (unsigned I = 0, N = std::min(Call->getNumArgs(), FD->getNumParams()); I < N; ++I) {
        QualType PT = FD->getParamDecl(I)->getType();
        if (PT->isReferenceType() && !PT.getNonReferenceType().isConstQualified())
          if (const VarDecl *V = Target(Call->getArg(I)))
            ++Out[V].Writes;
      }
  }
  const Stmt *Discarded = discardedBranch(S);
  for (const Stmt *Child : S->children())
    if (Child != Discarded)
      collectWrites(Child, Out, IgnoredCall);
}

// One function body's writes, recomputed when another body is asked about.
// The checks ask many questions about the same function in a row. The cache
// names the ASTContext the body belongs to and is emptied when that context
// is freed, so a later translation unit of the same process (clangd, the
// clang-tidy plugin, the unit tests) can never be answered from a body that
// happened to live at the same address.
struct WriteCache {
  const ASTContext *Ctx = nullptr;
  const Stmt *Body = nullptr;
  llvm::DenseMap<const VarDecl *, WriteInfo> Writes;
};

thread_local WriteCache Cache;

void forgetContext(void *Ctx) {
  if (Cache.Ctx == Ctx) {
    Cache.Ctx = nullptr;
    Cache.Body = nullptr;
    Cache.Writes.clear();
  }
}

const WriteInfo *writesOf(const VarDecl *Var) {
  const auto *FD = dyn_cast_or_null<FunctionDecl>(Var->getParentFunctionOrMethod());
  if (!FD || !FD->hasBody())
    return nullptr;
  const Stmt *Body = FD->getBody();
  ASTContext &Ctx = FD->getASTContext();
  if (Cache.Ctx != &Ctx) {
    Cache.Ctx = &Ctx;
    Cache.Body = nullptr;
    Ctx.AddDeallocation(forgetContext, &Ctx);
  }
  if (Cache.Body != Body) {
    Cache.Body = Body;
    Cache.Writes.clear();
    collectWrites(Body, Cache.Writes);
  }
  static const WriteInfo None;
  auto It = Cache.Writes.find(Var);
  return It == Cache.Writes.end() ? &None : &It->second;
}
} // namespace

void resetLaneExpressionCache() {
  Cache.Ctx = nullptr;
  Cache.Body = nullptr;
  Cache.Writes.clear();
}

bool isNeverWrittenIn(const VarDecl *Var, const Stmt *Scope, const CallExpr *ReadOnlyCall) {
  llvm::DenseMap<const VarDecl *, WriteInfo> Writes;
  collectWrites(Scope, Writes, ReadOnlyCall);
  auto It = Writes.find(Var);
  return It == Writes.end() || It->second.Writes == 0;
}

const Expr *singleAssignmentInit(const VarDecl *Var, const ASTContext &) {
  if (!Var || !Var->isLocalVarDecl() || !Var->getInit())
    return nullptr;
  const WriteInfo *W = writesOf(Var);
  if (!W || W->Writes != 0)
    return nullptr;
  return Var->getInit();
}

// A variable with no initialiser whose only write is `asm("mov.u32 %0, %%laneid;" : "=r"(v))`.
static bool isAsmLaneIdVar(const VarDecl *Var) {
  if (!Var || !Var->isLocalVarDecl())
    return false;
  const WriteInfo *W = writesOf(Var);
  if (!W || W->Writes != 1 || !W->AsmWriter)
    return false;
  if (Var->getInit() && !isa<ImplicitValueInitExpr>(Var->getInit()))
    return false;
  return llvm::StringRef(W->AsmWriter->getAsmString()).contains("%laneid");
}

// `return <expr>;` of a small helper whose every return satisfies Pred.
template <typename Pred>
static bool helperReturns(const CallExpr *Call, unsigned Depth, Pred P) {
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD || Depth > MaxDepth)
    return false;
  if (const FunctionDecl *Def = FD->getDefinition())
    FD = Def;
  if (!FD->hasBody() || FD->getNumParams() != 0)
    return false;
  bool Any = false, All = true;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S || !All)
      return;
    if (const auto *Ret = dyn_cast<ReturnStmt>(S)) {
      Any = true;
      if (!Ret->getRetValue() || !P(Ret->getRetValue()))
        All = false;
      return;
    }
    if (isa<LambdaExpr>(S))
      return;
    const Stmt *Discarded = discardedBranch(S);
    for (const Stmt *C : S->children())
      if (C != Discarded)
        Walk(C);
  };
  Walk(FD->getBody());
  return Any && All;
}

static bool isTileType(QualType T) {
  T = T.getNonReferenceType();
  if (const auto *PT = T->getAs<PointerType>())
    T = PT->getPointeeType();
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  if (!RD || !RD->getIdentifier())
    return false;
  llvm::StringRef N = RD->getName();
  return N.contains("thread_block_tile") || N.contains("coalesced_group") ||
         N.contains("__static_size_tile") || N.contains("tiled_partition");
}

static bool isBlockType(QualType T) {
  T = T.getNonReferenceType();
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  return RD && RD->getIdentifier() && RD->getName() == "thread_block";
}

// `obj.member()` on a cooperative-groups object; returns the member's name.
// Cooperative groups declares thread_rank() and meta_group_rank() static on
// some tile types, so `tile.thread_rank()` is then a plain CallExpr over a
// MemberExpr rather than a CXXMemberCallExpr.
const Expr *memberCallObject(const Expr *E) {
  if (const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(E))
    return MC->getImplicitObjectArgument();
  if (const auto *Call = dyn_cast_or_null<CallExpr>(E))
    if (const auto *ME = dyn_cast<MemberExpr>(Call->getCallee()->IgnoreParenImpCasts()))
      return ME->getBase();
  return nullptr;
}

static llvm::StringRef cgMemberCall(const Expr *E, QualType *ObjectType) {
  const Expr *Obj = memberCallObject(E);
  const auto *Call = dyn_cast_or_null<CallExpr>(E);
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  if (!Obj || !Callee || !Callee->getIdentifier())
    return "";
  *ObjectType = Obj->IgnoreParenImpCasts()->getType();
  return Callee->getName();
}

static LaneIdKind classifyLaneIdImpl(const Expr *E, const ASTContext &Ctx, unsigned Depth);
static bool mentionsImpl(const Expr *E, const ASTContext &Ctx, unsigned Depth);
static bool isWarpIndexImpl(const Expr *E, const ASTContext &Ctx, unsigned Depth);

static LaneIdKind classifyLaneIdImpl(const Expr *E, const ASTContext &Ctx, unsigned Depth) {
  if (!E || Depth > MaxDepth)
    return LaneIdKind::None;
  E = stripValue(E);
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    // threadIdx.x % 32, tid % warpSize, threadIdx.x & 31, & (warpSize - 1).
    if (BO->getOpcode() == BO_Rem && isWarpSizeValue(BO->getRHS(), Ctx) &&
        mentionsImpl(BO->getLHS(), Ctx, Depth + 1))
      return LaneIdKind::WarpLane;
    if (BO->getOpcode() == BO_And) {
      if (isLaneMaskValue(BO->getRHS(), Ctx) && mentionsImpl(BO->getLHS(), Ctx, Depth + 1))
        return LaneIdKind::WarpLane;
      if (isLaneMaskValue(BO->getLHS(), Ctx) && mentionsImpl(BO->getRHS(), Ctx, Depth + 1))
        return LaneIdKind::WarpLane;
    }
    return LaneIdKind::None;
  }
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
    if (!Var)
      return LaneIdKind::None;
    if (isAsmLaneIdVar(Var))
      return LaneIdKind::WarpLane;
    if (const Expr *Init = singleAssignmentInit(Var, Ctx))
      return classifyLaneIdImpl(Init, Ctx, Depth + 1);
    return LaneIdKind::None;
  }
  QualType ObjType;
  llvm::StringRef Member = cgMemberCall(E, &ObjType);
  if (Member == "thread_rank" && isTileType(ObjType))
    return LaneIdKind::TileRank;
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *FD = Call->getDirectCallee();
    if (FD && FD->getIdentifier() &&
        (FD->getName() == "__nvvm_read_ptx_sreg_laneid" || FD->getName() == "get_sreg_laneid"))
      return LaneIdKind::WarpLane;
    LaneIdKind Kind = LaneIdKind::None;
    if (helperReturns(Call, Depth + 1, [&](const Expr *R) {
          LaneIdKind K = classifyLaneIdImpl(R, Ctx, Depth + 2);
          if (K == LaneIdKind::None || (Kind != LaneIdKind::None && K != Kind))
            return false;
          Kind = K;
          return true;
        }))
      return Kind;
  }
  return LaneIdKind::None;
}

LaneIdKind classifyLaneIdVar(const VarDecl *Var, const ASTContext &Ctx) {
  if (isAsmLaneIdVar(Var))
    return LaneIdKind::WarpLane;
  if (const Expr *Init = singleAssignmentInit(Var, Ctx))
    return classifyLaneIdImpl(Init, Ctx, 1);
  return LaneIdKind::None;
}

LaneIdKind classifyLaneId(const Expr *E, const ASTContext &Ctx) {
  return classifyLaneIdImpl(E, Ctx, 0);
}

static bool isThreadIdxXImpl(const Expr *E, const ASTContext &Ctx, unsigned Depth) {
  if (!E || Depth > MaxDepth)
    return false;
  E = stripValue(E);
  if (classifyBuiltinIndex(E) == BuiltinIndex::ThreadIdxX)
    return true;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
      if (const Expr *Init = singleAssignmentInit(Var, Ctx))
        return isThreadIdxXImpl(Init, Ctx, Depth + 1);
  QualType ObjType;
  if (cgMemberCall(E, &ObjType) == "thread_rank" && isBlockType(ObjType))
    return true;
  return false;
}

bool isThreadIdxX(const Expr *E, const ASTContext &Ctx) { return isThreadIdxXImpl(E, Ctx, 0); }

static bool isWarpIndexImpl(const Expr *E, const ASTContext &Ctx, unsigned Depth) {
  if (!E || Depth > MaxDepth)
    return false;
  E = stripValue(E);
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->getOpcode() == BO_Div && isWarpSizeValue(BO->getRHS(), Ctx))
      return isThreadIdxXImpl(BO->getLHS(), Ctx, Depth + 1);
    if (BO->getOpcode() == BO_Shr) {
      std::optional<int64_t> Shift = integerConstant(BO->getRHS(), Ctx);
      return Shift && *Shift == 5 && isThreadIdxXImpl(BO->getLHS(), Ctx, Depth + 1);
    }
    return false;
  }
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
      if (const Expr *Init = singleAssignmentInit(Var, Ctx))
        return isWarpIndexImpl(Init, Ctx, Depth + 1);
    return false;
  }
  QualType ObjType;
  if (cgMemberCall(E, &ObjType) == "meta_group_rank" && isTileType(ObjType))
    return true;
  if (const auto *Call = dyn_cast<CallExpr>(E))
    return helperReturns(Call, Depth + 1, [&](const Expr *R) {
      return isWarpIndexImpl(R, Ctx, Depth + 2);
    });
  return false;
}

bool isWarpIndex(const Expr *E, const ASTContext &Ctx) { return isWarpIndexImpl(E, Ctx, 0); }

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
    if (isAsmLaneIdVar(Var))
      return true;
    if (const Expr *Init = singleAssignmentInit(Var, Ctx))
      return mentionsImpl(Init, Ctx, Depth + 1);
    return false;
  }
  if (classifyLaneIdImpl(E, Ctx, Depth + 1) != LaneIdKind::None)
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

} // namespace warp_tidy

