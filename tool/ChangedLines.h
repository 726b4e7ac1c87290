//===--- ChangedLines.h - The lines a change touched (--diff) -------------===//
//
// Pre-commit hooks and pull requests should judge the lines a developer
// changed, not the old findings around them. --diff[=<rev>] asks git which
// lines differ from <rev> (default HEAD: the working tree's uncommitted
// changes) and turns them into clang-tidy's line filter, which drops every
// diagnostic elsewhere, in headers too.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_TOOL_CHANGEDLINES_H
#define WARP_TIDY_TOOL_CHANGEDLINES_H

#include "llvm/ADT/StringRef.h"
#include <string>
#include <utility>
#include <vector>

namespace warp_tidy {

struct ChangedFile {
  std::string Path;                                 ///< Absolute.
  std::vector<std::pair<unsigned, unsigned>> Lines; ///< Inclusive ranges.
};

/// Parses `git diff -U0` output; paths are joined to \p TopLevel.
std::vector<ChangedFile> parseUnifiedDiff(llvm::StringRef Diff, llvm::StringRef TopLevel);

/// Runs git in the current directory: the changes between \p Revision and
/// the working tree. False, with \p Why, when git fails.
bool changedLines(llvm::StringRef Revision, std::vector<ChangedFile> &Files, std::string &Why);

/// clang-tidy's --line-filter JSON for \p Files. No changed line at all gives
/// a filter that matches nothing (an empty filter would match everything).
std::string lineFilterJson(const std::vector<ChangedFile> &Files);

} // namespace warp_tidy

#endif
