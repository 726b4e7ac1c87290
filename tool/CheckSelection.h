//===--- CheckSelection.h - Which warp checks a run enables ---------------===//
//
// A linter that a project's configuration silently turns off is worse than
// none: CI shows "passed". Three rules keep warp-tidy on:
//   * a .clang-tidy found next to the sources that never names `warp-` was
//     written for clang-tidy (`Checks: '-*,bugprone-*'`); its Checks do not
//     switch the warp checks off. Once it names `warp-` (`-warp-*`,
//     `warp-zero-mask`), it is taken at its word. --checks, --config and
//     --config-file are explicit choices for warp-tidy and always count;
//   * a run whose effective check set is empty is an error, as in clang-tidy
//     ("no checks enabled"), unless --allow-no-checks;
//   * a positive --checks glob that matches no check is an error (a typo such
//     as `warp-zero-mas` would otherwise turn everything off).
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_TOOL_CHECKSELECTION_H
#define WARP_TIDY_TOOL_CHECKSELECTION_H

#include "clang-tidy/ClangTidyOptions.h"
#include "llvm/ADT/StringRef.h"
#include <memory>
#include <string>
#include <vector>

namespace warp_tidy {

/// Source name of the options entry that keeps warp-* on (--explain-config,
/// --dump-config show it).
extern const char KeptOnSource[];

/// Wraps \p Inner so that configuration files found next to the sources
/// which never name `warp-` leave the warp checks on.
std::unique_ptr<clang::tidy::ClangTidyOptionsProvider>
keepWarpChecksOn(std::unique_ptr<clang::tidy::ClangTidyOptionsProvider> Inner);

/// Every check this binary knows (warp-*), sorted.
const std::vector<std::string> &knownChecks();

/// The items of the glob list \p Globs ("-*,warp-zero-mask") that match no
/// known check. Only positive items when \p PositiveOnly. clang-diagnostic-*
/// items are compiler warnings and always known.
std::vector<std::string> unmatchedGlobs(llvm::StringRef Globs, bool PositiveOnly);

/// The closest known check to \p Name, or "" (for "did you mean").
std::string closestCheck(llvm::StringRef Name);

/// --verify-config: the problems in the configuration files that apply to
/// \p File: `warp-` globs and `warp-` check options that name no check
/// (other checks belong to clang-tidy and are not judged). One line each,
/// in clang-tidy's format.
std::vector<std::string> verifyConfiguration(clang::tidy::ClangTidyOptionsProvider &Provider,
                                             llvm::StringRef File);

} // namespace warp_tidy

#endif
