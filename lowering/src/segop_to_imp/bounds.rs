//! Sizes that vary between a kernel's threads, bounded on the host for
//! memory expansion (Note [Size bounds]).
//!
//! **Note [Size bounds].** Memory expansion ([`Tr::expand`]) makes one
//! allocation, before the launch, for the arrays all threads make at one
//! site, so it needs their sizes on the host. A size computed by the
//! thread (`replicate n x` where `n = ns[i]`) is bounded instead: when
//! the size is a scalar computed in the segop's body from its thread
//! indices and host values by scalar ops and indexing (views) alone (its
//! slice), a reduction with `max` over the segop's space runs that
//! slice for every point before the kernel, and each thread's part of
//! the allocation is as large as the largest. The thread then lays out
//! its array with its own sizes inside its part (interleaved as always:
//! element `j` at `j * threads + t`). A size whose slice reads anything
//! else (a loop's result, an array the thread made) is refused, as
//! before, with a diagnostic. The bound costs a reduction kernel and a
//! read of its result by the host, once per kernel and size.

use std::collections::HashSet;

use futmlir_dialects::ir::{BlockId, Builder, OpId, Scalar, Value, ValueDef};

use super::{gpu, Rep, Tr, R};

/// The innermost segop being made a kernel: its body (whose arguments
/// are the thread indices) and its space (host sizes).
#[derive(Clone)]
pub(crate) struct SegopSpace {
    pub body: BlockId,
    pub sizes: Vec<Value>,
}

/// The ops of `body`, in order, that compute `v` from `body`'s arguments
/// and host values by scalar ops and indexing; `None` if something else
/// goes into it.
fn slice(tr: &Tr, v: Value, body: BlockId) -> Option<Vec<OpId>> {
    let ctx = &*tr.ctx;
    let segop = ctx.block_parent(body).and_then(|r| ctx.region_parent(r))?;
    fn go(tr: &Tr, v: Value, body: BlockId, segop: OpId, seen: &mut HashSet<OpId>, out: &mut Vec<OpId>) -> bool {
        let ctx = &*tr.ctx;
        if let ValueDef::BlockArg { block, .. } = ctx.value_def(v) {
            if block == body {
                return true;
            }
        }
        let host = || !futmlir_passes::soac::analysis::defined_inside(ctx, v, segop) && tr.map.contains_key(&v);
        let Some(op) = ctx.defining_op(v).filter(|&op| ctx.parent_block(op) == Some(body)) else {
            // A host value the kernel reads.
            return host();
        };
        let scalar_results = ctx.results(op).all(|r| ctx.as_scalar(ctx.value_type(r)).is_some());
        let pure = matches!(
            ctx.op_name(op),
            "soac.constant" | "soac.binop" | "soac.cmpop" | "soac.unop" | "soac.convop" | "soac.select" | "soac.index"
        );
        // An index with fewer indices than the rank is a view: it
        // allocates nothing either.
        let views = ctx.op_name(op) == "soac.index";
        if !pure || !(scalar_results || views) || !ctx.regions(op).is_empty() {
            return false;
        }
        if seen.insert(op) {
            for &x in ctx.operands(op) {
                if !go(tr, x, body, segop, seen, out) {
                    return false;
                }
            }
            out.push(op);
        }
        true
    }
    let mut out = Vec::new();
    go(tr, v, body, segop, &mut HashSet::new(), &mut out).then_some(out)
}

impl Tr<'_> {
    /// A host bound of the size `s` (a value of the kernel being built)
    /// over all threads of the innermost segop (Note [Size bounds]), or
    /// `None` when `s` is not a size that can be bounded.
    pub(crate) fn size_bound(&mut self, s: Value) -> R<Option<Value>> {
        let Some(space) = self.segop_spaces.last().cloned() else {
            return Ok(None);
        };
        if let Some(&b) = self.host.as_ref().and_then(|h| h.bounds.get(&s)) {
            return Ok(Some(b));
        }
        // The soac values this thread computed as `s`.
        let mut candidates: Vec<Value> = self
            .map
            .iter()
            .filter(|(_, r)| matches!(r, Rep::Scalar(x) if *x == s))
            .map(|(&k, _)| k)
            .collect();
        candidates.sort();
        let Some((v, ops)) = candidates
            .into_iter()
            .find_map(|v| slice(self, v, space.body).map(|ops| (v, ops)))
        else {
            return Ok(None);
        };
        // The reduction re-translates the slice: keep the kernel's
        // translations of its values.
        let mut touched: Vec<Value> = self.ctx.block_args(space.body).to_vec();
        for &o in &ops {
            touched.extend(self.ctx.results(o));
        }
        let saved: Vec<(Value, Option<Rep>)> = touched.iter().map(|&x| (x, self.map.get(&x).cloned())).collect();
        // The reduction's temporaries are freed on the host, after it
        // (not at the end of the kernel's region).
        let bound = self.on_host(|tr| {
            tr.scopes.push(Vec::new());
            let b = bound_over(tr, &space, &ops, v);
            tr.free_scope(&[]);
            b
        });
        for (x, r) in saved {
            match r {
                Some(r) => self.map.insert(x, r),
                None => self.map.remove(&x),
            };
        }
        let bound = bound?;
        if let Some(h) = self.host.as_mut() {
            h.bounds.insert(s, bound);
        }
        Ok(Some(bound))
    }
}

/// On the host: the largest value of `v` (computed by `ops`, the slice)
/// over the points of `space`, by a reduction with `max` (at least 0).
fn bound_over(tr: &mut Tr, space: &SegopSpace, ops: &[OpId], v: Value) -> R<Value> {
    let i64t = tr.ctx.scalar(Scalar::I64);
    let region = tr.ctx.create_region();
    let block = tr.ctx.append_block(region, &[i64t, i64t]);
    let args = tr.ctx.block_args(block).to_vec();
    let mut b = Builder::at_end(tr.ctx, block);
    let kind = b.ctx.string_attr("max");
    let m = b.op("soac.binop", &args, &[i64t], &[("kind", kind)], vec![]);
    let m = b.ctx.result(m, 0);
    b.op("segop.yield", &[m], &[], &[], vec![]);
    let nes = [tr.i64c(0)];
    let op = gpu::Op {
        block,
        nes: &nes,
        elems: vec![Scalar::I64],
        commutative: true,
        index_parts: vec![false],
    };
    let total = tr.product(&space.sizes);
    let indices = tr.ctx.block_args(space.body).to_vec();
    let r = gpu::reduce(tr, total, &op, &mut |tr, i| {
        let idx = gpu::unravel(tr, i, &space.sizes);
        for (&a, &x) in indices.iter().zip(&idx) {
            tr.map.insert(a, Rep::Scalar(x));
        }
        for &o in ops {
            tr.op(o)?;
        }
        Ok(vec![tr.scalar(v)?])
    })?;
    Ok(r[0])
}
