//! Instrumentation around each pass: IR dumps, verification, timing.

use std::path::PathBuf;
use std::time::Duration;

use futmlir_dialects::ir::{Context, OpId, PrintOptions};

/// What to do around each pass (the `futmlir opt` flags of the same names).
#[derive(Clone, Debug)]
pub struct Instrumentation {
    /// `--print-ir-after-all`: dump the IR to stderr after every pass.
    pub print_after_all: bool,
    /// `--print-ir-after-change`: dump only when the pass changed the IR.
    pub print_after_change: bool,
    /// `--print-ir-tree-dir=DIR`: one numbered file per pass in DIR.
    pub tree_dir: Option<PathBuf>,
    /// `--verify-each`: verify after every pass (default on in debug builds).
    pub verify_each: bool,
    /// `--roundtrip-each`: after every pass, print the IR, parse the text
    /// into a fresh context, verify it and print it again; the two texts
    /// must agree (default on in debug builds; Note [Round trip after
    /// each pass]).
    pub roundtrip_each: bool,
    /// `--timing`: collect wall time per pass.
    pub timing: bool,
    /// `futmlir build -v`: a line on the dump sink as each pass of the
    /// top-level pipeline (or nested pipeline, as a whole) ends, with its
    /// wall time, so that a long compile shows where it is.
    pub progress: bool,
    pub print: PrintOptions,
}

impl Default for Instrumentation {
    fn default() -> Self {
        Instrumentation {
            print_after_all: false,
            print_after_change: false,
            tree_dir: None,
            verify_each: env_flag("FUTMLIR_VERIFY_EACH").unwrap_or(cfg!(debug_assertions)),
            roundtrip_each: env_flag("FUTMLIR_ROUNDTRIP_EACH").unwrap_or(cfg!(debug_assertions)),
            timing: false,
            progress: false,
            print: PrintOptions::default(),
        }
    }
}

/// `FUTMLIR_VERIFY_EACH=1` (or `0`) and `FUTMLIR_ROUNDTRIP_EACH`: the
/// checks after every pass in any build, for the commands that take no
/// flags for them (`futmlir build`, `test`; the conformance script sets
/// both).
fn env_flag(name: &str) -> Option<bool> {
    match std::env::var(name).ok()?.as_str() {
        "1" | "true" => Some(true),
        "0" | "false" => Some(false),
        _ => None,
    }
}

// Note [Round trip after each pass]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// Every level's IR is meant to be read back: a researcher prints it
// (`--emit`, `--print-ir-after-all`), edits it and feeds it to `futmlir
// opt`. A pass can build IR that verifies but does not survive printing:
// a type that prints a value it does not keep, an attribute whose text
// the parser reads as another kind, an op whose pretty form loses an
// operand. So, in debug builds (every test of the workspace) and under
// `--roundtrip-each`, the IR after each pass is printed, in the generic
// form and in the pretty one, parsed into a fresh context with the same
// dialects, verified, and printed again: the texts must be equal. Values
// are numbered by their place in the text, so equal texts mean the
// parsed IR has the same structure. The generic form names sizes in
// types by that place, not by SSA name (Note [Sizes in types across
// mlir-opt]), so its round trip also checks that the IR would come back
// from upstream `mlir-opt`, which renames the values.

/// Print `root` in both forms, parse and verify each text in a fresh
/// context, print it again and compare (Note [Round trip after each
/// pass]); the error says what broke, with the first line that differs.
pub fn roundtrip(ctx: &Context, root: OpId) -> Result<(), String> {
    for opts in [PrintOptions::generic(), PrintOptions::default()] {
        let form = if opts.generic { "generic" } else { "pretty" };
        let text = ctx.print_op(root, opts);
        let mut fresh = ctx.fresh();
        let m = fresh
            .parse_str("printed IR", &text)
            .map_err(|d| format!("its {form} form does not parse: {}", d.to_plain(&fresh)))?;
        if let Err(ds) = fresh.verify(m) {
            let ds: Vec<String> = ds.iter().map(|d| d.to_plain(&fresh)).collect();
            return Err(format!("its {form} form, parsed, does not verify: {}", ds.join("\n")));
        }
        let again = fresh.print_op(m, opts);
        if again != text {
            let (line, (a, b)) = text
                .lines()
                .zip(again.lines())
                .enumerate()
                .find(|(_, (a, b))| a != b)
                .unwrap_or((text.lines().count().min(again.lines().count()), ("", "")));
            return Err(format!(
                "its {form} form prints differently once parsed, from line {}:\n  printed: {a}\n  parsed and printed again: {b}",
                line + 1
            ));
        }
    }
    Ok(())
}

/// Wall time of one pipeline element; nested pipelines have children.
#[derive(Clone, Debug, Default)]
pub struct TimingNode {
    pub name: String,
    pub time: Duration,
    pub children: Vec<TimingNode>,
}

impl TimingNode {
    /// A table in MLIR's style, nested passes indented under their pipeline.
    pub fn report(&self) -> String {
        let total = self.time.as_secs_f64();
        let mut out = String::new();
        out.push_str("===-------------------------------------------------------------------------===\n");
        out.push_str("                         ... Execution time report ...\n");
        out.push_str("===-------------------------------------------------------------------------===\n");
        out.push_str(&format!("  Total Execution Time: {total:.4} seconds\n\n"));
        out.push_str("  ----Wall Time----  ----Name----\n");
        for c in &self.children {
            c.rows(total, 0, &mut out);
        }
        out.push_str(&format!("  {total:>7.4} (100.0%)  Total\n"));
        out
    }

    fn rows(&self, total: f64, depth: usize, out: &mut String) {
        let t = self.time.as_secs_f64();
        let pct = if total > 0.0 { 100.0 * t / total } else { 0.0 };
        out.push_str(&format!(
            "  {t:>7.4} ({pct:>5.1}%)  {}{}\n",
            "  ".repeat(depth),
            self.name
        ));
        for c in &self.children {
            c.rows(total, depth + 1, out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::roundtrip;
    use futmlir_dialects::ir::Scalar;

    const MODULE: &str = r#"builtin.module() ({
  soac.func() {sym_name = "main", function_type = (i64, !fut.array<[?]i32>) -> i32, entry, size_params = 1 : i64} ({
  ^bb0(%0: i64, %1: [%0]i32):
    %2 = soac.constant() {value = 0 : i32} : () -> i32
    soac.return(%2) : (i32) -> ()
  }) : () -> ()
}) : () -> ()
"#;

    #[test]
    fn valid_ir_survives_printing() {
        let mut ctx = futmlir_dialects::context();
        let m = ctx.parse_str("m", MODULE).expect("parses");
        roundtrip(&ctx, m).expect("round trip");
    }

    #[test]
    fn ir_that_prints_to_other_ir_is_caught() {
        // An `i8` constant of 300, as a careless pass could build it,
        // prints as `300 : i8`, which does not read back as itself.
        let mut ctx = futmlir_dialects::context();
        let m = ctx.parse_str("m", MODULE).expect("parses");
        let mut konst = None;
        ctx.walk(m, &mut |o| {
            if ctx.op_name(o) == "soac.constant" {
                konst = Some(o);
            }
        });
        let konst = konst.expect("the constant");
        let bad = ctx.int_attr(300, Scalar::I8);
        let value = ctx.sym("value");
        ctx.set_attr(konst, value, bad);
        let e = roundtrip(&ctx, m).expect_err("caught");
        assert!(e.contains("generic form"), "{e}");
    }
}
