//===--- ArchGuardMap.cpp - The target archs of each piece of code -------===//

#include "arch/ArchGuardMap.h"
#include "arch/TargetArchs.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Basic/TargetInfo.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace warp_tidy {

void ArchGuardMap::readTargets(const Preprocessor &PP, unsigned MinimumArch) {
  if (TargetsRead)
    return;
  TargetsRead = true;
  Archs = targetArchs(PP, MinimumArch);
  if (Archs.size() > 64)
    Archs.resize(64);
  AnalysedArch = parseMinimumArch(PP.getTargetInfo().getTargetOpts().CPU);
}

void ArchGuardMap::useArchs(std::vector<unsigned> List, unsigned Analysed) {
  TargetsRead = true;
  Archs = std::move(List);
  if (Archs.size() > 64)
    Archs.resize(64);
  AnalysedArch = Analysed;
}

ArchMask ArchGuardMap::archsAt(SourceLocation FileLoc, const SourceManager &SM) const {
  ArchMask M{allArchs(), allArchs()};
  for (unsigned I : branchesAt(FileLoc, SM))
    M = M & Branches[I].Own;
  return M;
}

std::vector<unsigned> ArchGuardMap::branchesAt(SourceLocation FileLoc,
                                               const SourceManager &SM) const {
  std::vector<unsigned> Out;
  if (FileLoc.isInvalid())
    return Out;
  auto [FID, Offset] = SM.getDecomposedLoc(SM.getFileLoc(FileLoc));
  for (unsigned I = 0; I < Branches.size(); ++I) {
    const GuardBranch &B = Branches[I];
    if (B.File == FID && B.Begin <= Offset && Offset < B.End)
      Out.push_back(I);
  }
  // Outermost first: outer branches begin earlier (or at the same place and
  // end later).
  llvm::sort(Out, [&](unsigned A, unsigned B) {
    if (Branches[A].Begin != Branches[B].Begin)
      return Branches[A].Begin < Branches[B].Begin;
    return Branches[A].End > Branches[B].End;
  });
  return Out;
}

} // namespace warp_tidy
