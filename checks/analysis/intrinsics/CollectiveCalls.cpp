//===--- CollectiveCalls.cpp - Recognise warp collectives in the AST ------===//

#include "intrinsics/CollectiveCalls.h"
#include "ast/AstQueries.h"
#include "ast/LocalWrites.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace warp_tidy {

// Cooperative-groups implements tile members in helper base classes whose
// names change between CUDA versions; all of them contain one of these.
static bool isTileClassName(llvm::StringRef Name) {
  return Name.contains("thread_block_tile") || Name.contains("tiled_partition") ||
         Name.contains("__static_size_tile") || Name.contains("thread_group_base");
}

static llvm::StringRef innermostNamespaceName(const DeclContext *DC) {
  for (; DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      if (!NS->isInline() && NS->getIdentifier())
        return NS->getName();
  return "";
}

static bool isInNamespace(const DeclContext *DC, llvm::StringRef Name) {
  for (; DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      if (NS->getIdentifier() && NS->getName() == Name)
        return true;
  return false;
}

const WarpIntrinsic *classifyCallee(const FunctionDecl *Callee) {
  if (!Callee || !Callee->getIdentifier())
    return nullptr;
  llvm::StringRef Name = Callee->getName();
  // Every answer below is an entry of this name; most callees (the
  // built-in index getters, the project's helpers) have none, and the scope
  // tests are string searches.
  if (!isWarpIntrinsicName(Name))
    return nullptr;

  if (const auto *Method = dyn_cast<CXXMethodDecl>(Callee)) {
    const CXXRecordDecl *Record = Method->getParent();
    if (Record && Record->getIdentifier() && isTileClassName(Record->getName()) &&
        isInNamespace(Record, "cooperative_groups"))
      return lookupScopedWarpIntrinsic("thread_block_tile", Name);
    return nullptr;
  }

  const DeclContext *DC = Callee->getDeclContext();
  if (isInNamespace(DC, "wmma"))
    return lookupScopedWarpIntrinsic("wmma", Name);
  if (isInNamespace(DC, "cooperative_groups"))
    return lookupScopedWarpIntrinsic("cooperative_groups", Name);
  // CUDA intrinsics live at global scope (clang's headers) or, for a few
  // CUDA-header spellings, in no named namespace at all.
  if (!innermostNamespaceName(DC).empty())
    return nullptr;
  const WarpIntrinsic *I = lookupWarpIntrinsic(Name);
  // Only CUDA's own declarations are the intrinsics: a project's
  // `float4 __shfl_down(float4, unsigned)` built on `__shfl_down_sync` is a
  // helper like any other, analysed through its body.
  if (!I || !isToolchainDeclaration(Callee))
    return nullptr;
  return I;
}

std::optional<CollectiveCall> recogniseCollective(const CallExpr *Call) {
  if (!Call)
    return std::nullopt;
  const WarpIntrinsic *I = classifyCallee(Call->getDirectCallee());
  if (!I)
    return std::nullopt;
  return CollectiveCall{Call, I};
}

const Expr *CollectiveCall::maskArg() const {
  if (Intrinsic->MaskArg == NoArgument ||
      static_cast<unsigned>(Intrinsic->MaskArg) >= Call->getNumArgs())
    return nullptr;
  return Call->getArg(Intrinsic->MaskArg);
}

bool CollectiveCall::hasImplicitFullMask() const {
  if (Intrinsic->NeedsWholeWarp)
    return true;
  const Expr *Mask = maskArg();
  return Mask && isa<CXXDefaultArgExpr>(Mask);
}

std::optional<uint32_t> evaluateMask(const Expr *Mask, const ASTContext &Ctx) {
  std::optional<llvm::APSInt> Value = foldInteger(Mask, Ctx);
  if (!Value)
    return std::nullopt;
  // The intrinsics take `unsigned int`: a wider constant is truncated by the
  // implicit conversion exactly as here.
  return static_cast<uint32_t>(Value->extOrTrunc(32).getZExtValue());
}

/// The next expression to fold when \p Mask names a local that is
/// initialised once and never written afterwards, else null.
static const VarDecl *writeOnceLocal(const Expr *Mask) {
  const auto *Ref = dyn_cast<DeclRefExpr>(Mask->IgnoreParenImpCasts());
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!Var || !Var->hasLocalStorage() || isa<ParmVarDecl>(Var) || !Var->getInit() ||
      Var->getType().isVolatileQualified())
    return nullptr;
  // Any write or escape in the function makes the value unknown.
  return singleAssignmentInit(Var) ? Var : nullptr;
}

std::optional<uint32_t> resolveMaskConstant(const Expr *Mask, const ASTContext &Ctx) {
  for (unsigned Depth = 0; Mask && Depth < 4; ++Depth) {
    if (std::optional<uint32_t> V = evaluateMask(Mask, Ctx))
      return V;
    const VarDecl *Var = writeOnceLocal(Mask);
    if (!Var)
      return std::nullopt;
    Mask = Var->getInit();
  }
  return std::nullopt;
}

const VarDecl *maskConstantThroughLocal(const Expr *Mask, const ASTContext &Ctx) {
  if (!Mask || evaluateMask(Mask, Ctx) || !resolveMaskConstant(Mask, Ctx))
    return nullptr;
  return writeOnceLocal(Mask);
}

unsigned tileSizeOf(const Expr *Object) {
  if (!Object)
    return 0;
  QualType T = Object->IgnoreImpCasts()->getType().getNonReferenceType();
  if (const auto *PT = T->getAs<PointerType>())
    T = PT->getPointeeType();
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(T->getAsCXXRecordDecl());
  if (!Spec || !Spec->getIdentifier() || !Spec->getName().contains("thread_block_tile"))
    return 0;
  const TemplateArgumentList &Args = Spec->getTemplateArgs();
  if (Args.size() == 0 || Args[0].getKind() != TemplateArgument::Integral)
    return 0;
  uint64_t N = Args[0].getAsIntegral().getZExtValue();
  return (N >= 1 && N <= 32) ? static_cast<unsigned>(N) : 0;
}

unsigned tileSizeOfCall(const CallExpr *Call) {
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call))
    if (unsigned N = tileSizeOf(Member->getImplicitObjectArgument()))
      return N;
  if (const auto *ME = dyn_cast<MemberExpr>(Call->getCallee()->IgnoreParenImpCasts()))
    if (unsigned N = tileSizeOf(ME->getBase()))
      return N;
  if (const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Call->getDirectCallee())) {
    const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(Method->getParent());
    if (Spec && Spec->getIdentifier() && Spec->getName().contains("tile")) {
      const TemplateArgumentList &Args = Spec->getTemplateArgs();
      if (Args.size() > 0 && Args[0].getKind() == TemplateArgument::Integral) {
        uint64_t N = Args[0].getAsIntegral().getZExtValue();
        if (N >= 1 && N <= 32)
          return static_cast<unsigned>(N);
      }
    }
    return 0;
  }
  if (Call->getNumArgs() > 0)
    return tileSizeOf(Call->getArg(0));
  return 0;
}

} // namespace warp_tidy
