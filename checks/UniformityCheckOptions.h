//===--- UniformityCheckOptions.h - Config options of the analysis --------===//
//
// The checks that stand on the uniformity analysis share its options, so a
// project sets `AssumeWarpAlignedBlocks` once (globally, or per check) and
// every such check reads it the same way.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_UNIFORMITYCHECKOPTIONS_H
#define WARP_TIDY_UNIFORMITYCHECKOPTIONS_H

#include "analysis/Uniformity.h"
#include "clang-tidy/ClangTidyCheck.h"

namespace warp_tidy {

/// Reads the analysis options of a check (local value, else global).
UniformityOptions
readUniformityOptions(const clang::tidy::ClangTidyCheck::OptionsView &Options);

/// Writes them back for --dump-config.
void storeUniformityOptions(const clang::tidy::ClangTidyCheck::OptionsView &Options,
                            clang::tidy::ClangTidyOptions::OptionMap &Opts,
                            const UniformityOptions &Uniformity);

} // namespace warp_tidy

#endif
