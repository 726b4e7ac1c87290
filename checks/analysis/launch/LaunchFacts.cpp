//===--- LaunchFacts.cpp - What every launch in the unit says about a kernel ===//

#include "launch/LaunchFacts.h"
#include "ast/AstQueries.h"
#include "ast/LocalWrites.h"
#include "ast/UnitContext.h"
#include "ast/UnitParents.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <map>
#include <optional>

using namespace clang;

namespace warp_tidy {

/// A kernel that another unit may launch: one with external linkage, except
/// an implicit instantiation of a template defined in this unit's own file
/// (not a header), which no other unit can instantiate.
static bool launchableElsewhere(const FunctionDecl *Kernel) {
  if (!Kernel->isExternallyVisible())
    return false;
  const FunctionTemplateDecl *Primary = Kernel->getPrimaryTemplate();
  if (!Primary || Kernel->getTemplateSpecializationKind() != TSK_ImplicitInstantiation)
    return true;
  const FunctionDecl *Pattern = Primary->getTemplatedDecl()->getDefinition();
  const SourceManager &SM = Kernel->getASTContext().getSourceManager();
  return !Pattern || !SM.isInMainFile(SM.getExpansionLoc(Pattern->getLocation()));
}

namespace {

bool isKernel(const FunctionDecl *FD) { return FD && FD->hasAttr<CUDAGlobalAttr>(); }

/// One key for a kernel's source: a template's pattern and its
/// instantiations are the same code.
const FunctionDecl *sourceKernel(const FunctionDecl *FD) {
  if (const FunctionDecl *Pattern = FD->getTemplateInstantiationPattern())
    FD = Pattern;
  return FD->getCanonicalDecl();
}

/// `std::forward<T>(x)` / `std::move(x)` as `x`: the value a launcher passes on.
const Expr *throughForwarding(const Expr *E) {
  E = stripValue(E);
  while (const auto *Call = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee || Call->getNumArgs() != 1 || !Callee->isInStdNamespace() ||
        !Callee->getIdentifier() || (Callee->getName() != "forward" && Callee->getName() != "move"))
      break;
    E = stripValue(Call->getArg(0));
  }
  return E;
}

bool isNoReturnCall(const Stmt *S) {
  if (const auto *E = dyn_cast_or_null<Expr>(S)) {
    E = E->IgnoreParenCasts();
    if (const auto *Call = dyn_cast<CallExpr>(E))
      if (const FunctionDecl *Callee = Call->getDirectCallee())
        return Callee->isNoReturn();
    if (const auto *Comma = dyn_cast<BinaryOperator>(E); Comma && Comma->isCommaOp())
      return isNoReturnCall(Comma->getLHS()) || isNoReturnCall(Comma->getRHS());
  }
  return false;
}

/// True when control never leaves \p S normally: a return, a throw, a call
/// to a noreturn function, or a block that ends in one.
bool neverFallsThrough(const Stmt *S) {
  if (!S)
    return false;
  if (isa<ReturnStmt>(S) || isa<CXXThrowExpr>(S))
    return true;
  if (const auto *Block = dyn_cast<CompoundStmt>(S))
    return llvm::any_of(Block->body(), [](const Stmt *Child) { return neverFallsThrough(Child); });
  if (const auto *Do = dyn_cast<DoStmt>(S))
    return neverFallsThrough(Do->getBody());
  return isNoReturnCall(S);
}

/// Facts of the form "variable V is a multiple of 2^k", gathered from the
/// conditions that hold where a launch is.
class DominatingFacts {
public:
  void add(const Expr *Cond, bool Holds, unsigned Depth = 0) {
    if (!Cond || Depth > 8)
      return;
    Cond = stripValue(Cond);
    if (const auto *Call = dyn_cast<CallExpr>(Cond))
      if (Call->getBuiltinCallee() == Builtin::BI__builtin_expect && Call->getNumArgs() == 2)
        return add(Call->getArg(0), Holds, Depth + 1);
    if (const auto *U = dyn_cast<UnaryOperator>(Cond); U && U->getOpcode() == UO_LNot)
      return add(U->getSubExpr(), !Holds, Depth + 1);
    if (const auto *B = dyn_cast<BinaryOperator>(Cond)) {
      // A && B true: both are; A || B false: neither is.
      if ((B->getOpcode() == BO_LAnd && Holds) || (B->getOpcode() == BO_LOr && !Holds)) {
        add(B->getLHS(), Holds, Depth + 1);
        add(B->getRHS(), Holds, Depth + 1);
        return;
      }
      BinaryOperatorKind Op = B->getOpcode();
      if ((Op == BO_EQ && Holds) || (Op == BO_NE && !Holds)) {
        // x % m == 0, (x & (m - 1)) == 0, in either order.
        if (isZero(B->getRHS()))
          return addMultiple(B->getLHS());
        if (isZero(B->getLHS()))
          return addMultiple(B->getRHS());
      }
      return;
    }
    // `if (x % 32) fail();`: the remainder, as a truth value, is false.
    if (!Holds)
      addMultiple(Cond);
  }

  unsigned zeroBitsOf(const VarDecl *V) const { return Known.lookup(V); }

  ASTContext *Ctx = nullptr;

private:
  bool isZero(const Expr *E) const {
    std::optional<int64_t> V = integerConstant(E, *Ctx);
    return V && *V == 0;
  }

  /// \p E is known to be zero: record what that says about its variable.
  void addMultiple(const Expr *E) {
    E = stripValue(E);
    const auto *B = dyn_cast<BinaryOperator>(E);
    if (!B)
      return;
    const auto *Ref = dyn_cast<DeclRefExpr>(stripValue(B->getLHS()));
    const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    std::optional<int64_t> M = integerConstant(B->getRHS(), *Ctx);
    if (!Var || !M || *M <= 0)
      return;
    unsigned Bits = 0;
    if (B->getOpcode() == BO_Rem)
      Bits = llvm::countr_zero(static_cast<uint64_t>(*M)); // x % 96 == 0: 5 bits
    else if (B->getOpcode() == BO_And && llvm::isPowerOf2_64(static_cast<uint64_t>(*M) + 1))
      Bits = llvm::countr_one(static_cast<uint64_t>(*M));
    if (Bits)
      Known[Var] = std::max(Known[Var], Bits);
  }

  llvm::DenseMap<const VarDecl *, unsigned> Known;
};

/// A launch written in the source: `k<<<...>>>(args)`, or the typed
/// `cudaLaunchKernelEx(&config, k, args...)`, which forwards its arguments.
struct LaunchSite {
  const Expr *Kernel = nullptr; ///< what it launches (a kernel or a parameter)
  llvm::SmallVector<const Expr *, 8> Args;
  const Stmt *At = nullptr;
  const FunctionDecl *Fn = nullptr;
};

/// The CUDA runtime/driver entry points that launch a kernel from a pointer
/// and an argument array: through them, a kernel's address can become a
/// launch whose arguments this file cannot read.
bool isGenericLaunchApi(const FunctionDecl *FD) {
  if (!FD->getIdentifier() || !isToolchainDeclaration(FD))
    return false;
  llvm::StringRef Name = FD->getName();
  if (Name == "cudaLaunchHostFunc")
    return false;
  return Name.starts_with("cudaLaunch") || Name.starts_with("cuLaunch") ||
         Name.starts_with("cudaGraph") || Name.starts_with("cuGraph") ||
         Name == "cudaGetFuncBySymbol" || Name.starts_with("cudaGetKernel");
}

/// `cudaLaunchKernelEx(&config, kernel, args...)`: the C++ template of the
/// runtime whose kernel parameter is a typed function pointer, so that its
/// arguments are the kernel's.
bool isTypedLaunchEx(const CallExpr *Call) {
  const FunctionDecl *FD = Call->getDirectCallee();
  return FD && FD->getIdentifier() && FD->getName() == "cudaLaunchKernelEx" &&
         isToolchainDeclaration(FD) && FD->getNumParams() >= 2 &&
         FD->getParamDecl(1)->getType()->isFunctionPointerType() && Call->getNumArgs() >= 2;
}

class LaunchCollector : public RecursiveASTVisitor<LaunchCollector> {
public:
  explicit LaunchCollector(ASTContext &Ctx) : Ctx(Ctx) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }

  bool TraverseFunctionDecl(FunctionDecl *FD) {
    return inFunction(FD, [&] { return RecursiveASTVisitor::TraverseFunctionDecl(FD); });
  }
  bool TraverseCXXMethodDecl(CXXMethodDecl *MD) {
    return inFunction(MD, [&] { return RecursiveASTVisitor::TraverseCXXMethodDecl(MD); });
  }

  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    if (const auto *FD = dyn_cast<FunctionDecl>(Ref->getDecl()); isKernel(FD))
      KernelRefs.push_back({Ref, FD});
    if (const auto *Parm = dyn_cast<ParmVarDecl>(Ref->getDecl()))
      if (Parm->getType()->isFunctionPointerType() || Parm->getType()->isFunctionReferenceType())
        ParamRefs.push_back(Ref);
    return true;
  }
  bool VisitCallExpr(CallExpr *Call) {
    if (!Current)
      return true;
    if (const auto *Launch = dyn_cast<CUDAKernelCallExpr>(Call)) {
      LaunchSite L{Launch->getCallee(), {}, Launch, Current};
      L.Args.append(Launch->arg_begin(), Launch->arg_end());
      Launches.push_back(std::move(L));
      return true;
    }
    if (isTypedLaunchEx(Call)) {
      LaunchSite L{Call->getArg(1), {}, Call, Current};
      L.Args.append(Call->arg_begin() + 2, Call->arg_end());
      Launches.push_back(std::move(L));
      return true;
    }
    if (const FunctionDecl *Callee = Call->getDirectCallee())
      if (isGenericLaunchApi(Callee) &&
          !Ctx.getSourceManager().isInSystemHeader(Call->getBeginLoc()))
        GenericLaunch = true;
    return true;
  }

  ASTContext &Ctx;
  const FunctionDecl *Current = nullptr;
  bool GenericLaunch = false; ///< a launch from an address and an argument array
  std::vector<std::pair<const DeclRefExpr *, const FunctionDecl *>> KernelRefs;
  std::vector<const DeclRefExpr *> ParamRefs;
  std::vector<LaunchSite> Launches;

private:
  template <typename Fn> bool inFunction(FunctionDecl *FD, Fn Traverse) {
    // A template's pattern is never compiled itself; its instantiations are
    // visited. The toolchain's own launch helpers are not the project's.
    if (FD->isDependentContext() || Ctx.getSourceManager().isInSystemHeader(FD->getLocation()))
      return true;
    const FunctionDecl *Saved = Current;
    Current = FD;
    bool R = Traverse();
    Current = Saved;
    return R;
  }
};

} // namespace

/// The variables written in a function body, with one launcher call read as
/// writing nothing (isNeverWrittenIn), per (body, call): the launches of a
/// unit often share both, and ask about the same few variables.
class LaunchFacts::WrittenVariables {
public:
  bool isWritten(const VarDecl *Var, const Stmt *Body, const CallExpr *ReadOnlyCall) {
    auto [It, New] = Scans.try_emplace({Body, ReadOnlyCall});
    if (New)
      It->second = writtenIn(Body, ReadOnlyCall);
    return It->second.contains(Var);
  }

private:
  llvm::DenseMap<std::pair<const Stmt *, const CallExpr *>, llvm::DenseSet<const VarDecl *>> Scans;
};

namespace {

using WrittenVariables = LaunchFacts::WrittenVariables;

/// Low zero bits of integer expressions evaluated at one point of a host
/// function.
class ZeroBitsAt {
public:
  /// \p At: the launch, or the call of a launcher that only forwards its
  /// arguments (binding them to its reference parameters writes nothing).
  ZeroBitsAt(ASTContext &Ctx, WrittenVariables &Written, const FunctionDecl *Fn, const Stmt *At,
             bool AtLauncher)
      : Ctx(Ctx), Written(Written), Fn(Fn),
        ReadOnlyCall(AtLauncher ? dyn_cast<CallExpr>(At) : nullptr) {
    Facts.Ctx = &Ctx;
    gatherDominatingFacts(At);
  }

  unsigned of(const Expr *E, unsigned Depth = 0) {
    if (!E || Depth > 6)
      return 0;
    E = stripValue(E);
    unsigned Width = E->getType()->isIntegerType() ? Ctx.getIntWidth(E->getType()) : 64;
    return std::min(Width, ofStripped(E, Depth));
  }

private:
  unsigned ofStripped(const Expr *E, unsigned Depth) {
    if (std::optional<int64_t> V = integerConstant(E, Ctx))
      return *V == 0 ? 64 : llvm::countr_zero(static_cast<uint64_t>(*V));
    if (const auto *Default = dyn_cast<CXXDefaultArgExpr>(E))
      return of(Default->getExpr(), Depth + 1);
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
      const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
      if (!Var || !Fn->getBody() || Written.isWritten(Var, Fn->getBody(), ReadOnlyCall))
        return 0;
      if (auto It = Bound.find(Var); It != Bound.end())
        return It->second;
      unsigned Bits = Facts.zeroBitsOf(Var);
      if (Var->hasLocalStorage() && !isa<ParmVarDecl>(Var) && Var->getInit())
        Bits = std::max(Bits, of(Var->getInit(), Depth + 1));
      return Bits;
    }
    if (const auto *B = dyn_cast<BinaryOperator>(E)) {
      unsigned L = of(B->getLHS(), Depth + 1);
      switch (B->getOpcode()) {
      case BO_Mul:
        return std::min(64u, L + of(B->getRHS(), Depth + 1));
      case BO_Add:
      case BO_Sub:
      case BO_Or:
      case BO_Xor:
        return std::min(L, of(B->getRHS(), Depth + 1));
      case BO_And:
        return std::max(L, of(B->getRHS(), Depth + 1));
      case BO_Shl:
        if (std::optional<int64_t> S = integerConstant(B->getRHS(), Ctx); S && *S >= 0 && *S < 64)
          return std::min<unsigned>(64, L + static_cast<unsigned>(*S));
        return L;
      case BO_Comma:
        return of(B->getRHS(), Depth + 1);
      default:
        return 0;
      }
    }
    if (const auto *C = dyn_cast<ConditionalOperator>(E))
      return std::min(of(C->getTrueExpr(), Depth + 1), of(C->getFalseExpr(), Depth + 1));
    if (const auto *Call = dyn_cast<CallExpr>(E))
      return ofCall(Call, Depth);
    return 0;
  }

  /// A call of a free function the unit defines (`std::min(1024, n * 32)`):
  /// its value is one of the values it returns, each read with the
  /// parameters bound to the arguments' bits. A parameter the body writes,
  /// a method (its object is state this does not follow), a body with no
  /// return value or one that recurses past the depth limit: nothing known.
  unsigned ofCall(const CallExpr *Call, unsigned Depth) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee || isa<CXXMethodDecl>(Callee) || isa<CUDAKernelCallExpr>(Call))
      return 0;
    const FunctionDecl *Definition = nullptr;
    if (!Callee->hasBody(Definition) || !Definition->getBody() ||
        Definition->getNumParams() != Call->getNumArgs())
      return 0;
    const Stmt *Body = Definition->getBody();
    ZeroBitsAt Inner(Ctx, Written, Definition, /*At=*/nullptr, /*AtLauncher=*/false);
    for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
      const ParmVarDecl *P = Definition->getParamDecl(I);
      if (Written.isWritten(P, Body, nullptr))
        return 0;
      Inner.Bound[P] = of(Call->getArg(I), Depth + 1);
    }
    std::optional<unsigned> Bits;
    bool Unknown = false;
    forEachStmt(Body, [&](const Stmt *S) {
      const auto *Return = dyn_cast<ReturnStmt>(S);
      if (isa<LambdaExpr>(S))
        Unknown = true; // its returns are not the callee's
      if (!Return || Unknown)
        return;
      if (!Return->getRetValue()) {
        Unknown = true;
        return;
      }
      unsigned B = Inner.of(Return->getRetValue(), Depth + 1);
      Bits = Bits ? std::min(*Bits, B) : B;
    });
    return Unknown || !Bits ? 0 : *Bits;
  }

  /// The conditions that hold at \p At: the branches around it, and the
  /// checks before it that stop the function when they fail.
  void gatherDominatingFacts(const Stmt *At) {
    const Stmt *Child = At;
    for (unsigned Steps = 0; Child && Steps < 64; ++Steps) {
      const Stmt *Parent = firstParent(*Child, Ctx).get<Stmt>();
      if (!Parent)
        return; // reached the function (or a declaration)
      if (const auto *Block = dyn_cast<CompoundStmt>(Parent)) {
        for (const Stmt *Before : Block->body()) {
          if (Before == Child)
            break;
          addGuard(Before);
        }
      } else if (const auto *If = dyn_cast<IfStmt>(Parent)) {
        if (!If->isConstexpr() && !If->getConditionVariable()) {
          if (Child == If->getThen())
            Facts.add(If->getCond(), true);
          else if (Child == If->getElse())
            Facts.add(If->getCond(), false);
        }
      }
      Child = Parent;
    }
  }

  /// A statement that stops the function unless its condition holds.
  void addGuard(const Stmt *S, unsigned Depth = 0) {
    if (Depth > 4)
      return;
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      if (!If->getElse() && !If->isConstexpr() && !If->getConditionVariable() &&
          neverFallsThrough(If->getThen()))
        Facts.add(If->getCond(), false);
      return;
    }
    if (const auto *Do = dyn_cast<DoStmt>(S)) {
      // `do { ... } while (0)` around a macro's checks.
      std::optional<int64_t> Again = integerConstant(Do->getCond(), Ctx);
      if (Again && *Again == 0) {
        if (const auto *Body = dyn_cast<CompoundStmt>(Do->getBody())) {
          for (const Stmt *Inner : Body->body())
            addGuard(Inner, Depth + 1);
        } else {
          addGuard(Do->getBody(), Depth + 1);
        }
      }
      return;
    }
    if (const auto *E = dyn_cast<Expr>(S)) {
      E = E->IgnoreParenCasts();
      // assert(c): `c ? (void)0 : __assert_fail(...)` or `(c) || (fail(), 0)`.
      if (const auto *C = dyn_cast<ConditionalOperator>(E)) {
        if (isNoReturnCall(C->getFalseExpr()) && !isNoReturnCall(C->getTrueExpr()))
          Facts.add(C->getCond(), true);
        else if (isNoReturnCall(C->getTrueExpr()) && !isNoReturnCall(C->getFalseExpr()))
          Facts.add(C->getCond(), false);
      } else if (const auto *B = dyn_cast<BinaryOperator>(E);
                 B && B->getOpcode() == BO_LOr && isNoReturnCall(B->getRHS())) {
        Facts.add(B->getLHS(), true);
      }
    }
  }

  ASTContext &Ctx;
  WrittenVariables &Written;
  const FunctionDecl *Fn;
  const CallExpr *ReadOnlyCall;
  DominatingFacts Facts;
  /// In a callee read for its return values: its parameters' bits.
  llvm::DenseMap<const VarDecl *, unsigned> Bound;
};

} // namespace

namespace {

/// How a reference to a kernel (or to a launcher's kernel parameter) is used.
/// Stored: its address kept as a function pointer (returned, an
/// initialiser, an element of a table, assigned), to be launched through one.
struct KernelUse {
  enum KindT { Launched, PassedToCall, Stored, Escapes } Kind = Escapes;
  const CallExpr *Call = nullptr; ///< PassedToCall: the call and the argument
  unsigned Arg = 0;
  bool AsData = false; ///< converted to a data pointer (`(const void *)k`) on the way
};

KernelUse useOf(const DeclRefExpr *Ref, ASTContext &Ctx,
                const llvm::DenseSet<const Expr *> &LaunchedExprs) {
  const Expr *E = Ref;
  KernelUse U;
  for (unsigned Steps = 0; Steps < 8; ++Steps) {
    if (LaunchedExprs.count(E)) {
      U.Kind = KernelUse::Launched;
      return U;
    }
    DynTypedNode Node = firstParent(*E, Ctx);
    bool AsPointer = E->getType()->isFunctionPointerType();
    if (AsPointer && (Node.get<ReturnStmt>() || Node.get<VarDecl>() || Node.get<InitListExpr>())) {
      U.Kind = KernelUse::Stored;
      return U;
    }
    const auto *Parent = Node.get<Expr>();
    if (!Parent)
      return U;
    if (const auto *Assign = dyn_cast<BinaryOperator>(Parent);
        AsPointer && Assign && Assign->getOpcode() == BO_Assign && Assign->getRHS() == E) {
      U.Kind = KernelUse::Stored;
      return U;
    }
    if (const auto *Pick = dyn_cast<ConditionalOperator>(Parent); Pick && Pick->getCond() != E) {
      E = Parent; // `big ? kernel<256> : kernel<128>`
      continue;
    }
    if (const auto *Cast = dyn_cast<CastExpr>(Parent)) {
      if (Cast->getType()->isPointerType() && !Cast->getType()->isFunctionPointerType())
        U.AsData = true;
      E = Parent;
      continue;
    }
    if (isa<ParenExpr>(Parent) ||
        (isa<UnaryOperator>(Parent) && cast<UnaryOperator>(Parent)->getOpcode() == UO_AddrOf)) {
      E = Parent;
      continue;
    }
    if (const auto *Call = dyn_cast<CallExpr>(Parent)) {
      for (unsigned I = 0; I < Call->getNumArgs(); ++I)
        if (Call->getArg(I) == E) {
          U.Kind = KernelUse::PassedToCall;
          U.Call = Call;
          U.Arg = I;
          return U;
        }
    }
    return U;
  }
  return U;
}

/// A launcher: a function that launches the kernel it receives as parameter
/// KernelParam, at one or more sites, passing on its own parameters.
struct Launcher {
  unsigned KernelParam = 0;
  llvm::SmallVector<const LaunchSite *, 2> Sites;
  /// Per site, per kernel argument: the launcher's parameter passed on, or -1.
  llvm::SmallVector<llvm::SmallVector<int, 8>, 2> ForwardedFrom;
  bool Escapes = false;
};

/// The expression each launch names its kernel with (`k`, `&k`, a pointer
/// variable), and the launch.
llvm::DenseMap<const Expr *, const LaunchSite *>
launchedExprs(const std::vector<LaunchSite> &Launches) {
  llvm::DenseMap<const Expr *, const LaunchSite *> SiteOf;
  for (const LaunchSite &L : Launches) {
    const Expr *K = L.Kernel->IgnoreParenImpCasts();
    if (const auto *U = dyn_cast<UnaryOperator>(K); U && U->getOpcode() == UO_AddrOf)
      K = U->getSubExpr()->IgnoreParenImpCasts();
    SiteOf[K] = &L;
  }
  return SiteOf;
}

/// Launches through a function pointer held in a variable (`fp k = pick(n);
/// k<<<g, b>>>(...)`), by the function type they launch. A function type
/// that is also launched some other way than by name (through a launcher's
/// parameter, a field, cudaLaunchKernelEx) has no entry: a kernel stored
/// as such a pointer may run with blocks this does not read.
using PointerLaunchMap = llvm::DenseMap<const Type *, llvm::SmallVector<const LaunchSite *, 2>>;
PointerLaunchMap pointerLaunches(const std::vector<LaunchSite> &Launches) {
  PointerLaunchMap ByType;
  llvm::DenseSet<const Type *> OtherWays;
  for (const LaunchSite &L : Launches) {
    const Expr *K = L.Kernel->IgnoreParenImpCasts();
    if (const auto *U = dyn_cast<UnaryOperator>(K); U && U->getOpcode() == UO_AddrOf)
      K = U->getSubExpr()->IgnoreParenImpCasts();
    const auto *Ref = dyn_cast<DeclRefExpr>(K);
    if (Ref && isa<FunctionDecl>(Ref->getDecl()))
      continue; // a kernel launched by name
    QualType Fn = K->getType()->getPointeeType();
    if (Fn.isNull() || !Fn->isFunctionType())
      continue;
    const Type *Key = Fn.getCanonicalType().getTypePtr();
    const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    if (Var && !isa<ParmVarDecl>(Var) && isa<CUDAKernelCallExpr>(L.At))
      ByType[Key].push_back(&L);
    else
      OtherWays.insert(Key);
  }
  for (const Type *Key : OtherWays)
    ByType.erase(Key);
  return ByType;
}

} // namespace

/// Adds what the use \p L of a kernel says about its block shapes to \p F
/// (LaunchFacts::ShapeFacts): a launch's shapes, or the run-time shape it
/// uses; a use that may launch it otherwise (null) makes them unknown.
template <typename ShapeFacts>
static void addLaunchShapes(ShapeFacts &F, const LaunchSite *L, bool CannotLaunch,
                            ASTContext &Ctx) {
  if (CannotLaunch || F.Escapes)
    return;
  const auto *Launch = L ? dyn_cast<CUDAKernelCallExpr>(L->At) : nullptr;
  if (!Launch) {
    F.Readable = false;
    F.Escapes = true;
    return;
  }
  std::optional<llvm::SmallVector<BlockShape, 8>> S = blockShapesOfLaunch(Launch, L->Fn, Ctx);
  if (!S) {
    F.Readable = false;
    F.RunTimeShapes.push_back({Launch, L->Fn});
    return;
  }
  for (const BlockShape &B : *S)
    if (llvm::find(F.Shapes, B) == F.Shapes.end())
      F.Shapes.push_back(B);
}

void LaunchFacts::collect() {
  Collected = true;
  LaunchCollector Collector(Ctx);
  Collector.TraverseDecl(Ctx.getTranslationUnitDecl());

  llvm::DenseMap<const Expr *, const LaunchSite *> SiteOf = launchedExprs(Collector.Launches);
  llvm::DenseSet<const Expr *> LaunchedExprs;
  for (const auto &Entry : SiteOf)
    LaunchedExprs.insert(Entry.first);

  // A use that cannot launch: the address passed, as data, to the
  // toolchain's attribute queries (cudaFuncGetAttributes) or to a function
  // of this unit, in a unit with no launch from an address.
  auto Harmless = [&](const KernelUse &U) {
    if (U.Kind != KernelUse::PassedToCall || Collector.GenericLaunch)
      return false;
    const FunctionDecl *Callee = U.Call->getDirectCallee();
    if (!Callee)
      return false;
    if (isToolchainDeclaration(Callee))
      return !isGenericLaunchApi(Callee);
    return U.AsData && Callee->isDefined() && !Callee->isExternallyVisible();
  };

  // What a kernel whose address is stored as a pointer runs with, when the
  // unit has no launch from an address.
  PointerLaunchMap PointerLaunches =
      Collector.GenericLaunch ? PointerLaunchMap() : pointerLaunches(Collector.Launches);

  // Block shapes, per source function: every reference must be a launch
  // whose block argument can be read, a store of its address launched only
  // through pointers of its type, or a use that cannot launch.
  // A launch whose shapes are run-time values is kept for the low bits of
  // its blockDim.x (launchBlockXZeroBits); any other use makes both unknown.
  // A template's uses count for its pattern, and those naming one
  // specialization for that specialization too (findShapes).
  auto recordShapes = [&](const FunctionDecl *Kernel, const LaunchSite *L, bool CannotLaunch) {
    addLaunchShapes(Shapes[sourceKernel(Kernel)], L, CannotLaunch, Ctx);
    if (Kernel->getTemplateInstantiationPattern())
      addLaunchShapes(Shapes[Kernel->getCanonicalDecl()], L, CannotLaunch, Ctx);
  };

  // Launchers, from the uses of function-pointer parameters.
  using LauncherKey = std::pair<const FunctionDecl *, unsigned>;
  std::map<LauncherKey, Launcher> Launchers;
  for (const DeclRefExpr *Ref : Collector.ParamRefs) {
    const auto *Parm = cast<ParmVarDecl>(Ref->getDecl());
    const auto *Fn = dyn_cast<FunctionDecl>(Parm->getDeclContext());
    if (!Fn)
      continue;
    Launcher &W = Launchers[{Fn, Parm->getFunctionScopeIndex()}];
    W.KernelParam = Parm->getFunctionScopeIndex();
    KernelUse U = useOf(Ref, Ctx, LaunchedExprs);
    if (U.Kind == KernelUse::Launched) {
      const LaunchSite *L = SiteOf.lookup(Ref);
      if (!L || L->Fn != Fn) {
        W.Escapes = true;
        continue;
      }
      llvm::SmallVector<int, 8> From;
      for (const Expr *Arg : L->Args) {
        const auto *Passed = dyn_cast<DeclRefExpr>(throughForwarding(Arg));
        const auto *P = Passed ? dyn_cast<ParmVarDecl>(Passed->getDecl()) : nullptr;
        From.push_back(P && P->getDeclContext() == Fn ? static_cast<int>(P->getFunctionScopeIndex())
                                                      : -1);
      }
      W.Sites.push_back(L);
      W.ForwardedFrom.push_back(std::move(From));
    } else if (!Harmless(U)) {
      W.Escapes = true;
    }
  }

  // Every launch of each kernel, as (caller, point, argument) triples.
  std::vector<Launch> All;
  llvm::DenseSet<const FunctionDecl *> Unusable;
  for (const auto &[Ref, Kernel] : Collector.KernelRefs) {
    const FunctionDecl *Key = Kernel->getCanonicalDecl();
    KernelUse U = useOf(Ref, Ctx, LaunchedExprs);
    auto Stored = U.Kind == KernelUse::Stored
                      ? PointerLaunches.find(Kernel->getType().getCanonicalType().getTypePtr())
                      : PointerLaunches.end();
    if (Stored != PointerLaunches.end())
      for (const LaunchSite *L : Stored->second)
        recordShapes(Kernel, L, false);
    else
      recordShapes(Kernel, U.Kind == KernelUse::Launched ? SiteOf.lookup(Ref) : nullptr,
                   U.Kind != KernelUse::Launched && Harmless(U));
    if (U.Kind == KernelUse::Launched) {
      const LaunchSite *L = SiteOf.lookup(Ref);
      if (!L) {
        Unusable.insert(Key);
        continue;
      }
      Launch Direct{Kernel, L->Fn, L->At, false, L->Args, nullptr, nullptr, {}};
      All.push_back(std::move(Direct));
      continue;
    }
    if (U.Kind == KernelUse::PassedToCall && !U.AsData) {
      auto It = Launchers.find({U.Call->getDirectCallee(), U.Arg});
      if (It != Launchers.end() && !It->second.Escapes && !It->second.Sites.empty()) {
        const Launcher &W = It->second;
        for (unsigned S = 0; S < W.Sites.size(); ++S) {
          // The caller is the function around the launcher call.
          Launch L{Kernel, enclosingFunction(U.Call, Ctx), U.Call,  true,
                   {},     U.Call->getDirectCallee(),      nullptr, {}};
          L.InnerAt = W.Sites[S]->At;
          for (unsigned I = 0; I < W.Sites[S]->Args.size(); ++I) {
            int From = W.ForwardedFrom[S][I];
            bool Outer = From >= 0 && static_cast<unsigned>(From) < U.Call->getNumArgs();
            L.Args.push_back(Outer ? U.Call->getArg(From) : nullptr);
            L.Inner.push_back(Outer ? nullptr : W.Sites[S]->Args[I]);
          }
          if (L.Caller)
            All.push_back(std::move(L));
          else
            Unusable.insert(Key);
        }
        continue;
      }
    }
    if (!Harmless(U))
      Unusable.insert(Key);
  }

  // The zero bits of a kernel's arguments are worked out when first asked
  // for (kernelFacts): most kernels' parameters never are.
  for (Launch &L : All) {
    const FunctionDecl *Key = L.Kernel->getCanonicalDecl();
    // Another unit may launch a kernel with external linkage.
    if (launchableElsewhere(L.Kernel) || Unusable.count(Key))
      continue;
    Pending[Key].push_back(std::move(L));
  }
}

const LaunchFacts::KernelFacts *LaunchFacts::kernelFacts(const FunctionDecl *Key) {
  auto Done = Kernels.find(Key);
  if (Done != Kernels.end())
    return &Done->second;
  auto It = Pending.find(Key);
  if (It == Pending.end())
    return nullptr;
  if (!Written)
    Written = std::make_unique<WrittenVariables>();
  KernelFacts &F = Kernels[Key];
  for (const Launch &L : It->second) {
    const FunctionDecl *Kernel = L.Kernel;
    unsigned NumParams = Kernel->getNumParams();
    std::vector<unsigned> Bits(NumParams, 0);
    ZeroBitsAt Outer(Ctx, *Written, L.Caller, L.At, L.ThroughLauncher);
    std::optional<ZeroBitsAt> Inner;
    if (L.Launcher)
      Inner.emplace(Ctx, *Written, L.Launcher, L.InnerAt, false);
    for (unsigned I = 0; I < NumParams && I < L.Args.size(); ++I) {
      if (!Kernel->getParamDecl(I)->getType()->isIntegerType())
        continue;
      Bits[I] = L.Args[I] ? Outer.of(L.Args[I]) : (Inner ? Inner->of(L.Inner[I]) : 0);
    }
    if (!F.Usable) {
      F.Usable = true;
      F.ZeroBits.assign(Bits.begin(), Bits.end());
    } else {
      for (unsigned I = 0; I < F.ZeroBits.size(); ++I)
        F.ZeroBits[I] = std::min(F.ZeroBits[I], I < Bits.size() ? Bits[I] : 0u);
    }
  }
  Pending.erase(It);
  return &F;
}

LaunchFacts &LaunchFacts::of(ASTContext &Ctx) { return UnitContext::of(Ctx).get<LaunchFacts>(); }

LaunchFacts::LaunchFacts(ASTContext &Ctx) : Ctx(Ctx) {}
LaunchFacts::~LaunchFacts() = default;

std::optional<llvm::SmallVector<BlockShape, 8>>
LaunchFacts::launchBlockShapes(const FunctionDecl *Kernel) {
  if (!isKernel(Kernel))
    return std::nullopt;
  if (!Collected)
    collect();
  const ShapeFacts *F = findShapes(Kernel);
  if (!F || !F->Readable || F->Shapes.empty())
    return std::nullopt;
  return F->Shapes;
}

LaunchFacts::ShapeFacts *LaunchFacts::findShapes(const FunctionDecl *Kernel) {
  if (Kernel->getTemplateInstantiationPattern()) {
    auto Own = Shapes.find(Kernel->getCanonicalDecl());
    if (Own != Shapes.end())
      return &Own->second;
  }
  auto It = Shapes.find(sourceKernel(Kernel));
  return It == Shapes.end() ? nullptr : &It->second;
}

std::optional<unsigned> LaunchFacts::launchBlockXZeroBits(const FunctionDecl *Kernel) {
  if (!isKernel(Kernel))
    return std::nullopt;
  if (!Collected)
    collect();
  ShapeFacts *Found = findShapes(Kernel);
  if (!Found)
    return std::nullopt;
  ShapeFacts &F = *Found;
  if (F.Escapes || (F.Shapes.empty() && F.RunTimeShapes.empty()))
    return std::nullopt;
  if (F.XZeroBits)
    return *F.XZeroBits;
  unsigned Bits = 64;
  for (const BlockShape &B : F.Shapes)
    Bits = std::min<unsigned>(Bits, llvm::countr_zero(B.X));
  if (!F.RunTimeShapes.empty() && !Written)
    Written = std::make_unique<WrittenVariables>();
  for (const auto &[Launch, Caller] : F.RunTimeShapes) {
    const Expr *X = blockXExpression(Launch, Ctx);
    if (!X)
      return std::nullopt;
    ZeroBitsAt At(Ctx, *Written, Caller, Launch, /*AtLauncher=*/false);
    Bits = std::min(Bits, At.of(X));
  }
  F.XZeroBits = Bits;
  return Bits;
}

unsigned LaunchFacts::knownZeroBits(const ParmVarDecl *P) {
  const auto *Kernel = dyn_cast_or_null<FunctionDecl>(P ? P->getDeclContext() : nullptr);
  // Another unit may launch a kernel with external linkage, so collect()
  // keeps no launches of one (linkage is the same on every redeclaration a
  // launch may name; an instantiation of a template defined in this file is
  // this unit's alone): the answer is 0 without reading the unit's launches.
  if (!isKernel(Kernel) || launchableElsewhere(Kernel))
    return 0;
  if (!Collected)
    collect();
  const KernelFacts *F = kernelFacts(Kernel->getCanonicalDecl());
  if (!F || !F->Usable)
    return 0;
  unsigned Index = P->getFunctionScopeIndex();
  return Index < F->ZeroBits.size() ? F->ZeroBits[Index] : 0;
}

} // namespace warp_tidy
