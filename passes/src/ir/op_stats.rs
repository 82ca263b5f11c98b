//! `ir-op-stats`: print how many ops of each name the IR holds (to stderr).

use std::collections::BTreeMap;

use futmlir_dialects::ir::{Context, Diagnostic, OpId};

use crate::pass::{Level, OptionKind, OptionSpec, Options, Pass, PassInfo};

pub const INFO: PassInfo = PassInfo {
    name: "ir-op-stats",
    description: "Print the number of ops of each name (to stderr); the IR is unchanged",
    options: &[OptionSpec {
        name: "json",
        kind: OptionKind::Bool,
        default: "false",
        help: "print a JSON object",
    }],
    reads: Level::ALL,
    writes: None,
    create: &|o: &Options, _| Box::new(OpStats { json: o.bool("json") }),
};

struct OpStats {
    json: bool,
}

/// Counts of ops by name in `op` (itself included).
pub fn op_counts(ctx: &Context, op: OpId) -> BTreeMap<String, usize> {
    let mut counts = BTreeMap::new();
    *counts.entry(ctx.op_name(op).to_string()).or_insert(0) += 1;
    ctx.walk(op, &mut |o| *counts.entry(ctx.op_name(o).to_string()).or_insert(0) += 1);
    counts
}

impl Pass for OpStats {
    fn run(&mut self, ctx: &mut Context, op: OpId) -> Result<(), Diagnostic> {
        let counts = op_counts(ctx, op);
        if self.json {
            let body: Vec<String> = counts.iter().map(|(k, v)| format!("\"{k}\": {v}")).collect();
            eprintln!("{{{}}}", body.join(", "));
        } else {
            eprintln!("Operations encountered:\n-----------------------");
            for (k, v) in &counts {
                eprintln!("{k:>40} , {v}");
            }
        }
        Ok(())
    }
}
