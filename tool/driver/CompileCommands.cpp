//===--- CompileCommands.cpp - The compile commands of a run --------------===//

#include "driver/CompileCommands.h"
#include "ArchShims.h"
#include "BuildInfo.h"
#include "CudaInstallation.h"
#include "InputFiles.h"
#include "driver/ExitStatus.h"
#include "driver/Messages.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using clang::tooling::CompilationDatabase;
using clang::tooling::CompileCommand;

namespace warp_tidy::driver {
namespace {

// clang's resource headers (__clang_cuda_runtime_wrapper.h, ...): an
// installed warp-tidy carries its own copy next to it, so it works from any
// prefix and needs no -dev package; a build tree has a link to clang's;
// otherwise the directory of the clang it was built with.
std::string resourceDir(StringRef Executable) {
  SmallString<256> Bin(Executable);
  sys::path::remove_filename(Bin);
  std::string Major = std::to_string(LLVM_VERSION_MAJOR);
  for (StringRef Relative : {"../lib/warp-tidy/lib/clang", "../lib/clang"}) {
    SmallString<256> Dir(Bin);
    sys::path::append(Dir, Relative, Major);
    SmallString<256> Probe(Dir);
    sys::path::append(Probe, "include", "__clang_cuda_runtime_wrapper.h");
    if (sys::fs::exists(Probe)) {
      sys::path::remove_dots(Dir, /*remove_dot_dot=*/true);
      return Dir.str().str();
    }
  }
  return WARP_TIDY_CLANG_RESOURCE_DIR;
}

// Only an explicit -p loads a database. Searching the sources' parent
// directories (as clang-tidy does) picks up unrelated databases, e.g. a C++
// project's own build tree, and silently analyses CUDA files with flags
// inferred from C++ ones; without -p the embedded CUDA defaults apply.
std::unique_ptr<CompilationDatabase> loadDatabase(StringRef BuildPath, bool &Failed) {
  if (BuildPath.empty())
    return nullptr;
  if (!sys::fs::is_directory(BuildPath)) {
    error("cannot load a compilation database from '" + BuildPath + "': not a directory");
    Failed = true;
    return nullptr;
  }
  std::string Message;
  auto DB = CompilationDatabase::autoDetectFromDirectory(BuildPath, Message);
  if (!DB) {
    error("cannot load a compilation database from '" + BuildPath + "': " + Message);
    Failed = true;
  }
  return DB;
}

CommandSettings commandSettings(const DriverOptions &Opts, CudaInstallation Cuda) {
  CommandSettings Settings;
  Settings.Cuda = std::move(Cuda);
  Settings.ResourceDir = resourceDir(Opts.Executable);
  if (auto Env = sys::Process::GetEnv("WARP_TIDY_RESOURCE_DIR"))
    Settings.ResourceDir = *Env;
  Settings.ExtraArgs = Opts.CompilerArgs;
  llvm::append_range(Settings.ExtraArgs, Opts.ExtraArgs);
  Settings.ExtraArgsBefore = Opts.ExtraArgsBefore;
  return Settings;
}

/// The commands force-include the arch-shims header, which a warp-tidy run
/// keeps in the temporary directory. An exported database outlives that
/// (clangd reads it after a reboot), so it gets its own copy, next to it:
/// its path, or "" (an error printed) if it cannot be written.
std::optional<std::string> writeShimsCopy(StringRef Dir) {
  SmallString<256> Shims(Dir);
  sys::fs::make_absolute(Shims);
  sys::path::append(Shims, "warp-tidy-arch-shims.h");
  sys::path::remove_dots(Shims, /*remove_dot_dot=*/true);
  if (archShimsPath().empty())
    return Shims.str().str();
  if (Error E = writeToOutput(Shims, [&](raw_ostream &OS) {
        OS << archShimsText();
        return Error::success();
      })) {
    error("cannot write '" + Shims + "': " + toString(std::move(E)));
    return std::nullopt;
  }
  return Shims.str().str();
}

json::Array commandEntries(const WarpCompilationDatabase &Database, ArrayRef<std::string> Files,
                           StringRef Shims) {
  std::string TempShims = archShimsPath();
  json::Array Entries;
  for (const std::string &F : Files)
    for (const CompileCommand &C : Database.getCompileCommands(F)) {
      json::Array Arguments;
      for (const std::string &A : C.CommandLine)
        Arguments.push_back(!TempShims.empty() && A == TempShims ? Shims.str() : A);
      Entries.push_back(json::Object{
          {"directory", C.Directory}, {"file", C.Filename}, {"arguments", std::move(Arguments)}});
    }
  return Entries;
}

} // namespace

std::optional<CompileCommands> loadCompileCommands(const DriverOptions &Opts) {
  std::string Why;
  std::optional<CudaInstallation> Cuda = findCudaInstallation(Opts.CudaPath, Why);
  if (!Cuda) {
    error(Why);
    return std::nullopt;
  }
  bool Failed = false;
  std::unique_ptr<CompilationDatabase> Project = loadDatabase(Opts.BuildPath, Failed);
  if (Failed)
    return std::nullopt;
  CompileCommands Commands;
  Commands.Project = Project.get();
  Commands.Database = std::make_unique<WarpCompilationDatabase>(
      std::move(Project), commandSettings(Opts, std::move(*Cuda)));
  return Commands;
}

bool isCudaUnit(const CompilationDatabase &DB, StringRef File) {
  if (isCudaSourceName(File))
    return true;
  for (const CompileCommand &C : DB.getCompileCommands(File)) {
    const std::vector<std::string> &A = C.CommandLine;
    for (size_t I = 0; I < A.size(); ++I) {
      StringRef Arg = A[I];
      StringRef Lang;
      if ((Arg == "-x" || Arg == "--x") && I + 1 < A.size())
        Lang = A[I + 1];
      else if (Arg.starts_with("-x") && !Arg.starts_with("-xc++"))
        Lang = Arg.drop_front(2).ltrim('=');
      else if (Arg.starts_with("--x="))
        Lang = Arg.drop_front(4);
      if (Lang == "cu" || Lang == "cuda")
        return true;
    }
  }
  return false;
}

// Editors run clangd on the project's compile_commands.json, which for CMake
// + nvcc is unusable by clang. The translated database fixes that for
// warp-clangd (and plain clangd) users.
int exportCompileCommands(const DriverOptions &Opts, const WarpCompilationDatabase &Database,
                          ArrayRef<std::string> Files) {
  StringRef Dir = Opts.ExportCompileCommands;
  if (std::error_code EC = sys::fs::create_directories(Dir)) {
    error("cannot create '" + Dir + "': " + EC.message());
    return ExitToolError;
  }
  std::optional<std::string> Shims = writeShimsCopy(Dir);
  if (!Shims)
    return ExitToolError;
  json::Array Entries = commandEntries(Database, Files, *Shims);
  SmallString<256> Path(Dir);
  sys::path::append(Path, "compile_commands.json");
  // Written through a temporary file and renamed: a reader never sees half.
  if (Error E = writeToOutput(Path, [&](raw_ostream &OS) {
        OS << formatv("{0:2}", json::Value(std::move(Entries))) << "\n";
        return Error::success();
      })) {
    error("cannot write '" + Path + "': " + toString(std::move(E)));
    return ExitToolError;
  }
  if (!Opts.Quiet)
    errs() << "warp-tidy: wrote " << Path << "\n";
  return ExitClean;
}

} // namespace warp_tidy::driver
