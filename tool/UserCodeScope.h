//===--- UserCodeScope.h - Traverse the project's code, not the system's --===//
//
// clang-tidy's matchers and the checks' parent index (analysis/UnitParents.h)
// walk the whole translation unit, and most of a real CUDA unit is system
// headers: the C++ standard library, the CUDA runtime and math headers,
// cuBLAS, CUB. clang-tidy drops every diagnostic placed there (unless
// --system-headers), and warp-tidy's analyses never draw facts from them by
// traversal (callee bodies are read on demand through their declarations,
// launches in system code are ignored). So the traversal is narrowed, as
// clangd narrows it to the main file, to the top-level declarations outside
// system headers: the same findings for less work.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_TOOL_USERCODESCOPE_H
#define WARP_TIDY_TOOL_USERCODESCOPE_H

#include "clang/AST/ASTConsumer.h"
#include <memory>

namespace warp_tidy {

/// Wraps \p Checks so that, when the unit is complete, the ASTContext's
/// traversal scope holds only top-level declarations outside system headers
/// (within whatever scope an earlier consumer set). Unchanged when
/// \p SystemHeaders (--system-headers) asks for findings there too.
std::unique_ptr<clang::ASTConsumer> withUserCodeScope(std::unique_ptr<clang::ASTConsumer> Checks,
                                                      bool SystemHeaders);

} // namespace warp_tidy

#endif
