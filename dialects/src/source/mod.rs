pub fn dialect() -> crate::ir::Dialect {
    crate::ir::Dialect { name: "source", summary: "", ops: vec![] }
}
