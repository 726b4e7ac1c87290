//===--- OutputFormats.cpp - JSON and SARIF reports -----------------------===//

#include "OutputFormats.h"
#include "ArchPasses.h"
#include "DiagnosticKinds.h"
#include "ResultCache.h"
#include "clang/Format/Format.h"
#include "clang/Tooling/Core/Replacement.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include <map>

using namespace llvm;
using clang::tidy::ClangTidyError;
using clang::tooling::DiagnosticMessage;

namespace warp_tidy {

std::string absolutePath(StringRef File, StringRef BuildDirectory) {
  if (File.empty())
    return "";
  SmallString<256> P(File);
  if (!sys::path::is_absolute(P) && !BuildDirectory.empty()) {
    SmallString<256> Base(BuildDirectory);
    sys::path::append(Base, P);
    P = Base;
  }
  sys::fs::make_absolute(P);
  // "dir/../" is only lexical when dir is no symlink: let the file system
  // resolve such paths (they come from -I../include and the like).
  sys::path::remove_dots(P, /*remove_dot_dot=*/false);
  if (llvm::is_contained(llvm::make_range(sys::path::begin(P), sys::path::end(P)),
                         StringRef(".."))) {
    SmallString<256> Real;
    if (!sys::fs::real_path(P, Real))
      return Real.str().str();
  }
  return P.str().str();
}

//===-- Check documentation embedded at build time ------------------------===//

namespace {
struct EmbeddedDoc {
  const char *Stem; ///< docs/checks/<Stem>.md
  const char *Markdown;
};
const EmbeddedDoc EmbeddedDocs[] = {
#include "CheckDocs.inc"
    {nullptr, nullptr}};

// The paragraph starting at line \p I (skipping blank lines), joined with
// spaces; stops at a blank line, a heading or a code fence.
std::string paragraphAt(ArrayRef<StringRef> Lines, size_t I) {
  while (I < Lines.size() && Lines[I].trim().empty())
    ++I;
  std::string Text;
  for (; I < Lines.size(); ++I) {
    StringRef L = Lines[I].trim();
    if (L.empty() || L.starts_with("#") || L.starts_with("```"))
      break;
    if (!Text.empty())
      Text += ' ';
    Text += L.str();
  }
  return Text;
}

// Markdown emphasis and code marks are noise in plain-text fields.
std::string plainText(StringRef Markdown) {
  std::string Text;
  for (char C : Markdown)
    if (C != '`' && C != '*')
      Text += C;
  return Text;
}

// The first sentence of \p Paragraph: up to the first ". " that ends a
// word (not "e.g. ", "i.e. "), or all of it.
std::string firstSentence(StringRef Paragraph) {
  for (size_t At = Paragraph.find(". "); At != StringRef::npos; At = Paragraph.find(". ", At + 1)) {
    StringRef Before = Paragraph.take_front(At);
    if (Before.ends_with("e.g") || Before.ends_with("i.e") || Before.ends_with("vs"))
      continue;
    return Paragraph.take_front(At + 1).str();
  }
  return Paragraph.str();
}

const EmbeddedDoc *findDoc(StringRef Check) {
  if (!Check.starts_with("warp-"))
    return nullptr;
  StringRef Stem = Check.drop_front(5);
  for (const EmbeddedDoc *D = EmbeddedDocs; D->Stem; ++D)
    if (Stem == D->Stem)
      return D;
  return nullptr;
}

} // namespace

bool checkDescription(StringRef Check, std::string &Short, std::string &Full) {
  const EmbeddedDoc *D = findDoc(Check);
  if (!D)
    return false;
  SmallVector<StringRef, 64> Lines;
  StringRef(D->Markdown).split(Lines, '\n');
  size_t Title = 0;
  while (Title < Lines.size() && !Lines[Title].starts_with("# "))
    ++Title;
  // A page opens with a summary line, or goes straight to "What it reports".
  std::string Summary = paragraphAt(Lines, Title + 1);
  std::string Reports;
  for (size_t I = 0; I < Lines.size(); ++I)
    if (Lines[I].trim().equals_insensitive("## What it reports")) {
      Reports = paragraphAt(Lines, I + 1);
      break;
    }
  Short = plainText(firstSentence(Summary.empty() ? Reports : Summary));
  Full = plainText(Summary.empty() ? Reports : Reports.empty() ? Summary : Summary + " " + Reports);
  return !Short.empty();
}

std::string checkPage(StringRef Check) {
  const EmbeddedDoc *D = findDoc(Check);
  return D ? D->Markdown : "";
}

//===-- Source positions ---------------------------------------------------===//

namespace {

struct Position {
  unsigned Line = 1, Column = 1; ///< Column in bytes (clang's).
  unsigned CodePointColumn = 1;  ///< Column in Unicode code points.
  std::string LineText;
};

class SourceFiles {
public:
  Position position(StringRef File, unsigned Offset) {
    Entry &E = get(File);
    Position P;
    if (E.LineStarts.empty())
      return P;
    Offset = std::min<unsigned>(Offset, E.Text.size());
    auto It = std::upper_bound(E.LineStarts.begin(), E.LineStarts.end(), Offset);
    unsigned LineIndex = static_cast<unsigned>(It - E.LineStarts.begin()) - 1;
    unsigned Start = E.LineStarts[LineIndex];
    P.Line = LineIndex + 1;
    P.Column = Offset - Start + 1;
    StringRef Prefix = StringRef(E.Text).slice(Start, Offset);
    P.CodePointColumn = 1 + llvm::count_if(Prefix, [](char C) {
                          return (static_cast<unsigned char>(C) & 0xC0) != 0x80;
                        });
    size_t End = E.Text.find('\n', Start);
    P.LineText = StringRef(E.Text).slice(Start, End).rtrim("\r").str();
    return P;
  }

private:
  struct Entry {
    std::string Text;
    std::vector<unsigned> LineStarts;
  };
  Entry &get(StringRef File) {
    auto [It, Inserted] = Files.try_emplace(File);
    if (Inserted) {
      if (auto Buffer = MemoryBuffer::getFile(File)) {
        It->second.Text = (*Buffer)->getBuffer().str();
        It->second.LineStarts.push_back(0);
        for (size_t I = 0; I < It->second.Text.size(); ++I)
          if (It->second.Text[I] == '\n')
            It->second.LineStarts.push_back(static_cast<unsigned>(I + 1));
      }
    }
    return It->second;
  }
  StringMap<Entry> Files;
};

StringRef levelName(const ClangTidyError &E) {
  switch (E.DiagLevel) {
  case ClangTidyError::Error:
    return "error";
  case ClangTidyError::Remark:
    return "note";
  case ClangTidyError::Warning:
    break;
  }
  return "warning";
}
} // namespace

//===-- JSON ---------------------------------------------------------------===//

Fingerprinter::Fingerprinter(StringRef SourceRoot) : Root(SourceRoot.str()) {
  if (!Root.empty() && !StringRef(Root).ends_with("/"))
    Root += "/";
}

std::string Fingerprinter::operator()(const ClangTidyError &E) {
  std::string Relative, LineText;
  if (!E.Message.FilePath.empty()) {
    std::string File = absolutePath(E.Message.FilePath, E.BuildDirectory);
    Relative = StringRef(File).starts_with(Root) ? File.substr(Root.size()) : File;
    auto [It, Inserted] = Contents.try_emplace(File);
    if (Inserted)
      if (auto Buffer = MemoryBuffer::getFile(File))
        It->second = (*Buffer)->getBuffer().str();
    StringRef Text = It->second;
    size_t Offset = std::min<size_t>(E.Message.FileOffset, Text.size());
    size_t Start = Text.rfind('\n', Offset ? Offset - 1 : 0);
    Start = (Start == StringRef::npos || Offset == 0) ? 0 : Start + 1;
    LineText = Text.slice(Start, Text.find('\n', Offset)).trim().str();
  }
  // No line number: an edit above the finding must not make it new.
  std::string Base =
      E.DiagnosticName + "\x1f" + Relative + "\x1f" + LineText + "\x1f" + E.Message.Message;
  unsigned Occurrence = Occurrences[Base]++;
  return hashParts({Base, std::to_string(Occurrence)}).substr(0, 32);
}

/// The "files" of a JSON report: what happened to each input file.
static json::Array filesToJson(ArrayRef<FileReport> Reports) {
  json::Array Files;
  for (const FileReport &F : Reports) {
    json::Array Messages;
    for (const std::string &M : F.Messages)
      Messages.push_back(M);
    json::Object FO{{"path", F.Path}, {"status", F.Status}, {"messages", std::move(Messages)}};
    if (!F.ArchPasses.empty()) {
      json::Array Passes;
      for (unsigned A : F.ArchPasses)
        Passes.push_back("sm_" + std::to_string(A));
      FO["archPasses"] = std::move(Passes);
    }
    Files.push_back(std::move(FO));
  }
  return Files;
}

void writeJsonReport(const Report &R, raw_ostream &OS) {
  SourceFiles Sources;
  Fingerprinter Fingerprint(R.FingerprintRoot);
  auto Located = [&](const DiagnosticMessage &M, StringRef BuildDir, json::Object &O) {
    if (M.FilePath.empty())
      return;
    std::string File = absolutePath(M.FilePath, BuildDir);
    Position P = Sources.position(File, M.FileOffset);
    O["file"] = File;
    O["line"] = P.Line;
    O["column"] = P.Column;
    O["offset"] = M.FileOffset;
  };
  auto FixesOf = [&](const DiagnosticMessage &M, StringRef BuildDir) {
    json::Array Fixes;
    for (const auto &Entry : M.Fix)
      for (const clang::tooling::Replacement &Rep : Entry.second) {
        std::string File = absolutePath(Rep.getFilePath(), BuildDir);
        Position P = Sources.position(File, Rep.getOffset());
        Fixes.push_back(json::Object{{"file", File},
                                     {"offset", Rep.getOffset()},
                                     {"length", Rep.getLength()},
                                     {"line", P.Line},
                                     {"column", P.Column},
                                     {"replacement", Rep.getReplacementText()}});
      }
    return Fixes;
  };

  json::Array Diagnostics;
  std::map<std::string, unsigned> ByCheck;
  unsigned Findings = 0;
  for (const ClangTidyError &E : R.Errors) {
    json::Object D{
        {"check", E.DiagnosticName}, {"level", levelName(E)}, {"message", E.Message.Message}};
    Located(E.Message, E.BuildDirectory, D);
    D["fingerprint"] = Fingerprint(E);
    // Found in some arch passes only (ArchPasses.h): the archs it holds for.
    std::vector<std::string> Archs = archsOfFinding(E.Message.Message);
    if (!Archs.empty())
      D["archs"] = json::Array(Archs);
    json::Array Notes;
    for (const DiagnosticMessage &N : E.Notes) {
      json::Object NO{{"message", N.Message}};
      Located(N, E.BuildDirectory, NO);
      json::Array NoteFixes = FixesOf(N, E.BuildDirectory);
      if (!NoteFixes.empty())
        NO["fixes"] = std::move(NoteFixes);
      Notes.push_back(std::move(NO));
    }
    D["notes"] = std::move(Notes);
    D["fixes"] = FixesOf(E.Message, E.BuildDirectory);
    Diagnostics.push_back(std::move(D));
    if (isWarpFinding(E)) {
      ++Findings;
      ++ByCheck[E.DiagnosticName];
    }
  }

  json::Object ByCheckJson;
  for (const auto &[Name, Count] : ByCheck)
    ByCheckJson[Name] = Count;

  json::Object Doc{{"version", 1},
                   {"tool", json::Object{{"name", "warp-tidy"}, {"version", R.ToolVersion}}},
                   {"files", filesToJson(R.Files)},
                   {"diagnostics", std::move(Diagnostics)},
                   {"summary", json::Object{{"files", static_cast<int64_t>(R.Files.size())},
                                            {"findings", Findings},
                                            {"by_check", std::move(ByCheckJson)},
                                            {"tool_errors", R.ToolErrors},
                                            {"cache_hits", R.CacheHits},
                                            {"cache_misses", R.CacheMisses},
                                            {"seconds", R.Seconds}}}};
  OS << formatv("{0:2}", json::Value(std::move(Doc))) << "\n";
}

//===-- SARIF --------------------------------------------------------------===//

namespace {
// RFC 3986: keep unreserved characters and '/', percent-encode the rest.
std::string percentEncode(StringRef Path) {
  std::string Out;
  for (unsigned char C : Path) {
    if (isAlnum(C) || C == '-' || C == '.' || C == '_' || C == '~' || C == '/')
      Out += static_cast<char>(C);
    else
      Out += formatv("%{0:X2}", static_cast<unsigned>(C)).str();
  }
  return Out;
}

class SarifWriter {
public:
  SarifWriter(const Report &R) : R(R), Fingerprint(R.FingerprintRoot) {
    Root = R.SourceRoot;
    if (!Root.empty() && !StringRef(Root).ends_with("/"))
      Root += "/";
  }

  json::Value write() {
    // Rules: every enabled check, then any other rule a result names.
    for (const std::string &C : R.EnabledChecks)
      ruleIndex(C);
    json::Array Results;
    json::Array Notifications;
    for (const ClangTidyError &E : R.Errors) {
      if (isCompilerError(E)) {
        json::Object N{{"level", "error"},
                       {"message", json::Object{{"text", E.Message.Message}}},
                       {"descriptor", json::Object{{"id", E.DiagnosticName}}}};
        if (!E.Message.FilePath.empty())
          N["locations"] = json::Array{location(E.Message, E.BuildDirectory)};
        Notifications.push_back(std::move(N));
        continue;
      }
      Results.push_back(result(E));
    }
    for (const FileReport &F : R.Files)
      for (const std::string &M : F.Messages) {
        bool Skipped = F.Status == "skipped";
        Notifications.push_back(json::Object{
            {"level", Skipped ? "note" : "error"},
            {"message", json::Object{{"text", M}}},
            {"locations",
             json::Array{json::Object{
                 {"physicalLocation", json::Object{{"artifactLocation", artifact(F.Path)}}}}}}});
      }

    json::Array Rules;
    for (const std::string &Id : RuleIds)
      Rules.push_back(rule(Id));
    json::Object Driver{{"name", "warp-tidy"},
                        {"version", R.ToolVersion},
                        {"semanticVersion", R.ToolVersion},
                        {"informationUri", informationUri()},
                        {"rules", std::move(Rules)}};
    json::Object Run{
        {"tool", json::Object{{"driver", std::move(Driver)}}},
        {"columnKind", "unicodeCodePoints"},
        {"results", std::move(Results)},
        {"invocations",
         json::Array{json::Object{{"executionSuccessful", !R.ToolErrors},
                                  {"toolExecutionNotifications", std::move(Notifications)}}}}};
    if (!Root.empty())
      Run["originalUriBaseIds"] =
          json::Object{{"SRCROOT", json::Object{{"uri", "file://" + percentEncode(Root)}}}};
    return json::Object{{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
                        {"version", "2.1.0"},
                        {"runs", json::Array{std::move(Run)}}};
  }

private:
  // In SARIF message text "[" and "]" start links; literal ones are escaped.
  static std::string escapeBrackets(StringRef Text) {
    std::string Out;
    for (char C : Text) {
      if (C == '[' || C == ']')
        Out += '\\';
      Out += C;
    }
    return Out;
  }

  std::string informationUri() const {
    // The project's home: the docs/checks/ base minus that suffix, and minus
    // a repository browser's "/blob/<branch>/" (github.com/o/r/blob/main/...).
    StringRef Base = R.HelpBase;
    if (!Base.consume_back("docs/checks/"))
      return R.HelpBase;
    size_t Blob = Base.find("/blob/");
    if (Blob != StringRef::npos)
      return Base.take_front(Blob).str();
    return Base.str();
  }

  unsigned ruleIndex(StringRef Id) {
    auto [It, Inserted] = RuleIndex.try_emplace(Id, RuleIds.size());
    if (Inserted)
      RuleIds.push_back(Id.str());
    return It->second;
  }

  json::Object rule(StringRef Id) {
    std::string Short, Full;
    bool Documented = checkDescription(Id, Short, Full);
    bool Compiler = Id.starts_with("clang-diagnostic-");
    if (!Documented) {
      if (Compiler)
        Short = "Clang compiler diagnostic -W" + Id.drop_front(17).str() + ".";
      else
        Short = "warp-tidy check " + Id.str() + ".";
      Full = Short;
    }
    json::Object O{{"id", Id},
                   {"name", Id},
                   {"shortDescription", json::Object{{"text", Short}}},
                   {"fullDescription", json::Object{{"text", Full}}},
                   {"defaultConfiguration", json::Object{{"level", "warning"}}}};
    // Code scanning shows help.markdown under each alert: the check's page.
    std::string Page = checkPage(Id);
    if (Documented) {
      std::string Uri = R.HelpBase.empty() ? "" : R.HelpBase + Id.drop_front(5).str() + ".md";
      if (!Uri.empty())
        O["helpUri"] = Uri;
      O["help"] =
          json::Object{{"text", Full + (Uri.empty() ? "" : " See " + Uri)}, {"markdown", Page}};
    }
    json::Array Tags{"cuda"};
    Tags.push_back(Compiler ? "compiler" : "correctness");
    if (!Compiler)
      Tags.push_back("warp-intrinsics");
    O["properties"] = json::Object{{"tags", std::move(Tags)},
                                   {"precision", Compiler ? "very-high" : "high"},
                                   {"problem.severity", "warning"}};
    return O;
  }

  json::Object artifact(StringRef AbsPath) {
    if (!Root.empty() && AbsPath.starts_with(Root))
      return json::Object{{"uri", percentEncode(AbsPath.drop_front(Root.size()))},
                          {"uriBaseId", "SRCROOT"}};
    return json::Object{{"uri", "file://" + percentEncode(AbsPath)}};
  }

  json::Object region(StringRef File, unsigned Offset) {
    Position P = Sources.position(File, Offset);
    return json::Object{{"startLine", P.Line}, {"startColumn", P.CodePointColumn}};
  }

  json::Object location(const DiagnosticMessage &M, StringRef BuildDir) {
    std::string File = absolutePath(M.FilePath, BuildDir);
    return json::Object{{"physicalLocation", json::Object{{"artifactLocation", artifact(File)},
                                                          {"region", region(File, M.FileOffset)}}}};
  }

  json::Array fixesOf(const DiagnosticMessage &M, StringRef BuildDir, StringRef Description) {
    json::Array Changes;
    for (const auto &Entry : M.Fix) {
      json::Array Replacements;
      std::string File;
      for (const clang::tooling::Replacement &Rep : Entry.second) {
        File = absolutePath(Rep.getFilePath(), BuildDir);
        Position Start = Sources.position(File, Rep.getOffset());
        Position End = Sources.position(File, Rep.getOffset() + Rep.getLength());
        json::Object Deleted{{"startLine", Start.Line},
                             {"startColumn", Start.CodePointColumn},
                             {"endLine", End.Line},
                             {"endColumn", End.CodePointColumn}};
        Replacements.push_back(
            json::Object{{"deletedRegion", std::move(Deleted)},
                         {"insertedContent", json::Object{{"text", Rep.getReplacementText()}}}});
      }
      if (!Replacements.empty())
        Changes.push_back(json::Object{{"artifactLocation", artifact(File)},
                                       {"replacements", std::move(Replacements)}});
    }
    json::Array Fixes;
    if (!Changes.empty())
      Fixes.push_back(json::Object{{"description", json::Object{{"text", Description.str()}}},
                                   {"artifactChanges", std::move(Changes)}});
    return Fixes;
  }

  json::Object result(const ClangTidyError &E) {
    json::Object O{{"ruleId", E.DiagnosticName},
                   {"ruleIndex", ruleIndex(E.DiagnosticName)},
                   {"level", levelName(E)},
                   {"message", json::Object{{"text", E.Message.Message}}}};
    if (!E.Message.FilePath.empty())
      O["locations"] = json::Array{location(E.Message, E.BuildDirectory)};
    O["partialFingerprints"] = json::Object{{"warpTidyFingerprint/v1", Fingerprint(E)}};
    std::vector<std::string> Archs = archsOfFinding(E.Message.Message);
    if (!Archs.empty())
      O["properties"] = json::Object{{"archs", json::Array(Archs)}};

    json::Array Related;
    json::Array Fixes =
        fixesOf(E.Message, E.BuildDirectory, "Apply the fix-it of " + E.DiagnosticName);
    // Viewers show a related location only when the message links to it
    // ("[text](id)", SARIF 3.11.6), so each note is linked from the text.
    std::string Text = escapeBrackets(E.Message.Message);
    unsigned Id = 0;
    for (const DiagnosticMessage &N : E.Notes) {
      if (!N.FilePath.empty()) {
        json::Object L = location(N, E.BuildDirectory);
        L["id"] = Id;
        L["message"] = json::Object{{"text", N.Message}};
        Related.push_back(std::move(L));
        Text += (Id ? "; " : " Notes: ") + std::string("[") + escapeBrackets(N.Message) + "](" +
                std::to_string(Id) + ")";
        ++Id;
      }
      for (json::Value &F : fixesOf(N, E.BuildDirectory, N.Message))
        Fixes.push_back(std::move(F));
    }
    O["message"] = json::Object{{"text", Text}};
    if (!Related.empty())
      O["relatedLocations"] = std::move(Related);
    if (!Fixes.empty())
      O["fixes"] = std::move(Fixes);
    return O;
  }

  const Report &R;
  Fingerprinter Fingerprint;
  std::string Root;
  SourceFiles Sources;
  std::vector<std::string> RuleIds;
  StringMap<unsigned> RuleIndex;
};
} // namespace

void writeSarifReport(const Report &R, raw_ostream &OS) {
  SarifWriter W(R);
  OS << formatv("{0:2}", W.write()) << "\n";
}

//===-- Fixes for the machine-readable formats ----------------------------===//

/// The fix-its of \p Errors by file, absolute paths; a fix-it is taken
/// whole (all its replacements or none) and only if it conflicts with none
/// taken before. \p Total gets the number found, \p Taken those taken.
static std::map<std::string, clang::tooling::Replacements>
selectFixIts(ArrayRef<ClangTidyError> Errors, bool AnyFix, unsigned &Total, unsigned &Taken) {
  std::map<std::string, clang::tooling::Replacements> ByFile;
  for (const ClangTidyError &E : Errors) {
    const StringMap<clang::tooling::Replacements> *Fix = clang::tidy::getFixIt(E, AnyFix);
    if (!Fix || Fix->empty())
      continue;
    ++Total;
    // All replacements of one fix-it or none of them.
    std::map<std::string, clang::tooling::Replacements> Trial = ByFile;
    bool Conflict = false;
    for (const auto &Entry : *Fix)
      for (const clang::tooling::Replacement &Rep : Entry.second) {
        std::string File = absolutePath(Rep.getFilePath(), E.BuildDirectory);
        clang::tooling::Replacement Abs(File, Rep.getOffset(), Rep.getLength(),
                                        Rep.getReplacementText());
        if (Error Err = Trial[File].add(Abs)) {
          consumeError(std::move(Err));
          Conflict = true;
        }
      }
    if (Conflict)
      continue;
    ByFile = std::move(Trial);
    ++Taken;
  }
  return ByFile;
}

/// \p Code with \p Reps applied, cleaned up around them and formatted in
/// \p Style unless \p StyleName is "none" (as clang-tidy: cleanup always, a
/// removed list item takes its comma; formatting only when asked for).
static Expected<std::string> fixedCode(StringRef Code, const clang::tooling::Replacements &Reps,
                                       const clang::format::FormatStyle &Style,
                                       StringRef StyleName) {
  clang::tooling::Replacements Final = Reps;
  Expected<clang::tooling::Replacements> Cleaned =
      clang::format::cleanupAroundReplacements(Code, Final, Style);
  if (Cleaned)
    Final = std::move(*Cleaned);
  else
    consumeError(Cleaned.takeError());
  if (StyleName != "none") {
    Expected<clang::tooling::Replacements> Formatted =
        clang::format::formatReplacements(Code, Final, Style);
    if (Formatted)
      Final = std::move(*Formatted);
    else
      consumeError(Formatted.takeError());
  }
  return clang::tooling::applyAllReplacements(Code, Final);
}

/// Rewrites \p File with \p Reps applied, in the style \p StyleFor gives
/// it; false (a message printed) on
/// failure.
static bool fixFile(const std::string &File, const clang::tooling::Replacements &Reps,
                    function_ref<std::string(StringRef File)> StyleFor) {
  auto Buffer = MemoryBuffer::getFile(File);
  if (!Buffer) {
    WithColor::error(errs(), "warp-tidy") << "cannot read '" << File << "' to apply fix-its\n";
    return false;
  }
  StringRef Code = (*Buffer)->getBuffer();
  std::string StyleName = StyleFor(File);
  Expected<clang::format::FormatStyle> Style =
      clang::format::getStyle(StyleName, File, "none", Code);
  if (!Style) {
    WithColor::error(errs(), "warp-tidy") << "invalid format style '" << StyleName << "' for '"
                                          << File << "': " << toString(Style.takeError()) << "\n";
    return false;
  }
  Expected<std::string> New = fixedCode(Code, Reps, *Style, StyleName);
  if (!New) {
    WithColor::error(errs(), "warp-tidy")
        << "cannot apply fix-its to '" << File << "': " << toString(New.takeError()) << "\n";
    return false;
  }
  if (Error Err = writeToOutput(File, [&](raw_ostream &OS) {
        OS << *New;
        return Error::success();
      })) {
    WithColor::error(errs(), "warp-tidy")
        << "cannot write '" << File << "': " << toString(std::move(Err)) << "\n";
    return false;
  }
  return true;
}

unsigned applyFixes(ArrayRef<ClangTidyError> Errors, bool AnyFix,
                    function_ref<std::string(StringRef File)> StyleFor, unsigned &Total,
                    bool &Failed) {
  unsigned Applied = 0;
  Total = 0;
  for (const auto &[File, Reps] : selectFixIts(Errors, AnyFix, Total, Applied))
    if (!fixFile(File, Reps, StyleFor))
      Failed = true;
  return Applied;
}

} // namespace warp_tidy
