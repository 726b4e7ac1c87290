//===--- PchUserFiles.h - The user files a loaded PCH holds ---------------===//
//
// warp-tidy's shared PCH may hold a unit's leading project headers
// (tool/PrecompiledPrologue.h). Their text is never preprocessed in the
// unit's own parse, so whatever watched the preprocessor there (the arch
// guard recorder) and whatever walked the unit's declarations (the checks'
// traversal scope) has to find them in the PCH instead: by file. This
// lists the non-system files of the PCH with their FileIDs in the unit's
// SourceManager. It reads every source-location entry of the PCH (cheap
// records; no declaration is deserialised).
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_ANALYSIS_PCHUSERFILES_H
#define WARP_TIDY_ANALYSIS_PCHUSERFILES_H

#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"

namespace clang {
class SourceManager;
} // namespace clang

namespace warp_tidy {

/// Path (as clang names the file) -> its FileIDs, for every user (not
/// system) file entered while the loaded AST files were built (a header
/// without include guard may have been entered more than once).
llvm::StringMap<llvm::SmallVector<clang::FileID, 1>> pchUserFiles(const clang::SourceManager &SM);

} // namespace warp_tidy

#endif
