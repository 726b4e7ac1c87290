//===--- UnguardedPartialsReadCheck.h - warp-unguarded-partials-read ------===//
//
// Flags the second stage of a block reduction that reads per-warp partials
// back at the lane index without bounding it by the number of warps (reads
// slots no warp wrote: on an H200 a 64-thread block summed 348 as 24153), a
// bound that rounds the number of warps down (drops a partial last warp), and
// reads past the end of a partials array smaller than the warp. The partials
// may be a helper's pointer parameter that a caller hands its `__shared__`
// array. The analysis lives in analysis/PartialsRead; this file only reports.
//
// Option AssumeWholeWarps (default false): block sizes are always a multiple
// of 32, so `lane < blockDim.x / 32` is exact and not reported.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_UNGUARDEDPARTIALSREADCHECK_H
#define WARP_TIDY_UNGUARDEDPARTIALSREADCHECK_H

#include "WarpCheck.h"

namespace warp_tidy {

class UnguardedPartialsReadCheck : public WarpCheck {
public:
  UnguardedPartialsReadCheck(llvm::StringRef Name, clang::tidy::ClangTidyContext *Context);
  void storeOptions(clang::tidy::ClangTidyOptions::OptionMap &Opts) override;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  bool AssumeWholeWarps;
};

} // namespace warp_tidy

#endif
