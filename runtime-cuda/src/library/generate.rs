//! The per-program part of the C library (Note [The C library]): from
//! the entry points' descriptions, the header `prog.h` (the API of
//! `c-api.rst` with the program's types and entry points), the C source
//! of the `futhark_*` functions (each a call of a `futrt_lib_*` function),
//! the manifest `prog.json`, and the names the library exports.

use std::fmt::Write as _;

use futmlir_values::PrimType;

use crate::params::PARAMS;
use crate::program::{EntryDescription, OpaqueKind, Program, Type};

/// What [`generate`] makes.
pub struct Generated {
    /// `prog.h`.
    pub header: String,
    /// The C source of the `futhark_*` functions (it holds the header's
    /// declarations itself).
    pub source: String,
    /// `prog.json`.
    pub manifest: String,
    /// The functions `source` defines: the library's exported names.
    pub exports: Vec<String>,
}

// Note [Opaque type names in C]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A type that is not a primitive or an array of one is
// `struct futhark_opaque_<c>` in C, with `<c>` in the names of its
// functions (`futhark_free_opaque_<c>`). As `c-api.rst` says: a type
// named by an abbreviation that is a C identifier (`(p: point)`) keeps
// that name. Otherwise futmlir follows the readable forms of Futhark's
// compiler where the type is built from named parts: a tuple
// `(f32, i32)` is `tup2_f32_i32`, an array `[][]t` is `arr2d_<t>`; any
// other type (a record written out, `{a: []i32, b: f32}`, or a sum
// type) is `h` and eight hexadecimal digits of a hash (FNV-1a, 32 bits)
// of its name, where Futhark also hashes. Two types that come out with
// the same name are an error at build time.

/// The C name part of opaque type `name`. See Note [Opaque type names in C].
pub fn opaque_c_name(name: &str) -> String {
    if is_c_identifier(name) {
        return name.to_string();
    }
    let mut rank = 0;
    let mut rest = name;
    while let Some(r) = rest.strip_prefix("[]") {
        rest = r;
        rank += 1;
    }
    if rank > 0 {
        return format!("arr{rank}d_{}", opaque_c_name(rest));
    }
    if let Some(inner) = rest.strip_prefix('(').and_then(|r| r.strip_suffix(')')) {
        let parts = top_level_split(inner);
        if parts.len() > 1 {
            let parts: Vec<String> = parts.iter().map(|p| opaque_c_name(p.trim())).collect();
            return format!("tup{}_{}", parts.len(), parts.join("_"));
        }
    }
    let hash = name
        .bytes()
        .fold(0x811c_9dc5u32, |h, b| (h ^ u32::from(b)).wrapping_mul(0x0100_0193));
    format!("h{hash:08x}")
}

/// `s` split at its commas outside brackets, braces and parentheses.
fn top_level_split(s: &str) -> Vec<&str> {
    let (mut depth, mut start, mut parts) = (0i32, 0, Vec::new());
    for (i, c) in s.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&s[start..]);
    parts
}

fn is_c_identifier(s: &str) -> bool {
    let mut cs = s.chars();
    cs.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_') && cs.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The C type of a scalar (`f16` as its bits, as Futhark's).
fn scalar_c_type(t: PrimType) -> &'static str {
    match t {
        PrimType::I8 => "int8_t",
        PrimType::I16 => "int16_t",
        PrimType::I32 => "int32_t",
        PrimType::I64 => "int64_t",
        PrimType::U8 => "uint8_t",
        PrimType::U16 | PrimType::F16 => "uint16_t",
        PrimType::U32 => "uint32_t",
        PrimType::U64 => "uint64_t",
        PrimType::F32 => "float",
        PrimType::F64 => "double",
        PrimType::Bool => "bool",
    }
}

/// How a type of the program appears in C.
enum CType {
    Scalar(PrimType),
    /// `<elem>_<rank>d`: the struct is `futhark_<elem>_<rank>d`.
    Array(String),
    /// `futhark_opaque_<c>`, and `<c>`.
    Opaque(String),
}

impl CType {
    fn of(name: &str) -> CType {
        match Type::parse(name) {
            Some(t) if t.rank == 0 => CType::Scalar(t.elem),
            Some(t) => CType::Array(format!("{}_{}d", t.elem, t.rank)),
            None => CType::Opaque(format!("opaque_{}", opaque_c_name(name))),
        }
    }

    /// The C type of a value passed in (`const ...`).
    fn input(&self) -> String {
        match self {
            CType::Scalar(t) => format!("const {}", scalar_c_type(*t)),
            CType::Array(c) | CType::Opaque(c) => format!("const struct futhark_{c} *"),
        }
    }

    /// The C type an out-parameter points to.
    fn output(&self) -> String {
        match self {
            CType::Scalar(t) => scalar_c_type(*t).to_string(),
            CType::Array(c) | CType::Opaque(c) => format!("struct futhark_{c} *"),
        }
    }

    /// The argument of a `futrt_lib_*` call for value `v` passed in: a
    /// scalar's address, or the value's pointer.
    fn pass(&self, v: &str) -> String {
        match self {
            CType::Scalar(_) => format!("(const void *) &{v}"),
            _ => format!("(const void *) {v}"),
        }
    }
}

/// A C string literal of `s`.
fn c_string(s: &str) -> String {
    let mut out = String::from("\"");
    for b in s.bytes() {
        match b {
            b'"' | b'\\' => {
                out.push('\\');
                out.push(b as char);
            }
            0x20..=0x7e => out.push(b as char),
            _ => {
                let _ = write!(out, "\\{b:03o}");
            }
        }
    }
    out.push('"');
    out
}

/// A JSON string of `s`.
fn json_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The C declarations and definitions in the making, and the names
/// defined.
struct Emitter {
    decls: String,
    defs: String,
    exports: Vec<String>,
}

impl Emitter {
    /// A function: its prototype (`RET NAME(PARAMS)`) declared in the
    /// header, defined with `body` in the source, and exported.
    fn function(&mut self, ret: &str, name: &str, params: &str, body: &str) {
        let sep = if ret.ends_with('*') { "" } else { " " };
        let _ = writeln!(self.decls, "{ret}{sep}{name}({params});");
        let _ = writeln!(self.defs, "{ret}{sep}{name}({params}) {{\n{body}}}\n");
        self.exports.push(name.to_string());
    }
}

/// The projection `futhark_project_<c>_<field>` of the type `record` (C
/// name `c`) onto a field of type `ty`, through the runtime's `runtime`
/// (`futrt_lib_project`, or `futrt_lib_project_array` for the field of
/// an array of records); returns the manifest's entry of the field.
fn projection(e: &mut Emitter, c: &str, record: &str, field: &str, ty: &str, runtime: &str) -> String {
    let project = format!("futhark_project_{c}_{field}");
    e.function(
        "int",
        &project,
        &format!(
            "struct futhark_context *ctx, {}*out, const struct futhark_{c} *obj",
            spaced_type(&CType::of(ty).output())
        ),
        &format!(
            "  return {runtime}(ctx, (void *) out, obj, {}, {});\n",
            c_string(record),
            c_string(field)
        ),
    );
    format!(
        "{{\"name\": {}, \"type\": {}, \"project\": \"{project}\"}}",
        json_string(field),
        json_string(ty)
    )
}

/// The functions of an array of an opaque type (`c-api.rst`, "Arrays of
/// Non-Primitive Values"): `index`, `set`, `shape` and `new`, and for an
/// array of records `zip` and a projection per field; returns the
/// manifest's `opaque_array` or `record_array` entry.
fn opaque_array_functions(e: &mut Emitter, program: &Program, name: &str, c: &str, elem: &str, rank: usize) -> String {
    let st = format!("struct futhark_{c}");
    let et = CType::of(elem);
    let idx: Vec<String> = (0..rank).map(|i| format!("i{i}")).collect();
    let dims: Vec<String> = (0..rank).map(|i| format!("dim{i}")).collect();
    let decl = |names: &[String]| names.iter().map(|n| format!(", int64_t {n}")).collect::<String>();
    let ty = c_string(name);
    e.function(
        "int",
        &format!("futhark_index_{c}"),
        &format!("struct futhark_context *ctx, {}*out, {st} *arr{}", spaced_type(&et.output()), decl(&idx)),
        &format!(
            "  const int64_t index[] = {{{}}};\n  return futrt_lib_index_opaque(ctx, (void *) out, arr, {ty}, index);\n",
            idx.join(", ")
        ),
    );
    e.function(
        "int",
        &format!("futhark_set_{c}"),
        &format!(
            "struct futhark_context *ctx, {st} *arr, {}elem{}",
            spaced_type(&et.input()),
            decl(&idx)
        ),
        &format!(
            "  const int64_t index[] = {{{}}};\n  return futrt_lib_set_opaque(ctx, arr, {ty}, elem, index);\n",
            idx.join(", ")
        ),
    );
    e.function(
        "const int64_t *",
        &format!("futhark_shape_{c}"),
        &format!("struct futhark_context *ctx, {st} *arr"),
        &format!("  return futrt_lib_shape_opaque(ctx, arr, {ty});\n"),
    );
    e.function(
        "int",
        &format!("futhark_new_{c}"),
        &format!("struct futhark_context *ctx, {st} **out, {}*elems{}", spaced_type(&et.output()), decl(&dims)),
        &format!(
            "  const int64_t shape[] = {{{}}};\n  return futrt_lib_new_opaque_array(ctx, {ty}, (void **) out, (const void *const *) elems, shape);\n",
            dims.join(", ")
        ),
    );
    let ops = format!(
        "\"index\": \"futhark_index_{c}\", \"set\": \"futhark_set_{c}\", \"shape\": \"futhark_shape_{c}\", \"new\": \"futhark_new_{c}\""
    );
    let record = program.opaque(elem).filter(|t| t.kind == OpaqueKind::Record);
    let Some(record) = record else {
        return format!(
            ",\n      \"opaque_array\": {{\"rank\": {rank}, \"elemtype\": {}, \"ops\": {{{ops}}}}}",
            json_string(elem)
        );
    };
    let dims_of = |f: &str| format!("{}{f}", "[]".repeat(rank));
    // `zip` and the projections take and give arrays of the fields, which
    // need C types: arrays of primitive types, or opaque types described.
    let typed = |f: &str| Type::parse(&dims_of(f)).is_some() || program.opaque(&dims_of(f)).is_some();
    if !record.fields.iter().all(|f| typed(&f.ty)) {
        return format!(
            ",\n      \"opaque_array\": {{\"rank\": {rank}, \"elemtype\": {}, \"ops\": {{{ops}}}}}",
            json_string(elem)
        );
    }
    let params: Vec<String> = (0..record.fields.len())
        .map(|k| {
            format!(
                "{}f_{k}",
                spaced_type(&CType::of(&dims_of(&record.fields[k].ty)).input())
            )
        })
        .collect();
    e.function(
        "int",
        &format!("futhark_zip_{c}"),
        &format!("struct futhark_context *ctx, {st} **out, {}", params.join(", ")),
        &format!(
            "  const void *fields[] = {{{}NULL}};\n  return futrt_lib_zip(ctx, {ty}, (void **) out, fields);\n",
            (0..record.fields.len()).map(|k| format!("f_{k}, ")).collect::<String>()
        ),
    );
    let fields_json: Vec<String> = record
        .fields
        .iter()
        .map(|f| projection(e, c, name, &f.name, &dims_of(&f.ty), "futrt_lib_project_array"))
        .collect();
    format!(
        ",\n      \"record_array\": {{\"rank\": {rank}, \"elemtype\": {}, \"ops\": {{{ops}, \"zip\": \"futhark_zip_{c}\"}}, \"fields\": [{}]}}",
        json_string(elem),
        fields_json.join(", ")
    )
}

/// The header, source and manifest of the library of the program that
/// `entries` describe, for `backend` (`c` or `cuda`, Futhark's names).
pub fn generate(entries: Vec<EntryDescription>, backend: &str) -> Result<Generated, String> {
    let program = Program::describe(entries)?;
    for e in &program.entries {
        if !is_c_identifier(&e.name) {
            return Err(format!(
                "entry point {} has a name that is not a C identifier, so the C library cannot name its function",
                e.name
            ));
        }
    }
    let mut c_names: Vec<(String, &str)> = Vec::new();
    for t in &program.opaques {
        let c = opaque_c_name(&t.name);
        if let Some((_, other)) = c_names.iter().find(|(n, _)| *n == c) {
            return Err(format!(
                "the types `{other}` and `{}` would both be futhark_opaque_{c} in C (Note [Opaque type names in C]); give one of them a type abbreviation in the entry point",
                t.name
            ));
        }
        c_names.push((c, &t.name));
    }
    // The arrays of primitive types that values of the API have: the entry
    // points' parameters and results, the records' fields and the sum
    // types' payloads.
    let mut arrays: Vec<Type> = Vec::new();
    let names = program
        .entries
        .iter()
        .flat_map(|e| e.params.iter().chain(&e.results).map(|p| p.ty.as_str()))
        .chain(
            program
                .opaques
                .iter()
                .flat_map(|t| t.fields.iter().map(|f| f.ty.as_str())),
        );
    // And the arrays of fields that an array of records zips and projects.
    let field_arrays: Vec<String> = program
        .opaques
        .iter()
        .filter_map(|t| Some((t.array.as_ref()?, program.opaque(&t.array.as_ref()?.0)?)))
        .flat_map(|((_, rank), r)| r.fields.iter().map(move |f| format!("{}{}", "[]".repeat(*rank), f.ty)))
        .collect();
    for name in names.chain(field_arrays.iter().map(String::as_str)) {
        if let Some(t) = Type::parse(name).filter(|t| t.rank > 0) {
            if !arrays.contains(&t) {
                arrays.push(t);
            }
        }
    }

    let mut e = Emitter {
        decls: String::new(),
        defs: String::new(),
        exports: Vec::new(),
    };
    let mut types_json: Vec<String> = Vec::new();

    // Configuration and context.
    let _ = writeln!(e.decls, "struct futhark_context_config;\nstruct futhark_context;\n");
    e.function(
        "struct futhark_context_config *",
        "futhark_context_config_new",
        "void",
        "  return (struct futhark_context_config *) futrt_lib_config_new(&futmlir_program);\n",
    );
    e.function(
        "void",
        "futhark_context_config_free",
        "struct futhark_context_config *cfg",
        "  futrt_lib_config_free(cfg);\n",
    );
    for what in ["debugging", "profiling", "logging"] {
        e.function(
            "void",
            &format!("futhark_context_config_set_{what}"),
            "struct futhark_context_config *cfg, int flag",
            &format!("  futrt_lib_config_set_int(cfg, \"{what}\", flag);\n"),
        );
    }
    e.function(
        "void",
        "futhark_context_config_set_cache_file",
        "struct futhark_context_config *cfg, const char *fname",
        "  futrt_lib_config_set_str(cfg, \"cache_file\", fname);\n",
    );
    if backend == "cuda" {
        // The GPU functions of c-api.rst; the older names are the same.
        e.function(
            "void",
            "futhark_context_config_set_device",
            "struct futhark_context_config *cfg, const char *s",
            "  futrt_lib_config_set_str(cfg, \"device\", s);\n",
        );
        e.function(
            "void",
            "futhark_context_config_load_ptx_from",
            "struct futhark_context_config *cfg, const char *path",
            "  futrt_lib_config_set_str(cfg, \"load_ptx\", path);\n",
        );
        for (name, setting) in [
            ("thread_block_size", "default_thread_block_size"),
            ("group_size", "default_thread_block_size"),
            ("grid_size", "default_grid_size"),
            ("num_groups", "default_grid_size"),
            ("tile_size", "default_tile_size"),
        ] {
            e.function(
                "void",
                &format!("futhark_context_config_set_default_{name}"),
                "struct futhark_context_config *cfg, int num",
                &format!("  futrt_lib_config_set_int(cfg, \"{setting}\", num);\n"),
            );
        }
    }
    e.function(
        "int",
        "futhark_context_config_set_tuning_param",
        "struct futhark_context_config *cfg, const char *param_name, size_t new_value",
        "  return futrt_lib_config_set_tuning_param(cfg, param_name, new_value);\n",
    );
    let _ = writeln!(
        e.defs,
        "static const char *const futrt_param_names[] = {{{}}};\nstatic const char *const futrt_param_classes[] = {{{}}};\n",
        PARAMS.iter().map(|p| c_string(p.name)).collect::<Vec<_>>().join(", "),
        PARAMS.iter().map(|p| c_string(p.class)).collect::<Vec<_>>().join(", ")
    );
    e.function(
        "int",
        "futhark_get_tuning_param_count",
        "void",
        &format!("  return {};\n", PARAMS.len()),
    );
    for what in ["name", "class"] {
        e.function(
            "const char *",
            &format!("futhark_get_tuning_param_{what}"),
            "int i",
            &format!(
                "  return i >= 0 && i < {n} ? futrt_param_{what}{es}[i] : NULL;\n",
                n = PARAMS.len(),
                es = if what == "class" { "es" } else { "s" }
            ),
        );
    }
    e.function(
        "struct futhark_context *",
        "futhark_context_new",
        "struct futhark_context_config *cfg",
        "  return (struct futhark_context *) futrt_lib_context_new(cfg);\n",
    );
    e.function(
        "void",
        "futhark_context_free",
        "struct futhark_context *ctx",
        "  futrt_lib_context_free(ctx);\n",
    );
    for f in ["sync", "clear_caches"] {
        e.function(
            "int",
            &format!("futhark_context_{f}"),
            "struct futhark_context *ctx",
            &format!("  return futrt_lib_context_{f}(ctx);\n"),
        );
    }
    for f in ["get_error", "report"] {
        e.function(
            "char *",
            &format!("futhark_context_{f}"),
            "struct futhark_context *ctx",
            &format!("  return futrt_lib_context_{f}(ctx);\n"),
        );
    }
    for (f, paused) in [("pause_profiling", 1), ("unpause_profiling", 0)] {
        e.function(
            "void",
            &format!("futhark_context_{f}"),
            "struct futhark_context *ctx",
            &format!("  futrt_lib_context_pause_profiling(ctx, {paused});\n"),
        );
    }
    e.function(
        "void",
        "futhark_context_set_logging_file",
        "struct futhark_context *ctx, FILE *f",
        "  (void) ctx;\n  (void) f;\n",
    );

    // Arrays.
    for t in &arrays {
        let c = format!("{}_{}d", t.elem, t.rank);
        let st = format!("struct futhark_{c}");
        let et = scalar_c_type(t.elem);
        let dims: Vec<String> = (0..t.rank).map(|i| format!("dim{i}")).collect();
        let _ = writeln!(e.decls, "\n{st};");
        e.function(
            &format!("{st} *"),
            &format!("futhark_new_{c}"),
            &format!(
                "struct futhark_context *ctx, const {et} *data, {}",
                dims.iter()
                    .map(|d| format!("int64_t {d}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            &format!(
                "  const int64_t shape[] = {{{}}};\n  return ({st} *) futrt_lib_new_array(ctx, {}, {}, data, shape);\n",
                dims.join(", "),
                elem_code(t.elem),
                t.rank
            ),
        );
        e.function(
            "int",
            &format!("futhark_free_{c}"),
            &format!("struct futhark_context *ctx, {st} *arr"),
            "  return futrt_lib_free(ctx, arr);\n",
        );
        e.function(
            "int",
            &format!("futhark_values_{c}"),
            &format!("struct futhark_context *ctx, {st} *arr, {et} *data"),
            &format!("  return futrt_lib_values(ctx, arr, {}, data);\n", c_string(&t.name())),
        );
        e.function(
            "const int64_t *",
            &format!("futhark_shape_{c}"),
            &format!("struct futhark_context *ctx, {st} *arr"),
            "  return futrt_lib_shape(ctx, arr);\n",
        );
        let idx: Vec<String> = (0..t.rank).map(|i| format!("i{i}")).collect();
        e.function(
            "int",
            &format!("futhark_index_{c}"),
            &format!(
                "struct futhark_context *ctx, {et} *out, {st} *arr, {}",
                idx.iter()
                    .map(|d| format!("int64_t {d}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            &format!(
                "  const int64_t index[] = {{{}}};\n  return futrt_lib_index(ctx, out, arr, {}, index);\n",
                idx.join(", "),
                c_string(&t.name())
            ),
        );
        e.function(
            "char *",
            &format!("futhark_values_raw_{c}"),
            &format!("struct futhark_context *ctx, {st} *arr"),
            "  return futrt_lib_values_raw(ctx, arr);\n",
        );
        types_json.push(format!(
            "    {}: {{\n      \"kind\": \"array\",\n      \"ctype\": \"{st} *\",\n      \"elemtype\": \"{}\",\n      \"rank\": {},\n      \"ops\": {{\"free\": \"futhark_free_{c}\", \"index\": \"futhark_index_{c}\", \"new\": \"futhark_new_{c}\", \"shape\": \"futhark_shape_{c}\", \"values\": \"futhark_values_{c}\", \"values_raw\": \"futhark_values_raw_{c}\"}}\n    }}",
            json_string(&t.name()),
            t.elem,
            t.rank
        ));
    }

    // Opaque types.
    for t in &program.opaques {
        let CType::Opaque(c) = CType::of(&t.name) else {
            unreachable!("an opaque type is not a primitive or an array of one")
        };
        let st = format!("struct futhark_{c}");
        let _ = writeln!(e.decls, "\n{st};");
        e.function(
            "int",
            &format!("futhark_free_{c}"),
            &format!("struct futhark_context *ctx, {st} *obj"),
            "  return futrt_lib_free(ctx, obj);\n",
        );
        e.function(
            "int",
            &format!("futhark_store_{c}"),
            &format!("struct futhark_context *ctx, const {st} *obj, void **p, size_t *n"),
            &format!("  return futrt_lib_store(ctx, obj, {}, p, n);\n", c_string(&t.name)),
        );
        e.function(
            &format!("{st} *"),
            &format!("futhark_restore_{c}"),
            "struct futhark_context *ctx, const void *p",
            &format!("  return ({st} *) futrt_lib_restore(ctx, {}, p);\n", c_string(&t.name)),
        );
        let mut record_json = String::new();
        if t.kind == OpaqueKind::Record {
            // Tuple fields are `v0`, `v1`, ... as parameters (c-api.rst).
            let param = |f: &str| {
                if f.starts_with(|ch: char| ch.is_ascii_digit()) {
                    format!("v{f}")
                } else {
                    f.to_string()
                }
            };
            for f in &t.fields {
                if !is_c_identifier(&param(&f.name)) {
                    return Err(format!(
                        "field {} of {} is not a C identifier, so the C library cannot name its projection",
                        f.name, t.name
                    ));
                }
            }
            let params: Vec<String> = t
                .fields
                .iter()
                .map(|f| format!("{}{}", spaced_type(&CType::of(&f.ty).input()), param(&f.name)))
                .collect();
            let passed: Vec<String> = t
                .fields
                .iter()
                .map(|f| CType::of(&f.ty).pass(&param(&f.name)))
                .collect();
            e.function(
                "int",
                &format!("futhark_new_{c}"),
                &format!("struct futhark_context *ctx, {st} **out, {}", params.join(", ")),
                &format!(
                    "  const void *fields[] = {{{}, NULL}};\n  return futrt_lib_new_record(ctx, {}, (void **) out, fields);\n",
                    passed.join(", "),
                    c_string(&t.name)
                ),
            );
            let fields_json: Vec<String> = t
                .fields
                .iter()
                .map(|f| projection(&mut e, &c, &t.name, &f.name, &f.ty, "futrt_lib_project"))
                .collect();
            record_json = format!(
                ",\n      \"record\": {{\n        \"new\": \"futhark_new_{c}\",\n        \"fields\": [{}]\n      }}",
                fields_json.join(", ")
            );
        }
        let mut sum_json = String::new();
        if t.kind == OpaqueKind::Sum {
            e.function(
                "int",
                &format!("futhark_variant_{c}"),
                &format!("struct futhark_context *ctx, const {st} *v"),
                &format!("  return futrt_lib_variant(ctx, v, {});\n", c_string(&t.name)),
            );
            let mut variants_json = Vec::new();
            for (tag, v) in t.variants.iter().enumerate() {
                if !is_c_identifier(&v.name) {
                    return Err(format!(
                        "constructor {} of {} is not a C identifier, so the C library cannot name its functions",
                        v.name, t.name
                    ));
                }
                let ins: Vec<String> = v
                    .payload
                    .iter()
                    .enumerate()
                    .map(|(k, ty)| format!("{}v{k}", spaced_type(&CType::of(ty).input())))
                    .collect();
                let passed: Vec<String> = (0..v.payload.len())
                    .map(|k| CType::of(&v.payload[k]).pass(&format!("v{k}")))
                    .collect();
                let construct = format!("futhark_new_{c}_{}", v.name);
                e.function(
                    "int",
                    &construct,
                    &std::iter::once(format!("struct futhark_context *ctx, {st} **out"))
                        .chain(ins)
                        .collect::<Vec<_>>()
                        .join(", "),
                    &format!(
                        "  const void *payload[] = {{{}NULL}};\n  return futrt_lib_construct(ctx, {}, {tag}, (void **) out, payload);\n",
                        passed.iter().map(|p| format!("{p}, ")).collect::<String>(),
                        c_string(&t.name)
                    ),
                );
                let outs: Vec<String> = v
                    .payload
                    .iter()
                    .enumerate()
                    .map(|(k, ty)| format!("{}*v{k}", spaced_type(&CType::of(ty).output())))
                    .collect();
                let destruct = format!("futhark_destruct_{c}_{}", v.name);
                e.function(
                    "int",
                    &destruct,
                    &std::iter::once("struct futhark_context *ctx".to_string())
                        .chain(outs)
                        .chain(std::iter::once(format!("const {st} *obj")))
                        .collect::<Vec<_>>()
                        .join(", "),
                    &format!(
                        "  void *outs[] = {{{}NULL}};\n  return futrt_lib_destruct(ctx, outs, obj, {}, {tag});\n",
                        (0..v.payload.len())
                            .map(|k| format!("(void *) v{k}, "))
                            .collect::<String>(),
                        c_string(&t.name)
                    ),
                );
                variants_json.push(format!(
                    "{{\"name\": {}, \"payload\": [{}], \"construct\": \"{construct}\", \"destruct\": \"{destruct}\"}}",
                    json_string(&v.name),
                    v.payload.iter().map(|p| json_string(p)).collect::<Vec<_>>().join(", ")
                ));
            }
            sum_json = format!(
                ",\n      \"sum\": {{\n        \"variant\": \"futhark_variant_{c}\",\n        \"variants\": [{}]\n      }}",
                variants_json.join(", ")
            );
        }
        let array_json = match &t.array {
            Some((elem, rank)) => opaque_array_functions(&mut e, &program, &t.name, &c, elem, *rank),
            None => String::new(),
        };
        types_json.push(format!(
            "    {}: {{\n      \"kind\": \"opaque\",\n      \"ctype\": \"{st} *\",\n      \"ops\": {{\"free\": \"futhark_free_{c}\", \"store\": \"futhark_store_{c}\", \"restore\": \"futhark_restore_{c}\"}}{record_json}{sum_json}{array_json}\n    }}",
            json_string(&t.name)
        ));
    }

    // Entry points.
    e.decls.push('\n');
    let mut entries_json = Vec::new();
    for entry in &program.entries {
        let outs: Vec<String> = entry
            .results
            .iter()
            .enumerate()
            .map(|(i, r)| format!("{}*out{i}", spaced_type(&CType::of(&r.ty).output())))
            .collect();
        let ins: Vec<String> = entry
            .params
            .iter()
            .enumerate()
            .map(|(i, p)| format!("{}in{i}", spaced_type(&CType::of(&p.ty).input())))
            .collect();
        let passed: Vec<String> = entry
            .params
            .iter()
            .enumerate()
            .map(|(i, p)| CType::of(&p.ty).pass(&format!("in{i}")))
            .collect();
        let out_ptrs: Vec<String> = (0..entry.results.len()).map(|i| format!("(void *) out{i}")).collect();
        let cfun = format!("futhark_entry_{}", entry.name);
        let params: Vec<String> = std::iter::once("struct futhark_context *ctx".to_string())
            .chain(outs)
            .chain(ins)
            .collect();
        e.function(
            "int",
            &cfun,
            &params.join(", "),
            &format!(
                "  void *outs[] = {{{}NULL}};\n  const void *ins[] = {{{}NULL}};\n  return futrt_lib_call(ctx, {}, outs, ins);\n",
                out_ptrs.iter().map(|p| format!("{p}, ")).collect::<String>(),
                passed.iter().map(|p| format!("{p}, ")).collect::<String>(),
                c_string(&entry.name)
            ),
        );
        let io = |ps: &[crate::program::Param], unique: &dyn Fn(&str) -> bool| {
            ps.iter()
                .map(|p| format!("{{\"type\": {}, \"unique\": {}}}", json_string(&p.ty), unique(&p.ty)))
                .collect::<Vec<_>>()
                .join(", ")
        };
        // As the server's `outputs`: results that are arrays or opaque are
        // fresh (unique); no parameter is consumed.
        let unique_result = |ty: &str| Type::parse(ty).is_none_or(|t| t.rank > 0);
        entries_json.push(format!(
            "    {}: {{\n      \"cfun\": \"{cfun}\",\n      \"inputs\": [{}],\n      \"outputs\": [{}],\n      \"tuning_params\": [{}],\n      \"attributes\": []\n    }}",
            json_string(&entry.name),
            io(&entry.params, &|_| false),
            io(&entry.results, &unique_result),
            PARAMS.iter().map(|p| json_string(p.name)).collect::<Vec<_>>().join(", ")
        ));
    }

    // The host object defines each entry point's own function as
    // `futhark_<name>` (`imp_to_mlir`); an entry point named like an API
    // function (`context_new`, `entry_main`) would collide with it.
    if let Some(entry) = program
        .entries
        .iter()
        .find(|en| e.exports.contains(&format!("futhark_{}", en.name)))
    {
        return Err(format!(
            "entry point {} is named like the C API's function futhark_{0}, which the library must define; rename the entry point",
            entry.name
        ));
    }
    let header = format!(
        "/* The C API of a futmlir-compiled Futhark program (Futhark's c-api.rst);\n   generated by `futmlir build --library`. */\n#pragma once\n\n#include <stddef.h>\n#include <stdint.h>\n#include <stdbool.h>\n#include <stdio.h>\n\n#ifdef __cplusplus\nextern \"C\" {{\n#endif\n\n#define FUTHARK_BACKEND_{backend}\n#define FUTHARK_SUCCESS 0\n#define FUTHARK_PROGRAM_ERROR 2\n#define FUTHARK_OUT_OF_MEMORY 3\n\n{}\n#ifdef __cplusplus\n}}\n#endif\n",
        e.decls
    );
    let source = format!(
        "{header}\n/* The runtime's side (runtime-cuda/src/library/mod.rs). */\nextern const char futmlir_program;\nvoid *futrt_lib_config_new(const void *program);\nvoid futrt_lib_config_free(void *cfg);\nint futrt_lib_config_set_tuning_param(void *cfg, const char *name, size_t value);\nvoid futrt_lib_config_set_int(void *cfg, const char *option, int64_t value);\nvoid futrt_lib_config_set_str(void *cfg, const char *option, const char *value);\nvoid *futrt_lib_context_new(const void *cfg);\nvoid futrt_lib_context_free(void *ctx);\nint futrt_lib_context_sync(void *ctx);\nint futrt_lib_context_clear_caches(void *ctx);\nchar *futrt_lib_context_get_error(void *ctx);\nchar *futrt_lib_context_report(void *ctx);\nvoid futrt_lib_context_pause_profiling(void *ctx, int paused);\nvoid *futrt_lib_new_array(void *ctx, int elem, int rank, const void *data, const int64_t *shape);\nint futrt_lib_free(void *ctx, const void *v);\nint futrt_lib_values(void *ctx, const void *v, const char *ty, void *data);\nconst int64_t *futrt_lib_shape(void *ctx, const void *v);\nchar *futrt_lib_values_raw(void *ctx, const void *v);\nint futrt_lib_index(void *ctx, void *out, const void *v, const char *ty, const int64_t *index);\nint futrt_lib_new_record(void *ctx, const char *ty, void **out, const void *const *fields);\nint futrt_lib_project(void *ctx, void *out, const void *v, const char *record, const char *field);\nint futrt_lib_store(void *ctx, const void *v, const char *ty, void **p, size_t *n);\nvoid *futrt_lib_restore(void *ctx, const char *ty, const void *p);\nint futrt_lib_call(void *ctx, const char *entry, void *const *outs, const void *const *ins);\nint futrt_lib_variant(void *ctx, const void *v, const char *ty);\nint futrt_lib_construct(void *ctx, const char *ty, int tag, void **out, const void *const *payload);\nint futrt_lib_destruct(void *ctx, void *const *outs, const void *v, const char *ty, int tag);\nint futrt_lib_index_opaque(void *ctx, void *out, const void *v, const char *ty, const int64_t *index);\nconst int64_t *futrt_lib_shape_opaque(void *ctx, void *v, const char *ty);\nint futrt_lib_set_opaque(void *ctx, void *v, const char *ty, const void *elem, const int64_t *index);\nint futrt_lib_new_opaque_array(void *ctx, const char *ty, void **out, const void *const *elems, const int64_t *shape);\nint futrt_lib_zip(void *ctx, const char *ty, void **out, const void *const *fields);\nint futrt_lib_project_array(void *ctx, void *out, const void *v, const char *ty, const char *field);\n\n{}",
        e.defs
    );
    let manifest = format!(
        "{{\n  \"backend\": \"{backend}\",\n  \"version\": \"futmlir {}\",\n  \"entry_points\": {{\n{}\n  }},\n  \"types\": {{\n{}\n  }}\n}}\n",
        env!("CARGO_PKG_VERSION"),
        entries_json.join(",\n"),
        types_json.join(",\n")
    );
    Ok(Generated {
        header,
        source,
        manifest,
        exports: e.exports,
    })
}

/// The element code of `t` (`ABI.md`).
fn elem_code(t: PrimType) -> usize {
    PrimType::ALL.iter().position(|&p| p == t).unwrap_or(0)
}

/// A C type followed by a name: a space after it unless it ends in `*`.
fn spaced_type(t: &str) -> String {
    if t.ends_with('*') {
        t.to_string()
    } else {
        format!("{t} ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_opaque_types_as_futhark() {
        assert_eq!(opaque_c_name("point"), "point");
        assert_eq!(opaque_c_name("(f32, i32)"), "tup2_f32_i32");
        assert_eq!(opaque_c_name("[](f32, f32)"), "arr1d_tup2_f32_f32");
        assert_eq!(opaque_c_name("[][]t"), "arr2d_t");
        let h = opaque_c_name("{a: []i32, b: f32}");
        assert!(h.starts_with('h') && h.len() == 9, "{h}");
        assert_ne!(h, opaque_c_name("{a: []i32, b: f64}"));
    }
}
