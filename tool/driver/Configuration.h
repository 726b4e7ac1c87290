//===--- Configuration.h - The clang-tidy configuration of a run ----------===//
//
// The second stage: which checks run with which options, from --checks,
// --config, --config-file and the .clang-tidy files next to the sources
// (CheckSelection.h keeps the warp checks on), and the modes that only
// print that configuration and exit (--verify-config, --list-checks,
// --dump-config), as in clang-tidy.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_TOOL_DRIVER_CONFIGURATION_H
#define WARP_TIDY_TOOL_DRIVER_CONFIGURATION_H

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "driver/Options.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <memory>
#include <optional>

namespace warp_tidy::driver {

/// The options provider for the command line; null (an error printed) if
/// the line filter or a configuration cannot be read.
std::unique_ptr<clang::tidy::ClangTidyOptionsProvider>
makeOptionsProvider(const DriverOptions &Opts);

/// --vfsoverlay over \p Base, or null (and an error printed).
llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>
loadVfsOverlay(llvm::StringRef Path, llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Base);

/// A --vfsoverlay that can be loaded (or none); false (an error printed) if
/// it cannot.
bool checkVfsOverlay(const DriverOptions &Opts);

/// A positive --checks glob meant for warp-tidy that matches no check is an
/// error (a typo would otherwise switch everything off), a negative one a
/// warning; globs of other tools' modules (`bugprone-*`) are ignored with
/// one warning. The parent
/// judges them before it starts any worker; a worker does not again.
bool checkCheckGlobs(const DriverOptions &Opts);

/// --verify-config, --list-checks and --dump-config: the exit status once
/// done; nullopt when none of them was asked for.
std::optional<int> answerConfigurationQuery(const DriverOptions &Opts,
                                            clang::tidy::ClangTidyOptionsProvider &Provider);

/// clang-tidy's wording first (tools grep for it), then what to do.
std::string noChecksMessage(llvm::StringRef File);

/// The same problem as one finding in clang-tidy's text layout
/// (`file:1:1: error: ... [warp-tidy-no-checks]`), for drivers that parse
/// stdout and not the exit status.
std::string noChecksFinding(llvm::StringRef File);

/// The clang-tidy context of an analysis (the targets clang may be asked
/// for initialised first).
std::unique_ptr<clang::tidy::ClangTidyContext>
makeTidyContext(std::unique_ptr<clang::tidy::ClangTidyOptionsProvider> Provider);

} // namespace warp_tidy::driver

#endif
