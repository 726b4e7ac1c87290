//===--- CompileFailure.h - A unit that does not compile ------------------===//
//
// A unit with a compile error was not fully analysed, wherever the error is:
// in its own text or in a header it includes. It is a failed file (the
// progress line, its JSON status, a SARIF notification, the exit status),
// never an analysed one. The message names the first error, because in a
// run of several files a header's error is printed once, with the first
// unit that includes it, and the later units must still say why they
// failed.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_TOOL_DRIVER_COMPILEFAILURE_H
#define WARP_TIDY_TOOL_DRIVER_COMPILEFAILURE_H

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <string>

namespace warp_tidy::driver {

/// "<File> does not compile (N error(s)); it was not fully analysed; first:
/// <file>:<line>:<column>: <message>", or "" when \p Errors (the unit's
/// diagnostics, before deduplication) hold no compile error.
std::string compileFailure(llvm::StringRef File,
                           llvm::ArrayRef<clang::tidy::ClangTidyError> Errors);

} // namespace warp_tidy::driver

#endif
