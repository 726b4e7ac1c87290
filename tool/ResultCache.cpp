//===--- ResultCache.cpp - Analysis results keyed on their inputs ---------===//

#include "ResultCache.h"
#include "DiagnosticsSerialization.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"
#include <chrono>
#include <fcntl.h>
#include <sys/stat.h>

using namespace llvm;

namespace warp_tidy {

static constexpr int CacheFormatVersion = 1;

static std::string toHex(XXH128_hash_t H) {
  uint8_t Bytes[16];
  for (int I = 0; I < 8; ++I) {
    Bytes[I] = static_cast<uint8_t>(H.high64 >> (56 - 8 * I));
    Bytes[8 + I] = static_cast<uint8_t>(H.low64 >> (56 - 8 * I));
  }
  return toHex(ArrayRef<uint8_t>(Bytes), /*LowerCase=*/true);
}

std::string hashParts(ArrayRef<std::string> Parts) {
  std::string Buffer;
  for (const std::string &P : Parts) {
    Buffer += std::to_string(P.size());
    Buffer += ':';
    Buffer += P;
  }
  return toHex(xxh3_128bits(arrayRefFromStringRef(Buffer)));
}

int64_t mtimeNs(sys::TimePoint<> Time) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Time.time_since_epoch()).count();
}

std::string dependencyPath(const llvm::Twine &Path, llvm::vfs::FileSystem &FS) {
  llvm::SmallString<256> Abs;
  Path.toVector(Abs);
  if (!llvm::sys::path::is_absolute(Abs))
    if (auto CWD = FS.getCurrentWorkingDirectory()) {
      llvm::SmallString<256> Joined(*CWD);
      llvm::sys::path::append(Joined, Abs);
      Abs = Joined;
    }
  llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/false);
  return Abs.str().str();
}

std::optional<FileStamp> stampFile(StringRef Path) {
  sys::fs::file_status Status;
  if (sys::fs::status(Path, Status) || !sys::fs::is_regular_file(Status))
    return std::nullopt;
  auto Buffer = MemoryBuffer::getFile(Path, /*IsText=*/false,
                                      /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return std::nullopt;
  FileStamp S;
  S.Path = Path.str();
  S.Size = Status.getSize();
  S.MTimeNs = mtimeNs(Status);
  S.Hash = toHex(xxh3_128bits(arrayRefFromStringRef((*Buffer)->getBuffer())));
  return S;
}

json::Array stampsToJson(ArrayRef<FileStamp> Stamps) {
  json::Array A;
  for (const FileStamp &S : Stamps)
    A.push_back(json::Object{{"path", S.Path},
                             {"size", static_cast<int64_t>(S.Size)},
                             {"mtime", S.MTimeNs},
                             {"hash", S.Hash}});
  return A;
}

bool stampsFromJson(const json::Value &V, std::vector<FileStamp> &Out) {
  const json::Array *A = V.getAsArray();
  if (!A)
    return false;
  for (const json::Value &E : *A) {
    const json::Object *O = E.getAsObject();
    if (!O)
      return false;
    auto Path = O->getString("path");
    auto Size = O->getInteger("size");
    auto MTime = O->getInteger("mtime");
    auto Hash = O->getString("hash");
    if (!Path || !Size || !MTime || !Hash)
      return false;
    Out.push_back(FileStamp{Path->str(), static_cast<uint64_t>(*Size), *MTime, Hash->str()});
  }
  return true;
}

std::optional<uint64_t> parseByteSize(StringRef Text) {
  Text = Text.trim();
  uint64_t Unit = 1024 * 1024;
  if (!Text.empty()) {
    char Last = toLower(Text.back());
    if (Last == 'k' || Last == 'm' || Last == 'g') {
      Unit = Last == 'k' ? 1024ull : Last == 'm' ? 1024ull * 1024 : 1024ull * 1024 * 1024;
      Text = Text.drop_back();
    }
  }
  uint64_t N;
  if (Text.empty() || Text.getAsInteger(10, N))
    return std::nullopt;
  return N * Unit;
}

std::string defaultCacheDir() {
  SmallString<256> Dir;
  if (auto Xdg = sys::Process::GetEnv("XDG_CACHE_HOME"); Xdg && !Xdg->empty()) {
    Dir = *Xdg;
  } else if (auto Home = sys::Process::GetEnv("HOME"); Home && !Home->empty()) {
    Dir = *Home;
    sys::path::append(Dir, ".cache");
  } else {
    return "";
  }
  sys::path::append(Dir, "warp-tidy");
  return Dir.str().str();
}

bool ResultCache::open(std::string &Why) {
  if (std::error_code EC = sys::fs::create_directories(Dir)) {
    Why = "cannot create cache directory '" + Dir + "': " + EC.message();
    return false;
  }
  return true;
}

std::string ResultCache::entryPath(StringRef Key) const {
  SmallString<256> P(Dir);
  sys::path::append(P, Key.take_front(2), Key.str() + ".json");
  return P.str().str();
}

bool ResultCache::depUnchanged(const FileStamp &Recorded) {
  auto It = Current.find(Recorded.Path);
  if (It == Current.end()) {
    // Cheap check first: the same size and modification time as recorded
    // means the content is the recorded one; no need to read it.
    sys::fs::file_status Status;
    if (!sys::fs::status(Recorded.Path, Status) && sys::fs::is_regular_file(Status) &&
        Status.getSize() == Recorded.Size && mtimeNs(Status) == Recorded.MTimeNs) {
      It = Current.try_emplace(Recorded.Path, Recorded).first;
    } else {
      It = Current.try_emplace(Recorded.Path, stampFile(Recorded.Path)).first;
    }
  }
  const std::optional<FileStamp> &Now = It->second;
  return Now && Now->Hash == Recorded.Hash;
}

// Not llvm::writeToOutput: its temporaries are named <file>.temp-stream-*;
// these are <file>.<random>.tmp, the names evict() removes when a writer
// was killed half-way (a cache directory outlives the runs that fill it).
bool writeAtomically(StringRef Path, StringRef Text) {
  SmallString<256> Temp;
  int FD;
  if (sys::fs::createUniqueFile(Path + ".%%%%%%%%.tmp", FD, Temp))
    return false;
  {
    raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Text;
    OS.close();
    if (OS.has_error()) {
      OS.clear_error();
      sys::fs::remove(Temp);
      return false;
    }
  }
  if (sys::fs::rename(Temp, Path)) {
    sys::fs::remove(Temp);
    return false;
  }
  return true;
}

std::optional<std::vector<clang::tidy::ClangTidyError>> ResultCache::lookup(StringRef Key) {
  std::string Path = entryPath(Key);
  auto Buffer = MemoryBuffer::getFile(Path);
  if (!Buffer)
    return std::nullopt;
  Expected<json::Value> Parsed = json::parse((*Buffer)->getBuffer());
  if (!Parsed) {
    consumeError(Parsed.takeError());
    return std::nullopt;
  }
  const json::Object *O = Parsed->getAsObject();
  if (!O || O->getInteger("format") != CacheFormatVersion || O->getString("key") != Key)
    return std::nullopt;
  std::vector<FileStamp> Deps;
  const json::Value *DepsValue = O->get("deps");
  if (!DepsValue || !stampsFromJson(*DepsValue, Deps) || Deps.empty())
    return std::nullopt;
  for (const FileStamp &D : Deps)
    if (!depUnchanged(D))
      return std::nullopt;
  std::vector<clang::tidy::ClangTidyError> Errors;
  const json::Value *Diags = O->get("diagnostics");
  if (!Diags || !diagnosticsFromJson(*Diags, Errors))
    return std::nullopt;
  // Least recently *used*: a hit refreshes the entry's time.
  ::utimensat(AT_FDCWD, Path.c_str(), nullptr, 0);
  return Errors;
}

void ResultCache::store(StringRef Key, ArrayRef<FileStamp> Deps, const json::Array &Diagnostics) {
  std::string Path = entryPath(Key);
  if (sys::fs::create_directories(sys::path::parent_path(Path))) {
    ++WriteFailures;
    return;
  }
  json::Object Entry{{"format", CacheFormatVersion},
                     {"key", Key},
                     {"deps", stampsToJson(Deps)},
                     {"diagnostics", json::Array(Diagnostics)}};
  std::string Text;
  raw_string_ostream(Text) << json::Value(std::move(Entry));
  // A unique temporary next to the entry, then a rename: concurrent runs
  // sharing the directory never read half an entry.
  if (!writeAtomically(Path, Text))
    ++WriteFailures;
}

// Not llvm::pruneCache: it prunes only the files named llvmcache-* at the
// top of the directory, by access time and at most once per interval, while
// the entries live in two-character subdirectories, the PCHs in pch/ with
// the files that go with them, and every run keeps the bound.
void ResultCache::evict() {
  struct Entry {
    std::string Path;
    uint64_t Size;
    int64_t MTime;
  };
  std::vector<Entry> Entries;
  uint64_t Total = 0;
  std::error_code EC;
  for (sys::fs::recursive_directory_iterator It(Dir, EC), End; It != End && !EC; It.increment(EC)) {
    sys::fs::file_status Status;
    if (sys::fs::status(It->path(), Status) || !sys::fs::is_regular_file(Status))
      continue;
    StringRef Name = sys::path::filename(It->path());
    // Result entries, the precompiled prologues (PrecompiledPrologue.h),
    // the markers of PCHs that could not be built, and temporaries left by
    // interrupted writers.
    if (!Name.ends_with(".json") && !Name.ends_with(".tmp") && !Name.ends_with(".pch") &&
        !Name.ends_with(".pch.failed"))
      continue;
    Entries.push_back({It->path(), Status.getSize(), mtimeNs(Status)});
    Total += Status.getSize();
  }
  if (Total <= MaxBytes)
    return;
  // Oldest first; go down to 80% of the bound so the next runs do not
  // evict again straight away.
  llvm::sort(Entries, [](const Entry &A, const Entry &B) { return A.MTime < B.MTime; });
  uint64_t Target = MaxBytes / 10 * 8;
  for (const Entry &E : Entries) {
    if (Total <= Target)
      break;
    if (!sys::fs::remove(E.Path)) {
      Total -= E.Size;
      // A PCH goes with its records and the unit it was built from.
      if (StringRef(E.Path).ends_with(".pch"))
        for (const char *Sidecar : {".deps", ".cu", ".failed", ".guards"})
          sys::fs::remove(E.Path + Sidecar);
    }
  }
}

} // namespace warp_tidy
