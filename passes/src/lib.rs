//! futmlir's passes and the machinery to run them.
//!
//! - [`pass`]: the `Pass` trait, `PassInfo` and typed options.
//! - [`registry`]: every pass within a level, one file each, in a folder
//!   named after the dialect or level it works on ([`ir`] holds the
//!   dialect-independent ones, [`soac`], [`segop`], [`mem`] and [`imp`]
//!   the others); the conversions between levels are the lowering
//!   crate's (and, below imp, the LLVM-linked codegen crate's), which
//!   register them.
//! - [`pipeline`]: pipeline text (`ir-cse,ir-dce{max-iters=8}`), parsing
//!   with caret errors, printing that parses back.
//! - [`pipelines`]: the default pipelines, with why each pass is where it is.
//! - [`manager`]: runs a pipeline; [`instrument`]: dumps, verify-each, timing.
//! - [`plugin`]: passes loaded from a shared library at run time
//!   (`--load-pass-plugin lib.so`) through the C ABI of
//!   `futmlir-plugin-abi`: the IR crosses as text, printed by the host and
//!   parsed back, so no Rust type crosses (Note [Pass plugins]);
//!   `examples/plugin-count-maps` is a plugin.
//! - [`egraph`]: rule files (`rewrite-rules/*.rules`) compiled into egg
//!   rewrites, and the term language they rewrite; the files are read when
//!   futmlir runs into one [`egraph::RuleBook`] per invocation, which the
//!   [`manager`] hands to each pass it creates (Note [Rule files at run
//!   time]).

pub mod egraph;
pub mod imp;
pub mod instrument;
pub mod ir;
pub mod manager;
pub mod mem;
pub mod pass;
pub mod pipeline;
pub mod pipelines;
pub mod plugin;
pub mod registry;
pub mod segop;
pub mod soac;

pub use instrument::Instrumentation;
pub use manager::PassManager;
pub use pass::{Artifact, Level, OptionKind, OptionSpec, OptionValue, Options, Pass, PassInfo};
pub use pipeline::{Pipeline, PipelineError};
