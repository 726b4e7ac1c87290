//===--- ChangedLines.cpp - The lines a change touched (--diff) -----------===//

#include "ChangedLines.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

using namespace llvm;

namespace warp_tidy {

std::vector<ChangedFile> parseUnifiedDiff(StringRef Diff, StringRef TopLevel) {
  std::vector<ChangedFile> Files;
  SmallVector<StringRef, 0> Lines;
  Diff.split(Lines, '\n');
  ChangedFile *Current = nullptr;
  for (StringRef Line : Lines) {
    if (Line.consume_front("+++ ")) {
      Current = nullptr;
      Line = Line.rtrim("\r\t ");
      if (Line == "/dev/null" || !Line.consume_front("b/"))
        continue; // A deleted file has no new lines.
      SmallString<256> Path(TopLevel);
      sys::path::append(Path, Line);
      Files.push_back({Path.str().str(), {}});
      Current = &Files.back();
      continue;
    }
    // "@@ -a[,b] +c[,d] @@": new lines c .. c+d-1 (d defaults to 1).
    if (!Current || !Line.consume_front("@@ "))
      continue;
    size_t Plus = Line.find(" +");
    if (Plus == StringRef::npos)
      continue;
    StringRef Range = Line.drop_front(Plus + 2).take_until([](char C) { return C == ' '; });
    auto [StartText, CountText] = Range.split(',');
    unsigned Start = 0, Count = 1;
    if (StartText.getAsInteger(10, Start) ||
        (!CountText.empty() && CountText.getAsInteger(10, Count)))
      continue;
    if (Count)
      Current->Lines.push_back({Start, Start + Count - 1});
  }
  return Files;
}

namespace {
// Runs git with \p Args, its stdout into \p Out.
bool runGit(ArrayRef<StringRef> Args, std::string &Out, std::string &Why) {
  ErrorOr<std::string> Git = sys::findProgramByName("git");
  if (!Git) {
    Why = "--diff needs git, which is not on PATH";
    return false;
  }
  SmallString<128> OutPath, ErrPath;
  if (sys::fs::createTemporaryFile("warp-tidy-git", "out", OutPath) ||
      sys::fs::createTemporaryFile("warp-tidy-git", "err", ErrPath)) {
    Why = "cannot create a temporary file for git's output";
    return false;
  }
  std::vector<StringRef> Argv = {*Git};
  Argv.insert(Argv.end(), Args.begin(), Args.end());
  std::optional<StringRef> Redirects[] = {StringRef(""), StringRef(OutPath), StringRef(ErrPath)};
  std::string Message;
  int RC = sys::ExecuteAndWait(*Git, Argv, std::nullopt, Redirects, 0, 0, &Message);
  auto Read = [](StringRef P) {
    auto B = MemoryBuffer::getFile(P);
    return B ? (*B)->getBuffer().str() : std::string();
  };
  Out = Read(OutPath);
  std::string Err = StringRef(Read(ErrPath)).trim().str();
  sys::fs::remove(OutPath);
  sys::fs::remove(ErrPath);
  if (RC != 0) {
    std::string Command = "git";
    for (StringRef A : Args)
      Command += " " + A.str();
    Why = "'" + Command + "' failed" + (Err.empty() ? Message : ": " + Err);
    return false;
  }
  return true;
}
} // namespace

bool changedLines(StringRef Revision, std::vector<ChangedFile> &Files, std::string &Why) {
  std::string TopLevel, Diff;
  if (!runGit({"rev-parse", "--show-toplevel"}, TopLevel, Why))
    return false;
  if (!runGit({"diff", "-U0", "--no-color", "--no-ext-diff", Revision, "--"}, Diff, Why))
    return false;
  Files = parseUnifiedDiff(Diff, StringRef(TopLevel).trim());
  return true;
}

std::string lineFilterJson(const std::vector<ChangedFile> &Files) {
  json::Array Filter;
  for (const ChangedFile &F : Files) {
    json::Array Ranges;
    for (const auto &[First, Last] : F.Lines)
      Ranges.push_back(json::Array{First, Last});
    if (!Ranges.empty())
      Filter.push_back(json::Object{{"name", F.Path}, {"lines", std::move(Ranges)}});
  }
  if (Filter.empty())
    Filter.push_back(
        json::Object{{"name", "\x01no changed lines"}, {"lines", json::Array{json::Array{1, 1}}}});
  std::string Text;
  raw_string_ostream(Text) << json::Value(std::move(Filter));
  return Text;
}

} // namespace warp_tidy
