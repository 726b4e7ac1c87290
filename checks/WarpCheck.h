//===--- WarpCheck.h - What every warp-* check shares ----------------------===//
//
// Every warp-* check runs on CUDA only and reports each source location once:
// a template's instantiations, and a header reached through several paths,
// revisit the same call, and one finding is one diagnostic. The per-unit
// analyses live in UnitContext; the only state a check keeps is this set.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_WARPCHECK_H
#define WARP_TIDY_WARPCHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseSet.h"

namespace warp_tidy {

class WarpCheck : public clang::tidy::ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;
  bool isLanguageVersionSupported(const clang::LangOptions &LO) const override { return LO.CUDA; }
  /// Checks that keep more per-unit state reset it and call this.
  void onStartOfTranslationUnit() override { Reported.clear(); }

protected:
  /// True the first time \p Loc is asked about in this unit: report then.
  bool firstReportAt(clang::SourceLocation Loc) { return Reported.insert(Loc).second; }
  /// Whether a finding at \p Loc was reported already (to skip work early).
  bool reportedAt(clang::SourceLocation Loc) const { return Reported.contains(Loc); }

private:
  llvm::DenseSet<clang::SourceLocation> Reported;
};

} // namespace warp_tidy

#endif
