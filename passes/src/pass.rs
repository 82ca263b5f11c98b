//! The `Pass` trait and typed pass options.

use std::sync::Arc;

use futmlir_dialects::ir::{Context, Diagnostic, OpId};

use crate::egraph::RuleBook;

/// The type of a pass option, checked when a pipeline is parsed.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum OptionKind {
    Bool,
    UInt,
    Int,
    String,
    /// One of a fixed set of words.
    Enum(&'static [&'static str]),
}

impl OptionKind {
    pub fn describe(self) -> String {
        match self {
            OptionKind::Bool => "bool".into(),
            OptionKind::UInt => "unsigned integer".into(),
            OptionKind::Int => "integer".into(),
            OptionKind::String => "string".into(),
            OptionKind::Enum(ws) => format!("one of {}", ws.join("|")),
        }
    }
}

/// A declared option of a pass.
#[derive(Clone, Debug)]
pub struct OptionSpec {
    pub name: &'static str,
    pub kind: OptionKind,
    pub default: &'static str,
    pub help: &'static str,
}

/// A checked option value.
#[derive(Clone, Debug, PartialEq)]
pub enum OptionValue {
    Bool(bool),
    UInt(u64),
    Int(i64),
    String(String),
}

impl OptionValue {
    /// Parses `text` as a value of `kind`; the error says what was expected.
    pub fn parse(kind: OptionKind, text: &str) -> Result<OptionValue, String> {
        let bad = || format!("expected {}, found '{text}'", kind.describe());
        match kind {
            OptionKind::Bool => match text {
                "true" | "1" => Ok(OptionValue::Bool(true)),
                "false" | "0" => Ok(OptionValue::Bool(false)),
                _ => Err(bad()),
            },
            OptionKind::UInt => text.parse().map(OptionValue::UInt).map_err(|_| bad()),
            OptionKind::Int => text.parse().map(OptionValue::Int).map_err(|_| bad()),
            OptionKind::String => Ok(OptionValue::String(text.to_string())),
            OptionKind::Enum(ws) => {
                if ws.contains(&text) {
                    Ok(OptionValue::String(text.to_string()))
                } else {
                    Err(bad())
                }
            }
        }
    }
}

impl std::fmt::Display for OptionValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OptionValue::Bool(b) => write!(f, "{b}"),
            OptionValue::UInt(n) => write!(f, "{n}"),
            OptionValue::Int(n) => write!(f, "{n}"),
            OptionValue::String(s) => {
                if s.is_empty() || s.contains([',', '}', '{', ' ', '"']) {
                    write!(f, "\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
                } else {
                    write!(f, "{s}")
                }
            }
        }
    }
}

/// The values of every option of one pass instance, in declaration order.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    pub values: Vec<(&'static str, OptionValue)>,
}

impl Options {
    /// The defaults of `specs` (they are checked by the registry's tests).
    pub fn defaults(specs: &[OptionSpec]) -> Options {
        Options {
            values: specs
                .iter()
                .map(|s| {
                    let v = OptionValue::parse(s.kind, s.default)
                        .unwrap_or_else(|e| panic!("default of option '{}' is invalid: {e}", s.name));
                    (s.name, v)
                })
                .collect(),
        }
    }
    fn get(&self, name: &str) -> &OptionValue {
        &self
            .values
            .iter()
            .find(|(n, _)| *n == name)
            .unwrap_or_else(|| panic!("pass asked for undeclared option '{name}'"))
            .1
    }
    /// Sets option `name` (declared by the pass) to `v`.
    pub fn set(&mut self, name: &str, v: OptionValue) {
        match self.values.iter_mut().find(|(n, _)| *n == name) {
            Some(e) => e.1 = v,
            None => panic!("set of undeclared option '{name}'"),
        }
    }
    pub fn bool(&self, name: &str) -> bool {
        matches!(self.get(name), OptionValue::Bool(true))
    }
    pub fn uint(&self, name: &str) -> u64 {
        match self.get(name) {
            OptionValue::UInt(n) => *n,
            _ => 0,
        }
    }
    pub fn int(&self, name: &str) -> i64 {
        match self.get(name) {
            OptionValue::Int(n) => *n,
            _ => 0,
        }
    }
    pub fn string(&self, name: &str) -> &str {
        match self.get(name) {
            OptionValue::String(s) => s,
            _ => "",
        }
    }
}

/// The levels of the compile, in pipeline order (DESIGN.md): each pass
/// says which it reads and which it writes (Note [Pass levels]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    Source,
    Soac,
    Segop,
    Mem,
    Imp,
    /// Below imp the program is no longer futmlir IR but an artifact the
    /// conversions pass on (Note [Passes below imp]): upstream MLIR text,
    Mlir,
    /// LLVM IR,
    Llvm,
    /// the host object,
    Object,
    /// and the linked executable.
    Exe,
}

impl Level {
    /// Every level of futmlir IR: what a pass that works on any IR reads.
    pub const ALL: &'static [Level] = &[Level::Source, Level::Soac, Level::Segop, Level::Mem, Level::Imp];

    pub fn name(self) -> &'static str {
        match self {
            Level::Source => "source",
            Level::Soac => "soac",
            Level::Segop => "segop",
            Level::Mem => "mem",
            Level::Imp => "imp",
            Level::Mlir => "mlir",
            Level::Llvm => "llvm",
            Level::Object => "object",
            Level::Exe => "exe",
        }
    }

    /// Whether the program at this level is futmlir IR (in the
    /// [`Context`]), rather than an artifact below imp.
    pub fn is_ir(self) -> bool {
        self <= Level::Imp
    }
}

/// What the registry knows about a pass before an instance exists.
pub struct PassInfo {
    /// Kebab-case, prefixed by the dialect it works on (`ir-` for passes
    /// that work on any dialect).
    pub name: &'static str,
    pub description: &'static str,
    pub options: &'static [OptionSpec],
    /// The levels of IR the pass works on ([`Level::ALL`]: any).
    pub reads: &'static [Level],
    /// The level of its result: `None` for the level it read (a pass
    /// within a level), `Some` for a conversion.
    pub writes: Option<Level>,
    /// Makes an instance with the given options and the invocation's rule
    /// book (Note [Rule files at run time]). A closure rather than a `fn`,
    /// so that a pass loaded from a plugin can carry its plugin's entry
    /// points (Note [Pass plugins] in `plugin.rs`).
    pub create: &'static CreatePass,
}

impl PassInfo {
    /// Whether the pass works on an artifact below imp (it reads one, or
    /// makes one from imp IR) rather than on the IR: the IR checks and
    /// dumps after a pass do not apply to it (Note [Passes below imp]).
    pub fn below_imp(&self) -> bool {
        self.reads.iter().all(|l| !l.is_ir()) || self.writes.is_some_and(|w| !w.is_ir())
    }
}

/// What the passes below imp pass on (Note [Passes below imp]): each
/// knows its own type (the lowering crate's) and downcasts.
pub type Artifact = Option<Box<dyn std::any::Any>>;
/// How [`PassInfo::create`] makes a pass.
pub type CreatePass = dyn Fn(&Options, &Arc<RuleBook>) -> Box<dyn Pass> + Sync;

/// A transformation or analysis run on one operation (and what it holds).
pub trait Pass {
    /// Runs on `op`. An error stops the pipeline.
    fn run(&mut self, ctx: &mut Context, op: OpId) -> Result<(), Diagnostic>;

    /// Runs with the artifact of the passes below imp. Only those use it
    /// (they override this and leave [`Pass::run`] an error); the others
    /// run on the IR.
    fn run_with_artifact(&mut self, ctx: &mut Context, op: OpId, artifact: &mut Artifact) -> Result<(), Diagnostic> {
        let _ = artifact;
        self.run(ctx, op)
    }
}

// Note [Passes below imp]
// ~~~~~~~~~~~~~~~~~~~~~~~
// The compile is one pipeline from the soac level to the executable
// (`pipelines::compile`), so that `--pass-pipeline` can change any part
// of it and `--timing` times all of it. Below imp the program leaves
// futmlir's IR: it becomes upstream MLIR text (the host module, the
// kernels' module and the runtime's descriptor), then LLVM IR, a host
// object and an executable. These are the levels mlir, llvm, object and
// exe, and the passes between them are conversions like the others,
// registered by the lowering crate, with levels that the pipeline is
// checked against: `imp-to-mlir` (imp -> mlir), `mlir-to-ptx` (the
// kernels compiled, within mlir), `mlir-to-llvm` (mlir -> llvm),
// `llvm-to-object` and `object-to-exe` (object -> exe). What they pass on is an
// [`Artifact`] that the pass manager holds for them (`PassManager::
// artifact`): the IR stays in the context, untouched, and the driver
// reads the artifact when the pipeline ends (the MLIR text for
// `--emit=mlir`, the executable for `build`). The IR's verification,
// round trip and dumps after each pass skip these passes, which do not
// change the IR.
