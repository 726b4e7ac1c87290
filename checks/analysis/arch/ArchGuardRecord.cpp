//===--- ArchGuardRecord.cpp - The arch guard map of a PCH's user headers -===//

#include "arch/ArchGuardRecord.h"
#include "arch/PchUserFiles.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"

using namespace clang;
using namespace llvm;

namespace warp_tidy {

namespace {

constexpr int64_t RecordFormat = 2;

/// Locations as [file index, offset] (null: invalid).
class LocationWriter {
public:
  explicit LocationWriter(const SourceManager &SM) : SM(SM) {}

  json::Value file(FileID F) {
    OptionalFileEntryRef Entry = SM.getFileEntryRefForID(F);
    if (!Entry) {
      Representable = false;
      return nullptr;
    }
    auto [It, New] = Index.try_emplace(Entry->getName(), Files.size());
    if (New) {
      Files.push_back(Entry->getName().str());
      FileOf.push_back(F);
    } else if (FileOf[It->second] != F) {
      Representable = false; // Entered twice: the offsets would be ambiguous.
    }
    return static_cast<int64_t>(It->second);
  }
  json::Value location(SourceLocation Loc) {
    if (Loc.isInvalid())
      return nullptr;
    if (!Loc.isFileID()) {
      Representable = false;
      return nullptr;
    }
    auto [F, Offset] = SM.getDecomposedLoc(Loc);
    return json::Array{file(F), static_cast<int64_t>(Offset)};
  }

  std::vector<std::string> Files;
  bool Representable = true;

private:
  const SourceManager &SM;
  StringMap<unsigned> Index;
  std::vector<FileID> FileOf;
};

/// Reads locations back, in the FileIDs the PCH's files have in \p SM.
class LocationReader {
public:
  LocationReader(const SourceManager &SM, std::vector<FileID> Files)
      : SM(SM), Files(std::move(Files)) {}

  bool file(const json::Value *V, FileID &Out) {
    std::optional<int64_t> I = V ? V->getAsInteger() : std::nullopt;
    if (!I || *I < 0 || static_cast<size_t>(*I) >= Files.size())
      return false;
    Out = Files[*I];
    return true;
  }
  bool location(const json::Value *V, SourceLocation &Out) {
    if (!V || V->kind() == json::Value::Null) {
      Out = SourceLocation();
      return true;
    }
    const json::Array *A = V->getAsArray();
    FileID F;
    std::optional<int64_t> Offset = A && A->size() == 2 ? (*A)[1].getAsInteger() : std::nullopt;
    if (!Offset || !file(&(*A)[0], F) || *Offset < 0 || *Offset > SM.getFileIDSize(F))
      return false;
    Out = SM.getComposedLoc(F, static_cast<unsigned>(*Offset));
    return true;
  }

private:
  const SourceManager &SM;
  std::vector<FileID> Files;
};

/// Bit i of a recorded mask is the record's arch i; bit j of the result is
/// \p To[j].
uint64_t translateMask(uint64_t Mask, ArrayRef<int> Position) {
  uint64_t Out = 0;
  for (unsigned J = 0; J < Position.size(); ++J)
    if (Mask >> Position[J] & 1)
      Out |= 1ull << J;
  return Out;
}

int64_t asInt(uint64_t Mask) { return static_cast<int64_t>(Mask); }

} // namespace

std::string guardRecordPath(StringRef Pch) { return (Pch + ".guards").str(); }

std::vector<unsigned> recordedArchs(ArrayRef<unsigned> Targets, unsigned Analysed) {
  // Every sm_XX clang 22 accepts (the `a`/`f` variants share the number).
  std::vector<unsigned> Archs = {20, 21, 30, 32, 35, 37, 50, 52,  53,  60,  61,  62,  70, 72,
                                 75, 80, 86, 87, 88, 89, 90, 100, 101, 103, 110, 120, 121};
  llvm::append_range(Archs, Targets);
  if (Analysed)
    Archs.push_back(Analysed);
  llvm::sort(Archs);
  Archs.erase(std::unique(Archs.begin(), Archs.end()), Archs.end());
  if (Archs.size() > 64)
    Archs.resize(64);
  return Archs;
}

std::optional<json::Value> guardRecordToJson(const ArchGuardMap &Map, const SourceManager &SM) {
  LocationWriter W(SM);
  json::Array Branches, Chains, Calls;
  for (const GuardBranch &B : Map.Branches)
    Branches.push_back(json::Object{{"file", W.file(B.File)},
                                    {"begin", static_cast<int64_t>(B.Begin)},
                                    {"end", static_cast<int64_t>(B.End)},
                                    {"definite", asInt(B.Own.Definite)},
                                    {"possible", asInt(B.Own.Possible)},
                                    {"chain", static_cast<int64_t>(B.Chain)},
                                    {"else", B.Else},
                                    {"compiled", B.Compiled},
                                    {"directive", W.location(B.DirectiveLoc)},
                                    {"condition", B.Condition}});
  for (const GuardChain &C : Map.Chains) {
    json::Array Members;
    for (unsigned I : C.Branches)
      Members.push_back(static_cast<int64_t>(I));
    Chains.push_back(json::Object{{"nvTarget", C.Kind == GuardKind::NvTarget},
                                  {"begin", W.location(C.Begin)},
                                  {"end", W.location(C.End)},
                                  {"hasElse", C.HasElse},
                                  {"branches", std::move(Members)}});
  }
  ArrayRef<WarpIntrinsic> Table = allWarpIntrinsics();
  for (const TextualCall &C : Map.Calls) {
    if (!C.Intrinsic || C.Intrinsic < Table.begin() || C.Intrinsic >= Table.end())
      return std::nullopt;
    json::Object O{{"loc", W.location(C.Loc)},
                   {"intrinsic", static_cast<int64_t>(C.Intrinsic - Table.begin())},
                   {"var", C.AssignedVar},
                   {"simple", C.SimpleReduction},
                   {"mask", C.MaskText},
                   {"stmtBegin", W.location(C.StmtBegin)},
                   {"stmtEnd", W.location(C.StmtEnd)},
                   {"ptx", C.PtxInstruction}};
    if (C.MaskValue)
      O["value"] = *C.MaskValue;
    Calls.push_back(std::move(O));
  }
  if (!W.Representable)
    return std::nullopt;
  json::Array Archs;
  for (unsigned A : Map.Archs)
    Archs.push_back(static_cast<int64_t>(A));
  json::Array Files;
  for (const std::string &F : W.Files)
    Files.push_back(F);
  return json::Object{{"format", RecordFormat},
                      {"archs", std::move(Archs)},
                      {"analysed", static_cast<int64_t>(Map.AnalysedArch)},
                      {"files", std::move(Files)},
                      {"branches", std::move(Branches)},
                      {"chains", std::move(Chains)},
                      {"calls", std::move(Calls)}};
}

bool importGuardRecord(const json::Value &Record, ArchGuardMap &Map, const SourceManager &SM,
                       std::string &Why) {
  auto Fail = [&](const Twine &Text) {
    Why = Text.str();
    return false;
  };
  const json::Object *O = Record.getAsObject();
  if (!O || O->getInteger("format") != RecordFormat)
    return Fail("unknown record format");
  const json::Array *Archs = O->getArray("archs");
  const json::Array *FileNames = O->getArray("files");
  const json::Array *Branches = O->getArray("branches");
  const json::Array *Chains = O->getArray("chains");
  const json::Array *Calls = O->getArray("calls");
  if (!Archs || !FileNames || !Branches || !Chains || !Calls)
    return Fail("malformed record");

  // Each arch of the map: its bit in the recorded masks.
  std::vector<int> Position;
  for (unsigned A : Map.Archs) {
    int Found = -1;
    for (unsigned I = 0; I < Archs->size(); ++I)
      if ((*Archs)[I].getAsInteger() == static_cast<int64_t>(A))
        Found = I;
    if (Found < 0)
      return Fail("sm_" + Twine(A) + " was not evaluated");
    Position.push_back(Found);
  }
  if (O->getInteger("analysed") != static_cast<int64_t>(Map.AnalysedArch))
    return Fail("recorded for another analysed arch");
  // NV_IF_TARGET arms are scanned as text by what the analysed arch's bit
  // says; a map without that arch decides otherwise.
  bool AnalysedKnown = llvm::is_contained(Map.Archs, Map.AnalysedArch);

  llvm::StringMap<llvm::SmallVector<FileID, 1>> Loaded = pchUserFiles(SM);
  std::vector<FileID> Files;
  for (const json::Value &Name : *FileNames) {
    std::optional<StringRef> N = Name.getAsString();
    auto It = N ? Loaded.find(*N) : Loaded.end();
    if (It == Loaded.end() || It->second.size() != 1)
      return Fail("the PCH does not hold '" + (N ? *N : StringRef("?")) + "' once");
    Files.push_back(It->second.front());
  }
  LocationReader R(SM, std::move(Files));

  std::vector<GuardBranch> NewBranches;
  for (const json::Value &V : *Branches) {
    const json::Object *B = V.getAsObject();
    GuardBranch G;
    std::optional<int64_t> Begin = B ? B->getInteger("begin") : std::nullopt,
                           End = B ? B->getInteger("end") : std::nullopt,
                           Definite = B ? B->getInteger("definite") : std::nullopt,
                           Possible = B ? B->getInteger("possible") : std::nullopt,
                           Chain = B ? B->getInteger("chain") : std::nullopt;
    std::optional<StringRef> Condition = B ? B->getString("condition") : std::nullopt;
    if (!B || !Begin || !End || !Definite || !Possible || !Chain || !Condition || *Chain < 0 ||
        static_cast<size_t>(*Chain) >= Chains->size() || !R.file(B->get("file"), G.File) ||
        !R.location(B->get("directive"), G.DirectiveLoc))
      return Fail("malformed branch");
    G.Begin = *Begin;
    G.End = *End;
    G.Own = {translateMask(*Definite, Position), translateMask(*Possible, Position)};
    G.Chain = *Chain;
    G.Else = B->getBoolean("else").value_or(false);
    G.Compiled = B->getBoolean("compiled").value_or(false);
    G.Condition = Condition->str();
    NewBranches.push_back(std::move(G));
  }
  std::vector<GuardChain> NewChains;
  for (const json::Value &V : *Chains) {
    const json::Object *C = V.getAsObject();
    const json::Array *Members = C ? C->getArray("branches") : nullptr;
    GuardChain G;
    if (!Members || !R.location(C->get("begin"), G.Begin) || !R.location(C->get("end"), G.End))
      return Fail("malformed chain");
    G.Kind =
        C->getBoolean("nvTarget").value_or(false) ? GuardKind::NvTarget : GuardKind::PreprocessorIf;
    if (G.Kind == GuardKind::NvTarget && !AnalysedKnown)
      return Fail("an NV_IF_TARGET chain, and the analysed arch is not asked about");
    G.HasElse = C->getBoolean("hasElse").value_or(false);
    for (const json::Value &M : *Members) {
      std::optional<int64_t> I = M.getAsInteger();
      if (!I || *I < 0 || static_cast<size_t>(*I) >= NewBranches.size())
        return Fail("malformed chain");
      G.Branches.push_back(*I);
    }
    NewChains.push_back(std::move(G));
  }
  ArrayRef<WarpIntrinsic> Table = allWarpIntrinsics();
  std::vector<TextualCall> NewCalls;
  for (const json::Value &V : *Calls) {
    const json::Object *C = V.getAsObject();
    // -1 when absent: one integer, not an optional GCC cannot follow.
    int64_t Intrinsic = C ? C->getInteger("intrinsic").value_or(-1) : -1;
    TextualCall T;
    if (Intrinsic < 0 || static_cast<size_t>(Intrinsic) >= Table.size() ||
        !R.location(C->get("loc"), T.Loc) || !R.location(C->get("stmtBegin"), T.StmtBegin) ||
        !R.location(C->get("stmtEnd"), T.StmtEnd))
      return Fail("malformed call");
    T.Intrinsic = &Table[Intrinsic];
    T.AssignedVar = C->getString("var").value_or("").str();
    T.SimpleReduction = C->getBoolean("simple").value_or(false);
    T.MaskText = C->getString("mask").value_or("").str();
    if (std::optional<int64_t> Value = C->getInteger("value"))
      T.MaskValue = *Value;
    T.PtxInstruction = C->getString("ptx").value_or("").str();
    NewCalls.push_back(std::move(T));
  }

  // What the parse recorded itself comes after: renumber its references.
  for (GuardBranch &B : Map.Branches)
    B.Chain += NewChains.size();
  for (GuardChain &C : Map.Chains)
    for (unsigned &I : C.Branches)
      I += NewBranches.size();
  Map.Branches.insert(Map.Branches.begin(), std::make_move_iterator(NewBranches.begin()),
                      std::make_move_iterator(NewBranches.end()));
  Map.Chains.insert(Map.Chains.begin(), std::make_move_iterator(NewChains.begin()),
                    std::make_move_iterator(NewChains.end()));
  Map.Calls.insert(Map.Calls.begin(), std::make_move_iterator(NewCalls.begin()),
                   std::make_move_iterator(NewCalls.end()));
  return true;
}

} // namespace warp_tidy
