//===--- WarpCompilationDatabase.cpp - Compile commands for the analysis --===//

#include "WarpCompilationDatabase.h"
#include "ArchShims.h"
#include "InputFiles.h"
#include "NvccTranslation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using clang::tooling::CompileCommand;

namespace warp_tidy {

WarpCompilationDatabase::WarpCompilationDatabase(
    std::unique_ptr<clang::tooling::CompilationDatabase> Inner, CommandSettings Settings)
    : Inner(std::move(Inner)), Settings(std::move(Settings)) {}

static bool isHeaderName(llvm::StringRef Path) {
  llvm::StringRef Ext = llvm::sys::path::extension(Path);
  return llvm::is_contained(
      {".h", ".hh", ".hpp", ".hxx", ".h++", ".inl", ".inc", ".ipp", ".tcc", ".cuh"}, Ext.lower());
}

// A header analysed on its own has no compile command saying its language.
// One that declares device code is only ever compiled as CUDA (a host
// compiler rejects `__global__`), so that is how it is parsed.
static bool declaresDeviceCode(llvm::StringRef Path, llvm::StringRef Directory) {
  auto Buffer = llvm::MemoryBuffer::getFile(pathInDirectory(Path, Directory));
  if (!Buffer)
    return false;
  llvm::StringRef Text = (*Buffer)->getBuffer();
  for (llvm::StringRef Keyword : {"__global__", "__device__"}) {
    for (size_t Pos = Text.find(Keyword); Pos != llvm::StringRef::npos;
         Pos = Text.find(Keyword, Pos + 1)) {
      // A whole word, not part of `__device__builtin` or `my__device__`.
      size_t End = Pos + Keyword.size();
      bool WordStart = Pos == 0 || (!llvm::isAlnum(Text[Pos - 1]) && Text[Pos - 1] != '_');
      bool WordEnd = End >= Text.size() || (!llvm::isAlnum(Text[End]) && Text[End] != '_');
      if (WordStart && WordEnd)
        return true;
    }
  }
  return false;
}

CompileCommand WarpCompilationDatabase::defaultCommand(llvm::StringRef FilePath) const {
  CompileCommand Command;
  Command.Filename = FilePath.str();
  llvm::SmallString<256> Dir;
  llvm::sys::fs::current_path(Dir);
  Command.Directory = Dir.str().str();
  // nvcc's default dialect for CUDA 12/13 is C++17.
  Command.CommandLine = {"nvcc", "-std=c++17", FilePath.str()};
  return Command;
}

// The user's extra arguments are spliced in before translation so nvcc
// style flags after `--` (e.g. -arch=sm_80) are understood as well.
// Commands clang tooling infers for files missing from a database end in
// `-- <file>`: extra flags must go before that separator, not after it,
// where they would be read as input files.
static std::vector<std::string> withExtraArgs(const std::vector<std::string> &Line,
                                              const CommandSettings &Settings) {
  auto Separator = std::find(Line.begin() + (Line.empty() ? 0 : 1), Line.end(), "--");
  std::vector<std::string> Args;
  if (!Line.empty())
    Args.push_back(Line.front());
  llvm::append_range(Args, Settings.ExtraArgsBefore);
  if (!Line.empty())
    Args.insert(Args.end(), Line.begin() + 1, Separator);
  llvm::append_range(Args, Settings.ExtraArgs);
  if (Separator != Line.end())
    Args.insert(Args.end(), std::next(Separator), Line.end());
  return Args;
}

/// The flags of a device-only analysis at \p Analysed, for a build that
/// targets \p Archs: the toolkit, clang's resource headers, the arch shims
/// and the target list for the checks.
static std::vector<std::string> deviceAnalysisFlags(const CommandSettings &Settings,
                                                    unsigned Analysed,
                                                    const std::vector<unsigned> &Archs) {
  std::vector<std::string> Out;
  Out.push_back("--cuda-device-only");
  Out.push_back("--cuda-path=" + Settings.Cuda.Root);
  Out.push_back("--cuda-gpu-arch=sm_" + std::to_string(Analysed));
  Out.push_back("-nocudalib");
  // clang 22's driver passes the CUDA SDK version to the host pass only; in
  // a device-only pass Sema then assumes the pre-9.2 launch API and rejects
  // every `kernel<<<...>>>` with "undeclared identifier cudaConfigureCall".
  Out.push_back("-Xclang");
  Out.push_back("-target-sdk-version=" + std::to_string(Settings.Cuda.Version / 1000) + "." +
                std::to_string(Settings.Cuda.Version % 1000 / 10));
  Out.push_back("-Wno-unknown-cuda-version");
  if (!Settings.ResourceDir.empty()) {
    Out.push_back("-resource-dir");
    Out.push_back(Settings.ResourceDir);
  }
  if (!Settings.Cuda.CcclInclude.empty()) {
    // nvcc adds CUDA 13's CCCL directory implicitly; clang does not.
    Out.push_back("-isystem");
    Out.push_back(Settings.Cuda.CcclInclude);
  }
  // Lets calls of sm_70/sm_80 intrinsics parse on older archs so that
  // warp-missing-arch-guard can report them (see ArchShims.h).
  std::string Shims = archShimsPath();
  if (!Shims.empty()) {
    Out.push_back("-include");
    Out.push_back(Shims);
  }
  std::string ArchList;
  for (unsigned A : Archs)
    ArchList += (ArchList.empty() ? "" : ",") + std::to_string(A);
  Out.push_back(std::string("-D") + TargetArchsMacro + "=" + ArchList);
  return Out;
}

CompileCommand WarpCompilationDatabase::adapt(const CompileCommand &Original) const {
  unsigned Oldest = Settings.Cuda.oldestSupportedArch();

  TranslatedCommand T = translateCompileCommand(withExtraArgs(Original.CommandLine, Settings),
                                                Original.Directory, Oldest);
  if (!T.Unknown.empty()) {
    std::lock_guard<std::mutex> Lock(Mutex);
    Dropped.insert(T.Unknown.begin(), T.Unknown.end());
  }

  CompileCommand Result = Original;
  bool HasLanguage = llvm::is_contained(T.Args, "-x");
  bool DeviceHeader = !HasLanguage && isHeaderName(Original.Filename) &&
                      (isCudaSourceName(Original.Filename) ||
                       declaresDeviceCode(Original.Filename, Original.Directory));
  bool Cuda = T.IsCuda || isCudaSourceName(Original.Filename) || DeviceHeader;
  if (!Cuda) {
    // Not a CUDA unit: nothing warp-tidy checks runs on it, but it is still
    // parsed as the project compiles it, so keep the translated flags.
    Result.CommandLine = T.Args;
    return Result;
  }

  std::vector<unsigned> Archs = T.Archs;
  if (Archs.empty())
    Archs.push_back(Oldest);
  // clang tooling analyses one device pass: the lowest architecture is the
  // one where missing features and guards matter.
  unsigned Analysed = Archs.front();

  std::vector<std::string> Out;
  Out.push_back(T.Args.front());
  llvm::append_range(Out, deviceAnalysisFlags(Settings, Analysed, Archs));
  // Before the command's own flags, so that a `-U__NVCC__` there wins.
  llvm::append_range(Out, nvccPredefinedMacros(T, Settings.Cuda.Nvcc));
  if (DeviceHeader) {
    Out.push_back("-x");
    Out.push_back("cuda");
  }
  for (size_t I = 1; I < T.Args.size(); ++I)
    Out.push_back(T.Args[I]);
  Result.CommandLine = std::move(Out);
  return Result;
}

std::vector<CompileCommand>
WarpCompilationDatabase::getCompileCommands(llvm::StringRef FilePath) const {
  std::vector<CompileCommand> Commands;
  if (Inner)
    Commands = Inner->getCompileCommands(FilePath);
  if (Commands.empty())
    Commands.push_back(defaultCommand(FilePath));
  // Duplicate entries (the same file built twice with identical flags) would
  // be analysed twice; keep the first of each distinct command.
  std::vector<CompileCommand> Result;
  std::set<std::vector<std::string>> Seen;
  for (const CompileCommand &C : Commands) {
    CompileCommand Adapted = adapt(C);
    if (Seen.insert(Adapted.CommandLine).second)
      Result.push_back(std::move(Adapted));
  }
  return Result;
}

std::vector<std::string> WarpCompilationDatabase::getAllFiles() const {
  return Inner ? Inner->getAllFiles() : std::vector<std::string>{};
}

std::vector<CompileCommand> WarpCompilationDatabase::getAllCompileCommands() const {
  std::vector<CompileCommand> Result;
  if (Inner)
    for (const CompileCommand &C : Inner->getAllCompileCommands())
      Result.push_back(adapt(C));
  return Result;
}

std::vector<std::string> WarpCompilationDatabase::droppedFlags() const {
  std::lock_guard<std::mutex> Lock(Mutex);
  return std::vector<std::string>(Dropped.begin(), Dropped.end());
}

} // namespace warp_tidy
