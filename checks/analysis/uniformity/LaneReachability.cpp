//===--- LaneReachability.cpp - Which lanes reach each block (Must / May) ---===//
//
// Two dataflows over lane sets: May (lanes that possibly reach a block) and
// Must (lanes that surely reach it), from lane comparisons on the way.
// Part of FunctionUniformity::Impl (see FunctionAnalysis.h).
//
//===----------------------------------------------------------------------===//

#include "ast/AstQueries.h"
#include "ast/StmtReachability.h"
#include "intrinsics/WarpIntrinsics.h"
#include "uniformity/FunctionAnalysis.h"

using namespace clang;

namespace warp_tidy {
using namespace uniformity_detail;

void FunctionUniformity::Impl::solveLaneSets() {
  Must.assign(NumBlocks, LaneSet::none());
  May.assign(NumBlocks, LaneSet::none());
  unsigned EntryID = Cfg->getEntry().getBlockID();
  // Lanes that no launched block has (`<<<1, 16>>>`) never run the code.
  Must[EntryID] = May[EntryID] = LaneSet(Prover.existingLanes());
  // Dead code of this instantiation (a loop that never runs) has no lanes.
  llvm::BitVector Live = liveBlocks(*Cfg, Ctx);
  std::deque<const CFGBlock *> Work = {&Cfg->getEntry()};
  std::vector<bool> Queued(NumBlocks, false);
  Queued[EntryID] = true;
  while (!Work.empty()) {
    const CFGBlock *B = Work.front();
    Work.pop_front();
    unsigned ID = B->getBlockID();
    Queued[ID] = false;
    std::optional<LaneSplit> Split;
    bool Div = Divergent.test(ID) && BranchCond[ID];
    if (Div)
      Split = finalLaneSplit(ID);
    unsigned Index = 0;
    for (const CFGBlock *Succ : B->succs()) {
      unsigned Edge = Index++;
      if (!Succ)
        continue;
      LaneSet EMust = Must[ID], EMay = May[ID];
      if (Div) {
        if (Split && B->succ_size() == 2) {
          EMust = EMust & (Edge == 0 ? Split->TrueMust : Split->FalseMust);
          EMay = EMay & (Edge == 0 ? Split->TrueMay : Split->FalseMay);
        } else {
          EMust = LaneSet::none(); // data decide which lanes go this way
        }
      }
      unsigned SID = Succ->getBlockID();
      if (!Live.test(SID))
        continue;
      LaneSet NMust = Must[SID] | EMust, NMay = May[SID] | EMay;
      if (NMust != Must[SID] || NMay != May[SID]) {
        Must[SID] = NMust;
        May[SID] = NMay;
        if (!Queued[SID]) {
          Queued[SID] = true;
          Work.push_back(Succ);
        }
      }
    }
  }
}

/// Lanes that surely reach each block. A lane surely reaches B unless some
/// divergent branch B is control dependent on can send it the other way:
/// intersect, over those branches, the lanes that surely take B's side
/// (the split of a lane comparison; none when data decide). Joins need no
/// special case: a block after an if/else depends on neither side.
void FunctionUniformity::Impl::solveMustSets() {
  for (unsigned ID = 0; ID < NumBlocks; ++ID)
    Must[ID] = mustThrough(ID, LaneGroup());
}

LaneSet FunctionUniformity::Impl::mustThrough(unsigned ID, LaneGroup Group) {
  const CFGBlock *B = blockByID(ID);
  if (!B || May[ID].isEmpty())
    return LaneSet::none();
  LaneSet M = May[ID];
  for (unsigned D : Controls[ID].set_bits()) {
    if (!Divergent.test(D) || M.isEmpty())
      continue;
    if (!Group.isWarp() && branchUniformInGroups(D, Group))
      continue;
    const CFGBlock *DB = blockByID(D);
    const std::optional<LaneSplit> Split = finalLaneSplit(D);
    LaneSet Side = LaneSet::none();
    unsigned Index = 0;
    for (const CFGBlock *Succ : DB->succs()) {
      unsigned Edge = Index++;
      if (!Succ)
        continue;
      // Lanes sent this way can reach B without coming back through D
      // (a `continue` reaches B again only through the loop's branch).
      if (!reachableAvoiding(D, Edge).test(ID))
        continue;
      if (Split && DB->succ_size() == 2)
        Side = Side | (Edge == 0 ? Split->TrueMust : Split->FalseMust);
    }
    M = M & Side;
  }
  return M;
}

const llvm::BitVector &FunctionUniformity::Impl::reachableAvoiding(unsigned D, unsigned Edge) {
  auto Key = std::make_pair(D, Edge);
  auto It = Reach.find(Key);
  if (It != Reach.end())
    return It->second;
  llvm::BitVector Seen(NumBlocks);
  const CFGBlock *DB = blockByID(D);
  const CFGBlock *Start = nullptr;
  unsigned Index = 0;
  for (const CFGBlock *Succ : DB->succs())
    if (Index++ == Edge)
      Start = Succ;
  llvm::SmallVector<const CFGBlock *, 16> Stack;
  if (Start && Start != DB)
    Stack.push_back(Start);
  while (!Stack.empty()) {
    const CFGBlock *X = Stack.pop_back_val();
    if (Seen.test(X->getBlockID()))
      continue;
    Seen.set(X->getBlockID());
    for (const CFGBlock *N : X->succs())
      if (N && N != DB)
        Stack.push_back(N);
  }
  return Reach.emplace(Key, std::move(Seen)).first->second;
}

std::optional<LaneSplit> FunctionUniformity::Impl::finalLaneSplit(unsigned BlockID) {
  auto It = FinalLaneSplits.find(BlockID);
  if (It == FinalLaneSplits.end()) {
    State End = transferBlock(blockByID(BlockID), In[BlockID]);
    It = FinalLaneSplits.try_emplace(BlockID, branchLaneSplit(BlockID, End)).first;
  }
  return It->second;
}

bool FunctionUniformity::Impl::isLaneComparison(unsigned BlockID) {
  return BranchCond[BlockID] && finalLaneSplit(BlockID).has_value();
}

} // namespace warp_tidy
