//===--- DiagnosticsSerialization.cpp - ClangTidyError <-> JSON -----------===//

#include "DiagnosticsSerialization.h"

using namespace llvm;
using clang::tidy::ClangTidyError;
using clang::tooling::Diagnostic;
using clang::tooling::DiagnosticMessage;
using clang::tooling::Replacement;

namespace warp_tidy {

static json::Object messageToJson(const DiagnosticMessage &M) {
  json::Array Fixes;
  for (const auto &Entry : M.Fix)
    for (const Replacement &R : Entry.second)
      Fixes.push_back(json::Object{{"file", R.getFilePath()},
                                   {"offset", R.getOffset()},
                                   {"length", R.getLength()},
                                   {"text", R.getReplacementText()}});
  json::Array Ranges;
  for (const clang::tooling::FileByteRange &R : M.Ranges)
    Ranges.push_back(
        json::Object{{"file", R.FilePath}, {"offset", R.FileOffset}, {"length", R.Length}});
  return json::Object{{"text", M.Message},
                      {"file", M.FilePath},
                      {"offset", M.FileOffset},
                      {"fixes", std::move(Fixes)},
                      {"ranges", std::move(Ranges)}};
}

static bool messageFromJson(const json::Value &V, DiagnosticMessage &M) {
  const json::Object *O = V.getAsObject();
  if (!O)
    return false;
  auto Text = O->getString("text");
  auto File = O->getString("file");
  auto Offset = O->getInteger("offset");
  if (!Text || !File || !Offset)
    return false;
  M.Message = Text->str();
  M.FilePath = File->str();
  M.FileOffset = static_cast<unsigned>(*Offset);
  if (const json::Array *Fixes = O->getArray("fixes"))
    for (const json::Value &F : *Fixes) {
      const json::Object *FO = F.getAsObject();
      if (!FO)
        return false;
      auto FFile = FO->getString("file");
      auto FOffset = FO->getInteger("offset");
      auto FLength = FO->getInteger("length");
      auto FText = FO->getString("text");
      if (!FFile || !FOffset || !FLength || !FText)
        return false;
      Replacement R(*FFile, static_cast<unsigned>(*FOffset), static_cast<unsigned>(*FLength),
                    *FText);
      if (Error E = M.Fix[R.getFilePath()].add(R))
        consumeError(std::move(E)); // Cannot happen for what we wrote.
    }
  if (const json::Array *Ranges = O->getArray("ranges"))
    for (const json::Value &R : *Ranges) {
      const json::Object *RO = R.getAsObject();
      if (!RO)
        return false;
      clang::tooling::FileByteRange Range;
      Range.FilePath = RO->getString("file").value_or("").str();
      Range.FileOffset = static_cast<unsigned>(RO->getInteger("offset").value_or(0));
      Range.Length = static_cast<unsigned>(RO->getInteger("length").value_or(0));
      M.Ranges.push_back(std::move(Range));
    }
  return true;
}

static StringRef levelName(Diagnostic::Level L) {
  switch (L) {
  case Diagnostic::Error:
    return "error";
  case Diagnostic::Remark:
    return "remark";
  case Diagnostic::Warning:
    break;
  }
  return "warning";
}

json::Array diagnosticsToJson(ArrayRef<ClangTidyError> Errors) {
  json::Array Result;
  for (const ClangTidyError &E : Errors) {
    json::Array Notes;
    for (const DiagnosticMessage &N : E.Notes)
      Notes.push_back(messageToJson(N));
    json::Array Aliases;
    for (const std::string &A : E.EnabledDiagnosticAliases)
      Aliases.push_back(A);
    Result.push_back(json::Object{{"name", E.DiagnosticName},
                                  {"level", levelName(E.DiagLevel)},
                                  {"buildDirectory", E.BuildDirectory},
                                  {"warningAsError", E.IsWarningAsError},
                                  {"aliases", std::move(Aliases)},
                                  {"message", messageToJson(E.Message)},
                                  {"notes", std::move(Notes)}});
  }
  return Result;
}

bool diagnosticsFromJson(const json::Value &Value, std::vector<ClangTidyError> &Out) {
  const json::Array *A = Value.getAsArray();
  if (!A)
    return false;
  for (const json::Value &V : *A) {
    const json::Object *O = V.getAsObject();
    if (!O)
      return false;
    auto Name = O->getString("name");
    auto Level = O->getString("level");
    if (!Name || !Level)
      return false;
    Diagnostic::Level L = *Level == "error"    ? Diagnostic::Error
                          : *Level == "remark" ? Diagnostic::Remark
                                               : Diagnostic::Warning;
    ClangTidyError E(*Name, L, O->getString("buildDirectory").value_or(""),
                     O->getBoolean("warningAsError").value_or(false));
    if (const json::Array *Aliases = O->getArray("aliases"))
      for (const json::Value &Alias : *Aliases)
        if (auto S = Alias.getAsString())
          E.EnabledDiagnosticAliases.push_back(S->str());
    const json::Value *Message = O->get("message");
    if (!Message || !messageFromJson(*Message, E.Message))
      return false;
    if (const json::Array *Notes = O->getArray("notes"))
      for (const json::Value &N : *Notes) {
        DiagnosticMessage M;
        if (!messageFromJson(N, M))
          return false;
        E.Notes.push_back(std::move(M));
      }
    Out.push_back(std::move(E));
  }
  return true;
}

} // namespace warp_tidy
