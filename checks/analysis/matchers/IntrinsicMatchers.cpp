//===--- IntrinsicMatchers.cpp - Name lists for AST matchers --------------===//

#include "matchers/IntrinsicMatchers.h"
#include "intrinsics/WarpIntrinsics.h"

namespace warp_tidy {

const std::vector<llvm::StringRef> &namesOfMaskedIntrinsics() {
  static const std::vector<llvm::StringRef> Names = [] {
    std::vector<llvm::StringRef> Out;
    for (const WarpIntrinsic &I : allWarpIntrinsics())
      if (I.Scope.empty() && I.MaskArg != NoArgument)
        Out.push_back(I.Name);
    return Out;
  }();
  return Names;
}

const std::vector<llvm::StringRef> &namesOfAllCollectives() {
  static const std::vector<llvm::StringRef> Names = [] {
    std::vector<llvm::StringRef> Out;
    for (const WarpIntrinsic &I : allWarpIntrinsics())
      if (I.Kind != CollectiveKind::ActiveMask)
        Out.push_back(I.Name);
    return Out;
  }();
  return Names;
}

} // namespace warp_tidy
