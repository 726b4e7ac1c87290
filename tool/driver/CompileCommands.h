//===--- CompileCommands.h - The compile commands of a run ----------------===//
//
// How each file is compiled for the analysis: the project's compilation
// database when -p names one (nvcc lines translated), the embedded CUDA
// defaults otherwise, with the toolkit and clang's resource headers found,
// and the command line's extra arguments. --export-compile-commands writes
// the result out for clangd and warp-clangd.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_TOOL_DRIVER_COMPILECOMMANDS_H
#define WARP_TIDY_TOOL_DRIVER_COMPILECOMMANDS_H

#include "WarpCompilationDatabase.h"
#include "driver/Options.h"
#include <memory>

namespace warp_tidy::driver {

struct CompileCommands {
  std::unique_ptr<WarpCompilationDatabase> Database;
  /// The project's own database inside it (-p); null without one.
  const clang::tooling::CompilationDatabase *Project = nullptr;
};

/// The commands of the run; nullopt (an error printed) if the CUDA toolkit
/// cannot be found or -p names no database.
std::optional<CompileCommands> loadCompileCommands(const DriverOptions &Opts);

/// A database entry is a CUDA unit when its file is .cu/.cuh or its command
/// compiles it as CUDA (nvcc/clang `-x cu`, `-x cuda`).
bool isCudaUnit(const clang::tooling::CompilationDatabase &DB, llvm::StringRef File);

/// --export-compile-commands: the translated commands of \p Files as
/// <Dir>/compile_commands.json; the exit status.
int exportCompileCommands(const DriverOptions &Opts, const WarpCompilationDatabase &Database,
                          llvm::ArrayRef<std::string> Files);

} // namespace warp_tidy::driver

#endif
