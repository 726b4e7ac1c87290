//===--- PartialsRead.cpp - Second stage of a block reduction -------------===//

#include "patterns/PartialsRead.h"
#include "ast/AstQueries.h"
#include "ast/GuardFacts.h"
#include "ast/LocalWrites.h"
#include "ast/ThreadIndex.h"
#include "ast/UnitContext.h"
#include "intrinsics/CollectiveCalls.h"
#include "lanes/LaneExpressions.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/TypeLoc.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <algorithm>
#include <functional>

using namespace clang;

namespace warp_tidy {
namespace {

bool isBlockDimX(const Expr *E, const ASTContext &Ctx, unsigned Depth = 0) {
  if (!E || Depth > 4)
    return false;
  E = stripValue(E);
  if (classifyBuiltinIndex(E) == BuiltinIndex::BlockDimX)
    return true;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
      if (const Expr *Init = singleAssignmentInit(Var))
        return isBlockDimX(Init, Ctx, Depth + 1);
  return false;
}

// The signed addends of a sum, through `+`, `-` and parentheses.
void collectAddends(const Expr *E, bool Negated,
                    llvm::SmallVectorImpl<std::pair<const Expr *, bool>> &Out) {
  E = E->IgnoreParenImpCasts();
  if (const auto *BO = dyn_cast<BinaryOperator>(E);
      BO && (BO->getOpcode() == BO_Add || BO->getOpcode() == BO_Sub) && Out.size() < 8) {
    collectAddends(BO->getLHS(), Negated, Out);
    collectAddends(BO->getRHS(), BO->getOpcode() == BO_Sub ? !Negated : Negated, Out);
    return;
  }
  Out.push_back({E, Negated});
}

// `X + 31`, `X + WARP_SIZE - 1`, `31 + X`, `(X + 32) - 1`: a sum that is some
// added term X plus constants totalling 31, which rounds X up to whole warps
// when divided by 32, however it is spelt or associated. Decided by value:
// once a template argument or constexpr size has folded (`(256 + 32 - 1)`),
// 256 is the addend the other constants round up.
bool isRoundedUp(const Expr *Dividend, const ASTContext &Ctx) {
  llvm::SmallVector<std::pair<const Expr *, bool>, 4> Addends;
  collectAddends(Dividend, false, Addends);
  if (Addends.size() < 2)
    return false;
  llvm::SmallVector<std::optional<int64_t>, 4> Values;
  for (const auto &[E, Negated] : Addends)
    Values.push_back(integerConstant(E, Ctx));
  for (unsigned Size = 0; Size < Addends.size(); ++Size) {
    if (Addends[Size].second)
      continue;
    int64_t Offset = 0;
    bool Constant = true;
    for (unsigned I = 0; I < Addends.size() && Constant; ++I)
      if (I != Size) {
        Constant = Values[I].has_value();
        if (Constant)
          Offset += Addends[I].second ? -*Values[I] : *Values[I];
      }
    if (Constant && Offset == 31)
      return true;
  }
  return false;
}

enum class BoundKind { Unknown, Ceil, Floor, Const };

struct Bound {
  BoundKind Kind = BoundKind::Unknown;
  int64_t Value = 0; // Const: the bound
  const Expr *Written = nullptr;
  const Expr *FloorInPlace = nullptr; // Floor written in place (fix-it target)
  bool KnownPartialWarp = false;      // Floor of a constant that is not whole warps
  bool WarpCount = false;             // Const written as a block size over the warp size
  PartialsFinding::FloorSpelling Spelling = PartialsFinding::FloorSpelling::Div32;
};

// `X / 32`, `X / warpSize`, `X >> 5`: the dividend, else null.
const Expr *dividendByWarp(const Expr *E, const ASTContext &Ctx,
                           PartialsFinding::FloorSpelling *Spelling) {
  const auto *BO = dyn_cast<BinaryOperator>(stripValue(E));
  if (!BO)
    return nullptr;
  if (BO->getOpcode() == BO_Div && isWarpSizeValue(BO->getRHS(), Ctx)) {
    *Spelling = classifyBuiltinIndex(BO->getRHS()) == BuiltinIndex::WarpSize
                    ? PartialsFinding::FloorSpelling::DivWarpSize
                    : PartialsFinding::FloorSpelling::Div32;
    return BO->getLHS();
  }
  if (BO->getOpcode() == BO_Shr) {
    std::optional<int64_t> K = integerConstant(BO->getRHS(), Ctx);
    if (K && *K == 5) {
      *Spelling = PartialsFinding::FloorSpelling::Shr5;
      return BO->getLHS();
    }
  }
  return nullptr;
}

Bound classifyBound(const Expr *E, const ASTContext &Ctx, unsigned Depth, bool InPlace) {
  Bound B;
  B.Written = E;
  if (!E || Depth > 4)
    return B;
  E = stripValue(E);
  PartialsFinding::FloorSpelling Spelling;
  if (const Expr *Dividend = dividendByWarp(E, Ctx, &Spelling)) {
    const Expr *D = stripValue(Dividend);
    if (isBlockDimX(D, Ctx)) {
      B.Kind = BoundKind::Floor;
      B.Spelling = Spelling;
      if (InPlace && classifyBuiltinIndex(D) == BuiltinIndex::BlockDimX)
        B.FloorInPlace = E;
      return B;
    }
    // `(X + 31) / 32` rounds up whatever X is (blockDim.x, a template or
    // constexpr block size): checked before X + 31 folds to a constant that
    // is not a whole number of warps.
    if (isRoundedUp(D, Ctx)) {
      B.Kind = BoundKind::Ceil;
      return B;
    }
    // A constant block size (template argument, constexpr): a floor that
    // drops threads only when the size is not a whole number of warps.
    if (std::optional<int64_t> Threads = integerConstant(D, Ctx)) {
      if (*Threads % 32 != 0) {
        B.Kind = BoundKind::Floor;
        B.KnownPartialWarp = true;
        B.Spelling = Spelling;
        return B;
      }
      B.Kind = BoundKind::Const;
      B.Value = *Threads / 32;
      B.WarpCount = true;
      return B;
    }
  }
  // A write-once variable is classified by what it was written as
  // (`warps = BLOCK / warpSize`), before it folds to a bare number.
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
      if (const Expr *Init = singleAssignmentInit(Var)) {
        Bound Inner = classifyBound(Init, Ctx, Depth + 1, false);
        Inner.Written = B.Written;
        return Inner;
      }
  if (std::optional<int64_t> K = integerConstant(E, Ctx)) {
    B.Kind = BoundKind::Const;
    B.Value = *K;
    return B;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    // `blockDim.x / 32 + (blockDim.x % 32 != 0)`, `(blockDim.x - 1) / 32 + 1`.
    if (BO->getOpcode() == BO_Add) {
      Bound L = classifyBound(BO->getLHS(), Ctx, Depth + 1, false);
      Bound R = classifyBound(BO->getRHS(), Ctx, Depth + 1, false);
      if (L.Kind == BoundKind::Floor || R.Kind == BoundKind::Floor || L.Kind == BoundKind::Ceil ||
          R.Kind == BoundKind::Ceil)
        B.Kind = BoundKind::Ceil;
    }
    return B;
  }
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    // ceil_div(blockDim.x, 32), divUp(...), cuda::ceil_div: rounding up by name.
    if (const FunctionDecl *FD = Call->getDirectCallee())
      if (FD->getIdentifier()) {
        std::string Name = FD->getName().lower();
        llvm::StringRef N(Name);
        if (N.contains("ceil") || N.contains("divup") || N.contains("div_up") ||
            N.contains("round_up") || N.contains("roundup"))
          B.Kind = BoundKind::Ceil;
      }
  }
  return B;
}

// One element of a shared array, named by all its subscripts:
// `s[j][lane]` is {s, {j, lane}}. Partials may sit in any dimension of a
// 2-D array (`s[j][warp]` written, `s[j][lane]` read).
struct SlotAccess {
  const VarDecl *Array = nullptr;
  llvm::SmallVector<const Expr *, 2> Indices; ///< Outermost dimension first.
};

std::optional<SlotAccess> slotAccess(const Expr *E) {
  const auto *ASE = dyn_cast<ArraySubscriptExpr>(E->IgnoreParenImpCasts());
  if (!ASE)
    return std::nullopt;
  SlotAccess A;
  const Expr *Base = ASE;
  while (const auto *Sub = dyn_cast<ArraySubscriptExpr>(Base->IgnoreParenImpCasts())) {
    A.Indices.push_back(Sub->getIdx());
    Base = Sub->getBase();
  }
  const auto *Ref = dyn_cast<DeclRefExpr>(Base->IgnoreParenImpCasts());
  A.Array = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!A.Array)
    return std::nullopt;
  std::reverse(A.Indices.begin(), A.Indices.end());
  return A;
}

// `s[w].m` and `s[w]` store into the same slot: the element of a struct
// array (`MD s[32]` for an online softmax) counts as the slot.
const Expr *stripMembers(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  while (const auto *M = dyn_cast<MemberExpr>(E)) {
    if (M->isArrow())
      break;
    E = M->getBase()->IgnoreParenImpCasts();
  }
  return E;
}

// Loops between \p S and the function body.
bool sharesLoop(const Stmt *A, const Stmt *B, ASTContext &Ctx) {
  llvm::SmallPtrSet<const Stmt *, 8> Loops;
  for (const Stmt *P = parentStmt(A, Ctx); P; P = parentStmt(P, Ctx))
    if (isLoopStmt(P))
      Loops.insert(P);
  for (const Stmt *P = parentStmt(B, Ctx); P; P = parentStmt(P, Ctx))
    if (Loops.count(P))
      return true;
  return false;
}

// The child through which \p S still names the same element (parentheses,
// a `.` member, a no-op cast), else null. isRead climbs through these
// towards what uses the element; storedSubscript descends through them, so
// the two meet the same nodes.
const Expr *sameElementChild(const Stmt *S) {
  if (const auto *Paren = dyn_cast<ParenExpr>(S))
    return Paren->getSubExpr();
  if (const auto *M = dyn_cast<MemberExpr>(S); M && !M->isArrow())
    return M->getBase();
  if (const auto *Cast = dyn_cast<ImplicitCastExpr>(S); Cast && Cast->getCastKind() == CK_NoOp)
    return Cast->getSubExpr();
  return nullptr;
}

} // namespace

// What \p S stores into, when it is a store: an assignment's left side,
// the operand of `++`/`--` or of `&` (`atomicAdd(&s[warp], v)`), or the
// object of a struct's assignment operator (`s[warp] = md`).
const Expr *storeTarget(const Stmt *S) {
  if (const auto *BO = dyn_cast<BinaryOperator>(S))
    return BO->isAssignmentOp() ? BO->getLHS() : nullptr;
  if (const auto *UO = dyn_cast<UnaryOperator>(S))
    return UO->getOpcode() == UO_AddrOf || UO->isIncrementDecrementOp() ? UO->getSubExpr()
                                                                        : nullptr;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S))
    return Op->isAssignmentOp() && Op->getNumArgs() > 0 ? Op->getArg(0) : nullptr;
  return nullptr;
}

// The subscript that a store's target is, reached through the nodes isRead
// climbs (sameElementChild): isRead then meets the store itself, and is
// false for it.
const ArraySubscriptExpr *storedSubscript(const Expr *Target) {
  const Expr *E = Target;
  while (const Expr *Child = sameElementChild(E))
    E = Child;
  return dyn_cast<ArraySubscriptExpr>(E);
}

namespace {

// What one function stores through its pointer parameters with a
// subscript (`p[i] = v`, `++p[i]`, `&p[i]`): the parameters, and the
// subscripts written. Only a parameter stored through can hold a warp's
// partials; and a subscript that is a store's target is not a read. Most
// subscripts of pointer parameters are one or the other (`out[i] = in[i]`),
// so this one walk per function and unit comes before the lane recogniser,
// which each of them would otherwise run.
struct ParameterStores {
  llvm::SmallPtrSet<const VarDecl *, 4> Parameters;
  llvm::SmallPtrSet<const ArraySubscriptExpr *, 8> Subscripts;
};

const ParameterStores &parameterStores(const ParmVarDecl *Parm, ASTContext &Ctx) {
  struct PerFunction : llvm::DenseMap<const DeclContext *, ParameterStores> {};
  PerFunction &Stores = UnitContext::of(Ctx).get<PerFunction>();
  const DeclContext *Owner = Parm->getDeclContext();
  auto [It, New] = Stores.try_emplace(Owner);
  if (New)
    if (const auto *FD = dyn_cast<FunctionDecl>(Owner); FD && FD->getBody())
      forEachStmt(FD->getBody(), [&, &Found = It->second](const Stmt *S) {
        const Expr *Target = storeTarget(S);
        if (!Target)
          return;
        if (std::optional<SlotAccess> Slot = slotAccess(stripMembers(Target)))
          if (isa<ParmVarDecl>(Slot->Array))
            Found.Parameters.insert(Slot->Array);
        if (const ArraySubscriptExpr *Written = storedSubscript(Target))
          Found.Subscripts.insert(Written);
      });
  return It->second;
}

// Does \p Body store to \p Array at the warp index, in dimension \p Dim of
// a \p Rank-dimensional subscript? Also reports whether some other store
// (initialisation, lane-indexed writes) may fill the slots before \p Read:
// a store that comes only after the read (`sums[lane] = v` writing the
// result back) does not make the read safe.
const Expr *warpIndexStore(const VarDecl *Array, size_t Dim, size_t Rank, const Stmt *Body,
                           const Expr *Read, ASTContext &Ctx, bool *OtherStores) {
  const Expr *Found = nullptr;
  const SourceManager &SM = Ctx.getSourceManager();
  forEachStmt(Body, [&](const Stmt *S) {
    const Expr *Target = storeTarget(S);
    if (!Target)
      return;
    std::optional<SlotAccess> Slot = slotAccess(stripMembers(Target));
    if (!Slot || Slot->Array != Array || Slot->Indices.size() != Rank)
      return;
    if (isWarpIndex(Slot->Indices[Dim], Ctx)) {
      if (!Found)
        Found = Target;
    } else if (SM.isBeforeInTranslationUnit(Target->getBeginLoc(), Read->getBeginLoc()) ||
               sharesLoop(Target, Read, Ctx)) {
      *OtherStores = true;
    }
  });
  return Found;
}

// --- Is the value read later reduced by a sum? (identity 0 is right) --------

bool isShuffleOf(const Expr *E, const VarDecl *Var) {
  const auto *Call = dyn_cast<CallExpr>(stripValue(E));
  if (!Call)
    return false;
  std::optional<CollectiveCall> C = recogniseCollective(Call);
  if (!C ||
      (C->Intrinsic->Kind != CollectiveKind::Shuffle &&
       C->Intrinsic->Kind != CollectiveKind::TileMember) ||
      C->Intrinsic->ValueArg == NoArgument ||
      Call->getNumArgs() <= static_cast<unsigned>(C->Intrinsic->ValueArg))
    return false;
  const auto *Ref = dyn_cast<DeclRefExpr>(stripValue(Call->getArg(C->Intrinsic->ValueArg)));
  return Ref && Ref->getDecl() == Var;
}

// A shuffle of Var, directly or through a variable initialised/assigned from one.
bool containsShuffleOf(const Expr *E, const VarDecl *Var, const Stmt *Body, unsigned Depth) {
  if (!E || Depth > 3)
    return false;
  if (isShuffleOf(E, Var))
    return true;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(stripValue(E)))
    if (const auto *T = dyn_cast<VarDecl>(Ref->getDecl())) {
      if (T->getInit() && containsShuffleOf(T->getInit(), Var, Body, Depth + 1))
        return true;
      bool Found = false;
      forEachStmt(Body, [&](const Stmt *S) {
        const auto *BO = dyn_cast<BinaryOperator>(S);
        if (Found || !BO || BO->getOpcode() != BO_Assign)
          return;
        const auto *L = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts());
        if (L && L->getDecl() == T && containsShuffleOf(BO->getRHS(), Var, Body, Depth + 1))
          Found = true;
      });
      return Found;
    }
  for (const Stmt *C : stripValue(E)->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(C))
      if (containsShuffleOf(CE, Var, Body, Depth + 1))
        return true;
  return false;
}

// Body combines Var with shuffles of itself, and only by addition.
bool sumsByShuffles(const VarDecl *Var, const Stmt *Body) {
  bool Additive = false, Other = false;
  forEachStmt(Body, [&](const Stmt *S) {
    const auto *BO = dyn_cast<BinaryOperator>(S);
    if (!BO || !BO->isAssignmentOp())
      return;
    const auto *L = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts());
    if (!L || L->getDecl() != Var || !containsShuffleOf(BO->getRHS(), Var, Body, 0))
      return;
    if (BO->getOpcode() == BO_AddAssign) {
      Additive = true;
      return;
    }
    if (BO->getOpcode() == BO_Assign)
      if (const auto *Sum = dyn_cast<BinaryOperator>(stripValue(BO->getRHS())))
        if (Sum->getOpcode() == BO_Add) {
          Additive = true;
          return;
        }
    Other = true;
  });
  return Additive && !Other;
}

bool isSumReducedAfter(const VarDecl *Var, const Expr *Read, ASTContext &Ctx) {
  const FunctionDecl *FD = enclosingFunction(Read, Ctx, /*ThroughLambdas=*/true);
  if (!FD || !FD->getBody())
    return false;
  const SourceManager &SM = Ctx.getSourceManager();
  // The first read of Var after the partial was loaded.
  const DeclRefExpr *First = nullptr;
  forEachStmt(FD->getBody(), [&](const Stmt *S) {
    const auto *Ref = dyn_cast<DeclRefExpr>(S);
    if (!Ref || Ref->getDecl() != Var ||
        !SM.isBeforeInTranslationUnit(Read->getEndLoc(), Ref->getBeginLoc()))
      return;
    if (const Stmt *P = parentStmt(Ref, Ctx))
      if (const auto *BO = dyn_cast<BinaryOperator>(P))
        if (BO->getOpcode() == BO_Assign && BO->getLHS()->IgnoreParens() == Ref)
          return;
    if (!First || SM.isBeforeInTranslationUnit(Ref->getBeginLoc(), First->getBeginLoc()))
      First = Ref;
  });
  if (!First)
    return false;
  const Stmt *Cur = First;
  const Stmt *P = parentStmt(Cur, Ctx);
  while (P && isa<ImplicitCastExpr, ParenExpr, MaterializeTemporaryExpr>(P)) {
    Cur = P;
    P = parentStmt(P, Ctx);
  }
  // `v += __shfl_down_sync(m, v, off)` right after the load.
  if (const auto *BO = dyn_cast_or_null<BinaryOperator>(P))
    if (BO->getOpcode() == BO_AddAssign && BO->getLHS()->IgnoreParens() == Cur)
      return sumsByShuffles(Var, FD->getBody());
  const auto *Call = dyn_cast_or_null<CallExpr>(P);
  if (!Call)
    return false;
  // The partial goes straight into a shuffle combined by `+=` in this function.
  if (isShuffleOf(Call, Var))
    return sumsByShuffles(Var, FD->getBody());
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee || !Callee->getIdentifier())
    return false;
  if (Callee->getName() == "__reduce_add_sync")
    return true;
  // cg::reduce(tile, v, cg::plus<T>())
  if (Callee->getName() == "reduce" && Call->getNumArgs() >= 3) {
    const CXXRecordDecl *Op = Call->getArg(2)->getType()->getAsCXXRecordDecl();
    return Op && Op->getIdentifier() && Op->getName() == "plus";
  }
  // A helper: its parameter summed by shuffles (warpReduceSum).
  if (const FunctionDecl *Def = Callee->getDefinition())
    Callee = Def;
  if (!Callee->hasBody())
    return false;
  for (unsigned I = 0, N = Callee->getNumParams(); I < N; ++I)
    if (const Expr *Arg = argumentForParameter(Call, Callee, I);
        Arg && stripValue(Arg) == stripValue(cast<Expr>(Cur)))
      return !Callee->getParamDecl(I)->getType()->isReferenceType() &&
             sumsByShuffles(Callee->getParamDecl(I), Callee->getBody());
  return false;
}

// `v = s[lane];` or `T v = s[lane];` with arithmetic v: the variable, else null.
const VarDecl *simpleLoadTarget(const ArraySubscriptExpr *Read, ASTContext &Ctx) {
  const Stmt *Cur = Read;
  const Decl *ViaDecl = nullptr;
  const Stmt *P = parentStmt(Cur, Ctx, &ViaDecl);
  while (P && isa<ImplicitCastExpr>(P)) {
    Cur = P;
    P = parentStmt(P, Ctx, &ViaDecl);
  }
  const VarDecl *Target = nullptr;
  if (!P) {
    Target = dyn_cast_or_null<VarDecl>(ViaDecl);
  } else if (const auto *BO = dyn_cast<BinaryOperator>(P)) {
    if (BO->getOpcode() == BO_Assign && BO->getRHS() == Cur)
      if (const auto *Ref = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts()))
        Target = dyn_cast<VarDecl>(Ref->getDecl());
  }
  if (!Target || !Target->getType()->isArithmeticType() || Target->getType()->isBooleanType())
    return nullptr;
  return Target;
}

} // namespace

// The element's value is loaded: `v = s[lane]`, `s[lane].m` of a struct
// element, or a struct element copied (`MD v = s[lane]`, `v = s[lane]`).
bool isRead(const ArraySubscriptExpr *ASE, ASTContext &Ctx) {
  const Stmt *Cur = ASE;
  const Stmt *P = parentStmt(ASE, Ctx);
  while (P && sameElementChild(P)) {
    Cur = P;
    P = parentStmt(P, Ctx);
  }
  if (const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(P))
    return Cast->getCastKind() == CK_LValueToRValue;
  // `MD w = {s[lane].m, 1.0f}`: the parent map sees the initialiser list as
  // written, before Sema adds the load.
  if (isa_and_nonnull<InitListExpr>(P))
    return true;
  if (const auto *Construct = dyn_cast_or_null<CXXConstructExpr>(P))
    return Construct->getConstructor()->isCopyOrMoveConstructor();
  if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(P))
    return Op->isAssignmentOp() && Op->getNumArgs() == 2 && Op->getArg(1) == Cur;
  return false;
}

namespace {

// --- Block sizes the code fixes itself --------------------------------------

// The declaration a block-size expression names: a variable or a template
// parameter (also as substituted into an instance).
const Decl *namedDecl(const Expr *E) {
  // Step by step: IgnoreParenImpCasts would also skip the substitution and
  // leave only the substituted number.
  while (true) {
    if (const auto *Subst = dyn_cast<SubstNonTypeTemplateParmExpr>(E))
      return Subst->getParameter();
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
      return Ref->getDecl();
    if (const auto *Paren = dyn_cast<ParenExpr>(E))
      E = Paren->getSubExpr();
    else if (const auto *Cast = dyn_cast<ImplicitCastExpr>(E))
      E = Cast->getSubExpr();
    else if (const auto *Full = dyn_cast<FullExpr>(E))
      E = Full->getSubExpr();
    else
      return nullptr;
  }
}

// `static_assert(X == K)` in \p Body for the declaration \p D names: K.
std::optional<int64_t> staticAssertedValue(const Decl *D, const Stmt *Body, const ASTContext &Ctx) {
  std::optional<int64_t> Result;
  forEachStmt(Body, [&](const Stmt *S) {
    const auto *DS = dyn_cast<DeclStmt>(S);
    if (!DS || Result)
      return;
    for (const Decl *Member : DS->decls()) {
      const auto *SA = dyn_cast<StaticAssertDecl>(Member);
      const auto *Eq =
          SA ? dyn_cast<BinaryOperator>(SA->getAssertExpr()->IgnoreParenImpCasts()) : nullptr;
      if (!Eq || Eq->getOpcode() != BO_EQ)
        continue;
      if (namedDecl(Eq->getLHS()) == D)
        Result = integerConstant(Eq->getRHS(), Ctx);
      else if (namedDecl(Eq->getRHS()) == D)
        Result = integerConstant(Eq->getLHS(), Ctx);
    }
  });
  return Result;
}

// The number of threads the block is written for, when the code fixes it:
// a loop over the block's threads (`for (i = threadIdx.x; ...; i += N)`)
// whose stride N is pinned by `static_assert(N == K)` or equals the
// `__launch_bounds__` maximum. A block of any other size would skip or
// repeat elements of that loop, so the code is only right with N threads.
std::optional<int64_t> pinnedBlockThreads(const FunctionDecl *FD, const ASTContext &Ctx,
                                          int64_t LaunchBoundThreads) {
  std::optional<int64_t> Result;
  forEachStmt(FD->getBody(), [&](const Stmt *S) {
    const auto *For = dyn_cast<ForStmt>(S);
    if (Result || !For || !For->getInc())
      return;
    const auto *Inc = dyn_cast<BinaryOperator>(For->getInc()->IgnoreParenImpCasts());
    if (!Inc || Inc->getOpcode() != BO_AddAssign)
      return;
    const auto *IndexRef = dyn_cast<DeclRefExpr>(Inc->getLHS()->IgnoreParenImpCasts());
    const auto *Index = IndexRef ? dyn_cast<VarDecl>(IndexRef->getDecl()) : nullptr;
    if (!Index || !Index->getInit() || !isThreadIdxX(Index->getInit(), Ctx))
      return;
    const Expr *Stride = Inc->getRHS();
    std::optional<int64_t> Value = integerConstant(Stride, Ctx);
    if (LaunchBoundThreads && Value && *Value == LaunchBoundThreads) {
      Result = Value;
      return;
    }
    if (const Decl *D = namedDecl(Stride))
      if (std::optional<int64_t> Asserted = staticAssertedValue(D, FD->getBody(), Ctx))
        if (!Value || *Value == *Asserted)
          Result = Asserted;
  });
  return Result;
}

} // namespace

namespace {

/// A read of per-warp slots that a warp-indexed store fills: everything the
/// bounds at the read are judged against.
struct PartialsCandidate {
  PartialsFinding F{};
  const FunctionDecl *FD = nullptr;
  /// The declaration whose type gives the slots (the caller's array behind
  /// a pointer parameter).
  const VarDecl *Slots = nullptr;
  /// The dimension indexed by the lane.
  size_t Dim = 0;
  LaneIdKind LaneKind = LaneIdKind::None;
  /// Whether the slots are also filled some other way.
  bool OtherStores = false;
};

/// The bounds on the lane index that hold at the read.
struct BoundsAtRead {
  /// A bound the analysis trusts (or cannot judge): no finding.
  bool Accepted = false;
  std::optional<Bound> Floor, TooBig;
};

} // namespace

/// The pattern without its bounds: a whole-element read of a `__shared__`
/// array (or a helper's pointer to one) at the lane index, with a
/// warp-indexed store of the same slots.
static std::optional<PartialsCandidate>
partialsCandidate(const ArraySubscriptExpr *Read, ASTContext &Ctx, const PartialsOptions &Opts) {
  // Only a whole element is a slot (`s[j]` of a 2-D `s` is a row).
  if (Read->getType()->isArrayType())
    return std::nullopt;
  std::optional<SlotAccess> Slot = slotAccess(Read);
  if (!Slot)
    return std::nullopt;
  const VarDecl *Array = Slot->Array;
  // A helper's pointer parameter may hold the caller's `__shared__` array
  // (asked of the caller below, once the rest of the pattern is there).
  const auto *Parm = dyn_cast<ParmVarDecl>(Array);
  bool ThroughPointer = !Array->hasAttr<CUDASharedAttr>();
  if (ThroughPointer) {
    if (!Parm || !Parm->getType()->isPointerType() || Slot->Indices.size() != 1 ||
        !Opts.SharedArgument)
      return std::nullopt;
    const ParameterStores &Stores = parameterStores(Parm, Ctx);
    if (!Stores.Parameters.contains(Parm) || Stores.Subscripts.contains(Read))
      return std::nullopt;
  }
  // The dimension indexed by the lane (the last one that is).
  std::optional<size_t> Dim;
  LaneIdKind LaneKind = LaneIdKind::None;
  for (size_t I = 0; I < Slot->Indices.size(); ++I) {
    LaneIdKind K = classifyLaneId(Slot->Indices[I], Ctx);
    if (K != LaneIdKind::None || isThreadIdxX(Slot->Indices[I], Ctx)) {
      Dim = I;
      LaneKind = K;
    }
  }
  if (!Dim)
    return std::nullopt;
  const Expr *Idx = Slot->Indices[*Dim];
  if (!isRead(Read, Ctx))
    return std::nullopt;

  const FunctionDecl *FD = enclosingFunction(Read, Ctx, /*ThroughLambdas=*/true);
  if (!FD || !FD->getBody())
    return std::nullopt;
  // A pointer parameter moved on (`p += n`) no longer names the slots.
  if (ThroughPointer && LocalWriteFacts(FD->getBody()).isWrittenAfterInit(Array))
    return std::nullopt;
  bool OtherStores = false;
  const Expr *Store =
      warpIndexStore(Array, *Dim, Slot->Indices.size(), FD->getBody(), Read, Ctx, &OtherStores);
  if (!Store)
    return std::nullopt;
  // The declaration whose type gives the slots: the array itself, or the
  // caller's `__shared__` array behind the pointer.
  const VarDecl *Slots = Array;
  const DeclRefExpr *SharedArgument = nullptr;
  if (ThroughPointer) {
    SharedArgument = Opts.SharedArgument(Parm);
    if (!SharedArgument)
      return std::nullopt;
    Slots = cast<VarDecl>(SharedArgument->getDecl());
  }
  // The declared extent of that dimension.
  const ArrayType *AT = Ctx.getAsArrayType(Slots->getType());
  for (size_t I = 0; AT && I < *Dim; ++I)
    AT = Ctx.getAsArrayType(AT->getElementType());
  if (!AT)
    return std::nullopt;

  PartialsCandidate C;
  PartialsFinding &F = C.F;
  F.Defect = PartialsDefect::Unbounded;
  F.Read = Read;
  F.Array = Array;
  F.WarpIndexWrite = Store;
  F.SharedArgument = SharedArgument;
  F.LaneIndex = Idx;
  if (const auto *CAT = dyn_cast<ConstantArrayType>(AT))
    F.ArraySize = CAT->getSize().getZExtValue();
  if (const auto *LB = FD->getAttr<CUDALaunchBoundsAttr>())
    if (std::optional<int64_t> N = integerConstant(LB->getMaxThreads(), Ctx))
      if (*N > 0) {
        F.LaunchBoundThreads = *N;
        F.MaxWarps = static_cast<unsigned>(std::min<int64_t>((*N + 31) / 32, 32));
      }
  C.FD = FD;
  C.Slots = Slots;
  C.Dim = *Dim;
  C.LaneKind = LaneKind;
  C.OtherStores = OtherStores;
  return C;
}

static BoundsAtRead boundsAtRead(const ArraySubscriptExpr *Read, const PartialsFinding &F,
                                 ASTContext &Ctx) {
  BoundsAtRead Result;
  bool &Accepted = Result.Accepted;
  std::optional<Bound> &FloorStore = Result.Floor, &TooBig = Result.TooBig;
  for (const Fact &Fc : factsAt(Read, Ctx)) {
    forEachComparison(Fc, Ctx, [&](const Comparison &C) {
      const Expr *Small = C.Small;
      if (!isLaneId(Small, Ctx) && !isThreadIdxX(Small, Ctx))
        return;
      const Expr *Limit = C.Large;
      bool InPlace = true;
      if (!C.Strict) {
        // `lane <= nw - 1`
        const auto *Sub = dyn_cast<BinaryOperator>(stripValue(Limit));
        std::optional<int64_t> One = Sub ? integerConstant(Sub->getRHS(), Ctx) : std::nullopt;
        if (Sub && Sub->getOpcode() == BO_Sub && One && *One == 1) {
          Limit = Sub->getLHS();
          InPlace = false;
        } else if (std::optional<int64_t> K = integerConstant(Limit, Ctx)) {
          Bound B;
          B.Kind = BoundKind::Const;
          B.Value = *K + 1;
          B.Written = Limit;
          if (B.Value < 32) {
            if ((F.ArraySize && B.Value > static_cast<int64_t>(F.ArraySize)) ||
                B.Value > F.MaxWarps)
              TooBig = B;
            else
              Accepted = true;
          }
          return;
        } else {
          Accepted = true; // some other bound: trust it
          return;
        }
      }
      Bound B = classifyBound(Limit, Ctx, 0, InPlace);
      switch (B.Kind) {
      case BoundKind::Unknown:
      case BoundKind::Ceil:
        Accepted = true;
        return;
      case BoundKind::Floor:
        FloorStore = B;
        return;
      case BoundKind::Const:
        // `threadIdx.x < 32` picks warp 0; it does not bound by warps. A
        // warp count that folds to 32 (`BLOCK / warpSize` in a 1024-thread
        // instance) does.
        if (B.Value >= 32 && !B.WarpCount)
          return;
        if ((F.ArraySize && B.Value > static_cast<int64_t>(F.ArraySize)) || B.Value > F.MaxWarps)
          TooBig = B;
        else
          Accepted = true;
        return;
      }
    });
  }
  return Result;
}

/// A bound that rounds the warp count down (`lane < blockDim.x / 32`):
/// wrong only when blocks may end in a partial warp.
static std::optional<PartialsFinding>
judgeFlooredBound(const PartialsCandidate &C, const Bound &Floor, const PartialsOptions &Opts) {
  PartialsFinding F = C.F;
  const FunctionDecl *FD = C.FD;
  // The option vouches for blockDim.x only, not for a constant that is
  // visibly not a multiple of 32.
  if (Opts.AssumeWholeWarps && !Floor.KnownPartialWarp)
    return std::nullopt;
  // So do launches that all use whole warps in x: the floor is then exact.
  if (!Floor.KnownPartialWarp) {
    if (auto Launched = Opts.LaunchedShapes ? Opts.LaunchedShapes(FD) : std::nullopt) {
      auto Partial = llvm::find_if(*Launched, [](const BlockShape &S) { return S.X % 32; });
      if (Partial == Launched->end())
        return std::nullopt;
      F.WitnessLaunch = *Partial;
    } else if (Opts.LaunchedXZeroBits) {
      // Run-time blocks: `dim3 block(rows * 128)` is whole warps too.
      std::optional<unsigned> Bits = Opts.LaunchedXZeroBits(FD);
      if (Bits && *Bits >= 5)
        return std::nullopt;
    }
  }
  F.Defect = PartialsDefect::FlooredBound;
  F.Bound = Floor.Written;
  F.CeilingFix = Floor.FloorInPlace;
  F.Spelling = Floor.Spelling;
  return F;
}

/// No bound at the read: every lane of the warp reads a slot.
static std::optional<PartialsFinding> judgeUnbounded(const PartialsCandidate &C, ASTContext &Ctx,
                                                     const PartialsOptions &Opts) {
  PartialsFinding F = C.F;
  const FunctionDecl *FD = C.FD;
  const ArraySubscriptExpr *Read = F.Read;
  // No bound: lanes 0..31 (a tile's rank: its size) all read.
  if (F.ArraySize && F.ArraySize < 32 && C.LaneKind != LaneIdKind::TileRank) {
    F.Defect = PartialsDefect::ArrayTooSmall;
    return F;
  }
  // Slots filled some other way (zeroed first, written at the lane index).
  if (C.OtherStores)
    return std::nullopt;
  // A block the code fixes at 32 warps writes every slot the lanes read.
  if (std::optional<int64_t> Threads = pinnedBlockThreads(FD, Ctx, F.LaunchBoundThreads))
    if ((*Threads + 31) / 32 >= 32 && (!F.ArraySize || F.ArraySize >= 32))
      return std::nullopt;
  // So does every launch that runs the read, when each has 32 warps.
  bool SmallArray = F.ArraySize && F.ArraySize < 32;
  if (auto Launched = SmallArray || !Opts.LaunchedShapes ? std::nullopt : Opts.LaunchedShapes(FD)) {
    auto Fewer =
        llvm::find_if(*Launched, [](const BlockShape &S) { return (S.threads() + 31) / 32 < 32; });
    if (Fewer == Launched->end())
      return std::nullopt;
    F.WitnessLaunch = *Fewer;
  }
  // `__shared__ T s[BLOCK / 32]` with 32 slots: one per warp of the block
  // the code is written for, so every slot the lanes read was written.
  if (F.ArraySize >= 32 && C.Dim == 0)
    if (TypeSourceInfo *TSI = C.Slots->getTypeSourceInfo())
      if (auto ATL = TSI->getTypeLoc().getAs<ConstantArrayTypeLoc>()) {
        PartialsFinding::FloorSpelling Ignored;
        if (const Expr *Dividend = dividendByWarp(ATL.getSizeExpr(), Ctx, &Ignored))
          if (integerConstant(Dividend, Ctx))
            return std::nullopt;
      }
  F.Defect = PartialsDefect::Unbounded;
  if (const VarDecl *Target = simpleLoadTarget(Read, Ctx))
    if (isSumReducedAfter(Target, Read, Ctx))
      F.GuardedReadFix = Read;
  return F;
}

std::optional<PartialsFinding> analyzePartialsRead(const ArraySubscriptExpr *Read, ASTContext &Ctx,
                                                   const PartialsOptions &Opts) {
  std::optional<PartialsCandidate> C = partialsCandidate(Read, Ctx, Opts);
  if (!C)
    return std::nullopt;
  BoundsAtRead Bounds = boundsAtRead(Read, C->F, Ctx);
  if (Bounds.Accepted)
    return std::nullopt;
  if (Bounds.TooBig) {
    PartialsFinding F = C->F;
    F.ConstantBound = Bounds.TooBig->Value;
    F.Bound = Bounds.TooBig->Written;
    F.Defect = F.ArraySize && Bounds.TooBig->Value > static_cast<int64_t>(F.ArraySize)
                   ? PartialsDefect::ArrayTooSmall
                   : PartialsDefect::BoundExceedsWarps;
    return F;
  }
  // The unit's launches are asked only once a report is otherwise due: it
  // may walk the unit's calls.
  if (Bounds.Floor)
    return judgeFlooredBound(*C, *Bounds.Floor, Opts);
  return judgeUnbounded(*C, Ctx, Opts);
}

} // namespace warp_tidy
