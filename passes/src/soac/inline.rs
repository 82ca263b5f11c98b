//! `soac-inline`: inline every call of a function of the module (thesis
//! 5.1), then remove the functions nothing calls that are not entry points.
//!
//! A `soac.apply` whose callee is a `soac.func` of the module is replaced
//! by a copy of the callee's body, placed before the call, with the
//! callee's parameters mapped to the call's operands and the call's
//! results replaced by the values the body returns (sizes in types
//! included, Note [Sizes in types]). Calls of functions outside the
//! module are left alone, and so are the calls that stay calls (Note
//! [Calls kept as calls]).
//!
//! **Note [Calls kept as calls].**
//! Three kinds of call are not inlined, as in Futhark: a call carrying
//! the attribute `noinline` (the source's `#[noinline] f x`), a call of a
//! function carrying it (`#[noinline] def f ...`), and a call in a cycle
//! of calls (a recursive function: inlining it would never end). Such a
//! call stays a `soac.apply` through the soac and segop levels (an opaque
//! op to the simplifier and fusion, a sequential op inside kernel
//! bodies), and `segop-to-imp` makes its callee an imp function of its
//! own (Note [Functions at the imp level] in `segop_to_imp/call.rs`).
//! The callee is inlined into as usual: only the calls that stay calls
//! are kept.

use std::collections::HashMap;

use futmlir_dialects::ir::{AttrKind, Context, Diagnostic, OpId, ValueMap};

use crate::pass::{Level, OptionKind, OptionSpec, Options, Pass, PassInfo};

pub const INFO: PassInfo = PassInfo {
    name: "soac-inline",
    description: "Inline all calls of module functions and remove the functions left uncalled (entry points stay)",
    options: &[
        OptionSpec {
            name: "remove-dead",
            kind: OptionKind::Bool,
            default: "true",
            help: "remove functions that are neither entry points nor called after inlining",
        },
        OptionSpec {
            name: "kernel-allocs",
            kind: OptionKind::Bool,
            default: "true",
            help: "keep a `noinline` call inside a SOAC's lambda whose callee makes arrays \
                   (false for the GPU, where a thread's own allocations are slower than memory expansion: Note [Calls that allocate in kernels])",
        },
    ],
    reads: &[Level::Soac],
    writes: None,
    create: &|o: &Options, _| {
        Box::new(Inline {
            kernel_allocs: o.bool("kernel-allocs"),
            remove_dead: o.bool("remove-dead"),
        })
    },
};

struct Inline {
    remove_dead: bool,
    kernel_allocs: bool,
}

// Note [Calls that allocate in kernels]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// `#[noinline]` is a request, not a meaning: inlining never changes what a
// program computes. A call kept inside a SOAC's lambda becomes a call in
// a kernel, and on the GPU a device function has no host to plan memory
// expansion on, so a callee that makes arrays (`iota x`, a copy, a map)
// allocates them in the thread, on the device heap (Note [Thread
// allocations] in segop_to_imp): slower than expansion (an allocation per
// thread and array, and uncoalesced). With `kernel-allocs=false` (the
// CUDA target's pipeline) such a call is inlined after all, so that its
// arrays are expanded; a call in a cycle of calls cannot be, and stays,
// its device function allocating in the thread.

/// The functions of a module by name.
fn functions(ctx: &Context, module: OpId) -> HashMap<String, OpId> {
    let mut fs = HashMap::new();
    for &r in ctx.regions(module) {
        for &b in ctx.blocks(r) {
            for op in ctx.block_ops(b) {
                if ctx.op_name(op) != "soac.func" {
                    continue;
                }
                if let Some(AttrKind::String(s)) = ctx.attr(op, "sym_name").map(|a| ctx.attr_kind(a)) {
                    fs.insert(ctx.str(*s).to_string(), op);
                }
            }
        }
    }
    fs
}

fn callee(ctx: &Context, apply: OpId) -> Option<String> {
    match ctx.attr(apply, "callee").map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::SymbolRef(s)) | Some(AttrKind::String(s)) => Some(ctx.str(*s).to_string()),
        _ => None,
    }
}

impl Pass for Inline {
    fn run(&mut self, ctx: &mut Context, module: OpId) -> Result<(), Diagnostic> {
        let funcs = functions(ctx, module);
        // Inline the callees of a function before the function itself is
        // copied into its callers, so each body is inlined once.
        let mut state: HashMap<OpId, bool> = HashMap::new(); // false: in progress, true: done
        let mut names: Vec<&String> = funcs.keys().collect();
        names.sort();
        for name in names {
            self.inline_into(ctx, funcs[name], &funcs, &mut state)?;
        }
        if !self.kernel_allocs {
            inline_allocating_in_lambdas(ctx, module, &funcs);
        }
        if self.remove_dead {
            remove_uncalled(ctx, module, &funcs);
        }
        Ok(())
    }
}

impl Inline {
    fn inline_into(
        &self,
        ctx: &mut Context,
        func: OpId,
        funcs: &HashMap<String, OpId>,
        state: &mut HashMap<OpId, bool>,
    ) -> Result<(), Diagnostic> {
        if state.contains_key(&func) {
            return Ok(());
        }
        state.insert(func, false);
        let mut calls = Vec::new();
        ctx.walk(func, &mut |o| {
            if ctx.op_name(o) == "soac.apply" {
                calls.push(o);
            }
        });
        for call in calls {
            let Some(&target) = callee(ctx, call).and_then(|n| funcs.get(&n)) else {
                continue;
            };
            if ctx.attr(call, "noinline").is_some() || ctx.attr(target, "noinline").is_some() {
                self.inline_into(ctx, target, funcs, state)?;
                continue;
            }
            // A callee still in progress calls back into this function
            // (a cycle of calls): the call stays.
            if state.get(&target) == Some(&false) {
                continue;
            }
            self.inline_into(ctx, target, funcs, state)?;
            if state.get(&target) == Some(&false) || calls_in_progress(ctx, target, funcs, state) {
                continue;
            }
            inline_call(ctx, call, target);
        }
        state.insert(func, true);
        Ok(())
    }
}

/// With `kernel-allocs=false`: inline every call left in a SOAC's lambda
/// whose callee makes arrays and is in no cycle of calls, until none is
/// left (an inlined body may bring more such calls into the lambda). See
/// Note [Calls that allocate in kernels].
fn inline_allocating_in_lambdas(ctx: &mut Context, module: OpId, funcs: &HashMap<String, OpId>) {
    loop {
        let mut found = None;
        ctx.walk(module, &mut |o| {
            if found.is_some() || ctx.op_name(o) != "soac.apply" {
                return;
            }
            let Some(&target) = callee(ctx, o).and_then(|n| funcs.get(&n)) else {
                return;
            };
            if super::analysis::held_by(ctx, o, |n| super::analysis::SOAC_OPS.contains(&n))
                && makes_arrays(ctx, target)
                && !recursive(ctx, target, funcs)
            {
                found = Some((o, target));
            }
        });
        let Some((call, target)) = found else { return };
        inline_call(ctx, call, target);
    }
}

/// Whether function `f` calls itself, directly or through others.
fn recursive(ctx: &Context, f: OpId, funcs: &HashMap<String, OpId>) -> bool {
    let mut seen = std::collections::HashSet::new();
    let mut todo = vec![f];
    while let Some(g) = todo.pop() {
        let mut callees = Vec::new();
        ctx.walk(g, &mut |o| {
            if ctx.op_name(o) == "soac.apply" {
                if let Some(&h) = callee(ctx, o).and_then(|n| funcs.get(&n)) {
                    callees.push(h);
                }
            }
        });
        for h in callees {
            if h == f {
                return true;
            }
            if seen.insert(h) {
                todo.push(h);
            }
        }
    }
    false
}

/// Whether function `f` makes an array: an op of its body (at any depth)
/// with an array result (Note [Calls that allocate in kernels]).
fn makes_arrays(ctx: &Context, f: OpId) -> bool {
    let mut found = false;
    ctx.walk(f, &mut |o| {
        if o != f && ctx.results(o).any(|r| ctx.as_scalar(ctx.value_type(r)).is_none()) {
            found = true;
        }
    });
    found
}

/// Whether `target`'s body still calls a function whose inlining is in
/// progress (it is in a cycle of calls with one of the callers): copying
/// its body would copy that call, and the cycle would be inlined without
/// end.
fn calls_in_progress(ctx: &Context, target: OpId, funcs: &HashMap<String, OpId>, state: &HashMap<OpId, bool>) -> bool {
    let mut found = false;
    ctx.walk(target, &mut |o| {
        if ctx.op_name(o) == "soac.apply" && ctx.attr(o, "noinline").is_none() {
            if let Some(&f) = callee(ctx, o).and_then(|n| funcs.get(&n)) {
                found |= f == target || state.get(&f) == Some(&false);
            }
        }
    });
    found
}

/// Replace `call` by a copy of `target`'s body.
fn inline_call(ctx: &mut Context, call: OpId, target: OpId) {
    let body = ctx.blocks(ctx.regions(target)[0])[0];
    let mut map = ValueMap::default();
    for (&p, &a) in ctx.block_args(body).iter().zip(ctx.operands(call)) {
        map.insert(p, a);
    }
    let ops: Vec<OpId> = ctx.block_ops(body).collect();
    let (ret, rest) = ops.split_last().expect("a verified function body ends in soac.return");
    let block = ctx
        .parent_block(call)
        .expect("a call being inlined is linked in a block");
    for &o in rest {
        let c = ctx.clone_op(o, &mut map);
        ctx.insert_op(block, Some(call), c);
    }
    let returned: Vec<_> = ctx.operands(*ret).iter().map(|&v| map.get(v)).collect();
    ctx.replace_op(call, &returned);
}

/// Remove the functions that are not entry points and that no remaining
/// call names.
fn remove_uncalled(ctx: &mut Context, module: OpId, funcs: &HashMap<String, OpId>) {
    let mut called = std::collections::HashSet::new();
    ctx.walk(module, &mut |o| {
        if ctx.op_name(o) == "soac.apply" {
            if let Some(n) = callee(ctx, o) {
                called.insert(n);
            }
        }
    });
    for (name, &f) in funcs {
        if ctx.attr(f, "entry").is_none() && !called.contains(name) {
            ctx.erase_op(f);
        }
    }
}
