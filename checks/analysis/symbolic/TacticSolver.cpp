//===--- TacticSolver.cpp - Z3's default solver for an LLVM SMT query -----===//

#include "symbolic/TacticSolver.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/raw_ostream.h"
#include <string>

#if LLVM_WITH_Z3
#include <z3.h>
#endif

namespace warp_tidy {

#if LLVM_WITH_Z3

/// One context and solver for the prover's life; reset before each query.
struct TacticSolver::Impl {
  Z3_context Ctx;
  Z3_solver Solver;
  Z3_model Model = nullptr;

  Impl() {
    Z3_config Config = Z3_mk_config();
    Ctx = Z3_mk_context(Config);
    Z3_del_config(Config);
    // Errors (text that does not parse, a name of another sort) are read
    // from the error code; the default handler would end the process.
    Z3_set_error_handler(Ctx, nullptr);
    Solver = Z3_mk_solver(Ctx);
    Z3_solver_inc_ref(Ctx, Solver);
  }
  ~Impl() {
    dropModel();
    Z3_solver_dec_ref(Ctx, Solver);
    Z3_del_context(Ctx);
  }
  void dropModel() {
    if (Model)
      Z3_model_dec_ref(Ctx, Model);
    Model = nullptr;
  }
  bool failed() const { return Z3_get_error_code(Ctx) != Z3_OK; }

  void setLimits(unsigned RLimit, unsigned TimeoutMs) {
    Z3_params Params = Z3_mk_params(Ctx);
    Z3_params_inc_ref(Ctx, Params);
    Z3_params_set_uint(Ctx, Params, Z3_mk_string_symbol(Ctx, "rlimit"), RLimit);
    if (TimeoutMs)
      Z3_params_set_uint(Ctx, Params, Z3_mk_string_symbol(Ctx, "timeout"), TimeoutMs);
    Z3_solver_set_params(Ctx, Solver, Params);
    Z3_params_dec_ref(Ctx, Params);
  }
};

TacticSolver::TacticSolver() : Z(std::make_unique<Impl>()) {}
TacticSolver::~TacticSolver() = default;

std::optional<bool> TacticSolver::check(const llvm::SMTSolver &Query, unsigned RLimit,
                                        unsigned TimeoutMs) {
  Z->dropModel();
  Z3_solver_reset(Z->Ctx, Z->Solver);
  Z->setLimits(RLimit, TimeoutMs);
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  Query.print(OS);
  OS.flush();
  Z3_solver_from_string(Z->Ctx, Z->Solver, Text.c_str());
  if (Z->failed())
    return std::nullopt;
  Z3_lbool Result = Z3_solver_check(Z->Ctx, Z->Solver);
  if (Result == Z3_L_UNDEF || Z->failed())
    return std::nullopt;
  if (Result == Z3_L_FALSE)
    return false;
  Z->Model = Z3_solver_get_model(Z->Ctx, Z->Solver);
  if (Z->failed() || !Z->Model) {
    Z->Model = nullptr;
    return std::nullopt;
  }
  Z3_model_inc_ref(Z->Ctx, Z->Model);
  return true;
}

std::optional<uint64_t> TacticSolver::valueOf(llvm::StringRef Name, unsigned Width) {
  if (!Z->Model || Width == 0 || Width > 64)
    return std::nullopt;
  Z3_symbol Symbol = Z3_mk_string_symbol(Z->Ctx, Name.str().c_str());
  Z3_ast Constant = Z3_mk_const(Z->Ctx, Symbol, Z3_mk_bv_sort(Z->Ctx, Width));
  Z3_ast Value = nullptr;
  // Without completion: a constant the model does not fix has no value.
  if (!Z3_model_eval(Z->Ctx, Z->Model, Constant, /*model_completion=*/false, &Value) ||
      Z->failed() || !Value)
    return std::nullopt;
  uint64_t Out = 0;
  if (!Z3_is_numeral_ast(Z->Ctx, Value) || !Z3_get_numeral_uint64(Z->Ctx, Value, &Out))
    return std::nullopt;
  return Out;
}

#else

struct TacticSolver::Impl {};
TacticSolver::TacticSolver() : Z(std::make_unique<Impl>()) {}
TacticSolver::~TacticSolver() = default;
std::optional<bool> TacticSolver::check(const llvm::SMTSolver &, unsigned, unsigned) {
  return std::nullopt;
}
std::optional<uint64_t> TacticSolver::valueOf(llvm::StringRef, unsigned) { return std::nullopt; }

#endif

} // namespace warp_tidy
