//===--- IntrinsicMatchers.h - Name lists for AST matchers ----------------===//
//
// Checks pre-filter calls by callee name so matcher callbacks only see calls
// that can be collectives; the names come from the intrinsic table.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_ANALYSIS_INTRINSICMATCHERS_H
#define WARP_TIDY_ANALYSIS_INTRINSICMATCHERS_H

#include "llvm/ADT/StringRef.h"
#include <vector>

namespace warp_tidy {

/// Free intrinsics that take an explicit mask argument.
const std::vector<llvm::StringRef> &namesOfMaskedIntrinsics();

/// Every name in the table (free, wmma and tile members).
const std::vector<llvm::StringRef> &namesOfAllCollectives();

} // namespace warp_tidy

#endif
