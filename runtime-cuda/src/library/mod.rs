//! The C library of a program (`futmlir build --library`): Futhark's C
//! API (`c-api.rst`) over the runtime's context. See Note [The C library].
//!
//! - this module: the `futrt_lib_*` functions that the generated wrappers
//!   call, one per kind of operation, told the type by its element code
//!   and rank or its name;
//! - [`generate`]: the header, the wrappers' C source and the manifest
//!   of a program, from its entry points' descriptions.

// Note [The C library]
// ~~~~~~~~~~~~~~~~~~~~
// Futhark's `--library` writes C source for the whole program; futmlir
// compiles the program, so `prog.so` (and `prog.a`, the same as one
// relocatable object) holds the same host object an executable has (its
// `main` unused and, like everything but the API, not exported), the
// runtime, and a small C file generated per program (`generate`) that
// defines the `futhark_*` functions of `prog.h` with the program's types and entry
// points in their names. Each is a thin call of a `futrt_lib_*` function
// here, which reads the program descriptor (`@futmlir_program`, the
// executable's) and does the work generically:
//
// - a `struct futhark_context_config *` is a `Config` (the descriptor's
//   address and the context's `Settings`, which the `_set_*` functions
//   change, as the executable's options do); a `struct futhark_context *` is a
//   `Library`: the program read from the descriptor, the runtime's
//   context (`None` when it could not start: `futhark_context_new` never
//   returns NULL, its error is then the first `futhark_context_get_error`
//   gives), and the error recorded by the last failing call;
// - every value a C program holds, `struct futhark_i32_1d *` or
//   `struct futhark_opaque_point *`, is a `Held`: a `Var` of the server
//   (Note [Values in the server]), whose arrays stay in the target's
//   memory, and the shape `futhark_shape_*` points into. Each value owns
//   its memory: `new`, `project` and the entry points' results are
//   copies, where Futhark's would alias (its values are reference
//   counted); freeing one never touches another, and an entry point
//   never consumes its argument (it gets a fresh copy, as in the server).
//
// Errors in entry points end the call, not the process, by the server's
// mechanism (Note [Entry point failures in the server]): the context
// recovers. An entry point's failure returns FUTHARK_PROGRAM_ERROR (2),
// an allocation that fails FUTHARK_OUT_OF_MEMORY (3), other misuse (a
// NULL value, one of another type) 1. Everything is synchronous: an
// entry point has waited for the device when it returns, so
// `futhark_context_sync` only reports a kernel's error that nothing
// reported yet. A context must be used by one thread at a time.

mod generate;

pub use generate::{generate, Generated};

use std::ffi::{c_char, c_int, c_void, CStr};

use futmlir_values::{read_values, write_binary, PrimType, Value};

use crate::abi::futrt_program;
use crate::context::Ctx;
use crate::invoke::CtxBox;
use crate::marshal::{elem_size, from_bytes, to_bytes};
use crate::program::{OpaqueKind, Program, Type};
use crate::settings::Settings;
use crate::var::{call, component_value, construct, copy_parts, destruct, free_all, free_in, upload, Var};

/// Futhark's `FUTHARK_PROGRAM_ERROR`.
const PROGRAM_ERROR: c_int = 2;
/// Futhark's `FUTHARK_OUT_OF_MEMORY`.
const OUT_OF_MEMORY: c_int = 3;

/// `struct futhark_context_config`.
pub struct Config {
    program: *const futrt_program,
    settings: Settings,
    /// The first setting that could not be made (the `_set_*` functions
    /// return nothing), which `futhark_context_new` reports.
    error: Option<String>,
}

/// `struct futhark_context`. See Note [The C library].
pub struct Library {
    program: Program,
    ctx: Option<CtxBox>,
    error: Option<String>,
}

/// A value that C holds (`struct futhark_<type>`). See Note [The C
/// library].
pub struct Held {
    var: Var,
    /// The shape of an array, which `futhark_shape_*` points into.
    shape: Vec<i64>,
}

impl Held {
    fn new(var: Var) -> *mut Held {
        let shape = match &var {
            Var::Array { shape, .. } => shape.iter().map(|&d| d as i64).collect(),
            _ => Vec::new(),
        };
        Box::into_raw(Box::new(Held { var, shape }))
    }
}

/// The code a failed operation returns for `message`.
fn code(message: &str) -> c_int {
    if message.starts_with("out of memory") {
        OUT_OF_MEMORY
    } else {
        1
    }
}

impl Library {
    /// Records `message` (the first unread error is kept) and returns
    /// `code`.
    fn fail(&mut self, code: c_int, message: String) -> c_int {
        self.error.get_or_insert(message);
        code
    }

    /// The running context, or the error it could not start with.
    fn ctx(&mut self) -> Result<&mut Ctx, String> {
        self.program_and_ctx().map(|(_, c)| c.get())
    }

    /// The program and the running context, borrowed together.
    fn program_and_ctx(&mut self) -> Result<(&Program, &mut CtxBox), String> {
        match &mut self.ctx {
            Some(c) => Ok((&self.program, c)),
            None => Err("the context did not start (see futhark_context_get_error)".into()),
        }
    }

    /// The value behind `v`, of type `ty` (when given).
    fn held<'a>(&self, v: *const Held, ty: Option<&str>, what: &str) -> Result<&'a Held, String> {
        // SAFETY: C passes NULL or a value this library made and has not
        // freed (the API's contract).
        let held = unsafe { v.as_ref() }.ok_or_else(|| format!("{what} is NULL"))?;
        match ty {
            Some(ty) if held.var.type_name() != ty => Err(format!(
                "{what} has type {}, but {ty} was expected",
                held.var.type_name()
            )),
            _ => Ok(held),
        }
    }

    /// A value of type `ty` from what C passed at `p`: a pointer to a
    /// scalar, or a value (`Held`) to copy.
    fn value_in(&mut self, ty: &str, p: *const c_void, what: &str) -> Result<Var, String> {
        match Type::parse(ty) {
            Some(t) if t.rank == 0 => {
                if p.is_null() {
                    return Err(format!("{what} is NULL"));
                }
                // SAFETY: C passes a pointer to a value of the scalar type.
                let bytes = unsafe { std::slice::from_raw_parts(p.cast::<u8>(), elem_size(t.elem)) };
                Ok(Var::Scalar(from_bytes(t.elem, Vec::new(), bytes)?))
            }
            _ => {
                let held = self.held(p.cast(), Some(ty), what)?;
                let mut copy = copy_parts(self.ctx()?, std::slice::from_ref(&held.var))?;
                Ok(copy.remove(0))
            }
        }
    }

    /// Hands `var` to C at `out`: a scalar's bytes, else a new value's
    /// address.
    ///
    /// # Safety
    ///
    /// `out` must point to storage for the scalar's C type, or for a
    /// pointer.
    unsafe fn value_out(var: Var, out: *mut c_void) {
        match var {
            Var::Scalar(v) => {
                let bytes = to_bytes(&v);
                // SAFETY: by this function's contract.
                unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), out.cast::<u8>(), bytes.len()) };
            }
            // SAFETY: by this function's contract.
            var => unsafe { *out.cast::<*mut Held>() = Held::new(var) },
        }
    }
}

/// The library behind `ctx`, or `None` for NULL.
///
/// # Safety
///
/// `ctx` must be NULL or from [`futrt_lib_context_new`] and not freed.
unsafe fn library<'a>(ctx: *mut Library) -> Option<&'a mut Library> {
    // SAFETY: by this function's contract.
    unsafe { ctx.as_mut() }
}

/// A NUL-terminated string the caller frees with `free()`.
fn malloc_string(s: &str) -> *mut c_char {
    extern "C" {
        fn malloc(n: usize) -> *mut c_void;
    }
    // SAFETY: `malloc` of a positive size; NULL is checked.
    let p = unsafe { malloc(s.len() + 1) }.cast::<u8>();
    if !p.is_null() {
        // SAFETY: `p` holds `s.len() + 1` bytes.
        unsafe {
            std::ptr::copy_nonoverlapping(s.as_ptr(), p, s.len());
            *p.add(s.len()) = 0;
        }
    }
    p.cast()
}

/// A C string argument.
///
/// # Safety
///
/// `s` must be NULL or NUL-terminated.
unsafe fn c_str<'a>(s: *const c_char) -> Result<&'a str, String> {
    if s.is_null() {
        return Err("a NULL string".into());
    }
    // SAFETY: by this function's contract.
    unsafe { CStr::from_ptr(s) }
        .to_str()
        .map_err(|_| "a string that is not UTF-8".into())
}

/// Runs `body` on the library behind `ctx`, turning its error into a
/// recorded message and a code; NULL gives 1.
///
/// # Safety
///
/// As [`library`].
unsafe fn with(ctx: *mut Library, body: impl FnOnce(&mut Library) -> Result<(), String>) -> c_int {
    // SAFETY: forwarded.
    let Some(lib) = (unsafe { library(ctx) }) else {
        return 1;
    };
    match body(lib) {
        Ok(()) => 0,
        Err(e) => lib.fail(code(&e), e),
    }
}

/// `futhark_context_config_new`: a configuration for the program that
/// `program` describes.
///
/// # Safety
///
/// `program` must be the program's descriptor (`ABI.md`).
#[no_mangle]
pub unsafe extern "C" fn futrt_lib_config_new(program: *const futrt_program) -> *mut Config {
    Box::into_raw(Box::new(Config {
        program,
        settings: Settings::default(),
        error: None,
    }))
}

/// `futhark_context_config_set_debugging`, `_profiling`, `_logging`
/// (`option` `debugging`, `profiling`, `logging`, `value` non-zero to
/// turn it on) and the GPU's `_set_default_thread_block_size` (and
/// `_group_size`), `_set_default_grid_size` (and `_num_groups`),
/// `_set_default_tile_size`, as the executable's options of the same
/// meaning. A value that cannot be set is reported by
/// `futhark_context_new`.
///
/// # Safety
///
/// `cfg` as in [`futrt_lib_config_free`]; `option` NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn futrt_lib_config_set_int(cfg: *mut Config, option: *const c_char, value: i64) {
    // SAFETY: by this function's contract.
    let (Some(cfg), Ok(option)) = (unsafe { cfg.as_mut() }, unsafe { c_str(option) }) else {
        return;
    };
    let s = &mut cfg.settings;
    let set = match option {
        "debugging" if value != 0 => {
            s.debugging();
            Ok(())
        }
        "debugging" => {
            s.debug = false;
            Ok(())
        }
        "profiling" => {
            s.profile = value != 0;
            Ok(())
        }
        "logging" => {
            s.log = value != 0;
            Ok(())
        }
        "default_thread_block_size" => {
            crate::cli::check_block_size("futhark_context_config_set_default_thread_block_size", value)
        }
        "default_grid_size" if value > 0 => {
            crate::params::set_class(&mut s.params, "grid_size", value);
            Ok(())
        }
        // No kernel is block-tiled (see the executable's --help).
        "default_tile_size" => Ok(()),
        _ => Err(format!(
            "futhark_context_config_set_{option}: {value} is not a valid value"
        )),
    };
    if let Err(e) = set {
        cfg.error.get_or_insert(e);
    }
}

/// `futhark_context_config_set_cache_file` (`option` `cache_file`, NULL
/// for none), and the GPU's `_set_device` (`device`) and
/// `futhark_context_config_load_ptx_from` (`load_ptx`).
///
/// # Safety
///
/// `cfg` as in [`futrt_lib_config_free`]; `option` NUL-terminated,
/// `value` NULL or NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn futrt_lib_config_set_str(cfg: *mut Config, option: *const c_char, value: *const c_char) {
    // SAFETY: by this function's contract.
    let (Some(cfg), Ok(option)) = (unsafe { cfg.as_mut() }, unsafe { c_str(option) }) else {
        return;
    };
    // SAFETY: by this function's contract.
    let value = (!value.is_null()).then(|| unsafe { c_str(value) });
    let value = match value.transpose() {
        Ok(v) => v.map(str::to_string),
        Err(e) => {
            cfg.error.get_or_insert(format!("futhark_context_config_{option}: {e}"));
            return;
        }
    };
    let s = &mut cfg.settings;
    match option {
        "cache_file" => s.cache_file = value.map(Into::into),
        "device" => s.device = value,
        "load_ptx" => s.load_ptx = value.map(Into::into),
        _ => {
            cfg.error
                .get_or_insert(format!("futhark_context_config: no setting {option}"));
        }
    }
}

/// `futhark_context_config_free`.
///
/// # Safety
///
/// `cfg` must be NULL or from [`futrt_lib_config_new`], not freed.
#[no_mangle]
pub unsafe extern "C" fn futrt_lib_config_free(cfg: *mut Config) {
    if !cfg.is_null() {
        // SAFETY: from `Box::into_raw`, freed once.
        drop(unsafe { Box::from_raw(cfg) });
    }
}

/// `futhark_context_config_set_tuning_param`: 0, or 1 for an unknown
/// parameter.
///
/// # Safety
///
/// `cfg` as in [`futrt_lib_config_free`]; `name` NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn futrt_lib_config_set_tuning_param(
    cfg: *mut Config,
    name: *const c_char,
    value: usize,
) -> c_int {
    // SAFETY: by this function's contract.
    let (Some(cfg), Ok(name)) = (unsafe { cfg.as_mut() }, unsafe { c_str(name) }) else {
        return 1;
    };
    match crate::params::set(&mut cfg.settings.params, &format!("{name}={value}")) {
        Ok(()) => 0,
        Err(_) => 1,
    }
}

/// `futhark_context_new`: never NULL but for a NULL configuration; when
/// the context cannot start, the first `futhark_context_get_error` says
/// why.
///
/// # Safety
///
/// `cfg` as in [`futrt_lib_config_free`].
#[no_mangle]
pub unsafe extern "C" fn futrt_lib_context_new(cfg: *const Config) -> *mut Library {
    // SAFETY: by this function's contract.
    let Some(cfg) = (unsafe { cfg.as_ref() }) else {
        return std::ptr::null_mut();
    };
    // SAFETY: the configuration holds the program's own descriptor.
    let (program, ctx) = match unsafe { Program::from_raw(cfg.program) } {
        Ok(program) => {
            let ctx = match &cfg.error {
                Some(e) => Err(e.clone()),
                None => Ctx::new(&program, &cfg.settings),
            };
            let ctx = ctx.map(|mut c| {
                c.set_recover(true);
                CtxBox::new(c)
            });
            (program, ctx)
        }
        Err(e) => (
            Program::empty(),
            Err(format!("the program descriptor is malformed: {e}")),
        ),
    };
    let (ctx, error) = match ctx {
        Ok(c) => (Some(c), None),
        Err(e) => (None, Some(e)),
    };
    Box::into_raw(Box::new(Library { program, ctx, error }))
}

/// `futhark_context_free`.
///
/// # Safety
///
/// `ctx` as in [`library`]; the values made in it must not be used after.
#[no_mangle]
pub unsafe extern "C" fn futrt_lib_context_free(ctx: *mut Library) {
    if !ctx.is_null() {
        // SAFETY: from `Box::into_raw`, freed once.
        drop(unsafe { Box::from_raw(ctx) });
    }
}

/// `futhark_context_sync`.
///
/// # Safety
///
/// As [`library`].
#[no_mangle]
pub unsafe extern "C" fn futrt_lib_context_sync(ctx: *mut Library) -> c_int {
    // SAFETY: forwarded.
    unsafe { with(ctx, |lib| lib.ctx()?.sync()) }
}

/// `futhark_context_get_error`: the recorded error, which is cleared, in
/// memory from `malloc`; NULL when there is none.
///
/// # Safety
///
/// As [`library`].
#[no_mangle]
pub unsafe extern "C" fn futrt_lib_context_get_error(ctx: *mut Library) -> *mut c_char {
    // SAFETY: forwarded.
    match unsafe { library(ctx) }.and_then(|lib| lib.error.take()) {
        Some(e) => malloc_string(&e),
        None => std::ptr::null_mut(),
    }
}

/// `futhark_context_clear_caches`.
///
/// # Safety
///
/// As [`library`].
#[no_mangle]
pub unsafe extern "C" fn futrt_lib_context_clear_caches(ctx: *mut Library) -> c_int {
    // SAFETY: forwarded.
    unsafe {
        with(ctx, |lib| {
            lib.ctx()?.clear_caches();
            Ok(())
        })
    }
}

/// `futhark_context_report`: the server's `report` (the peak memory and
/// the profiling events), in memory from `malloc`; NULL on an error.
///
/// # Safety
///
/// As [`library`].
#[no_mangle]
pub unsafe extern "C" fn futrt_lib_context_report(ctx: *mut Library) -> *mut c_char {
    // SAFETY: forwarded.
    let Some(lib) = (unsafe { library(ctx) }) else {
        return std::ptr::null_mut();
    };
    match lib.ctx().and_then(|c| c.report()) {
        Ok(report) => malloc_string(&report),
        Err(e) => {
            lib.fail(1, e);
            std::ptr::null_mut()
        }
    }
}

/// `futhark_context_pause_profiling` (`paused` 1) and
/// `futhark_context_unpause_profiling` (0).
///
/// # Safety
///
/// As [`library`].
#[no_mangle]
pub unsafe extern "C" fn futrt_lib_context_pause_profiling(ctx: *mut Library, paused: c_int) {
    // SAFETY: forwarded.
    if let Some(Ok(c)) = unsafe { library(ctx) }.map(|lib| lib.ctx()) {
        c.set_profiling_paused(paused != 0);
    }
}

/// `futhark_new_<t>_<r>d`: an array of element code `elem` and rank
/// `rank` from `data` (row-major) of `shape`; NULL on an error.
///
/// # Safety
///
/// As [`library`]; `shape` holds `rank` sizes and `data` their product of
/// elements.
#[no_mangle]
pub unsafe extern "C" fn futrt_lib_new_array(
    ctx: *mut Library,
    elem: c_int,
    rank: c_int,
    data: *const c_void,
    shape: *const i64,
) -> *mut Held {
    let mut made = std::ptr::null_mut();
    // SAFETY: forwarded.
    unsafe {
        with(ctx, |lib| {
            let elem = usize::try_from(elem)
                .ok()
                .and_then(|e| PrimType::ALL.get(e).copied())
                .ok_or_else(|| format!("unknown element type code {elem}"))?;
            let rank = usize::try_from(rank).map_err(|_| format!("negative rank {rank}"))?;
            // SAFETY: `shape` holds `rank` sizes by this function's contract.
            let dims = if rank == 0 {
                &[][..]
            } else {
                std::slice::from_raw_parts(shape, rank)
            };
            let shape = dims
                .iter()
                .map(|&d| usize::try_from(d).map_err(|_| format!("negative dimension {d}")))
                .collect::<Result<Vec<usize>, String>>()?;
            let bytes = shape
                .iter()
                .try_fold(elem_size(elem), |acc, &d| acc.checked_mul(d))
                .ok_or_else(|| format!("an array of shape {shape:?} is too large"))?;
            if data.is_null() && bytes > 0 {
                return Err("the data is NULL".into());
            }
            let c = lib.ctx()?;
            let mem = c.alloc(bytes)?;
            if bytes > 0 {
                // SAFETY: the block holds `bytes`; `data` as many by contract.
                if let Err(e) = c.write(mem, data.cast(), bytes) {
                    let _ = c.free(mem);
                    return Err(e);
                }
            }
            made = Held::new(Var::Array {
                elem,
                shape,
                mem,
                bytes,
            });
            Ok(())
        });
    }
    made
}

/// `futhark_free_*`: frees a value of any type; NULL is ignored.
///
/// # Safety
///
/// As [`library`]; `v` NULL or a value of this context, not freed.
#[no_mangle]
pub unsafe extern "C" fn futrt_lib_free(ctx: *mut Library, v: *mut Held) -> c_int {
    if v.is_null() {
        return 0;
    }
    // SAFETY: forwarded; `v` is from `Box::into_raw`, freed once.
    unsafe {
        with(ctx, |lib| {
            let held = Box::from_raw(v);
            free_in(lib.ctx()?, held.var)
        })
    }
}

/// `futhark_values_<t>_<r>d`: the elements of array `v`, of type `ty`,
/// into `data`.
///
/// # Safety
///
/// As [`futrt_lib_free`]; `data` must have room for the elements.
#[no_mangle]
pub unsafe extern "C" fn futrt_lib_values(
    ctx: *mut Library,
    v: *const Held,
    ty: *const c_char,
    data: *mut c_void,
) -> c_int {
    // SAFETY: forwarded.
    unsafe {
        with(ctx, |lib| {
            let &Var::Array { mem, bytes, .. } = &lib.held(v, Some(c_str(ty)?), "the array")?.var else {
                return Err("not an array".into());
            };
            if bytes > 0 {
                // SAFETY: `data` has room by this function's contract.
                lib.ctx()?.read(data.cast(), mem, bytes)?;
            }
            Ok(())
        })
    }
}

/// `futhark_shape_<t>_<r>d`: the array's shape, living as long as it.
///
/// # Safety
///
/// As [`futrt_lib_free`].
#[no_mangle]
pub unsafe extern "C" fn futrt_lib_shape(_ctx: *mut Library, v: *const Held) -> *const i64 {
    // SAFETY: `v` is NULL or a live value by this function's contract.
    match unsafe { v.as_ref() } {
        Some(h) => h.shape.as_ptr(),
        None => std::ptr::null(),
    }
}

/// `futhark_values_raw_<t>_<r>d`: the array's memory (a device address on
/// CUDA).
///
/// # Safety
///
/// As [`futrt_lib_free`].
#[no_mangle]
pub unsafe extern "C" fn futrt_lib_values_raw(_ctx: *mut Library, v: *const Held) -> *mut c_char {
    // SAFETY: `v` is NULL or a live value by this function's contract.
    match unsafe { v.as_ref() }.map(|h| &h.var) {
        Some(Var::Array { mem, .. }) => *mem as *mut c_char,
        _ => std::ptr::null_mut(),
    }
}

/// `futhark_index_<t>_<r>d`: the element of array `v` (of type `ty`) at
/// `index` (one per dimension) into `out`; 1 when out of bounds.
///
/// # Safety
///
/// As [`futrt_lib_free`]; `index` holds one index per dimension and `out`
/// has room for an element.
#[no_mangle]
pub unsafe extern "C" fn futrt_lib_index(
    ctx: *mut Library,
    out: *mut c_void,
    v: *const Held,
    ty: *const c_char,
    index: *const i64,
) -> c_int {
    // SAFETY: forwarded.
    unsafe {
        with(ctx, |lib| {
            let Var::Array { elem, shape, mem, .. } = &lib.held(v, Some(c_str(ty)?), "the array")?.var else {
                return Err("not an array".into());
            };
            // SAFETY: one index per dimension by this function's contract.
            let index = std::slice::from_raw_parts(index, shape.len());
            let mut flat = 0usize;
            for (&i, &d) in index.iter().zip(shape) {
                match usize::try_from(i) {
                    Ok(i) if i < d => flat = flat * d + i,
                    _ => return Err(format!("index {index:?} out of bounds for an array of shape {shape:?}")),
                }
            }
            let size = elem_size(*elem);
            let (mem, off) = (*mem, flat * size);
            // SAFETY: the element is within the block; `out` has room.
            lib.ctx()?.read(out.cast(), mem + off, size)
        })
    }
}

/// The rank and element type (a name the program describes) of the array
/// of an opaque type `ty`.
fn opaque_array(program: &Program, ty: &str) -> Result<(usize, String), String> {
    match program.opaque(ty).and_then(|t| t.array.clone()) {
        Some((elem, rank)) => Ok((rank, elem)),
        None => Err(format!("{ty} is not an array type of the program")),
    }
}

/// `futhark_index_opaque_<t>` of an array of an opaque type `ty`: a copy
/// of the element at `index` into `*out`; 1 when out of bounds.
///
/// # Safety
///
/// As [`futrt_lib_free`]; `index` holds one index per dimension; `out`
/// points to storage for a pointer.
#[no_mangle]
pub unsafe extern "C" fn futrt_lib_index_opaque(
    ctx: *mut Library,
    out: *mut *mut Held,
    v: *const Held,
    ty: *const c_char,
    index: *const i64,
) -> c_int {
    // SAFETY: forwarded.
    unsafe {
        with(ctx, |lib| {
            let ty = c_str(ty)?;
            let (rank, elem) = opaque_array(&lib.program, ty)?;
            let held = lib.held(v, Some(ty), "the array")?;
            // SAFETY: one index per dimension by this function's contract.
            let index = std::slice::from_raw_parts(index, rank);
            let value = crate::arrays::index(lib.ctx()?, &held.var, rank, Some(&elem), index)?;
            *out = Held::new(value);
            Ok(())
        })
    }
}

/// `futhark_shape_opaque_<t>` of an array of an opaque type `ty`: its
/// shape, living as long as it; NULL for no array.
///
/// # Safety
///
/// As [`futrt_lib_free`].
#[no_mangle]
pub unsafe extern "C" fn futrt_lib_shape_opaque(ctx: *mut Library, v: *mut Held, ty: *const c_char) -> *const i64 {
    // SAFETY: forwarded; `v` is NULL or a live value of this library.
    let (Some(lib), Some(held)) = (unsafe { library(ctx) }, unsafe { v.as_mut() }) else {
        return std::ptr::null();
    };
    let shape = unsafe { c_str(ty) }
        .and_then(|ty| opaque_array(&lib.program, ty))
        .and_then(|(rank, _)| crate::arrays::shape(&held.var, rank));
    match shape {
        Ok(s) => {
            held.shape = s.iter().map(|&d| d as i64).collect();
            held.shape.as_ptr()
        }
        Err(e) => {
            lib.fail(1, e);
            std::ptr::null()
        }
    }
}

/// `futhark_set_opaque_<t>`: element `index` of array `v` (of the opaque
/// array type `ty`) becomes a copy of `elem`; 1 when out of bounds.
///
/// # Safety
///
/// As [`futrt_lib_free`]; `elem` a live value; `index` one per dimension.
#[no_mangle]
pub unsafe extern "C" fn futrt_lib_set_opaque(
    ctx: *mut Library,
    v: *const Held,
    ty: *const c_char,
    elem: *const Held,
    index: *const i64,
) -> c_int {
    // SAFETY: forwarded.
    unsafe {
        with(ctx, |lib| {
            let ty = c_str(ty)?;
            let (rank, elem_ty) = opaque_array(&lib.program, ty)?;
            let held = lib.held(v, Some(ty), "the array")?;
            let x = lib.held(elem, Some(&elem_ty), "the element")?;
            // SAFETY: one index per dimension by this function's contract.
            let index = std::slice::from_raw_parts(index, rank);
            crate::arrays::set(lib.ctx()?, &held.var, rank, &x.var, index)
        })
    }
}

/// `futhark_new_opaque_<t>`: an array of the opaque array type `ty` of
/// shape `shape` (one size per dimension) from the elements `elems`
/// (row-major, copied).
///
/// # Safety
///
/// As [`library`]; `shape` one size per dimension; `elems` as many live
/// values as their product; `out` storage for a pointer.
#[no_mangle]
pub unsafe extern "C" fn futrt_lib_new_opaque_array(
    ctx: *mut Library,
    ty: *const c_char,
    out: *mut *mut Held,
    elems: *const *const Held,
    shape: *const i64,
) -> c_int {
    // SAFETY: forwarded.
    unsafe {
        with(ctx, |lib| {
            let ty = c_str(ty)?;
            let (rank, elem_ty) = opaque_array(&lib.program, ty)?;
            // SAFETY: one size per dimension by this function's contract.
            let shape = std::slice::from_raw_parts(shape, rank)
                .iter()
                .map(|&d| usize::try_from(d).map_err(|_| format!("size {d} is negative")))
                .collect::<Result<Vec<usize>, String>>()?;
            let n: usize = shape.iter().product();
            let mut values = Vec::with_capacity(n);
            for k in 0..n {
                // SAFETY: `n` elements by this function's contract.
                values.push(&lib.held(*elems.add(k), Some(&elem_ty), &format!("element {k}"))?.var);
            }
            let parts_types = lib
                .program
                .parts(&elem_ty)
                .ok_or_else(|| format!("unknown type {elem_ty}"))?;
            let parts = crate::arrays::new_array(lib.ctx()?, &shape, &parts_types, &values)?;
            *out = Held::new(Var::Opaque {
                ty: ty.to_string(),
                parts,
            });
            Ok(())
        })
    }
}

/// `futhark_zip_opaque_<t>`: an array of records of type `ty` from arrays
/// of its fields, in order (copied; Futhark's aliases them instead).
///
/// # Safety
///
/// As [`library`]; `fields` one live value per field; `out` storage for
/// a pointer.
#[no_mangle]
pub unsafe extern "C" fn futrt_lib_zip(
    ctx: *mut Library,
    ty: *const c_char,
    out: *mut *mut Held,
    fields: *const *const Held,
) -> c_int {
    // SAFETY: forwarded.
    unsafe {
        with(ctx, |lib| {
            let ty = c_str(ty)?;
            let (rank, elem) = opaque_array(&lib.program, ty)?;
            let record = lib
                .program
                .opaque(&elem)
                .filter(|t| t.kind == OpaqueKind::Record)
                .cloned();
            let record = record.ok_or_else(|| format!("{ty} is not an array of records"))?;
            let mut outer: Option<Vec<usize>> = None;
            let mut parts: Vec<&Var> = Vec::new();
            for (k, f) in record.fields.iter().enumerate() {
                let want = format!("{}{}", "[]".repeat(rank), f.ty);
                // SAFETY: one value per field by this function's contract.
                let held = lib.held(*fields.add(k), Some(&want), &format!("field {}", f.name))?;
                let s = crate::arrays::shape(&held.var, rank)?;
                if outer.as_ref().is_some_and(|o| *o != s) {
                    return Err(format!(
                        "the arrays to zip have different shapes ({s:?} for field {})",
                        f.name
                    ));
                }
                outer = Some(s);
                parts.extend(held.var.components());
            }
            let copies = crate::var::copy_each(lib.ctx()?, &parts)?;
            *out = Held::new(Var::Opaque {
                ty: ty.to_string(),
                parts: copies,
            });
            Ok(())
        })
    }
}

/// `futhark_project_opaque_<t>_<field>` of an array of records `v` (of
/// type `ty`): a copy of the array of field `field`'s values.
///
/// # Safety
///
/// As [`futrt_lib_free`]; `field` NUL-terminated; `out` storage for a
/// pointer.
#[no_mangle]
pub unsafe extern "C" fn futrt_lib_project_array(
    ctx: *mut Library,
    out: *mut *mut Held,
    v: *const Held,
    ty: *const c_char,
    field: *const c_char,
) -> c_int {
    // SAFETY: forwarded.
    unsafe {
        with(ctx, |lib| {
            let (ty, field) = (c_str(ty)?, c_str(field)?);
            let (rank, elem) = opaque_array(&lib.program, ty)?;
            let f = lib
                .program
                .opaque(&elem)
                .and_then(|t| t.fields.iter().find(|f| f.name == field))
                .ok_or_else(|| format!("the records of {ty} have no field {field}"))?
                .clone();
            let held = lib.held(v, Some(ty), "the array")?;
            let mut copies = copy_parts(lib.ctx()?, &held.var.components()[f.parts.clone()])?;
            let var = match Type::parse(&f.ty) {
                Some(_) => copies.remove(0),
                None => Var::Opaque {
                    ty: format!("{}{}", "[]".repeat(rank), f.ty),
                    parts: copies,
                },
            };
            *out = Held::new(var);
            Ok(())
        })
    }
}

/// `futhark_new_opaque_<t>`: a record of type `ty` from its fields'
/// values in order (each a pointer to a scalar or a value), copied.
///
/// # Safety
///
/// As [`library`]; `ty` NUL-terminated; `fields` holds one pointer per
/// field as said; `out` points to storage for a pointer.
#[no_mangle]
pub unsafe extern "C" fn futrt_lib_new_record(
    ctx: *mut Library,
    ty: *const c_char,
    out: *mut *mut Held,
    fields: *const *const c_void,
) -> c_int {
    // SAFETY: forwarded.
    unsafe {
        with(ctx, |lib| {
            let ty = c_str(ty)?;
            let record = match lib.program.opaque(ty) {
                Some(t) if t.kind == OpaqueKind::Record => t.clone(),
                _ => return Err(format!("{ty} is not a record type of the program")),
            };
            let mut parts = Vec::new();
            for (k, f) in record.fields.iter().enumerate() {
                // SAFETY: one pointer per field by this function's contract.
                match lib.value_in(&f.ty, *fields.add(k), &format!("field {} of {ty}", f.name)) {
                    Ok(v) => parts.extend(match v {
                        Var::Opaque { parts, .. } => parts,
                        v => vec![v],
                    }),
                    Err(e) => {
                        let c = lib.ctx()?;
                        free_all(c, parts);
                        return Err(e);
                    }
                }
            }
            *out = Held::new(Var::Opaque {
                ty: record.name.clone(),
                parts,
            });
            Ok(())
        })
    }
}

/// `futhark_project_opaque_<t>_<field>`: a copy of field `field` of
/// record `v` (of type `record`) into `out` (a scalar's storage or a value's pointer).
///
/// # Safety
///
/// As [`futrt_lib_free`]; `field` NUL-terminated; `out` as
/// [`Library::value_out`] needs for the field's type.
#[no_mangle]
pub unsafe extern "C" fn futrt_lib_project(
    ctx: *mut Library,
    out: *mut c_void,
    v: *const Held,
    record: *const c_char,
    field: *const c_char,
) -> c_int {
    // SAFETY: forwarded.
    unsafe {
        with(ctx, |lib| {
            let field = c_str(field)?;
            if out.is_null() {
                return Err("the output is NULL".into());
            }
            let Var::Opaque { ty, parts } = &lib.held(v, Some(c_str(record)?), "the record")?.var else {
                return Err("not a record".into());
            };
            let f = lib
                .program
                .opaque(ty)
                .and_then(|t| t.fields.iter().find(|f| f.name == field))
                .ok_or_else(|| format!("{ty} has no field {field}"))?
                .clone();
            let mut copies = copy_parts(lib.ctx()?, &parts[f.parts.clone()])?;
            let var = match lib.program.opaque(&f.ty) {
                Some(t) => Var::Opaque {
                    ty: t.name.clone(),
                    parts: copies,
                },
                None => copies.remove(0),
            };
            Library::value_out(var, out);
            Ok(())
        })
    }
}

/// `futhark_store_opaque_<t>`: value `v` (of type `ty`) as bytes, as `c-api.rst` says
/// (`p` NULL: the size only; `*p` NULL: `malloc`ed here). The bytes are
/// their count (8 bytes, little-endian), then the components in
/// Futhark's binary value format.
///
/// # Safety
///
/// As [`futrt_lib_free`]; `n` points to a `size_t`; `p` is NULL or points
/// to NULL or to a pointer to `*n` bytes of room.
#[no_mangle]
pub unsafe extern "C" fn futrt_lib_store(
    ctx: *mut Library,
    v: *const Held,
    ty: *const c_char,
    p: *mut *mut c_void,
    n: *mut usize,
) -> c_int {
    // SAFETY: forwarded.
    unsafe {
        with(ctx, |lib| {
            let held = lib.held(v, Some(c_str(ty)?), "the value")?;
            let mut body = Vec::new();
            for part in held.var.components() {
                let value = component_value(lib.ctx()?, part, "the value")?;
                write_binary(&value, &mut body);
            }
            let mut bytes = (body.len() as u64).to_le_bytes().to_vec();
            bytes.append(&mut body);
            *n = bytes.len();
            if p.is_null() {
                return Ok(());
            }
            if (*p).is_null() {
                extern "C" {
                    fn malloc(n: usize) -> *mut c_void;
                }
                *p = malloc(bytes.len());
                if (*p).is_null() {
                    return Err(format!("out of memory allocating {} bytes on the host", bytes.len()));
                }
            }
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), (*p).cast::<u8>(), bytes.len());
            Ok(())
        })
    }
}

/// `futhark_restore_opaque_<t>`: a value of type `ty` from the bytes of
/// [`futrt_lib_store`]; NULL on an error.
///
/// # Safety
///
/// As [`library`]; `ty` NUL-terminated; `p` points to bytes that
/// `futrt_lib_store` wrote.
#[no_mangle]
pub unsafe extern "C" fn futrt_lib_restore(ctx: *mut Library, ty: *const c_char, p: *const c_void) -> *mut Held {
    let mut made = std::ptr::null_mut();
    // SAFETY: forwarded.
    unsafe {
        with(ctx, |lib| {
            let ty = c_str(ty)?;
            let t = lib
                .program
                .opaque(ty)
                .ok_or_else(|| format!("{ty} is not an opaque type of the program"))?
                .clone();
            if p.is_null() {
                return Err("the bytes are NULL".into());
            }
            let mut count = [0u8; 8];
            std::ptr::copy_nonoverlapping(p.cast::<u8>(), count.as_mut_ptr(), 8);
            let len = usize::try_from(u64::from_le_bytes(count)).map_err(|_| "malformed bytes".to_string())?;
            let body = std::slice::from_raw_parts(p.cast::<u8>().add(8), len);
            let values = read_values(body).map_err(|e| format!("the bytes are malformed: {}", e.message))?;
            if values.len() != t.parts.len() {
                return Err(format!("the bytes do not hold a value of type {ty}"));
            }
            let mut parts = Vec::new();
            for (value, part) in values.into_iter().zip(&t.parts) {
                let got = match &value {
                    Value::Prim(x) => Type {
                        elem: x.prim_type(),
                        rank: 0,
                    },
                    Value::Array(a) => Type {
                        elem: a.elem_type(),
                        rank: a.shape.len(),
                    },
                };
                let held = if got != *part {
                    Err(format!("the bytes do not hold a value of type {ty}"))
                } else {
                    upload(lib.ctx()?, value)
                };
                match held {
                    Ok(v) => parts.push(v),
                    Err(e) => {
                        let c = lib.ctx()?;
                        free_all(c, parts);
                        return Err(e);
                    }
                }
            }
            made = Held::new(Var::Opaque { ty: t.name, parts });
            Ok(())
        });
    }
    made
}

/// `futhark_entry_<name>`: calls entry point `name` on `ins` (one pointer
/// per parameter: to a scalar, or a value) and stores the results at
/// `outs` (one pointer per result: to a scalar's storage, or to a
/// value's pointer). On an error nothing is stored: the entry point's
/// failure gives FUTHARK_PROGRAM_ERROR.
///
/// # Safety
///
/// As [`library`]; `name` NUL-terminated; `ins` and `outs` hold the
/// pointers said, of the C types `prog.h` gives the entry point.
#[no_mangle]
pub unsafe extern "C" fn futrt_lib_call(
    ctx: *mut Library,
    name: *const c_char,
    outs: *const *mut c_void,
    ins: *const *const c_void,
) -> c_int {
    // SAFETY: as `library`.
    let Some(lib) = (unsafe { library(ctx) }) else {
        return 1;
    };
    // SAFETY: forwarded from this function's contract.
    let called = unsafe { call_entry(lib, name, outs, ins) };
    match called {
        Ok(results) => {
            for (k, var) in results.into_iter().enumerate() {
                // SAFETY: one pointer per result by this function's contract.
                unsafe { Library::value_out(var, *outs.add(k)) };
            }
            0
        }
        Err((code, e)) => lib.fail(code, e),
    }
}

/// The results of entry point `name` on `ins` (after checking that
/// `outs` has no NULL), or the code to return and the error.
///
/// # Safety
///
/// As [`futrt_lib_call`].
unsafe fn call_entry(
    lib: &mut Library,
    name: *const c_char,
    outs: *const *mut c_void,
    ins: *const *const c_void,
) -> Result<Vec<Var>, (c_int, String)> {
    let misuse = |e: String| (code(&e), e);
    // SAFETY: by this function's contract.
    let name = unsafe { c_str(name) }.map_err(misuse)?;
    let k = lib
        .program
        .entries
        .iter()
        .position(|e| e.name == name)
        .ok_or_else(|| misuse(format!("Unknown entry point: {name}")))?;
    if let Some(why) = &lib.program.entries[k].uncallable {
        return Err((PROGRAM_ERROR, format!("entry point {name} cannot be called: {why}")));
    }
    for i in 0..lib.program.entries[k].results.len() {
        // SAFETY: one pointer per result by this function's contract.
        if unsafe { *outs.add(i) }.is_null() {
            return Err(misuse(format!("entry point {name}: output {} is NULL", i + 1)));
        }
    }
    let params = lib.program.entries[k].params.clone();
    // Scalars are read here; values are checked and passed as they are
    // (`call` copies their arrays).
    let mut scalars: Vec<Option<Var>> = Vec::with_capacity(params.len());
    for (i, p) in params.iter().enumerate() {
        // SAFETY: one pointer per parameter by this function's contract.
        let arg = unsafe { *ins.add(i) };
        let what = format!("entry point {name}: input {}", i + 1);
        scalars.push(match Type::parse(&p.ty) {
            Some(t) if t.rank == 0 => Some(lib.value_in(&p.ty, arg, &what).map_err(misuse)?),
            _ => {
                lib.held(arg.cast(), Some(&p.ty), &what).map_err(misuse)?;
                None
            }
        });
    }
    let vars: Vec<&Var> = scalars
        .iter()
        .enumerate()
        .map(|(i, s)| match s {
            Some(v) => v,
            // SAFETY: checked above to be a live value of the type.
            None => unsafe { &(*(*ins.add(i)).cast::<Held>()).var },
        })
        .collect();
    let (program, ctx) = lib.program_and_ctx().map_err(misuse)?;
    let entry = &program.entries[k];
    let (_, results) = call(ctx, program, entry, &vars).map_err(|e| {
        let code = if e.starts_with("out of memory") {
            OUT_OF_MEMORY
        } else {
            PROGRAM_ERROR
        };
        (code, e)
    })?;
    Ok(results)
}

/// `futhark_variant_opaque_<t>`: the constructor number of sum value `v`
/// (of type `ty`); -1 for a value that is not one.
///
/// # Safety
///
/// As [`futrt_lib_free`]; `ty` NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn futrt_lib_variant(ctx: *mut Library, v: *const Held, ty: *const c_char) -> c_int {
    // SAFETY: forwarded.
    let Some(lib) = (unsafe { library(ctx) }) else {
        return -1;
    };
    // SAFETY: by this function's contract.
    let held = unsafe { c_str(ty) }.and_then(|ty| lib.held(v, Some(ty), "the value"));
    match held.map(|h| h.var.tag()) {
        Ok(Some(tag)) => tag as c_int,
        Ok(None) => -1,
        Err(e) => {
            lib.fail(1, e);
            -1
        }
    }
}

/// `futhark_new_opaque_<t>_<variant>`: a value of sum type `ty` made with
/// constructor number `tag` from its payload (one pointer per value: to
/// a scalar, or a value), copied.
///
/// # Safety
///
/// As [`futrt_lib_new_record`], with `payload` for `fields`.
#[no_mangle]
pub unsafe extern "C" fn futrt_lib_construct(
    ctx: *mut Library,
    ty: *const c_char,
    tag: c_int,
    out: *mut *mut Held,
    payload: *const *const c_void,
) -> c_int {
    // SAFETY: forwarded.
    unsafe {
        with(ctx, |lib| {
            let ty = c_str(ty)?;
            let sum = match lib.program.opaque(ty) {
                Some(t) if t.kind == OpaqueKind::Sum => t.clone(),
                _ => return Err(format!("{ty} is not a sum type of the program")),
            };
            let tag = usize::try_from(tag)
                .ok()
                .filter(|&t| t < sum.variants.len())
                .ok_or_else(|| format!("{ty} has no constructor number {tag}"))?;
            let variant = &sum.variants[tag];
            let mut values = Vec::with_capacity(variant.payload.len());
            for (k, t) in variant.payload.iter().enumerate() {
                // SAFETY: one pointer per payload value by this function's
                // contract.
                match lib.value_in(t, *payload.add(k), &format!("payload {} of {}", k + 1, variant.name)) {
                    Ok(v) => values.push(v),
                    Err(e) => {
                        let c = lib.ctx()?;
                        free_all(c, values);
                        return Err(e);
                    }
                }
            }
            let c = lib.ctx()?;
            let built = construct(c, &sum, tag, &values.iter().collect::<Vec<_>>());
            free_all(c, values);
            *out = Held::new(built?);
            Ok(())
        })
    }
}

/// `futhark_destruct_opaque_<t>_<variant>`: copies of the payload of sum
/// value `v` (of type `ty`), which must have been made with constructor
/// number `tag`, stored at `outs` (one pointer per payload value: to a
/// scalar's storage, or to a value's pointer).
///
/// # Safety
///
/// As [`futrt_lib_free`]; `ty` NUL-terminated; `outs` holds the pointers
/// said.
#[no_mangle]
pub unsafe extern "C" fn futrt_lib_destruct(
    ctx: *mut Library,
    outs: *const *mut c_void,
    v: *const Held,
    ty: *const c_char,
    tag: c_int,
) -> c_int {
    // SAFETY: forwarded.
    unsafe {
        with(ctx, |lib| {
            let ty = c_str(ty)?;
            let held = lib.held(v, Some(ty), "the value")?;
            let sum = lib
                .program
                .opaque(ty)
                .filter(|t| t.kind == OpaqueKind::Sum)
                .ok_or_else(|| format!("{ty} is not a sum type of the program"))?
                .clone();
            let has = held.var.tag();
            if has != usize::try_from(tag).ok() {
                let name = |t: Option<usize>| {
                    t.and_then(|t| sum.variants.get(t))
                        .map_or_else(|| "no valid constructor".to_string(), |v| v.name.clone())
                };
                return Err(format!(
                    "the value of {ty} is made with {}, not {}",
                    name(has),
                    name(usize::try_from(tag).ok())
                ));
            }
            let variant = &sum.variants[tag as usize];
            let (program, c) = lib.program_and_ctx()?;
            let values = destruct(c.get(), program, &held.var, variant)?;
            for (k, value) in values.into_iter().enumerate() {
                Library::value_out(value, *outs.add(k));
            }
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The configuration's setters change its `Settings` as the
    /// executable's options do; a value that cannot be set is kept for
    /// `futhark_context_new` to report.
    #[test]
    fn config_settings() {
        // SAFETY: the configuration is only changed and freed here (no
        // context reads the NULL descriptor).
        unsafe {
            let cfg = futrt_lib_config_new(std::ptr::null());
            futrt_lib_config_set_int(cfg, c"profiling".as_ptr(), 1);
            assert!((*cfg).settings.profile && !(*cfg).settings.log);
            futrt_lib_config_set_int(cfg, c"debugging".as_ptr(), 1);
            let s = &(*cfg).settings;
            assert!(s.debug && s.log && s.profile);
            futrt_lib_config_set_int(cfg, c"logging".as_ptr(), 0);
            futrt_lib_config_set_int(cfg, c"default_grid_size".as_ptr(), 64);
            futrt_lib_config_set_int(cfg, c"default_thread_block_size".as_ptr(), 256);
            futrt_lib_config_set_int(cfg, c"default_tile_size".as_ptr(), 16);
            futrt_lib_config_set_str(cfg, c"cache_file".as_ptr(), c"prog.cache".as_ptr());
            futrt_lib_config_set_str(cfg, c"device".as_ptr(), c"#1".as_ptr());
            let s = &(*cfg).settings;
            assert!(!s.log && s.params == vec![64, 256, 16]);
            assert_eq!(s.cache_file.as_deref(), Some(std::path::Path::new("prog.cache")));
            assert_eq!(s.device.as_deref(), Some("#1"));
            assert_eq!((*cfg).error, None);
            futrt_lib_config_set_str(cfg, c"cache_file".as_ptr(), std::ptr::null());
            assert_eq!((*cfg).settings.cache_file, None);
            futrt_lib_config_set_int(cfg, c"default_thread_block_size".as_ptr(), 128);
            futrt_lib_config_set_int(cfg, c"default_grid_size".as_ptr(), 0);
            let e = (*cfg).error.clone().unwrap();
            assert!(
                e.starts_with("futhark_context_config_set_default_thread_block_size=128:"),
                "{e}"
            );
            futrt_lib_config_free(cfg);
        }
    }
}
