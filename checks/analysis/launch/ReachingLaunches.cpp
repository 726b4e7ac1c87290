//===--- ReachingLaunches.cpp - The block shapes that can run a function --===//

#include "launch/ReachingLaunches.h"
#include "ast/AstQueries.h"
#include "ast/CallIndex.h"
#include "launch/LaunchFacts.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace warp_tidy {
namespace {

// Helpers call helpers, but real reductions are two or three calls deep; a
// longer chain is more likely a recursion the visited set has not yet cut.
constexpr unsigned MaxCallDepth = 6;

using Shapes = llvm::SmallVector<BlockShape, 8>;

void addShapes(Shapes &Into, const Shapes &From) {
  for (const BlockShape &S : From)
    if (llvm::find(Into, S) == Into.end())
      Into.push_back(S);
}

/// Walks from a function to the kernels that run it (their launches are
/// what is known), calling AtKernel on each; false when some path is not
/// known.
struct Walker {
  CallIndex &Calls;
  ASTContext &Ctx;
  llvm::function_ref<bool(const FunctionDecl *Kernel)> AtKernel;
  llvm::SmallPtrSet<const FunctionDecl *, 16> OnPath;

  bool collect(const FunctionDecl *FD, unsigned Depth) {
    if (!FD || Depth > MaxCallDepth)
      return false;
    FD = FD->getCanonicalDecl();
    if (!OnPath.insert(FD).second)
      return false; // recursion: the block it runs in is not bounded here
    bool Known = collectUnvisited(FD, Depth);
    OnPath.erase(FD);
    return Known;
  }

  bool collectUnvisited(const FunctionDecl *FD, unsigned Depth) {
    if (FD->hasAttr<CUDAGlobalAttr>())
      return AtKernel(FD);
    // A template pattern runs as its instantiations.
    if (const FunctionTemplateDecl *Template = FD->getDescribedFunctionTemplate()) {
      if (Template->specializations().empty())
        return false;
      for (const FunctionDecl *Spec : Template->specializations())
        if (!collect(Spec, Depth))
          return false;
      return true;
    }
    llvm::ArrayRef<const CallExpr *> Callers = Calls.callsOf(FD, Ctx);
    if (Callers.empty())
      return false;
    for (const CallExpr *Call : Callers) {
      const FunctionDecl *Caller = enclosingFunction(Call, Ctx, /*ThroughLambdas=*/true);
      if (!Caller || !collect(Caller, Depth + 1))
        return false;
    }
    return true;
  }
};

} // namespace

std::optional<Shapes> blockShapesReaching(const FunctionDecl *FD, CallIndex &Calls,
                                          ASTContext &Ctx) {
  LaunchFacts &Facts = LaunchFacts::of(Ctx);
  Shapes Out;
  auto AtKernel = [&](const FunctionDecl *Kernel) {
    std::optional<Shapes> Launched = Facts.launchBlockShapes(Kernel);
    if (!Launched)
      return false;
    addShapes(Out, *Launched);
    return true;
  };
  Walker W{Calls, Ctx, AtKernel, {}};
  if (!W.collect(FD, 0) || Out.empty())
    return std::nullopt;
  return Out;
}

std::optional<unsigned> blockXZeroBitsReaching(const FunctionDecl *FD, CallIndex &Calls,
                                               ASTContext &Ctx) {
  LaunchFacts &Facts = LaunchFacts::of(Ctx);
  std::optional<unsigned> Bits;
  auto AtKernel = [&](const FunctionDecl *Kernel) {
    std::optional<unsigned> Launched = Facts.launchBlockXZeroBits(Kernel);
    if (!Launched)
      return false;
    Bits = Bits ? std::min(*Bits, *Launched) : *Launched;
    return true;
  };
  Walker W{Calls, Ctx, AtKernel, {}};
  if (!W.collect(FD, 0))
    return std::nullopt;
  return Bits;
}

} // namespace warp_tidy
