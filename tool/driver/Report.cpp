//===--- Report.cpp - The end of a run: fixes, reports, exit status -------===//

#include "driver/Report.h"
#include "Baseline.h"
#include "BuildInfo.h"
#include "DiagnosticKinds.h"
#include "DocsLocation.h"
#include "clang-tidy/ClangTidy.h"
#include "driver/ExitStatus.h"
#include "driver/Messages.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"
#include <functional>
#include <map>

using namespace llvm;
using namespace clang::tidy;

namespace warp_tidy::driver {
namespace {

/// What the run came to, for the messages and the exit status.
struct Tally {
  size_t CompileErrors = 0;
  size_t Findings = 0;
  size_t Interrupted = 0; ///< Files the interrupt left unanalysed.
  bool ToolErrors = false;
  bool FixesBlocked = false;
};

void warnDroppedFlags(const WarpCompilationDatabase &Database) {
  std::vector<std::string> Dropped = Database.droppedFlags();
  if (Dropped.empty())
    return;
  std::string List;
  for (const std::string &D : Dropped)
    List += (List.empty() ? "" : " ") + D;
  warning("ignored compiler flags clang does not understand: " + List);
}

// One fix-application path for every format: clang-tidy's selection of
// fix-its, clang-format's cleanup (and formatting with --format-style)
// around them, each file replaced atomically. A failure is a tool error.
void applyFixIts(const DriverOptions &Opts, ClangTidyContext &Context,
                 ArrayRef<ClangTidyError> Errors, Tally &T) {
  FixBehaviour Behaviour = Opts.FixNotes                  ? FB_FixNotes
                           : (Opts.Fix || Opts.FixErrors) ? FB_Fix
                                                          : FB_NoFix;
  T.FixesBlocked = T.CompileErrors && !Opts.FixErrors && Behaviour != FB_NoFix;
  if (T.FixesBlocked || Behaviour == FB_NoFix)
    return;
  unsigned Total = 0;
  bool FixFailed = false;
  unsigned Applied = applyFixes(
      Errors, Behaviour == FB_FixNotes,
      [&](StringRef File) { return Context.getOptionsForFile(File).FormatStyle.value_or("none"); },
      Total, FixFailed);
  if (FixFailed)
    T.ToolErrors = true;
  if (!Opts.Quiet && Total)
    errs() << "warp-tidy: applied " << Applied << " of " << Total << " suggested fix(es)\n";
}

Report makeReport(const DriverOptions &Opts, ClangTidyContext &Context,
                  ArrayRef<ClangTidyError> Errors, ArrayRef<FileReport> Files,
                  const FindingStream &Stream, const CachedResults &Cache, double Seconds,
                  const Tally &T) {
  Report R;
  R.Errors = Errors;
  R.Files = Files;
  R.EnabledChecks = getCheckNames(Context.getOptionsForFile(Files.front().Path), false, false);
  R.ToolVersion = WARP_TIDY_VERSION;
  R.SourceRoot = Stream.sourceRoot();
  R.FingerprintRoot = Stream.fingerprintRoot();
  R.HelpBase = Opts.SarifHelpBase.empty() ? checkDocsBaseFor(Opts.Executable) : Opts.SarifHelpBase;
  if (!R.HelpBase.empty() && !StringRef(R.HelpBase).ends_with("/"))
    R.HelpBase += "/";
  R.Seconds = Seconds;
  R.CacheHits = Cache.hits();
  R.CacheMisses = Cache.misses();
  R.ToolErrors = T.ToolErrors || T.CompileErrors;
  return R;
}

std::function<Error(raw_ostream &)> reportWriter(const Report &R, bool Sarif) {
  return [&R, Sarif](raw_ostream &OS) {
    if (Sarif)
      writeSarifReport(R, OS);
    else
      writeJsonReport(R, OS);
    return Error::success();
  };
}

/// --update-baseline: every current finding recorded; the exit status.
int updateBaseline(const DriverOptions &Opts, const Report &R, const Tally &T) {
  // Written whole or not at all (a temporary file and a rename).
  if (Error E =
          writeToOutput(Opts.BaselineFile, reportWriter(R, baselineIsSarif(Opts.BaselineFile)))) {
    error("cannot write --baseline '" + Opts.BaselineFile + "': " + toString(std::move(E)));
    return ExitToolError;
  }
  if (!Opts.Quiet)
    errs() << "warp-tidy: recorded " << T.Findings << " finding(s) in the baseline '"
           << Opts.BaselineFile << "'\n";
  return T.CompileErrors || T.ToolErrors ? ExitToolError : ExitClean;
}

/// The json/sarif report and --export-fixes; false (an error printed) if
/// one cannot be written.
bool writeOutputs(const DriverOptions &Opts, const Report &R, ArrayRef<ClangTidyError> Errors,
                  StringRef FirstFile) {
  if (Opts.Format != OutputFormat::Text) {
    bool Sarif = Opts.Format == OutputFormat::Sarif;
    if (Opts.OutputFile.empty()) {
      cantFail(reportWriter(R, Sarif)(outs()));
      outs().flush();
    } else if (Error E = writeToOutput(Opts.OutputFile, reportWriter(R, Sarif))) {
      error("cannot write '" + Opts.OutputFile + "': " + toString(std::move(E)));
      return false;
    }
  }
  if (Opts.ExportFixes.empty())
    return true;
  if (Error E = writeToOutput(Opts.ExportFixes, [&](raw_ostream &OS) {
        exportReplacements(FirstFile, Errors, OS);
        return Error::success();
      })) {
    error("cannot write --export-fixes file '" + Opts.ExportFixes + "': " + toString(std::move(E)));
    return false;
  }
  return true;
}

void printClosingMessages(const DriverOptions &Opts, const Tally &T, size_t Baselined,
                          size_t FileCount) {
  bool TextOutput = Opts.Format == OutputFormat::Text;
  if (T.FixesBlocked)
    warning("fix-its were NOT applied because of the compile errors " +
            Twine(TextOutput ? "above" : "in the report") +
            " (use --fix-errors to apply them anyway)");
  if (T.CompileErrors)
    error(Twine(T.CompileErrors) + " compile error(s): the code " +
          (TextOutput ? "above" : "named in the report") +
          " does not compile with clang for CUDA, so it was not fully analysed "
          "(check the include paths and flags; -p <build-dir> uses the project's own)");
  if (Baselined && !Opts.Quiet)
    note(Twine(Baselined) + " finding(s) recorded in the baseline '" + Opts.BaselineFile +
         "' not reported");
  if (T.Interrupted)
    error(Twine("interrupted: ") + Twine(T.Interrupted) + " of " + Twine(FileCount) +
          " file(s) not analysed; the output holds the files that were finished");
}

// One file: clang-tidy's output, no summary. Several: a summary line.
void printSummary(ArrayRef<ClangTidyError> Errors, ArrayRef<FileState> States,
                  const CachedResults &Cache, double Seconds, const Tally &T) {
  std::map<std::string, unsigned> ByCheck;
  for (const ClangTidyError &E : Errors)
    if (isWarpFinding(E))
      ++ByCheck[E.DiagnosticName];
  std::string PerCheck;
  for (const auto &[Name, Count] : ByCheck)
    PerCheck += (PerCheck.empty() ? "" : ", ") + Name + ": " + std::to_string(Count);
  size_t FailedFiles = llvm::count_if(
      States, [](const FileState &S) { return S.Failed || S.Report.Status == "failed"; });
  errs() << T.Findings << " warp diagnostic(s) in " << States.size() << " file(s)";
  if (!PerCheck.empty())
    errs() << " (" << PerCheck << ")";
  errs() << formatv("; {0:f1}s", Seconds);
  if (Cache.enabled())
    errs() << "; cache: " << Cache.hits() << " hit(s), " << Cache.misses() << " miss(es)";
  else
    errs() << "; cache: off";
  if (FailedFiles)
    errs() << "; " << FailedFiles << " file(s) failed";
  errs() << "\n";
}

} // namespace

int finishRun(const DriverOptions &Opts, ClangTidyContext &Context,
              const WarpCompilationDatabase &Database, ArrayRef<FileState> States,
              FindingStream &Stream, const CachedResults &Cache,
              std::chrono::steady_clock::time_point Start) {
  std::vector<ClangTidyError> &Errors = Stream.errors();
  Tally T;
  T.ToolErrors = llvm::any_of(States, [](const FileState &S) { return S.Failed; });
  T.Interrupted =
      llvm::count_if(States, [](const FileState &S) { return S.Report.Status == "interrupted"; });
  warnDroppedFlags(Database);
  T.CompileErrors = llvm::count_if(Errors, isCompilerError);
  T.Findings = llvm::count_if(Errors, isWarpFinding);
  applyFixIts(Opts, Context, Errors, T);
  double Seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();

  std::vector<FileReport> Files;
  for (const FileState &S : States)
    Files.push_back(S.Report);
  Report R = makeReport(Opts, Context, Errors, Files, Stream, Cache, Seconds, T);
  if (Opts.UpdateBaseline)
    return updateBaseline(Opts, R, T);
  if (!writeOutputs(Opts, R, Errors, States.front().Path))
    return ExitToolError;
  printClosingMessages(Opts, T, Stream.baselined(), States.size());
  if (States.size() != 1 && !Opts.Quiet)
    printSummary(Errors, States, Cache, Seconds, T);
  if (T.CompileErrors || T.ToolErrors)
    return ExitToolError;
  if (T.Findings && !Opts.ExitZero)
    return ExitFindings;
  return ExitClean;
}

} // namespace warp_tidy::driver
