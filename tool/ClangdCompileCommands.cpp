//===--- ClangdCompileCommands.cpp - nvcc databases read by warp-clangd ---===//
//
// CMake writes nvcc command lines into compile_commands.json; clang's driver
// rejects most of their flags and cannot see the include paths hidden in
// `--options-file`, so stock clangd shows errors where warp-tidy shows
// findings. warp-clangd translates each command as clangd reads it, with the
// translation warp-tidy itself uses (WarpCompilationDatabase::adapt): nothing
// to export, nothing to redo after a reconfigure, and the editor analyses the
// same device pass as the command line, shims header and target-arch list
// included.
//
// clangd 22 offers no extension point for its compilation database and its
// headers are not installed. It builds every compile_commands.json database
// as `inferMissingCompileCommands(expandResponseFiles(json))`; warp-clangd is
// linked with `--wrap` for that one call (tool/CMakeLists.txt), so the
// translation sits between the parsed file and clangd's inference of commands
// for headers, which then start from translated commands. The redirection
// binds only clangd's own call site; warp-tidy's tooling code does not go
// through it.
//
//===----------------------------------------------------------------------===//

#include "CudaInstallation.h"
#include "InputFiles.h"
#include "NvccTranslation.h"
#include "WarpCompilationDatabase.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/raw_ostream.h"
#include <memory>
#include <optional>

using clang::tooling::CompilationDatabase;
using clang::tooling::CompileCommand;

namespace warp_tidy {
namespace {

/// Commands warp-tidy would analyse differently from a plain clang parse:
/// nvcc lines (clang cannot read them) and CUDA units (analysed as one
/// device pass for the lowest target arch). C and C++ units compiled by gcc
/// or clang stay exactly as clangd would see them.
bool needsTranslation(const CompileCommand &Command) {
  return (!Command.CommandLine.empty() && isNvcc(Command.CommandLine.front())) ||
         isCudaSourceName(Command.Filename);
}

/// The project's database with every nvcc / CUDA command translated. Files
/// the database does not list get no command here, so that clangd's
/// inference (and its fallback) still apply to them.
class TranslatingDatabase : public CompilationDatabase {
public:
  TranslatingDatabase(std::unique_ptr<CompilationDatabase> Inner, CommandSettings Settings)
      : Inner(std::move(Inner)), Translator(nullptr, std::move(Settings)) {}

  std::vector<CompileCommand> getCompileCommands(llvm::StringRef File) const override {
    return translate(Inner->getCompileCommands(File));
  }
  std::vector<std::string> getAllFiles() const override { return Inner->getAllFiles(); }
  std::vector<CompileCommand> getAllCompileCommands() const override {
    return translate(Inner->getAllCompileCommands());
  }

private:
  std::vector<CompileCommand> translate(std::vector<CompileCommand> Commands) const {
    for (CompileCommand &Command : Commands)
      if (needsTranslation(Command))
        Command = Translator.adapt(Command);
    return Commands;
  }

  std::unique_ptr<CompilationDatabase> Inner;
  WarpCompilationDatabase Translator;
};

/// Located once per process. Without a toolkit nothing can be translated
/// (the CUDA headers are part of every translated command), so the database
/// is passed through and the reason is logged once.
const std::optional<CommandSettings> &translationSettings() {
  static const std::optional<CommandSettings> Settings = [] {
    std::string Why;
    std::optional<CudaInstallation> Cuda = findCudaInstallation("", Why);
    if (!Cuda) {
      llvm::errs() << "warp-clangd: " << Why
                   << "; nvcc compile commands are passed to clangd untranslated\n";
      return std::optional<CommandSettings>();
    }
    CommandSettings S;
    S.Cuda = *Cuda;
    // ResourceDir stays empty: clangd adds its own -resource-dir, the one
    // matching the builtin headers it ships with.
    return std::optional<CommandSettings>(std::move(S));
  }();
  return Settings;
}

} // namespace
} // namespace warp_tidy

// ld's --wrap=SYM binds clangd's call of SYM to __wrap_SYM and __real_SYM
// to the original; the asm labels give these declarations those names.
#define WARP_INFER_MISSING_SYMBOL                                                                  \
  "_ZN5clang7tooling27inferMissingCompileCommandsESt10unique_ptrINS0_"                             \
  "19CompilationDatabaseESt14default_deleteIS2_EE"

std::unique_ptr<CompilationDatabase> realInferMissingCompileCommands(
    std::unique_ptr<CompilationDatabase> Inner) asm("__real_" WARP_INFER_MISSING_SYMBOL);
std::unique_ptr<CompilationDatabase> wrapInferMissingCompileCommands(
    std::unique_ptr<CompilationDatabase> Inner) asm("__wrap_" WARP_INFER_MISSING_SYMBOL);

std::unique_ptr<CompilationDatabase>
wrapInferMissingCompileCommands(std::unique_ptr<CompilationDatabase> Inner) {
  const auto &Settings = warp_tidy::translationSettings();
  if (Inner && Settings)
    Inner = std::make_unique<warp_tidy::TranslatingDatabase>(std::move(Inner), *Settings);
  return realInferMissingCompileCommands(std::move(Inner));
}
