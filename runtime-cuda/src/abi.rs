//! The C interface of `ABI.md`: the `#[repr(C)]` program descriptor and the
//! functions that generated code calls (`extern "C-unwind"`: the C ABI,
//! which may unwind in the server; See Note [Entry point failures in the
//! server]).
//!
//! Every function here is a thin shell: it turns raw pointers into Rust
//! values and hands over to the context (`context::Ctx`). The runtime's
//! other `unsafe` code is in `program` (reading the descriptor), the back
//! ends (memory) and `run` (calling the entry point). The functions that the ABI gives no way to fail
//! (`futrt_alloc`, `futrt_free`, `futrt_copy`, `futrt_read`, `futrt_write`)
//! print `Error: ...` and end the process with status 1 when they cannot do
//! their work, and so do `futrt_launch`, `futrt_sync` and `futrt_fail` on an
//! error (`Ctx::fail`; in the server, the entry point's call ends instead).

#![allow(non_camel_case_types)]

use std::ffi::{c_char, c_int, c_void};

use crate::context::{fatal, Ctx};

/// The context that generated code receives; opaque to C.
pub type futrt_ctx = Ctx;

/// An element type (a code in the order of `PrimType::ALL`) and a rank
/// (0: a scalar).
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct futrt_type {
    pub elem: i32,
    pub rank: i32,
}

/// An entry point's compiled function: `(ctx, outs, ins) -> 0 | 1`.
pub type futrt_entry_fn = unsafe extern "C-unwind" fn(*mut futrt_ctx, *mut *mut c_void, *mut *mut c_void) -> i32;

/// One entry point.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct futrt_entry {
    pub name: *const c_char,
    pub n_in: i64,
    pub r#in: *const futrt_type,
    pub n_out: i64,
    pub out: *const futrt_type,
    pub r#fn: Option<futrt_entry_fn>,
    /// How the components in `in` and `out` group into the values a
    /// user passes (`ABI.md`, "Entry point interfaces"); NULL or empty
    /// when each is a value of its own.
    pub interface: *const c_char,
}

/// The whole program, as generated code describes it.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct futrt_program {
    pub version: i64,
    pub n_entries: i64,
    pub entries: *const futrt_entry,
    /// NUL-terminated PTX; NULL for the CPU target.
    pub ptx: *const c_char,
    pub n_kernels: i64,
    pub kernel_names: *const *const c_char,
    pub n_messages: i64,
    pub messages: *const *const c_char,
}

/// The header of an array argument or result: the memory, then `rank`
/// dimensions (a flexible array member in C).
#[repr(C)]
#[derive(Debug)]
pub struct futrt_array {
    pub mem: *mut c_void,
    pub shape: [i64; 0],
}

/// The executable's `main`.
///
/// # Safety
///
/// `argv` must hold `argc` NUL-terminated strings (C's `main` arguments)
/// and `program` must point to a descriptor laid out as `ABI.md` says,
/// whose strings, arrays and functions stay valid for the whole call.
#[no_mangle]
pub unsafe extern "C" fn futrt_main(argc: c_int, argv: *const *const c_char, program: *const futrt_program) -> c_int {
    // SAFETY: forwarded from this function's contract.
    unsafe { crate::run::main(argc, argv, program) }
}

/// The context behind `ctx`, or the end of the process when it is NULL.
///
/// # Safety
///
/// `ctx` must be NULL or the pointer that the runtime passed to the entry
/// point, with no other reference to the context alive (the runtime holds
/// none while the entry runs).
unsafe fn ctx_mut<'a>(ctx: *mut futrt_ctx, func: &str) -> &'a mut Ctx {
    // SAFETY: forwarded from this function's contract.
    match unsafe { ctx.as_mut() } {
        Some(c) => c,
        None => fatal(&format!("{func} called with a NULL context")),
    }
}

/// A byte count or offset of the ABI as a `usize`; negative ones end the
/// process.
fn size(ctx: &Ctx, n: i64, what: &str, func: &str) -> usize {
    usize::try_from(n).unwrap_or_else(|_| ctx.fail(&format!("{func}: negative {what} {n}")))
}

/// Allocates `bytes` in the target's memory; never returns NULL.
///
/// # Safety
///
/// `ctx` must be the context the runtime passed to the entry point.
#[no_mangle]
pub unsafe extern "C-unwind" fn futrt_alloc(ctx: *mut futrt_ctx, bytes: i64) -> *mut c_void {
    // SAFETY: forwarded from this function's contract.
    let ctx = unsafe { ctx_mut(ctx, "futrt_alloc") };
    if bytes == i64::MAX {
        // Byte sizes saturate at i64::MAX where they overflow (Note [Byte
        // sizes saturate] in the compiler's `segop_to_mem`).
        ctx.fail("an array is too large: its size in bytes does not fit in 64 bits");
    }
    let bytes = size(ctx, bytes, "size", "futrt_alloc");
    match ctx.alloc(bytes) {
        Ok(addr) => addr as *mut c_void,
        Err(e) => ctx.fail(&e),
    }
}

/// Gives a block of [`futrt_alloc`] back to the free list; NULL is ignored.
///
/// # Safety
///
/// `ctx` must be the context the runtime passed to the entry point; `mem`
/// must not be used after this call.
#[no_mangle]
pub unsafe extern "C-unwind" fn futrt_free(ctx: *mut futrt_ctx, mem: *mut c_void) {
    // SAFETY: forwarded from this function's contract.
    let ctx = unsafe { ctx_mut(ctx, "futrt_free") };
    if let Err(e) = ctx.free(mem as usize) {
        ctx.fail(&e);
    }
}

/// Copies `bytes` within the target's memory.
///
/// # Safety
///
/// `ctx` must be the context the runtime passed to the entry point; `src +
/// src_off` and `dst + dst_off` must be valid for `bytes` bytes of the
/// target's memory.
#[no_mangle]
pub unsafe extern "C-unwind" fn futrt_copy(
    ctx: *mut futrt_ctx,
    dst: *mut c_void,
    dst_off: i64,
    src: *const c_void,
    src_off: i64,
    bytes: i64,
) {
    const F: &str = "futrt_copy";
    // SAFETY: forwarded from this function's contract.
    let ctx = unsafe { ctx_mut(ctx, F) };
    let (dst_off, src_off, bytes) = (
        size(ctx, dst_off, "offset", F),
        size(ctx, src_off, "offset", F),
        size(ctx, bytes, "size", F),
    );
    let dst = (dst as usize).wrapping_add(dst_off);
    let src = (src as usize).wrapping_add(src_off);
    // SAFETY: the ranges are valid by this function's contract.
    if let Err(e) = unsafe { ctx.copy(dst, src, bytes) } {
        ctx.fail(&e);
    }
}

/// Copies `bytes` from the target's memory at `mem + off` to `host_dst`,
/// after earlier kernels are done.
///
/// # Safety
///
/// `ctx` must be the context the runtime passed to the entry point;
/// `host_dst` must be valid for writing `bytes` bytes and `mem + off` for
/// reading them in the target's memory.
#[no_mangle]
pub unsafe extern "C-unwind" fn futrt_read(
    ctx: *mut futrt_ctx,
    host_dst: *mut c_void,
    mem: *const c_void,
    off: i64,
    bytes: i64,
) {
    const F: &str = "futrt_read";
    // SAFETY: forwarded from this function's contract.
    let ctx = unsafe { ctx_mut(ctx, F) };
    let (off, bytes) = (size(ctx, off, "offset", F), size(ctx, bytes, "size", F));
    // SAFETY: the ranges are valid by this function's contract.
    if let Err(e) = unsafe { ctx.read(host_dst.cast(), (mem as usize).wrapping_add(off), bytes) } {
        ctx.fail(&e);
    }
}

/// Copies `bytes` from `host_src` to the target's memory at `mem + off`.
///
/// # Safety
///
/// `ctx` must be the context the runtime passed to the entry point;
/// `host_src` must be valid for reading `bytes` bytes and `mem + off` for
/// writing them in the target's memory.
#[no_mangle]
pub unsafe extern "C-unwind" fn futrt_write(
    ctx: *mut futrt_ctx,
    mem: *mut c_void,
    off: i64,
    host_src: *const c_void,
    bytes: i64,
) {
    const F: &str = "futrt_write";
    // SAFETY: forwarded from this function's contract.
    let ctx = unsafe { ctx_mut(ctx, F) };
    let (off, bytes) = (size(ctx, off, "offset", F), size(ctx, bytes, "size", F));
    // SAFETY: the ranges are valid by this function's contract.
    if let Err(e) = unsafe { ctx.write((mem as usize).wrapping_add(off), host_src.cast(), bytes) } {
        ctx.fail(&e);
    }
}

/// Launches kernel number `kernel`; 0, or 1 with the error recorded.
///
/// # Safety
///
/// `ctx` must be the context the runtime passed to the entry point; `args`
/// must point to one pointer per kernel parameter, each to a value of the
/// parameter's type (`cuLaunchKernel`'s `kernelParams`).
#[no_mangle]
pub unsafe extern "C-unwind" fn futrt_launch(
    ctx: *mut futrt_ctx,
    kernel: i32,
    gx: i64,
    gy: i64,
    gz: i64,
    bx: i64,
    by: i64,
    bz: i64,
    shared_bytes: i64,
    args: *mut *mut c_void,
) -> i32 {
    // SAFETY: forwarded from this function's contract.
    let ctx = unsafe { ctx_mut(ctx, "futrt_launch") };
    // SAFETY: `args` is valid by this function's contract.
    match unsafe { ctx.launch(kernel, [gx, gy, gz], [bx, by, bz], shared_bytes, args) } {
        Ok(()) => 0,
        Err(e) => ctx.fail(&e),
    }
}

/// Waits for the device; when a kernel failed, reports its message and
/// ends the program (ABI.md).
///
/// # Safety
///
/// `ctx` must be the context the runtime passed to the entry point.
#[no_mangle]
pub unsafe extern "C-unwind" fn futrt_sync(ctx: *mut futrt_ctx) -> i32 {
    // SAFETY: forwarded from this function's contract.
    let ctx = unsafe { ctx_mut(ctx, "futrt_sync") };
    match ctx.sync() {
        Ok(()) => 0,
        Err(e) => ctx.fail(&e),
    }
}

/// The address of the error buffer that kernels receive (`int64_t[ERROR_WORDS]`).
///
/// # Safety
///
/// `ctx` must be the context the runtime passed to the entry point.
#[no_mangle]
pub unsafe extern "C-unwind" fn futrt_error_buffer(ctx: *mut futrt_ctx) -> *mut c_void {
    // SAFETY: forwarded from this function's contract.
    let ctx = unsafe { ctx_mut(ctx, "futrt_error_buffer") };
    ctx.error_buffer() as *mut c_void
}

/// The value of tuning parameter number `k` (`params.rs`); the end of
/// the process when there is no such parameter (a mismatch of compiler
/// and runtime).
///
/// # Safety
///
/// `ctx` must be the context the runtime passed to the entry point.
#[no_mangle]
pub unsafe extern "C-unwind" fn futrt_param(ctx: *mut futrt_ctx, k: i32) -> i64 {
    // SAFETY: forwarded from this function's contract.
    let ctx = unsafe { ctx_mut(ctx, "futrt_param") };
    ctx.param(k)
        .unwrap_or_else(|| ctx.fail(&format!("futrt_param: no tuning parameter number {k}")))
}

/// Records message number `msg` with `{i}` replaced by `args[i]`; returns 1.
///
/// # Safety
///
/// `ctx` must be the context the runtime passed to the entry point; `args`
/// must hold `nargs` values (it may be NULL when `nargs` is 0).
#[no_mangle]
pub unsafe extern "C-unwind" fn futrt_fail(ctx: *mut futrt_ctx, msg: i32, nargs: i64, args: *const i64) -> i32 {
    // SAFETY: forwarded from this function's contract.
    let ctx = unsafe { ctx_mut(ctx, "futrt_fail") };
    let args: &[i64] = match usize::try_from(nargs) {
        // SAFETY: `args` holds `nargs` values by this function's contract.
        Ok(n) if n > 0 && !args.is_null() => unsafe { std::slice::from_raw_parts(args, n) },
        _ => &[],
    };
    // Generated host code does not unwind after a failed check: the
    // program ends here (ABI.md), or in the server the entry point does
    // (See Note [Entry point failures in the server]).
    let message = ctx.message(msg, args);
    ctx.fail(&message)
}
