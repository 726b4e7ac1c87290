//===--- UniformityCheck.h - Base of the checks on the uniformity analysis ===//
//
// The checks that stand on the uniformity analysis share its options, so a
// project sets `AssumeWarpAlignedBlocks` once (globally, or per check) and
// every such check reads it the same way, and they all run on CUDA only.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_UNIFORMITYCHECK_H
#define WARP_TIDY_UNIFORMITYCHECK_H

#include "WarpCheck.h"
#include "uniformity/Uniformity.h"

namespace warp_tidy {

class UniformityCheck : public WarpCheck {
public:
  UniformityCheck(llvm::StringRef Name, clang::tidy::ClangTidyContext *Context);
  /// Writes the analysis options back for --dump-config; checks with options
  /// of their own call this first.
  void storeOptions(clang::tidy::ClangTidyOptions::OptionMap &Opts) override;

protected:
  /// The translation unit's analysis cache for these options.
  WarpAnalysisCache &analysisCache(clang::ASTContext &Ctx) const {
    return WarpAnalysisCache::get(Ctx, Uniformity);
  }
  /// The analysis of \p FD when it is a concrete function (not a template
  /// pattern) that contains a warp collective; null otherwise.
  UniformityRef collectiveAnalysis(const clang::FunctionDecl *FD, clang::ASTContext &Ctx) const;
  /// True when every lane of every warp provably executes \p S in kernel
  /// \p Fn with no divergent condition on the way. Only kernels qualify: a
  /// device function's callers (possibly in other translation units) may call
  /// it from divergent code. Blocks that are not a whole number of warps wide
  /// would leave lanes that do not exist, so the proof also rests on
  /// AssumeWarpAlignedBlocks.
  bool reachedByWholeWarp(const clang::Stmt *S, const clang::FunctionDecl *Fn,
                          clang::ASTContext &Ctx) const;

  /// The analysis options, read once (local value, else global).
  UniformityOptions Uniformity;
};

} // namespace warp_tidy

#endif
