//===--- ResultCache.h - Analysis results keyed on their inputs -----------===//
//
// Re-running warp-tidy on an unchanged tree should cost little more than
// reading the compilation database. Each analysed file gets an entry:
//
//   key   = hash(tool identity, effective check configuration, the translated
//           compile command(s), the main file's path)
//   value = { every file the analysis read, with size, mtime and content
//             hash;  the diagnostics, fix-its included }
//
// An entry is valid while every file it read still has the recorded content
// (size+mtime equal means unchanged; otherwise the content is hashed and
// compared), so touching a file costs a re-hash, not a re-analysis, and a
// changed header invalidates exactly the units that included it.
//
// Entries are written through a temporary file and a rename; the directory
// is bounded in size, the least recently used entries going first. The
// shared precompiled prologues (PrecompiledPrologue.h) live in its pch/
// subdirectory and are evicted with the entries, by the same rule.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_TOOL_RESULTCACHE_H
#define WARP_TIDY_TOOL_RESULTCACHE_H

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Chrono.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <optional>
#include <string>
#include <vector>

namespace warp_tidy {

/// One file an analysis read, as it was when it was read.
struct FileStamp {
  std::string Path;
  uint64_t Size = 0;
  int64_t MTimeNs = 0;
  std::string Hash; ///< Content hash (hex); empty when unreadable.
};

/// A modification time as a FileStamp records it: nanoseconds since the epoch.
int64_t mtimeNs(llvm::sys::TimePoint<> Time);
inline int64_t mtimeNs(const llvm::sys::fs::basic_file_status &Status) {
  return mtimeNs(Status.getLastModificationTime());
}

/// Stamps \p Path now (size, mtime and content hash); nullopt if unreadable.
std::optional<FileStamp> stampFile(llvm::StringRef Path);

/// The absolute, "./"-free spelling of a path a file system opened (relative
/// paths resolve against its working directory), as dependencies are
/// recorded. "dir/../" stays: it is not lexical when dir is a symlink.
std::string dependencyPath(const llvm::Twine &Path, llvm::vfs::FileSystem &FS);

llvm::json::Array stampsToJson(llvm::ArrayRef<FileStamp> Stamps);
bool stampsFromJson(const llvm::json::Value &V, std::vector<FileStamp> &Out);

/// Hex digest of the concatenation of \p Parts (each length-prefixed).
std::string hashParts(llvm::ArrayRef<std::string> Parts);

/// Parses a size such as 512, 512M, 2G, 100K (no suffix: MiB); used by
/// --cache-size and --max-file-size.
std::optional<uint64_t> parseByteSize(llvm::StringRef Text);

/// The default cache directory: $XDG_CACHE_HOME/warp-tidy or
/// ~/.cache/warp-tidy (empty if neither can be determined).
std::string defaultCacheDir();

/// Writes \p Text to \p Path through a unique temporary next to it and a
/// rename, so that a concurrent reader sees the old file or the whole new
/// one, never half of it; false (and nothing left behind) on failure.
bool writeAtomically(llvm::StringRef Path, llvm::StringRef Text);

class ResultCache {
public:
  ResultCache(std::string Dir, uint64_t MaxBytes) : Dir(std::move(Dir)), MaxBytes(MaxBytes) {}

  /// Creates the directory; false (with \p Why) if it cannot be used.
  bool open(std::string &Why);

  /// The diagnostics stored under \p Key if every file the analysis read is
  /// unchanged.
  std::optional<std::vector<clang::tidy::ClangTidyError>> lookup(llvm::StringRef Key);

  /// Stores an entry atomically. Failures are silent (a cache must never
  /// fail a run); they are counted in writeFailures().
  void store(llvm::StringRef Key, llvm::ArrayRef<FileStamp> Deps,
             const llvm::json::Array &Diagnostics);

  /// Deletes the least recently used entries until the directory is within
  /// its size bound.
  void evict();

  unsigned writeFailures() const { return WriteFailures; }
  const std::string &directory() const { return Dir; }

private:
  std::string entryPath(llvm::StringRef Key) const;
  bool depUnchanged(const FileStamp &Recorded);

  std::string Dir;
  uint64_t MaxBytes;
  unsigned WriteFailures = 0;
  /// Per-run memo: path -> its current stamp (nullopt: unreadable).
  llvm::StringMap<std::optional<FileStamp>> Current;
};

} // namespace warp_tidy

#endif
