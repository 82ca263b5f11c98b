//! Entry points: the `imp.func` that the executable's runtime calls.
//!
//! Its parameters are the user's arguments as the runtime passes them
//! (`runtime-cuda/ABI.md`): a scalar as itself, an array as its block
//! and its sizes. The soac function's size parameters are derived from
//! those sizes (Note [Entry arguments] in the soac interpreter), with a
//! check wherever two sizes must agree or a size is a constant. Its
//! results are likewise scalars, or a fresh block and the sizes.
//! Attributes `in_types` and `out_types` list `(element code, rank)`
//! per argument and result, the element code being the position in
//! `Scalar::ALL`. A record or sum type parameter or result is here as
//! its flattened components; the attribute `interface`, copied from the
//! soac function, says how they group (Note [Entry point interfaces] in
//! the frontend's `internalise::interface`).

use futmlir_dialects::ir::{AttrKind, BlockId, Builder, Context, Dim, OpId, OpView, Scalar, Type, TypeKind, Value};

use super::{array_dims, array_elem, Arr, Rep, Target, Tr, R};

// Note [Uncallable entry points]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// An entry point that takes or returns a value of an opaque type may use
// what the compiled backends cannot translate, where its other entry
// points can: `entry a (x: [](i32, ())) ...` has a size that no
// component gives (an array of `()` has no components). Such an entry
// point would be unusable in any case outside the server, so it must not
// make the whole program fail to build: it becomes a stub whose
// interface ends with the line `uncallable REASON` (Note [Entry point
// interfaces] in the frontend), which the runtime lists but refuses to
// call, saying why. An entry point of transparent types that cannot be
// translated is an error, as before: the user can call it from the
// command line and must hear of it at build time.

pub(crate) fn translate_entry(ctx: &mut Context, f: OpId, module_body: BlockId, target: Target) -> R<()> {
    let opaque = OpView { ctx, op: f }
        .string_attr("interface")
        .is_ok_and(|i| i.lines().any(|l| l.starts_with("type\t")));
    match translate_callable_entry(ctx, f, module_body, target) {
        // See Note [Uncallable entry points].
        Err(d) if opaque => {
            uncallable_entry(ctx, f, module_body, &d.message);
            Ok(())
        }
        r => r,
    }
}

/// The components' `(element code, rank)` pairs of types `ts`.
fn component_codes(ctx: &Context, ts: &[Type]) -> Vec<i64> {
    ts.iter()
        .flat_map(|&t| match array_elem(ctx, t) {
            None => [code(ctx.as_scalar(t).unwrap_or(Scalar::I64)), 0],
            Some((elem, rank)) => [code(elem), rank as i64],
        })
        .collect()
}

/// The stub of an entry point that cannot be translated (See Note
/// [Uncallable entry points]): no parameters, no results, and the
/// interface saying why.
fn uncallable_entry(ctx: &mut Context, f: OpId, module_body: BlockId, reason: &str) {
    let view = OpView { ctx, op: f };
    let name = view.string_attr("sym_name").unwrap_or("main").to_string();
    let k = view.int_attr("size_params").unwrap_or(0) as usize;
    let reason = reason.replace(['\n', '\t'], " ");
    let interface = format!(
        "{}uncallable\t{reason}\n",
        view.string_attr("interface").unwrap_or_default()
    );
    let loc = ctx.location(f);
    let body = ctx.blocks(ctx.regions(f)[0])[0];
    let param_types: Vec<Type> = ctx.block_args(body)[k..].iter().map(|&p| ctx.value_type(p)).collect();
    let result_types = match ctx.attr(f, "function_type").map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::Type(t)) => match ctx.type_kind(*t) {
            TypeKind::Function { results, .. } => results.clone(),
            _ => Vec::new(),
        },
        _ => Vec::new(),
    };
    let (in_desc, out_desc) = (component_codes(ctx, &param_types), component_codes(ctx, &result_types));
    let ft = ctx.intern_type(TypeKind::Function {
        inputs: vec![],
        results: vec![],
    });
    let region = ctx.create_region();
    let top = ctx.append_block(region, &[]);
    let mut b = Builder::at_end(ctx, top);
    b.location = loc;
    b.op("imp.return", &[], &[], &[], vec![]);
    let attrs = [
        ("sym_name", ctx.string_attr(&name)),
        ("function_type", ctx.intern_attr(AttrKind::Type(ft))),
        ("entry", ctx.intern_attr(AttrKind::Unit)),
        ("uncallable", ctx.intern_attr(AttrKind::Unit)),
        ("in_types", int_array(ctx, &in_desc)),
        ("out_types", int_array(ctx, &out_desc)),
        ("interface", ctx.string_attr(&interface)),
    ];
    let mut b = Builder::at_end(ctx, module_body);
    b.location = loc;
    b.op("imp.func", &[], &[], &attrs, vec![region]);
}

/// An entry point's `imp.func`, or why it cannot be translated.
fn translate_callable_entry(ctx: &mut Context, f: OpId, module_body: BlockId, target: Target) -> R<()> {
    let view = OpView { ctx, op: f };
    let name = view.string_attr("sym_name").unwrap_or("main").to_string();
    let k = view.int_attr("size_params").unwrap_or(0) as usize;
    let loc = ctx.location(f);
    let body = ctx.blocks(ctx.regions(f)[0])[0];
    let params = ctx.block_args(body).to_vec();
    let result_types: Vec<Type> = match ctx.type_kind(
        ctx.attr(f, "function_type")
            .and_then(|a| match ctx.attr_kind(a) {
                AttrKind::Type(t) => Some(*t),
                _ => None,
            })
            .expect("a verified soac.func has a function_type"),
    ) {
        TypeKind::Function { results, .. } => results.clone(),
        _ => Vec::new(),
    };
    let i64t = ctx.scalar(Scalar::I64);
    let block_t = ctx.intern_type(TypeKind::Mem(futmlir_dialects::ir::MemSpace::Device));

    // The imp parameters and the external description.
    let mut imp_types = Vec::new();
    let mut in_desc = Vec::new();
    for &p in &params[k..] {
        let t = ctx.value_type(p);
        match array_elem(ctx, t) {
            None => {
                imp_types.push(t);
                in_desc.extend([code(ctx.as_scalar(t).unwrap_or(Scalar::I64)), 0]);
            }
            Some((elem, rank)) => {
                imp_types.push(block_t);
                imp_types.extend(std::iter::repeat_n(i64t, rank));
                in_desc.extend([code(elem), rank as i64]);
            }
        }
    }
    let mut out_desc = Vec::new();
    let mut out_types = Vec::new();
    for &t in &result_types {
        match array_elem(ctx, t) {
            None => {
                out_types.push(t);
                out_desc.extend([code(ctx.as_scalar(t).unwrap_or(Scalar::I64)), 0]);
            }
            Some((elem, rank)) => {
                out_types.push(block_t);
                out_types.extend(std::iter::repeat_n(i64t, rank));
                out_desc.extend([code(elem), rank as i64]);
            }
        }
    }
    let region = ctx.create_region();
    let top = ctx.append_block(region, &imp_types);
    let args = ctx.block_args(top).to_vec();

    let mut tr = Tr::new(ctx, top, module_body, target);
    tr.loc = loc;
    let mut reps: Vec<Option<Rep>> = vec![None; params.len()];
    let mut it = args.iter();
    for (j, &p) in params.iter().enumerate().skip(k) {
        let t = tr.ctx.value_type(p);
        reps[j] = Some(match array_elem(tr.ctx, t) {
            None => Rep::Scalar(*it.next().expect("argument")),
            Some((elem, rank)) => {
                let mem = *it.next().expect("block");
                let sizes: Vec<Value> = (0..rank).map(|_| *it.next().expect("size")).collect();
                let offset = tr.i64c(0);
                let dims = tr.row_major_dims(&sizes);
                Rep::Array(Arr {
                    mem,
                    elem,
                    offset,
                    dims,
                    row_major: true,
                    fresh: false,
                })
            }
        });
    }
    // Derive the size parameters; check sizes that must agree.
    for j in k..params.len() {
        let t = tr.ctx.value_type(params[j]);
        let Some(Rep::Array(a)) = reps[j].clone() else { continue };
        for (d, dim) in array_dims(tr.ctx, t).into_iter().enumerate() {
            let actual = a.dims[d].0;
            let what = format!("argument {} of entry point {name}", j - k + 1);
            match dim {
                Dim::Const(c) => {
                    let want = tr.i64c(c as i64);
                    let ok = tr.cmp("eq", actual, want);
                    let msg = format!("{what}: dimension {} has size {{0}}, but the type requires {c}", d + 1);
                    tr.assert(ok, &[actual], &msg);
                }
                Dim::Value(v) => {
                    let Some(i) = params.iter().position(|&p| p == v) else {
                        continue;
                    };
                    match &reps[i] {
                        None => reps[i] = Some(Rep::Scalar(actual)),
                        Some(Rep::Scalar(s)) => {
                            let s = *s;
                            let ok = tr.cmp("eq", actual, s);
                            let msg = format!(
                                "{what}: dimension {} has size {{0}}, but another argument gives the size {{1}}",
                                d + 1
                            );
                            tr.assert(ok, &[actual, s], &msg);
                        }
                        Some(Rep::Array(_)) => {}
                    }
                }
                Dim::Unknown => {}
            }
        }
    }
    let mut all = Vec::new();
    for (j, r) in reps.into_iter().enumerate() {
        match r {
            Some(r) => all.push(r),
            None => {
                return Err(tr.unsupported(&format!(
                    "an entry point whose size parameter {} no argument's shape gives",
                    j + 1
                )))
            }
        }
    }
    let ys = tr.block(body, &all)?;
    tr.loc = loc;
    // The results: fresh, unaliased, row-major blocks.
    let mut returned = Vec::new();
    let mut used_blocks = Vec::new();
    for y in ys {
        match y {
            Rep::Scalar(v) => returned.push(v),
            Rep::Array(a) => return_owned(&mut tr, a, &mut used_blocks, &mut returned)?,
        }
    }
    tr.free_scope(&returned);
    tr.emit("imp.return", &returned, &[], &[], vec![]);
    let ctx = tr.ctx;
    let ft = ctx.intern_type(TypeKind::Function {
        inputs: imp_types,
        results: out_types,
    });
    let mut attrs = vec![
        ("sym_name", ctx.string_attr(&name)),
        ("function_type", ctx.intern_attr(AttrKind::Type(ft))),
        ("entry", ctx.intern_attr(AttrKind::Unit)),
        ("in_types", int_array(ctx, &in_desc)),
        ("out_types", int_array(ctx, &out_desc)),
    ];
    // Note [Entry point interfaces] in the frontend's internaliser.
    if let Some(interface) = ctx.attr(f, "interface") {
        attrs.push(("interface", interface));
    }
    let mut b = Builder::at_end(ctx, module_body);
    b.location = loc;
    b.op("imp.func", &[], &[], &attrs, vec![region]);
    Ok(())
}

/// Returns array `a` as a block the caller owns (with its sizes after
/// it, in `returned`): a whole fresh block of this function's, returned
/// once (`used_blocks`), or else a copy.
pub(crate) fn return_owned(tr: &mut Tr, a: Arr, used_blocks: &mut Vec<Value>, returned: &mut Vec<Value>) -> R<()> {
    let a = if a.fresh && !used_blocks.contains(&a.mem) {
        a
    } else {
        let sizes = a.sizes();
        let dst = tr.alloc_array(a.elem, &sizes)?;
        tr.copy_into(&dst, &a);
        dst
    };
    used_blocks.push(a.mem);
    returned.push(a.mem);
    returned.extend(a.sizes());
    Ok(())
}

/// The runtime's element code of a scalar type.
pub(crate) fn code(s: Scalar) -> i64 {
    Scalar::ALL.iter().position(|&x| x == s).unwrap_or(0) as i64
}

pub(crate) fn int_array(ctx: &mut Context, xs: &[i64]) -> futmlir_dialects::ir::Attr {
    let items = xs.iter().map(|&x| ctx.int_attr(x, Scalar::I64)).collect();
    ctx.intern_attr(AttrKind::Array(items))
}
