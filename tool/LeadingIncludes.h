//===--- LeadingIncludes.h - The #include lines a CUDA unit starts with ---===//
//
// Most units of a project start with the same few includes of its own
// headers (ggml-cuda: `#include "common.cuh"`), and those headers are most of
// the unit's parse. The shared precompiled prologue (PrecompiledPrologue.h)
// can hold them too, for every unit that starts with the same lines. This
// finds those lines: the main file's first directives, after comments and
// blank lines, that are `#include "..."`, `#include <...>`, `#define` or
// `#undef` (a unit configuring the headers it includes next:
// `#define GGML_COMMON_DECL_CUDA`), `using namespace NAME;` (which goes with
// the include before it: ggml's `using namespace cub;`), or conditionals
// holding only such lines (`#ifdef GGML_CUDA_USE_CUB` / `#include
// <cub/cub.cuh>` / `#endif`), up to the first line that is anything else
// (other code, a `#pragma`, `#include_next`, `#import`, an `#include` of a
// macro, a line continued with a backslash) and back to where every
// conditional is closed. The block is a prefix of
// the unit's text, so a PCH of it leaves the preprocessor exactly where the
// unit's own parse of those lines would. A conditional whose branch depends
// on the arch cannot be in a PCH: the arch-pass planner (SkippedWarpCode.h)
// finds the text an arch skips in the unit's own file, and a branch inside
// the PCH's copy of the block (a file of its own per arch) would be a piece
// no later pass could cover. That is known only once the block is
// preprocessed, so the PCH build checks it (PrecompiledPrologue.cpp) and the
// unit then falls back to the lines before the first conditional
// (BeforeConditional). Done on the text alone, before any parse; each line
// comes back in one spelling (an include line normalised, any other
// directive as written, blanks trimmed), so that whitespace and comments do
// not make two units' blocks differ, with the offset where the line ends.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_TOOL_LEADINGINCLUDES_H
#define WARP_TIDY_TOOL_LEADINGINCLUDES_H

#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace warp_tidy {

struct LeadingIncludeBlock {
  /// Each line: an include spelled `#include "name"` or `#include <name>`,
  /// `using namespace NAME;`, or any other directive as written; empty when
  /// the file starts otherwise.
  std::vector<std::string> Lines;
  /// The offset just past each of them (its line's end): the unit's own
  /// parse starts there when a PCH holds the lines up to that one.
  std::vector<size_t> Ends;
  /// Whether every conditional is closed after each of them: a PCH may
  /// hold the lines up to one that is.
  std::vector<bool> Balanced;
  /// How many lines come before the first conditional (all, if none).
  size_t BeforeConditional = SIZE_MAX;
};

/// The leading block of \p Source: its `#include`, `#define`, `#undef` and
/// `using namespace` lines and whole conditionals of them.
LeadingIncludeBlock leadingIncludes(llvm::StringRef Source);

/// The most lines of \p Block, at most \p AtMost, after which every
/// conditional is closed: how much of it a PCH may hold.
size_t balancedLineCount(const LeadingIncludeBlock &Block, size_t AtMost);

/// The first \p Count lines joined as the text of a file (one per line).
std::string leadingIncludesText(const std::vector<std::string> &Lines, size_t Count);

/// For each of \p Blocks, how many of its leading lines another block of
/// the same directory \p Directories starts with too: what a shared PCH of
/// a run over these units may hold (0: none shared).
std::vector<size_t> sharedLeadingLines(const std::vector<std::vector<std::string>> &Blocks,
                                       const std::vector<std::string> &Directories);

/// How many leading lines each unit of a run over several puts into its
/// PCH. A PCH that no other unit of the run loads costs more than the parse
/// it saves in this run, so a unit first gets the lines it shares with
/// another (sharedLeadingLines). But a unit an earlier run analysed
/// (\p SeenBefore: it has a recorded time, UnitTimes.h) is likely to be
/// analysed again, and then a PCH of its whole block saves the parse of its
/// own headers every time (ggml-cuda: `norm.cu` starts with "norm.cuh",
/// which pulls in common.cuh; no other unit starts with it). Such a PCH is
/// tens of MiB, and the cache directory is bounded, so at most
/// \p FullBlocks distinct whole blocks are granted, to the units in the
/// order of their \p Paths: the same units every run over the same files
/// (whatever order they are given or started in), so that a run neither
/// builds a PCH the last run did not nor leaves one it built unused.
std::vector<size_t> pchLinesForRun(const std::vector<std::vector<std::string>> &Blocks,
                                   const std::vector<std::string> &Directories,
                                   const std::vector<bool> &SeenBefore,
                                   const std::vector<std::string> &Paths, size_t FullBlocks);

} // namespace warp_tidy

#endif
