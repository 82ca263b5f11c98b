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

use crate::pass::{OptionKind, OptionSpec, Pass, PassInfo};

pub const INFO: PassInfo = PassInfo {
    name: "soac-inline",
    description: "Inline all calls of module functions and remove the functions left uncalled (entry points stay)",
    options: &[OptionSpec {
        name: "remove-dead",
        kind: OptionKind::Bool,
        default: "true",
        help: "remove functions that are neither entry points nor called after inlining",
    }],
    create: |o| {
        Box::new(Inline {
            remove_dead: o.bool("remove-dead"),
        })
    },
};

struct Inline {
    remove_dead: bool,
}

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
