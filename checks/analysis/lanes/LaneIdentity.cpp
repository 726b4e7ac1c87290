//===--- LaneIdentity.cpp - What an integer is in terms of the thread's lane ===//

#include "lanes/LaneIdentity.h"
#include "ast/AstQueries.h"
#include "ast/CallIndex.h"
#include "ast/ConstantPath.h"
#include "ast/LocalWrites.h"
#include "ast/ThreadIndex.h"
#include "ast/UnitContext.h"
#include "intrinsics/CollectiveCalls.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/SmallVector.h"

using namespace clang;

namespace warp_tidy {

PositionEnvironment::~PositionEnvironment() = default;

const Expr *PositionEnvironment::definition(const VarDecl *V) { return singleAssignmentInit(V); }

bool PositionEnvironment::isLaneRegister(const VarDecl *V) {
  const LocalWriteFacts *W = localWritesOf(V);
  return W && W->isLaneRegisterOutput(V) && !W->isWrittenAfterInit(V);
}

bool PositionEnvironment::isWarpUniformLeaf(const Expr *E) {
  // Every thread of a launch receives the same kernel arguments.
  const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  const auto *Parm = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
  if (!Parm || !Parm->getType()->isIntegralOrEnumerationType())
    return false;
  const auto *Kernel = dyn_cast_or_null<FunctionDecl>(Parm->getDeclContext());
  if (!Kernel || !Kernel->hasAttr<CUDAGlobalAttr>())
    return false;
  const LocalWriteFacts *W = localWritesOf(Parm);
  return W && !W->isWrittenAfterInit(Parm);
}

std::optional<int64_t> PositionEnvironment::constant(const Expr *E, const ASTContext &Ctx) {
  return integerConstant(E, Ctx);
}

namespace {

// Helpers and locals are followed a few levels deep only: real code names
// the lane once or twice (`lane = laneId()`), and the bound keeps malformed
// or recursive code cheap.
constexpr unsigned MaxDepth = 8;

bool isCooperativeGroupType(QualType T, llvm::StringRef Which) {
  T = T.getNonReferenceType();
  if (const auto *PT = T->getAs<PointerType>())
    T = PT->getPointeeType();
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  return RD && RD->getIdentifier() && RD->getName().contains(Which);
}

// A group whose thread_rank() is a position among its own lanes: a tile
// (thread_block_tile<N>, its static-size bases, tiled_partition's result)
// or a coalesced group.
bool isTileLikeType(QualType T) {
  return isCooperativeGroupType(T, "thread_block_tile") ||
         isCooperativeGroupType(T, "__static_size_tile") ||
         isCooperativeGroupType(T, "tiled_partition") ||
         isCooperativeGroupType(T, "coalesced_group");
}

bool isThreadBlockType(QualType T) {
  T = T.getNonReferenceType();
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  return RD && RD->getIdentifier() && RD->getName() == "thread_block";
}

// Parentheses, implicit conversions, temporaries and explicit conversions to
// an integer type of at least 32 bits: none of them changes a thread or lane
// index (a narrower cast could).
const Expr *stripIndexConversions(const Expr *E, const ASTContext &Ctx) {
  for (unsigned I = 0; E && I < 16; ++I) {
    const Expr *Next = E->IgnoreParenImpCasts();
    if (const auto *Temp = dyn_cast<MaterializeTemporaryExpr>(Next))
      Next = Temp->getSubExpr();
    else if (const auto *Cleanups = dyn_cast<ExprWithCleanups>(Next))
      Next = Cleanups->getSubExpr();
    else if (const auto *Cast = dyn_cast<ExplicitCastExpr>(Next)) {
      QualType To = Cast->getType(), From = Cast->getSubExpr()->getType();
      if (To->isIntegerType() && From->isIntegerType() && Ctx.getTypeSize(To) >= 32)
        Next = Cast->getSubExpr();
    }
    if (Next == E)
      return E;
    E = Next;
  }
  return E;
}

bool sameForm(const PositionForm &A, const PositionForm &B) {
  return A.Kind == B.Kind && A.Value == B.Value && A.Exact == B.Exact && A.GroupSize == B.GroupSize;
}

/// fromCallers' answers for the unit, per parameter and block assumption.
struct CallerForms {
  llvm::DenseMap<std::pair<const ParmVarDecl *, unsigned>, PositionForm> Known;
};

struct Recogniser {
  const ASTContext &Ctx;
  PositionEnvironment &Env;

  static PositionForm make(PositionForm::FormKind K, bool Exact = false) {
    PositionForm F;
    F.Kind = K;
    F.Exact = Exact;
    return F;
  }

  PositionForm leaf(const Expr *E, bool InHelper) {
    // Inside a followed helper the asking function's facts say nothing.
    if (!InHelper && Env.isWarpUniformLeaf(E))
      return make(PositionForm::WarpUniform);
    return PositionForm();
  }

  PositionForm builtin(BuiltinIndex BI) {
    switch (BI) {
    case BuiltinIndex::ThreadIdxX:
      return make(PositionForm::ThreadX, /*Exact=*/true);
    case BuiltinIndex::ThreadIdxY:
    case BuiltinIndex::ThreadIdxZ:
      // Within one warp only when whole rows of threads are whole warps.
      return Env.AssumeWarpAlignedBlocks ? make(PositionForm::WarpUniform) : PositionForm();
    case BuiltinIndex::BlockDimX:
      return make(Env.AssumeWarpAlignedBlocks ? PositionForm::WarpAligned
                                              : PositionForm::WarpUniform);
    case BuiltinIndex::WarpSize: {
      PositionForm F = make(PositionForm::Constant);
      F.Value = 32;
      return F;
    }
    case BuiltinIndex::None:
      return PositionForm();
    default:
      return make(PositionForm::WarpUniform); // blockIdx, blockDim.y/z, gridDim
    }
  }

  // The form of what a helper returns: the one return its constant path
  // reaches (ConstantPath.h), else every `return`, when they agree. Its
  // parameters are what every call passes (fromCallers).
  PositionForm helper(const CallExpr *Call, unsigned Depth) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    const FunctionDecl *Def = Callee ? Callee->getDefinition() : nullptr;
    if (!Def || !Def->hasBody() || Def->isDependentContext() || Def == Env.Self ||
        (Env.Self && Def == Env.Self->getDefinition()))
      return PositionForm();
    if (const ReturnStmt *Only = constantPath(Def).Return)
      return returnedForm(Only, Depth);
    std::optional<PositionForm> Common;
    llvm::SmallVector<const Stmt *, 16> Work = {Def->getBody()};
    while (!Work.empty()) {
      const Stmt *S = Work.pop_back_val();
      if (!S || isa<LambdaExpr>(S))
        continue; // a lambda's returns are its own
      if (const auto *Ret = dyn_cast<ReturnStmt>(S)) {
        PositionForm F = returnedForm(Ret, Depth);
        if (F.Kind == PositionForm::Other || (Common && !sameForm(*Common, F)))
          return PositionForm();
        Common = F;
        continue;
      }
      const Stmt *Discarded = discardedBranch(S);
      for (const Stmt *Child : S->children())
        if (Child != Discarded)
          Work.push_back(Child);
    }
    return Common ? *Common : PositionForm();
  }

  PositionForm returnedForm(const ReturnStmt *Ret, unsigned Depth) {
    PositionForm F = form(Ret->getRetValue(), Depth + 1, /*InHelper=*/true);
    F.Group = nullptr; // an object of the helper, not of the caller
    return F;
  }

  PositionForm call(const CallExpr *Call, unsigned Depth, bool InHelper) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (Callee && Callee->getIdentifier() && isToolchainDeclaration(Callee) &&
        (Callee->getName() == "__nvvm_read_ptx_sreg_laneid" ||
         Callee->getName() == "get_sreg_laneid"))
      return make(PositionForm::Lane);
    if (const Expr *Obj = memberCallObject(Call); Obj && Callee && Callee->getIdentifier()) {
      llvm::StringRef Name = Callee->getName();
      QualType ObjType = Obj->IgnoreParenImpCasts()->getType();
      unsigned N = tileSizeOfCall(Call);
      if (Name == "thread_rank") {
        // The block-linear index: threadIdx.x where rows are whole warps.
        if (isThreadBlockType(ObjType))
          return Env.AssumeWarpAlignedBlocks ? make(PositionForm::ThreadX, true) : PositionForm();
        if (N || isTileLikeType(ObjType)) {
          PositionForm F = make(N == 32 ? PositionForm::Lane : PositionForm::GroupRank);
          F.GroupSize = N;
          F.Group = Obj;
          return F;
        }
      }
      if (Name == "meta_group_rank" && N) {
        // The index of the calling thread's tile in the block: for 32-lane
        // tiles, its warp.
        PositionForm F = make(N == 32 ? PositionForm::WarpUniform : PositionForm::GroupIndex,
                              /*Exact=*/N == 32);
        F.GroupSize = N;
        return F;
      }
    }
    PositionForm F = helper(Call, Depth);
    if (F.Kind != PositionForm::Other)
      return F;
    return leaf(Call, InHelper);
  }

  /// A parameter of a helper for which every call in the unit passes the
  /// same form (`count(..., tx)` with `tx = threadIdx.x` in each kernel).
  /// Only helpers that a unit calls only itself: inline, internal, or
  /// template instantiations (under -rdc another unit may call an extern
  /// one). As for launches (ReachingLaunches.h), a call through a function
  /// pointer is not seen.
  PositionForm fromCallers(const ParmVarDecl *Parm, unsigned Depth) {
    const auto *FD = dyn_cast<FunctionDecl>(Parm->getDeclContext());
    if (!FD || FD->hasAttr<CUDAGlobalAttr>() || Depth > MaxDepth)
      return PositionForm();
    // The callers' arguments are read as in a helper (nothing of the asking
    // function's environment but the block assumption), from a depth of
    // their own, so one answer per parameter serves the whole unit, whatever
    // asked first: without it, chains of helpers with many calls each would
    // be walked again at every read. A parameter being answered (a cycle of
    // calls) is no form.
    auto &Known = UnitContext::of(FD->getASTContext()).get<CallerForms>().Known;
    auto Key = std::make_pair(Parm, unsigned(Env.AssumeWarpAlignedBlocks));
    if (auto It = Known.find(Key); It != Known.end())
      return It->second;
    Known[Key] = PositionForm();
    PositionForm F = commonCallerForm(FD, Parm);
    Known[Key] = F;
    return F;
  }

  PositionForm commonCallerForm(const FunctionDecl *FD, const ParmVarDecl *Parm) {
    ASTContext &Unit = FD->getASTContext();
    auto Args = UnitContext::of(Unit).get<CallIndex>().argumentsPassedFor(Parm, Unit);
    if (!Args)
      return PositionForm();
    std::optional<PositionForm> Common;
    for (const Expr *Arg : *Args) {
      PositionForm F = form(Arg, 1, /*InHelper=*/true);
      F.Group = nullptr; // an object of the caller
      if (F.Kind == PositionForm::Other || (Common && !sameForm(*Common, F)))
        return PositionForm();
      Common = F;
    }
    return Common ? *Common : PositionForm();
  }

  PositionForm variable(const DeclRefExpr *Ref, unsigned Depth, bool InHelper) {
    const auto *V = dyn_cast<VarDecl>(Ref->getDecl());
    if (!V || !V->hasLocalStorage())
      return leaf(Ref, InHelper);
    if (const auto *Parm = dyn_cast<ParmVarDecl>(V)) {
      PositionForm F = fromCallers(Parm, Depth);
      if (F.Kind != PositionForm::Other)
        return F;
    }
    if (Env.isLaneRegister(V))
      return make(PositionForm::Lane);
    const Expr *Init = Env.definition(V);
    if (!Init)
      Init = initialiserReadAt(Ref);
    if (!Init)
      Init = onlyAssignedValue(V);
    if (Init) {
      PositionForm Inner = form(Init, Depth + 1, InHelper);
      if (Inner.Kind != PositionForm::Other)
        return Inner;
    }
    return leaf(Ref, InHelper);
  }

  PositionForm binary(const BinaryOperator *BO, unsigned Depth, bool InHelper) {
    if (BO->isAssignmentOp() || BO->getOpcode() == BO_Comma)
      return PositionForm();
    PositionForm L = form(BO->getLHS(), Depth + 1, InHelper);
    PositionForm R = form(BO->getRHS(), Depth + 1, InHelper);
    auto IsAligned = [](const PositionForm &X) {
      return X.Kind == PositionForm::WarpAligned ||
             (X.Kind == PositionForm::Constant && X.Value % 32 == 0);
    };
    auto IsUniform = [](const PositionForm &X) {
      return X.Kind == PositionForm::WarpAligned || X.Kind == PositionForm::Constant ||
             X.Kind == PositionForm::WarpUniform;
    };
    // threadIdx.x plus a multiple of 32 is congruent to threadIdx.x modulo
    // 32: the lane, or the thread index itself.
    auto IsLaneSource = [](const PositionForm &X) {
      return X.Kind == PositionForm::ThreadX || X.Kind == PositionForm::Lane;
    };
    auto IsConstant = [](const PositionForm &X, long long V) {
      return X.Kind == PositionForm::Constant && X.Value == V;
    };
    switch (BO->getOpcode()) {
    case BO_Add:
      if ((L.Kind == PositionForm::ThreadX && IsAligned(R)) ||
          (R.Kind == PositionForm::ThreadX && IsAligned(L)))
        return make(PositionForm::ThreadX);
      if (IsAligned(L) && IsAligned(R))
        return make(PositionForm::WarpAligned);
      break;
    case BO_Sub:
      if (L.Kind == PositionForm::ThreadX && IsAligned(R))
        return make(PositionForm::ThreadX);
      // threadIdx.x - lane: the first thread of the warp (AMGX's
      // `&s_cols[threadIdx.x - lane_id]`, each warp's slice of shared memory).
      if (L.Kind == PositionForm::ThreadX && R.Kind == PositionForm::Lane)
        return make(PositionForm::WarpAligned);
      if (IsAligned(L) && IsAligned(R))
        return make(PositionForm::WarpAligned);
      break;
    case BO_Mul:
      if ((IsAligned(L) && IsUniform(R)) || (IsAligned(R) && IsUniform(L)))
        return make(PositionForm::WarpAligned);
      break;
    case BO_Shl:
      if (IsUniform(L) && R.Kind == PositionForm::Constant && R.Value >= 5)
        return make(PositionForm::WarpAligned);
      break;
    case BO_Rem:
      if (IsLaneSource(L) && IsConstant(R, 32))
        return make(PositionForm::Lane);
      break;
    case BO_And:
      if ((IsLaneSource(L) && IsConstant(R, 31)) || (IsLaneSource(R) && IsConstant(L, 31)))
        return make(PositionForm::Lane);
      // threadIdx.x & ~31: the first thread of the warp.
      if (L.Kind == PositionForm::ThreadX && R.Kind == PositionForm::Constant && R.Value % 32 == 0)
        return make(PositionForm::WarpUniform);
      break;
    case BO_Div:
      // threadIdx.x / 32 is the warp index; / 64 pairs of warps.
      if (L.Kind == PositionForm::ThreadX && R.Kind == PositionForm::Constant && R.Value > 0 &&
          R.Value % 32 == 0)
        return make(PositionForm::WarpUniform, L.Exact && R.Value == 32);
      break;
    case BO_Shr:
      if (L.Kind == PositionForm::ThreadX && R.Kind == PositionForm::Constant && R.Value >= 5)
        return make(PositionForm::WarpUniform, L.Exact && R.Value == 5);
      break;
    default:
      break;
    }
    if (IsUniform(L) && IsUniform(R))
      return make(PositionForm::WarpUniform);
    return PositionForm();
  }

  PositionForm form(const Expr *E, unsigned Depth, bool InHelper) {
    if (!E || Depth > MaxDepth)
      return PositionForm();
    E = stripIndexConversions(E, Ctx);
    if (std::optional<int64_t> C = Env.constant(E, Ctx)) {
      PositionForm F = make(PositionForm::Constant);
      F.Value = *C;
      return F;
    }
    if (BuiltinIndex BI = classifyBuiltinIndex(E); BI != BuiltinIndex::None)
      return builtin(BI);
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
      return variable(Ref, Depth, InHelper);
    if (const auto *Call = dyn_cast<CallExpr>(E))
      return call(Call, Depth, InHelper);
    if (const auto *BO = dyn_cast<BinaryOperator>(E))
      return binary(BO, Depth, InHelper);
    return leaf(E, InHelper);
  }
};

} // namespace

const Expr *memberCallObject(const Expr *E) {
  if (const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(E))
    return MC->getImplicitObjectArgument();
  if (const auto *Call = dyn_cast_or_null<CallExpr>(E))
    if (const auto *ME = dyn_cast<MemberExpr>(Call->getCallee()->IgnoreParenImpCasts()))
      return ME->getBase();
  return nullptr;
}

PositionForm positionForm(const Expr *E, const ASTContext &Ctx, PositionEnvironment &Env) {
  return Recogniser{Ctx, Env}.form(E, 0, /*InHelper=*/false);
}

PositionForm positionForm(const Expr *E, const ASTContext &Ctx) {
  PositionEnvironment Defaults;
  return positionForm(E, Ctx, Defaults);
}

} // namespace warp_tidy
