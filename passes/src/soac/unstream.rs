//! `soac-unstream`: recovers the parallelism of streams by taking the
//! whole input as one chunk (thesis 7.3.2 and rule E4 of ch. 8).
//!
//! A `soac.stream_seq` or `soac.stream_par` over `n` rows is its chunk
//! lambda applied once, with chunk size `n`, the initial accumulators and
//! the whole input arrays: the SOACs in the lambda then run over all rows
//! in parallel. `soac-simplify` afterwards removes what only mattered
//! between chunks (a carry of zero added to a scan, the last row of a
//! chunk nobody reads).
//!
//! By default only streams outside any SOAC's lambda are unstreamed: a
//! stream inside a parallel map is better run sequentially there.

use futmlir_dialects::ir::{Context, Diagnostic, InsertPoint, OpId};

use super::analysis::{held_by, SOAC_OPS};
use crate::pass::{Level, OptionKind, OptionSpec, Options, Pass, PassInfo};

pub const INFO: PassInfo = PassInfo {
    name: "soac-unstream",
    description: "Turn streams into their chunk lambda over the whole input (one chunk), recovering parallelism",
    options: &[OptionSpec {
        name: "nested",
        kind: OptionKind::Bool,
        default: "false",
        help: "also unstream streams inside the lambdas of other SOACs",
    }],
    reads: &[Level::Soac],
    writes: None,
    create: &|o: &Options, _| {
        Box::new(Unstream {
            nested: o.bool("nested"),
        })
    },
};

struct Unstream {
    nested: bool,
}

const STREAMS: &[&str] = &["soac.stream_seq", "soac.stream_par"];

impl Pass for Unstream {
    fn run(&mut self, ctx: &mut Context, op: OpId) -> Result<(), Diagnostic> {
        // See Note [Unstreaming nested streams].
        loop {
            let mut streams = Vec::new();
            ctx.walk(op, &mut |o| {
                if STREAMS.contains(&ctx.op_name(o)) {
                    streams.push(o);
                }
            });
            let mut changed = false;
            for s in streams {
                if !ctx.is_alive(s) || (!self.nested && inside_parallel(ctx, s)) {
                    continue;
                }
                unstream(ctx, s);
                changed = true;
            }
            if !changed {
                return Ok(());
            }
        }
    }
}

// Note [Unstreaming nested streams]
// Unstreaming inlines a copy of the chunk lambda and erases the stream, so
// a stream nested in that lambda is erased with it and its copy is a new
// op that the walk before did not see. Rounds repeat until one unstreams
// nothing: a copied inner stream gets its turn (and is judged by where it
// now sits, outside the stream that held it). Each round removes at least
// one stream and makes none, so this ends. Outer streams still go first
// within a round (the walk's order), so an inner one is copied at most
// once per enclosing stream.

/// Whether a SOAC running its lambdas in parallel (every SOAC but a
/// sequential stream) holds `op`.
fn inside_parallel(ctx: &Context, op: OpId) -> bool {
    held_by(ctx, op, |name| SOAC_OPS.contains(&name) && name != "soac.stream_seq")
}

/// Replaces stream `s` by its chunk lambda's body, inlined before it with
/// the chunk size `n`, the initial accumulators and the whole arrays.
fn unstream(ctx: &mut Context, s: OpId) {
    let lambda = *ctx.regions(s).last().expect("a stream has a chunk lambda");
    let blk = ctx.blocks(lambda)[0];
    let args = ctx.operands(s).to_vec();
    let out = ctx.inline_block(blk, &args, InsertPoint::Before(s));
    ctx.replace_op(s, &out);
}
