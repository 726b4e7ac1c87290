//===--- CudaInstallation.cpp - Locate the CUDA toolkit -------------------===//

#include "CudaInstallation.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"

namespace warp_tidy {

unsigned CudaInstallation::oldestSupportedArch() const {
  // From each toolkit's release notes: CUDA 13 dropped everything before
  // Turing, CUDA 12 before Maxwell, CUDA 11 before Kepler sm_35.
  if (Version >= 13000)
    return 75;
  if (Version >= 12000)
    return 50;
  if (Version >= 11000)
    return 35;
  return 30;
}

std::optional<unsigned> parseCudaVersion(llvm::StringRef Text) {
  size_t Pos = Text.find("#define CUDA_VERSION");
  if (Pos == llvm::StringRef::npos)
    return std::nullopt;
  llvm::StringRef Rest = Text.drop_front(Pos + strlen("#define CUDA_VERSION"));
  Rest = Rest.ltrim(" \t");
  unsigned Version = 0;
  if (Rest.consumeInteger(10, Version) || Version == 0)
    return std::nullopt;
  return Version;
}

// "13.0.88" (a missing build reads as 0).
static std::optional<NvccVersion> parseDottedVersion(llvm::StringRef Text) {
  NvccVersion V;
  llvm::StringRef Rest = Text.trim();
  if (Rest.consumeInteger(10, V.Major) || !Rest.consume_front(".") ||
      Rest.consumeInteger(10, V.Minor) || V.Major == 0)
    return std::nullopt;
  if (Rest.consume_front(".") && Rest.consumeInteger(10, V.Build))
    return std::nullopt;
  return V;
}

std::optional<NvccVersion> parseVersionJson(llvm::StringRef Text) {
  llvm::Expected<llvm::json::Value> Parsed = llvm::json::parse(Text);
  if (!Parsed) {
    llvm::consumeError(Parsed.takeError());
    return std::nullopt;
  }
  const llvm::json::Object *Top = Parsed->getAsObject();
  const llvm::json::Object *Nvcc = Top ? Top->getObject("cuda_nvcc") : nullptr;
  std::optional<llvm::StringRef> Version = Nvcc ? Nvcc->getString("version") : std::nullopt;
  return Version ? parseDottedVersion(*Version) : std::nullopt;
}

std::optional<NvccVersion> parseNvccVersionOutput(llvm::StringRef Text) {
  // "Cuda compilation tools, release 13.0, V13.0.88"
  size_t Pos = Text.find(", V");
  if (Pos == llvm::StringRef::npos)
    return std::nullopt;
  return parseDottedVersion(Text.drop_front(Pos + 3).split('\n').first);
}

// Where a toolkit records its nvcc version, cheapest first: the runfile's
// version.json, a pip wheel's metadata directory name
// (dist-info/nvidia_cuda_nvcc-13.0.88.dist-info), then nvcc itself.
static std::optional<NvccVersion> findNvccVersion(llvm::StringRef Root) {
  llvm::SmallString<256> Json(Root);
  llvm::sys::path::append(Json, "version.json");
  if (auto Buffer = llvm::MemoryBuffer::getFile(Json))
    if (std::optional<NvccVersion> V = parseVersionJson((*Buffer)->getBuffer()))
      return V;

  llvm::SmallString<256> DistInfo(Root);
  llvm::sys::path::append(DistInfo, "dist-info");
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(DistInfo, EC), End; It != End && !EC;
       It.increment(EC)) {
    llvm::StringRef Name = llvm::sys::path::filename(It->path());
    if (Name.consume_front("nvidia_cuda_nvcc-") && Name.consume_back(".dist-info"))
      if (std::optional<NvccVersion> V = parseDottedVersion(Name))
        return V;
  }

  llvm::SmallString<256> Nvcc(Root);
  llvm::sys::path::append(Nvcc, "bin", "nvcc");
  if (!llvm::sys::fs::can_execute(Nvcc))
    return std::nullopt;
  llvm::SmallString<128> Output;
  if (llvm::sys::fs::createTemporaryFile("warp-tidy-nvcc-version", "txt", Output))
    return std::nullopt;
  std::optional<llvm::StringRef> Redirects[] = {llvm::StringRef(""), Output.str(),
                                                llvm::StringRef("")};
  int Status = llvm::sys::ExecuteAndWait(Nvcc, {Nvcc.str(), "--version"}, std::nullopt, Redirects,
                                         /*SecondsToWait=*/10);
  std::optional<NvccVersion> Result;
  if (Status == 0)
    if (auto Buffer = llvm::MemoryBuffer::getFile(Output))
      Result = parseNvccVersionOutput((*Buffer)->getBuffer());
  llvm::sys::fs::remove(Output);
  return Result;
}

std::optional<CudaInstallation> probeCudaRoot(llvm::StringRef Root) {
  if (Root.empty())
    return std::nullopt;
  llvm::SmallString<256> Header(Root);
  llvm::sys::path::append(Header, "include", "cuda.h");
  auto Buffer = llvm::MemoryBuffer::getFile(Header);
  if (!Buffer)
    return std::nullopt;
  std::optional<unsigned> Version = parseCudaVersion((*Buffer)->getBuffer());
  if (!Version)
    return std::nullopt;

  CudaInstallation Cuda;
  llvm::SmallString<256> Real;
  Cuda.Root = llvm::sys::fs::real_path(Root, Real) ? Root.str() : Real.str().str();
  Cuda.Version = *Version;
  if (std::optional<NvccVersion> V = findNvccVersion(Cuda.Root))
    Cuda.Nvcc = *V;
  else
    Cuda.Nvcc = {*Version / 1000, *Version % 1000 / 10, 0};
  llvm::SmallString<256> Cccl(Cuda.Root);
  llvm::sys::path::append(Cccl, "include", "cccl");
  if (llvm::sys::fs::is_directory(Cccl))
    Cuda.CcclInclude = Cccl.str().str();
  return Cuda;
}

std::optional<CudaInstallation> findCudaInstallation(llvm::StringRef Explicit, std::string &Why) {
  if (!Explicit.empty()) {
    if (auto Cuda = probeCudaRoot(Explicit))
      return Cuda;
    Why = "--cuda-path=" + Explicit.str() + " does not contain include/cuda.h";
    return std::nullopt;
  }

  std::vector<std::string> Candidates;
  // A variable the user set is a choice as explicit as --cuda-path: one that
  // names no toolkit is an error, not silently replaced by another toolkit.
  for (const char *Var : {"CUDA_PATH", "CUDA_HOME", "CUDA_ROOT", "CUDAToolkit_ROOT"})
    if (std::optional<std::string> Value = llvm::sys::Process::GetEnv(Var))
      if (!Value->empty()) {
        if (auto Cuda = probeCudaRoot(*Value))
          return Cuda;
        Why = "$" + std::string(Var) + "=" + *Value +
              " does not contain include/cuda.h; point it at a CUDA toolkit, unset "
              "it, or pass --cuda-path=<dir>";
        return std::nullopt;
      }
  if (llvm::ErrorOr<std::string> Nvcc = llvm::sys::findProgramByName("nvcc")) {
    llvm::SmallString<256> Real;
    if (!llvm::sys::fs::real_path(*Nvcc, Real))
      Candidates.push_back(llvm::sys::path::parent_path(llvm::sys::path::parent_path(Real)).str());
  }
  Candidates.push_back("/usr/local/cuda");
  Candidates.push_back("/opt/cuda");
  Candidates.push_back("/usr/lib/cuda");

  for (const std::string &Root : Candidates)
    if (auto Cuda = probeCudaRoot(Root))
      return Cuda;

  Why = "no CUDA toolkit found (looked at --cuda-path, $CUDA_PATH, $CUDA_HOME, "
        "$CUDA_ROOT, the nvcc on PATH, /usr/local/cuda, /opt/cuda); install "
        "CUDA or pass --cuda-path=<dir>";
  return std::nullopt;
}

} // namespace warp_tidy
