//===--- ArchConditions.cpp - Evaluate #if conditions for any __CUDA_ARCH__ ===//
//
// Two steps, as in a real preprocessor: expand macros into a flat token list
// (handling `defined` first, so its operand is not expanded), then parse the
// list with precedence climbing. Values are int64_t; unsigned-ness only
// matters for comparisons of negative numbers, which arch conditions never
// rely on, so it is tracked coarsely.
//
//===----------------------------------------------------------------------===//

#include "arch/ArchConditions.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

namespace warp_tidy {

static constexpr llvm::StringLiteral CudaArchName = "__CUDA_ARCH__";

CondToken makeCondToken(llvm::StringRef Spelling, bool IsIdentifier, bool IsNumber) {
  CondToken T;
  T.Text = Spelling.str();
  if (IsIdentifier) {
    T.Kind = CondToken::Identifier;
    return T;
  }
  if (IsNumber) {
    std::string Digits;
    for (char C : Spelling)
      if (C != '\'')
        Digits += C;
    llvm::StringRef D(Digits);
    bool Unsigned = false;
    while (!D.empty() && llvm::StringRef("uUlLzZ").contains(D.back())) {
      if (D.back() == 'u' || D.back() == 'U')
        Unsigned = true;
      D = D.drop_back();
    }
    unsigned long long V = 0;
    // Radix 0 understands 0x / 0b / leading-0 octal like the preprocessor.
    if (!D.getAsInteger(0, V)) {
      T.Kind = CondToken::Number;
      T.Value = static_cast<int64_t>(V);
      T.IsUnsigned = Unsigned;
      return T;
    }
    T.Kind = CondToken::Other; // floating literal or malformed: not evaluable
    return T;
  }
  T.Kind = CondToken::Punct;
  return T;
}

std::vector<CondToken> lexConditionText(llvm::StringRef Text) {
  static const char *const Puncts[] = {"<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "##"};
  std::vector<CondToken> Out;
  size_t I = 0;
  while (I < Text.size()) {
    char C = Text[I];
    if (llvm::isSpace(C)) {
      ++I;
      continue;
    }
    if (Text.substr(I).starts_with("//"))
      break;
    if (Text.substr(I).starts_with("/*")) {
      size_t Close = Text.find("*/", I + 2);
      I = Close == llvm::StringRef::npos ? Text.size() : Close + 2;
      continue;
    }
    if (llvm::isAlpha(C) || C == '_') {
      size_t J = I;
      while (J < Text.size() && (llvm::isAlnum(Text[J]) || Text[J] == '_'))
        ++J;
      Out.push_back(makeCondToken(Text.slice(I, J), true, false));
      I = J;
      continue;
    }
    if (llvm::isDigit(C)) {
      size_t J = I;
      while (J < Text.size() && (llvm::isAlnum(Text[J]) || Text[J] == '\'' || Text[J] == '.'))
        ++J;
      Out.push_back(makeCondToken(Text.slice(I, J), false, true));
      I = J;
      continue;
    }
    bool Matched = false;
    for (const char *P : Puncts) {
      if (Text.substr(I).starts_with(P)) {
        Out.push_back(makeCondToken(P, false, false));
        I += 2;
        Matched = true;
        break;
      }
    }
    if (!Matched) {
      Out.push_back(makeCondToken(Text.substr(I, 1), false, false));
      ++I;
    }
  }
  return Out;
}

namespace {

bool isPunct(const CondToken &T, llvm::StringRef P) {
  return T.Kind == CondToken::Punct && T.Text == P;
}

CondToken number(int64_t V) {
  CondToken T;
  T.Kind = CondToken::Number;
  T.Value = V;
  T.Text = std::to_string(V);
  return T;
}

/// Macro expansion with a hide set of the macros being expanded, which is
/// enough for the non-recursive macros #if conditions use.
class Expander {
public:
  Expander(const MacroLookup &Macros, std::optional<unsigned> CudaArch, bool HandleDefined)
      : Macros(Macros), CudaArch(CudaArch), HandleDefined(HandleDefined) {}

  bool Failed = false;
  /// The expansion named a macro or query whose answer may depend on the
  /// architecture (see conditionReadsArch).
  bool ReadsArch = false;

  void expand(llvm::ArrayRef<CondToken> In, std::vector<CondToken> &Out, unsigned Depth = 0) {
    if (Depth > 64) {
      Failed = true;
      return;
    }
    for (size_t I = 0; I < In.size(); ++I) {
      const CondToken &T = In[I];
      if (T.Kind != CondToken::Identifier) {
        if (isPunct(T, "#") || isPunct(T, "##"))
          Failed = true; // stringising / pasting: not modelled
        Out.push_back(T);
        continue;
      }
      noteArchDependence(T.Text);
      if (HandleDefined && T.Text == "defined") {
        size_t J = I + 1;
        bool Paren = J < In.size() && isPunct(In[J], "(");
        if (Paren)
          ++J;
        if (J >= In.size() || In[J].Kind != CondToken::Identifier) {
          Failed = true;
          return;
        }
        noteArchDependence(In[J].Text);
        Out.push_back(number(isDefined(In[J].Text) ? 1 : 0));
        if (Paren) {
          if (J + 1 >= In.size() || !isPunct(In[J + 1], ")")) {
            Failed = true;
            return;
          }
          ++J;
        }
        I = J;
        continue;
      }
      if (T.Text == CudaArchName) {
        if (CudaArch)
          Out.push_back(number(*CudaArch));
        else
          Out.push_back(T); // undefined: an identifier, evaluates to 0
        continue;
      }
      if (T.Text.rfind("__has_", 0) == 0 || T.Text == "__is_target_arch" ||
          T.Text == "__building_module") {
        // Not modelled: an unknown operand (short-circuiting may still make
        // the whole condition known).
        CondToken Unknown;
        Unknown.Kind = CondToken::Other;
        Unknown.Text = T.Text;
        Out.push_back(Unknown);
        if (I + 1 < In.size() && isPunct(In[I + 1], "(")) {
          int Nest = 0;
          size_t J = I + 1;
          for (; J < In.size(); ++J) {
            if (isPunct(In[J], "("))
              ++Nest;
            else if (isPunct(In[J], ")") && --Nest == 0)
              break;
          }
          I = J;
        }
        continue;
      }
      const CondMacro *M = Hidden.count(T.Text) ? nullptr : Macros(T.Text);
      if (!M) {
        Out.push_back(T);
        continue;
      }
      if (!M->FunctionLike) {
        Hidden.insert(T.Text);
        expand(M->Body, Out, Depth + 1);
        Hidden.erase(T.Text);
        continue;
      }
      // Function-like: only an invocation when followed by '('.
      if (I + 1 >= In.size() || !isPunct(In[I + 1], "(")) {
        Out.push_back(T);
        continue;
      }
      std::vector<std::vector<CondToken>> Args(1);
      size_t J = I + 2;
      int Nest = 0;
      for (; J < In.size(); ++J) {
        if (isPunct(In[J], "(")) {
          ++Nest;
        } else if (isPunct(In[J], ")")) {
          if (Nest == 0)
            break;
          --Nest;
        } else if (isPunct(In[J], ",") && Nest == 0 &&
                   !(M->Variadic && Args.size() > M->Params.size())) {
          Args.emplace_back();
          continue;
        }
        Args.back().push_back(In[J]);
      }
      if (J >= In.size()) {
        Failed = true;
        return;
      }
      std::vector<CondToken> Substituted;
      for (const CondToken &B : M->Body) {
        if (B.Kind == CondToken::Identifier) {
          auto It = llvm::find(M->Params, B.Text);
          if (It != M->Params.end()) {
            size_t Index = It - M->Params.begin();
            if (Index < Args.size()) {
              // Arguments are fully expanded before substitution.
              std::vector<CondToken> Expanded;
              expand(Args[Index], Expanded, Depth + 1);
              llvm::append_range(Substituted, Expanded);
            }
            continue;
          }
        }
        Substituted.push_back(B);
      }
      Hidden.insert(T.Text);
      expand(Substituted, Out, Depth + 1);
      Hidden.erase(T.Text);
      I = J;
    }
  }

private:
  void noteArchDependence(llvm::StringRef Name) {
    ReadsArch |= Name.starts_with("__CUDA_ARCH") || Name == "__has_builtin" ||
                 Name == "__has_target_builtin" || Name.starts_with("__is_target_");
  }

  bool isDefined(llvm::StringRef Name) {
    if (Name == CudaArchName)
      return CudaArch.has_value();
    return Macros(Name) != nullptr;
  }

  const MacroLookup &Macros;
  std::optional<unsigned> CudaArch;
  bool HandleDefined;
  llvm::StringSet<> Hidden;
};

/// Precedence-climbing parser over expanded tokens. Unknown sub-results are
/// nullopt; && || and ?: short-circuit so an unknown operand on the side
/// that does not matter keeps the result known.
class Parser {
public:
  explicit Parser(llvm::ArrayRef<CondToken> T) : Toks(T) {}
  bool Error = false;

  std::optional<int64_t> parseAll() {
    std::optional<int64_t> V = parseConditional();
    if (Pos != Toks.size())
      Error = true;
    if (Error)
      return std::nullopt;
    return V;
  }

private:
  llvm::ArrayRef<CondToken> Toks;
  size_t Pos = 0;

  const CondToken *peek() const { return Pos < Toks.size() ? &Toks[Pos] : nullptr; }
  bool accept(llvm::StringRef P) {
    if (const CondToken *T = peek())
      if (isPunct(*T, P)) {
        ++Pos;
        return true;
      }
    return false;
  }

  std::optional<int64_t> parseConditional() {
    std::optional<int64_t> C = parseBinary(0);
    if (!accept("?"))
      return C;
    std::optional<int64_t> A = parseConditional();
    if (!accept(":")) {
      Error = true;
      return std::nullopt;
    }
    std::optional<int64_t> B = parseConditional();
    if (!C)
      return (A && B && *A == *B) ? A : std::nullopt;
    return *C ? A : B;
  }

  static int precedence(llvm::StringRef Op) {
    static const std::pair<const char *, int> Table[] = {
        {"||", 1}, {"&&", 2}, {"|", 3}, {"^", 4},  {"&", 5},  {"==", 6},
        {"!=", 6}, {"<", 7},  {">", 7}, {"<=", 7}, {">=", 7}, {"<<", 8},
        {">>", 8}, {"+", 9},  {"-", 9}, {"*", 10}, {"/", 10}, {"%", 10}};
    for (const auto &[Name, Prec] : Table)
      if (Op == Name)
        return Prec;
    return -1;
  }

  std::optional<int64_t> parseBinary(int MinPrec) {
    std::optional<int64_t> L = parseUnary();
    while (const CondToken *T = peek()) {
      if (T->Kind != CondToken::Punct)
        break;
      int Prec = precedence(T->Text);
      if (Prec < 0 || Prec < MinPrec)
        break;
      std::string Op = T->Text;
      ++Pos;
      std::optional<int64_t> R = parseBinary(Prec + 1);
      L = apply(Op, L, R);
    }
    return L;
  }

  std::optional<int64_t> apply(llvm::StringRef Op, std::optional<int64_t> L,
                               std::optional<int64_t> R) {
    if (Op == "&&") {
      if ((L && !*L) || (R && !*R))
        return 0;
      if (L && R)
        return 1;
      return std::nullopt;
    }
    if (Op == "||") {
      if ((L && *L) || (R && *R))
        return 1;
      if (L && R)
        return 0;
      return std::nullopt;
    }
    if (!L || !R)
      return std::nullopt;
    int64_t A = *L, B = *R;
    if (Op == "|")
      return A | B;
    if (Op == "^")
      return A ^ B;
    if (Op == "&")
      return A & B;
    if (Op == "==")
      return A == B;
    if (Op == "!=")
      return A != B;
    if (Op == "<")
      return A < B;
    if (Op == ">")
      return A > B;
    if (Op == "<=")
      return A <= B;
    if (Op == ">=")
      return A >= B;
    if (Op == "<<")
      return (B < 0 || B > 63) ? std::optional<int64_t>() : int64_t(uint64_t(A) << B);
    if (Op == ">>")
      return (B < 0 || B > 63) ? std::optional<int64_t>() : (A >> B);
    if (Op == "+")
      return A + B;
    if (Op == "-")
      return A - B;
    if (Op == "*")
      return A * B;
    if (Op == "/")
      return B == 0 ? std::optional<int64_t>() : A / B;
    if (Op == "%")
      return B == 0 ? std::optional<int64_t>() : A % B;
    return std::nullopt;
  }

  std::optional<int64_t> parseUnary() {
    if (accept("!")) {
      auto V = parseUnary();
      return V ? std::optional<int64_t>(!*V) : std::nullopt;
    }
    if (accept("-")) {
      auto V = parseUnary();
      return V ? std::optional<int64_t>(-*V) : std::nullopt;
    }
    if (accept("+"))
      return parseUnary();
    if (accept("~")) {
      auto V = parseUnary();
      return V ? std::optional<int64_t>(~*V) : std::nullopt;
    }
    if (accept("(")) {
      auto V = parseConditional();
      if (!accept(")"))
        Error = true;
      return V;
    }
    const CondToken *T = peek();
    if (!T) {
      Error = true;
      return std::nullopt;
    }
    ++Pos;
    if (T->Kind == CondToken::Number)
      return T->Value;
    if (T->Kind == CondToken::Other && !T->Text.empty() && T->Text[0] == '_')
      return std::nullopt; // an unmodelled __has_* query
    if (T->Kind == CondToken::Identifier) {
      if (T->Text == "true")
        return 1;
      // `false` and every identifier left after expansion are 0.
      return 0;
    }
    Error = true;
    return std::nullopt;
  }
};

} // namespace

std::optional<int64_t> evaluateCondition(llvm::ArrayRef<CondToken> Tokens,
                                         const MacroLookup &Macros,
                                         std::optional<unsigned> CudaArch) {
  Expander E(Macros, CudaArch, /*HandleDefined=*/true);
  std::vector<CondToken> Expanded;
  E.expand(Tokens, Expanded);
  if (E.Failed || Expanded.empty())
    return std::nullopt;
  Parser P(Expanded);
  return P.parseAll();
}

bool conditionReadsArch(llvm::ArrayRef<CondToken> Tokens, const MacroLookup &Macros) {
  // Any arch will do: what matters is which names the expansion reaches.
  Expander E(Macros, /*CudaArch=*/750, /*HandleDefined=*/true);
  std::vector<CondToken> Expanded;
  E.expand(Tokens, Expanded);
  return E.ReadsArch || E.Failed;
}

std::optional<int64_t> evaluateExpression(llvm::ArrayRef<CondToken> Tokens,
                                          const MacroLookup &Macros) {
  Expander E(Macros, std::nullopt, /*HandleDefined=*/false);
  std::vector<CondToken> Expanded;
  E.expand(Tokens, Expanded);
  if (E.Failed || Expanded.empty())
    return std::nullopt;
  // A C++ expression may name variables: those are not constants here,
  // unlike in #if where they would be 0.
  for (const CondToken &T : Expanded)
    if (T.Kind == CondToken::Identifier || T.Kind == CondToken::Other)
      return std::nullopt;
  Parser P(Expanded);
  return P.parseAll();
}

std::optional<bool> evaluateNvTarget(llvm::StringRef Condition, unsigned Arch) {
  Condition = Condition.trim();
  unsigned N = 0;
  if (Condition.consume_front("NV_PROVIDES_SM_"))
    return Condition.getAsInteger(10, N) ? std::nullopt : std::optional<bool>(Arch >= N);
  if (Condition.consume_front("NV_IS_EXACTLY_SM_"))
    return Condition.getAsInteger(10, N) ? std::nullopt : std::optional<bool>(Arch == N);
  if (Condition == "NV_IS_DEVICE" || Condition == "NV_ANY_TARGET")
    return true;
  if (Condition == "NV_IS_HOST" || Condition == "NV_NO_TARGET")
    return false;
  return std::nullopt;
}

} // namespace warp_tidy
