//! One call of an entry point, shared by the plain executable (`run`) and
//! the server (`server`): the arguments laid out as the ABI passes them,
//! the timed call with the wait for the device, and the results checked
//! against what the ABI promises (fresh, distinct memory from
//! `futrt_alloc`, big enough for the shape).

use std::ffi::c_void;
use std::panic::AssertUnwindSafe;
use std::time::Instant;

use crate::context::{Ctx, EntryFailure};
use crate::marshal::elem_size;
use crate::program::Entry;

/// Owns the context; the entry point receives it as a raw pointer, so the
/// runtime only borrows it between calls (no reference lives across one).
pub struct CtxBox(*mut Ctx);

impl CtxBox {
    pub fn new(ctx: Ctx) -> CtxBox {
        CtxBox(Box::into_raw(Box::new(ctx)))
    }
    pub fn get(&mut self) -> &mut Ctx {
        // SAFETY: the pointer is from `Box::into_raw` and live until drop;
        // the `&mut self` borrow keeps this the only reference.
        unsafe { &mut *self.0 }
    }
}

impl Drop for CtxBox {
    fn drop(&mut self) {
        // SAFETY: from `Box::into_raw`, dropped once.
        drop(unsafe { Box::from_raw(self.0) });
    }
}

/// An argument as the entry point receives it.
pub enum Arg {
    /// A scalar's bytes (at most 8).
    Scalar(Vec<u8>),
    /// An array in the target's memory, which the entry may write into;
    /// it stays the caller's.
    Array { mem: usize, shape: Vec<i64> },
}

/// A result, checked; its memory is the caller's now.
pub enum Returned {
    /// A scalar's bytes.
    Scalar(Vec<u8>),
    /// An array in the target's memory (`mem` 0 only when it has no
    /// elements) with `bytes` bytes of elements.
    Array {
        mem: usize,
        shape: Vec<usize>,
        bytes: usize,
    },
}

/// Calls `entry` with `args`, whose types the caller has checked, and
/// waits for the device. Returns the time of the call and the wait in
/// microseconds, and the results.
///
/// When the context recovers from failures (the server), an entry point
/// that fails returns the error and frees what it had allocated. See
/// Note [Entry point failures in the server].
pub fn invoke(ctx: &mut CtxBox, entry: &Entry, args: &[Arg]) -> Result<(u128, Vec<Returned>), String> {
    let name = &entry.name;
    let func = entry
        .func
        .ok_or_else(|| format!("entry point {name} has no compiled function"))?;
    // The cells behind `ins` and `outs`: an array's `struct futrt_array`
    // (memory, then dimensions) or a scalar's 8 bytes.
    let mut in_cells: Vec<Vec<i64>> = args
        .iter()
        .map(|a| match a {
            Arg::Scalar(bytes) => {
                let mut b = [0u8; 8];
                b[..bytes.len()].copy_from_slice(bytes);
                vec![i64::from_ne_bytes(b)]
            }
            Arg::Array { mem, shape } => std::iter::once(*mem as i64).chain(shape.iter().copied()).collect(),
        })
        .collect();
    let mut out_cells: Vec<Vec<i64>> = entry.outs.iter().map(|t| vec![0; 1 + t.rank]).collect();
    let mut ins: Vec<*mut c_void> = in_cells.iter_mut().map(|c| c.as_mut_ptr().cast()).collect();
    let mut outs: Vec<*mut c_void> = out_cells.iter_mut().map(|c| c.as_mut_ptr().cast()).collect();

    // Copies of the arguments finish before the clock starts.
    ctx.get().sync()?;
    if ctx.get().logging() {
        crate::context::log_line(format_args!("calling entry point {name}"));
    }
    let before = ctx.get().recovers().then(|| ctx.get().live_blocks());
    let start = Instant::now();
    let raw = ctx.0;
    // SAFETY: the descriptor promises `func` takes this many parameters
    // and results of these types; every cell is as the ABI lays it out and
    // outlives the call; no reference to the context is alive.
    let called = std::panic::catch_unwind(AssertUnwindSafe(|| unsafe {
        func(raw, outs.as_mut_ptr(), ins.as_mut_ptr())
    }));
    let failure =
        match called {
            Ok(0) => ctx.get().sync().err(),
            Ok(status) => Some(ctx.get().take_error().unwrap_or_else(|| {
                format!("entry point {name} failed (it returned {status}) without recording an error")
            })),
            Err(payload) => match payload.downcast::<EntryFailure>() {
                Ok(failure) => Some(failure.0),
                Err(other) => std::panic::resume_unwind(other),
            },
        };
    if let Some(message) = failure {
        if let Some(before) = before {
            free_since(ctx.get(), &before);
        }
        return Err(message);
    }
    let micros = start.elapsed().as_micros();
    ctx.get()
        .profiler()
        .host_event(&format!("entry {name}"), String::new(), start);
    if ctx.get().logging() {
        crate::context::log_line(format_args!("entry point {name} returned after {micros} us"));
    }

    let arg_mems: Vec<(usize, usize)> = args
        .iter()
        .enumerate()
        .filter_map(|(i, a)| match a {
            Arg::Array { mem, .. } => Some((i, *mem)),
            Arg::Scalar(_) => None,
        })
        .collect();
    let checked = check_results(ctx.get(), entry, &out_cells, &arg_mems);
    if checked.is_err() {
        if let Some(before) = before {
            free_since(ctx.get(), &before);
        }
    }
    Ok((micros, checked?))
}

/// After a failed call: waits out the device (its error, if any, is a
/// consequence of the first) and frees the blocks the entry point
/// allocated.
fn free_since(c: &mut Ctx, before: &std::collections::HashSet<usize>) {
    let _ = c.sync();
    c.take_error();
    for mem in c.live_blocks().difference(before) {
        // The block is live: freeing it cannot fail.
        let _ = c.free(*mem);
    }
}

/// The results in `out_cells`, checked against the ABI's promises.
fn check_results(
    c: &mut Ctx,
    entry: &Entry,
    out_cells: &[Vec<i64>],
    arg_mems: &[(usize, usize)],
) -> Result<Vec<Returned>, String> {
    let mut results = Vec::with_capacity(out_cells.len());
    let mut result_mems: Vec<usize> = Vec::new();
    for (i, (t, cell)) in entry.outs.iter().zip(out_cells).enumerate() {
        let what = format!("entry point {}: result {}", entry.name, i + 1);
        let size = elem_size(t.elem);
        if t.rank == 0 {
            results.push(Returned::Scalar(cell[0].to_ne_bytes()[..size].to_vec()));
            continue;
        }
        let mem = cell[0] as usize;
        let shape = cell[1..]
            .iter()
            .map(|&d| usize::try_from(d).map_err(|_| format!("{what} has the negative dimension {d}")))
            .collect::<Result<Vec<usize>, String>>()?;
        let bytes = shape
            .iter()
            .try_fold(size, |acc, &d| acc.checked_mul(d))
            .ok_or_else(|| format!("{what} has the impossible shape {shape:?}"))?;
        if mem == 0 {
            if bytes > 0 {
                return Err(format!("{what} is a NULL array of shape {shape:?}"));
            }
        } else {
            if let Some((arg, _)) = arg_mems.iter().find(|&&(_, m)| m == mem) {
                return Err(format!(
                    "{what} is the memory of argument {} (results must be fresh)",
                    arg + 1
                ));
            }
            if result_mems.contains(&mem) {
                return Err(format!("{what} shares its memory with an earlier result"));
            }
            let block = c
                .block_size(mem)
                .ok_or_else(|| format!("{what} is not memory from futrt_alloc"))?;
            if block < bytes {
                return Err(format!(
                    "{what} has shape {shape:?} ({bytes} bytes), but its memory holds {block} bytes"
                ));
            }
            result_mems.push(mem);
        }
        results.push(Returned::Array { mem, shape, bytes });
    }
    Ok(results)
}

/// The elements of an array result read back to the host.
pub fn read_array(c: &mut Ctx, mem: usize, bytes: usize, what: &str) -> Result<Vec<u8>, String> {
    let mut buf = Vec::new();
    buf.try_reserve_exact(bytes)
        .map_err(|_| format!("{what}: no host memory for its {bytes} bytes"))?;
    buf.resize(bytes, 0);
    if bytes > 0 {
        // SAFETY: `buf` holds `bytes` bytes and so does the block (checked
        // when the array was made).
        unsafe { c.read(buf.as_mut_ptr(), mem, bytes) }?;
    }
    Ok(buf)
}
