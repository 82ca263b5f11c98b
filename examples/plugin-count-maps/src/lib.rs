//! An example pass plugin: `futmlir opt --load-pass-plugin
//! target/release/libfutmlir_plugin_count_maps.so --list-passes` shows its
//! two soac passes, which any pipeline may then name:
//!
//! - `soac-count-maps{attribute=NAME}` gives each `soac.func` an `i64`
//!   attribute NAME: the number of `soac.map` ops in it.
//! - `soac-double-to-add` rewrites `x * 2` (a `soac.binop` of kind `mul`
//!   with a constant 2, integer or float, on either side) to `x + x`.
//!
//! The plugin talks to futmlir through the C ABI of `futmlir-plugin-abi`:
//! it gets the IR as text, parses it with its own copy of
//! `futmlir-dialects`, rewrites it, and prints it back (Note [Pass
//! plugins] in `passes/src/plugin.rs`).

use std::ffi::c_char;

use futmlir_dialects::ir::{AttrKind, Context, OpId, PrintOptions, Scalar, Value};
use futmlir_plugin_abi::{self as abi, level, option_kind, OptionArg, OptionDef, PassDef, PluginInfo};

static COUNT_MAPS_OPTIONS: [OptionDef; 1] = [OptionDef {
    name: c"attribute".as_ptr(),
    kind: option_kind::STRING,
    default: c"maps".as_ptr(),
    help: c"the name of the attribute that holds the count".as_ptr(),
}];

static PASSES: [PassDef; 2] = [
    PassDef {
        name: c"soac-count-maps".as_ptr(),
        description: c"Give each soac.func an attribute: its number of soac.map ops (a plugin pass)".as_ptr(),
        reads: level::SOAC,
        writes: 0,
        options: COUNT_MAPS_OPTIONS.as_ptr(),
        num_options: COUNT_MAPS_OPTIONS.len(),
        run: Some(run_count_maps),
    },
    PassDef {
        name: c"soac-double-to-add".as_ptr(),
        description: c"Rewrite x * 2 to x + x in soac scalar code (a plugin pass)".as_ptr(),
        reads: level::SOAC | level::SEGOP | level::MEM,
        writes: 0,
        options: std::ptr::null(),
        num_options: 0,
        run: Some(run_double_to_add),
    },
];

static INFO: PluginInfo = PluginInfo {
    abi_version: abi::ABI_VERSION,
    name: c"count-maps".as_ptr(),
    passes: PASSES.as_ptr(),
    num_passes: PASSES.len(),
    free_text: Some(abi::free_text),
};

/// The plugin's one export (`futmlir_plugin_abi::INFO_SYMBOL`).
#[no_mangle]
pub extern "C" fn futmlir_pass_plugin_info() -> *const PluginInfo {
    &INFO
}

/// # Safety
/// Called by futmlir as `PassDef::run` says.
unsafe extern "C" fn run_count_maps(
    ir: *const c_char,
    options: *const OptionArg,
    num_options: usize,
    out: *mut *mut c_char,
) -> u32 {
    // SAFETY: the arguments are futmlir's, as `run_text_pass` requires.
    unsafe {
        abi::run_text_pass(ir, options, num_options, out, |ir, opts| {
            on_text(ir, |ctx, root| count_maps(ctx, root, opts))
        })
    }
}

/// # Safety
/// Called by futmlir as `PassDef::run` says.
unsafe extern "C" fn run_double_to_add(
    ir: *const c_char,
    options: *const OptionArg,
    num_options: usize,
    out: *mut *mut c_char,
) -> u32 {
    // SAFETY: the arguments are futmlir's, as `run_text_pass` requires.
    unsafe { abi::run_text_pass(ir, options, num_options, out, |ir, _| on_text(ir, double_to_add)) }
}

/// Parses `ir`, runs `pass` on it, and prints it back in the form futmlir
/// sent it (generic, with locations).
fn on_text(ir: &str, pass: impl FnOnce(&mut Context, OpId) -> Result<(), String>) -> Result<String, String> {
    let mut ctx = futmlir_dialects::context();
    let root = ctx.parse_str("input", ir).map_err(|d| d.to_plain(&ctx))?;
    pass(&mut ctx, root)?;
    Ok(ctx.print_op(
        root,
        PrintOptions {
            generic: true,
            locations: true,
        },
    ))
}

fn count_maps(ctx: &mut Context, root: OpId, opts: &[(String, String)]) -> Result<(), String> {
    let attribute = opts
        .iter()
        .find(|(k, _)| k == "attribute")
        .map(|(_, v)| v.as_str())
        .unwrap_or("maps");
    if attribute.is_empty() || !attribute.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(format!(
            "attribute='{attribute}' is not a name of letters, digits and '_'"
        ));
    }
    let mut funcs = Vec::new();
    if ctx.op_name(root) == "soac.func" {
        funcs.push(root);
    }
    ctx.walk(root, &mut |o| {
        if ctx.op_name(o) == "soac.func" {
            funcs.push(o);
        }
    });
    let name = ctx.sym(attribute);
    for f in funcs {
        let mut maps = 0;
        ctx.walk(f, &mut |o| maps += (ctx.op_name(o) == "soac.map") as i64);
        let count = ctx.int_attr(maps, Scalar::I64);
        ctx.set_attr(f, name, count);
    }
    Ok(())
}

fn double_to_add(ctx: &mut Context, root: OpId) -> Result<(), String> {
    let mut muls = Vec::new();
    ctx.walk(root, &mut |o| {
        let is_mul = ctx.op_name(o) == "soac.binop"
            && ctx
                .attr(o, "kind")
                .is_some_and(|k| matches!(ctx.attr_kind(k), AttrKind::String(s) if ctx.str(*s) == "mul"));
        if is_mul {
            muls.push(o);
        }
    });
    let add = ctx.string_attr("add");
    let kind = ctx.sym("kind");
    for m in muls {
        let (a, b) = (ctx.operand(m, 0), ctx.operand(m, 1));
        let x = if is_two(ctx, b) {
            a
        } else if is_two(ctx, a) {
            b
        } else {
            continue;
        };
        ctx.set_operand(m, 0, x);
        ctx.set_operand(m, 1, x);
        ctx.set_attr(m, kind, add);
    }
    Ok(())
}

/// Whether `v` is a `soac.constant` 2 (integer or float).
fn is_two(ctx: &Context, v: Value) -> bool {
    let Some(c) = ctx.defining_op(v).filter(|&c| ctx.op_name(c) == "soac.constant") else {
        return false;
    };
    match ctx.attr(c, "value").map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::Int { bits, .. }) => *bits == 2,
        Some(AttrKind::Float { bits, .. }) => f64::from_bits(*bits) == 2.0,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FUNC: &str = r#"soac.func() {sym_name = "main", function_type = (i64, !fut.array<[?]f32>) -> !fut.array<[?]f32>, entry} ({
^bb0(%0: i64, %1: [%0]f32):
  %2 = soac.constant() {value = 2.0 : f32} : () -> f32
  %3 = soac.constant() {value = 3.0 : f32} : () -> f32
  %4 = soac.map(%0, %1) ({
  ^bb0(%5: f32):
    %6 = soac.binop(%2, %5) {kind = "mul"} : (f32, f32) -> f32
    %7 = soac.binop(%6, %3) {kind = "mul"} : (f32, f32) -> f32
    soac.yield(%7) : (f32) -> ()
  }) : (i64, [%0]f32) -> [%0]f32
  soac.return(%4) : ([%0]f32) -> ()
}) : () -> ()
"#;

    #[test]
    fn times_two_becomes_a_sum_and_times_three_stays() {
        let out = on_text(FUNC, double_to_add).unwrap();
        assert!(out.contains(r#"%6 = "soac.binop"(%5, %5) {kind = "add"}"#), "{out}");
        assert!(out.contains(r#"%7 = "soac.binop"(%6, %3) {kind = "mul"}"#), "{out}");
    }

    #[test]
    fn maps_are_counted_into_the_named_attribute() {
        let opts = [("attribute".to_string(), "nmaps".to_string())];
        let out = on_text(FUNC, |ctx, root| count_maps(ctx, root, &opts)).unwrap();
        assert!(out.contains("nmaps = 1 : i64"), "{out}");
        let bad = [("attribute".to_string(), "a b".to_string())];
        let e = on_text(FUNC, |ctx, root| count_maps(ctx, root, &bad)).unwrap_err();
        assert!(e.contains("is not a name"), "{e}");
    }
}
