pub fn dialect() -> crate::ir::Dialect {
    crate::ir::Dialect { name: "segop", summary: "", ops: vec![] }
}
