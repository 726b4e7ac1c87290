//===--- Baseline.cpp - Findings a project has accepted for now -----------===//

#include "Baseline.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace warp_tidy {

bool baselineIsSarif(StringRef Path) {
  return sys::path::extension(Path).equals_insensitive(".sarif");
}

bool loadBaseline(StringRef Path, StringSet<> &Fingerprints, std::string &Why) {
  auto Buffer = MemoryBuffer::getFile(Path);
  if (!Buffer) {
    Why = "cannot read --baseline '" + Path.str() + "': " + Buffer.getError().message() +
          " (create it with --update-baseline)";
    return false;
  }
  Expected<json::Value> Parsed = json::parse((*Buffer)->getBuffer());
  if (!Parsed) {
    Why = "--baseline '" + Path.str() + "' is not JSON: " + toString(Parsed.takeError());
    return false;
  }
  const json::Object *Doc = Parsed->getAsObject();
  const json::Array *Runs = Doc ? Doc->getArray("runs") : nullptr;
  const json::Array *Diagnostics = Doc ? Doc->getArray("diagnostics") : nullptr;
  if (Runs) {
    for (const json::Value &Run : *Runs)
      if (const json::Object *R = Run.getAsObject())
        if (const json::Array *Results = R->getArray("results"))
          for (const json::Value &Result : *Results)
            if (const json::Object *O = Result.getAsObject())
              if (const json::Object *FP = O->getObject("partialFingerprints"))
                if (std::optional<StringRef> V = FP->getString("warpTidyFingerprint/v1"))
                  Fingerprints.insert(*V);
    return true;
  }
  if (Diagnostics) {
    for (const json::Value &D : *Diagnostics)
      if (const json::Object *O = D.getAsObject())
        if (std::optional<StringRef> V = O->getString("fingerprint"))
          Fingerprints.insert(*V);
    return true;
  }
  Why = "--baseline '" + Path.str() +
        "' is neither a warp-tidy SARIF log nor a warp-tidy JSON report";
  return false;
}

} // namespace warp_tidy
