//! The `builtin` dialect: the top-level `builtin.module`.

use super::{Dialect, OpDef, OpView, Traits};

fn verify_module(v: &OpView) -> Result<(), String> {
    v.expect_operands(0)?;
    v.expect_results(0)?;
    v.expect_regions(1)?;
    let args = v.single_block_args(0)?;
    if !args.is_empty() {
        return Err("body block must have no arguments".into());
    }
    Ok(())
}

pub fn dialect() -> Dialect {
    Dialect {
        name: "builtin",
        summary: "The top-level container of a compilation unit.",
        ops: vec![OpDef {
            name: "builtin.module",
            summary: "A module: one region with one block holding top-level ops.",
            description: r#"The root of every IR file. Text without a module is wrapped in one.

```mlir
"builtin.module"() ({
  "soac.func"() ({ ... }) {sym_name = "main", function_type = (i32) -> i32} : () -> ()
}) : () -> ()
```"#,
            traits: Traits::ISOLATED_FROM_ABOVE | Traits::SYMBOL_TABLE,
            verify: verify_module,
        }],
    }
}
