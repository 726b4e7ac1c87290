//===--- LaunchedProvers.cpp - The warp model of the blocks that run a function ===//

#include "uniformity/LaunchedProvers.h"
#include "ast/CallIndex.h"
#include "ast/UnitContext.h"
#include "launch/ReachingLaunches.h"
#include "symbolic/UniformityProver.h"
#include "clang/AST/Decl.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include <algorithm>
#include <map>
#include <memory>
#include <vector>

using namespace clang;

namespace warp_tidy {

namespace {
/// The unit's launch-shaped provers, by the default model's option and the
/// sorted shapes, and the choice made for each function.
struct LaunchedProvers {
  std::map<std::pair<bool, std::vector<LaunchedBlock>>, std::unique_ptr<UniformityProver>> ByShapes;
  llvm::DenseMap<const FunctionDecl *, UniformityProver *> ByFunction[2]; ///< by the option
};
} // namespace

/// The block shapes that can run \p FD, sorted and without repeats; empty
/// when some launch that reaches it is not known.
static std::vector<LaunchedBlock> launchedBlocks(const FunctionDecl *FD, ASTContext &Ctx) {
  std::optional<llvm::SmallVector<BlockShape, 8>> Shapes =
      blockShapesReaching(FD, UnitContext::of(Ctx).get<CallIndex>(), Ctx);
  std::vector<LaunchedBlock> Blocks;
  if (!Shapes)
    return Blocks;
  for (const BlockShape &S : *Shapes)
    Blocks.push_back({S.X, S.Y, S.Z});
  llvm::sort(Blocks);
  Blocks.erase(std::unique(Blocks.begin(), Blocks.end()), Blocks.end());
  return Blocks;
}

UniformityProver &proverFor(const FunctionDecl *FD, UniformityProver &Default, bool AlignedBlocks) {
  ASTContext &Ctx = FD->getASTContext();
  bool Aligned = AlignedBlocks;
  LaunchedProvers &All = UnitContext::of(Ctx).get<LaunchedProvers>();
  UniformityProver *&Chosen = All.ByFunction[Aligned][FD];
  if (Chosen)
    return *Chosen;
  std::vector<LaunchedBlock> Blocks = launchedBlocks(FD, Ctx);
  if (Blocks.empty()) {
    Chosen = &Default;
    return *Chosen;
  }
  std::unique_ptr<UniformityProver> &Slot = All.ByShapes[{Aligned, Blocks}];
  if (!Slot)
    Slot = std::make_unique<UniformityProver>(Aligned, UniformityProver::DefaultWallClockLimitMs,
                                              Blocks);
  Chosen = Slot.get();
  return *Chosen;
}

} // namespace warp_tidy
