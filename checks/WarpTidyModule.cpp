//===--- WarpTidyModule.cpp - The `warp` clang-tidy module ----------------===//
//
// Registers every warp-* check. The same object file is linked into
// warp-tidy, warp-clangd and the --load plugin; the anchor below keeps the
// static registration alive when linked from a static library.
//
//===----------------------------------------------------------------------===//

#include "ActivemaskSyncMaskCheck.h"
#include "DivergentFullMaskCheck.h"
#include "InconsistentMaskCheck.h"
#include "InvalidShflWidthCheck.h"
#include "LegacyIntrinsicCheck.h"
#include "MaskExcludesCallerCheck.h"
#include "MissingArchGuardCheck.h"
#include "NonIntegerReduceCheck.h"
#include "ReductionResultLaneCheck.h"
#include "ShflSourceOutsideMaskCheck.h"
#include "UnguardedPartialsReadCheck.h"
#include "UnguardedShflScanCheck.h"
#include "ZeroMaskCheck.h"
#include "clang-tidy/ClangTidyModule.h"

namespace warp_tidy {

class WarpTidyModule : public clang::tidy::ClangTidyModule {
public:
  void addCheckFactories(clang::tidy::ClangTidyCheckFactories &Factories) override {
    Factories.registerCheck<ZeroMaskCheck>("warp-zero-mask");
    Factories.registerCheck<DivergentFullMaskCheck>("warp-divergent-full-mask");
    Factories.registerCheck<ActivemaskSyncMaskCheck>("warp-activemask-sync-mask");
    Factories.registerCheck<MaskExcludesCallerCheck>("warp-mask-excludes-caller");
    Factories.registerCheck<InvalidShflWidthCheck>("warp-invalid-shfl-width");
    Factories.registerCheck<NonIntegerReduceCheck>("warp-non-integer-reduce");
    Factories.registerCheck<MissingArchGuardCheck>("warp-missing-arch-guard");
    Factories.registerCheck<LegacyIntrinsicCheck>("warp-legacy-intrinsic");
    Factories.registerCheck<UnguardedShflScanCheck>("warp-unguarded-shfl-scan");
    Factories.registerCheck<UnguardedPartialsReadCheck>("warp-unguarded-partials-read");
    Factories.registerCheck<ReductionResultLaneCheck>("warp-reduction-result-lane");
    Factories.registerCheck<ShflSourceOutsideMaskCheck>("warp-shfl-source-outside-mask");
    Factories.registerCheck<InconsistentMaskCheck>("warp-inconsistent-mask");
  }
};

} // namespace warp_tidy

static clang::tidy::ClangTidyModuleRegistry::Add<warp_tidy::WarpTidyModule>
    Registration("warp-module", "Checks for misuse of CUDA warp-level intrinsics.");

// Referenced from each entry point so the linker keeps this translation unit.
volatile int WarpTidyModuleAnchorSource = 0;
