//! The filter (`segop.filter`) on the GPU: the single-pass scan of its
//! 0/1 flags, writing the kept points in place of the prefixes (Note
//! [Segops on the GPU], Note [Single-pass scan]).

use futmlir_dialects::ir::{Builder, Scalar, Value};

use super::group::when;
use super::segscan::scan_with;
use super::{convert, MapPoint, Op};
use crate::segop_to_imp::{Arr, Rep, Tr, R};

/// A filter of the points `0..n` (`segop.filter`): `point` gives whether
/// to keep a point, then its values, stored in `outs` in order. A scan
/// (+) of the 0/1 flags whose last kernel, instead of storing the
/// prefixes, writes each kept point's values at its prefix minus one
/// (the values are computed again there) — one pass writing only what is
/// kept. Returns the count (on the host).
pub(crate) fn filter(tr: &mut Tr, n: Value, point: &mut MapPoint, outs: &[Arr]) -> R<Value> {
    let i64t = tr.ty(Scalar::I64);
    // The operator: (+) on i64, as a block of its own.
    let region = tr.ctx.create_region();
    let add = tr.ctx.append_block(region, &[i64t, i64t]);
    let (a, b) = (tr.ctx.block_args(add)[0], tr.ctx.block_args(add)[1]);
    let kind = tr.ctx.string_attr("add");
    let sum = Builder::at_end(tr.ctx, add).op("soac.binop", &[a, b], &[i64t], &[("kind", kind)], vec![]);
    let sum = tr.ctx.result(sum, 0);
    Builder::at_end(tr.ctx, add).op("segop.yield", &[sum], &[], &[], vec![]);
    let zero = tr.i64c(0);
    let op = Op {
        block: add,
        nes: &[zero],
        elems: vec![Scalar::I64],
        commutative: true,
        index_parts: vec![false],
    };
    let one = tr.i64c(1);
    let count = tr.alloc_array(Scalar::I64, &[one])?;
    let keep = |tr: &mut Tr, ys: &[Rep]| -> R<Value> {
        match ys.first() {
            Some(Rep::Scalar(k)) => Ok(*k),
            _ => Err(tr.fail("internal error: a filter's test that is not a scalar")),
        }
    };
    // The test and the values both come from `point`, which the scan's
    // reads (`flag`) and its writes share.
    let point = std::cell::RefCell::new(point);
    let mut flag = |tr: &mut Tr, i: Value, _: bool| -> R<Vec<Value>> {
        let ys = (point.borrow_mut())(tr, &[i])?;
        let k = keep(tr, &ys)?;
        Ok(vec![convert(tr, "btoi", k, Scalar::I64)])
    };
    let last = tr.bin("sub", n, one);
    let mut place = |tr: &mut Tr, i: Value, prefix: &[Value]| -> R<()> {
        let ys = (point.borrow_mut())(tr, &[i])?;
        let k = keep(tr, &ys)?;
        let s = prefix[0];
        when(tr, k, &mut |tr| {
            let one = tr.i64c(1);
            let at = tr.bin("sub", s, one);
            for (o, y) in outs.iter().zip(&ys[1..]) {
                tr.write(o, &[at], y);
            }
            Ok(())
        })?;
        let is_last = tr.cmp("eq", i, last);
        when(tr, is_last, &mut |tr| {
            let zero = tr.i64c(0);
            tr.store(&count, &[zero], s);
            Ok(())
        })?;
        Ok(())
    };
    // The counts are below n < 2^62: packed with their flags.
    scan_with(tr, n, &op, &mut flag, &mut place, true)?;
    let nonempty = tr.cmp("gt", n, zero);
    let c = tr.if_(
        nonempty,
        &mut |tr| {
            let zero = tr.i64c(0);
            Ok(vec![tr.load(&count, &[zero])])
        },
        &mut |tr| Ok(vec![tr.i64c(0)]),
    )?;
    Ok(c[0])
}
