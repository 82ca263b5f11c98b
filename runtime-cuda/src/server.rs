//! `prog --server`: Futhark's server protocol (`server-protocol.rst` in
//! Futhark's documentation) on stdin and stdout. One command a line, in
//! words (a word is a run of non-spaces or a `"quoted string"`); each
//! answer ends with `%%% OK` on a line of its own, and a failed command
//! prints `%%% FAILURE` and its message first. The server keeps a store of
//! named variables that the commands fill, pass to entry points and read.
//!
//! See Note [Values in the server] for where the values live and Note
//! [Entry point failures in the server] for how a failing entry point
//! ends its call and not the server.

use std::collections::HashMap;
use std::io::{BufRead, Write};

use futmlir_values::{read_values_partial, write_binary};

use crate::context::Ctx;
use crate::invoke::CtxBox;
use crate::params::PARAMS;
use crate::program::{Entry, OpaqueKind, OpaqueType, Program, Type, Variant};
use crate::settings::Settings;
use crate::var::{call, component_value, construct, copy_each, copy_parts, destruct, free_in, upload, Var};

// Note [Values in the server]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A variable holds a value of a type that an entry point takes or
// returns: a scalar, kept on the host; an array of a primitive type,
// kept in the target's memory (device memory on CUDA, as the ABI's
// `struct futrt_array` describes it) from the `restore` or `call` that
// made it until `free`, so values pass between calls without a trip to
// the host; or a value of an opaque type (a record, a tuple, a sum type,
// an array of records, an abstract type), which is its components, each
// a scalar or an array held as above. The components are those the
// compiled entry point takes and returns, and the program descriptor
// says how they group (Note [Entry point interfaces] in the frontend's
// internaliser): `call` passes a variable's components in order and
// groups the results' components into values of their types. Only
// `store` reads an array back.
//
// The ABI lets an entry point write into its array arguments (ABI.md),
// and it says nothing of which parameters the source declares unique.
// So `call` passes each array argument as a fresh copy made in the
// target's memory, and no variable is ever consumed: `inputs` prints no
// `*`. Results are fresh allocations that alias nothing (ABI.md), so
// `outputs` marks every array or opaque result unique with `*`.
//
// `new` and `project` copy the arrays they take (Futhark's alias
// instead), so that every variable owns its memory and `free` of one
// never touches another. `store` writes an opaque value as its
// components in Futhark's binary value format, one after the other, and
// `restore` of an opaque type reads as many values as the type has
// components: Futhark leaves the bytes of a stored opaque value
// unspecified, only requiring that the same program restore them.
//
// A value of a sum type is its tag (an `i8`, the constructor's index in
// name order) and its slots, shared between constructors where their
// types agree (Note [Sum types] in the frontend's internaliser); the
// descriptor says which slots each constructor's payload occupies.
// `construct` fills the other slots with zeros and empty arrays (no
// `match` reads the slots of another constructor); `destruct` copies the
// payload out.
//
// The array commands (`index`, `set`, `new_array`, `zip`, `unzip`,
// `shape`; `array_commands`) work on arrays of primitive types and on
// arrays of opaque types alike, through the components: an element of
// an array of records is its fields' elements (`crate::arrays`). `zip`,
// `unzip` and `index` copy, as `new` and `project` do.

mod array_commands;

/// The words of a command line; an unclosed quote is an error.
fn words(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut rest = line.trim_start();
    while !rest.is_empty() {
        if let Some(quoted) = rest.strip_prefix('"') {
            let end = quoted.find('"').ok_or_else(|| format!("unclosed quote in `{line}`"))?;
            words.push(quoted[..end].to_string());
            rest = &quoted[end + 1..];
        } else {
            let end = rest.find(' ').unwrap_or(rest.len());
            words.push(rest[..end].to_string());
            rest = &rest[end..];
        }
        rest = rest.trim_start();
    }
    Ok(words)
}

struct Server<'p> {
    program: &'p Program,
    ctx: CtxBox,
    vars: HashMap<String, Var>,
}

/// A command's printed lines, or its error message.
type Answer = Result<String, String>;

impl<'p> Server<'p> {
    fn entry(&self, name: &str) -> Result<&'p Entry, String> {
        self.program
            .entry(name)
            .ok_or_else(|| format!("Unknown entry point: {name}"))
    }

    /// The record type named `name`.
    fn record(&self, name: &str) -> Result<&'p OpaqueType, String> {
        match self.program.opaque(name) {
            Some(t) if t.kind == OpaqueKind::Record => Ok(t),
            Some(_) => Err(format!("Not a record type: {name}")),
            None if Type::parse(name).is_some() => Err(format!("Not a record type: {name}")),
            None => Err(format!("Unknown type: {name}")),
        }
    }

    fn var(&self, name: &str) -> Result<&Var, String> {
        self.vars.get(name).ok_or_else(|| format!("Unknown variable: {name}"))
    }

    /// Checks that `names` are free and distinct: the variables a command
    /// is about to make.
    fn check_new(&self, names: &[String]) -> Result<(), String> {
        for (i, name) in names.iter().enumerate() {
            if self.vars.contains_key(name) {
                return Err(format!("Variable already exists: {name}"));
            }
            if names[..i].contains(name) {
                return Err(format!("Variable named twice: {name}"));
            }
        }
        Ok(())
    }

    fn free_var(&mut self, var: Var) -> Result<(), String> {
        free_in(self.ctx.get(), var)
    }

    /// Runs the command `words` (not empty).
    fn command(&mut self, words: &[String]) -> Answer {
        let args = &words[1..];
        let arity = |n: usize| -> Result<(), String> {
            if args.len() == n {
                Ok(())
            } else {
                Err(format!("{} takes {n} argument(s), {} given", words[0], args.len()))
            }
        };
        match words[0].as_str() {
            "call" => self.call(args),
            "restore" => self.restore(args),
            "store" => self.store(args),
            "free" => {
                for name in args {
                    self.var(name)?;
                }
                for name in args {
                    // Named twice: freed once, the second is not there.
                    if let Some(var) = self.vars.remove(name) {
                        self.free_var(var)?;
                    }
                }
                Ok(String::new())
            }
            "rename" => {
                arity(2)?;
                self.var(&args[0])?;
                self.check_new(&args[1..])?;
                if let Some(var) = self.vars.remove(&args[0]) {
                    self.vars.insert(args[1].clone(), var);
                }
                Ok(String::new())
            }
            "inputs" => {
                arity(1)?;
                Ok(self
                    .entry(&args[0])?
                    .params
                    .iter()
                    .map(|p| format!("{}\n", p.ty))
                    .collect())
            }
            // `output` is the spec's name, `outputs` the one Futhark's
            // servers and the Python client use.
            "outputs" | "output" => {
                arity(1)?;
                let results = &self.entry(&args[0])?.results;
                Ok(results
                    .iter()
                    .map(|r| {
                        let unique = Type::parse(&r.ty).is_none_or(|t| t.rank > 0);
                        format!("{}{}\n", if unique { "*" } else { "" }, r.ty)
                    })
                    .collect())
            }
            "entry_points" => {
                arity(0)?;
                Ok(self.program.entry_names().iter().map(|n| format!("{n}\n")).collect())
            }
            "types" => {
                arity(0)?;
                // As Futhark's: the types that are not primitive, those of
                // the entry points and of the records' fields.
                let mut names: Vec<&str> = Vec::new();
                let entry_types = self
                    .program
                    .entries
                    .iter()
                    .flat_map(|e| e.params.iter().chain(&e.results));
                let field_types = self.program.opaques.iter().flat_map(|t| &t.fields);
                let all = entry_types
                    .map(|p| p.ty.as_str())
                    .chain(field_types.map(|f| f.ty.as_str()))
                    .chain(self.program.opaques.iter().map(|t| t.name.as_str()));
                for name in all {
                    if Type::parse(name).is_none_or(|t| t.rank > 0) && !names.contains(&name) {
                        names.push(name);
                    }
                }
                Ok(names.iter().map(|n| format!("{n}\n")).collect())
            }
            "kind" => {
                arity(1)?;
                match (Type::parse(&args[0]), self.program.opaque(&args[0])) {
                    (Some(t), _) if t.rank == 0 => Ok("primitive\n".into()),
                    (Some(_), _) => Ok("array\n".into()),
                    (None, Some(t)) => Ok(match t.kind {
                        OpaqueKind::Record => "record\n",
                        OpaqueKind::Sum => "sum\n",
                        OpaqueKind::Opaque => "opaque\n",
                    }
                    .into()),
                    (None, None) => Err(format!("Unknown type: {}", args[0])),
                }
            }
            "type" => {
                arity(1)?;
                Ok(format!("{}\n", self.var(&args[0])?.type_name()))
            }
            "rank" | "elemtype" => {
                arity(1)?;
                let t = self.array_type(&args[0])?;
                Ok(if words[0] == "rank" {
                    format!("{}\n", t.rank)
                } else {
                    format!("{}\n", t.elem_name)
                })
            }
            "shape" => self.shape(args),
            "clear" => {
                arity(0)?;
                self.ctx.get().clear_caches();
                Ok(String::new())
            }
            // No effect unless profiling is on (`-P`), as in Futhark.
            "pause_profiling" | "unpause_profiling" => {
                arity(0)?;
                self.ctx.get().set_profiling_paused(words[0] == "pause_profiling");
                Ok(String::new())
            }
            "report" => {
                arity(0)?;
                // `futhark_context_report`'s JSON: the peak memory, then
                // the profiling events (none without `-P`).
                Ok(format!("{}\n", self.ctx.get().report()?))
            }
            "set_tuning_param" => {
                arity(2)?;
                self.ctx.get().set_param(&format!("{}={}", args[0], args[1]))?;
                Ok(String::new())
            }
            "tuning_params" => {
                arity(1)?;
                // Every parameter: the runtime does not know which ones an
                // entry point reads.
                self.entry(&args[0])?;
                Ok(PARAMS.iter().map(|p| format!("{} {}\n", p.name, p.class)).collect())
            }
            "tuning_param_class" => {
                arity(1)?;
                let p = PARAMS
                    .iter()
                    .find(|p| p.name == args[0])
                    .ok_or_else(|| format!("Unknown tuning parameter: {}", args[0]))?;
                Ok(format!("{}\n", p.class))
            }
            "fields" => {
                arity(1)?;
                Ok(self
                    .record(&args[0])?
                    .fields
                    .iter()
                    .map(|f| format!("{} {}\n", f.name, f.ty))
                    .collect())
            }
            "new" => self.new_record(args),
            "project" => {
                arity(3)?;
                self.project(&args[0], &args[1], &args[2])
            }
            "variants" => {
                arity(1)?;
                let mut text = String::new();
                for v in &self.sum(&args[0])?.variants {
                    text.push_str(&format!("{}\n", v.name));
                    for t in &v.payload {
                        text.push_str(&format!("- {t}\n"));
                    }
                }
                Ok(text)
            }
            "construct" => self.construct(args),
            "destruct" => self.destruct(args),
            "variant" => {
                arity(1)?;
                let (_, v) = self.variant_of(&args[0])?;
                Ok(format!("{}\n", v.name))
            }
            "index" => self.index(args),
            "set" => self.set(args),
            "new_array" => self.new_array(args),
            "zip" => self.zip(args),
            "unzip" => self.unzip(args),
            "attributes" => {
                arity(1)?;
                Ok(self
                    .entry(&args[0])?
                    .attributes
                    .iter()
                    .map(|a| format!("{a}\n"))
                    .collect())
            }
            other => Err(format!("Unknown command: {other}")),
        }
    }

    /// `call ENTRY OUT1 ... OUTN IN1 ... INM`.
    fn call(&mut self, args: &[String]) -> Answer {
        let name = args.first().ok_or("call needs an entry point")?;
        let entry = self.entry(name)?;
        let (n_out, n_in) = (entry.results.len(), entry.params.len());
        if args.len() != 1 + n_out + n_in {
            return Err(format!(
                "entry point {name} takes {n_in} input(s) and gives {n_out} output(s), but {} variable(s) were given",
                args.len() - 1
            ));
        }
        if let Some(why) = &entry.uncallable {
            return Err(format!("entry point {name} cannot be called: {why}"));
        }
        let (outs, ins) = args[1..].split_at(n_out);
        self.check_new(outs)?;
        for (i, (v, p)) in ins.iter().zip(&entry.params).enumerate() {
            let vt = self.var(v)?.type_name();
            if vt != p.ty {
                return Err(format!(
                    "entry point {name}: input {} has type {}, but variable {v} has type {vt}",
                    i + 1,
                    p.ty,
                ));
            }
        }
        let inputs: Vec<&Var> = ins.iter().map(|v| &self.vars[v]).collect();
        let (micros, values) = call(&mut self.ctx, self.program, entry, &inputs)?;
        for (out, var) in outs.iter().zip(values) {
            self.vars.insert(out.clone(), var);
        }
        // As Futhark's server: the time of the call, which `futhark bench`
        // reads.
        Ok(format!("runtime: {micros}\n"))
    }

    /// `new V0 TYPE V1 ... VN`: a record from its fields' values (copies).
    fn new_record(&mut self, args: &[String]) -> Answer {
        let [to, ty, fields @ ..] = args else {
            return Err("new takes a variable, a type and the fields' variables".into());
        };
        let record = self.record(ty)?;
        self.check_new(std::slice::from_ref(to))?;
        if fields.len() != record.fields.len() {
            return Err(format!(
                "type {ty} has {} field(s), but {} variable(s) were given",
                record.fields.len(),
                fields.len()
            ));
        }
        for (f, v) in record.fields.iter().zip(fields) {
            let vt = self.var(v)?.type_name();
            if vt != f.ty {
                return Err(format!(
                    "field {} of {ty} has type {}, but variable {v} has type {vt}",
                    f.name, f.ty
                ));
            }
        }
        let parts: Vec<&Var> = fields.iter().flat_map(|v| self.vars[v].components()).collect();
        let c = self.ctx.get();
        let copies = copy_each(c, &parts)?;
        self.vars.insert(
            to.clone(),
            Var::Opaque {
                ty: record.name.clone(),
                parts: copies,
            },
        );
        Ok(String::new())
    }

    /// The sum type named `name`.
    fn sum(&self, name: &str) -> Result<&'p OpaqueType, String> {
        match self.program.opaque(name) {
            Some(t) if t.kind == OpaqueKind::Sum => Ok(t),
            Some(_) => Err(format!("Not a sum type: {name}")),
            None if Type::parse(name).is_some() => Err(format!("Not a sum type: {name}")),
            None => Err(format!("Unknown type: {name}")),
        }
    }

    /// The sum type of variable `name` and the constructor its tag (its
    /// first component, an `i8`) names.
    fn variant_of(&self, name: &str) -> Result<(&'p OpaqueType, &'p Variant), String> {
        let var = self.var(name)?;
        let sum = self.sum(&var.type_name())?;
        var.tag()
            .and_then(|t| sum.variants.get(t))
            .map(|v| (sum, v))
            .ok_or_else(|| format!("variable {name} holds no valid tag of {}", sum.name))
    }

    /// `construct V0 TYPE VARIANT V1 ... VN`: a value of a sum type, the
    /// payload's arrays copied and the other constructors' components
    /// blank (zeros, empty arrays).
    fn construct(&mut self, args: &[String]) -> Answer {
        let [to, ty, variant, payload @ ..] = args else {
            return Err("construct takes a variable, a type, a variant and the payload's variables".into());
        };
        let sum = self.sum(ty)?;
        let (tag, v) = sum
            .variants
            .iter()
            .enumerate()
            .find(|(_, v)| v.name == *variant)
            .ok_or_else(|| format!("type {ty} has no variant {variant}"))?;
        self.check_new(std::slice::from_ref(to))?;
        if payload.len() != v.payload.len() {
            return Err(format!(
                "variant {variant} of {ty} has {} payload value(s), but {} variable(s) were given",
                v.payload.len(),
                payload.len()
            ));
        }
        for (k, (t, name)) in v.payload.iter().zip(payload).enumerate() {
            let vt = self.var(name)?.type_name();
            if vt != *t {
                return Err(format!(
                    "payload {} of variant {variant} has type {t}, but variable {name} has type {vt}",
                    k + 1
                ));
            }
        }
        let given: Vec<&Var> = payload.iter().map(|n| &self.vars[n]).collect();
        let value = construct(self.ctx.get(), sum, tag, &given)?;
        self.vars.insert(to.clone(), value);
        Ok(String::new())
    }

    /// `destruct V0 V1 ... VN`: copies of the payload of the sum value in
    /// `V0`, as its constructor (its tag) has it.
    fn destruct(&mut self, args: &[String]) -> Answer {
        let (from, names) = args.split_first().ok_or("destruct needs a variable")?;
        let (_, v) = self.variant_of(from)?;
        if names.len() != v.payload.len() {
            return Err(format!(
                "variable {from} holds variant {} with {} payload value(s), but {} variable(s) were given",
                v.name,
                v.payload.len(),
                names.len()
            ));
        }
        self.check_new(names)?;
        let values = destruct(self.ctx.get(), self.program, &self.vars[from], v)?;
        for (name, value) in names.iter().zip(values) {
            self.vars.insert(name.clone(), value);
        }
        Ok(String::new())
    }

    /// `project TO FROM FIELD`: a copy of a field of a record.
    fn project(&mut self, to: &str, from: &str, field: &str) -> Answer {
        let ty = self.var(from)?.type_name();
        let record = self.record(&ty)?;
        let f = record
            .fields
            .iter()
            .find(|f| f.name == field)
            .ok_or_else(|| format!("type {ty} has no field {field}"))?;
        self.check_new(&[to.to_string()])?;
        let parts = &self.vars[from].components()[f.parts.clone()];
        let mut copies = copy_parts(self.ctx.get(), parts)?;
        let var = match self.program.opaque(&f.ty) {
            Some(t) => Var::Opaque {
                ty: t.name.clone(),
                parts: copies,
            },
            None => copies.pop().expect("a transparent field is one component"),
        };
        self.vars.insert(to.to_string(), var);
        Ok(String::new())
    }

    /// `restore FILE V1 T1 ... VN TN`. A value of an opaque type is its
    /// components, one value each (Note [Values in the server]).
    fn restore(&mut self, args: &[String]) -> Answer {
        let (file, pairs) = args.split_first().ok_or("restore needs a file")?;
        if pairs.len() % 2 != 0 {
            return Err("restore needs a type after each variable".into());
        }
        let names: Vec<String> = pairs.iter().step_by(2).cloned().collect();
        self.check_new(&names)?;
        let types = pairs
            .iter()
            .skip(1)
            .step_by(2)
            .map(|t| {
                self.program
                    .parts(t)
                    .map(|ps| (t, ps))
                    .ok_or_else(|| format!("Unknown type: {t}"))
            })
            .collect::<Result<Vec<(&String, Vec<Type>)>, String>>()?;
        let data = std::fs::read(file).map_err(|e| format!("Failed to open {file}: {e}"))?;
        let (values, error) = read_values_partial(&data);
        if let Some(e) = error {
            return Err(format!(
                "{file}: value {} is malformed: line {}, column {}: {}",
                values.len() + 1,
                e.line,
                e.col,
                e.message
            ));
        }
        let wanted: usize = types.iter().map(|(_, ps)| ps.len()).sum();
        if values.len() != wanted {
            return Err(if wanted == names.len() {
                format!(
                    "{file} holds {} value(s), but {} variable(s) were named",
                    values.len(),
                    names.len()
                )
            } else {
                format!(
                    "{file} holds {} value(s), but the {} variable(s) named take {wanted} (a value of an opaque type is one value per component)",
                    values.len(),
                    names.len()
                )
            });
        }
        let mut values = values.into_iter();
        let mut made: Vec<(String, Var)> = Vec::new();
        for ((ty, parts), name) in types.iter().zip(&names) {
            let mut vars = Vec::with_capacity(parts.len());
            for t in parts {
                let v = values.next().expect("as many values as components, checked above");
                let var = if v.elem_type() != t.elem || v.rank() != t.rank {
                    Err(if parts.len() == 1 {
                        format!(
                            "variable {name} has type {}, but the value in {file} has type {}",
                            t.name(),
                            v.type_name()
                        )
                    } else {
                        format!(
                            "variable {name} of type {ty}: component {} has type {}, but the value in {file} has type {}",
                            vars.len() + 1,
                            t.name(),
                            v.type_name()
                        )
                    })
                } else {
                    upload(self.ctx.get(), v)
                };
                match var {
                    Ok(var) => vars.push(var),
                    Err(e) => {
                        let c = self.ctx.get();
                        for var in vars.into_iter().chain(made.into_iter().map(|(_, v)| v)) {
                            let _ = free_in(c, var);
                        }
                        return Err(e);
                    }
                }
            }
            let var = match self.program.opaque(ty) {
                Some(_) => Var::Opaque {
                    ty: ty.to_string(),
                    parts: vars,
                },
                None => vars.pop().expect("a transparent type is one component"),
            };
            made.push((name.clone(), var));
        }
        self.vars.extend(made);
        Ok(String::new())
    }

    /// `store FILE V1 ... VN`: the values in the binary format, an opaque
    /// one as its components (Note [Values in the server]).
    fn store(&mut self, args: &[String]) -> Answer {
        let (file, names) = args.split_first().ok_or("store needs a file")?;
        let mut out = Vec::new();
        for name in names {
            self.var(name)?;
            for part in self.vars[name].components() {
                let value = component_value(self.ctx.get(), part, &format!("variable {name}"))?;
                write_binary(&value, &mut out);
            }
        }
        std::fs::write(file, out).map_err(|e| format!("Failed to write {file}: {e}"))?;
        Ok(String::new())
    }
}

/// The server: `%%% OK` once the context is ready, then one answer per
/// command line until stdin ends. The error is what ends the server (a
/// context that cannot start, stdout closed).
pub fn serve(program: &Program, settings: &Settings) -> Result<(), String> {
    let mut ctx = Ctx::new(program, settings)?;
    ctx.set_recover(true);
    let mut server = Server {
        program,
        ctx: CtxBox::new(ctx),
        vars: HashMap::new(),
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let write_error = |e: std::io::Error| format!("cannot write to stdout: {e}");
    out.write_all(b"%%% OK\n")
        .and_then(|()| out.flush())
        .map_err(write_error)?;
    let mut input = std::io::stdin().lock();
    let mut line = Vec::new();
    loop {
        line.clear();
        let n = input
            .read_until(b'\n', &mut line)
            .map_err(|e| format!("cannot read stdin: {e}"))?;
        if n == 0 {
            break;
        }
        let text = String::from_utf8_lossy(&line);
        let text = text.trim_end_matches(['\n', '\r']);
        let answer = words(text).and_then(|w| match w.is_empty() {
            true => Ok(String::new()),
            false => server.command(&w),
        });
        let written = match answer {
            Ok(text) => out.write_all(text.as_bytes()),
            Err(message) => write!(out, "%%% FAILURE\n{message}\n"),
        };
        written
            .and_then(|()| out.write_all(b"%%% OK\n"))
            .and_then(|()| out.flush())
            .map_err(write_error)?;
    }
    let vars: Vec<Var> = server.vars.drain().map(|(_, v)| v).collect();
    for var in vars {
        server.free_var(var)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use futmlir_values::PrimType;

    #[test]
    fn splits_words() {
        assert_eq!(
            words("call main  o \"a b\" x").unwrap(),
            ["call", "main", "o", "a b", "x"]
        );
        assert_eq!(words("  ").unwrap(), Vec::<String>::new());
        assert_eq!(words("restore \"\" x i32").unwrap(), ["restore", "", "x", "i32"]);
        assert!(words("store \"f x").unwrap_err().contains("unclosed quote"));
    }

    #[test]
    fn parses_types() {
        assert_eq!(Type::parse("[][]f32").map(|t| t.name()).as_deref(), Some("[][]f32"));
        assert_eq!(
            Type::parse("bool"),
            Some(Type {
                elem: PrimType::Bool,
                rank: 0
            })
        );
        assert_eq!(Type::parse("[]opt"), None);
        assert_eq!(Type::parse("[3]i32"), None);
    }
}
