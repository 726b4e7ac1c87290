//===--- Configuration.cpp - The clang-tidy configuration of a run --------===//

#include "driver/Configuration.h"
#include "CheckSelection.h"
#include "clang-tidy/ClangTidy.h"
#include "driver/ExitStatus.h"
#include "driver/Messages.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace clang::tidy;

namespace warp_tidy::driver {
namespace {

/// What the command line sets: the defaults a configuration file may
/// change, and the overrides it may not.
void commandLineOptions(const ConfigArguments &C, ClangTidyOptions &Defaults,
                        ClangTidyOptions &Overrides) {
  Defaults = ClangTidyOptions::getDefaults();
  Defaults.Checks = "-*,warp-*";
  Defaults.HeaderFilterRegex = C.HeaderFilter.value_or(".*");
  Defaults.SystemHeaders = C.SystemHeaders.value_or(false);
  Defaults.WarningsAsErrors = "";

  Overrides.Checks = C.Checks;
  Overrides.WarningsAsErrors = C.WarningsAsErrors;
  Overrides.HeaderFilterRegex = C.HeaderFilter;
  Overrides.SystemHeaders = C.SystemHeaders;
  Overrides.ExcludeHeaderFilterRegex = C.ExcludeHeaderFilter;
  Overrides.FormatStyle = C.FormatStyle;
  Overrides.UseColor = C.UseColor;
}

/// --config or --config-file: the configuration it gives, or nullopt (an
/// error printed) if it cannot be read or parsed.
std::optional<ClangTidyOptions> explicitConfiguration(const ConfigArguments &C) {
  std::string Text = C.Config.value_or("");
  std::string Source = "<--config>";
  if (C.ConfigFile) {
    auto Buffer = MemoryBuffer::getFile(*C.ConfigFile);
    if (!Buffer) {
      error("cannot read --config-file '" + *C.ConfigFile + "': " + Buffer.getError().message());
      return std::nullopt;
    }
    Text = (*Buffer)->getBuffer().str();
    Source = *C.ConfigFile;
  }
  ErrorOr<ClangTidyOptions> Parsed = parseConfiguration(MemoryBufferRef(Text, Source));
  if (!Parsed) {
    error("invalid configuration in " + Source + ": " + Parsed.getError().message());
    return std::nullopt;
  }
  return std::move(*Parsed);
}

int verifyConfig(const DriverOptions &Opts, ClangTidyOptionsProvider &Provider) {
  std::vector<std::string> Problems;
  std::vector<std::string> Files = Opts.Inputs;
  if (Files.empty())
    Files.push_back("dummy.cu");
  for (StringRef File : Files) {
    SmallString<256> Abs(File);
    sys::fs::make_absolute(Abs);
    for (std::string &P : verifyConfiguration(Provider, Abs))
      if (!llvm::is_contained(Problems, P))
        Problems.push_back(std::move(P));
  }
  for (const std::string &P : Problems)
    errs() << P << "\n";
  if (!Problems.empty())
    return 1;
  outs() << "No config errors detected.\n";
  return ExitClean;
}

int listChecksOrDumpConfig(const DriverOptions &Opts, ClangTidyOptionsProvider &Provider) {
  StringRef FirstInput =
      Opts.Inputs.empty() ? StringRef("dummy.cu") : StringRef(Opts.Inputs.front());
  ClangTidyOptions Effective = Provider.getOptions(FirstInput);
  std::vector<std::string> Enabled = getCheckNames(Effective, false, false);
  if (Opts.ListChecks && Enabled.empty() && !Opts.AllowNoChecks) {
    error(noChecksMessage(FirstInput));
    return ExitToolError;
  }
  if (Opts.ListChecks) {
    outs() << "Enabled checks:";
    for (const std::string &Name : Enabled)
      outs() << "\n    " << Name;
    outs() << "\n";
  } else {
    Effective.CheckOptions = getCheckOptions(Effective, false, false);
    filterCheckOptions(Effective, Enabled);
    outs() << configurationAsText(Effective) << "\n";
  }
  return ExitClean;
}

/// A glob meant for warp-tidy: it names `warp-` or is a near miss of one of
/// its checks (`wrap-zero-mask`). Anything else belongs to another tool.
bool meantForWarpTidy(StringRef Name, StringRef Near) {
  return Name.starts_with("warp") || !Near.empty();
}

/// Looks up a file's .clang-tidy files from its directory; for a file in a
/// directory that does not exist (an input that cannot be read, reported as
/// such), from the working directory instead, so that the lookup does not
/// print clang-tidy's "Error reading configuration" once per parent.
class ExistingDirectories : public ClangTidyOptionsProvider {
public:
  explicit ExistingDirectories(std::unique_ptr<ClangTidyOptionsProvider> Inner)
      : Inner(std::move(Inner)) {}
  const ClangTidyGlobalOptions &getGlobalOptions() override { return Inner->getGlobalOptions(); }
  std::vector<OptionsSource> getRawOptions(StringRef FileName) override {
    StringRef Dir = sys::path::parent_path(FileName);
    if (Dir.empty() || sys::fs::is_directory(Dir))
      return Inner->getRawOptions(FileName);
    SmallString<256> InWorkingDir;
    if (sys::fs::current_path(InWorkingDir))
      return Inner->getRawOptions(FileName);
    sys::path::append(InWorkingDir, sys::path::filename(FileName));
    return Inner->getRawOptions(InWorkingDir);
  }

private:
  std::unique_ptr<ClangTidyOptionsProvider> Inner;
};

} // namespace

std::unique_ptr<ClangTidyOptionsProvider> makeOptionsProvider(const DriverOptions &Opts) {
  const ConfigArguments &C = Opts.Config;
  ClangTidyGlobalOptions Global;
  if (std::error_code EC = parseLineFilter(C.LineFilter, Global)) {
    error("invalid --line-filter: " + EC.message());
    return nullptr;
  }
  ClangTidyOptions Defaults, Overrides;
  commandLineOptions(C, Defaults, Overrides);
  auto FS = vfs::getRealFileSystem();
  if (C.Config || C.ConfigFile) {
    std::optional<ClangTidyOptions> Explicit = explicitConfiguration(C);
    if (!Explicit)
      return nullptr;
    return std::make_unique<ConfigOptionsProvider>(std::move(Global), std::move(Defaults),
                                                   std::move(*Explicit), std::move(Overrides), FS);
  }
  // .clang-tidy files next to the sources apply, as with clang-tidy, except
  // that one written for clang-tidy alone does not turn warp-tidy off.
  return keepWarpChecksOn(
      std::make_unique<ExistingDirectories>(std::make_unique<FileOptionsProvider>(
          std::move(Global), std::move(Defaults), std::move(Overrides), FS)));
}

IntrusiveRefCntPtr<vfs::FileSystem> loadVfsOverlay(StringRef Path,
                                                   IntrusiveRefCntPtr<vfs::FileSystem> Base) {
  auto Buffer = Base->getBufferForFile(Path);
  if (!Buffer) {
    error("cannot read --vfsoverlay '" + Path + "': " + Buffer.getError().message());
    return nullptr;
  }
  IntrusiveRefCntPtr<vfs::FileSystem> Overlay =
      vfs::getVFSFromYAML(std::move(*Buffer), nullptr, Path, nullptr, Base);
  if (!Overlay)
    error("invalid --vfsoverlay '" + Path + "'");
  return Overlay;
}

bool checkVfsOverlay(const DriverOptions &Opts) {
  return Opts.VfsOverlay.empty() || loadVfsOverlay(Opts.VfsOverlay, vfs::getRealFileSystem());
}

bool checkCheckGlobs(const DriverOptions &Opts) {
  if (!Opts.Config.Checks || Opts.isWorker())
    return true;
  std::vector<std::string> Foreign;
  for (const std::string &Glob : unmatchedGlobs(*Opts.Config.Checks, false)) {
    StringRef Name = StringRef(Glob).ltrim('-');
    std::string Near = closestCheck(Name);
    if (!meantForWarpTidy(Name, Near)) {
      Foreign.push_back(Name.str());
      continue;
    }
    std::string Message = "--checks glob '" + Name.str() + "' matches no check" +
                          (Near.empty() ? "" : "; did you mean '" + Near + "'?") +
                          " (--list-checks --checks='*' lists them)";
    if (Glob[0] == '-') {
      warning(Message);
      continue;
    }
    error(Message);
    return false;
  }
  // A clang-tidy check list (cpp-linter passes `boost-*,bugprone-*,...`):
  // its other modules are not ours to run, and whether any warp check is
  // left on is judged per file.
  if (!Foreign.empty() && !Opts.Quiet)
    warning("--checks names checks of other tools, ignored (warp-tidy's own are warp-*): " +
            join(Foreign, ", "));
  return true;
}

std::optional<int> answerConfigurationQuery(const DriverOptions &Opts,
                                            ClangTidyOptionsProvider &Provider) {
  if (Opts.VerifyConfig)
    return verifyConfig(Opts, Provider);
  if (Opts.ListChecks || Opts.DumpConfig)
    return listChecksOrDumpConfig(Opts, Provider);
  return std::nullopt;
}

std::string noChecksMessage(StringRef File) {
  return "no checks enabled for '" + File.str() +
         "': the effective Checks (--checks, --config, .clang-tidy) switch off "
         "every warp- check; name some (e.g. --checks='-*,warp-*') or pass "
         "--allow-no-checks";
}

std::string noChecksFinding(StringRef File) {
  return File.str() + ":1:1: error: no warp- check is enabled for this file: the check "
                      "list switches every one off; pass --checks='-*,warp-*' "
                      "[warp-tidy-no-checks]";
}

std::unique_ptr<ClangTidyContext>
makeTidyContext(std::unique_ptr<ClangTidyOptionsProvider> Provider) {
  InitializeAllTargetInfos();
  InitializeAllTargetMCs();
  InitializeAllAsmParsers();
  return std::make_unique<ClangTidyContext>(std::move(Provider), false, false, false);
}

} // namespace warp_tidy::driver
