//===--- CachedResults.cpp - The result cache of a run --------------------===//

#include "driver/CachedResults.h"
#include "BuildInfo.h"
#include "driver/Messages.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;
using namespace clang::tidy;

namespace warp_tidy::driver {
namespace {

std::string readFileOrEmpty(StringRef Path) {
  auto Buffer = MemoryBuffer::getFile(Path);
  return Buffer ? (*Buffer)->getBuffer().str() : std::string();
}

// Identifies this build of the tool for cache keys: a rebuilt binary (new
// checks, fixed bugs) must not reuse results of the old one, while the same
// binary rebuilt bit for bit (a CI runner restoring its cache) may.
std::string executableIdentity(const std::string &Executable) {
  if (std::optional<FileStamp> S = stampFile(Executable))
    return S->Hash;
  return Executable;
}

std::string cacheKey(const DriverOptions &Opts, ClangTidyContext &Context, StringRef Identity,
                     const FileState &S) {
  std::vector<std::string> Parts = {"warp-tidy-result/2",
                                    WARP_TIDY_VERSION,
                                    LLVM_VERSION_STRING,
                                    Identity.str(),
                                    configurationAsText(Context.getOptionsForFile(S.Path)),
                                    Opts.FixNotes ? "fix-notes" : "",
                                    Opts.Config.LineFilter,
                                    "arch-passes=" + std::to_string(Opts.MaxArchPasses),
                                    Opts.VfsOverlay.empty() ? "" : readFileOrEmpty(Opts.VfsOverlay),
                                    S.Path};
  for (const clang::tooling::CompileCommand &C : S.Commands) {
    Parts.push_back(C.Directory);
    Parts.push_back(C.Filename);
    for (const std::string &A : C.CommandLine)
      Parts.push_back(A);
    Parts.push_back("\x1e");
  }
  return hashParts(Parts);
}

} // namespace

CachedResults::CachedResults(const DriverOptions &Opts) {
  if (Opts.NoCache || Opts.CacheDirectory.empty())
    return;
  Cache.emplace(Opts.CacheDirectory, Opts.CacheBytes);
  std::string Why;
  if (!Cache->open(Why)) {
    warning(Why + "; running without the cache");
    Cache.reset();
  }
}

void CachedResults::lookUp(const DriverOptions &Opts, ClangTidyContext &Context,
                           std::vector<FileState> &States) {
  if (!Cache)
    return;
  std::string Identity = executableIdentity(Opts.Executable);
  for (FileState &S : States) {
    if (S.Failed)
      continue;
    S.Key = cacheKey(Opts, Context, Identity, S);
    if (auto Hit = Cache->lookup(S.Key)) {
      S.Errors = std::move(*Hit);
      S.Report.Status = "cached";
      S.StatsLine = "cached (no analysis pass)";
      S.Finished = true;
      ++Hits;
    } else {
      ++Misses;
    }
  }
}

void CachedResults::store(const FileState &S, const json::Object &Result) {
  if (!Cache || S.Key.empty() || Result.getBoolean("cacheable") != true)
    return;
  std::vector<FileStamp> Deps;
  if (const json::Value *D = Result.get("deps"))
    if (stampsFromJson(*D, Deps) && !Deps.empty())
      Cache->store(S.Key, Deps, *Result.get("diagnostics")->getAsArray());
}

void CachedResults::evict(const DriverOptions &Opts) {
  if (Cache)
    Cache->evict();
  else if (!Opts.NoPch && !Opts.CacheDirectory.empty())
    ResultCache(Opts.CacheDirectory, Opts.CacheBytes).evict();
}

} // namespace warp_tidy::driver
