//===--- DiagnosticsSerialization.h - ClangTidyError <-> JSON -------------===//
//
// Worker processes and the result cache hand clang-tidy's diagnostics around
// as JSON. Everything handleErrors needs survives the round trip: the check
// name, level, message, location, notes, ranges and the fix-its of the message
// and of each note, so fixes recorded by a worker or read from the cache are
// applied exactly as if the analysis had run in this process.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_TOOL_DIAGNOSTICSSERIALIZATION_H
#define WARP_TIDY_TOOL_DIAGNOSTICSSERIALIZATION_H

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "llvm/Support/JSON.h"
#include <vector>

namespace warp_tidy {

llvm::json::Array diagnosticsToJson(llvm::ArrayRef<clang::tidy::ClangTidyError> Errors);

/// Returns false (and leaves \p Out partially filled) when \p Value is not
/// what diagnosticsToJson writes.
bool diagnosticsFromJson(const llvm::json::Value &Value,
                         std::vector<clang::tidy::ClangTidyError> &Out);

} // namespace warp_tidy

#endif
