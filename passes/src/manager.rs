//! The pass manager: runs a [`Pipeline`] on an op with [`Instrumentation`].

use std::io::Write;
use std::sync::Arc;
use std::time::Instant;

use futmlir_dialects::ir::{Context, Diagnostic, Location, OpId};

use crate::egraph::RuleBook;
use crate::instrument::{Instrumentation, TimingNode};
use crate::pass::{Artifact, Level};
use crate::pipeline::{Element, Pipeline};

/// The levels the IR under `root` may be at, by its ops (Note [Pass
/// levels]).
pub fn ir_levels(ctx: &Context, root: OpId) -> Vec<Level> {
    let (mut imp, mut mem, mut segop, mut source) = (false, false, false, false);
    ctx.walk(root, &mut |o| {
        let name = ctx.op_name(o);
        imp |= name.starts_with("imp.");
        mem |= name.starts_with("mem.");
        segop |= name.starts_with("segop.");
        source |= name.starts_with("source.");
    });
    if imp {
        vec![Level::Imp]
    } else if mem {
        vec![Level::Mem]
    } else if segop {
        vec![Level::Segop, Level::Mem]
    } else if source {
        vec![Level::Source]
    } else {
        vec![Level::Soac, Level::Segop, Level::Mem]
    }
}

pub struct PassManager {
    pub pipeline: Pipeline,
    pub instrumentation: Instrumentation,
    /// What the passes below imp pass on; the caller may put the first
    /// one's input here and takes the last one's output (Note [Passes
    /// below imp]).
    pub artifact: Artifact,
    /// The invocation's rule files, for the passes that rewrite with them
    /// (Note [Rule files at run time]).
    pub rules: Arc<RuleBook>,
    timing: TimingNode,
    dumps: usize,
    dump_sink: Box<dyn Write>,
}

impl PassManager {
    pub fn new(pipeline: Pipeline, instrumentation: Instrumentation, rules: Arc<RuleBook>) -> PassManager {
        let timing = skeleton("root", &pipeline);
        PassManager {
            pipeline,
            instrumentation,
            artifact: None,
            rules,
            timing,
            dumps: 0,
            dump_sink: Box::new(std::io::stderr()),
        }
    }

    /// Where `--print-ir-after-*` dumps go (stderr by default).
    pub fn set_dump_sink(&mut self, w: Box<dyn Write>) {
        self.dump_sink = w;
    }

    /// Runs the pipeline on `root`. On failure, the diagnostics say which
    /// pass failed and why.
    pub fn run(&mut self, ctx: &mut Context, root: OpId) -> Result<(), Vec<Diagnostic>> {
        if let Err(e) = self.pipeline.check_levels(&ir_levels(ctx, root)) {
            let help = e.help.map(|h| format!(" ({h})")).unwrap_or_default();
            return Err(vec![Diagnostic::error(
                Location::Unknown,
                format!("the pass pipeline does not fit the IR: {}{help}", e.message),
            )]);
        }
        let start = Instant::now();
        let pipeline = self.pipeline.clone();
        let mut timing = std::mem::take(&mut self.timing);
        let r = self.run_pipeline(ctx, root, root, &pipeline, &mut timing);
        timing.time += start.elapsed();
        self.timing = timing;
        r
    }

    pub fn timing(&self) -> &TimingNode {
        &self.timing
    }

    fn run_pipeline(
        &mut self,
        ctx: &mut Context,
        root: OpId,
        op: OpId,
        pipeline: &Pipeline,
        timing: &mut TimingNode,
    ) -> Result<(), Vec<Diagnostic>> {
        for (i, e) in pipeline.elements.iter().enumerate() {
            let t = &mut timing.children[i];
            match e {
                Element::Pass { info, options, .. } => {
                    let before = self
                        .wants_before_text()
                        .then(|| ctx.print_op(root, self.instrumentation.print));
                    let start = Instant::now();
                    let mut pass = (info.create)(options, &self.rules);
                    let result = pass.run_with_artifact(ctx, op, &mut self.artifact);
                    t.time += start.elapsed();
                    if let Err(d) = result {
                        let msg = format!("pass '{}' failed: {}", info.name, d.message);
                        return Err(vec![Diagnostic { message: msg, ..d }]);
                    }
                    if info.below_imp() {
                        // The IR did not change (Note [Passes below imp]).
                        if op == root {
                            self.progress(info.name, start.elapsed());
                        }
                        continue;
                    }
                    if self.instrumentation.verify_each {
                        if let Err(mut errs) = ctx.verify(root) {
                            errs.insert(
                                0,
                                Diagnostic::error(
                                    Location::Unknown,
                                    format!("pass '{}' produced invalid IR", info.name),
                                ),
                            );
                            return Err(errs);
                        }
                    }
                    if self.instrumentation.roundtrip_each {
                        if let Err(m) = crate::instrument::roundtrip(ctx, root) {
                            return Err(vec![Diagnostic::error(
                                Location::Unknown,
                                format!("pass '{}' produced IR that does not survive printing: {m}", info.name),
                            )]);
                        }
                    }
                    self.after_pass(ctx, root, info.name, before);
                    if op == root {
                        self.progress(info.name, start.elapsed());
                    }
                }
                Element::Nested { anchor, pipeline } => {
                    let start = Instant::now();
                    let targets: Vec<OpId> = if ctx.op_name(op) == anchor {
                        vec![op]
                    } else {
                        ctx.regions(op)
                            .iter()
                            .flat_map(|&r| ctx.blocks(r).iter().flat_map(|&b| ctx.block_ops(b)))
                            .filter(|&o| ctx.op_name(o) == anchor)
                            .collect()
                    };
                    for target in targets {
                        if ctx.is_alive(target) {
                            self.run_pipeline(ctx, root, target, pipeline, t)?;
                        }
                    }
                    t.time += start.elapsed();
                    if op == root {
                        self.progress(&format!("{anchor}({})", pipeline), start.elapsed());
                    }
                }
            }
        }
        Ok(())
    }

    /// The `-v` line of a top-level pipeline element that took `time`.
    fn progress(&mut self, what: &str, time: std::time::Duration) {
        if self.instrumentation.progress {
            let _ = writeln!(self.dump_sink, "  {:>9.3} ms  {what}", time.as_secs_f64() * 1e3);
        }
    }

    fn wants_before_text(&self) -> bool {
        self.instrumentation.print_after_change
    }

    fn after_pass(&mut self, ctx: &Context, root: OpId, name: &str, before: Option<String>) {
        let ins = &self.instrumentation;
        if !ins.print_after_all && !ins.print_after_change && ins.tree_dir.is_none() {
            return;
        }
        let text = ctx.print_op(root, ins.print);
        self.dumps += 1;
        let changed = before.as_deref() != Some(text.as_str());
        if ins.print_after_all || (ins.print_after_change && changed) {
            let _ = writeln!(self.dump_sink, "// -----// IR Dump After {name} //----- //\n{text}");
        }
        if let Some(dir) = &ins.tree_dir {
            let path = dir.join(format!("{:03}_{name}.mlir", self.dumps));
            let write = std::fs::create_dir_all(dir).and_then(|_| std::fs::write(&path, &text));
            if let Err(e) = write {
                let _ = writeln!(self.dump_sink, "warning: cannot write {}: {e}", path.display());
            }
        }
    }
}

/// A timing tree with one node per pipeline element.
fn skeleton(name: &str, p: &Pipeline) -> TimingNode {
    TimingNode {
        name: name.to_string(),
        time: Default::default(),
        children: p
            .elements
            .iter()
            .map(|e| match e {
                Element::Pass { info, .. } => TimingNode {
                    name: info.name.to_string(),
                    ..Default::default()
                },
                Element::Nested { anchor, pipeline } => skeleton(&format!("'{anchor}' Pipeline"), pipeline),
            })
            .collect(),
    }
}
