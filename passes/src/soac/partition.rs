//! `soac-partition`: rewrites `soac.partition` into SOACs the kernel
//! extraction knows, a scanomap and a scatter (the Futhark thesis lowers
//! partition the same way, as a filter generalised to `k` classes).
//!
//! For `partition(n, xs...) {k}` with classifier `p`, there are `k + 1`
//! classes: `0..k`, and a last one for every class `p` gives outside
//! `0..k`. Then
//!
//! ```text
//! cls_i, f_i = let c = clamp (p xs_i) in (c, one-hot flags of c, k + 1 of them)
//! s          = scan (+) 0 f                       -- k + 1 arrays, fused: one scanomap
//! count_c    = if n > 0 then s_c[n-1] else 0      -- for c < k, the op's first results
//! base_c     = count_0 + ... + count_{c-1} - 1    -- the offset of class c, less one
//! out        = scatter (copy xs) (base_{cls_i} + s_{cls_i}[i]) xs
//! ```
//!
//! Every row gets a distinct place (the running count of its class is
//! distinct within the class, and the classes' ranges do not overlap), so
//! the scatter writes every row of the fresh copy exactly once: the
//! partition is stable, and no write races. Rows may be arrays (a
//! scatter writes whole rows).
//!
//! The pass runs before kernel extraction (`soac-to-segop`), which makes a
//! segscan and a writing segmap of a host-level scanomap and scatter.

use futmlir_dialects::ir::{
    AttrKind, Builder, Context, Diagnostic, Dim, InsertPoint, OpId, RegionId, Scalar, Type, TypeKind, Value,
};

use crate::pass::{Level, Options, Pass, PassInfo};

pub const INFO: PassInfo = PassInfo {
    name: "soac-partition",
    description:
        "Rewrite `soac.partition` into a scanomap of one-hot class flags and a scatter of the rows to their places",
    options: &[],
    reads: &[Level::Soac],
    writes: None,
    create: &|_: &Options, _| Box::new(Partition),
};

struct Partition;

impl Pass for Partition {
    fn run(&mut self, ctx: &mut Context, op: OpId) -> Result<(), Diagnostic> {
        let mut found = Vec::new();
        ctx.walk(op, &mut |o| {
            if ctx.op_name(o) == "soac.partition" {
                found.push(o);
            }
        });
        // The rewrite moves the classifier region, so a partition nested
        // in another's classifier keeps its id and is rewritten in turn.
        for p in found {
            lower(ctx, p)?;
        }
        Ok(())
    }
}

/// Scalar ops built at one insertion point.
struct Emit<'c> {
    ctx: &'c mut Context,
    at: InsertPoint,
    i64t: Type,
    boolt: Type,
}

impl Emit<'_> {
    fn op(&mut self, name: &str, operands: &[Value], ty: Type, attrs: &[(&str, &str)]) -> Value {
        let attrs: Vec<_> = attrs.iter().map(|&(k, v)| (k, self.ctx.string_attr(v))).collect();
        let mut b = Builder::new(self.ctx);
        b.set_insert_point(self.at);
        let o = b.op(name, operands, &[ty], &attrs, Vec::new());
        self.ctx.result(o, 0)
    }
    fn constant(&mut self, v: i64) -> Value {
        let a = self.ctx.int_attr(v, Scalar::I64);
        let mut b = Builder::new(self.ctx);
        b.set_insert_point(self.at);
        let o = b.op("soac.constant", &[], &[self.i64t], &[("value", a)], Vec::new());
        self.ctx.result(o, 0)
    }
    fn binop(&mut self, kind: &str, a: Value, b: Value) -> Value {
        self.op("soac.binop", &[a, b], self.i64t, &[("kind", kind)])
    }
    fn cmpop(&mut self, kind: &str, a: Value, b: Value) -> Value {
        self.op("soac.cmpop", &[a, b], self.boolt, &[("kind", kind)])
    }
    fn select(&mut self, c: Value, a: Value, b: Value) -> Value {
        let t = self.ctx.value_type(a);
        self.op("soac.select", &[c, a, b], t, &[])
    }
    fn yield_(&mut self, vs: &[Value]) {
        let mut b = Builder::new(self.ctx);
        b.set_insert_point(self.at);
        b.op("soac.yield", vs, &[], &[], Vec::new());
    }
}

/// Replaces partition `p` by the scanomap, the counts and the scatter
/// (see the module comment).
fn lower(ctx: &mut Context, p: OpId) -> Result<(), Diagnostic> {
    let loc = ctx.location(p);
    let k = match ctx.attr(p, "k").map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::Int { bits, .. }) if *bits >= 1 => *bits,
        _ => {
            return Err(Diagnostic::error(
                loc,
                "`soac.partition` needs an integer attribute 'k' of at least 1",
            ))
        }
    };
    let classes = usize::try_from(k).map_err(|_| Diagnostic::error(loc, "attribute 'k' is too large"))?;
    let ops = ctx.operands(p).to_vec();
    let regions = ctx.regions(p).to_vec();
    let ([n, xs @ ..], [classify]) = (ops.as_slice(), regions.as_slice()) else {
        return Err(Diagnostic::error(
            loc,
            "`soac.partition` needs a size operand and one classifier region",
        ));
    };
    let (n, xs, classify) = (*n, xs.to_vec(), *classify);
    let blk = match ctx.blocks(classify) {
        [b] => *b,
        _ => {
            return Err(Diagnostic::error(
                loc,
                "the classifier of `soac.partition` must be one block",
            ))
        }
    };
    let term = ctx
        .last_op(blk)
        .filter(|&t| ctx.op_name(t) == "soac.yield" && ctx.operands(t).len() == 1);
    let Some(term) = term else {
        return Err(Diagnostic::error(
            loc,
            "the classifier of `soac.partition` must yield one i64 class",
        ));
    };
    let class = ctx.operand(term, 0);
    let i64t = ctx.scalar(Scalar::I64);
    let boolt = ctx.scalar(Scalar::Bool);
    let arr_n = ctx.intern_type(TypeKind::Array {
        elem: i64t,
        shape: vec![Dim::Value(n)],
    });
    let mut host = Emit {
        ctx,
        at: InsertPoint::Before(p),
        i64t,
        boolt,
    };
    // The class numbers 0..=k, the last one that of the rest.
    let consts: Vec<Value> = (0..=k).map(|c| host.constant(c)).collect();
    let (zero, one, kk) = (consts[0], consts[1], consts[classes]);

    // The classifier, clamped, with the one-hot flags of the class.
    let mut lam = Emit {
        ctx: host.ctx,
        at: InsertPoint::Before(term),
        i64t,
        boolt,
    };
    let below_k = lam.cmpop("lt", class, kk);
    let clamped = lam.select(below_k, class, kk);
    let non_negative = lam.cmpop("ge", class, zero);
    let cls = lam.select(non_negative, clamped, kk);
    let mut yields = Vec::new();
    for &c in &consts {
        let is = lam.cmpop("eq", cls, c);
        yields.push(lam.op("soac.convop", &[is], i64t, &[("kind", "btoi")]));
    }
    yields.push(cls);
    lam.at = InsertPoint::End(blk);
    lam.yield_(&yields);
    let ctx = lam.ctx;
    ctx.erase_op(term);
    ctx.take_regions(p);

    // The running count of each class: one scanomap of k + 1 sums.
    let sums = add_operator(ctx, classes + 1, i64t);
    let mut operands = vec![n];
    operands.extend(std::iter::repeat_n(zero, classes + 1));
    operands.extend(&xs);
    let types = vec![arr_n; classes + 2];
    let scan = Builder::before(ctx, p).op("soac.scanomap", &operands, &types, &[], vec![sums, classify]);
    let scanned: Vec<Value> = ctx.results(scan).take(classes + 1).collect();
    let cls_arr = ctx.result(scan, classes + 1);

    // The sizes of the classes: the last running counts (0s for no rows).
    let mut host = Emit {
        ctx,
        at: InsertPoint::Before(p),
        i64t,
        boolt,
    };
    let nonempty = host.cmpop("gt", n, zero);
    let ctx = host.ctx;
    let then = ctx.create_region();
    let tb = ctx.append_block(then, &[]);
    let mut t = Emit {
        ctx,
        at: InsertPoint::End(tb),
        i64t,
        boolt,
    };
    let last = t.binop("sub", n, one);
    let lasts: Vec<Value> = scanned[..classes]
        .iter()
        .map(|&s| t.op("soac.index", &[s, last], i64t, &[]))
        .collect();
    t.yield_(&lasts);
    let ctx = t.ctx;
    let els = ctx.create_region();
    let eb = ctx.append_block(els, &[]);
    Builder::at_end(ctx, eb).op("soac.yield", &vec![zero; classes], &[], &[], Vec::new());
    let counts = Builder::before(ctx, p).op("soac.if", &[nonempty], &vec![i64t; classes], &[], vec![then, els]);
    let counts: Vec<Value> = ctx.results(counts).collect();

    // The offset of each class, less one (the running counts start at 1).
    let mut host = Emit {
        ctx,
        at: InsertPoint::Before(p),
        i64t,
        boolt,
    };
    let mut bases = vec![host.constant(-1)];
    for &c in &counts {
        let prev = *bases.last().expect("bases start with one");
        bases.push(host.binop("add", prev, c));
    }
    let ctx = host.ctx;

    // Each row to its place in a fresh copy of its input.
    let mut dests = Vec::new();
    for &x in &xs {
        let t = ctx.value_type(x);
        let c = Builder::before(ctx, p).op("soac.copy", &[x], &[t], &[], Vec::new());
        dests.push(ctx.result(c, 0));
    }
    let mut arg_types = vec![i64t; classes + 2];
    for &x in &xs {
        arg_types.push(row_type(ctx, x));
    }
    let wr = ctx.create_region();
    let wb = ctx.append_block(wr, &arg_types);
    let args = ctx.block_args(wb).to_vec();
    let (c, counts_i, rows) = (args[0], &args[1..classes + 2], &args[classes + 2..]);
    let mut w = Emit {
        ctx,
        at: InsertPoint::End(wb),
        i64t,
        boolt,
    };
    let places: Vec<Value> = bases
        .iter()
        .zip(counts_i)
        .map(|(&b, &s)| w.binop("add", b, s))
        .collect();
    let mut place = places[classes];
    for (&cc, &pl) in consts[..classes].iter().zip(&places).rev() {
        let is = w.cmpop("eq", c, cc);
        place = w.select(is, pl, place);
    }
    let mut ys = vec![place; xs.len()];
    ys.extend_from_slice(rows);
    w.yield_(&ys);
    let ctx = w.ctx;
    let mut operands = vec![n, cls_arr];
    operands.extend(&scanned);
    operands.extend(&xs);
    operands.extend(&dests);
    let types: Vec<Type> = xs.iter().map(|&x| ctx.value_type(x)).collect();
    let scatter = Builder::before(ctx, p).op("soac.scatter", &operands, &types, &[], vec![wr]);
    let mut new = counts;
    new.extend(ctx.results(scatter));
    ctx.replace_op(p, &new);
    Ok(())
}

/// An operator region adding `k` pairs of `t` values elementwise.
fn add_operator(ctx: &mut Context, k: usize, t: Type) -> RegionId {
    let r = ctx.create_region();
    let b = ctx.append_block(r, &vec![t; 2 * k]);
    let args = ctx.block_args(b).to_vec();
    let add = ctx.string_attr("add");
    let mut sums = Vec::new();
    for i in 0..k {
        let s = Builder::at_end(ctx, b).op(
            "soac.binop",
            &[args[i], args[k + i]],
            &[t],
            &[("kind", add)],
            Vec::new(),
        );
        sums.push(ctx.result(s, 0));
    }
    Builder::at_end(ctx, b).op("soac.yield", &sums, &[], &[], Vec::new());
    r
}

/// The type of a row of array `x`.
fn row_type(ctx: &mut Context, x: Value) -> Type {
    match ctx.type_kind(ctx.value_type(x)).clone() {
        TypeKind::Array { elem, shape } if shape.len() > 1 => ctx.intern_type(TypeKind::Array {
            elem,
            shape: shape[1..].to_vec(),
        }),
        TypeKind::Array { elem, .. } => elem,
        _ => ctx.value_type(x),
    }
}
