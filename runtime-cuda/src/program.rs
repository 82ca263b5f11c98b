//! The program descriptor, read once from its C form into owned Rust
//! values and checked (version, type codes, ranks, NULL pointers), so that
//! the rest of the runtime never reads the descriptor's raw pointers.

use std::ffi::{c_char, CStr, CString};

use futmlir_values::PrimType;

use crate::abi::{futrt_entry_fn, futrt_program, futrt_type};

/// The descriptor version this runtime reads.
pub const VERSION: i64 = 2;

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

    /// A type name as Futhark writes it without sizes (`i32`, `[][]f32`),
    /// if it is a primitive type or an array of one.
    pub fn parse(name: &str) -> Option<Type> {
        let mut rest = name;
        let mut rank = 0;
        while let Some(r) = rest.strip_prefix("[]") {
            rest = r;
            rank += 1;
        }
        PrimType::from_name(rest).map(|elem| Type { elem, rank })
    }
}

/// What an opaque type is (`kind` in the server protocol).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum OpaqueKind {
    /// A record or a tuple: it has fields.
    Record,
    /// A sum type.
    Sum,
    /// Anything else: an array of records, an abstract type.
    Opaque,
}

/// A field of a record type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    pub name: String,
    /// The field's type, by name.
    pub ty: String,
    /// The field's components among the record's.
    pub parts: std::ops::Range<usize>,
}

/// A constructor of a sum type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variant {
    pub name: String,
    /// The payload's types, by name.
    pub payload: Vec<String>,
    /// The positions among the sum's components (the tag is 0) of the
    /// payload's components, in order.
    pub parts: Vec<usize>,
}

/// A type that is not a primitive or an array of one: a record, a sum
/// type, an array of records, an abstract type. A value of it is its
/// components, each a scalar or an array of a primitive type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpaqueType {
    pub name: String,
    pub kind: OpaqueKind,
    pub parts: Vec<Type>,
    /// A record's fields in order (the order of `new`); empty otherwise.
    pub fields: Vec<Field>,
    /// A sum type's constructors in the order of their tags; empty
    /// otherwise.
    pub variants: Vec<Variant>,
    /// An array of an opaque type: the element type's name and the
    /// array's rank. Its components are the element type's, each with
    /// `rank` more dimensions in front.
    pub array: Option<(String, usize)>,
}

/// A parameter or result as the user sees it: a value of type `ty`,
/// which is the components `parts` of the entry's `ins` or `outs`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Param {
    pub ty: String,
    pub parts: std::ops::Range<usize>,
}

pub struct Entry {
    pub name: String,
    /// The components the compiled function takes, in order.
    pub ins: Vec<Type>,
    /// The components the compiled function returns, in order.
    pub outs: Vec<Type>,
    /// The parameters as the user sees them.
    pub params: Vec<Param>,
    /// The results as the user sees them.
    pub results: Vec<Param>,
    /// Why the entry point cannot be called, when the compiler could not
    /// translate it (Note [Uncallable entry points] in the compiler's
    /// `segop_to_imp::entry`); `func` must not be called then.
    pub uncallable: Option<String>,
    /// The entry point's attributes as written without the brackets
    /// (`prop(size(3))`), which the server's `attributes` prints.
    pub attributes: Vec<String>,
    /// The compiled function; `None` in a program read from its
    /// description alone ([`Program::describe`], for generating the C
    /// library's code), which is never called.
    pub func: Option<futrt_entry_fn>,
}

/// An entry point as the compiler describes it: its name, components and
/// interface text (`ABI.md`), without a function.
#[derive(Clone, Debug)]
pub struct EntryDescription {
    pub name: String,
    pub ins: Vec<Type>,
    pub outs: Vec<Type>,
    pub interface: String,
}

impl Entry {
    /// The first parameter and the first result of an opaque type, by
    /// type name.
    pub fn opaque(&self, program: &Program) -> (Option<String>, Option<String>) {
        let first = |ps: &[Param]| {
            ps.iter()
                .find(|p| program.opaque(&p.ty).is_some())
                .map(|p| p.ty.clone())
        };
        (first(&self.params), first(&self.results))
    }
}

pub struct Program {
    pub entries: Vec<Entry>,
    /// The opaque types of all entry points, each once.
    pub opaques: Vec<OpaqueType>,
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
        let mut descriptions = Vec::new();
        let mut funcs = Vec::new();
        // SAFETY (here and below): the descriptor's arrays and strings are
        // valid for their counts by this function's contract.
        for (i, e) in unsafe { slice(p.entries, p.n_entries, "entries") }?.iter().enumerate() {
            let name = unsafe { string(e.name, &format!("the name of entry {i}")) }?;
            let what = format!("entry point {name}");
            let (ins, outs) = unsafe { (slice(e.r#in, e.n_in, &what)?, slice(e.out, e.n_out, &what)?) };
            let ins = types(ins, &format!("{what}: parameter"))?;
            let outs = types(outs, &format!("{what}: result"))?;
            let interface = if e.interface.is_null() {
                String::new()
            } else {
                unsafe { string(e.interface, &what) }?
            };
            funcs.push(Some(e.r#fn.ok_or_else(|| format!("{what}: NULL function"))?));
            descriptions.push(EntryDescription {
                name,
                ins,
                outs,
                interface,
            });
        }
        let mut program = Program::describe(descriptions)?;
        for (entry, func) in program.entries.iter_mut().zip(funcs) {
            entry.func = func;
        }
        let strings = |p: *const *const c_char, n: i64, what: &str| -> Result<Vec<String>, String> {
            unsafe { slice(p, n, what) }?
                .iter()
                .enumerate()
                .map(|(i, &s)| unsafe { string(s, &format!("{what} {i}")) })
                .collect()
        };
        program.ptx = (!p.ptx.is_null()).then(|| unsafe { CStr::from_ptr(p.ptx) }.to_owned());
        program.kernel_names = strings(p.kernel_names, p.n_kernels, "kernel name")?;
        program.messages = strings(p.messages, p.n_messages, "message")?;
        Ok(program)
    }

    /// The program that `entries` describe, with their interfaces read and
    /// checked, and no functions, PTX or messages: what the C library's
    /// code is generated from (`crate::library::generate`).
    pub fn describe(entries: Vec<EntryDescription>) -> Result<Program, String> {
        let mut opaques = Vec::new();
        let mut read = Vec::with_capacity(entries.len());
        for e in entries {
            let what = format!("entry point {}", e.name);
            let Interface {
                params,
                results,
                uncallable,
                attributes,
            } = interface(&e.interface, &e.ins, &e.outs, &mut opaques)
                .map_err(|m| format!("{what}: interface: {m}"))?;
            read.push(Entry {
                name: e.name,
                ins: e.ins,
                outs: e.outs,
                params,
                results,
                uncallable,
                attributes,
                func: None,
            });
        }
        Ok(Program {
            entries: read,
            opaques,
            ptx: None,
            kernel_names: Vec::new(),
            messages: Vec::new(),
        })
    }

    /// A program of no entry points.
    pub fn empty() -> Program {
        Program {
            entries: Vec::new(),
            opaques: Vec::new(),
            ptx: None,
            kernel_names: Vec::new(),
            messages: Vec::new(),
        }
    }

    pub fn entry(&self, name: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.name == name)
    }

    pub fn entry_names(&self) -> Vec<&str> {
        self.entries.iter().map(|e| e.name.as_str()).collect()
    }

    /// The opaque type named `name`.
    pub fn opaque(&self, name: &str) -> Option<&OpaqueType> {
        self.opaques.iter().find(|t| t.name == name)
    }

    /// The components of a value of type `name`: one for a primitive type
    /// or an array of one, an opaque type's parts; `None` for an unknown
    /// type.
    pub fn parts(&self, name: &str) -> Option<Vec<Type>> {
        match Type::parse(name) {
            Some(t) => Some(vec![t]),
            None => self.opaque(name).map(|t| t.parts.clone()),
        }
    }
}

/// What an entry's interface says: the parameters and results as the
/// user sees them, and why the entry point cannot be called, if it
/// cannot.
struct Interface {
    params: Vec<Param>,
    results: Vec<Param>,
    uncallable: Option<String>,
    attributes: Vec<String>,
}

/// Reads an entry's interface text (`ABI.md`, "Entry point interfaces")
/// against its components `ins` and `outs`, adding its opaque types to
/// `opaques` (a type of the same name must be described the same way);
/// returns what it says of the entry point.
fn interface(text: &str, ins: &[Type], outs: &[Type], opaques: &mut Vec<OpaqueType>) -> Result<Interface, String> {
    if text.is_empty() {
        let each = |ts: &[Type]| {
            ts.iter()
                .enumerate()
                .map(|(k, t)| Param {
                    ty: t.name(),
                    parts: k..k + 1,
                })
                .collect()
        };
        return Ok(Interface {
            params: each(ins),
            results: each(outs),
            uncallable: None,
            attributes: Vec::new(),
        });
    }
    // The types this text describes, before they join `opaques`.
    let mut local: Vec<OpaqueType> = Vec::new();
    let parts_of = |local: &[OpaqueType], name: &str| -> Result<Vec<Type>, String> {
        match Type::parse(name) {
            Some(t) => Ok(vec![t]),
            None => local
                .iter()
                .find(|t| t.name == name)
                .map(|t| t.parts.clone())
                .ok_or_else(|| format!("the type `{name}` is not described")),
        }
    };
    let (mut params, mut results) = (Vec::new(), Vec::new());
    let (mut n_in, mut n_out) = (0, 0);
    let mut uncallable = None;
    let mut attributes = Vec::new();
    for line in text.lines() {
        let words: Vec<&str> = line.split('\t').collect();
        match words.as_slice() {
            ["type", name, kind, parts @ ..] => {
                let kind = match *kind {
                    "record" => OpaqueKind::Record,
                    "sum" => OpaqueKind::Sum,
                    "opaque" => OpaqueKind::Opaque,
                    other => return Err(format!("unknown kind `{other}` of type `{name}`")),
                };
                let parts = parts
                    .iter()
                    .map(|p| Type::parse(p).ok_or_else(|| format!("type `{name}`: `{p}` is not a component type")))
                    .collect::<Result<Vec<Type>, String>>()?;
                if local.iter().any(|t| t.name == *name) {
                    return Err(format!("the type `{name}` is described twice"));
                }
                local.push(OpaqueType {
                    name: name.to_string(),
                    kind,
                    parts,
                    fields: Vec::new(),
                    variants: Vec::new(),
                    array: None,
                });
            }
            ["field", record, field, ty] => {
                let parts = parts_of(&local, ty)?;
                let r = local
                    .iter_mut()
                    .find(|t| t.name == *record && t.kind == OpaqueKind::Record)
                    .ok_or_else(|| format!("field `{field}` of `{record}`, which is not a record described before"))?;
                let start = r.fields.last().map_or(0, |f| f.parts.end);
                let end = start + parts.len();
                if r.parts.get(start..end) != Some(&parts[..]) {
                    return Err(format!(
                        "field `{field}` of `{record}` does not match the record's components"
                    ));
                }
                r.fields.push(Field {
                    name: field.to_string(),
                    ty: ty.to_string(),
                    parts: start..end,
                });
            }
            ["variant", sum, name, slots, payload @ ..] => {
                let mut payload_parts = Vec::new();
                for ty in payload {
                    payload_parts.extend(parts_of(&local, ty)?);
                }
                let t = local
                    .iter_mut()
                    .find(|t| t.name == *sum && t.kind == OpaqueKind::Sum)
                    .ok_or_else(|| format!("variant `{name}` of `{sum}`, which is not a sum type described before"))?;
                let parts = slots
                    .split(',')
                    .filter(|s| !s.is_empty())
                    .map(|s| s.parse::<usize>().map(|j| j + 1))
                    .collect::<Result<Vec<usize>, _>>()
                    .map_err(|_| format!("variant `{name}` of `{sum}`: malformed slots `{slots}`"))?;
                let slot_types: Option<Vec<Type>> = parts.iter().map(|&j| t.parts.get(j).copied()).collect();
                if slot_types != Some(payload_parts) {
                    return Err(format!(
                        "variant `{name}` of `{sum}` does not match the type's components"
                    ));
                }
                t.variants.push(Variant {
                    name: name.to_string(),
                    payload: payload.iter().map(|p| p.to_string()).collect(),
                    parts,
                });
            }
            ["in", ty] | ["out", ty] => {
                let parts = parts_of(&local, ty)?;
                let (list, comps, n) = if words[0] == "in" {
                    (&mut params, ins, &mut n_in)
                } else {
                    (&mut results, outs, &mut n_out)
                };
                let range = *n..*n + parts.len();
                if comps.get(range.clone()) != Some(&parts[..]) {
                    return Err(format!(
                        "{} {} of type `{ty}` does not match the function's components",
                        if words[0] == "in" { "parameter" } else { "result" },
                        list.len() + 1
                    ));
                }
                *n = range.end;
                list.push(Param {
                    ty: ty.to_string(),
                    parts: range,
                });
            }
            ["array", name, elem, rank] => {
                let rank: usize = rank
                    .parse()
                    .ok()
                    .filter(|&r| r > 0)
                    .ok_or_else(|| format!("array type `{name}`: malformed rank `{rank}`"))?;
                let elem_parts = local
                    .iter()
                    .find(|t| t.name == *elem)
                    .map(|t| t.parts.clone())
                    .ok_or_else(|| format!("array type `{name}` of `{elem}`, which is not described before"))?;
                let t = local
                    .iter_mut()
                    .find(|t| t.name == *name && t.kind == OpaqueKind::Opaque && t.array.is_none())
                    .ok_or_else(|| format!("array line for `{name}`, which is not an opaque type described before"))?;
                let expected: Vec<Type> = elem_parts
                    .iter()
                    .map(|p| Type {
                        elem: p.elem,
                        rank: p.rank + rank,
                    })
                    .collect();
                if t.parts != expected {
                    return Err(format!(
                        "array type `{name}` does not have the components of {rank}-dimensional arrays of `{elem}`"
                    ));
                }
                t.array = Some((elem.to_string(), rank));
            }
            ["attribute", text] => attributes.push(text.to_string()),
            ["uncallable", reason] => uncallable = Some(reason.to_string()),
            _ => return Err(format!("malformed line `{line}`")),
        }
    }
    if n_in != ins.len() || n_out != outs.len() {
        return Err(format!(
            "it covers {n_in} of {} parameter components and {n_out} of {} result components",
            ins.len(),
            outs.len()
        ));
    }
    for t in local {
        if let Some(r) = t.fields.last() {
            if r.parts.end != t.parts.len() {
                return Err(format!("the fields of `{}` do not cover its components", t.name));
            }
        }
        match opaques.iter().find(|o| o.name == t.name) {
            Some(o) if *o != t => {
                return Err(format!(
                    "the type `{}` is described otherwise by another entry point",
                    t.name
                ))
            }
            Some(_) => {}
            None => opaques.push(t),
        }
    }
    Ok(Interface {
        params,
        results,
        uncallable,
        attributes,
    })
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
            interface: null(),
        };
        let msgs = [c"m {0}".as_ptr()];
        let mut raw = futrt_program {
            version: 2,
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
        raw.version = 1;
        // SAFETY: as above.
        let e = unsafe { Program::from_raw(&raw) }.err().unwrap();
        assert!(e.contains("version 1"), "{e}");
        raw.version = 2;
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
        // An interface groups the components: a record of an array and
        // a scalar, whose components are the entry's two parameters.
        let entry3 = crate::abi::futrt_entry {
            interface: c"type\t{a: []i32, b: f32}\trecord\t[]i32\tf32\nfield\t{a: []i32, b: f32}\ta\t[]i32\nfield\t{a: []i32, b: f32}\tb\tf32\nin\t{a: []i32, b: f32}\nout\t[][]bool\n".as_ptr(),
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
        assert_eq!(
            main.params,
            [Param {
                ty: "{a: []i32, b: f32}".into(),
                parts: 0..2
            }]
        );
        assert_eq!(main.opaque(&p), (Some("{a: []i32, b: f32}".to_string()), None));
        let r = p.opaque("{a: []i32, b: f32}").unwrap();
        assert_eq!(r.kind, OpaqueKind::Record);
        assert_eq!(r.fields[1].parts, 1..2);
        assert_eq!(p.parts("[]u8").unwrap()[0].name(), "[]u8");
        // Components that do not match the function's are refused.
        let entry4 = crate::abi::futrt_entry {
            interface: c"type\tr\trecord\ti32\tf32\nin\tr\nout\t[][]bool\n".as_ptr(),
            ..entry
        };
        let raw4 = futrt_program {
            entries: &entry4,
            n_kernels: 0,
            ..raw
        };
        // SAFETY: as above.
        let e = unsafe { Program::from_raw(&raw4) }.err().unwrap();
        assert_eq!(
            e,
            "entry point main: interface: parameter 1 of type `r` does not match the function's components"
        );
    }
}
