//===--- ScanLaneFlow.cpp - Which lanes' wrong scan values reach a use ----===//

#include "patterns/ScanLaneFlow.h"
#include "ast/AstQueries.h"
#include "ast/CallIndex.h"
#include "ast/UnitContext.h"
#include "launch/ReachingLaunches.h"
#include "patterns/ScanBlockRun.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclTemplate.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MathExtras.h"
#include <optional>

using namespace clang;

namespace warp_tidy {
namespace {

bool isPowerOfTwoWarpCount(const BlockShape &S) {
  return llvm::isPowerOf2_32((S.threads() + 31) / 32);
}

/// A template pattern whose instantiations the check also visits.
bool hasInstantiations(const FunctionDecl *FD) {
  if (const FunctionTemplateDecl *Template = FD->getDescribedFunctionTemplate())
    return !Template->specializations().empty();
  return false;
}

} // namespace

LaneFlowVerdict followScanLanes(const ScanRegion &Region, ExactLanes Exact, ASTContext &Ctx) {
  LaneFlowVerdict V;
  if (Region.Steps.empty() || !Region.First || !Region.Last || Region.Accumulators.empty() ||
      Exact.Width == 0)
    return V;
  for (const VarDecl *Acc : Region.Accumulators)
    if (!Acc->hasLocalStorage() || Acc->getType()->isReferenceType())
      return V;
  const FunctionDecl *FD = enclosingFunction(Region.Steps.front(), Ctx);
  if (!FD || !FD->getBody())
    return V;
  // A template with instantiations is judged in them (the check visits
  // them too); one that has none is only its pattern.
  if (FD->isDependentContext() && hasInstantiations(FD)) {
    V.Kind = LaneFlowVerdict::Deferred;
    return V;
  }

  // The shapes of the launches that reach the function (a helper: through
  // the unit's calls), else every 1-D block of whole warps.
  llvm::SmallVector<BlockShape, 8> Shapes;
  bool FromLaunches = false;
  if (auto Launched = blockShapesReaching(FD, UnitContext::of(Ctx).get<CallIndex>(), Ctx)) {
    Shapes = std::move(*Launched);
    FromLaunches = true;
  }
  if (!FromLaunches)
    for (unsigned X = 32; X <= 1024; X += 32)
      Shapes.push_back({X, 1, 1, nullptr});

  std::optional<size_t> FirstWrong;
  std::optional<BlockRunResult::WrongUse> Seen;
  const BinaryOperator *Partial = nullptr;
  llvm::SmallVector<bool, 32> WrongIn;
  for (size_t I = 0; I < Shapes.size(); ++I) {
    BlockRunResult Run = runBlockAfterScan(Ctx, Region, Exact, Shapes[I], FromLaunches, nullptr);
    if (Run.GaveUp)
      return V;
    WrongIn.push_back(Run.Wrong.has_value());
    if (Run.Wrong && !FirstWrong) {
      FirstWrong = I;
      Seen = Run.Wrong;
      Partial = Run.PartialStore;
    }
  }
  if (!FirstWrong) {
    V.Kind = LaneFlowVerdict::NoWrongUse;
    return V;
  }
  const BlockShape &Shape = Shapes[*FirstWrong];
  V.Kind = LaneFlowVerdict::WrongUse;
  V.Use = Seen->Use;
  V.UserLane = Seen->Thread % 32;
  V.SourceLane = static_cast<unsigned>(llvm::countr_zero(Seen->Lanes));
  V.Shape = Shape;
  V.ShapeFromLaunch = FromLaunches;
  if (!Partial)
    return V;
  // Would the value be right if that store reached every lane?
  BlockRunResult Complete = runBlockAfterScan(Ctx, Region, Exact, Shape, FromLaunches, Partial);
  if (Complete.GaveUp || Complete.Wrong)
    return V;
  V.Kind = LaneFlowVerdict::StaleLanes;
  V.PartialStore = Partial;
  V.Carrier = Seen->Via;
  V.OnlyNonPowerOfTwoWarps = true;
  for (size_t I = 0; I < Shapes.size(); ++I)
    V.OnlyNonPowerOfTwoWarps &= WrongIn[I] == !isPowerOfTwoWarpCount(Shapes[I]);
  return V;
}

} // namespace warp_tidy
