//===--- FileStates.cpp - Where each file of a run stands -----------------===//

#include "driver/FileStates.h"
#include "clang-tidy/ClangTidy.h"
#include "driver/Configuration.h"
#include "driver/Messages.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace warp_tidy::driver {
namespace {

void printCommands(const FileState &S) {
  for (const clang::tooling::CompileCommand &C : S.Commands) {
    errs() << "warp-tidy: command for " << S.Path << ":";
    for (const std::string &A : C.CommandLine)
      errs() << " " << A;
    errs() << "\n";
  }
}

/// Why the source \p Path cannot be read, or "". Asked before a worker
/// parses it: clang would report a directory named like a source, or a file
/// this user may not open, as code that does not compile.
std::string readProblem(StringRef Path) {
  sys::fs::file_status Status;
  if (std::error_code EC = sys::fs::status(Path, Status))
    return EC.message();
  if (Status.type() == sys::fs::file_type::directory_file)
    return "is a directory";
  // Not a FIFO or a device: opening one could block; clang reads those.
  if (Status.type() != sys::fs::file_type::regular_file)
    return "";
  Expected<sys::fs::file_t> File = sys::fs::openNativeFileForRead(Path);
  if (!File)
    return toString(File.takeError());
  sys::fs::closeFile(*File);
  return "";
}

/// Why \p S cannot be analysed, or "".
std::string unusableReason(const FileState &S, const SelectedFiles &Selected) {
  auto Bad = Selected.Errors.find(S.Path);
  if (Bad != Selected.Errors.end())
    return Bad->second;
  if (!sys::fs::exists(S.Path))
    return "cannot read '" + S.Path + "' (listed in the compilation database): no such file";
  std::string Problem = readProblem(S.Path);
  return Problem.empty() ? "" : "cannot read '" + S.Path + "': " + Problem;
}

} // namespace

std::vector<FileState> makeFileStates(const DriverOptions &Opts,
                                      const WarpCompilationDatabase &Database,
                                      SelectedFiles &Selected) {
  std::vector<FileState> States(Selected.Files.size());
  for (size_t I = 0; I < States.size(); ++I) {
    FileState &S = States[I];
    S.Path = Selected.Files[I];
    S.Report.Path = Selected.Files[I];
    S.Report.Status = "analysed";
    S.Commands = Database.getCompileCommands(S.Path);
    if (Opts.PrintCommands)
      printCommands(S);
    if (S.Commands.size() > 1)
      Selected.Notes.push_back("'" + S.Path + "' has " + std::to_string(S.Commands.size()) +
                               " different entries in the compilation database; each is "
                               "analysed and the findings merged");
  }
  // Unusable arguments and files named in the database but absent on disk:
  // each is that file's error; the others are analysed.
  for (FileState &S : States) {
    std::string Message = unusableReason(S, Selected);
    if (Message.empty())
      continue;
    S.Failed = true;
    S.Finished = true;
    S.Report.Status = "failed";
    S.Report.Messages.push_back(Message);
  }
  return States;
}

bool everyFileHasChecks(const DriverOptions &Opts, clang::tidy::ClangTidyContext &Context,
                        ArrayRef<FileState> States) {
  if (Opts.AllowNoChecks)
    return true;
  bool AllHaveChecks = true;
  for (const FileState &S : States) {
    if (!clang::tidy::getCheckNames(Context.getOptionsForFile(S.Path), false, false).empty())
      continue;
    if (AllHaveChecks)
      error(noChecksMessage(S.Path));
    AllHaveChecks = false;
    // Drivers that run warp-tidy as clang-tidy (cpp-linter) read findings
    // from stdout and ignore the exit status: without a line in clang-tidy's
    // layout the run would pass.
    if (Opts.Format == OutputFormat::Text)
      outs() << noChecksFinding(S.Path) << "\n";
  }
  return AllHaveChecks;
}

} // namespace warp_tidy::driver
