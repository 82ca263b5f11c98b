//! Pass plugins: passes loaded at run time from a shared library
//! (`--load-pass-plugin lib.so`) through the C ABI of `futmlir-plugin-abi`.
//! Once loaded, they are in the registry like built-in passes: in
//! `--list-passes`, in any pipeline text, under the level check.

use std::ffi::{c_char, CStr, CString};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use futmlir_dialects::ir::{Context, Diagnostic, OpId, PrintOptions};
use futmlir_plugin_abi as abi;

use crate::egraph::RuleBook;
use crate::pass::{Level, OptionKind, OptionSpec, OptionValue, Options, Pass, PassInfo};

// Note [Pass plugins]
// ~~~~~~~~~~~~~~~~~~~
// A researcher adds a pass without rebuilding futmlir, as with mlir-opt's
// `--load-pass-plugin`. Rust has no stable ABI: a `PassInfo`, a `Context`
// or a `Box<dyn Pass>` made by a separately compiled crate may have
// another layout, even from the same source with another compiler. So
// nothing of Rust's crosses the library boundary:
//
// - The plugin exports one C symbol, `futmlir_pass_plugin_info`, which
//   returns a `#[repr(C)]` `PluginInfo` (futmlir-plugin-abi): the ABI
//   version first, then a name and the passes, each with its name,
//   description, the levels it reads and writes (Note [Pass levels]),
//   its options, and a `run` callback.
// - The version is read before anything else, and a plugin built for
//   another version is refused with both versions in the message (its
//   structs may have another layout; reading them would be undefined).
//   Names, levels and option defaults are checked as the registry's
//   tests check the built-in passes, and a name that clashes with a
//   pass already registered is refused.
// - IR crosses as text. The host prints the op the pass runs on in the
//   generic form with locations, `run` gets the text and the options as
//   name/value strings, and returns new text (or an error message); the
//   host parses it back and puts it in the op's place. The plugin links
//   its own `futmlir-dialects` to parse, rewrite and print: text is the
//   one representation both sides agree on, checked by the parser, and
//   the generic form is stable across futmlir versions in a way a Rust
//   struct is not.
// - Cost: each plugin pass prints and parses the IR once on each side
//   (in a release build, 9 ms for `soac-double-to-add` on a module of
//   2,000 lines, where `ir-cse` takes 1 ms) and keeps its output text as
//   a source of the context (so that a later diagnostic can point into
//   it). Locations survive as `loc("file":line:col)`.
// - Text returned by `run` is the plugin's allocation, freed by the
//   plugin's `free_text`. A Rust plugin's panic is caught on its side
//   (`abi::run_text_pass`), since unwinding may not cross `extern "C"`.
// - The library stays loaded until the process ends: its passes are in
//   the registry, which lives as long.

/// A plugin that [`load_plugin`] loaded.
#[derive(Clone, Debug)]
pub struct LoadedPlugin {
    pub name: String,
    pub passes: Vec<&'static str>,
}

/// The plugins loaded so far, by canonical path: loading one again is a
/// no-op, not a clash of its passes' names with themselves.
static LOADED: Mutex<Vec<(PathBuf, LoadedPlugin)>> = Mutex::new(Vec::new());

/// Loads the plugin at `path` and registers its passes (Note [Pass
/// plugins]). The error says which file and what is wrong with it.
pub fn load_plugin(path: &Path) -> Result<LoadedPlugin, String> {
    let fail = |m: String| format!("cannot load pass plugin {}: {m}", path.display());
    let canonical = path.canonicalize().map_err(|e| fail(format!("{e}")))?;
    let mut loaded = LOADED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, p)) = loaded.iter().find(|(p, _)| *p == canonical) {
        return Ok(p.clone());
    }
    // SAFETY: loading a library runs its initialisers; that is what the
    // user asked for by naming it.
    let lib = unsafe { libloading::Library::new(&canonical) }.map_err(|e| fail(format!("{e}")))?;
    type InfoFn = unsafe extern "C" fn() -> *const abi::PluginInfo;
    // SAFETY: the symbol, if there, has this type by the ABI's contract.
    let info_fn = unsafe { lib.get::<InfoFn>(abi::INFO_SYMBOL) }
        .map_err(|_| fail("it is not a futmlir pass plugin: it exports no `futmlir_pass_plugin_info`".to_string()))?;
    // SAFETY: by the ABI's contract.
    let info = unsafe { info_fn() };
    if info.is_null() {
        return Err(fail("`futmlir_pass_plugin_info` returned null".to_string()));
    }
    // The version is the first field in every version of the ABI; nothing
    // else may be read before it matches.
    // SAFETY: `info` points to a `PluginInfo` of some version, which starts
    // with the `u32` version.
    let version = unsafe { std::ptr::read(info as *const u32) };
    if version != abi::ABI_VERSION {
        return Err(fail(format!(
            "it was built for plugin ABI version {version}, but this futmlir speaks version {}; \
             rebuild it against futmlir-plugin-abi of this futmlir",
            abi::ABI_VERSION
        )));
    }
    // SAFETY: the version matches, so it is this version's `PluginInfo`,
    // living as long as the library, which is never unloaded.
    let info: &'static abi::PluginInfo = unsafe { &*info };
    let plugin = read_plugin(info).map_err(fail)?;
    // The passes point into the library: it must stay loaded.
    std::mem::forget(lib);
    crate::registry::register(plugin.1);
    loaded.push((canonical, plugin.0.clone()));
    Ok(plugin.0)
}

/// Checks the plugin's description and makes the registry's `PassInfo`s
/// of its passes.
fn read_plugin(info: &'static abi::PluginInfo) -> Result<(LoadedPlugin, &'static [PassInfo]), String> {
    // SAFETY (every `c_text` and slice below): by the ABI's contract, the
    // pointers of `info` point to data that lives as long as the library.
    let name = unsafe { c_text(info.name, "the plugin's name")? }.to_string();
    let Some(free_text) = info.free_text else {
        return Err("its `free_text` is null".into());
    };
    let defs = unsafe { c_slice(info.passes, info.num_passes, "its passes")? };
    let mut passes: Vec<PassInfo> = Vec::new();
    for def in defs {
        let pass_name = leak(unsafe { c_text(def.name, "a pass name")? });
        let bad = |m: String| format!("its pass '{pass_name}' {m}");
        check_name(pass_name).map_err(bad)?;
        if crate::registry::lookup(pass_name).is_some() || passes.iter().any(|p| p.name == pass_name) {
            return Err(bad("has the name of a pass that is already registered".into()));
        }
        let description = leak(unsafe { c_text(def.description, "a pass description")? });
        let reads = levels_of(def.reads).map_err(bad)?;
        if reads.is_empty() {
            return Err(bad("reads no level".into()));
        }
        let writes = match levels_of(def.writes).map_err(bad)?[..] {
            [] => None,
            [w] => Some(w),
            _ => return Err(bad("writes more than one level".into())),
        };
        let Some(run) = def.run else {
            return Err(bad("has a null `run`".into()));
        };
        let option_defs = unsafe { c_slice(def.options, def.num_options, "its options")? };
        let mut options = Vec::new();
        for o in option_defs {
            let spec = OptionSpec {
                name: leak(unsafe { c_text(o.name, "an option name")? }),
                kind: match o.kind {
                    abi::option_kind::BOOL => OptionKind::Bool,
                    abi::option_kind::UINT => OptionKind::UInt,
                    abi::option_kind::INT => OptionKind::Int,
                    abi::option_kind::STRING => OptionKind::String,
                    k => return Err(bad(format!("has an option of unknown kind {k}"))),
                },
                default: leak(unsafe { c_text(o.default, "an option default")? }),
                help: leak(unsafe { c_text(o.help, "an option's help")? }),
            };
            OptionValue::parse(spec.kind, spec.default)
                .map_err(|m| bad(format!("has option '{}' whose default is bad: {m}", spec.name)))?;
            options.push(spec);
        }
        let entry = PluginEntry {
            pass: pass_name,
            run,
            free_text,
        };
        passes.push(PassInfo {
            name: pass_name,
            description,
            options: Vec::leak(options),
            reads: Vec::leak(reads),
            writes,
            create: Box::leak(Box::new(move |o: &Options, _: &Arc<RuleBook>| {
                Box::new(PluginPass {
                    entry,
                    options: o.clone(),
                }) as Box<dyn Pass>
            })),
        });
    }
    let names = passes.iter().map(|p| p.name).collect();
    Ok((LoadedPlugin { name, passes: names }, Vec::leak(passes)))
}

/// A string of the plugin's, kept for the process (a few bytes a plugin).
fn leak(s: &str) -> &'static str {
    String::leak(s.to_string())
}

/// A plugin pass's name must look like a built-in one's:
/// `dialect-what`, lower case.
fn check_name(name: &str) -> Result<(), String> {
    let kebab = name
        .chars()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    if !kebab || name.split('-').filter(|w| !w.is_empty()).count() < 2 {
        return Err("must be kebab-case and prefixed by its dialect, like 'soac-count-maps'".into());
    }
    Ok(())
}

/// The levels of `bits` ([`abi::level`]).
fn levels_of(bits: u32) -> Result<Vec<Level>, String> {
    if bits & !abi::level::ANY != 0 {
        return Err(format!("names unknown level bits {:#x}", bits & !abi::level::ANY));
    }
    Ok(Level::ALL
        .iter()
        .enumerate()
        .filter(|(i, _)| bits & (1 << i) != 0)
        .map(|(_, l)| *l)
        .collect())
}

/// # Safety
/// `p` is null or NUL-terminated, and lives as long as the library.
unsafe fn c_text(p: *const c_char, what: &str) -> Result<&'static str, String> {
    if p.is_null() {
        return Err(format!("{what} is null"));
    }
    // SAFETY: the caller's contract.
    unsafe { CStr::from_ptr(p) }
        .to_str()
        .map_err(|_| format!("{what} is not UTF-8"))
}

/// # Safety
/// `p` points to `n` values (or `n` is 0) that live as long as the library.
unsafe fn c_slice<T>(p: *const T, n: usize, what: &str) -> Result<&'static [T], String> {
    if n == 0 {
        return Ok(&[]);
    }
    if p.is_null() {
        return Err(format!("{what} are null"));
    }
    // SAFETY: the caller's contract.
    Ok(unsafe { std::slice::from_raw_parts(p, n) })
}

/// What an instance of a plugin pass calls.
#[derive(Copy, Clone)]
struct PluginEntry {
    pass: &'static str,
    run: unsafe extern "C" fn(*const c_char, *const abi::OptionArg, usize, *mut *mut c_char) -> u32,
    free_text: unsafe extern "C" fn(*mut c_char),
}

struct PluginPass {
    entry: PluginEntry,
    options: Options,
}

impl Pass for PluginPass {
    fn run(&mut self, ctx: &mut Context, op: OpId) -> Result<(), Diagnostic> {
        let loc = ctx.location(op);
        let err = |m: String| Diagnostic::error(loc, m);
        let text = ctx.print_op(
            op,
            PrintOptions {
                generic: true,
                locations: true,
            },
        );
        // The printer escapes NUL in strings, so this holds.
        let ir = CString::new(text).map_err(|_| err("the IR holds a NUL byte".into()))?;
        let mut strings = Vec::new();
        for (name, value) in &self.options.values {
            let value = match value {
                OptionValue::String(s) => s.clone(),
                v => v.to_string(),
            };
            let pair = CString::new(*name).and_then(|n| Ok((n, CString::new(value)?)));
            strings.push(pair.map_err(|_| err(format!("option '{name}' holds a NUL byte")))?);
        }
        let args: Vec<abi::OptionArg> = strings
            .iter()
            .map(|(n, v)| abi::OptionArg {
                name: n.as_ptr(),
                value: v.as_ptr(),
            })
            .collect();
        let mut out: *mut c_char = std::ptr::null_mut();
        // SAFETY: the arguments are as the ABI says: NUL-terminated texts
        // that outlive the call, `args.len()` pairs, a writable `out`.
        let status = unsafe { (self.entry.run)(ir.as_ptr(), args.as_ptr(), args.len(), &mut out) };
        if out.is_null() {
            return Err(err("the plugin returned no text".into()));
        }
        // SAFETY: `run` set `out` to a NUL-terminated text of the plugin's,
        // which is freed (by the plugin) once copied.
        let returned = unsafe { CStr::from_ptr(out) }.to_str().map(str::to_string);
        // SAFETY: as above; `out` is not used again.
        unsafe { (self.entry.free_text)(out) };
        let returned = returned.map_err(|_| err("the plugin returned text that is not UTF-8".into()))?;
        match status {
            abi::RUN_OK => replace_with_text(ctx, op, self.entry.pass, &returned),
            abi::RUN_ERROR => Err(err(returned)),
            s => Err(err(format!("the plugin returned unknown status {s}: {returned}"))),
        }
    }
}

/// Puts the IR that `text` holds in `op`'s place. `op` keeps its identity
/// (the pass manager runs the rest of a nested pipeline on it, and its
/// parent holds it) and takes the regions and attributes of the op in
/// `text` (bare, or alone in a module), which must have the same name and
/// result types; an op with
/// operands cannot be printed alone, so a pass on one fails in the
/// plugin's parser ("undefined value").
fn replace_with_text(ctx: &mut Context, op: OpId, pass: &str, text: &str) -> Result<(), Diagnostic> {
    let parsed = ctx
        .parse_str(&format!("output of plugin pass {pass}"), text)
        .map_err(|d| Diagnostic {
            message: format!("its output does not parse: {}", d.message),
            ..d
        })?;
    let name = ctx.op_name(op).to_string();
    let new = if name == "builtin.module" {
        Some(parsed)
    } else {
        // The parser wrapped the op in a module (or it came in one).
        let body: Vec<OpId> = ctx
            .regions(parsed)
            .iter()
            .flat_map(|&r| ctx.blocks(r).iter().flat_map(|&b| ctx.block_ops(b)))
            .collect();
        match body[..] {
            [new] => Some(new),
            _ => None,
        }
    };
    let types = |o: OpId| ctx.results(o).map(|r| ctx.value_type(r)).collect::<Vec<_>>();
    let new = new.filter(|&n| ctx.op_name(n) == name && ctx.operands(n).is_empty() && types(n) == types(op));
    let Some(new) = new else {
        return Err(Diagnostic::error(
            ctx.location(op),
            format!("it ran on a '{name}' op and must give back one op of that name and result types"),
        ));
    };
    for r in ctx.regions(op).to_vec() {
        ctx.erase_region_contents(r);
    }
    ctx.take_regions(op);
    let regions = ctx.take_regions(new);
    ctx.set_regions(op, regions);
    for (k, _) in ctx.attrs(op).to_vec() {
        ctx.remove_attr(op, k);
    }
    for (k, a) in ctx.attrs(new).to_vec() {
        ctx.set_attr(op, k, a);
    }
    ctx.erase_op(parsed);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_bits_and_names_are_checked() {
        assert_eq!(levels_of(abi::level::ANY).unwrap(), Level::ALL);
        assert_eq!(
            levels_of(abi::level::SOAC | abi::level::MEM).unwrap(),
            vec![Level::Soac, Level::Mem]
        );
        assert!(levels_of(64).unwrap_err().contains("0x40"));
        assert!(check_name("soac-count-maps").is_ok());
        assert!(check_name("countmaps").is_err());
        assert!(check_name("Soac-Maps").is_err());
    }

    const MODULE: &str = r#"builtin.module() ({
  soac.func() {sym_name = "main", function_type = (i32) -> i32, entry} ({
  ^bb0(%0: i32):
    %1 = soac.binop(%0, %0) {kind = "mul"} : (i32, i32) -> i32
    soac.return(%1) : (i32) -> ()
  }) : () -> ()
}) : () -> ()
"#;

    fn the_func(ctx: &Context, m: OpId) -> OpId {
        let mut func = None;
        ctx.walk(m, &mut |o| {
            if ctx.op_name(o) == "soac.func" {
                func = Some(o);
            }
        });
        func.expect("a soac.func")
    }

    #[test]
    fn returned_text_takes_the_place_of_the_op() {
        let mut ctx = futmlir_dialects::context();
        let m = ctx.parse_str("m", MODULE).unwrap();
        let func = the_func(&ctx, m);
        let printed = ctx.print_op(func, PrintOptions::generic());
        let changed = printed.replace("\"mul\"", "\"add\"").replace("entry}", "entry, seen}");
        assert_ne!(printed, changed);
        replace_with_text(&mut ctx, func, "test-pass", &changed).unwrap();
        // The op keeps its identity and place, with the new body.
        assert!(ctx.is_alive(func));
        assert_eq!(the_func(&ctx, m), func);
        assert!(ctx.attr(func, "seen").is_some());
        let text = ctx.print_op(m, PrintOptions::default());
        assert!(text.contains("{kind = \"add\"}") && !text.contains("mul"), "{text}");
        ctx.verify(m).unwrap();
        // The whole module.
        let module_text = ctx.print_op(m, PrintOptions::generic()).replace("\"add\"", "\"sub\"");
        replace_with_text(&mut ctx, m, "test-pass", &module_text).unwrap();
        assert!(ctx.print_op(m, PrintOptions::default()).contains("{kind = \"sub\"}"));
        ctx.verify(m).unwrap();
    }

    #[test]
    fn returned_text_of_another_op_is_refused() {
        let mut ctx = futmlir_dialects::context();
        let m = ctx.parse_str("m", MODULE).unwrap();
        let func = the_func(&ctx, m);
        let other = "%0 = soac.constant() {value = 1 : i32} : () -> i32\n";
        let e = replace_with_text(&mut ctx, func, "test-pass", other).unwrap_err();
        assert!(
            e.message.contains("must give back one op of that name"),
            "{}",
            e.message
        );
        let e = replace_with_text(&mut ctx, func, "test-pass", "soac.func(").unwrap_err();
        assert!(e.message.starts_with("its output does not parse"), "{}", e.message);
        // Nothing changed.
        assert_eq!(the_func(&ctx, m), func);
        ctx.verify(m).unwrap();
    }

    #[test]
    fn a_file_that_is_no_library_is_refused() {
        let e = load_plugin(Path::new("/nonexistent/libplugin.so")).unwrap_err();
        assert!(
            e.starts_with("cannot load pass plugin /nonexistent/libplugin.so: "),
            "{e}"
        );
        let path = std::env::temp_dir().join(format!("futmlir-not-a-plugin-{}.so", std::process::id()));
        std::fs::write(&path, "not a library").unwrap();
        let e = load_plugin(&path).unwrap_err();
        let _ = std::fs::remove_file(&path);
        assert!(e.contains("cannot load pass plugin"), "{e}");
    }
}
