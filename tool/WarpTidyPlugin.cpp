//===--- WarpTidyPlugin.cpp - The module as a clang-tidy --load plugin ----===//
//
// `clang-tidy-22 --load=libWarpTidyPlugin.so --checks='-*,warp-*' ...` adds
// the warp checks to a stock clang-tidy. The module registers itself from
// WarpTidyModule.cpp when the library is loaded; this file only keeps that
// object from being discarded. The plugin links no clang or LLVM library: it
// uses the ones clang-tidy-22 already has loaded (the ABI is that of 22.1).
//
//===----------------------------------------------------------------------===//

extern volatile int WarpTidyModuleAnchorSource;
static int __attribute__((used)) WarpTidyModuleAnchorDestination = WarpTidyModuleAnchorSource;
