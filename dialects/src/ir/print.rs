//! The printer: MLIR's generic operation syntax, and a pretty form.
//!
//! Generic form (accepted by `mlir-opt --allow-unregistered-dialect`):
//! ```text
//! %2 = "soac.map"(%0, %1) ({
//! ^bb0(%3: f32):
//!   ...
//! }) : (i64, !fut.array<[$0]f32>) -> !fut.array<[$0]f32>
//! ```
//! The pretty form writes the op name bare and types in Futhark's spelling
//! (`[%0]f32`, `u32`, `bool`); the parser reads both. Values are numbered
//! in print order (`%N`, `%N#i` for results of multi-result ops). A size
//! in a type is written by that number in the generic form (`$0` is the
//! value printed as `%0`) and by its SSA name in the pretty form; see
//! Note [Sizes in types across mlir-opt].

use std::fmt::Write;

use super::{AttrKind, Context, Dim, Location, OpId, RegionId, Scalar, Type, TypeKind, Value};

#[derive(Copy, Clone, Debug, Default)]
pub struct PrintOptions {
    /// MLIR's generic syntax instead of the pretty form.
    pub generic: bool,
    /// Print `loc(...)` after each op.
    pub locations: bool,
}

impl PrintOptions {
    pub fn generic() -> PrintOptions {
        PrintOptions {
            generic: true,
            locations: false,
        }
    }
}

const UNNAMED: u32 = u32::MAX;

// Note [Sizes in types across mlir-opt]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// An array type names its sizes: `[%n]f32`, where `%n` is an i64 value in
// scope. Upstream `mlir-opt --allow-unregistered-dialect` renames every
// SSA value it prints (`%36` becomes `%0`, block arguments `%arg0`), but
// the body of `!fut.array<...>` is opaque text to it and comes out as it
// went in: a size that names `%36` would then name nothing, or another
// value.
//
// What mlir-opt keeps is the structure: the ops, their order, their
// results and regions, the blocks and their arguments. So the generic
// form names a size by its place in that structure: `$N` is the N-th
// definition in text order, counting each op that names its results once
// (`$N#i` is its result i) and each block argument once, from 0 at the
// printed root. That is exactly the order this printer numbers values in,
// so in futmlir's own output `$36` is the value printed as `%36`, and the
// text stays readable; after mlir-opt, `$36` still finds it, whatever the
// SSA name has become. The parser counts definitions the same way
// (`Parser::defs`) and resolves `$N` through them; like a name, `$N` must
// be defined before the type and still in scope.
//
// The pretty form, which people read and write, keeps SSA names in types
// (`[%n]f32`), and the parser reads `%name` sizes in either form, so IR
// written by hand or printed before this change still parses. Rejected:
// an attribute on every op naming its results (`fut.names`), which
// clutters every op and needs another on each region-holding op for its
// block arguments, where most sizes live; and an operand index of the op,
// which covers only sizes that are operands, not the outer values a
// region's types name. A number by position survives renaming,
// re-indenting, mlir-opt's `module {` form and its sorting of attributes,
// but not an upstream pass that adds, removes or reorders definitions
// before the size's. Passes that do not know our ops leave them alone:
// mlir-opt must assume an unregistered op has side effects, and
// `--canonicalize --cse` print the same text as no pass at all.

pub struct Printer<'a> {
    ctx: &'a Context,
    opts: PrintOptions,
    out: String,
    /// Print name of each value: the number, and the result index + 1 for
    /// results of multi-result ops (0 otherwise).
    names: Vec<(u32, u32)>,
    next_name: u32,
    /// Sizes in types by definition number (`$N`) rather than SSA name;
    /// the generic form's choice, kept while an attribute's type switches
    /// to the generic spelling (Note [Sizes in types across mlir-opt]).
    size_keys: bool,
}

impl Context {
    pub fn print_op(&self, op: OpId, opts: PrintOptions) -> String {
        let mut p = Printer::new(self, opts);
        p.size_keys = opts.generic;
        p.names = vec![(UNNAMED, 0); self.values.len()];
        p.number(op);
        p.op(op, 0);
        p.out
    }

    pub fn type_to_string(&self, t: Type) -> String {
        let mut p = Printer::new(
            self,
            PrintOptions {
                generic: false,
                locations: false,
            },
        );
        p.ty(t);
        p.out
    }

    pub fn attr_to_string(&self, a: super::Attr) -> String {
        let mut p = Printer::new(
            self,
            PrintOptions {
                generic: false,
                locations: false,
            },
        );
        p.attr(a);
        p.out
    }
}

impl<'a> Printer<'a> {
    fn new(ctx: &'a Context, opts: PrintOptions) -> Printer<'a> {
        Printer {
            ctx,
            opts,
            out: String::new(),
            names: Vec::new(),
            next_name: 0,
            size_keys: false,
        }
    }

    fn name(&mut self, v: Value) {
        self.reference(v, '%');
    }

    /// A size in a type: its SSA name, or in the generic form its
    /// definition number (Note [Sizes in types across mlir-opt]).
    fn size(&mut self, v: Value) {
        self.reference(v, if self.size_keys { '$' } else { '%' });
    }

    fn reference(&mut self, v: Value, sigil: char) {
        let (n, idx) = self.names.get(v.0 as usize).copied().unwrap_or((UNNAMED, 0));
        if n == UNNAMED {
            // A value outside the printed op (or no op printed, as in
            // `type_to_string`): use its arena index. It does not parse
            // back, which the round trip after each pass catches.
            let _ = write!(self.out, "%v{}", v.0);
        } else if idx == 0 {
            let _ = write!(self.out, "{sigil}{n}");
        } else {
            let _ = write!(self.out, "{sigil}{n}#{}", idx - 1);
        }
    }

    /// Names every value defined in `op` in print order, before printing,
    /// so that forward references print with their final names.
    fn number(&mut self, op: OpId) {
        let ctx = self.ctx;
        let n = ctx.num_results(op);
        if n > 0 {
            for (i, r) in ctx.results(op).enumerate() {
                self.names[r.0 as usize] = (self.next_name, if n == 1 { 0 } else { i as u32 + 1 });
            }
            self.next_name += 1;
        }
        for &r in ctx.regions(op) {
            for &b in ctx.blocks(r) {
                for &a in ctx.block_args(b) {
                    self.names[a.0 as usize] = (self.next_name, 0);
                    self.next_name += 1;
                }
                for o in ctx.block_ops(b) {
                    self.number(o);
                }
            }
        }
    }

    fn indent(&mut self, depth: usize) {
        for _ in 0..depth {
            self.out.push_str("  ");
        }
    }

    fn op(&mut self, op: OpId, depth: usize) {
        let ctx = self.ctx;
        self.indent(depth);
        let n = ctx.num_results(op);
        if n > 0 {
            let num = self.names[ctx.result(op, 0).0 as usize].0;
            let _ = write!(self.out, "%{num}");
            if n > 1 {
                let _ = write!(self.out, ":{n}");
            }
            self.out.push_str(" = ");
        }
        let name = ctx.op_name(op);
        // A name that is not a bare identifier (it came from a quoted,
        // escaped name) keeps its quotes, in both forms.
        if self.opts.generic || !is_bare_identifier(name) {
            write_string(&mut self.out, name);
        } else {
            self.out.push_str(name);
        }
        self.out.push('(');
        for (i, &v) in ctx.operands(op).iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.name(v);
        }
        self.out.push(')');
        // The pretty form puts attributes first, so a function's name comes
        // before its body; the generic form follows MLIR.
        if self.opts.generic {
            self.op_regions(op, depth);
            self.op_attrs(op);
        } else {
            self.op_attrs(op);
            self.op_regions(op, depth);
        }
        self.out.push_str(" : (");
        for (i, &v) in ctx.operands(op).iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.ty(ctx.value_type(v));
        }
        self.out.push_str(") -> ");
        let single = n == 1
            && !matches!(
                ctx.type_kind(ctx.value_type(ctx.result(op, 0))),
                TypeKind::Function { .. }
            );
        if single {
            self.ty(ctx.value_type(ctx.result(op, 0)));
        } else {
            self.out.push('(');
            for (i, r) in ctx.results(op).enumerate() {
                if i > 0 {
                    self.out.push_str(", ");
                }
                self.ty(ctx.value_type(r));
            }
            self.out.push(')');
        }
        if self.opts.locations {
            self.location(ctx.location(op));
        }
        self.out.push('\n');
    }

    fn op_regions(&mut self, op: OpId, depth: usize) {
        let regions = self.ctx.regions(op);
        if !regions.is_empty() {
            self.out.push_str(" (");
            for (i, &r) in regions.iter().enumerate() {
                if i > 0 {
                    self.out.push_str(", ");
                }
                self.region(r, depth);
            }
            self.out.push(')');
        }
    }

    fn op_attrs(&mut self, op: OpId) {
        let ctx = self.ctx;
        let attrs = ctx.attrs(op);
        if !attrs.is_empty() {
            self.out.push_str(" {");
            for (i, &(k, a)) in attrs.iter().enumerate() {
                if i > 0 {
                    self.out.push_str(", ");
                }
                self.attr_entry(ctx.str(k), a);
            }
            self.out.push('}');
        }
    }

    fn location(&mut self, loc: Location) {
        match loc {
            Location::Unknown => {}
            Location::Span { source, start, .. } => {
                let src = self.ctx.source(source);
                let (l, c) = src.line_col(start);
                self.out.push_str(" loc(");
                write_string(&mut self.out, &src.name);
                let _ = write!(self.out, ":{l}:{c})");
            }
            Location::FileLineCol { file, line, col } => {
                self.out.push_str(" loc(");
                write_string(&mut self.out, self.ctx.str(file));
                let _ = write!(self.out, ":{line}:{col})");
            }
        }
    }

    fn region(&mut self, r: RegionId, depth: usize) {
        let ctx = self.ctx;
        self.out.push_str("{\n");
        for (bi, &b) in ctx.blocks(r).iter().enumerate() {
            let args = ctx.block_args(b);
            if bi > 0 || !args.is_empty() || ctx.first_op(b).is_none() {
                self.indent(depth);
                let _ = write!(self.out, "^bb{bi}");
                if !args.is_empty() {
                    self.out.push('(');
                    for (i, &a) in args.iter().enumerate() {
                        if i > 0 {
                            self.out.push_str(", ");
                        }
                        self.name(a);
                        self.out.push_str(": ");
                        self.ty(ctx.value_type(a));
                    }
                    self.out.push(')');
                }
                self.out.push_str(":\n");
            }
            for o in ctx.block_ops(b) {
                self.op(o, depth + 1);
            }
        }
        self.indent(depth);
        self.out.push('}');
    }

    pub(crate) fn ty(&mut self, t: Type) {
        let ctx = self.ctx;
        match ctx.type_kind(t) {
            TypeKind::Scalar(s) => {
                let s = if self.opts.generic {
                    s.mlir_name()
                } else {
                    s.futhark_name()
                };
                self.out.push_str(s);
            }
            TypeKind::Array { elem, shape } => {
                if self.opts.generic {
                    self.out.push_str("!fut.array<");
                }
                for d in shape {
                    self.out.push('[');
                    match d {
                        Dim::Const(n) => {
                            let _ = write!(self.out, "{n}");
                        }
                        Dim::Value(v) => self.size(*v),
                        Dim::Unknown => self.out.push('?'),
                    }
                    self.out.push(']');
                }
                self.ty(*elem);
                if self.opts.generic {
                    self.out.push('>');
                }
            }
            TypeKind::Tuple(ts) => {
                self.out.push_str("tuple<");
                self.type_list(ts);
                self.out.push('>');
            }
            TypeKind::Function { inputs, results } => {
                self.out.push('(');
                self.type_list(inputs);
                self.out.push_str(") -> ");
                if results.len() == 1 && !matches!(ctx.type_kind(results[0]), TypeKind::Function { .. }) {
                    self.ty(results[0]);
                } else {
                    self.out.push('(');
                    self.type_list(results);
                    self.out.push(')');
                }
            }
            TypeKind::Record(fields) => {
                self.out.push_str("!source.record<{");
                for (i, (k, t)) in fields.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    write_key(&mut self.out, ctx.str(*k));
                    self.out.push_str(": ");
                    self.ty(*t);
                }
                self.out.push_str("}>");
            }
            TypeKind::Mem(space) => {
                let _ = write!(self.out, "!mem.block<{}>", space.name());
            }
            TypeKind::Opaque { dialect, name, body } => {
                let _ = write!(self.out, "!{}.{}", ctx.str(*dialect), ctx.str(*name));
                if let Some(b) = body {
                    let _ = write!(self.out, "<{}>", ctx.str(*b));
                }
            }
        }
    }

    fn type_list(&mut self, ts: &[Type]) {
        for (i, &t) in ts.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.ty(t);
        }
    }

    fn attr_entry(&mut self, key: &str, a: super::Attr) {
        write_key(&mut self.out, key);
        if !matches!(self.ctx.attr_kind(a), AttrKind::Unit) {
            self.out.push_str(" = ");
            self.attr(a);
        }
    }

    pub(crate) fn attr(&mut self, a: super::Attr) {
        let ctx = self.ctx;
        match ctx.attr_kind(a) {
            AttrKind::Unit => self.out.push_str("unit"),
            AttrKind::Bool(b) => self.out.push_str(if *b { "true" } else { "false" }),
            AttrKind::Int { bits, ty } => {
                match ctx.as_scalar(*ty) {
                    Some(s) if s.is_unsigned_int() => {
                        let _ = write!(self.out, "{}", *bits as u64);
                    }
                    _ => {
                        let _ = write!(self.out, "{bits}");
                    }
                }
                self.out.push_str(" : ");
                self.ty(*ty);
            }
            AttrKind::Float { bits, ty } => {
                let x = f64::from_bits(*bits);
                let s = ctx.as_scalar(*ty).unwrap_or(Scalar::F64);
                write_float(&mut self.out, x, s);
                self.out.push_str(" : ");
                self.ty(*ty);
            }
            AttrKind::String(s) => write_string(&mut self.out, ctx.str(*s)),
            AttrKind::Type(t) => {
                // `[` would read as an array attribute: use the generic spelling.
                let pretty = !self.opts.generic;
                self.opts.generic = true;
                self.ty(*t);
                self.opts.generic = !pretty;
            }
            AttrKind::Array(xs) => {
                self.out.push('[');
                for (i, &x) in xs.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.attr(x);
                }
                self.out.push(']');
            }
            AttrKind::Dict(kvs) => {
                self.out.push('{');
                for (i, &(k, v)) in kvs.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.attr_entry(ctx.str(k), v);
                }
                self.out.push('}');
            }
            AttrKind::SymbolRef(s) => {
                self.out.push('@');
                write_key(&mut self.out, ctx.str(*s));
            }
            AttrKind::Opaque { dialect, name, body } => {
                let _ = write!(self.out, "#{}.{}", ctx.str(*dialect), ctx.str(*name));
                if let Some(b) = body {
                    let _ = write!(self.out, "<{}>", ctx.str(*b));
                }
            }
        }
    }
}

/// Whether `s` is a bare identifier in MLIR's syntax (`[a-zA-Z_][\w$.]*`).
pub fn is_bare_identifier(s: &str) -> bool {
    let mut cs = s.chars();
    matches!(cs.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && cs.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$' || c == '.')
}

fn write_key(out: &mut String, k: &str) {
    if is_bare_identifier(k) {
        out.push_str(k);
    } else {
        write_string(out, k);
    }
}

/// A string literal with MLIR's escapes (`\"`, `\\`, `\n`, `\t`, `\XX`).
pub fn write_string(out: &mut String, s: &str) {
    out.push('"');
    for b in s.bytes() {
        match b {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\n"),
            b'\t' => out.push_str("\\t"),
            0x20..=0x7e => out.push(b as char),
            _ => {
                let _ = write!(out, "\\{b:02X}");
            }
        }
    }
    out.push('"');
}

/// A float literal MLIR accepts: decimal with a `.` when finite (shortest
/// form that reads back to the same value), hexadecimal bits otherwise.
fn write_float(out: &mut String, x: f64, s: Scalar) {
    // Finite as an f64 can still overflow the type (`1.0e39 : f32`).
    let finite = match s {
        Scalar::F32 => (x as f32).is_finite(),
        _ => x.is_finite(),
    };
    if finite {
        let mut t = if s == Scalar::F32 {
            format!("{:?}", x as f32)
        } else {
            format!("{x:?}")
        };
        if !t.contains('.') {
            match t.find('e') {
                Some(i) => t.insert_str(i, ".0"),
                None => t.push_str(".0"),
            }
        }
        out.push_str(&t);
        return;
    }
    let _ = match s {
        Scalar::F16 => {
            let bits: u16 = if x.is_nan() {
                0x7E00
            } else if x > 0.0 {
                0x7C00
            } else {
                0xFC00
            };
            write!(out, "0x{bits:04X}")
        }
        Scalar::F32 => write!(out, "0x{:08X}", (x as f32).to_bits()),
        _ => write!(out, "0x{:016X}", x.to_bits()),
    };
}
