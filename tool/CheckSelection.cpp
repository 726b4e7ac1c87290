//===--- CheckSelection.cpp - Which warp checks a run enables -------------===//

#include "CheckSelection.h"
#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/GlobList.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"

using namespace llvm;
using namespace clang::tidy;

namespace warp_tidy {

const char KeptOnSource[] = "warp-tidy: warp-* kept on (the .clang-tidy files do not name warp-)";

namespace {

bool isConfigurationFile(StringRef Source) {
  return Source != ClangTidyOptionsProvider::OptionsSourceTypeDefaultBinary &&
         Source != ClangTidyOptionsProvider::OptionsSourceTypeCheckCommandLineOption &&
         Source != ClangTidyOptionsProvider::OptionsSourceTypeConfigCommandLineOption;
}

class KeepWarpChecksOn : public ClangTidyOptionsProvider {
public:
  explicit KeepWarpChecksOn(std::unique_ptr<ClangTidyOptionsProvider> Inner)
      : Inner(std::move(Inner)) {}

  const ClangTidyGlobalOptions &getGlobalOptions() override { return Inner->getGlobalOptions(); }

  std::vector<OptionsSource> getRawOptions(StringRef FileName) override {
    std::vector<OptionsSource> Raw = Inner->getRawOptions(FileName);
    // The files found by directory lookup sit between the binary's defaults
    // and the command line; the entry goes right after the last of them.
    bool AnyFile = false, NamesWarp = false;
    size_t After = Raw.empty() ? 0 : 1;
    for (size_t I = 0; I < Raw.size(); ++I) {
      if (!isConfigurationFile(Raw[I].second)) {
        // --config/--config-file were written for warp-tidy: they count.
        if (Raw[I].second == ClangTidyOptionsProvider::OptionsSourceTypeConfigCommandLineOption)
          return Raw;
        continue;
      }
      AnyFile = true;
      After = I + 1;
      if (Raw[I].first.Checks && StringRef(*Raw[I].first.Checks).contains("warp-"))
        NamesWarp = true;
    }
    if (!AnyFile || NamesWarp)
      return Raw;
    ClangTidyOptions On;
    On.Checks = "warp-*";
    Raw.insert(Raw.begin() + After, OptionsSource(std::move(On), KeptOnSource));
    return Raw;
  }

private:
  std::unique_ptr<ClangTidyOptionsProvider> Inner;
};

SmallVector<StringRef, 8> globItems(StringRef Globs) {
  SmallVector<StringRef, 8> Items;
  SmallVector<StringRef, 8> Parts;
  Globs.split(Parts, ',');
  for (StringRef P : Parts) {
    // Checks in YAML may be written one per line.
    SmallVector<StringRef, 4> Lines;
    P.split(Lines, '\n');
    for (StringRef L : Lines) {
      L = L.trim();
      if (!L.empty())
        Items.push_back(L);
    }
  }
  return Items;
}

bool matchesAKnownCheck(StringRef Glob) {
  if (Glob.starts_with("clang-diagnostic-") || Glob == "clang-diagnostic*")
    return true;
  GlobList Pattern(Glob);
  return llvm::any_of(knownChecks(),
                      [&](const std::string &Name) { return Pattern.contains(Name); });
}

} // namespace

std::unique_ptr<ClangTidyOptionsProvider>
keepWarpChecksOn(std::unique_ptr<ClangTidyOptionsProvider> Inner) {
  return std::make_unique<KeepWarpChecksOn>(std::move(Inner));
}

const std::vector<std::string> &knownChecks() {
  static const std::vector<std::string> Names = [] {
    ClangTidyOptions All = ClangTidyOptions::getDefaults();
    All.Checks = "*";
    std::vector<std::string> N = getCheckNames(All, false, false);
    llvm::sort(N);
    return N;
  }();
  return Names;
}

std::vector<std::string> unmatchedGlobs(StringRef Globs, bool PositiveOnly) {
  std::vector<std::string> Unmatched;
  for (StringRef Item : globItems(Globs)) {
    bool Negative = Item.consume_front("-");
    if (Negative && PositiveOnly)
      continue;
    if (!matchesAKnownCheck(Item.trim()))
      Unmatched.push_back((Negative ? "-" : "") + Item.trim().str());
  }
  return Unmatched;
}

std::string closestCheck(StringRef Name) {
  std::string Best;
  unsigned BestDistance = 4; // Further than this is no typo.
  for (const std::string &Known : knownChecks()) {
    unsigned D = Name.edit_distance(Known, true, BestDistance);
    if (D < BestDistance) {
      BestDistance = D;
      Best = Known;
    }
  }
  return Best;
}

std::vector<std::string> verifyConfiguration(ClangTidyOptionsProvider &Provider, StringRef File) {
  std::vector<std::string> Problems;
  ClangTidyOptions All = ClangTidyOptions::getDefaults();
  All.Checks = "*";
  ClangTidyOptions::OptionMap KnownOptions = getCheckOptions(All, false, false);
  for (const auto &[Options, Source] : Provider.getRawOptions(File)) {
    if (Source == ClangTidyOptionsProvider::OptionsSourceTypeDefaultBinary ||
        Source == KeptOnSource)
      continue;
    auto Report = [&, &Source = Source](const std::string &What, StringRef Name) {
      std::string Line = Source + ": warning: unknown " + What + " '" + Name.str() + "'";
      std::string Near = closestCheck(Name.drop_front(Name.starts_with("-")));
      if (!Near.empty() && What == "check")
        Line += "; did you mean '" + Near + "'";
      Problems.push_back(Line + " [-verify-config]");
    };
    if (Options.Checks)
      for (StringRef Item : globItems(*Options.Checks)) {
        StringRef Name = Item;
        Name.consume_front("-");
        if (Name.trim().starts_with("warp-") && !matchesAKnownCheck(Name.trim()))
          Report("check", Name.trim());
      }
    for (const auto &Option : Options.CheckOptions) {
      StringRef Key = Option.getKey();
      if (Key.starts_with("warp-") && !KnownOptions.count(Key))
        Report("check option", Key);
    }
  }
  return Problems;
}

} // namespace warp_tidy
