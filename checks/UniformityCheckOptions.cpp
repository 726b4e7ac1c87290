//===--- UniformityCheckOptions.cpp - Config options of the analysis ------===//

#include "UniformityCheckOptions.h"

namespace warp_tidy {

// String options: the bool overloads of OptionsView are not usable from this
// out-of-tree build (their mangling differs from Debian's archive).
static bool parseBool(llvm::StringRef Value) {
  return !Value.equals_insensitive("false") && Value != "0";
}

UniformityOptions
readUniformityOptions(const clang::tidy::ClangTidyCheck::OptionsView &Options) {
  UniformityOptions Result;
  Result.AssumeWarpAlignedBlocks =
      parseBool(Options.getLocalOrGlobal("AssumeWarpAlignedBlocks", "true"));
  return Result;
}

void storeUniformityOptions(const clang::tidy::ClangTidyCheck::OptionsView &Options,
                            clang::tidy::ClangTidyOptions::OptionMap &Opts,
                            const UniformityOptions &Uniformity) {
  Options.store(Opts, "AssumeWarpAlignedBlocks",
                Uniformity.AssumeWarpAlignedBlocks ? "true" : "false");
}

} // namespace warp_tidy
