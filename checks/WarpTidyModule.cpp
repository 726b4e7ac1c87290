//===--- WarpTidyModule.cpp - The `warp` clang-tidy module ----------------===//
//
// Registers every warp-* check. The same object file is linked into
// warp-tidy, warp-clangd and the --load plugin; the anchor below keeps the
// static registration alive when linked from a static library.
//
//===----------------------------------------------------------------------===//

#include "ZeroMaskCheck.h"
#include "clang-tidy/ClangTidyModule.h"

namespace warp_tidy {

class WarpTidyModule : public clang::tidy::ClangTidyModule {
public:
  void addCheckFactories(clang::tidy::ClangTidyCheckFactories &Factories) override {
    Factories.registerCheck<ZeroMaskCheck>("warp-zero-mask");
  }
};

} // namespace warp_tidy

static clang::tidy::ClangTidyModuleRegistry::Add<warp_tidy::WarpTidyModule>
    Registration("warp-module", "Checks for misuse of CUDA warp-level intrinsics.");

// Referenced from each entry point so the linker keeps this translation unit.
volatile int WarpTidyModuleAnchorSource = 0;
