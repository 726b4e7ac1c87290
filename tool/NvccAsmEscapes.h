//===--- NvccAsmEscapes.h - Inline asm strings read the way nvcc reads them ===//
//
// In an extended asm statement (one with operands) GCC and clang read `%` as
// the start of an operand reference: a PTX special register has to be
// written `%%laneid`. nvcc passes any `%` that is not followed by an operand
// number through to ptxas unchanged, so CUDA code written for nvcc often
// says `asm("mov.u32 %0, %laneid;" : "=r"(id))` (cuML, raft, nvdiffrast,
// DeepEP, gunrock, FasterTransformer). clang rejects that with "invalid %
// escape in inline assembly string", and without this the whole unit would
// go unanalysed, which reads to the user as "clean".
//
// When a unit has that error, it is analysed again with the offending `%`
// doubled in an in-memory copy of the file, which is
// exactly the text clang accepts for what nvcc compiles; the findings'
// offsets are mapped back to the files on disk. Nothing on disk changes.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_TOOL_NVCCASMESCAPES_H
#define WARP_TIDY_TOOL_NVCCASMESCAPES_H

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <vector>

namespace warp_tidy {

/// The `%` characters doubled so far, per file, as offsets into the file on
/// disk (each names the `%` before which another one is inserted).
class AsmEscapeEdits {
public:
  /// True when \p E is clang's error for a `%` nvcc would pass through.
  static bool isNvccAsmEscapeError(const clang::tidy::ClangTidyError &E);

  /// Adds the edit for each such error of \p Errors (reported against the
  /// text as edited so far), reading the files through \p FS. False when
  /// there is none, or one names no `%` that is not already doubled:
  /// another round would not help. Other compile errors are left alone (the
  /// next round reports them without the asm ones in front).
  bool addEditsFor(const std::vector<clang::tidy::ClangTidyError> &Errors,
                   llvm::vfs::FileSystem &FS);

  /// \p Base with the edited files on top.
  llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem>
  overlay(llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> Base) const;

  /// Moves every offset of \p Errors (messages, notes, replacements) from
  /// the edited text back to the file on disk.
  void mapBack(std::vector<clang::tidy::ClangTidyError> &Errors) const;

  /// Offset \p Edited of the edited \p File as an offset into the original.
  unsigned originalOffset(llvm::StringRef File, unsigned Edited) const;

  bool empty() const { return Inserted.empty(); }

private:
  llvm::StringMap<std::vector<unsigned>> Inserted; ///< sorted, per file
  llvm::StringMap<std::string> Originals;          ///< each edited file's text on disk
};

} // namespace warp_tidy

#endif // WARP_TIDY_TOOL_NVCCASMESCAPES_H
