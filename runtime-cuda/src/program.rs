//! The program descriptor, read once from its C form into owned Rust
//! values and checked (version, type codes, ranks, NULL pointers), so that
//! the rest of the runtime never reads the descriptor's raw pointers.

use std::ffi::{c_char, CStr, CString};

use futmlir_values::PrimType;

use crate::abi::{futrt_entry_fn, futrt_program, futrt_type};

/// The descriptor version this runtime reads.
pub const VERSION: i64 = 1;

/// Ranks above this are refused (the binary value format's limit).
const MAX_RANK: i32 = 255;

/// A parameter or result type.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Type {
    pub elem: PrimType,
    pub rank: usize,
}

impl Type {
    /// The type in source syntax: `i32`, `[][]f32`.
    pub fn name(&self) -> String {
        format!("{}{}", "[]".repeat(self.rank), self.elem)
    }
}

pub struct Entry {
    pub name: String,
    pub ins: Vec<Type>,
    pub outs: Vec<Type>,
    pub func: futrt_entry_fn,
    /// The entry point takes (`Some(true)`) or returns (`Some(false)`)
    /// values of an opaque type (element code [`OPAQUE`]): it cannot be
    /// called from the command line.
    pub opaque: Option<bool>,
}

/// The element code of an opaque type (a record, a sum type, an array of
/// tuples) in an entry point's description: no value of it can be read
/// or printed (`ABI.md`).
pub const OPAQUE: i32 = 12;

fn has_opaque(ts: &[futrt_type]) -> bool {
    ts.iter().any(|t| t.elem == OPAQUE)
}

pub struct Program {
    pub entries: Vec<Entry>,
    /// The PTX; `None` for the CPU target.
    pub ptx: Option<CString>,
    pub kernel_names: Vec<String>,
    pub messages: Vec<String>,
}

/// A C string as a `String` (invalid UTF-8 replaced).
///
/// # Safety
///
/// `s` must be NULL or a NUL-terminated string.
unsafe fn string(s: *const c_char, what: &str) -> Result<String, String> {
    if s.is_null() {
        return Err(format!("{what} is NULL"));
    }
    // SAFETY: by this function's contract.
    Ok(unsafe { CStr::from_ptr(s) }.to_string_lossy().into_owned())
}

/// `n` elements at `p` as a slice; NULL is allowed for none.
///
/// # Safety
///
/// `p` must be NULL or point to `n` valid values that outlive the slice.
unsafe fn slice<'a, T>(p: *const T, n: i64, what: &str) -> Result<&'a [T], String> {
    let n = usize::try_from(n).map_err(|_| format!("{what}: negative count {n}"))?;
    if n == 0 {
        return Ok(&[]);
    }
    if p.is_null() {
        return Err(format!("{what}: NULL array of {n} elements"));
    }
    // SAFETY: by this function's contract.
    Ok(unsafe { std::slice::from_raw_parts(p, n) })
}

fn types(raw: &[futrt_type], what: &str) -> Result<Vec<Type>, String> {
    raw.iter()
        .enumerate()
        .map(|(i, t)| {
            let elem = usize::try_from(t.elem)
                .ok()
                .and_then(|e| PrimType::ALL.get(e).copied())
                .ok_or_else(|| format!("{what} {}: unknown element type code {}", i + 1, t.elem))?;
            if !(0..=MAX_RANK).contains(&t.rank) {
                return Err(format!("{what} {}: rank {} out of range", i + 1, t.rank));
            }
            Ok(Type {
                elem,
                rank: t.rank as usize,
            })
        })
        .collect()
}

impl Program {
    /// Reads and checks the descriptor; the error says what is wrong with it.
    ///
    /// # Safety
    ///
    /// `p` must be NULL or point to a descriptor laid out as `ABI.md` says,
    /// whose pointers are NULL or valid for the counts given.
    pub unsafe fn from_raw(p: *const futrt_program) -> Result<Program, String> {
        // SAFETY: by this function's contract.
        let p = unsafe { p.as_ref() }.ok_or("the program descriptor is NULL")?;
        if p.version != VERSION {
            return Err(format!(
                "the program descriptor has version {}, this runtime reads version {VERSION}",
                p.version
            ));
        }
        let mut entries = Vec::new();
        // SAFETY (here and below): the descriptor's arrays and strings are
        // valid for their counts by this function's contract.
        for (i, e) in unsafe { slice(p.entries, p.n_entries, "entries") }?.iter().enumerate() {
            let name = unsafe { string(e.name, &format!("the name of entry {i}")) }?;
            let what = format!("entry point {name}");
            let (ins, outs) = unsafe { (slice(e.r#in, e.n_in, &what)?, slice(e.out, e.n_out, &what)?) };
            let opaque = if has_opaque(ins) {
                Some(true)
            } else {
                has_opaque(outs).then_some(false)
            };
            let (ins, outs) = match opaque {
                Some(_) => (Vec::new(), Vec::new()),
                None => (
                    types(ins, &format!("{what}: parameter"))?,
                    types(outs, &format!("{what}: result"))?,
                ),
            };
            entries.push(Entry {
                ins,
                outs,
                func: e.r#fn.ok_or_else(|| format!("{what}: NULL function"))?,
                opaque,
                name,
            });
        }
        let strings = |p: *const *const c_char, n: i64, what: &str| -> Result<Vec<String>, String> {
            unsafe { slice(p, n, what) }?
                .iter()
                .enumerate()
                .map(|(i, &s)| unsafe { string(s, &format!("{what} {i}")) })
                .collect()
        };
        Ok(Program {
            entries,
            ptx: (!p.ptx.is_null()).then(|| unsafe { CStr::from_ptr(p.ptx) }.to_owned()),
            kernel_names: strings(p.kernel_names, p.n_kernels, "kernel name")?,
            messages: strings(p.messages, p.n_messages, "message")?,
        })
    }

    pub fn entry(&self, name: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.name == name)
    }

    pub fn entry_names(&self) -> Vec<&str> {
        self.entries.iter().map(|e| e.name.as_str()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::c_void;
    use std::ptr::null;

    unsafe extern "C-unwind" fn nothing(
        _: *mut crate::abi::futrt_ctx,
        _: *mut *mut c_void,
        _: *mut *mut c_void,
    ) -> i32 {
        0
    }

    #[test]
    fn reads_and_checks_descriptors() {
        let ins = [futrt_type { elem: 2, rank: 1 }, futrt_type { elem: 9, rank: 0 }];
        let outs = [futrt_type { elem: 11, rank: 2 }];
        let entry = crate::abi::futrt_entry {
            name: c"main".as_ptr(),
            n_in: 2,
            r#in: ins.as_ptr(),
            n_out: 1,
            out: outs.as_ptr(),
            r#fn: Some(nothing),
        };
        let msgs = [c"m {0}".as_ptr()];
        let mut raw = futrt_program {
            version: 1,
            n_entries: 1,
            entries: &entry,
            ptx: null(),
            n_kernels: 0,
            kernel_names: null(),
            n_messages: 1,
            messages: msgs.as_ptr(),
        };
        // SAFETY: `raw` and everything it points to are alive.
        let p = unsafe { Program::from_raw(&raw) }.unwrap();
        let main = p.entry("main").unwrap();
        assert_eq!(main.ins.iter().map(Type::name).collect::<Vec<_>>(), ["[]i32", "f32"]);
        assert_eq!(main.outs[0].name(), "[][]bool");
        assert_eq!(p.messages, ["m {0}"]);
        assert!(p.ptx.is_none());
        raw.version = 2;
        // SAFETY: as above.
        let e = unsafe { Program::from_raw(&raw) }.err().unwrap();
        assert!(e.contains("version 2"), "{e}");
        raw.version = 1;
        raw.n_kernels = 3;
        // SAFETY: as above (the NULL array is refused, not read).
        let e = unsafe { Program::from_raw(&raw) }.err().unwrap();
        assert!(e.contains("NULL array"), "{e}");
        // SAFETY: NULL is allowed.
        assert!(unsafe { Program::from_raw(null()) }.is_err());
        let bad = [futrt_type { elem: 13, rank: 0 }];
        let entry2 = crate::abi::futrt_entry {
            r#in: bad.as_ptr(),
            n_in: 1,
            ..entry
        };
        let raw2 = futrt_program {
            entries: &entry2,
            n_kernels: 0,
            ..raw
        };
        // SAFETY: as above.
        let e = unsafe { Program::from_raw(&raw2) }.err().unwrap();
        assert_eq!(e, "entry point main: parameter 1: unknown element type code 13");
        // An opaque result (code 12): the entry is listed, marked.
        let opaque = [futrt_type { elem: OPAQUE, rank: 0 }];
        let entry3 = crate::abi::futrt_entry {
            out: opaque.as_ptr(),
            n_out: 1,
            ..entry
        };
        let raw3 = futrt_program {
            entries: &entry3,
            n_kernels: 0,
            ..raw
        };
        // SAFETY: as above.
        let p = unsafe { Program::from_raw(&raw3) }.unwrap();
        let main = p.entry("main").unwrap();
        assert_eq!(main.opaque, Some(false));
        assert!(main.ins.is_empty() && main.outs.is_empty());
    }
}
