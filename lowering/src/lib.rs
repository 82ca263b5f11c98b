//! Lowering from the futmlir dialects to upstream MLIR and LLVM.
pub fn versions() -> String {
    let c = melior::Context::new();
    format!("{}", c.registered_dialect_count())
}
