//===--- CompileFailure.cpp - A unit that does not compile ----------------===//

#include "driver/CompileFailure.h"
#include "DiagnosticKinds.h"
#include "OutputFormats.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;
using clang::tidy::ClangTidyError;

namespace warp_tidy::driver {
namespace {

/// \p E as clang prints it: "file:line:column: message" (the message alone
/// for an error with no location, such as an unusable flag).
std::string located(const ClangTidyError &E) {
  const clang::tooling::DiagnosticMessage &M = E.Message;
  if (M.FilePath.empty())
    return M.Message;
  std::string File = absolutePath(M.FilePath, E.BuildDirectory);
  auto Buffer = MemoryBuffer::getFile(File);
  if (!Buffer)
    return File + ": " + M.Message;
  StringRef Before = (*Buffer)->getBuffer().take_front(M.FileOffset);
  size_t Line = Before.count('\n') + 1;
  size_t LineStart = Before.rfind('\n') + 1; // 0 on the first line (npos + 1).
  return formatv("{0}:{1}:{2}: {3}", File, Line, Before.size() - LineStart + 1, M.Message).str();
}

} // namespace

std::string compileFailure(StringRef File, ArrayRef<ClangTidyError> Errors) {
  const auto *First = llvm::find_if(Errors, isCompilerError);
  if (First == Errors.end())
    return "";
  size_t Count = llvm::count_if(Errors, isCompilerError);
  return formatv("{0} does not compile ({1} error(s)); it was not fully analysed; first: {2}", File,
                 Count, located(*First))
      .str();
}

} // namespace warp_tidy::driver
