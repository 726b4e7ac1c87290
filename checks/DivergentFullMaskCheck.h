//===--- DivergentFullMaskCheck.h - warp-divergent-full-mask --------------===//
//
// Flags warp collectives whose mask names lanes that may not reach them: a
// full (or constant) mask under thread-divergent control flow, implicit
// full-warp collectives (__syncwarp(), wmma, thread_block_tile members) on a
// divergent path, calls of helpers that contain such a collective, and a
// full-mask shuffle after a thread-dependent early return (lanes that left
// have exited, and reading from them is undefined). The facts come from the
// uniformity analysis (analysis/Uniformity.h); this file only judges and
// words them.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_DIVERGENTFULLMASKCHECK_H
#define WARP_TIDY_DIVERGENTFULLMASKCHECK_H

#include "UniformityCheck.h"
#include "uniformity/Uniformity.h"
#include <optional>

namespace warp_tidy {

class DivergentFullMaskCheck : public UniformityCheck {
public:
  DivergentFullMaskCheck(llvm::StringRef Name, clang::tidy::ClangTidyContext *Context);
  void storeOptions(clang::tidy::ClangTidyOptions::OptionMap &Opts) override;
  void registerPPCallbacks(const clang::SourceManager &SM, clang::Preprocessor *PP,
                           clang::Preprocessor *ModuleExpanderPP) override {
    this->PP = PP;
  }
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void onStartOfTranslationUnit() override {
    WarpCheck::onStartOfTranslationUnit();
    IndependentScheduling.reset();
  }

private:
  bool independentThreadScheduling(const clang::ASTContext &Ctx);
  void reportDivergent(const CollectiveSite &Site, LaneSet Missing,
                       const FunctionUniformity &Analysis, clang::ASTContext &Ctx);
  void reportEarlyExit(const CollectiveSite &Site, LaneSet Missing, clang::ASTContext &Ctx);
  /// A site whose missing lanes all left the kernel (EarlyExits only).
  void reportExits(const CollectiveSite &Site, LaneSet Missing, const FunctionUniformity &Analysis,
                   clang::ASTContext &Ctx);

  /// "sm_70 or newer everywhere": the Volta+ pattern is valid only then.
  /// Empty means "derive from the compile"; set by the option to force it.
  std::optional<bool> IndependentScheduling;
  std::string SchedulingOption;
  const clang::Preprocessor *PP = nullptr;
};

} // namespace warp_tidy

#endif
