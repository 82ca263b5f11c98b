//! Sizes that vary between a kernel's threads, bounded on the host for
//! memory expansion (Note [Size bounds]).
//!
//! **Note [Size bounds].** Memory expansion ([`Tr::expand`]) makes one
//! allocation, before the launch, for the arrays all threads make at one
//! site, so it needs their sizes on the host. A size the thread computes
//! (`replicate n x` where `n = ns[i]`) is bounded instead, as the thesis
//! does for variant allocations (a slice of the kernel body run in a
//! separate max-reduction kernel): a reduction with `max` over the
//! segop's space runs the size's *slice* (the ops computing it) for
//! every point before the kernel, and each thread's part of the
//! allocation is as large as the largest. The thread then lays out its
//! array with its own sizes inside its part (interleaved as always:
//! element `j` at `j * threads + t`, `threads` the kernel's grid times
//! its block size, so parts never overlap whatever sizes the threads
//! have up to the bound). The bound is a host value, computed on the
//! host's values before the kernel's launch; it costs a reduction kernel
//! and a read of its result, once per kernel and size.
//!
//! The slice holds any op of the thread's code without effects outside
//! it: scalar ops and indexing, loops, `if`s, SOACs and calls, also ones
//! that make arrays of their own. The reduction is a kernel too, so its
//! arrays are expanded in turn, their sizes bounded by reductions of
//! their own made before it (recursion through this same mechanism; a
//! size met again while its own bound is made is refused, so a cycle
//! gives the diagnostic instead of recursing forever). An op is kept out
//! if it could write into memory that outlives the reduction: one that
//! consumes (updates in place, scatters into, passes to a loop) an array
//! of the host, one of an enclosing region's parameters, or an `if`'s or
//! loop's result (which may alias the host's).
//!
//! A size defined inside a region of the thread's code (a SOAC's
//! lambda, an `if`'s branch, a `for` loop's body) varies over the runs
//! of the region too: its slice is one level per enclosing region, and
//! the reduction runs each level's op as a sequential max over its runs
//! (over the SOAC's rows, with the lambda's parameters bound to them;
//! over the loop's indices; the one branch, 0 when the other runs). A
//! region's values the slice reads must be bound by that run: a value a
//! loop carries from one iteration to the next, or one of a `while`
//! loop's body, is refused.
//!
//! Sizes are followed to the op that fixed them rather than to the
//! arrays they measure: `length xs` (`soac.size`) of an array whose type
//! names its size is that size, and the arrays an `if` or a loop gives
//! take their sizes from the op's type (Note [Result sizes in kernels]
//! in `mod.rs`), so an existential size is the op's scalar result. Where
//! a bound comes cheaper than by a reduction it is taken: a filter's
//! result is at most its input's length, a host value where the input's
//! size is one (Note [Filters in kernels] in `segops.rs`). A size that
//! still cannot be bounded is refused with a diagnostic naming what its
//! slice met.

use std::collections::HashSet;

use futmlir_dialects::ir::{BlockId, Builder, Context, Dim, OpId, OpView, Scalar, Value};
use futmlir_passes::soac::analysis;

use super::{array_dims, gpu, segops, Rep, Tr, R};

/// The innermost segop being made a kernel: its body (whose arguments
/// are the thread indices) and its space (host sizes).
#[derive(Clone)]
pub(crate) struct SegopSpace {
    pub body: BlockId,
    pub sizes: Vec<Value>,
}

/// A size's slice: the ops computing it, level by level from the
/// segop's body inward to the block defining the size (Note [Size
/// bounds]). The op owning each inner level's block runs it: an `if`
/// (one branch), a `for` loop, or a SOAC's lambda.
struct Slice {
    levels: Vec<(BlockId, Vec<OpId>)>,
}

/// The slice of `v` in segop body `body`, or what it met that it cannot
/// hold.
fn slice(tr: &Tr, v: Value, body: BlockId) -> Result<Slice, String> {
    let ctx = &*tr.ctx;
    let segop = ctx
        .block_parent(body)
        .and_then(|r| ctx.region_parent(r))
        .ok_or_else(|| "a segop body without a segop".to_string())?;
    if !analysis::defined_inside(ctx, v, segop) {
        return Err("a value the kernel does not know".into());
    }
    // The blocks from `body` in to the one defining `v`.
    let mut path = Vec::new();
    let mut b = ctx.value_block(v).ok_or_else(|| "a value of no block".to_string())?;
    while b != body {
        path.push(b);
        b = owner(ctx, b)
            .and_then(|o| ctx.parent_block(o))
            .ok_or_else(|| "a value outside the segop".to_string())?;
    }
    path.push(body);
    path.reverse();
    struct Slicer<'t, 'a> {
        tr: &'t Tr<'a>,
        segop: OpId,
        path: Vec<BlockId>,
        seen: HashSet<OpId>,
        levels: Vec<Vec<OpId>>,
    }
    impl Slicer<'_, '_> {
        fn go(&mut self, v: Value) -> Result<(), String> {
            let ctx = &*self.tr.ctx;
            if !analysis::defined_inside(ctx, v, self.segop) {
                // A host value the kernel reads.
                return if self.tr.map.contains_key(&v) {
                    Ok(())
                } else {
                    Err("a value the kernel does not know".into())
                };
            }
            let block = ctx.value_block(v).ok_or_else(|| "a value of no block".to_string())?;
            let Some(k) = self.path.iter().position(|&b| b == block) else {
                return Err("a value of a region inside the thread's code".into());
            };
            let Some(op) = ctx.defining_op(v) else {
                // An argument: a thread index (level 0), or bound by the
                // op running level `k`.
                if k == 0 {
                    return Ok(());
                }
                let run = owner(ctx, block).ok_or_else(|| "a value outside the segop".to_string())?;
                let carried =
                    ctx.op_name(run) == "soac.loop" && ctx.block_args(block).iter().position(|&a| a == v) != Some(0);
                return if carried {
                    Err("a value a loop carries from one iteration to the next".into())
                } else {
                    Ok(())
                };
            };
            // Hoisted out of the kernel: a host value (Note [Virtual
            // arrays] in `segops.rs`).
            if (k == 0 && self.tr.hoisted.contains(&op)) || !self.seen.insert(op) {
                return Ok(());
            }
            let name = ctx.op_name(op);
            if ctx.num_results(op) == 0 || name.starts_with("mem.") || name.starts_with("segop.") {
                return Err(format!("`{name}`"));
            }
            // Running the op again in the reduction must not write into
            // an array that outlives it: it may consume only arrays it
            // or an op before it in the slice makes.
            let shared = analysis::consumed(ctx, op).into_iter().any(|a| {
                ctx.as_scalar(ctx.value_type(a)).is_none()
                    && (!analysis::defined_inside(ctx, a, self.segop)
                        || match ctx.defining_op(a) {
                            Some(d) => matches!(ctx.op_name(d), "soac.if" | "soac.loop" | "soac.apply"),
                            None => !analysis::defined_inside(ctx, a, op),
                        })
            });
            if shared {
                return Err(format!("`{name}` updating in place an array the slice does not make"));
            }
            // `size xs` of an array whose type names its size: that size
            // (the op that fixed it), not the op making `xs`.
            if let Some(x) = size_of_known(ctx, op) {
                self.go(x)?;
            } else {
                for x in analysis::reads(ctx, op, false) {
                    self.go(x)?;
                }
            }
            self.levels[k].push(op);
            Ok(())
        }
    }
    let mut s = Slicer {
        tr,
        segop,
        levels: vec![Vec::new(); path.len()],
        path: path.clone(),
        seen: HashSet::new(),
    };
    // What the ops running the inner levels read to run them.
    for &b in &path[1..] {
        let run = owner(ctx, b).ok_or_else(|| "a value outside the segop".to_string())?;
        let operands = ctx.operands(run);
        let reads: Vec<Value> = match ctx.op_name(run) {
            "soac.if" => operands.iter().take(1).copied().collect(),
            "soac.loop" if OpView { ctx, op: run }.string_attr("form").unwrap_or("for") == "for" => {
                operands.iter().take(1).copied().collect()
            }
            "soac.loop" => return Err("a value of a `while` loop's body".into()),
            name => match segops::row_lambda(ctx, run) {
                Some((lambda, inputs)) if lambda == b => operands.iter().take(1).copied().chain(inputs).collect(),
                _ => return Err(format!("a value inside `{name}`")),
            },
        };
        for x in reads {
            s.go(x)?;
        }
    }
    s.go(v)?;
    Ok(Slice {
        levels: path.into_iter().zip(s.levels).collect(),
    })
}

/// The op whose region holds block `b`.
fn owner(ctx: &Context, b: BlockId) -> Option<OpId> {
    ctx.block_parent(b).and_then(|r| ctx.region_parent(r))
}

/// For `soac.size xs` (dimension `k`) where the type of `xs` names that
/// size as a value: the value.
fn size_of_known(ctx: &Context, op: OpId) -> Option<Value> {
    if ctx.op_name(op) != "soac.size" {
        return None;
    }
    let k = OpView { ctx, op }.int_attr("dim").ok()?;
    let a = *ctx.operands(op).first()?;
    match array_dims(ctx, ctx.value_type(a)).get(usize::try_from(k).ok()?) {
        Some(Dim::Value(x)) => Some(*x),
        _ => None,
    }
}

impl Tr<'_> {
    /// A host bound of the size `s` (a value of the kernel being built)
    /// over all threads of the innermost segop (Note [Size bounds]), or
    /// what keeps `s` from being bounded.
    pub(crate) fn size_bound(&mut self, s: Value) -> R<Result<Value, String>> {
        let Some(space) = self.segop_spaces.last().cloned() else {
            return Ok(Err("a size outside a segop".into()));
        };
        if let Some(&b) = self.host.as_ref().and_then(|h| h.bounds.get(&s)) {
            return Ok(Ok(b));
        }
        // The soac values this thread computed as `s`.
        let mut candidates: Vec<Value> = self
            .map
            .iter()
            .filter(|(_, r)| matches!(r, Rep::Scalar(x) if *x == s))
            .map(|(&k, _)| k)
            .collect();
        candidates.sort();
        let mut why = "a size the thread computes in a way the compiler cannot follow".to_string();
        let mut found = None;
        for v in candidates {
            // A size whose bound is being computed already (the
            // reduction's own arrays need it): a cycle.
            if self.bounding.contains(&v) {
                why = "a size that its own bound needs".into();
                continue;
            }
            match slice(self, v, space.body) {
                Ok(ops) => {
                    found = Some((v, ops));
                    break;
                }
                Err(e) => why = e,
            }
        }
        let Some((v, ops)) = found else {
            return Ok(Err(why));
        };
        // The reduction re-translates the slice: keep the kernel's
        // translations of its values (those of the regions in it too).
        let mut touched: Vec<Value> = Vec::new();
        for (b, _) in &ops.levels {
            touched.extend(self.ctx.block_args(*b));
        }
        for &o in ops.levels.iter().flat_map(|(_, os)| os) {
            futmlir_passes::soac::analysis::walk_with(self.ctx, o, &mut |x| {
                touched.extend(self.ctx.results(x));
                for &r in self.ctx.regions(x) {
                    for &b in self.ctx.blocks(r) {
                        touched.extend(self.ctx.block_args(b));
                    }
                }
            });
        }
        let saved: Vec<(Value, Option<Rep>)> = touched.iter().map(|&x| (x, self.map.get(&x).cloned())).collect();
        self.bounding.push(v);
        let loc = self.loc;
        // The reduction's temporaries are freed on the host, after it
        // (not at the end of the kernel's region).
        let bound = self.on_host(|tr| {
            tr.scopes.push(Vec::new());
            let b = bound_over(tr, &space, &ops, v);
            tr.free_scope(&[]);
            b
        });
        self.bounding.pop();
        self.loc = loc;
        for (x, r) in saved {
            match r {
                Some(r) => self.map.insert(x, r),
                None => self.map.remove(&x),
            };
        }
        // An array of the reduction's own whose size has no bound fails
        // here, with the diagnostic of its own slice.
        let bound = bound?;
        if let Some(h) = self.host.as_mut() {
            h.bounds.insert(s, bound);
        }
        Ok(Ok(bound))
    }
}

/// On the host: the largest value of `v` (computed by `slice`) over the
/// points of `space`, by a reduction with `max` (at least 0).
fn bound_over(tr: &mut Tr, space: &SegopSpace, slice: &Slice, v: Value) -> R<Value> {
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
        Ok(vec![run_level(tr, slice, 0, v)?])
    })?;
    Ok(r[0])
}

/// Runs level `k` of `slice` and the levels inside it: the largest value
/// of `v` over the runs of its block in this thread.
fn run_level(tr: &mut Tr, slice: &Slice, k: usize, v: Value) -> R<Value> {
    for &o in &slice.levels[k].1 {
        if let Some(x) = size_of_known(tr.ctx, o) {
            let r = tr.rep(x)?;
            tr.map.insert(tr.ctx.result(o, 0), r);
            continue;
        }
        if segops::virtual_array(tr.ctx, o) {
            tr.virtual_arrays.insert(tr.ctx.result(o, 0), o);
            continue;
        }
        tr.op(o)?;
    }
    let Some(&(inner, _)) = slice.levels.get(k + 1) else {
        return tr.scalar(v);
    };
    let run = owner(tr.ctx, inner).ok_or_else(|| tr.fail("internal error: a slice level without its op"))?;
    let operands = tr.ctx.operands(run).to_vec();
    let zero = tr.i64c(0);
    let max = |tr: &mut Tr, a: Value, b: Value| tr.bin("max", a, b);
    if tr.ctx.op_name(run) == "soac.if" {
        let c = tr.scalar(operands[0])?;
        let then = tr.ctx.blocks(tr.ctx.regions(run)[0])[0] == inner;
        let r = tr.if_versions(c, &mut |tr, branch| {
            Ok(vec![if branch == then {
                run_level(tr, slice, k + 1, v)?
            } else {
                zero
            }])
        })?;
        return Ok(r[0]);
    }
    let n = tr.scalar(operands[0])?;
    let args = tr.ctx.block_args(inner).to_vec();
    // A `for` loop binds its index (its carried values are not in the
    // slice); a SOAC's lambda, the rows of its inputs.
    let is_loop = tr.ctx.op_name(run) == "soac.loop";
    let inputs = segops::row_lambda(tr.ctx, run).map(|(_, xs)| xs).unwrap_or_default();
    let r = tr.for_loop(n, &[zero], &mut |tr, i, acc| {
        if is_loop {
            tr.map.insert(args[0], Rep::Scalar(i));
        }
        for (&a, &x) in args.iter().zip(&inputs) {
            let row = segops::input_row(tr, x, i)?;
            tr.map.insert(a, row);
        }
        let m = run_level(tr, slice, k + 1, v)?;
        Ok(vec![max(tr, acc[0], m)])
    })?;
    Ok(r[0])
}
