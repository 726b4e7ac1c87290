//===--- RunTimeMasks.cpp - Masks computed from the values a function receives ===//

#include "uniformity/RunTimeMasks.h"
#include "ast/AstQueries.h"
#include "uniformity/Uniformity.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

namespace warp_tidy {
namespace {

/// A collective (or a wrapper given its mask) whose mask is neither a
/// constant nor implicit, executed by every lane that enters the function.
bool judgedSite(const CollectiveSite &S) {
  return !S.Required && !S.ImplicitMask && S.MaskExpr && S.Intrinsic && reachedByEveryLane(S);
}

void collectLeaves(TermRef T, llvm::DenseSet<TermRef> &Seen,
                   llvm::SmallVectorImpl<TermRef> &Leaves) {
  if (!Seen.insert(T).second)
    return;
  if (T->isLeaf())
    Leaves.push_back(T);
  for (TermRef O : T->Ops)
    collectLeaves(O, Seen, Leaves);
}

/// The index of the parameter of \p FD that \p Key names, or -1.
int parameterIndex(const void *Key, const clang::FunctionDecl *FD) {
  for (unsigned I = 0; I < FD->getNumParams(); ++I)
    if (Key == FD->getParamDecl(I))
      return static_cast<int>(I);
  return -1;
}

/// A warp-uniform mask whose every leaf is a value \p FD receives (one of
/// its parameters, unwritten) or one of \p Extra: its arithmetic is all
/// visible, and the question is only which values it is given. (A constant
/// counts: a helper's mask that the caller's arguments make constant.) The
/// block's shape counts only when blocks are whole warps (\p AlignedBlocks):
/// then every lane of a warp exists, and `(blockDim.x + 31) / 32` is the
/// number of warps; otherwise `(1u << blockDim.x) - 1` may name exactly the
/// lanes a small block has.
bool overReceivedValues(TermRef Mask, const clang::FunctionDecl *FD, TermBuilder &Terms,
                        const llvm::DenseSet<TermRef> &Extra, bool AlignedBlocks) {
  if (!Mask || Mask->LaneDependent || Mask->isLeaf() || Mask->Width != 32)
    return false;
  llvm::DenseSet<TermRef> Seen;
  llvm::SmallVector<TermRef, 8> Leaves;
  collectLeaves(Mask, Seen, Leaves);
  for (TermRef Leaf : Leaves) {
    if (Leaf->Op == TermOp::BlockDimX || Leaf->Op == TermOp::BlockDimY ||
        Leaf->Op == TermOp::BlockDimZ) {
      if (AlignedBlocks)
        continue;
      return false;
    }
    if (Leaf->Op != TermOp::Uniform)
      return false;
    if (Extra.contains(Leaf))
      continue;
    std::optional<TermBuilder::LeafName> Name = Terms.nameOf(Leaf);
    if (!Name || Name->Point || parameterIndex(Name->Key, FD) < 0)
      return false;
  }
  return true;
}

void ask(const CollectiveSite &Site, const CollectiveSite *Call, TermRef Mask, TermBuilder &Terms,
         UniformityProver &Prover, llvm::SmallVectorImpl<RunTimeMaskFinding> &Out) {
  LaneMaskQuestions::LaneWithoutOwnBit W;
  if (LaneMaskQuestions(Terms, Prover).laneLeftOutForSomeInput(Mask, Site.May, &W) !=
      UniformityProver::Existence::Exists)
    return;
  RunTimeMaskFinding F;
  F.Site = &Site;
  F.Call = Call;
  F.Lane = W.Lane;
  F.Mask = W.Mask;
  F.Constant = Mask->isConst();
  Out.push_back(F);
}

} // namespace

llvm::SmallVector<RunTimeMaskFinding, 1> runTimeMasksOfKernel(const FunctionUniformity &Kernel,
                                                              TermBuilder &Terms,
                                                              UniformityProver &Prover,
                                                              bool AlignedBlocks) {
  llvm::SmallVector<RunTimeMaskFinding, 1> Out;
  const clang::FunctionDecl *FD = Kernel.function();
  if (!FD->hasAttr<clang::CUDAGlobalAttr>())
    return Out;
  for (const CollectiveSite &Site : Kernel.sites()) {
    if (!judgedSite(Site))
      continue;
    TermRef Mask = laneMaskTerm(Kernel, Site);
    if (Mask && !Mask->isConst() && overReceivedValues(Mask, FD, Terms, {}, AlignedBlocks))
      ask(Site, nullptr, Mask, Terms, Prover, Out);
  }
  return Out;
}

bool callMayPassRunTimeMask(const CollectiveSite &Call, const FunctionSummary *HelperSummary) {
  return Call.Helper && Call.Call && !Call.MaskExpr && !Call.Required && HelperSummary &&
         HelperSummary->MaskSources && reachedByEveryLane(Call);
}

llvm::SmallVector<RunTimeMaskFinding, 1>
runTimeMasksAtCall(const FunctionUniformity &Caller, const CollectiveSite &Call,
                   const FunctionUniformity &Helper, TermBuilder &Terms, UniformityProver &Prover,
                   bool AlignedBlocks) {
  llvm::SmallVector<RunTimeMaskFinding, 1> Out;
  // A call of a helper whose masks it computes from its parameters (a
  // wrapper handed its mask is judged as that mask, where it is written).
  if (!callMayPassRunTimeMask(Call, &Helper.summary()))
    return Out;
  const clang::FunctionDecl *HelperFD = Helper.function();
  const clang::FunctionDecl *CallerFD = Caller.function();
  // The helper's parameters as the caller's arguments, translated at the call.
  llvm::DenseMap<unsigned, TermRef> Arguments;
  auto Argument = [&](TermRef Leaf) -> TermRef {
    std::optional<TermBuilder::LeafName> Name = Terms.nameOf(Leaf);
    int P = Name && !Name->Point ? parameterIndex(Name->Key, HelperFD) : -1;
    if (P < 0)
      return nullptr;
    auto [It, New] = Arguments.try_emplace(P, nullptr);
    if (New) {
      const clang::Expr *Arg = argumentForParameter(Call.Call, HelperFD, P);
      if (const auto *Default = llvm::dyn_cast_or_null<clang::CXXDefaultArgExpr>(Arg))
        Arg = Default->getExpr();
      It->second = Arg ? Caller.symbolicValue(Arg, Call.At, Leaf->Width) : nullptr;
    }
    return It->second;
  };
  // What the caller receives is any value, the same in every lane: within
  // the caller its parameters are leaves that may differ per lane (a
  // caller of the caller decides), but the question is whether some
  // execution leaves a lane out, and a warp-uniform argument is one.
  llvm::DenseMap<TermRef, TermRef> Received;
  llvm::DenseSet<TermRef> ReceivedLeaves;
  auto Receive = [&](TermRef Leaf) -> TermRef {
    if (Leaf->Op != TermOp::PerLane)
      return nullptr;
    std::optional<TermBuilder::LeafName> Name = Terms.nameOf(Leaf);
    if (!Name || Name->Point || parameterIndex(Name->Key, CallerFD) < 0)
      return nullptr;
    auto [It, New] = Received.try_emplace(Leaf, nullptr);
    if (New) {
      It->second = Terms.freshUniform(Leaf->Width);
      ReceivedLeaves.insert(It->second);
    }
    return It->second;
  };
  for (const CollectiveSite &Site : Helper.sites()) {
    if (!judgedSite(Site))
      continue;
    TermRef Mask = laneMaskTerm(Helper, Site);
    if (!Mask)
      continue;
    TermRef AtCall = Terms.substitute(Terms.substitute(Mask, Argument), Receive);
    if (overReceivedValues(AtCall, CallerFD, Terms, ReceivedLeaves, AlignedBlocks))
      ask(Site, &Call, AtCall, Terms, Prover, Out);
  }
  return Out;
}

} // namespace warp_tidy
