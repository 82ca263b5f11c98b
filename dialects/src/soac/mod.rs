//! The `soac` dialect: Futhark's core language (thesis Fig. 26/49).
//!
//! First-order, monomorphic and tuple-free: arrays of tuples are tuples of
//! arrays, and every size is explicit. Second-order array combinators
//! (SOACs) take the outer size `n : i64` as their first operand and their
//! lambdas as regions. The scalar ops (`binop`, `cmpop`, `unop`, `convop`,
//! `select`, `constant`) are shared with the lower levels, which mix them
//! into their own regions as MLIR dialects mix.
//!
//! - [`ops`]: the op definitions, each with an example.
//! - [`verify`]: their verifiers; the shared scalar, control-flow and
//!   indexing verifiers are used by `source` too.
//! - [`acc_stream`]: the stream an accumulator belongs to (Note
//!   [Accumulator ops]).

pub mod ops;
pub mod verify;

use crate::ir::{AttrKind, Context, Dialect, OpId, Value, ValueDef};

// Note [Accumulator ops]
// Futhark's accumulators (Note [Accumulators] in the frontend's
// `check::builtins`) are, in this dialect, two stream ops and a write:
//
//   %r = soac.scatter_stream(%n, %dest, %bs...) ({ ^bb0(%acc, %b...): ... })
//   %r = soac.hist_stream(%n, %dest, %ne, %bs...) ({ op }, { ^bb0(%acc, %b...): ... })
//   %acc2 = soac.acc_write(%acc, %i, %v)
//
// The accumulator has the destination's array type: there is no
// accumulator type (Futhark's `withacc` has one, and a certificate tying
// each write to its `withacc`). What ties a write to its stream here is
// the accumulator's data flow, which uniqueness makes linear: the lambda's
// first argument, then what writes, `for`/`while` loops (as a merge
// parameter) and branches make of it, up to the yield ([`acc_stream`]
// follows it back). So a write needs no operator of its own, and the
// operator of `hist_stream` is in one place. Futhark's `withacc` form (an
// accumulator as an input of any SOAC) is more general; the stream form
// is what the source language has, and what a pass making adjoint
// scatters needs. An accumulator must not reach a function call that
// stays (`#[noinline]`, recursion): lowering rejects a write it cannot
// tie to a stream.
//
// The ops are not pure: the writes are their effect, and a write is
// neither hoisted out of its stream's lambda, nor merged with another,
// nor dropped while its result is used. `soac-simplify` drops writes of
// a `hist_stream`'s neutral element and streams that write nothing (Note
// [Simplifying accumulators]). `soac-to-segop` makes a stream whose
// writes are a fixed chain a scatter or histograms (Note [Accumulators
// as scatter and hist]), any other a loop over its rows with the writes
// as guarded in-place updates (Note [Sequential accumulators]).

/// The accumulator stream (`soac.scatter_stream` or `soac.hist_stream`)
/// whose accumulator `v` is, following it back through writes, loops and
/// branches (Note [Accumulator ops]); `None` where it comes from anything
/// else (a function parameter, a call).
pub fn acc_stream(ctx: &Context, mut v: Value) -> Option<OpId> {
    loop {
        match ctx.value_def(v) {
            ValueDef::Result { op, index } => {
                let index = index as usize;
                v = match ctx.op_name(op) {
                    "soac.acc_write" => ctx.operands(op)[0],
                    "soac.loop" => ctx.operands(op)[index + loop_skip(ctx, op)],
                    "soac.if" => {
                        let then = ctx.blocks(ctx.regions(op)[0])[0];
                        ctx.operands(ctx.last_op(then)?)[index]
                    }
                    _ => return None,
                };
            }
            ValueDef::BlockArg { block, index } => {
                let op = ctx.region_parent(ctx.block_parent(block)?)?;
                match ctx.op_name(op) {
                    "soac.scatter_stream" | "soac.hist_stream" if index == 0 => return Some(op),
                    "soac.loop" => {
                        let skip = loop_skip(ctx, op);
                        // A `for` loop's first argument is the index.
                        let arg = (index as usize).checked_sub(skip)?;
                        v = ctx.operands(op)[arg + skip];
                    }
                    _ => return None,
                }
            }
            ValueDef::Placeholder => return None,
        }
    }
}

/// The number of operands (and block arguments) of `soac.loop` `op` before
/// its merge values: 1 for a `for` loop (the count, the index), 0 else.
fn loop_skip(ctx: &Context, op: OpId) -> usize {
    let form = ctx.attr(op, "form").map(|a| ctx.attr_kind(a));
    usize::from(matches!(form, Some(AttrKind::String(s)) if ctx.str(*s) == "for"))
}

/// How many (index, value) pairs a `soac.scatter` writes into each of its
/// destinations per row: its attribute `num_writes`, or one each. (The
/// verifier checks the attribute; a malformed one reads as one each.)
pub fn scatter_writes(ctx: &Context, op: OpId) -> Vec<usize> {
    let k = ctx.num_results(op);
    let given = ctx.attr(op, "num_writes").and_then(|a| match ctx.attr_kind(a) {
        AttrKind::Array(xs) => xs
            .iter()
            .map(|&x| match ctx.attr_kind(x) {
                AttrKind::Int { bits, .. } => usize::try_from(*bits).ok(),
                _ => None,
            })
            .collect::<Option<Vec<usize>>>(),
        _ => None,
    });
    match given {
        Some(ws) if ws.len() == k => ws,
        _ => vec![1; k],
    }
}

pub fn dialect() -> Dialect {
    Dialect {
        name: "soac",
        summary: "First-order, tuple-free core language with SOACs and explicit sizes.",
        ops: ops::ops(),
    }
}
