//! The pass-manager flags that `futmlir opt`, `build`, `test`, `bench` and
//! `explore` share: the pipeline, pass plugins, rule files, IR dumps, checks
//! and timing (Note [Compile flags on every command]).

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
    /// Print MLIR's generic operation syntax instead of the pretty form
    /// (`futmlir build`: for `--emit` at an IR level and the IR dumps),
    /// which `mlir-opt --allow-unregistered-dialect` reads and whose
    /// output reads back.
    #[arg(long)]
    pub print_op_generic: bool,
}

// Note [Compile flags on every command]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A researcher who reorders passes wants to test and time the result, not
// only build it: `futmlir test` and `futmlir bench` take the flags of
// `futmlir build` (this struct, flattened into each command's arguments)
// and compile every program with them, `--pass-pipeline` included, so
// that `futmlir test tests/programs --backend=cpu --pass-pipeline=P`
// checks an ordering against every expected output. The interpreter
// backend compiles nothing, so it refuses these flags rather than ignore
// them. `--dump-pass-pipeline` prints the pipeline the command would use
// and stops, as `build`'s does. `futmlir explore` takes them too: its
// `--pass-pipeline` is the base pipeline the orderings go into, and
// `--dump-pass-pipeline` prints every ordering's pipeline.

impl PassFlags {
    /// The first compile flag given, if any (for a command that takes
    /// them but has nothing to compile).
    pub fn given(&self) -> Option<&'static str> {
        let d = PassFlags::default();
        [
            (self.pass_pipeline.is_some(), "--pass-pipeline"),
            (self.dump_pass_pipeline, "--dump-pass-pipeline"),
            (self.rules != d.rules, "--rules"),
            (self.rules_dir.is_some(), "--rules-dir"),
            (!self.load_pass_plugin.is_empty(), "--load-pass-plugin"),
            (self.print_ir_after_all, "--print-ir-after-all"),
            (self.print_ir_after_change, "--print-ir-after-change"),
            (self.print_ir_tree_dir.is_some(), "--print-ir-tree-dir"),
            (self.verify_each.is_some(), "--verify-each"),
            (self.roundtrip_each.is_some(), "--roundtrip-each"),
            (self.timing, "--timing"),
            (self.print_op_generic, "--print-op-generic"),
        ]
        .into_iter()
        .find_map(|(given, name)| given.then_some(name))
    }

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
            progress: false,
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
