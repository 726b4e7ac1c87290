//===--- BarrierPhases.cpp - Shared memory read between barriers ----------===//
//
// "Memory is a value" for memory the kernel writes: a `__shared__` array is
// filled in one phase (`tile[ty][tx] = ...; __syncthreads();`) and read in
// the next. While a phase reads it, no store of this function can change it
// unless the store reaches the read on a path without a barrier; then lanes
// that read one address read one value (a race otherwise, which is a bug of
// its own). Nor may the read reach a store without a barrier: lanes of one
// group run at their own pace, and a store of the next iteration can land
// before a slower lane's read. Only arrays declared in this function count:
// a file-scope one may be written by any function, and one whose address a
// call receives may be written there.
// Part of FunctionUniformity::Impl (see FunctionAnalysis.h).
//
//===----------------------------------------------------------------------===//

#include "ast/AstQueries.h"
#include "ast/GuardFacts.h"
#include "ast/LocalWrites.h"
#include "ast/MemoryWrites.h"
#include "ast/StmtReachability.h"
#include "intrinsics/Barriers.h"
#include "uniformity/FunctionAnalysis.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Expr.h"

using namespace clang;

namespace warp_tidy {

CfgPosition FunctionUniformity::Impl::placeOf(const Stmt *S) const {
  for (unsigned Up = 0; S && Up < 16; ++Up, S = parentStmt(S, Ctx))
    if (const CFGBlock *B = BlockOf.lookup(S))
      return positionIn(B, S);
  return {};
}

const std::optional<llvm::SmallVector<CfgPosition, 4>> &
FunctionUniformity::Impl::sharedStoresOf(const VarDecl *Root) {
  auto [It, New] = SharedStores.try_emplace(Root);
  if (!New)
    return It->second;
  llvm::SmallVector<CfgPosition, 4> Stores;
  bool Unplaced = false;
  forEachStore(FD->getBody(), nullptr, [&](const Expr *Target, const GCCAsmStmt *Asm, unsigned) {
    if (memoryRoot(Target) != Root)
      return;
    CfgPosition P = placeOf(Asm ? static_cast<const Stmt *>(Asm) : Target);
    if (P.Block)
      Stores.push_back(P);
    else
      Unplaced = true;
  });
  bool Escapes = false;
  forEachStmt(FD->getBody(), [&](const Stmt *S) {
    if (const auto *Call = dyn_cast<CallExpr>(S))
      Escapes = Escapes || callMayWriteThrough(Call, Root);
  });
  if (!Unplaced && !Escapes)
    It->second = std::move(Stores);
  return It->second;
}

bool FunctionUniformity::Impl::storedOnlyInOtherPhases(const Expr *LValue) {
  const VarDecl *Root = memoryRoot(LValue);
  if (!Root || !Root->hasAttr<CUDASharedAttr>() || Root->getDeclContext() != FD ||
      Root->getType().isVolatileQualified() || LValue->getType().isVolatileQualified())
    return false;
  CfgPosition Read = placeOf(LValue);
  if (!Read.Block)
    return false;
  if (!Barriers) {
    Barriers.emplace();
    forEachStmt(FD->getBody(), [&](const Stmt *S) {
      if (isBarrier(S))
        if (CfgPosition P = placeOf(S); P.Block)
          Barriers->push_back(P);
    });
  }
  if (Barriers->empty())
    return false;
  const std::optional<llvm::SmallVector<CfgPosition, 4>> &Stores = sharedStoresOf(Root);
  if (!Stores)
    return false;
  // A thread at the store and one at the read are in one phase when either
  // can follow the other with no barrier in between: a store of the next
  // iteration races with a slower lane's read of this one unless a barrier
  // closes the phase.
  for (const CfgPosition &Store : *Stores)
    if (reachesAvoiding(Ctx, NumBlocks, Store, Read, *Barriers) ||
        reachesAvoiding(Ctx, NumBlocks, Read, Store, *Barriers))
      return false;
  return true;
}

} // namespace warp_tidy
