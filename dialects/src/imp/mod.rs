pub fn dialect() -> crate::ir::Dialect {
    crate::ir::Dialect {
        name: "imp",
        summary: "",
        ops: vec![],
    }
}
