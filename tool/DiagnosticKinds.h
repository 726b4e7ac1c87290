//===--- DiagnosticKinds.h - What a clang-tidy diagnostic is --------------===//
//
// The tool sorts the diagnostics of an analysis into two kinds: a compiler
// error (the unit does not compile, so it was not fully analysed: exit
// status 2, no fix-its, no cache entry, another arch pass or a plain parse
// decides) and a warp finding (what the checks report: exit status 1).
// clang-tidy names compiler diagnostics clang-diagnostic-<flag>.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_TOOL_DIAGNOSTICKINDS_H
#define WARP_TIDY_TOOL_DIAGNOSTICKINDS_H

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"

namespace warp_tidy {

/// An error of the compiler (not a warning, not a check's diagnostic).
bool isCompilerError(const clang::tidy::ClangTidyError &E);

/// A diagnostic of a check rather than of the compiler.
bool isWarpFinding(const clang::tidy::ClangTidyError &E);

} // namespace warp_tidy

#endif
