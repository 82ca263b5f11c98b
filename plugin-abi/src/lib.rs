//! The C ABI between futmlir and a pass plugin: a shared library that
//! `--load-pass-plugin lib.so` loads, whose passes then register like
//! built-in ones (see Note [Pass plugins] in `passes/src/plugin.rs` for
//! why the ABI is C and IR crosses it as text).
//!
//! A plugin exports one symbol, [`INFO_SYMBOL`]:
//!
//! ```text
//! extern "C" fn futmlir_pass_plugin_info() -> *const PluginInfo
//! ```
//!
//! returning a [`PluginInfo`] that lives as long as the library: the ABI
//! version (first, so that futmlir can read it before anything whose
//! layout a version may change), a name, its passes ([`PassDef`]) and the
//! function that frees the text its passes return. Everything is
//! `#[repr(C)]` with NUL-terminated UTF-8 strings, so a plugin written in
//! Rust (against this crate) or in C works with any futmlir of the same
//! [`ABI_VERSION`], whatever compiler built either side.
//!
//! A pass's `run` gets the IR it runs on as text (MLIR's generic form,
//! with `loc(...)`), its options as name/value pairs, and hands back the
//! IR it made as text, or an error message; [`run_text_pass`] does the
//! pointer work for a Rust plugin, which parses, rewrites and prints with
//! its own copy of `futmlir-dialects`. `examples/plugin-count-maps` is a
//! plugin written this way.

use std::ffi::{c_char, CStr, CString};
use std::panic::AssertUnwindSafe;

/// The version of this ABI. futmlir refuses a plugin of another version.
/// Raise it on any change to the structs, the constants or the meaning
/// of a field.
pub const ABI_VERSION: u32 = 1;

/// The name of the one symbol a plugin exports (NUL-terminated).
pub const INFO_SYMBOL: &[u8] = b"futmlir_pass_plugin_info\0";

/// The levels of the compile as bits, for [`PassDef::reads`] and
/// [`PassDef::writes`] (Note [Pass levels] in `passes/src/pipeline.rs`).
pub mod level {
    pub const SOURCE: u32 = 1;
    pub const SOAC: u32 = 2;
    pub const SEGOP: u32 = 4;
    pub const MEM: u32 = 8;
    pub const IMP: u32 = 16;
    /// Every level: a pass that works on any IR.
    pub const ANY: u32 = SOURCE | SOAC | SEGOP | MEM | IMP;
}

/// The kinds of option, for [`OptionDef::kind`].
pub mod option_kind {
    pub const BOOL: u32 = 0;
    pub const UINT: u32 = 1;
    pub const INT: u32 = 2;
    pub const STRING: u32 = 3;
}

/// What [`PassDef::run`] returns when the output is IR.
pub const RUN_OK: u32 = 0;
/// What [`PassDef::run`] returns when the output is an error message.
pub const RUN_ERROR: u32 = 1;

/// What a plugin exports. Every pointer points to data that lives as long
/// as the library is loaded.
#[repr(C)]
pub struct PluginInfo {
    /// [`ABI_VERSION`] of the crate the plugin was built against. Must stay
    /// the first field in every version.
    pub abi_version: u32,
    /// The plugin's name, for messages.
    pub name: *const c_char,
    pub passes: *const PassDef,
    pub num_passes: usize,
    /// Frees a text that a pass's `run` returned (it was allocated by the
    /// plugin, so only the plugin may free it).
    pub free_text: Option<unsafe extern "C" fn(text: *mut c_char)>,
}

/// One pass of a plugin.
#[repr(C)]
pub struct PassDef {
    /// Kebab-case, prefixed by the dialect it works on (`soac-...`), and
    /// unlike every other pass's name.
    pub name: *const c_char,
    /// One line, for `--list-passes`.
    pub description: *const c_char,
    /// The levels it reads: [`level`] bits, not 0.
    pub reads: u32,
    /// The level it writes (one [`level`] bit, for a conversion), or 0 for
    /// the level it read.
    pub writes: u32,
    pub options: *const OptionDef,
    pub num_options: usize,
    /// Runs the pass on `ir` (NUL-terminated text of one op and what it
    /// holds) with every declared option (`num_options` pairs, defaults
    /// filled in). Sets `*out` to a NUL-terminated text the plugin
    /// allocated (freed with [`PluginInfo::free_text`]): the new IR, of
    /// one op of the same name, with [`RUN_OK`]; an error message with
    /// [`RUN_ERROR`].
    pub run: Option<
        unsafe extern "C" fn(
            ir: *const c_char,
            options: *const OptionArg,
            num_options: usize,
            out: *mut *mut c_char,
        ) -> u32,
    >,
}

/// A declared option of a plugin pass (`pass{name=value}` in a pipeline).
#[repr(C)]
pub struct OptionDef {
    pub name: *const c_char,
    /// An [`option_kind`].
    pub kind: u32,
    /// Its default, as pipeline text (`true`, `8`, `word`).
    pub default: *const c_char,
    pub help: *const c_char,
}

/// An option's value, as a pass's `run` gets it.
#[repr(C)]
pub struct OptionArg {
    pub name: *const c_char,
    /// The value as pipeline text: `true`/`false`, a number, a string.
    pub value: *const c_char,
}

// The pointers in these structs point to immutable data that lives as long
// as the library, so a plugin may keep them in statics.
unsafe impl Sync for PluginInfo {}
unsafe impl Sync for PassDef {}
unsafe impl Sync for OptionDef {}

/// The body of a plugin pass's `run` for a Rust plugin: turns the
/// arguments into `&str`s, calls `pass(ir, options)`, and writes its text
/// (or its error, or the message of a panic, which must not cross the C
/// boundary) to `out`.
///
/// # Safety
/// The arguments must be those futmlir passes to [`PassDef::run`]: `ir`
/// NUL-terminated, `options` pointing to `num_options` pairs of
/// NUL-terminated strings, `out` writable.
pub unsafe fn run_text_pass(
    ir: *const c_char,
    options: *const OptionArg,
    num_options: usize,
    out: *mut *mut c_char,
    pass: impl FnOnce(&str, &[(String, String)]) -> Result<String, String>,
) -> u32 {
    let result = std::panic::catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: the caller's contract.
        let ir = unsafe { text_arg(ir, "the IR")? };
        let mut opts = Vec::with_capacity(num_options);
        if num_options > 0 {
            if options.is_null() {
                return Err("the options are missing".to_string());
            }
            // SAFETY: the caller's contract: `num_options` pairs.
            for a in unsafe { std::slice::from_raw_parts(options, num_options) } {
                // SAFETY: the caller's contract.
                let (name, value) = unsafe {
                    (
                        text_arg(a.name, "an option name")?,
                        text_arg(a.value, "an option value")?,
                    )
                };
                opts.push((name.to_string(), value.to_string()));
            }
        }
        pass(ir, &opts)
    }));
    let (status, text) = match result {
        Ok(Ok(ir)) => (RUN_OK, ir),
        Ok(Err(message)) => (RUN_ERROR, message),
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic".to_string());
            (RUN_ERROR, format!("the pass panicked: {what}"))
        }
    };
    let (status, text) = match CString::new(text) {
        Ok(t) => (status, t),
        Err(_) => (RUN_ERROR, c"the pass's output holds a NUL byte".to_owned()),
    };
    if !out.is_null() {
        // SAFETY: the caller's contract: `out` is writable.
        unsafe { *out = text.into_raw() };
    }
    status
}

/// A NUL-terminated UTF-8 argument as `&str`.
///
/// # Safety
/// `p` is null or NUL-terminated.
unsafe fn text_arg<'a>(p: *const c_char, what: &str) -> Result<&'a str, String> {
    if p.is_null() {
        return Err(format!("{what} is missing"));
    }
    // SAFETY: the caller's contract.
    unsafe { CStr::from_ptr(p) }
        .to_str()
        .map_err(|_| format!("{what} is not UTF-8"))
}

/// [`PluginInfo::free_text`] for a plugin whose passes use
/// [`run_text_pass`].
///
/// # Safety
/// `text` is null or a text [`run_text_pass`] returned, not yet freed.
pub unsafe extern "C" fn free_text(text: *mut c_char) {
    if !text.is_null() {
        // SAFETY: the text came from `CString::into_raw` in `run_text_pass`.
        drop(unsafe { CString::from_raw(text) });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(
        ir: &str,
        opts: &[(&CStr, &CStr)],
        pass: impl FnOnce(&str, &[(String, String)]) -> Result<String, String>,
    ) -> (u32, String) {
        let ir = CString::new(ir).unwrap();
        let args: Vec<OptionArg> = opts
            .iter()
            .map(|(n, v)| OptionArg {
                name: n.as_ptr(),
                value: v.as_ptr(),
            })
            .collect();
        let mut out = std::ptr::null_mut();
        let status = unsafe { run_text_pass(ir.as_ptr(), args.as_ptr(), args.len(), &mut out, pass) };
        let text = unsafe { CStr::from_ptr(out) }.to_str().unwrap().to_string();
        unsafe { free_text(out) };
        (status, text)
    }

    #[test]
    fn text_and_options_cross_and_come_back() {
        let (status, text) = call("a", &[(c"k", c"v")], |ir, opts| {
            Ok(format!("{ir}:{}={}", opts[0].0, opts[0].1))
        });
        assert_eq!((status, text.as_str()), (RUN_OK, "a:k=v"));
    }

    #[test]
    fn errors_and_panics_become_messages() {
        let (status, text) = call("a", &[], |_, _| Err("no".into()));
        assert_eq!((status, text.as_str()), (RUN_ERROR, "no"));
        let (status, text) = call("a", &[], |_, _| panic!("boom"));
        assert_eq!((status, text.as_str()), (RUN_ERROR, "the pass panicked: boom"));
        let (status, text) = call("a", &[], |_, _| Ok("a\0b".into()));
        assert_eq!(
            (status, text.as_str()),
            (RUN_ERROR, "the pass's output holds a NUL byte")
        );
    }
}
