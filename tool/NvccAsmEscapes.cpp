//===--- NvccAsmEscapes.cpp - Inline asm strings read the way nvcc reads them =//

#include "NvccAsmEscapes.h"
#include "clang/Tooling/Core/Replacement.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/MemoryBuffer.h"
#include <algorithm>

using namespace clang;
using namespace clang::tidy;
using namespace llvm;

namespace warp_tidy {

// clang's wording of err_asm_invalid_escape (clang 22.1, the only clang this
// tool builds against): what sema says for `%laneid` in an extended asm.
static constexpr StringLiteral InvalidEscape = "invalid % escape in inline assembly string";

bool AsmEscapeEdits::isNvccAsmEscapeError(const ClangTidyError &E) {
  return E.DiagLevel == ClangTidyError::Error &&
         StringRef(E.DiagnosticName).starts_with("clang-diagnostic-") &&
         E.Message.Message == InvalidEscape;
}

/// Where offset \p Edited of a text with a `%` inserted before each of the
/// sorted original offsets \p Inserts lies in the original text.
static unsigned originalOffsetIn(ArrayRef<unsigned> Inserts, unsigned Edited) {
  // The inserted `%` before original offset I sits at I + (inserts before
  // it) in the edited text; everything else moves by the inserts before it.
  unsigned Before = 0;
  for (unsigned I : Inserts) {
    if (I + Before < Edited)
      ++Before;
    else if (I + Before == Edited)
      return I; // the inserted `%` itself: the one it doubles
    else
      break;
  }
  return Edited - Before;
}

unsigned AsmEscapeEdits::originalOffset(StringRef File, unsigned Edited) const {
  auto It = Inserted.find(File);
  return It == Inserted.end() ? Edited : originalOffsetIn(It->second, Edited);
}

bool AsmEscapeEdits::addEditsFor(const std::vector<ClangTidyError> &Errors, vfs::FileSystem &FS) {
  bool Any = false;
  // The same error comes once per arch pass that saw it; only a `%` doubled
  // in an earlier round and still rejected ends the rounds.
  llvm::StringMap<std::vector<unsigned>> Before = Inserted;
  for (const ClangTidyError &E : Errors) {
    // Other compile errors stay what they are; the edits only take the
    // asm ones out of their way, so that what is left is the real problem.
    if (!isNvccAsmEscapeError(E))
      continue;
    if (E.Message.FilePath.empty())
      return false;
    const std::string &File = E.Message.FilePath;
    if (!Originals.count(File)) {
      // Read through the analysis' own file system, so that the result
      // cache records the file as read.
      ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer = FS.getBufferForFile(File);
      if (!Buffer)
        return false;
      Originals[File] = (*Buffer)->getBuffer().str();
    }
    const std::string &Text = Originals[File];
    // The errors are offsets into the text of the last round, before the
    // edits this call adds.
    auto Prior = Before.find(File);
    unsigned At = Prior == Before.end() ? E.Message.FileOffset
                                        : originalOffsetIn(Prior->second, E.Message.FileOffset);
    // clang points at the character after the `%` (or after a modifier
    // letter it took `%l` for): the `%` is at most two characters back.
    std::optional<unsigned> Percent;
    for (unsigned Back = 0; Back <= 2 && Back <= At; ++Back)
      if (At - Back < Text.size() && Text[At - Back] == '%') {
        Percent = At - Back;
        break;
      }
    if (!Percent || (*Percent > 0 && Text[*Percent - 1] == '%'))
      return false;
    if (Prior != Before.end() && llvm::is_contained(Prior->second, *Percent))
      return false; // doubled already, still rejected: not this case
    std::vector<unsigned> &Offsets = Inserted[File];
    if (llvm::is_contained(Offsets, *Percent))
      continue; // the same error from another arch pass
    Offsets.insert(llvm::upper_bound(Offsets, *Percent), *Percent);
    Any = true;
  }
  return Any;
}

IntrusiveRefCntPtr<vfs::OverlayFileSystem>
AsmEscapeEdits::overlay(IntrusiveRefCntPtr<vfs::OverlayFileSystem> Base) const {
  auto Edited = makeIntrusiveRefCnt<vfs::InMemoryFileSystem>();
  for (const auto &Entry : Inserted) {
    const std::string &Text = Originals.find(Entry.getKey())->second;
    std::string Out;
    Out.reserve(Text.size() + Entry.second.size());
    size_t From = 0;
    for (unsigned I : Entry.second) {
      Out.append(Text, From, I - From);
      Out.push_back('%');
      From = I;
    }
    Out.append(Text, From, std::string::npos);
    // A header found through a relative include path (`-Isrc`) is named
    // relative to the working directory; the in-memory copy must sit where
    // a lookup of that name lands.
    SmallString<256> Path(Entry.getKey());
    if (Base->makeAbsolute(Path))
      Path = Entry.getKey();
    Edited->addFile(Path, 0, MemoryBuffer::getMemBufferCopy(Out, Entry.getKey()));
  }
  if (ErrorOr<std::string> Dir = Base->getCurrentWorkingDirectory())
    Edited->setCurrentWorkingDirectory(*Dir);
  auto FS = makeIntrusiveRefCnt<vfs::OverlayFileSystem>(Base);
  FS->pushOverlay(Edited);
  return FS;
}

void AsmEscapeEdits::mapBack(std::vector<ClangTidyError> &Errors) const {
  auto MapMessage = [&](tooling::DiagnosticMessage &M) {
    M.FileOffset = originalOffset(M.FilePath, M.FileOffset);
    for (tooling::FileByteRange &R : M.Ranges) {
      unsigned End = originalOffset(R.FilePath, R.FileOffset + R.Length);
      R.FileOffset = originalOffset(R.FilePath, R.FileOffset);
      R.Length = End >= R.FileOffset ? End - R.FileOffset : 0;
    }
    for (auto &Entry : M.Fix) {
      tooling::Replacements Mapped;
      for (const tooling::Replacement &R : Entry.second) {
        unsigned Begin = originalOffset(R.getFilePath(), R.getOffset());
        unsigned End = originalOffset(R.getFilePath(), R.getOffset() + R.getLength());
        // Replacements of one diagnostic never overlap; mapping keeps that.
        consumeError(Mapped.add(tooling::Replacement(
            R.getFilePath(), Begin, End >= Begin ? End - Begin : 0, R.getReplacementText())));
      }
      Entry.second = std::move(Mapped);
    }
  };
  for (ClangTidyError &E : Errors) {
    MapMessage(E.Message);
    for (tooling::DiagnosticMessage &N : E.Notes)
      MapMessage(N);
  }
}

} // namespace warp_tidy
