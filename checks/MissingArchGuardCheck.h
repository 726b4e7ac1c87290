//===--- MissingArchGuardCheck.h - warp-missing-arch-guard ----------------===//
//
// `__reduce_*_sync` needs sm_80 and `__match_*_sync` sm_70. A call that some
// target architecture compiles without such a guard does not build there
// (nvcc: undefined identifier). And a guard without an `#else` whose branch
// computes a value used after the guard makes older architectures skip the
// work silently (the seed's `#if __CUDA_ARCH__ >= 800 val =
// __reduce_add_sync(mask, val); #endif`).
//
// The target list comes from TargetArchs; ArchGuards tells, per piece of
// code, which of those archs compile it, including code the analysed pass
// skipped. Option `MinimumArch` (also read globally) states the oldest
// architecture the project supports.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_MISSINGARCHGUARDCHECK_H
#define WARP_TIDY_MISSINGARCHGUARDCHECK_H

#include "WarpCheck.h"
#include "arch/ArchGuards.h"
#include <memory>

namespace warp_tidy {

class MissingArchGuardCheck : public WarpCheck {
public:
  MissingArchGuardCheck(llvm::StringRef Name, clang::tidy::ClangTidyContext *Context);
  void storeOptions(clang::tidy::ClangTidyOptions::OptionMap &Opts) override;
  void registerPPCallbacks(const clang::SourceManager &SM, clang::Preprocessor *PP,
                           clang::Preprocessor *ModuleExpanderPP) override;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;

private:
  struct AstCall {
    const clang::CallExpr *Call;
    const WarpIntrinsic *Intrinsic;
  };
  /// An arch-limited instruction in an inline asm statement (redux.sync,
  /// match.sync), with the intrinsic of the same architecture needs.
  struct AsmInstruction {
    const clang::GCCAsmStmt *Asm;
    const WarpIntrinsic *Intrinsic;
    std::string Name;        ///< "inline PTX 'redux.sync.add.s32'"
    std::string AssignedVar; ///< the variable its result is written to
  };
  void reportMissingGuards();
  void reportMissingFallbacks();

  std::string MinimumArchText;
  unsigned MinimumArch;
  const clang::Preprocessor *Preproc = nullptr; ///< Of the current TU.
  bool DeviceCompile = false;
  std::shared_ptr<ArchGuardMap> Map;
  clang::ASTContext *Ctx = nullptr;
  std::vector<AstCall> AstCalls;
  std::vector<AsmInstruction> AsmInstructions;
  std::vector<const clang::FunctionDecl *> Functions;
};

} // namespace warp_tidy

#endif
