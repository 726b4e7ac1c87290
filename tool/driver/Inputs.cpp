//===--- Inputs.cpp - The files a run analyses ----------------------------===//

#include "driver/Inputs.h"
#include "ChangedLines.h"
#include "InputFiles.h"
#include "driver/ExitStatus.h"
#include "driver/Messages.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdlib>
#include <limits>

using namespace llvm;

namespace warp_tidy::driver {
namespace {

/// 1.5 MiB, 12 KiB, 300 bytes: sizes in messages.
std::string humanSize(uint64_t Bytes) {
  if (Bytes >= (1ull << 20))
    return formatv("{0:F1} MiB", double(Bytes) / (1ull << 20)).str();
  if (Bytes >= 1024)
    return formatv("{0:F1} KiB", double(Bytes) / 1024).str();
  return std::to_string(Bytes) + " bytes";
}

/// The named files and directories; a file over --max-file-size is refused
/// (its error) rather than parsed for minutes.
ExpandedInputs namedFiles(const DriverOptions &Opts) {
  ExpandedInputs Expanded = expandInputs(Opts.Inputs);
  if (!Opts.MaxFileBytes)
    return Expanded;
  for (const std::string &File : Expanded.Files) {
    uint64_t Size = 0;
    if (!Expanded.Errors.count(File) && !sys::fs::file_size(File, Size) && Size > Opts.MaxFileBytes)
      Expanded.Errors[File] =
          formatv("'{0}' is {1}, larger than --max-file-size ({2}): not analysed; "
                  "pass --max-file-size=0 (no limit) or a larger size to analyse it "
                  "anyway",
                  File, humanSize(Size), humanSize(Opts.MaxFileBytes))
              .str();
  }
  return Expanded;
}

/// -p alone: every CUDA unit in the database, sorted; the others are
/// skipped with a note (name them explicitly to analyse them).
bool databaseCudaUnits(const DriverOptions &Opts, const CompileCommands &Commands,
                       SelectedFiles &Selected) {
  std::vector<std::string> All = Commands.Database->getAllFiles();
  llvm::sort(All);
  std::vector<std::string> Skipped;
  for (std::string &F : All) {
    if (isCudaUnit(*Commands.Project, F))
      Selected.Files.push_back(std::move(F));
    else
      Skipped.push_back(std::move(F));
  }
  if (!Skipped.empty()) {
    std::string List;
    for (size_t I = 0; I < Skipped.size() && I < 3; ++I)
      List += (I ? ", " : "") + Skipped[I];
    if (Skipped.size() > 3)
      List += ", ...";
    Selected.Notes.push_back("skipped " + std::to_string(Skipped.size()) +
                             " non-CUDA unit(s) of the compilation database (" + List +
                             "); name them explicitly to analyse them");
  }
  if (Selected.Files.empty()) {
    error("the compilation database in '" + Opts.BuildPath + "' has no CUDA sources");
    return false;
  }
  return true;
}

} // namespace

namespace {

/// A variable pre-commit sets for its hooks, or "".
std::string preCommitVariable(const char *Name) {
  const char *Value = getenv(Name);
  return Value ? Value : "";
}

/// The revision --diff compares with. Under `pre-commit run --from-ref A
/// --to-ref B` (CI checking a pushed range), the lines between those refs,
/// as pre-commit itself selects the files (A...B); else HEAD.
std::string diffRevision(const DriverOptions &Opts) {
  if (!Opts.DiffRevision.empty())
    return Opts.DiffRevision;
  std::string From = preCommitVariable("PRE_COMMIT_FROM_REF");
  std::string To = preCommitVariable("PRE_COMMIT_TO_REF");
  if (!From.empty() && !To.empty())
    return From + "..." + To;
  return "HEAD";
}

/// Under `pre-commit run --all-files` a file is handed over without any
/// change against HEAD: the run asks about the whole file, so the whole
/// file is judged (a committed bug must not pass silently in CI).
void judgeUnchangedFilesWhole(const DriverOptions &Opts, std::vector<ChangedFile> &Changed) {
  if (preCommitVariable("PRE_COMMIT").empty() || !Opts.DiffRevision.empty() ||
      !preCommitVariable("PRE_COMMIT_FROM_REF").empty())
    return;
  for (const std::string &Input : Opts.Inputs) {
    SmallString<256> Path(Input);
    sys::fs::make_absolute(Path);
    sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
    bool HasChange = llvm::any_of(
        Changed, [&](const ChangedFile &F) { return F.Path == Path && !F.Lines.empty(); });
    if (!HasChange)
      Changed.push_back({std::string(Path), {{1, std::numeric_limits<int>::max()}}});
  }
}

} // namespace

std::optional<int> applyDiff(DriverOptions &Opts) {
  if (!Opts.Diff || Opts.isWorker())
    return std::nullopt;
  if (Opts.Config.LineFilterGiven) {
    error("--diff and --line-filter cannot be combined (--diff builds the line filter)");
    return ExitToolError;
  }
  std::string Revision = diffRevision(Opts);
  std::vector<ChangedFile> Changed;
  std::string Why;
  if (!changedLines(Revision, Changed, Why)) {
    error(Why);
    return ExitToolError;
  }
  judgeUnchangedFilesWhole(Opts, Changed);
  Opts.Config.LineFilter = lineFilterJson(Changed);
  if (!Opts.Inputs.empty() || !Opts.BuildPath.empty())
    return std::nullopt;
  for (const ChangedFile &F : Changed)
    if (isCudaSourceName(F.Path) && !F.Lines.empty() && sys::fs::exists(F.Path))
      Opts.Inputs.push_back(F.Path);
  if (!Opts.Inputs.empty())
    return std::nullopt;
  if (!Opts.Quiet)
    note("no CUDA source has changed lines since " + Revision);
  return ExitClean;
}

std::optional<SelectedFiles> selectFiles(const DriverOptions &Opts,
                                         const CompileCommands &Commands) {
  ExpandedInputs Expanded = namedFiles(Opts);
  SelectedFiles Selected;
  Selected.Files = std::move(Expanded.Files);
  Selected.Errors = std::move(Expanded.Errors);
  if (Selected.Files.empty() && Commands.Project && !databaseCudaUnits(Opts, Commands, Selected))
    return std::nullopt;
  return Selected;
}

bool keepShard(const DriverOptions &Opts, std::vector<std::string> &Files) {
  if (Opts.ShardCount <= 1)
    return true;
  std::vector<std::string> Mine;
  for (size_t I = 0; I < Files.size(); ++I)
    if (I % Opts.ShardCount == Opts.ShardIndex - 1)
      Mine.push_back(Files[I]);
  Files = std::move(Mine);
  if (!Files.empty())
    return true;
  if (!Opts.Quiet)
    errs() << "warp-tidy: shard " << Opts.Shard << " has no files\n";
  return false;
}

} // namespace warp_tidy::driver
