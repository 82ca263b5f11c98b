//! Verifiers of the `segop` ops.
//!
//! A segmented op's segment space is `d` i64 size operands `s1..sd`; its
//! body region takes `d` i64 thread indices, one per dimension.

use crate::ir::{Dim, OpView, Type};
use crate::soac::verify as core;

fn level(v: &OpView) -> Result<(), String> {
    v.enum_attr("level", &["thread", "group"]).map(|_| ())
}

/// The segment space: checks region 0 takes `d` i64 indices and the first
/// `d` operands are i64 sizes; returns the sizes as dimensions.
fn space(v: &OpView) -> Result<Vec<Dim>, String> {
    let args = v.single_block_args(0)?;
    if args.is_empty() {
        return Err("region #0 must take at least one i64 index".into());
    }
    for (i, &a) in args.iter().enumerate() {
        if !v.is_i64(a) {
            return Err(format!(
                "region #0 argument #{i} (a thread index) must be i64, found {}",
                v.show(a)
            ));
        }
    }
    v.expect_operands_at_least(args.len())?;
    v.expect_i64_operands(0..args.len(), "a segment size")?;
    Ok((0..args.len()).map(|i| Dim::Value(v.operand(i))).collect())
}

fn expect_result(v: &OpView, i: usize, dims: &[Dim], t: Type) -> Result<(), String> {
    let rt = v.result_type(i);
    if !v.is_array_of(rt, dims, t) {
        let what = if dims.is_empty() {
            "the value itself".to_string()
        } else {
            format!("an array over {} segment dimensions", dims.len())
        };
        return Err(format!(
            "result #{i} has type {}, expected {what} of {}",
            v.show(rt),
            v.show(t)
        ));
    }
    Ok(())
}

/// `segmap(s...)`: each yielded value of type `t` gives a result
/// `[s1]...[sd]t`. With attribute `writes = k`: operands `(s..., dests...)`
/// with `k` destinations; the body yields `k` i64 indices then `k` rows,
/// written in place (out of bounds: ignored); the results are the
/// destinations.
pub fn segmap(v: &OpView) -> Result<(), String> {
    level(v)?;
    v.expect_regions(1)?;
    let dims = space(v)?;
    if v.attr("writes").is_some() {
        let k = usize::try_from(v.int_attr("writes")?).map_err(|_| "`writes` must not be negative".to_string())?;
        v.expect_operands(dims.len() + k)?;
        v.expect_results(k)?;
        return core::writes(v, dims.len(), k);
    }
    v.expect_operands(dims.len())?;
    let ys = v.yielded_types(0)?;
    v.expect_results(ys.len())?;
    for (i, &t) in ys.iter().enumerate() {
        expect_result(v, i, &dims, t)?;
    }
    tile(v, 2)
}

/// The `k` of the operator in region 1, checked against the `k` neutral
/// elements starting at operand `first`.
fn operator(v: &OpView, first: usize) -> Result<Vec<Type>, String> {
    let args = v.single_block_args(1)?;
    if args.len() % 2 != 0 {
        return Err(format!(
            "region #1 (the operator) must have an even number of block arguments, found {}",
            args.len()
        ));
    }
    let k = args.len() / 2;
    v.expect_operands_at_least(first + k)?;
    let ts: Vec<Type> = (first..first + k).map(|i| v.operand_type(i)).collect();
    let mut want = ts.clone();
    want.extend_from_slice(&ts);
    v.expect_block_args(1, &want)?;
    v.expect_yield(1, &ts)?;
    Ok(ts)
}

/// `segred(s..., nes...)` / `segscan`: the body yields `k` values to
/// combine (as the operator in region 1) then `l` mapped values. Results:
/// `k` reduced over the innermost dimension (`[s1]..[s(d-1)]t`) or scanned
/// (`[s1]..[sd]t`), then `l` arrays `[s1]..[sd]t`.
fn segred_or_segscan(v: &OpView, scan: bool) -> Result<(), String> {
    level(v)?;
    v.expect_regions(2)?;
    let dims = space(v)?;
    let d = dims.len();
    let ts = operator(v, d)?;
    let k = ts.len();
    v.expect_operands(d + k)?;
    let ys = v.yielded_types(0)?;
    if ys.len() < k {
        return Err(format!("region #0 must yield at least {k} values, found {}", ys.len()));
    }
    v.expect_types("region #0 yield", &ts, &ys[..k])?;
    v.expect_results(ys.len())?;
    for (i, &t) in ys.iter().enumerate() {
        let shape = if i < k && !scan { &dims[..d - 1] } else { &dims[..] };
        expect_result(v, i, shape, t)?;
    }
    Ok(())
}

/// The optional attribute `tile = [rows, cols, k]` of `segop-tile`
/// (Note [Block tiling] in `futmlir-passes`): rows and cols 1 to 8, k 1
/// to 64, and a space of at least `min_dims` dimensions.
fn tile(v: &OpView, min_dims: usize) -> Result<(), String> {
    if v.attr("tile").is_none() {
        return Ok(());
    }
    let t = v.int_array_attr("tile")?;
    let ok = matches!(t[..], [r, c, k] if (1..=8).contains(&r) && (1..=8).contains(&c) && (1..=64).contains(&k));
    if !ok {
        return Err("attribute 'tile' must be [rows, cols, k] with rows and cols 1 to 8 and k 1 to 64".into());
    }
    if space(v)?.len() < min_dims {
        return Err(format!("a tiled segop must have at least {min_dims} dimensions"));
    }
    Ok(())
}

pub fn segred(v: &OpView) -> Result<(), String> {
    segred_or_segscan(v, false)?;
    tile(v, 3)
}
pub fn segscan(v: &OpView) -> Result<(), String> {
    segred_or_segscan(v, true)
}

/// `filter(n)`: the body yields a bool then `k` values `t`; results: the
/// i64 count, then `k` arrays `[n]t`.
pub fn filter(v: &OpView) -> Result<(), String> {
    level(v)?;
    v.expect_regions(1)?;
    let dims = space(v)?;
    if dims.len() != 1 {
        return Err(format!("the space must have one dimension, found {}", dims.len()));
    }
    v.expect_operands(1)?;
    let ys = v.yielded_types(0)?;
    if ys.first().is_none_or(|&t| !v.is_bool(t)) {
        return Err("the body must yield a bool (whether to keep the point) first".into());
    }
    v.expect_results(ys.len())?;
    if !v.is_i64(v.result_type(0)) {
        return Err(format!(
            "result #0 (the count) must be i64, found {}",
            v.show(v.result_type(0))
        ));
    }
    for (i, &t) in ys.iter().enumerate().skip(1) {
        expect_result(v, i, &dims, t)?;
    }
    Ok(())
}

/// `seghist(s..., w, dests..., nes...)`: the body yields an i64 bucket
/// then `k` values; the results are the `k` updated destinations of outer
/// size `w`.
pub fn seghist(v: &OpView) -> Result<(), String> {
    level(v)?;
    v.expect_regions(2)?;
    let dims = space(v)?;
    let d = dims.len();
    v.expect_operands_at_least(d + 1)?;
    v.expect_i64_operands(d..d + 1, "the histogram size")?;
    let k = v.num_results();
    let ts = operator(v, d + 1 + k)?;
    if ts.len() != k {
        return Err(format!(
            "the operator combines {} values, but there are {k} results",
            ts.len()
        ));
    }
    v.expect_operands(d + 1 + 2 * k)?;
    let w = v.operand(d);
    for (i, &t) in ts.iter().enumerate() {
        let dest = v.operand_type(d + 1 + i);
        v.expect_outer_size(&format!("destination #{i}"), dest, w)?;
        if !v.is_row_of(dest, t) {
            return Err(format!(
                "neutral element #{i} has type {}, but destination #{i} has rows of another type",
                v.show(t)
            ));
        }
        v.expect_type(&format!("result #{i}"), dest, v.result_type(i))?;
    }
    let mut want = vec![v.operand_type(0)];
    want.extend_from_slice(&ts);
    v.expect_yield(0, &want)
}

/// `if_threshold(par) {threshold}`: two versions, chosen at run time by
/// comparing the i64 parallelism `par` with the named threshold.
pub fn if_threshold(v: &OpView) -> Result<(), String> {
    v.expect_operands(1)?;
    v.expect_i64_operands(0..1, "the parallelism")?;
    v.expect_regions(2)?;
    if v.string_attr("threshold")?.is_empty() {
        return Err("attribute 'threshold' must name a threshold".into());
    }
    core::branches(v)
}

/// `manifest(xs) {perm}`: a copy of `xs` of the same type whose memory
/// layout has its dimensions in the order `perm`.
pub fn manifest(v: &OpView) -> Result<(), String> {
    v.expect_operands(1)?;
    v.expect_results(1)?;
    let t = v.operand_type(0);
    if !v.is_array(t) {
        return Err(format!("operand must be an array, found {}", v.show(t)));
    }
    core::expect_permutation(&v.int_array_attr("perm")?, v.rank(t))?;
    v.expect_type("result", t, v.result_type(0))
}
