//===--- DiscardedBranches.h - Code the compiler discards -----------------===//
//
// Which statements of a unit lie in a discarded `if constexpr` branch, for
// the whole unit at once and without clang's parent map (the .cpp says why
// the two answers are the same).
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_ANALYSIS_DISCARDEDBRANCHES_H
#define WARP_TIDY_ANALYSIS_DISCARDEDBRANCHES_H

#include "llvm/ADT/DenseSet.h"

namespace clang {
class ASTContext;
class Stmt;
} // namespace clang

namespace warp_tidy {

/// Every statement, within the context's traversal scope, below a branch
/// that discardedBranch() names (the branch itself included). Built on the
/// first call and kept as long as the ASTContext.
const llvm::DenseSet<const clang::Stmt *> &discardedStatements(clang::ASTContext &Ctx);

/// True when \p S lies inside a branch that discardedBranch() names. The
/// one statement on which this differs from the parent walk below is the
/// empty block an instantiation holds in place of a discarded branch
/// (false here): it contains nothing a check could ask about.
bool isInDiscardedBranch(const clang::Stmt *S, clang::ASTContext &Ctx);

/// The same question answered from clang's parent map, as it was before
/// the index: the reference the unit tests compare against.
bool isInDiscardedBranchByParents(const clang::Stmt *S, clang::ASTContext &Ctx);

} // namespace warp_tidy

#endif
