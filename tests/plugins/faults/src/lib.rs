//! A pass plugin that misbehaves on purpose, so that the driver's tests
//! can check futmlir's messages for it (driver/tests/plugins.rs):
//!
//! - `ir-fail` returns an error;
//! - `ir-garbage` returns text that does not parse;
//! - `ir-panic` panics (which `run_text_pass` turns into an error);
//! - `ir-miscompile` gives valid IR that computes something else: every
//!   integer or float addition becomes a subtraction (so that
//!   `futmlir test --each-pass` has a wrong pass to convict);
//! - with `FUTMLIR_FAULTS_PLUGIN_ABI=N` in the environment, the plugin
//!   says it speaks ABI version N.

use std::ffi::c_char;

use futmlir_plugin_abi::{self as abi, level, OptionArg, PassDef, PluginInfo};

const fn pass(name: &'static std::ffi::CStr, run: RunFn) -> PassDef {
    PassDef {
        name: name.as_ptr(),
        description: c"A pass that misbehaves (test plugin)".as_ptr(),
        reads: level::ANY,
        writes: 0,
        options: std::ptr::null(),
        num_options: 0,
        run: Some(run),
    }
}

type RunFn = unsafe extern "C" fn(*const c_char, *const OptionArg, usize, *mut *mut c_char) -> u32;

static PASSES: [PassDef; 4] = [
    pass(c"ir-fail", run_fail),
    pass(c"ir-garbage", run_garbage),
    pass(c"ir-panic", run_panic),
    pass(c"ir-miscompile", run_miscompile),
];

static INFO: PluginInfo = PluginInfo {
    abi_version: abi::ABI_VERSION,
    name: c"faults".as_ptr(),
    passes: PASSES.as_ptr(),
    num_passes: PASSES.len(),
    free_text: Some(abi::free_text),
};

/// The version `FUTMLIR_FAULTS_PLUGIN_ABI` names, read once.
static OTHER_VERSION: std::sync::OnceLock<u32> = std::sync::OnceLock::new();

/// The plugin's one export.
#[no_mangle]
pub extern "C" fn futmlir_pass_plugin_info() -> *const PluginInfo {
    let version = OTHER_VERSION.get_or_init(|| {
        std::env::var("FUTMLIR_FAULTS_PLUGIN_ABI")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(abi::ABI_VERSION)
    });
    if *version != abi::ABI_VERSION {
        // A plugin of another version: futmlir must read only the version,
        // the first field in every version, so a bare `u32` is enough.
        return version as *const u32 as *const PluginInfo;
    }
    &INFO
}

unsafe extern "C" fn run_fail(ir: *const c_char, o: *const OptionArg, n: usize, out: *mut *mut c_char) -> u32 {
    // SAFETY: futmlir's arguments, as `run_text_pass` requires.
    unsafe { abi::run_text_pass(ir, o, n, out, |_, _| Err("ir-fail fails on purpose".into())) }
}

unsafe extern "C" fn run_garbage(ir: *const c_char, o: *const OptionArg, n: usize, out: *mut *mut c_char) -> u32 {
    // SAFETY: futmlir's arguments, as `run_text_pass` requires.
    unsafe { abi::run_text_pass(ir, o, n, out, |_, _| Ok("builtin.module() ({ %0 = ".into())) }
}

unsafe extern "C" fn run_panic(ir: *const c_char, o: *const OptionArg, n: usize, out: *mut *mut c_char) -> u32 {
    // SAFETY: futmlir's arguments, as `run_text_pass` requires.
    unsafe { abi::run_text_pass(ir, o, n, out, |_, _| panic!("ir-panic panics on purpose")) }
}

unsafe extern "C" fn run_miscompile(ir: *const c_char, o: *const OptionArg, n: usize, out: *mut *mut c_char) -> u32 {
    // SAFETY: futmlir's arguments, as `run_text_pass` requires.
    unsafe {
        abi::run_text_pass(ir, o, n, out, |ir, _| {
            Ok(ir.replace("{kind = \"add\"}", "{kind = \"sub\"}"))
        })
    }
}
