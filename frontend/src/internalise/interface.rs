//! An entry point's interface as the outside world sees it: the types of
//! its parameters and results by name, and for each opaque type its kind,
//! its components and, for records, its fields. The internaliser attaches
//! it to the entry's `soac.func` as the string attribute `interface`; the
//! compiler carries it to the program descriptor, and the runtime's
//! server reads it (`runtime-cuda/ABI.md`, "Entry point interfaces").
//!
//! **Note [Entry point interfaces].**
//! A compiled entry point takes and returns flattened values (Note
//! [Flattened values]): a record parameter `{a: [n]i32, b: f32}` is two
//! parameters of the `soac.func`, `[n]i32` then `f32`, fields in the
//! order of [`Type::Record`] (sorted by name; a tuple's in order), and a
//! sum type is its tag and its slots (Note [Sum types]). The interface
//! says how those components group into the values a user passes:
//!
//! ```text
//! type\t{a: []i32, b: f32}\trecord\t[]i32\tf32
//! field\t{a: []i32, b: f32}\ta\t[]i32
//! field\t{a: []i32, b: f32}\tb\tf32
//! in\t{a: []i32, b: f32}
//! in\ti32
//! out\t[]i32
//! ```
//!
//! one line per fact, words separated by tabs (a type's name may hold
//! spaces, never a tab): `type NAME KIND COMPONENT...` for each opaque
//! type that appears (kind `record`, `sum` or `opaque`; components as
//! `[]..[]scalar`), `field RECORD NAME TYPE` for each field of a record
//! in order (the field's components are the next ones of the record's),
//! `variant SUM NAME SLOTS TYPE...` for each constructor of a sum type
//! in tag order (the slots its payload's components occupy, counted
//! after the tag, comma-separated, then the payload's types), `array
//! NAME ELEM RANK` for an array of an opaque type (its components are
//! the element type's, each with RANK more dimensions in front), then
//! `attribute TEXT` per attribute of the entry point (`prop(size(3))`),
//! `in TYPE` per parameter and `out TYPE` per result. A result of
//! tuple type is one result per component, as in Futhark; a tuple
//! anywhere else (or written as an abbreviation, `: pair`) is a record
//! with fields `0`, `1`, ... The compiler adds
//! a last line `uncallable REASON` to the interface of an entry point
//! it cannot translate (Note [Uncallable entry points] in `lowering`'s
//! `segop_to_imp::entry`).
//!
//! Names follow Futhark's (`c-api.rst`, "Opaque Values"): a parameter or
//! result written with a type abbreviation (`(p: point)`, `: point`) has
//! the abbreviation's name; any other opaque type is named by its type
//! without sizes or uniqueness (`{a: []i32, b: f32}`, `(i32, bool)`,
//! `[](f32, f32)`). Fields are named by their structure; Futhark names a
//! field by the abbreviation it was declared with, which the checked type
//! no longer records.

use std::rc::Rc;

use crate::syntax::ast::{Attr, Pat, PatKind, TypeExp, TypeExpKind, ValBind};
use crate::types::{Size, Type, ABSTRACT_MARK};

use super::sums::SumLayout;
use super::values::{declared_type, leaf_types};
use super::{unsupported, DResult};

/// The interface text of entry point `vb` (Note [Entry point interfaces]).
pub(crate) fn entry_interface(vb: &ValBind) -> DResult<String> {
    let mut text = Interface::default();
    let mut ins = Vec::new();
    for p in &vb.params {
        let t = declared_type(p).ok_or_else(|| unsupported(p.span, "an entry parameter without a type"))?;
        let name = text.describe(&t, pat_name(p)).map_err(|w| unsupported(p.span, w))?;
        ins.push(name);
    }
    let mut outs = Vec::new();
    let ret_names: Vec<Option<String>> = match vb.ret.as_ref().map(|r| &r.kind) {
        Some(TypeExpKind::Tuple(ts)) => ts.iter().map(type_exp_name).collect(),
        Some(_) => vec![vb.ret.as_ref().and_then(type_exp_name)],
        None => Vec::new(),
    };
    // A tuple written as an abbreviation (`: pair`) is one result, named
    // by it, as in Futhark; a tuple otherwise is one result per component.
    let named_tuple = matches!(vb.ret.as_ref().map(|r| &r.kind), Some(TypeExpKind::Var(_)));
    match &vb.body.ty {
        Some(Type::Tuple(ts)) if !named_tuple => {
            for (k, t) in ts.iter().enumerate() {
                let hint = ret_names
                    .get(k)
                    .cloned()
                    .flatten()
                    .filter(|_| ret_names.len() == ts.len());
                outs.push(text.describe(t, hint).map_err(|w| unsupported(vb.body.span, w))?);
            }
        }
        Some(t) => {
            let hint = ret_names.first().cloned().flatten().filter(|_| ret_names.len() == 1);
            outs.push(text.describe(t, hint).map_err(|w| unsupported(vb.body.span, w))?);
        }
        None => {}
    }
    let mut out = text.lines;
    for a in &vb.attrs {
        out.push_str(&format!("attribute\t{}\n", attr_text(a)));
    }
    for name in ins {
        out.push_str(&format!("in\t{name}\n"));
    }
    for name in outs {
        out.push_str(&format!("out\t{name}\n"));
    }
    Ok(out)
}

/// An attribute as written without its brackets: `prop(gen(f), size(3))`.
fn attr_text(a: &Attr) -> String {
    if a.args.is_empty() {
        a.name.to_string()
    } else {
        let args: Vec<String> = a.args.iter().map(attr_text).collect();
        format!("{}({})", a.name, args.join(", "))
    }
}

/// The abbreviation a parameter is written with (`(p: point)`), if any.
fn pat_name(p: &Pat) -> Option<String> {
    match &p.kind {
        PatKind::Ascribe(_, te) => type_exp_name(te),
        PatKind::Tuple(ps) if ps.len() == 1 => pat_name(&ps[0]),
        _ => None,
    }
}

/// The name of a type written as a (qualified) name, or an array of one
/// (`[]point`, sizes dropped), `*` aside.
fn type_exp_name(te: &TypeExp) -> Option<String> {
    match &te.kind {
        TypeExpKind::Var(q) => Some(q.to_string()),
        TypeExpKind::Unique(t) => type_exp_name(t),
        TypeExpKind::Array(_, t) => type_exp_name(t).map(|n| format!("[]{n}")),
        _ => None,
    }
}

/// The interface's `type` and `field` lines so far.
#[derive(Default)]
struct Interface {
    lines: String,
    /// The opaque types described already.
    named: Vec<String>,
}

impl Interface {
    /// The name of `t` (`hint` for an opaque one written with an
    /// abbreviation), describing it first if it is a new opaque type.
    fn describe(&mut self, t: &Type, hint: Option<String>) -> Result<String, &'static str> {
        let t = external(t);
        if let Some(name) = transparent_name(&t) {
            return Ok(name);
        }
        let name = hint.unwrap_or_else(|| t.to_string());
        if self.named.contains(&name) {
            return Ok(name);
        }
        self.named.push(name.clone());
        let fields: Option<Vec<(String, Type)>> = match &t {
            Type::Tuple(ts) if !ts.is_empty() => {
                Some(ts.iter().enumerate().map(|(k, t)| (k.to_string(), t.clone())).collect())
            }
            Type::Record(fs) => Some(fs.iter().map(|(n, t)| (n.to_string(), t.clone())).collect()),
            _ => None,
        };
        let kind = match &t {
            _ if fields.is_some() => "record",
            Type::Sum(cs) if !(cs.len() == 1 && cs[0].0.starts_with(ABSTRACT_MARK)) => "sum",
            _ => "opaque",
        };
        let mut line = format!("type\t{name}\t{kind}");
        for leaf in leaf_types(&t)? {
            line.push_str(&format!(
                "\t{}{}",
                "[]".repeat(leaf.shape.len()),
                leaf.scalar.futhark_name()
            ));
        }
        // The field and payload types' own lines come first, so that
        // every type a line names is described above it.
        let mut field_lines = String::new();
        for (f, ft) in fields.unwrap_or_default() {
            let ft = self.describe(&ft, None)?;
            field_lines.push_str(&format!("field\t{name}\t{f}\t{ft}\n"));
        }
        // An array of an opaque type: its element type (named by the
        // abbreviation the array's name has, if any) and rank.
        if let Type::Array { elem, shape, .. } = &t {
            let dims = "[]".repeat(shape.len());
            let hint = name
                .strip_prefix(&dims)
                .filter(|e| !e.starts_with('[') && !e.starts_with('{') && !e.starts_with('('));
            let elem = self.describe(elem, hint.map(str::to_string))?;
            field_lines.push_str(&format!("array\t{name}\t{elem}\t{}\n", shape.len()));
        }
        if let (Type::Sum(cs), "sum") = (&t, kind) {
            let layout = SumLayout::of(cs)?;
            for ((c, payload), slots) in layout.constrs.iter().zip(&layout.uses) {
                let slots: Vec<String> = slots.iter().map(|j| j.to_string()).collect();
                field_lines.push_str(&format!("variant\t{name}\t{c}\t{}", slots.join(",")));
                for pt in payload {
                    let pt = self.describe(pt, None)?;
                    field_lines.push_str(&format!("\t{pt}"));
                }
                field_lines.push('\n');
            }
        }
        self.lines.push_str(&format!("{line}\n{field_lines}"));
        Ok(name)
    }
}

/// The name of a primitive type or an array of one (`i32`, `[][]f32`).
fn transparent_name(t: &Type) -> Option<String> {
    match t {
        Type::Prim(p) => Some(p.to_string()),
        Type::Array { elem, shape, .. } => elem.prim().map(|p| format!("{}{p}", "[]".repeat(shape.len()))),
        _ => None,
    }
}

/// `t` as the outside sees it: no sizes, no uniqueness.
fn external(t: &Type) -> Type {
    match t {
        Type::Array { elem, shape, .. } => Type::Array {
            elem: Rc::new(external(elem)),
            shape: vec![Size::Unknown; shape.len()],
            unique: false,
        },
        Type::Tuple(ts) => Type::Tuple(ts.iter().map(external).collect()),
        Type::Record(fs) => Type::Record(fs.iter().map(|(n, t)| (n.clone(), external(t))).collect()),
        Type::Sum(cs) => Type::Sum(
            cs.iter()
                .map(|(n, ts)| (n.clone(), ts.iter().map(external).collect()))
                .collect(),
        ),
        t => t.clone(),
    }
}
