//===--- LauncherMain.cpp - warp-tidy inside the build --------------------===//
//
// warp-tidy-launcher is a compiler launcher (CMAKE_CUDA_COMPILER_LAUNCHER, or
// any build that can prefix its compile commands): it analyses the unit with
// the exact command the build is about to run, prints the findings, then
// replaces itself with that command. CMake ignores CMAKE_CUDA_CLANG_TIDY
// (<LANG>_CLANG_TIDY exists for C, C++ and Objective-C only); a launcher puts
// the analysis where the team's compiles already are: incremental, parallel
// and next to ccache, sccache or distributed compilers. docs/launcher.md is
// the user guide.
//
// The command reaches warp-tidy as a one-entry compilation database, so it
// goes through the same nvcc translation as `warp-tidy -p build/`, and the
// result cache (keyed on that command and every file read) makes an
// unchanged unit's analysis near free when the build recompiles it.
//
// A C++ binary rather than a script: no interpreter on the build machines,
// exact argv (no shell quoting of the compile command) and exec() of the
// compiler, so its exit status, output and signals are the build's own.
//
//===----------------------------------------------------------------------===//

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"
#include <cerrno>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#ifndef _WIN32
#include <unistd.h>
#endif

using namespace llvm;

namespace {

constexpr int ExitFindings = 1;
constexpr int ExitUsage = 2;

const char Usage[] = R"(usage: warp-tidy-launcher [options] [--] <compiler> <compiler arguments>

Analyses a CUDA compile with warp-tidy, prints the findings, then runs the
compile. For CMake: -DCMAKE_CUDA_COMPILER_LAUNCHER=warp-tidy-launcher
(options: -DCMAKE_CUDA_COMPILER_LAUNCHER="warp-tidy-launcher;--warnings-as-errors").

options:
  --warnings-as-errors   a unit with findings fails: exit 1 without compiling it
  --warp-tidy=<path>     the warp-tidy to run (default: the one next to this
                         launcher, else warp-tidy on PATH)
  --warp-tidy-arg=<arg>  pass <arg> to warp-tidy (repeatable), e.g.
                         --warp-tidy-arg=--checks=-*,warp-zero-mask
  --no-compile           analyse only; the compiler is not run (for builds or
                         tests without the compiler)
  --help                 this text

Commands without a CUDA source (links, device links, preprocessing) are run
without analysis. A unit warp-tidy cannot analyse is reported and compiled.
)";

struct Options {
  bool WarningsAsErrors = false;
  bool NoCompile = false;
  std::string WarpTidy;
  std::vector<std::string> WarpTidyArgs;
  std::vector<std::string> Command; ///< The compile command, argv[0] first.
};

void note(const Twine &Message) { errs() << "warp-tidy-launcher: " << Message << "\n"; }

/// Parses the launcher's options (all before the compiler). Returns false
/// with a message on a usage error; sets Help for --help.
bool parseOptions(ArrayRef<const char *> Args, Options &O, bool &Help, std::string &Error) {
  size_t I = 0;
  for (; I < Args.size(); ++I) {
    StringRef A = Args[I];
    if (A == "--") {
      ++I;
      break;
    }
    if (!A.starts_with("-"))
      break;
    if (A == "--help" || A == "-help" || A == "-h") {
      Help = true;
      return true;
    }
    if (A == "--warnings-as-errors")
      O.WarningsAsErrors = true;
    else if (A == "--no-compile")
      O.NoCompile = true;
    else if (A.consume_front("--warp-tidy="))
      O.WarpTidy = A.str();
    else if (A.consume_front("--warp-tidy-arg="))
      O.WarpTidyArgs.push_back(A.str());
    else {
      Error = ("unknown option '" + A +
               "' (launcher options come before the compiler; "
               "see --help)")
                  .str();
      return false;
    }
  }
  O.Command.assign(Args.begin() + I, Args.end());
  if (O.Command.empty()) {
    Error = "no compile command given (see --help)";
    return false;
  }
  return true;
}

/// Launchers commonly chained after this one (`warp-tidy-launcher;ccache`):
/// the compiler is the first argument that is not one of them.
bool isCompilerWrapper(StringRef Program) {
  StringRef Name = sys::path::filename(Program);
  return StringSwitch<bool>(Name)
      .Cases({"ccache", "sccache", "buildcache", "distcc", "icecc", "recc", "firebuild"}, true)
      .Default(false);
}

bool hasCudaLanguageFlag(ArrayRef<std::string> Args) {
  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef A = Args[I];
    if ((A == "-x" || A == "--x") && I + 1 < Args.size() &&
        (Args[I + 1] == "cu" || Args[I + 1] == "cuda"))
      return true;
    if (A == "-xcu" || A == "-xcuda" || A == "--x=cu" || A == "-x=cu")
      return true;
  }
  return false;
}

bool isPreprocessOrLink(ArrayRef<std::string> Args) {
  return any_of(Args, [](StringRef A) {
    return A == "-E" || A == "-M" || A == "-MM" || A == "--preprocess" || A == "-dlink" ||
           A == "--device-link" || A == "-link" || A == "--link";
  });
}

/// The CUDA sources the command compiles: arguments naming existing files
/// with a .cu extension, or any C/C++ source extension under `-x cu`.
std::vector<std::string> cudaSources(ArrayRef<std::string> Compile) {
  std::vector<std::string> Sources;
  if (Compile.size() < 2 || isPreprocessOrLink(Compile))
    return Sources;
  bool ForcedCuda = hasCudaLanguageFlag(Compile);
  for (const std::string &A : Compile.drop_front()) {
    StringRef Ext = sys::path::extension(A);
    bool Source = Ext == ".cu" ||
                  (ForcedCuda && (Ext == ".cpp" || Ext == ".cc" || Ext == ".cxx" || Ext == ".c"));
    if (Source && !StringRef(A).starts_with("-") && sys::fs::is_regular_file(A)) {
      SmallString<256> Abs(A);
      sys::fs::make_absolute(Abs);
      Sources.push_back(Abs.str().str());
    }
  }
  return Sources;
}

std::optional<std::string> findWarpTidy(const Options &O, const char *Argv0) {
  if (!O.WarpTidy.empty())
    return sys::fs::can_execute(O.WarpTidy) ? std::optional<std::string>(O.WarpTidy) : std::nullopt;
  static int Anchor;
  std::string Self = sys::fs::getMainExecutable(Argv0, &Anchor);
  if (!Self.empty()) {
    SmallString<256> Sibling(sys::path::parent_path(Self));
    sys::path::append(Sibling, "warp-tidy");
    if (sys::fs::can_execute(Sibling))
      return Sibling.str().str();
  }
  if (ErrorOr<std::string> OnPath = sys::findProgramByName("warp-tidy"))
    return *OnPath;
  return std::nullopt;
}

/// Runs warp-tidy on \p Source compiled by \p Compile. Returns its exit
/// status (-1 if it could not run); its report goes to stderr, where a build
/// shows compiler diagnostics.
int analyse(StringRef WarpTidy, const Options &O, ArrayRef<std::string> Compile, StringRef Source) {
  SmallString<256> Dir;
  if (std::error_code EC = sys::fs::createUniqueDirectory("warp-tidy-launcher", Dir)) {
    note("cannot create a temporary directory: " + EC.message());
    return -1;
  }
  scope_exit Cleanup([&] { sys::fs::remove_directories(Dir); });

  SmallString<256> Cwd;
  sys::fs::current_path(Cwd);
  json::Array Arguments;
  for (const std::string &A : Compile)
    Arguments.push_back(A);
  json::Array Database{json::Object{
      {"directory", Cwd.str()}, {"file", Source}, {"arguments", std::move(Arguments)}}};
  SmallString<256> DatabasePath(Dir);
  sys::path::append(DatabasePath, "compile_commands.json");
  {
    std::error_code EC;
    raw_fd_ostream OS(DatabasePath, EC);
    if (EC) {
      note("cannot write " + DatabasePath + ": " + EC.message());
      return -1;
    }
    OS << json::Value(std::move(Database));
  }

  SmallString<256> Report(Dir);
  sys::path::append(Report, "report.txt");
  // One unit per launcher: the build's own -j is the parallelism.
  std::vector<StringRef> Argv = {WarpTidy, "--quiet", "-j", "1", "-p", Dir};
  for (const std::string &A : O.WarpTidyArgs)
    Argv.push_back(A);
  Argv.push_back(Source);
  std::optional<StringRef> Redirects[] = {std::nullopt, StringRef(Report), std::nullopt};
  std::string Error;
  int Status = sys::ExecuteAndWait(WarpTidy, Argv, std::nullopt, Redirects, 0, 0, &Error);
  if (Status < 0) {
    note("cannot run " + WarpTidy + ": " + Error);
    return -1;
  }
  if (auto Buffer = MemoryBuffer::getFile(Report))
    errs() << (*Buffer)->getBuffer();
  errs().flush();
  return Status;
}

/// Replaces this process with the compile (exit status, output and signals
/// stay the compiler's); returns only if that fails.
int runCompiler(ArrayRef<std::string> Command) {
#ifndef _WIN32
  std::vector<char *> Argv;
  for (const std::string &A : Command)
    Argv.push_back(const_cast<char *>(A.c_str()));
  Argv.push_back(nullptr);
  errs().flush();
  outs().flush();
  ::execvp(Argv[0], Argv.data());
  note("cannot run '" + Command.front() + "': " + std::strerror(errno));
  return 127;
#else
  ErrorOr<std::string> Program = sys::findProgramByName(Command.front());
  if (!Program) {
    note("cannot find '" + Command.front() + "'");
    return 127;
  }
  std::vector<StringRef> Argv(Command.begin(), Command.end());
  return sys::ExecuteAndWait(*Program, Argv);
#endif
}

} // namespace

int main(int argc, const char **argv) {
  Options O;
  bool Help = false;
  std::string Error;
  if (!parseOptions(ArrayRef(argv + 1, argv + argc), O, Help, Error)) {
    note(Error);
    return ExitUsage;
  }
  if (Help) {
    outs() << Usage;
    return 0;
  }

  ArrayRef<std::string> Compile = O.Command;
  while (!Compile.empty() && isCompilerWrapper(Compile.front()))
    Compile = Compile.drop_front();

  std::vector<std::string> Sources = cudaSources(Compile);
  bool Findings = false;
  if (!Sources.empty()) {
    std::optional<std::string> WarpTidy = findWarpTidy(O, argv[0]);
    if (!WarpTidy) {
      note(O.WarpTidy.empty()
               ? "cannot find warp-tidy next to the launcher or on PATH; pass --warp-tidy=<path>"
               : "--warp-tidy='" + O.WarpTidy + "' is not an executable file");
      return ExitUsage;
    }
    for (const std::string &Source : Sources) {
      int Status = analyse(*WarpTidy, O, Compile, Source);
      if (Status == ExitFindings)
        Findings = true;
      else if (Status != 0)
        note("warp-tidy could not analyse " + Source + " (exit status " + std::to_string(Status) +
             "); compiling it unanalysed");
    }
  }
  if (Findings && O.WarningsAsErrors) {
    note("warp findings are errors (--warnings-as-errors): not compiled");
    return ExitFindings;
  }
  if (O.NoCompile)
    return 0;
  return runCompiler(O.Command);
}
