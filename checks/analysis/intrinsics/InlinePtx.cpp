//===--- InlinePtx.cpp - Warp collectives written as inline PTX -----------===//
//
// Instruction forms and target requirements follow the PTX ISA:
//   shfl.sync.{up,down,bfly,idx}.b32  d[|p], a, b, c, membermask;   sm_30+
//   vote.sync.{all,any,uni}.pred      d, {!}a, membermask;          sm_30+
//   vote.sync.ballot.b32              d, {!}a, membermask;          sm_30+
//   match.{any,all}.sync.{b32,b64}    d[|p], a, membermask;         sm_70+
//   redux.sync.{add,min,max,and,or,xor}.type  d, a, membermask;     sm_80+
//   bar.warp.sync                     membermask;                   sm_30+
//   activemask.b32                    d;                            sm_30+
// The minimum architectures are those of the equivalent intrinsics in the
// table (WarpIntrinsics.cpp), which match these.
//
//===----------------------------------------------------------------------===//

#include "intrinsics/InlinePtx.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MathExtras.h"

namespace warp_tidy {
namespace {

/// Skips whitespace and comments from \p I; returns the new position.
size_t skipBlank(llvm::StringRef T, size_t I) {
  while (I < T.size()) {
    if (llvm::isSpace(T[I])) {
      ++I;
    } else if (T.substr(I).starts_with("//")) {
      size_t End = T.find('\n', I);
      I = End == llvm::StringRef::npos ? T.size() : End + 1;
    } else if (T.substr(I).starts_with("/*")) {
      size_t End = T.find("*/", I + 2);
      I = End == llvm::StringRef::npos ? T.size() : End + 2;
    } else {
      break;
    }
  }
  return I;
}

/// End of the statement starting at \p I: the next ';' outside comments,
/// or the end of the template.
size_t statementEnd(llvm::StringRef T, size_t I) {
  while (I < T.size()) {
    if (T[I] == ';')
      return I;
    if (T.substr(I).starts_with("//") || T.substr(I).starts_with("/*")) {
      I = skipBlank(T, I);
      continue;
    }
    // GCC's `%%` (and `%;`-like escapes) never end a statement.
    if (T[I] == '%' && I + 1 < T.size()) {
      I += 2;
      continue;
    }
    ++I;
  }
  return T.size();
}

/// Blanks out comments (keeping every other character where it is, so
/// offsets stay those of the template) so operands can be split simply.
std::string withoutComments(llvm::StringRef T) {
  std::string Out = T.str();
  for (size_t I = 0; I < T.size();) {
    if (T.substr(I).starts_with("//") || T.substr(I).starts_with("/*")) {
      size_t End = T.substr(I).starts_with("//") ? T.find('\n', I) : T.find("*/", I + 2);
      End = End == llvm::StringRef::npos ? T.size() : End + (T[I + 1] == '*' ? 2 : 0);
      for (size_t J = I; J < End; ++J)
        Out[J] = ' ';
      I = End;
      continue;
    }
    ++I;
  }
  return Out;
}

/// A PTX integer literal: decimal, 0x hex, 0b binary or 0 octal, optionally
/// negative and with a `U` suffix.
std::optional<int64_t> parseInteger(llvm::StringRef Text) {
  Text = Text.trim();
  bool Negative = Text.consume_front("-");
  Text = Text.trim();
  if (Text.ends_with("U") || Text.ends_with("u"))
    Text = Text.drop_back();
  if (Text.empty() || !llvm::isDigit(Text[0]))
    return std::nullopt;
  unsigned Radix = 10;
  if (Text.size() > 1 && Text[0] == '0') {
    if (Text[1] == 'x' || Text[1] == 'X') {
      Radix = 16;
      Text = Text.drop_front(2);
    } else if (Text[1] == 'b' || Text[1] == 'B') {
      Radix = 2;
      Text = Text.drop_front(2);
    } else {
      Radix = 8;
      Text = Text.drop_front(1);
    }
  }
  uint64_t Value = 0;
  if (Text.empty() || Text.getAsInteger(Radix, Value))
    return std::nullopt;
  return Negative ? -static_cast<int64_t>(Value) : static_cast<int64_t>(Value);
}

/// Splits \p Text at commas outside brackets and braces.
llvm::SmallVector<std::string, 5> splitOperands(llvm::StringRef Text) {
  llvm::SmallVector<std::string, 5> Out;
  if (Text.trim().empty())
    return Out;
  int Depth = 0;
  std::string Current;
  for (char C : Text) {
    if (C == '[' || C == '{' || C == '(')
      ++Depth;
    else if (C == ']' || C == '}' || C == ')')
      --Depth;
    if (C == ',' && Depth == 0) {
      Out.push_back(llvm::StringRef(Current).trim().str());
      Current.clear();
      continue;
    }
    Current += C;
  }
  Out.push_back(llvm::StringRef(Current).trim().str());
  return Out;
}

class TemplateParser {
public:
  TemplateParser(llvm::StringRef Template, llvm::ArrayRef<std::string> Names)
      : T(Template), Names(Names) {}

  llvm::SmallVector<PtxCollective, 1> run() {
    size_t I = 0;
    while (true) {
      I = skipBlank(T, I);
      if (I >= T.size())
        break;
      // Scope braces and empty statements; `{` that opens an operand vector
      // only ever follows an opcode, inside a statement.
      if (T[I] == '{' || T[I] == '}' || T[I] == ';') {
        ++I;
        continue;
      }
      size_t End = statementEnd(T, I);
      statement(T.slice(I, End), I);
      I = End + 1;
    }
    return std::move(Found);
  }

private:
  void statement(llvm::StringRef S, size_t Start) {
    std::string Clean = withoutComments(S);
    llvm::StringRef Text = llvm::StringRef(Clean).trim();
    // A label: `name:` before the instruction.
    size_t Colon = Text.find(':');
    if (Colon != llvm::StringRef::npos) {
      llvm::StringRef Label = Text.take_front(Colon).trim();
      if (!Label.empty() && Label.find_first_of(" \t,@%") == llvm::StringRef::npos)
        Text = Text.drop_front(Colon + 1).ltrim();
    }
    bool Guarded = false;
    if (Text.starts_with("@")) {
      Guarded = true;
      size_t Space = Text.find_first_of(" \t\r\n");
      if (Space == llvm::StringRef::npos)
        return;
      Text = Text.drop_front(Space).ltrim();
    }
    if (Text.empty())
      return;
    size_t Offset = Start + static_cast<size_t>(Text.data() - Clean.data());
    size_t OpEnd = Text.find_first_of(" \t\r\n");
    llvm::StringRef Opcode = Text.take_front(OpEnd);
    llvm::StringRef Rest = OpEnd == llvm::StringRef::npos ? "" : Text.drop_front(OpEnd);
    llvm::SmallVector<llvm::StringRef, 6> Parts;
    Opcode.split(Parts, '.');
    if (Parts.empty() || Parts[0].empty())
      return;
    llvm::SmallVector<std::string, 5> Operands = splitOperands(Rest);

    if (Parts[0] == "mov" && Operands.size() == 2) {
      remember(Operands[0], Operands[1]);
      return;
    }
    std::optional<PtxCollective> C = collective(Parts, Opcode, Operands);
    // Any other instruction writing a local register makes it unknown, but
    // one written by activemask is known to hold that instant's active lanes.
    if (!Operands.empty())
      forget(Operands[0]);
    if (C && C->Equivalent->Kind == CollectiveKind::ActiveMask && C->Destination &&
        C->Destination->Kind == PtxOperand::Register) {
      PtxOperand Active = *C->Destination;
      Active.FromActivemask = true;
      Locals[Active.Text] = Active;
    }
    if (!C)
      return;
    C->Guarded = Guarded;
    C->Offset = Offset;
    Found.push_back(std::move(*C));
  }

  static bool has(llvm::ArrayRef<llvm::StringRef> Parts, llvm::StringRef Modifier) {
    return llvm::is_contained(Parts.drop_front(), Modifier);
  }

  std::optional<PtxCollective> collective(llvm::ArrayRef<llvm::StringRef> Parts,
                                          llvm::StringRef Opcode, llvm::ArrayRef<std::string> Ops) {
    llvm::StringRef Base = Parts[0];
    const char *Name = nullptr;
    enum Shape { Shuffle, DestValueMask, MaskOnly, DestOnly } Form = DestValueMask;
    if (Base == "shfl" && has(Parts, "sync")) {
      Form = Shuffle;
      if (has(Parts, "up"))
        Name = "__shfl_up_sync";
      else if (has(Parts, "down"))
        Name = "__shfl_down_sync";
      else if (has(Parts, "bfly"))
        Name = "__shfl_xor_sync";
      else if (has(Parts, "idx"))
        Name = "__shfl_sync";
    } else if (Base == "vote" && has(Parts, "sync")) {
      if (has(Parts, "ballot"))
        Name = "__ballot_sync";
      else if (has(Parts, "all"))
        Name = "__all_sync";
      else if (has(Parts, "any"))
        Name = "__any_sync";
      else if (has(Parts, "uni"))
        Name = "__uni_sync";
    } else if (Base == "match" && has(Parts, "sync")) {
      if (has(Parts, "any"))
        Name = "__match_any_sync";
      else if (has(Parts, "all"))
        Name = "__match_all_sync";
    } else if (Base == "redux" && has(Parts, "sync")) {
      for (auto [Op, Intrinsic] :
           {std::pair<const char *, const char *>{"add", "__reduce_add_sync"},
            {"min", "__reduce_min_sync"},
            {"max", "__reduce_max_sync"},
            {"and", "__reduce_and_sync"},
            {"or", "__reduce_or_sync"},
            {"xor", "__reduce_xor_sync"}})
        if (has(Parts, Op))
          Name = Intrinsic;
    } else if (Base == "bar" && has(Parts, "warp") && has(Parts, "sync")) {
      Form = MaskOnly;
      Name = "__syncwarp";
    } else if (Base == "activemask") {
      Form = DestOnly;
      Name = "__activemask";
    }
    if (!Name)
      return std::nullopt;
    static const size_t Arity[] = {5, 3, 1, 1};
    if (Ops.size() != Arity[Form])
      return std::nullopt;
    PtxCollective C;
    C.Instruction = Opcode.str();
    C.Equivalent = lookupWarpIntrinsic(Name);
    switch (Form) {
    case Shuffle:
      C.Destination = operand(Ops[0]);
      C.Value = operand(Ops[1]);
      C.LaneOrDelta = operand(Ops[2]);
      C.Control = operand(Ops[3]);
      C.Mask = operand(Ops[4]);
      break;
    case DestValueMask:
      C.Destination = operand(Ops[0]);
      C.Value = operand(Ops[1]);
      C.Mask = operand(Ops[2]);
      break;
    case MaskOnly:
      C.Mask = operand(Ops[0]);
      break;
    case DestOnly:
      C.Destination = operand(Ops[0]);
      break;
    }
    return C;
  }

  /// Reads one operand; a local register set by `mov` earlier stands for
  /// what was moved into it.
  PtxOperand operand(llvm::StringRef Text) {
    PtxOperand Op;
    Text = Text.trim();
    // `d|p`: the predicate is a second destination.
    Text = Text.take_front(Text.find('|')).trim();
    if (Text.consume_front("!")) {
      Op.Negated = true;
      Text = Text.ltrim();
    }
    Op.Text = Text.str();
    if (Text.starts_with("%")) {
      llvm::StringRef Ref = Text.drop_front();
      unsigned Index;
      if (Ref.starts_with("[") && Ref.ends_with("]")) {
        llvm::StringRef Name = Ref.drop_front().drop_back().trim();
        for (unsigned I = 0; I < Names.size(); ++I)
          if (!Name.empty() && Names[I] == Name) {
            Op.Kind = PtxOperand::AsmOperand;
            Op.AsmIndex = I;
            return Op;
          }
        return Op;
      }
      if (!Ref.empty() && llvm::isDigit(Ref[0]) && !Ref.getAsInteger(10, Index)) {
        Op.Kind = PtxOperand::AsmOperand;
        Op.AsmIndex = Index;
        return Op;
      }
      // `%%laneid`: GCC's escape for a literal `%`, a PTX special register.
      if (Ref.starts_with("%"))
        Op.Text = Ref.str();
    }
    if (std::optional<int64_t> V = parseInteger(Text)) {
      Op.Kind = PtxOperand::Immediate;
      Op.Value = *V;
      return Op;
    }
    auto Known = Locals.find(Op.Text);
    if (Known != Locals.end()) {
      PtxOperand Moved = Known->second;
      Moved.Negated = Op.Negated;
      return Moved;
    }
    return Op;
  }

  void remember(llvm::StringRef Dest, llvm::StringRef Source) {
    PtxOperand D = operand(Dest);
    if (D.Kind != PtxOperand::Register)
      return;
    PtxOperand S = operand(Source);
    if (S.Kind == PtxOperand::Register || S.Negated)
      Locals.erase(D.Text);
    else
      Locals[D.Text] = S;
  }

  void forget(llvm::StringRef Dest) {
    llvm::StringRef Text = llvm::StringRef(Dest).trim();
    Text = Text.take_front(Text.find('|')).trim();
    Locals.erase(Text);
  }

  llvm::StringRef T;
  llvm::ArrayRef<std::string> Names;
  llvm::StringMap<PtxOperand> Locals;
  llvm::SmallVector<PtxCollective, 1> Found;
};

} // namespace

llvm::SmallVector<PtxCollective, 1>
parseInlinePtxCollectives(llvm::StringRef Template, llvm::ArrayRef<std::string> OperandNames) {
  // Cheap rejection: every collective's opcode contains one of these.
  if (!Template.contains("sync") && !Template.contains("activemask"))
    return {};
  return TemplateParser(Template, OperandNames).run();
}

std::optional<unsigned> shuffleWidthFromControl(uint64_t Control) {
  unsigned Width = 32 - shuffleSegmentMask(Control);
  if (!llvm::isPowerOf2_32(Width))
    return std::nullopt;
  return Width;
}

} // namespace warp_tidy
