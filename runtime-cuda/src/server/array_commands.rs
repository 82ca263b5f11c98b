//! The server's array commands beyond `rank`, `elemtype` and primitive
//! `shape`: `shape`, `index`, `set` and `new_array` on arrays of any
//! element type, `zip` and `unzip` of arrays of records
//! (`server-protocol.rst`, "Array Commands"; the elements are moved by
//! `crate::arrays`).

use super::{Answer, Server};
use crate::arrays;
use crate::program::{OpaqueKind, OpaqueType, Type};
use crate::var::{copy_each, free_all, Var};

/// What an array type holds: its rank, and its element type if that is
/// opaque (`None`: a primitive type, `elem`).
pub(super) struct ArrayType<'p> {
    pub rank: usize,
    pub elem: Option<&'p OpaqueType>,
    /// The element type's name.
    pub elem_name: String,
}

/// Parses the indices or sizes `words` (non-negative for sizes).
fn integers(words: &[String], what: &str) -> Result<Vec<i64>, String> {
    words
        .iter()
        .map(|w| w.parse::<i64>().map_err(|_| format!("{what} `{w}` is not an integer")))
        .collect()
}

impl<'p> Server<'p> {
    /// The array type named `ty`: a primitive one (`[][]f32`) or one the
    /// program describes as an array of an opaque type.
    pub(super) fn array_type(&self, ty: &str) -> Result<ArrayType<'p>, String> {
        if let Some(t) = Type::parse(ty) {
            return if t.rank > 0 {
                Ok(ArrayType {
                    rank: t.rank,
                    elem: None,
                    elem_name: t.elem.to_string(),
                })
            } else {
                Err(format!("Not an array type: {ty}"))
            };
        }
        let t = self.program.opaque(ty).ok_or_else(|| format!("Unknown type: {ty}"))?;
        match &t.array {
            Some((elem, rank)) => Ok(ArrayType {
                rank: *rank,
                elem: self.program.opaque(elem),
                elem_name: elem.clone(),
            }),
            None => Err(format!("Not an array type: {ty}")),
        }
    }

    /// The array type of variable `name`.
    fn array_var(&self, name: &str) -> Result<(&Var, ArrayType<'p>), String> {
        let v = self.var(name)?;
        let t = self.array_type(&v.type_name())?;
        Ok((v, t))
    }

    /// `shape V`.
    pub(super) fn shape(&self, args: &[String]) -> Answer {
        let [name] = args else {
            return Err("shape takes 1 argument(s)".into());
        };
        let (v, t) = self.array_var(name)?;
        Ok(arrays::shape(v, t.rank)?.iter().map(|d| format!("{d}\n")).collect())
    }

    /// `index V0 V1 I0 ... IN-1`: a copy of an element.
    pub(super) fn index(&mut self, args: &[String]) -> Answer {
        let [to, from, idx @ ..] = args else {
            return Err("index takes a new variable, an array variable and the indices".into());
        };
        self.check_new(std::slice::from_ref(to))?;
        let idx = integers(idx, "index")?;
        let t = self.array_var(from)?.1;
        let elem = t.elem.map(|e| e.name.as_str());
        let value = arrays::index(self.ctx.get(), &self.vars[from], t.rank, elem, &idx)?;
        self.vars.insert(to.clone(), value);
        Ok(String::new())
    }

    /// `set V0 V1 I0 ... IN-1`: element `I` of array `V0` becomes `V1`.
    pub(super) fn set(&mut self, args: &[String]) -> Answer {
        let [array, value, idx @ ..] = args else {
            return Err("set takes an array variable, a value variable and the indices".into());
        };
        let idx = integers(idx, "index")?;
        let t = self.array_var(array)?.1;
        let vt = self.var(value)?.type_name();
        if vt != t.elem_name {
            return Err(format!(
                "the elements of {array} have type {}, but {value} has type {vt}",
                t.elem_name
            ));
        }
        arrays::set(self.ctx.get(), &self.vars[array], t.rank, &self.vars[value], &idx)?;
        Ok(String::new())
    }

    /// `new_array V0 TYPE S0 ... SN-1 V1 ... VM`.
    pub(super) fn new_array(&mut self, args: &[String]) -> Answer {
        let [to, ty, rest @ ..] = args else {
            return Err("new_array takes a new variable, a type, the sizes and the elements' variables".into());
        };
        self.check_new(std::slice::from_ref(to))?;
        let t = self.array_type(ty)?;
        if rest.len() < t.rank {
            return Err(format!(
                "type {ty} has rank {}, but {} size(s) were given",
                t.rank,
                rest.len()
            ));
        }
        let (sizes, elems) = rest.split_at(t.rank);
        let shape = integers(sizes, "size")?
            .into_iter()
            .map(|s| usize::try_from(s).map_err(|_| format!("size {s} is negative")))
            .collect::<Result<Vec<usize>, String>>()?;
        for name in elems {
            let vt = self.var(name)?.type_name();
            if vt != t.elem_name {
                return Err(format!(
                    "the elements of {ty} have type {}, but {name} has type {vt}",
                    t.elem_name
                ));
            }
        }
        let elem_parts = self
            .program
            .parts(&t.elem_name)
            .ok_or_else(|| format!("Unknown type: {}", t.elem_name))?;
        let values: Vec<&Var> = elems.iter().map(|n| &self.vars[n]).collect();
        let mut parts = arrays::new_array(self.ctx.get(), &shape, &elem_parts, &values)?;
        let var = match t.elem {
            Some(_) => Var::Opaque { ty: ty.clone(), parts },
            None => parts.pop().ok_or("a primitive array is one component")?,
        };
        self.vars.insert(to.clone(), var);
        Ok(String::new())
    }

    /// The record type whose arrays the array type `ty` is.
    fn record_array(&self, ty: &str) -> Result<(ArrayType<'p>, &'p OpaqueType), String> {
        let t = self.array_type(ty)?;
        match t.elem {
            Some(r) if r.kind == OpaqueKind::Record => Ok((t, r)),
            _ => Err(format!("Not an array of records: {ty}")),
        }
    }

    /// `zip V0 TYPE V1 ... VN`: an array of records from arrays of its
    /// fields (copies).
    pub(super) fn zip(&mut self, args: &[String]) -> Answer {
        let [to, ty, fields @ ..] = args else {
            return Err("zip takes a new variable, a type and the fields' arrays".into());
        };
        self.check_new(std::slice::from_ref(to))?;
        let (t, record) = self.record_array(ty)?;
        if fields.len() != record.fields.len() {
            return Err(format!(
                "the records of {ty} have {} field(s), but {} variable(s) were given",
                record.fields.len(),
                fields.len()
            ));
        }
        let dims = "[]".repeat(t.rank);
        let mut outer: Option<Vec<usize>> = None;
        for (f, name) in record.fields.iter().zip(fields) {
            let v = self.var(name)?;
            let want = format!("{dims}{}", f.ty);
            if v.type_name() != want {
                return Err(format!(
                    "field {} of {ty}'s records needs an array of type {want}, but {name} has type {}",
                    f.name,
                    v.type_name()
                ));
            }
            let s = arrays::shape(v, t.rank)?;
            match &outer {
                Some(o) if *o != s => {
                    return Err(format!(
                        "the arrays to zip have different shapes: {o:?} and {s:?} ({name})"
                    ))
                }
                _ => outer = Some(s),
            }
        }
        let parts: Vec<&Var> = fields.iter().flat_map(|n| self.vars[n].components()).collect();
        let parts = copy_each(self.ctx.get(), &parts)?;
        self.vars.insert(to.clone(), Var::Opaque { ty: ty.clone(), parts });
        Ok(String::new())
    }

    /// `unzip V0 V1 ... VN`: arrays of the fields of an array of records
    /// (copies).
    pub(super) fn unzip(&mut self, args: &[String]) -> Answer {
        let [from, names @ ..] = args else {
            return Err("unzip takes an array variable and the new variables".into());
        };
        let ty = self.var(from)?.type_name();
        let (t, record) = self.record_array(&ty)?;
        if names.len() != record.fields.len() {
            return Err(format!(
                "the records of {ty} have {} field(s), but {} variable(s) were given",
                record.fields.len(),
                names.len()
            ));
        }
        self.check_new(names)?;
        let dims = "[]".repeat(t.rank);
        let mut made = Vec::with_capacity(names.len());
        for f in &record.fields {
            let parts: Vec<&Var> = self.vars[from].components()[f.parts.clone()].iter().collect();
            let mut copies = match copy_each(self.ctx.get(), &parts) {
                Ok(c) => c,
                Err(e) => {
                    free_all(self.ctx.get(), made);
                    return Err(e);
                }
            };
            made.push(match Type::parse(&f.ty) {
                Some(_) => copies.pop().ok_or("a primitive field is one component")?,
                None => Var::Opaque {
                    ty: format!("{dims}{}", f.ty),
                    parts: copies,
                },
            });
        }
        for (name, v) in names.iter().zip(made) {
            self.vars.insert(name.clone(), v);
        }
        Ok(String::new())
    }
}
