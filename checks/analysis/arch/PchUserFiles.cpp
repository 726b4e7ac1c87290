//===--- PchUserFiles.cpp - The user files a loaded PCH holds -------------===//

#include "arch/PchUserFiles.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace warp_tidy {

llvm::StringMap<llvm::SmallVector<FileID, 1>> pchUserFiles(const SourceManager &SM) {
  llvm::StringMap<llvm::SmallVector<FileID, 1>> Files;
  for (unsigned I = 0, N = SM.loaded_sloc_entry_size(); I != N; ++I) {
    bool Invalid = false;
    const SrcMgr::SLocEntry &Entry = SM.getLoadedSLocEntry(I, &Invalid);
    if (Invalid || !Entry.isFile())
      continue;
    const SrcMgr::FileInfo &File = Entry.getFile();
    if (File.getFileCharacteristic() != SrcMgr::C_User)
      continue;
    OptionalFileEntryRef Origin = File.getContentCache().OrigEntry;
    if (!Origin)
      continue;
    // The entry's FileID: the one its first location (whose raw encoding
    // is its offset: a file location) belongs to.
    Files[Origin->getName()].push_back(
        SM.getFileID(SourceLocation::getFromRawEncoding(Entry.getOffset())));
  }
  return Files;
}

} // namespace warp_tidy
