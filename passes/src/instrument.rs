//! Instrumentation around each pass: IR dumps, verification, timing.

use std::path::PathBuf;
use std::time::Duration;

use futmlir_dialects::ir::PrintOptions;

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
    /// `--timing`: collect wall time per pass.
    pub timing: bool,
    pub print: PrintOptions,
}

// `verify_each` follows the build profile, so in a release build this
// looks derivable to clippy.
#[allow(clippy::derivable_impls)]
impl Default for Instrumentation {
    fn default() -> Self {
        Instrumentation {
            print_after_all: false,
            print_after_change: false,
            tree_dir: None,
            verify_each: cfg!(debug_assertions),
            timing: false,
            print: PrintOptions::default(),
        }
    }
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
