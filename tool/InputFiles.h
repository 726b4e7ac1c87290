//===--- InputFiles.h - Files and directories named on the command line ---===//
//
// Linters are run on trees: `warp-tidy src/` analyses every CUDA source below
// src/, in a stable (sorted) order so output and exit status are repeatable.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_TOOL_INPUTFILES_H
#define WARP_TIDY_TOOL_INPUTFILES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <map>
#include <string>
#include <vector>

namespace warp_tidy {

struct ExpandedInputs {
  /// Absolute paths, sorted per argument. An unusable argument stays in the
  /// list, at its place, with an entry in Errors: it is one file's error in
  /// the report while the others are analysed.
  std::vector<std::string> Files;
  std::map<std::string, std::string> Errors; ///< Path -> why it is unusable.
};

/// True for the extensions warp-tidy picks up when walking a directory,
/// and that make a file CUDA wherever it is named (.cu, .cuh).
bool isCudaSourceName(llvm::StringRef Path);

/// \p Path as a command run in \p Directory names it: a relative path is
/// joined to \p Directory (when there is one), nothing else changes.
std::string pathInDirectory(llvm::StringRef Path, llvm::StringRef Directory);

/// Turns each argument into files: a file stays as it is (whatever its
/// extension: the user asked for it), a directory becomes every .cu/.cuh
/// file below it. Duplicates are removed, keeping the first occurrence.
ExpandedInputs expandInputs(llvm::ArrayRef<std::string> Arguments);

} // namespace warp_tidy

#endif
