//===--- LaunchBlockShapes.cpp - The block shapes a launch can use --------===//

#include "launch/LaunchBlockShapes.h"
#include "ast/AstQueries.h"
#include "ast/GuardFacts.h"
#include "ast/LocalWrites.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"

using namespace clang;

namespace warp_tidy {
namespace {

using Values = llvm::SmallVector<int64_t, 8>;
// More values than this and the set is not worth keeping.
constexpr size_t MaxValues = 64;
// Blocks hold at most 1024 threads; larger values cannot be launched.
constexpr int64_t MaxBlockThreads = 1024;

void addValue(Values &Out, int64_t V) {
  if (llvm::find(Out, V) == Out.end())
    Out.push_back(V);
}

class HostValues {
public:
  HostValues(ASTContext &Ctx, const FunctionDecl *Fn, const Stmt *At) : Ctx(Ctx), Fn(Fn), At(At) {}

  std::optional<Values> of(const Expr *E, unsigned Depth = 0) {
    if (!E || Depth > 8)
      return std::nullopt;
    E = stripValue(E);
    if (std::optional<int64_t> C = integerConstant(E, Ctx))
      return Values{*C};
    if (const auto *Default = dyn_cast<CXXDefaultArgExpr>(E))
      return of(Default->getExpr(), Depth + 1);
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
      const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
      if (!Var)
        return std::nullopt;
      if (auto It = Bound.find(Var); It != Bound.end())
        return Values{It->second};
      return ofVariable(Var, Depth);
    }
    if (const auto *C = dyn_cast<ConditionalOperator>(E)) {
      std::optional<Values> A = of(C->getTrueExpr(), Depth + 1);
      std::optional<Values> B = of(C->getFalseExpr(), Depth + 1);
      if (!A || !B)
        return std::nullopt;
      for (int64_t V : *B)
        addValue(*A, V);
      return A;
    }
    if (const auto *B = dyn_cast<BinaryOperator>(E)) {
      if (B->isAssignmentOp() || B->isComparisonOp() || B->isLogicalOp())
        return std::nullopt;
      return combine(B->getOpcode(), of(B->getLHS(), Depth + 1), of(B->getRHS(), Depth + 1));
    }
    return std::nullopt;
  }

private:
  static std::optional<int64_t> apply(BinaryOperatorKind Op, int64_t L, int64_t R) {
    switch (Op) {
    case BO_Add:
    case BO_AddAssign:
      return L + R;
    case BO_Sub:
    case BO_SubAssign:
      return L - R;
    case BO_Mul:
    case BO_MulAssign:
      return L * R;
    case BO_Div:
    case BO_DivAssign:
      return R == 0 ? std::nullopt : std::optional(L / R);
    case BO_Rem:
    case BO_RemAssign:
      return R == 0 ? std::nullopt : std::optional(L % R);
    case BO_Shl:
    case BO_ShlAssign:
      return R < 0 || R > 30 ? std::nullopt : std::optional(L << R);
    case BO_Shr:
    case BO_ShrAssign:
      return R < 0 || R > 62 ? std::nullopt : std::optional(L >> R);
    case BO_And:
    case BO_AndAssign:
      return L & R;
    case BO_Or:
    case BO_OrAssign:
      return L | R;
    case BO_Xor:
    case BO_XorAssign:
      return L ^ R;
    default:
      return std::nullopt;
    }
  }

  static std::optional<Values> combine(BinaryOperatorKind Op, std::optional<Values> L,
                                       std::optional<Values> R) {
    if (!L || !R)
      return std::nullopt;
    Values Out;
    for (int64_t A : *L)
      for (int64_t B : *R) {
        std::optional<int64_t> V = apply(Op, A, B);
        if (!V)
          return std::nullopt;
        addValue(Out, *V);
        if (Out.size() > MaxValues)
          return std::nullopt;
      }
    return Out;
  }

  /// A local of the host function: its initialiser, then each of its writes
  /// (none in a loop, none through a pointer or reference) either applied
  /// or not, in source order.
  std::optional<Values> ofVariable(const VarDecl *Var, unsigned Depth) {
    if (!Var->hasLocalStorage() || isa<ParmVarDecl>(Var) || !Var->getInit() ||
        Var->getType()->isReferenceType() || !Fn->getBody())
      return std::nullopt;
    std::optional<Values> Current = of(Var->getInit(), Depth + 1);
    if (!Current)
      return std::nullopt;
    bool Unreadable = false;
    llvm::SmallVector<const Expr *, 4> Writes;
    forEachStmt(Fn->getBody(), [&](const Stmt *S) {
      const auto *Ref = dyn_cast<DeclRefExpr>(S);
      if (Unreadable || !Ref || Ref->getDecl() != Var)
        return;
      const Stmt *P = parentStmt(Ref, Ctx);
      if (const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(P);
          Cast && Cast->getCastKind() == CK_LValueToRValue)
        return;
      const auto *Write = dyn_cast_or_null<Expr>(P);
      bool IsWrite = false;
      if (const auto *B = dyn_cast_or_null<BinaryOperator>(P))
        IsWrite = B->isAssignmentOp() && B->getLHS()->IgnoreParens() == Ref;
      if (const auto *U = dyn_cast_or_null<UnaryOperator>(P))
        IsWrite = U->isIncrementDecrementOp();
      if (!IsWrite) {
        Unreadable = true;
        return;
      }
      for (const Stmt *A = parentStmt(Write, Ctx); A; A = parentStmt(A, Ctx))
        if (isLoopStmt(A))
          Unreadable = true;
      Writes.push_back(Write);
    });
    if (Unreadable)
      return std::nullopt;
    const SourceManager &SM = Ctx.getSourceManager();
    for (const Expr *W : Writes) {
      if (!SM.isBeforeInTranslationUnit(W->getBeginLoc(), At->getBeginLoc()))
        continue; // after the launch, which is in no loop with it
      Values Next = *Current;
      for (int64_t Old : *Current) {
        std::optional<Values> New;
        if (const auto *U = dyn_cast<UnaryOperator>(W)) {
          New = Values{U->isIncrementOp() ? Old + 1 : Old - 1};
        } else {
          const auto *B = cast<BinaryOperator>(W);
          Bound[Var] = Old;
          std::optional<Values> R = of(B->getRHS(), Depth + 1);
          Bound.erase(Var);
          New = B->getOpcode() == BO_Assign ? R : combine(B->getOpcode(), Values{Old}, R);
        }
        if (!New)
          return std::nullopt;
        for (int64_t V : *New)
          addValue(Next, V);
      }
      if (Next.size() > MaxValues)
        return std::nullopt;
      Current = std::move(Next);
    }
    return Current;
  }

  ASTContext &Ctx;
  const FunctionDecl *Fn;
  const Stmt *At;
  llvm::DenseMap<const VarDecl *, int64_t> Bound;
};

/// What builds a `dim3` (or integer) block argument: the integer expression
/// it converts, or the `dim3` construction from up to three extents, found
/// through parentheses, casts, temporaries, copies and never-written local
/// `dim3`s. Null when it cannot be read.
const Expr *blockBuilder(const Expr *E, ASTContext &Ctx) {
  for (unsigned Depth = 0; E && Depth <= 6; ++Depth) {
    E = E->IgnoreParenImpCasts();
    // A dependent initialiser (`dim3 b(min(n, T(256)))` in a template, a
    // ParenListExpr) has no type to read.
    if (E->getType().isNull() || E->isTypeDependent() || E->isValueDependent())
      return nullptr;
    if (const auto *MT = dyn_cast<MaterializeTemporaryExpr>(E)) {
      E = MT->getSubExpr();
      continue;
    }
    if (const auto *Bind = dyn_cast<CXXBindTemporaryExpr>(E)) {
      E = Bind->getSubExpr();
      continue;
    }
    if (const auto *Func = dyn_cast<CXXFunctionalCastExpr>(E)) {
      E = Func->getSubExpr();
      continue;
    }
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
      const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
      const FunctionDecl *Fn = enclosingFunction(Ref, Ctx);
      if (!Var || !Fn || !Fn->getBody() || !Var->hasLocalStorage() || isa<ParmVarDecl>(Var) ||
          Var->getType()->isReferenceType() || !isNeverWrittenIn(Var, Fn->getBody()))
        return nullptr;
      E = Var->getInit();
      continue;
    }
    if (E->getType()->isIntegerType())
      return E;
    const auto *Construct = dyn_cast<CXXConstructExpr>(E);
    if (!Construct || Construct->getNumArgs() == 0 || Construct->getNumArgs() > 3)
      return nullptr;
    if (Construct->getNumArgs() == 1 && !Construct->getArg(0)->getType()->isIntegerType()) {
      E = Construct->getArg(0); // a copy
      continue;
    }
    return Construct;
  }
  return nullptr;
}

/// Every shape the extents \p Dims combine into that a block can have.
llvm::SmallVector<BlockShape, 8> combineExtents(const Values (&Dims)[3]) {
  llvm::SmallVector<BlockShape, 8> Out;
  for (int64_t X : Dims[0])
    for (int64_t Y : Dims[1])
      for (int64_t Z : Dims[2]) {
        if (X < 1 || Y < 1 || Z < 1 || X * Y * Z > MaxBlockThreads)
          continue;
        BlockShape S{static_cast<unsigned>(X), static_cast<unsigned>(Y), static_cast<unsigned>(Z),
                     nullptr};
        if (llvm::find(Out, S) == Out.end())
          Out.push_back(S);
      }
  return Out;
}

/// The local `dim3` a block argument names (through copies), or null.
const DeclRefExpr *namedDim3(const Expr *E) {
  for (unsigned Depth = 0; E && Depth <= 4; ++Depth) {
    E = E->IgnoreParenImpCasts();
    if (const auto *MT = dyn_cast<MaterializeTemporaryExpr>(E))
      E = MT->getSubExpr();
    else if (const auto *Construct = dyn_cast<CXXConstructExpr>(E);
             Construct && Construct->getNumArgs() == 1 &&
             Construct->getArg(0)->getType()->isRecordType())
      E = Construct->getArg(0);
    else
      break;
  }
  const auto *Ref = dyn_cast_or_null<DeclRefExpr>(E);
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!Var || !Var->hasLocalStorage() || isa<ParmVarDecl>(Var) ||
      Var->getType()->isReferenceType() || !Var->getType()->isRecordType())
    return nullptr;
  return Ref;
}

/// The field of a `dim3` a member names: 0 for x, 1 for y, 2 for z.
std::optional<unsigned> dim3Field(const MemberExpr *M) {
  const auto *Field = dyn_cast<FieldDecl>(M->getMemberDecl());
  if (!Field || !Field->getIdentifier() || M->isArrow())
    return std::nullopt;
  llvm::StringRef Name = Field->getName();
  if (Name.size() != 1 || Name[0] < 'x' || Name[0] > 'z')
    return std::nullopt;
  return Name[0] - 'x';
}

/// True when \p S runs whenever its function gets past it: every statement
/// around it up to the body is a block (no branch, loop or case).
bool runsUnconditionally(const Stmt *S, const Stmt *Body, ASTContext &Ctx) {
  for (const Stmt *P = parentStmt(S, Ctx); P; P = parentStmt(P, Ctx)) {
    if (P == Body)
      return true;
    if (!isa<CompoundStmt, ExprWithCleanups>(P))
      return false;
  }
  return false;
}

/// A local `dim3` set field by field before \p Launch (`dim3 block;
/// block.x = 256; block.y = 1;`): its constructor's extents, then each
/// field write in source order. A write that runs whenever the function
/// gets past it replaces the field's values; one under a branch may or may
/// not run and adds its values. nullopt when the local has any other write
/// or a write in a loop.
std::optional<llvm::SmallVector<BlockShape, 8>>
fieldWrittenDim3(const Expr *Arg, HostValues &Host, const Stmt *Launch, ASTContext &Ctx) {
  const DeclRefExpr *Named = namedDim3(Arg);
  const auto *Var = Named ? cast<VarDecl>(Named->getDecl()) : nullptr;
  const auto *Init = Var ? dyn_cast_or_null<CXXConstructExpr>(Var->getInit()) : nullptr;
  const FunctionDecl *Fn = Named ? enclosingFunction(Named, Ctx) : nullptr;
  if (!Init || Init->getNumArgs() > 3 || !Fn || !Fn->getBody())
    return std::nullopt;
  Values Dims[3] = {{1}, {1}, {1}};
  for (unsigned I = 0; I < Init->getNumArgs(); ++I) {
    if (!Init->getArg(I)->getType()->isIntegerType())
      return std::nullopt;
    std::optional<Values> V = Host.of(Init->getArg(I));
    if (!V)
      return std::nullopt;
    Dims[I] = std::move(*V);
  }
  const SourceManager &SM = Ctx.getSourceManager();
  bool Unreadable = false, AnyFieldWrite = false;
  llvm::SmallVector<std::pair<const BinaryOperator *, unsigned>, 4> Writes;
  forEachStmt(Fn->getBody(), [&](const Stmt *S) {
    const auto *Ref = dyn_cast<DeclRefExpr>(S);
    if (Unreadable || !Ref || Ref->getDecl() != Var || Ref == Named)
      return;
    const auto *M = dyn_cast_or_null<MemberExpr>(parentStmt(Ref, Ctx));
    std::optional<unsigned> Field = M ? dim3Field(M) : std::nullopt;
    const Stmt *Use = M ? parentStmt(M, Ctx) : nullptr;
    if (const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(Use);
        Field && Cast && Cast->getCastKind() == CK_LValueToRValue)
      return; // a field read
    const auto *Assign = dyn_cast_or_null<BinaryOperator>(Use);
    if (!Field || !Assign || Assign->getOpcode() != BO_Assign || Assign->getLHS() != M) {
      Unreadable = true;
      return;
    }
    for (const Stmt *A = parentStmt(Assign, Ctx); A; A = parentStmt(A, Ctx))
      if (isLoopStmt(A))
        Unreadable = true;
    AnyFieldWrite = true;
    if (SM.isBeforeInTranslationUnit(Assign->getBeginLoc(), Launch->getBeginLoc()))
      Writes.push_back({Assign, *Field});
  });
  if (Unreadable || !AnyFieldWrite)
    return std::nullopt;
  for (const auto &[Assign, Field] : Writes) {
    std::optional<Values> V = Host.of(Assign->getRHS());
    if (!V)
      return std::nullopt;
    if (runsUnconditionally(Assign, Fn->getBody(), Ctx))
      Dims[Field] = std::move(*V);
    else
      for (int64_t X : *V)
        addValue(Dims[Field], X);
  }
  return combineExtents(Dims);
}

/// Shapes of a `dim3` (or integer) block argument.
std::optional<llvm::SmallVector<BlockShape, 8>> shapesOf(const Expr *E, HostValues &Host,
                                                         const Stmt *Launch, ASTContext &Ctx) {
  if (std::optional<llvm::SmallVector<BlockShape, 8>> Fields =
          fieldWrittenDim3(E, Host, Launch, Ctx))
    return Fields;
  const Expr *Builder = blockBuilder(E, Ctx);
  if (!Builder)
    return std::nullopt;
  const auto *Construct = dyn_cast<CXXConstructExpr>(Builder);
  if (!Construct) {
    std::optional<Values> X = Host.of(Builder);
    if (!X)
      return std::nullopt;
    llvm::SmallVector<BlockShape, 8> Out;
    for (int64_t V : *X)
      if (V >= 1 && V <= MaxBlockThreads)
        Out.push_back({static_cast<unsigned>(V), 1, 1, nullptr});
    return Out;
  }
  Values Dims[3] = {{1}, {1}, {1}};
  for (unsigned I = 0; I < Construct->getNumArgs(); ++I) {
    std::optional<Values> V = Host.of(Construct->getArg(I));
    if (!V)
      return std::nullopt;
    Dims[I] = std::move(*V);
  }
  return combineExtents(Dims);
}

} // namespace

const Expr *blockXExpression(const CUDAKernelCallExpr *Launch, ASTContext &Ctx) {
  const CallExpr *Config = Launch ? Launch->getConfig() : nullptr;
  if (!Config || Config->getNumArgs() < 2)
    return nullptr;
  const Expr *Builder = blockBuilder(Config->getArg(1), Ctx);
  if (const auto *Construct = dyn_cast_or_null<CXXConstructExpr>(Builder))
    return Construct->getArg(0);
  return Builder;
}

std::optional<llvm::SmallVector<BlockShape, 8>>
blockShapesOfLaunch(const CUDAKernelCallExpr *Launch, const FunctionDecl *Caller, ASTContext &Ctx) {
  const CallExpr *Config = Launch ? Launch->getConfig() : nullptr;
  if (!Config || Config->getNumArgs() < 2 || !Caller)
    return std::nullopt;
  HostValues Host(Ctx, Caller, Launch);
  std::optional<llvm::SmallVector<BlockShape, 8>> Shapes =
      shapesOf(Config->getArg(1), Host, Launch, Ctx);
  if (Shapes)
    for (BlockShape &S : *Shapes)
      S.Launch = Launch;
  return Shapes;
}

} // namespace warp_tidy
