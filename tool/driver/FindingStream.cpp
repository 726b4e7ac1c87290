//===--- FindingStream.cpp - Findings printed as files finish -------------===//

#include "driver/FindingStream.h"
#include "Baseline.h"
#include "DiagnosticKinds.h"
#include "clang-tidy/ClangTidy.h"
#include "driver/Messages.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace clang::tidy;

namespace warp_tidy::driver {
namespace {

// The same header diagnostic reached through several translation units is
// one finding; the first occurrence (in file order) is kept.
std::string dedupeKey(const ClangTidyError &E) {
  return E.DiagnosticName + "\x1f" + absolutePath(E.Message.FilePath, E.BuildDirectory) + "\x1f" +
         std::to_string(E.Message.FileOffset) + "\x1f" + E.Message.Message;
}

// Adds to \p Kept the notes of its duplicate \p Dup that it lacks: the
// same finding reached along another path (a helper's report with a note at
// each caller) keeps every path.
void mergeNotes(ClangTidyError &Kept, const ClangTidyError &Dup) {
  for (const clang::tooling::DiagnosticMessage &Note : Dup.Notes) {
    bool Known = llvm::any_of(Kept.Notes, [&](const clang::tooling::DiagnosticMessage &N) {
      return N.FileOffset == Note.FileOffset && N.FilePath == Note.FilePath &&
             N.Message == Note.Message;
    });
    if (!Known)
      Kept.Notes.push_back(Note);
  }
}

// Fingerprints are relative to the source root, as in the SARIF/JSON
// reports: --source-root, or the current directory.
std::string sourceRootPath(StringRef SourceRoot) {
  SmallString<256> RootDir(SourceRoot);
  if (RootDir.empty())
    sys::fs::current_path(RootDir);
  return absolutePath(RootDir, "");
}

// Fingerprints name files relative to --source-root when given, else to
// the top of the git work tree around the current directory (a baseline
// recorded at the repository's root matches a run from a subdirectory, and
// the other way round), else to the current directory.
std::string fingerprintRootPath(StringRef SourceRoot) {
  if (!SourceRoot.empty())
    return sourceRootPath(SourceRoot);
  SmallString<256> Dir;
  sys::fs::current_path(Dir);
  for (StringRef D = Dir; !D.empty(); D = sys::path::parent_path(D)) {
    SmallString<256> Git(D);
    sys::path::append(Git, ".git");
    if (sys::fs::exists(Git))
      return absolutePath(D, "");
  }
  return sourceRootPath(SourceRoot);
}

} // namespace

FindingStream::FindingStream(const DriverOptions &Opts, ClangTidyContext &Context, Progress &Bar,
                             bool SingleFile)
    : Opts(Opts), Context(Context), Bar(Bar), SingleFile(SingleFile),
      UseBaseline(!Opts.BaselineFile.empty() && !Opts.UpdateBaseline),
      SourceRoot(sourceRootPath(Opts.SourceRoot)),
      FingerprintRoot(fingerprintRootPath(Opts.SourceRoot)),
      DiagnosticFS(makeIntrusiveRefCnt<vfs::OverlayFileSystem>(vfs::getRealFileSystem())),
      Fingerprint(FingerprintRoot) {}

bool FindingStream::loadBaseline() {
  if (!UseBaseline)
    return true;
  std::string Why;
  if (!warp_tidy::loadBaseline(Opts.BaselineFile, Baseline, Why)) {
    error(Why);
    return false;
  }
  return true;
}

void FindingStream::printFinished(std::vector<FileState> &States) {
  while (NextToPrint < States.size() && States[NextToPrint].Finished)
    print(States[NextToPrint++]);
}

void FindingStream::print(FileState &S) {
  Bar.clearLine();
  if (!S.WorkerStderr.empty())
    errs() << S.WorkerStderr;
  if (Opts.PassStats && !S.StatsLine.empty())
    errs() << "warp-tidy: stats: " << S.Path << ": " << S.StatsLine << "\n";
  for (const std::string &M : S.Report.Messages)
    error(M);
  std::vector<ClangTidyError> Fresh = newFindings(S);
  if (Opts.Format == OutputFormat::Text && !Opts.UpdateBaseline && !Fresh.empty()) {
    Context.setCurrentFile(S.Path);
    handleErrors(Fresh, Context, FB_NoFix, WarningsAsErrorsCount, DiagnosticFS);
    outs().flush();
  }
  reportCompileFailure(S);
  std::move(Fresh.begin(), Fresh.end(), std::back_inserter(Errors));
}

/// \p S's diagnostics not printed before (for another file) and not in the
/// baseline; \p S keeps none. A duplicate gives its new notes to the
/// finding it repeats.
std::vector<ClangTidyError> FindingStream::newFindings(FileState &S) {
  std::vector<ClangTidyError> Fresh;
  StringMap<size_t> InFile;
  for (ClangTidyError &E : S.Errors) {
    std::string Key = dedupeKey(E);
    if (auto It = InFile.find(Key); It != InFile.end()) {
      mergeNotes(Fresh[It->second], E);
    } else if (auto Earlier = Seen.find(Key); Earlier != Seen.end()) {
      if (Earlier->second != NotKept)
        mergeNotes(Errors[Earlier->second], E);
    } else {
      InFile[Key] = Fresh.size();
      Fresh.push_back(std::move(E));
    }
  }
  S.Errors.clear();
  std::vector<ClangTidyError> Kept;
  for (ClangTidyError &E : Fresh) {
    bool Known = UseBaseline && isWarpFinding(E) && Baseline.contains(Fingerprint(E));
    Baselined += Known;
    Seen[dedupeKey(E)] = Known ? NotKept : Errors.size() + Kept.size();
    if (!Known)
      Kept.push_back(std::move(E));
  }
  return Kept;
}

/// A unit that does not compile failed, also through a header whose errors
/// an earlier unit printed: the report says so and, of several files, an
/// error line after its diagnostics (one file has the closing message).
void FindingStream::reportCompileFailure(FileState &S) {
  if (S.CompileFailure.empty())
    return;
  S.Report.Messages.push_back(S.CompileFailure);
  if (!SingleFile)
    error(S.CompileFailure);
}

} // namespace warp_tidy::driver
