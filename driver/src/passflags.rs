//! The pass-manager flags that `futmlir opt` and `futmlir build` share:
//! the pipeline, pass plugins, rule files, IR dumps, checks and timing.

use std::path::PathBuf;
use std::sync::Arc;

use futmlir_dialects::ir::PrintOptions;
use futmlir_passes::egraph::RuleBook;
use futmlir_passes::Instrumentation;

#[derive(clap::Args, Clone, Default)]
pub struct PassFlags {
    /// The passes to run, e.g. `ir-cse,ir-dce{max-iters=4}` (`futmlir
    /// build`: the whole compile down to the imp level; default: the
    /// target's pipeline, which `--dump-pass-pipeline` prints).
    #[arg(long, value_name = "PIPELINE")]
    pub pass_pipeline: Option<String>,
    /// Print the pipeline (every option spelled out) to stderr
    /// (`futmlir build`: only that, and stop).
    #[arg(long)]
    pub dump_pass_pipeline: bool,
    /// Load a rule file (rule sets for `soac-rewrite`, see
    /// rewrite-rules/README.md) after the built-in ones; may be given
    /// several times.
    #[arg(long = "rules", value_name = "FILE")]
    pub rules: Vec<String>,
    /// Read the built-in rule files (every `*.rules`) from DIR (default:
    /// $FUTMLIR_RULES_DIR, else the rewrite-rules/ futmlir was built from,
    /// else the copy compiled in).
    #[arg(long, value_name = "DIR")]
    pub rules_dir: Option<PathBuf>,
    /// Load passes from a pass plugin, a shared library (see
    /// examples/plugin-count-maps); they can then appear in the pipeline
    /// and in `--list-passes`. May be given several times.
    #[arg(long = "load-pass-plugin", value_name = "PATH")]
    pub load_pass_plugin: Vec<PathBuf>,
    /// Print the IR to stderr after every pass.
    #[arg(long)]
    pub print_ir_after_all: bool,
    /// Print the IR to stderr after every pass that changed it.
    #[arg(long)]
    pub print_ir_after_change: bool,
    /// Write the IR after every pass to DIR, one numbered file per pass.
    #[arg(long, value_name = "DIR")]
    pub print_ir_tree_dir: Option<PathBuf>,
    /// Verify the IR after every pass (default: on in debug builds).
    #[arg(long, value_name = "BOOL", num_args = 0..=1, default_missing_value = "true")]
    pub verify_each: Option<bool>,
    /// After every pass, print the IR, parse and verify it again, and
    /// check it prints the same (default: on in debug builds).
    #[arg(long, value_name = "BOOL", num_args = 0..=1, default_missing_value = "true")]
    pub roundtrip_each: Option<bool>,
    /// Print a table of wall time per pass to stderr.
    #[arg(long)]
    pub timing: bool,
}

impl PassFlags {
    /// The instrumentation these flags ask for (the checks default to
    /// [`Instrumentation::default`]'s: on in debug builds, or as the
    /// environment says).
    pub fn instrumentation(&self, print: PrintOptions) -> Instrumentation {
        let d = Instrumentation::default();
        Instrumentation {
            print_after_all: self.print_ir_after_all,
            print_after_change: self.print_ir_after_change,
            tree_dir: self.print_ir_tree_dir.clone(),
            verify_each: self.verify_each.unwrap_or(d.verify_each),
            roundtrip_each: self.roundtrip_each.unwrap_or(d.roundtrip_each),
            timing: self.timing,
            print,
        }
    }

    /// Loads the `--load-pass-plugin` libraries and registers their
    /// passes; this must come before the pipeline is parsed.
    pub fn load_plugins(&self) -> Result<(), String> {
        for path in &self.load_pass_plugin {
            futmlir_passes::plugin::load_plugin(path).map_err(|e| format!("error: {e}"))?;
        }
        Ok(())
    }

    /// The rule book of this invocation: the built-in rule files (from
    /// `--rules-dir`, Note [Rule files at run time]) and the `--rules`
    /// files; `Err`: the rendered report.
    pub fn rule_book(&self) -> Result<Arc<RuleBook>, String> {
        let mut book = RuleBook::load(self.rules_dir.as_deref()).map_err(|report| format!("{report:?}"))?;
        for path in &self.rules {
            std::fs::read_to_string(path)
                .map_err(|e| miette::miette!("cannot read rule file {path}: {e}"))
                .and_then(|text| book.add_file(path, &text))
                .map_err(|report| format!("{report:?}"))?;
        }
        Ok(Arc::new(book))
    }
}
