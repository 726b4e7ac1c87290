//===--- WarpClangdMain.cpp - clangd with the warp checks linked in -------===//
//
// Editors get warp-* diagnostics as they type through a clangd that carries
// the module: clangd's own main, with the module linked in and a few of
// clangd's calls redirected so that it works with no setup (warp-* enabled
// and not dropped as slow, nvcc databases translated on the fly, links to
// the project's check pages, its own version): ClangdDefaults.cpp and
// ClangdCompileCommands.cpp. docs/editors.md is the user guide.
//
//===----------------------------------------------------------------------===//

#include "llvm/ADT/StringRef.h"
#include <memory>

extern volatile int WarpTidyModuleAnchorSource;
static int __attribute__((used)) WarpTidyModuleAnchorDestination = WarpTidyModuleAnchorSource;

namespace clang::clangd {
int clangdMain(int argc, char *argv[]);

// Only a null pointer of this type is ever created here, so no member is
// needed; the virtual destructor mirrors clangd's declaration.
class SymbolIndex {
public:
  virtual ~SymbolIndex();
};
namespace remote {
// clangd's remote index needs gRPC, which this build does not link. The
// library's own no-gRPC stub has this exact behaviour: no remote index.
std::unique_ptr<SymbolIndex> getClient(llvm::StringRef /*Address*/,
                                       llvm::StringRef /*ProjectRoot*/) {
  return nullptr;
}
} // namespace remote
} // namespace clang::clangd

int main(int argc, char *argv[]) { return clang::clangd::clangdMain(argc, argv); }
