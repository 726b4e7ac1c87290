//===--- WarpCompilationDatabase.h - Compile commands for the analysis ----===//
//
// Wraps the project's compilation database (or none at all) and hands clang
// tooling commands it can run: nvcc lines translated, the CUDA toolkit and
// clang's resource headers located, one device architecture chosen, and the
// same embedded defaults for files that have no entry. This is what lets
// `warp-tidy kernel.cu` work with nothing else on the command line.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_TOOL_WARPCOMPILATIONDATABASE_H
#define WARP_TIDY_TOOL_WARPCOMPILATIONDATABASE_H

#include "CudaInstallation.h"
#include "clang/Tooling/CompilationDatabase.h"
#include <memory>
#include <mutex>
#include <set>

namespace warp_tidy {

struct CommandSettings {
  CudaInstallation Cuda;
  std::string ResourceDir;            ///< clang's resource directory.
  std::vector<std::string> ExtraArgs; ///< After `--`, nvcc or clang style.
  std::vector<std::string> ExtraArgsBefore;
};

class WarpCompilationDatabase : public clang::tooling::CompilationDatabase {
public:
  /// \p Inner may be null: every file then gets the embedded defaults.
  WarpCompilationDatabase(std::unique_ptr<clang::tooling::CompilationDatabase> Inner,
                          CommandSettings Settings);

  std::vector<clang::tooling::CompileCommand>
  getCompileCommands(llvm::StringRef FilePath) const override;
  std::vector<std::string> getAllFiles() const override;
  std::vector<clang::tooling::CompileCommand> getAllCompileCommands() const override;

  /// Flags dropped because clang does not know them, across all commands
  /// handed out so far (the tool warns once, listing them).
  std::vector<std::string> droppedFlags() const;

  /// Turns one command (from a database or synthesised) into the command
  /// the analysis runs.
  clang::tooling::CompileCommand adapt(const clang::tooling::CompileCommand &Command) const;

  /// The embedded default command for a file without a database entry.
  clang::tooling::CompileCommand defaultCommand(llvm::StringRef FilePath) const;

private:
  std::unique_ptr<clang::tooling::CompilationDatabase> Inner;
  CommandSettings Settings;
  mutable std::mutex Mutex;
  mutable std::set<std::string> Dropped;
};

/// Macro through which the full target-arch list of a compile reaches the
/// checks (clang tooling analyses one architecture per pass; the checks need
/// to know about the others). Value: comma-separated numbers, e.g. 75,80,90.
inline constexpr const char *TargetArchsMacro = "__WARP_TIDY_TARGET_ARCHS__";

} // namespace warp_tidy

#endif
