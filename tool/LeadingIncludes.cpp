//===--- LeadingIncludes.cpp - The #include lines a CUDA unit starts with -===//

#include "LeadingIncludes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include <algorithm>
#include <optional>
#include <set>

using namespace llvm;

namespace warp_tidy {

namespace {

/// Skips spaces, tabs and comments within one line. A block comment that
/// runs past the line ends it too: \p Text is left at the comment's end.
/// Returns false for an unterminated block comment.
bool skipBlanks(StringRef &Text, bool &CrossedLine) {
  CrossedLine = false;
  for (;;) {
    Text = Text.ltrim(" \t\f\v\r");
    if (Text.starts_with("/*")) {
      size_t End = Text.find("*/", 2);
      if (End == StringRef::npos)
        return false;
      CrossedLine |= Text.take_front(End).contains('\n');
      Text = Text.drop_front(End + 2);
      continue;
    }
    if (Text.starts_with("\\\n") || Text.starts_with("\\\r\n"))
      return false; // A line continuation: not worth spelling out.
    return true;
  }
}

/// Nothing but blanks and a `//` comment (not continued) follow on the
/// line: \p Text is left at its newline (or end). False otherwise.
bool onlyCommentToLineEnd(StringRef &Text) {
  bool Crossed;
  if (!skipBlanks(Text, Crossed) || Crossed)
    return false;
  if (Text.empty() || Text.starts_with("\n"))
    return true;
  if (!Text.starts_with("//"))
    return false;
  size_t LineEnd = Text.find('\n');
  if (Text.take_front(LineEnd).rtrim("\r").ends_with("\\"))
    return false;
  Text = LineEnd == StringRef::npos ? StringRef() : Text.drop_front(LineEnd);
  return true;
}

} // namespace

namespace {

/// What one directive line of the leading block is.
enum class LineKind { Include, Define, Open, Branch, Close, Other };

/// One line of the leading block: its kind, its spelling (an #include in
/// one form; any other directive as written, blanks trimmed) and the offset
/// just past it.
struct DirectiveLine {
  LineKind Kind = LineKind::Other;
  std::string Spelling;
};

/// Reads the directive at the start of \p Text (just past its `#`) and the
/// rest of its line; \p Text is left at the line's newline (or end).
DirectiveLine readDirective(StringRef &Text) {
  DirectiveLine Line;
  bool Crossed;
  if (!skipBlanks(Text, Crossed) || Crossed)
    return Line;
  size_t NameEnd = Text.find_if_not([](char C) { return isAlnum(C) || C == '_'; });
  StringRef Name = Text.take_front(NameEnd);
  if (Name == "include") {
    Text = Text.drop_front(NameEnd);
    if (Text.empty() || !(Text.front() == ' ' || Text.front() == '\t' || Text.front() == '"' ||
                          Text.front() == '<' || Text.starts_with("/*")))
      return Line;
    if (!skipBlanks(Text, Crossed) || Crossed || Text.empty())
      return Line;
    char Close = Text.front() == '"' ? '"' : Text.front() == '<' ? '>' : 0;
    if (!Close)
      return Line; // `#include MACRO`: what it names is not known here.
    size_t End = Text.find_first_of(StringRef(&Close, 1), 1);
    size_t NL = Text.find('\n');
    if (End == StringRef::npos || (NL != StringRef::npos && End > NL))
      return Line;
    StringRef HeaderName = Text.slice(0, End + 1);
    Text = Text.drop_front(End + 1);
    if (!onlyCommentToLineEnd(Text))
      return Line;
    Line.Kind = LineKind::Include;
    Line.Spelling = "#include " + HeaderName.str();
    return Line;
  }
  // A #define, #undef or conditional is taken as written, on one line: no
  // continuation, no block comment (that could span lines).
  LineKind Kind = llvm::StringSwitch<LineKind>(Name)
                      .Cases({"define", "undef"}, LineKind::Define)
                      .Cases({"if", "ifdef", "ifndef"}, LineKind::Open)
                      .Cases({"elif", "elifdef", "elifndef", "else"}, LineKind::Branch)
                      .Case("endif", LineKind::Close)
                      .Default(LineKind::Other);
  if (Kind == LineKind::Other)
    return Line;
  size_t LineEnd = Text.find('\n');
  StringRef Rest = Text.take_front(LineEnd).rtrim(" \t\f\v\r");
  if (Rest.ends_with("\\") || Rest.contains("/*") || Rest.contains("*/"))
    return Line;
  Text = LineEnd == StringRef::npos ? StringRef() : Text.drop_front(LineEnd);
  Line.Kind = Kind;
  Line.Spelling = ("#" + Rest).str();
  return Line;
}

} // namespace

/// `using namespace A::B;` alone on its line (blanks and a trailing `//`
/// comment aside), spelled in one form; \p Text is left at the line's
/// newline. None for anything else.
static std::optional<std::string> readUsingNamespace(StringRef &Text) {
  StringRef Rest = Text;
  auto Word = [&](StringRef W) {
    bool Crossed;
    if (!skipBlanks(Rest, Crossed) || Crossed || !Rest.consume_front(W))
      return false;
    return Rest.empty() || !(isAlnum(Rest.front()) || Rest.front() == '_');
  };
  if (!Word("using") || !Word("namespace"))
    return std::nullopt;
  bool Crossed;
  if (!skipBlanks(Rest, Crossed) || Crossed)
    return std::nullopt;
  size_t NameEnd = Rest.find_if_not([](char C) { return isAlnum(C) || C == '_' || C == ':'; });
  StringRef Name = Rest.take_front(NameEnd);
  Rest = Rest.drop_front(NameEnd);
  if (Name.empty() || !Word(";") || !onlyCommentToLineEnd(Rest))
    return std::nullopt;
  Text = Rest;
  return ("using namespace " + Name + ";").str();
}

size_t balancedLineCount(const LeadingIncludeBlock &Block, size_t AtMost) {
  size_t Count = std::min(AtMost, Block.Lines.size());
  while (Count && !Block.Balanced[Count - 1])
    --Count;
  return Count;
}

/// The lines up to the last one where every conditional is closed: a
/// block cut inside a conditional would leave the unit's own parse in it.
static LeadingIncludeBlock balancedPrefix(LeadingIncludeBlock Lines) {
  size_t Keep = balancedLineCount(Lines, SIZE_MAX);
  Lines.Lines.resize(Keep);
  Lines.Ends.resize(Keep);
  Lines.Balanced.resize(Keep);
  Lines.BeforeConditional = std::min(Lines.BeforeConditional, Keep);
  return Lines;
}

LeadingIncludeBlock leadingIncludes(StringRef Source) {
  LeadingIncludeBlock Lines;
  StringRef Text = Source;
  if (Text.starts_with("\xEF\xBB\xBF"))
    Text = Text.drop_front(3);
  unsigned Depth = 0;
  // A line ends where Text now is (past its newline, if any).
  auto Record = [&](std::string Spelling) {
    Lines.Lines.push_back(std::move(Spelling));
    Lines.Ends.push_back(Source.size() - Text.size() + (Text.starts_with("\n") ? 1 : 0));
    Lines.Balanced.push_back(Depth == 0);
  };
  for (;;) {
    bool Crossed;
    if (!skipBlanks(Text, Crossed))
      return balancedPrefix(std::move(Lines));
    if (Text.empty())
      return balancedPrefix(std::move(Lines));
    if (Text.starts_with("\n")) {
      Text = Text.drop_front();
      continue;
    }
    if (Crossed && !Text.starts_with("\n"))
      return balancedPrefix(std::move(Lines)); // After a comment that spans lines.
    if (Text.starts_with("//")) {
      size_t NL = Text.find('\n');
      StringRef Comment = Text.take_front(NL);
      if (Comment.rtrim("\r").ends_with("\\"))
        return balancedPrefix(std::move(Lines));
      Text = NL == StringRef::npos ? StringRef() : Text.drop_front(NL + 1);
      continue;
    }
    if (!Text.starts_with("#")) {
      // `using namespace cub;` next to the #include it belongs to (ggml's
      // mean.cu, under the same #ifdef): a declaration that changes only
      // name lookup, as it would from a header. Any other code ends the
      // block.
      std::optional<std::string> Using = readUsingNamespace(Text);
      if (!Using)
        return balancedPrefix(std::move(Lines));
      Record(std::move(*Using));
      continue;
    }
    Text = Text.drop_front();
    DirectiveLine Line = readDirective(Text);
    if (Line.Kind == LineKind::Other)
      return balancedPrefix(std::move(Lines)); // #pragma, #include_next, #line, ...
    if ((Line.Kind == LineKind::Branch || Line.Kind == LineKind::Close) && !Depth)
      return balancedPrefix(std::move(Lines)); // Not opened in the block.
    if (Line.Kind == LineKind::Open || Line.Kind == LineKind::Branch ||
        Line.Kind == LineKind::Close)
      Lines.BeforeConditional = std::min(Lines.BeforeConditional, Lines.Lines.size());
    Depth += Line.Kind == LineKind::Open;
    Depth -= Line.Kind == LineKind::Close;
    Record(std::move(Line.Spelling));
  }
}

std::string leadingIncludesText(const std::vector<std::string> &Lines, size_t Count) {
  std::string Text;
  for (size_t I = 0; I < Lines.size() && I < Count; ++I)
    Text += Lines[I] + "\n";
  return Text;
}

std::vector<size_t> sharedLeadingLines(const std::vector<std::vector<std::string>> &Blocks,
                                       const std::vector<std::string> &Directories) {
  std::vector<size_t> Shared(Blocks.size(), 0);
  for (size_t A = 0; A < Blocks.size(); ++A)
    for (size_t B = 0; B < Blocks.size(); ++B) {
      if (A == B || Directories[A] != Directories[B])
        continue;
      size_t N = 0;
      while (N < Blocks[A].size() && N < Blocks[B].size() && Blocks[A][N] == Blocks[B][N])
        ++N;
      Shared[A] = std::max(Shared[A], N);
    }
  return Shared;
}

std::vector<size_t> pchLinesForRun(const std::vector<std::vector<std::string>> &Blocks,
                                   const std::vector<std::string> &Directories,
                                   const std::vector<bool> &SeenBefore,
                                   const std::vector<std::string> &Paths, size_t FullBlocks) {
  std::vector<size_t> Lines = sharedLeadingLines(Blocks, Directories);
  std::vector<size_t> Priority(Blocks.size());
  for (size_t U = 0; U < Priority.size(); ++U)
    Priority[U] = U;
  llvm::stable_sort(Priority, [&](size_t A, size_t B) { return Paths[A] < Paths[B]; });
  // A block is one PCH per directory and text: units with the same whole
  // block share it, and count once.
  std::set<std::pair<std::string, std::vector<std::string>>> Granted;
  for (size_t U : Priority) {
    if (!SeenBefore[U] || Lines[U] == Blocks[U].size())
      continue;
    auto Key = std::make_pair(Directories[U], Blocks[U]);
    if (!Granted.count(Key) && Granted.size() == FullBlocks)
      continue;
    Granted.insert(std::move(Key));
    Lines[U] = Blocks[U].size();
  }
  return Lines;
}

} // namespace warp_tidy
