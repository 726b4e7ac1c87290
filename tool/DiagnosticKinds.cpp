//===--- DiagnosticKinds.cpp - What a clang-tidy diagnostic is ------------===//

#include "DiagnosticKinds.h"

using clang::tidy::ClangTidyError;

namespace warp_tidy {

static bool isCompilerDiagnostic(const ClangTidyError &E) {
  return llvm::StringRef(E.DiagnosticName).starts_with("clang-diagnostic-");
}

bool isCompilerError(const ClangTidyError &E) {
  return E.DiagLevel == ClangTidyError::Error && isCompilerDiagnostic(E);
}

bool isWarpFinding(const ClangTidyError &E) { return !isCompilerDiagnostic(E); }

} // namespace warp_tidy
