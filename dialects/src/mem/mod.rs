pub fn dialect() -> crate::ir::Dialect {
    crate::ir::Dialect {
        name: "mem",
        summary: "",
        ops: vec![],
    }
}
