//===--- UnguardedShflScanCheck.h - warp-unguarded-shfl-scan --------------===//
//
// Flags warp scans that accumulate a shuffle result without excluding the
// lanes that have no partner: `__shfl_up_sync` hands lanes below the offset
// their own value, `__shfl_sync(m, v, lane - d)` wraps around, and a suffix
// scan over `__shfl_down_sync` hands the top lanes their own value. On an
// H200 each of these got 31 of 32 lanes wrong, with compute-sanitizer silent.
// A reduction written as such a scan is right in its result lane; when a
// later store overwrites only some lanes and a second shuffle reduction adds
// the others' stale values into a used lane (a two-stage block reduction
// with a warp count that is not a power of two), the report names that store.
// The analysis lives in analysis/ScanPatterns and ScanLaneFlow; this file
// only reports.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_UNGUARDEDSHFLSCANCHECK_H
#define WARP_TIDY_UNGUARDEDSHFLSCANCHECK_H

#include "WarpCheck.h"

namespace warp_tidy {

struct ScanFinding;

class UnguardedShflScanCheck : public WarpCheck {
public:
  using WarpCheck::WarpCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void onStartOfTranslationUnit() override;

private:
  void reportStaleLanes(const ScanFinding &F, clang::ASTContext &Ctx);
  // Template instantiations revisit the same code; report each place once.
};

} // namespace warp_tidy

#endif
