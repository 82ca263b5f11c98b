//! Calls that stay calls (Note [Calls kept as calls] in `soac-inline`):
//! a `soac.apply` becomes an `imp.call`, and its callee an `imp.func`.
//!
//! **Note [Functions at the imp level].**
//! A called `soac.func` becomes an `imp.func` of the same name, without
//! the `entry` attribute. The convention is memory in, memory out:
//! - a scalar argument is passed as itself; an array argument as its
//!   whole LMAD (block, offset, and a size and a stride per dimension,
//!   as [`Tr::flatten`] writes it), so a view costs no copy; the callee
//!   only reads it (a function consumes nothing it is given);
//! - a scalar result is returned as itself; an array result as a block
//!   the callee allocated and the array's sizes (row-major from the
//!   block's start), which the caller owns and frees like any of its
//!   allocations.
//!
//! Calls in host code call the host version, translated like an entry
//! point's body (on the GPU target its SOACs become kernels). Calls in
//! kernel code (a segop's body, or a device function) call the device
//! version, marked `device` and named by [`device_symbol`] (the two are
//! in one symbol table, and MLIR wants its symbols unique), whose body
//! is translated as kernel code:
//! SOACs in it are sequential loops. A device function has no host to
//! expand its arrays' memory on, so it allocates them in the thread
//! (Note [Thread allocations] in `mod.rs`); an array it returns is such
//! a block (or a copy into one), which the calling thread owns and
//! frees like its own. The versions are made on demand: after the entry
//! points, each `imp.call` without its callee gets it, until none is
//! missing (a recursive function's call of itself finds the function
//! made, so this ends). Run-time errors in a callee are `imp.assert`s
//! as anywhere: the host program stops, a kernel's thread records the
//! error and ends.

use futmlir_dialects::ir::{AttrKind, BlockId, Builder, Context, OpId, OpView, Type, TypeKind, Value};

use super::{array_elem, Arr, Rep, Target, Tr, R};

/// The symbol of the device version of function `name` (Note [Functions
/// at the imp level]): the name and `$device`. No Futhark name or symbol
/// holds a `$` (the language reference's `name` and `symbol`), nor do the
/// names internalisation makes, so it is no other function's.
pub(crate) fn device_symbol(name: &str) -> String {
    format!("{name}$device")
}

/// The callee of a `soac.apply` or an `imp.call`.
pub(crate) fn callee(ctx: &Context, o: OpId) -> Option<String> {
    match ctx.attr(o, "callee").map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::SymbolRef(s)) | Some(AttrKind::String(s)) => Some(ctx.str(*s).to_string()),
        _ => None,
    }
}

/// The imp types that a value of soac type `t` passes as an argument.
fn param_types(ctx: &mut Context, t: Type) -> Vec<Type> {
    match array_elem(ctx, t) {
        None => vec![t],
        Some((_, rank)) => {
            let block = ctx.intern_type(TypeKind::Mem(futmlir_dialects::ir::MemSpace::Device));
            let i64t = ctx.scalar(futmlir_dialects::ir::Scalar::I64);
            let mut ts = vec![block, i64t];
            ts.extend(std::iter::repeat_n(i64t, 2 * rank));
            ts
        }
    }
}

/// The imp types that a result of soac type `t` is returned as.
fn result_types(ctx: &mut Context, t: Type) -> Vec<Type> {
    match array_elem(ctx, t) {
        None => vec![t],
        Some((_, rank)) => {
            let block = ctx.intern_type(TypeKind::Mem(futmlir_dialects::ir::MemSpace::Device));
            let i64t = ctx.scalar(futmlir_dialects::ir::Scalar::I64);
            let mut ts = vec![block];
            ts.extend(std::iter::repeat_n(i64t, rank));
            ts
        }
    }
}

/// A `soac.apply`: an `imp.call` of the callee's host or device version.
pub(crate) fn apply(tr: &mut Tr, o: OpId, operands: &[Value], results: &[Value]) -> R<Vec<Rep>> {
    let name = callee(tr.ctx, o).ok_or_else(|| tr.fail("soac.apply without a callee"))?;
    let device = tr.in_kernel;
    let mut args = Vec::new();
    for &v in operands {
        let r = tr.rep(v)?;
        args.extend(tr.flatten(&r));
    }
    let mut types = Vec::new();
    for &r in results {
        let t = tr.ctx.value_type(r);
        types.extend(result_types(tr.ctx, t));
    }
    let callee_attr = {
        let s = tr.ctx.sym(&if device { device_symbol(&name) } else { name });
        tr.ctx.intern_attr(AttrKind::SymbolRef(s))
    };
    let mut attrs = vec![("callee", callee_attr)];
    if device {
        attrs.push(("device", tr.ctx.intern_attr(AttrKind::Unit)));
    }
    let call = tr.emit("imp.call", &args, &types, &attrs, vec![]);
    let outs: Vec<Value> = tr.ctx.results(call).collect();
    let mut it = outs.into_iter();
    let mut reps = Vec::new();
    for &r in results {
        let t = tr.ctx.value_type(r);
        reps.push(match array_elem(tr.ctx, t) {
            None => Rep::Scalar(it.next().expect("one imp result per scalar")),
            Some((elem, rank)) => {
                let mem = it.next().expect("a block per array result");
                let sizes: Vec<Value> = (0..rank).map(|_| it.next().expect("its sizes")).collect();
                if let Some(scope) = tr.scopes.last_mut() {
                    scope.push(mem);
                }
                let offset = tr.i64c(0);
                let dims = tr.row_major_dims(&sizes);
                Rep::Array(Arr {
                    mem,
                    elem,
                    offset,
                    dims,
                    row_major: true,
                    fresh: true,
                })
            }
        });
    }
    Ok(reps)
}

/// Makes the imp functions that the module's `imp.call`s call, until
/// none is missing (Note [Functions at the imp level]); `funcs` are the
/// module's `soac.func`s.
pub(crate) fn translate_callees(ctx: &mut Context, module_body: BlockId, funcs: &[OpId], target: Target) -> R<()> {
    let mut made: std::collections::HashSet<(String, bool)> = Default::default();
    loop {
        let mut wanted = Vec::new();
        for f in ctx.block_ops(module_body).collect::<Vec<_>>() {
            ctx.walk(f, &mut |o| {
                if ctx.op_name(o) == "imp.call" {
                    if let Some(n) = callee(ctx, o) {
                        let key = (n, ctx.attr(o, "device").is_some());
                        if !made.contains(&key) && !wanted.contains(&key) {
                            wanted.push(key);
                        }
                    }
                }
            });
        }
        if wanted.is_empty() {
            return Ok(());
        }
        for (symbol, device) in wanted {
            let name = match symbol.strip_suffix(&device_symbol("")) {
                Some(n) if device => n,
                _ => symbol.as_str(),
            };
            let f = funcs
                .iter()
                .copied()
                .find(|&f| OpView { ctx, op: f }.string_attr("sym_name").ok() == Some(name));
            let Some(f) = f else {
                return Err(futmlir_dialects::ir::Diagnostic::error(
                    futmlir_dialects::ir::Location::Unknown,
                    format!("segop-to-imp: a call of `{name}`, which the module does not define"),
                ));
            };
            translate_function(ctx, f, module_body, target, device)?;
            made.insert((symbol, device));
        }
    }
}

/// The `imp.func` of called function `f`, its host or device version.
fn translate_function(ctx: &mut Context, f: OpId, module_body: BlockId, target: Target, device: bool) -> R<()> {
    let name = OpView { ctx, op: f }.string_attr("sym_name").unwrap_or("f").to_string();
    let loc = ctx.location(f);
    let body = ctx.blocks(ctx.regions(f)[0])[0];
    let params = ctx.block_args(body).to_vec();
    let mut imp_types = Vec::new();
    for &p in &params {
        let t = ctx.value_type(p);
        imp_types.extend(param_types(ctx, t));
    }
    let region = ctx.create_region();
    let top = ctx.append_block(region, &imp_types);
    let args = ctx.block_args(top).to_vec();
    let mut tr = Tr::new(ctx, top, module_body, target);
    tr.loc = loc;
    // See Note [Functions at the imp level]: a device version is kernel
    // code, with no host to hoist to.
    tr.in_kernel = device;
    let mut it = args.iter();
    let mut reps = Vec::new();
    for &p in &params {
        let t = tr.ctx.value_type(p);
        reps.push(tr.unflatten(t, &mut it, false));
    }
    let ys = tr.block(body, &reps)?;
    tr.loc = loc;
    let mut returned = Vec::new();
    let mut used_blocks = Vec::new();
    for y in ys {
        match y {
            Rep::Scalar(v) => returned.push(v),
            Rep::Array(a) => {
                // A result the caller owns: a whole block of this call's,
                // returned once; anything else is copied (in a device
                // function, into a block of the thread's).
                super::entry::return_owned(&mut tr, a, &mut used_blocks, &mut returned)?;
            }
        }
    }
    tr.free_scope(&returned);
    tr.emit("imp.return", &returned, &[], &[], vec![]);
    let ctx = tr.ctx;
    let out_types: Vec<Type> = returned.iter().map(|&v| ctx.value_type(v)).collect();
    let ft = ctx.intern_type(TypeKind::Function {
        inputs: imp_types,
        results: out_types,
    });
    let symbol = if device { device_symbol(&name) } else { name };
    let mut attrs = vec![
        ("sym_name", ctx.string_attr(&symbol)),
        ("function_type", ctx.intern_attr(AttrKind::Type(ft))),
    ];
    if device {
        attrs.push(("device", ctx.intern_attr(AttrKind::Unit)));
    }
    let mut b = Builder::at_end(ctx, module_body);
    b.location = loc;
    b.op("imp.func", &[], &[], &attrs, vec![region]);
    Ok(())
}
