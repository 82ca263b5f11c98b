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

use futmlir_values::{read_values_partial, write_binary, PrimType, Value};

use crate::context::Ctx;
use crate::invoke::{invoke, read_array, Arg, CtxBox, Returned};
use crate::marshal::{from_bytes, to_bytes};
use crate::params::PARAMS;
use crate::program::{Entry, Program, Type};

// Note [Values in the server]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A variable holds a value of a type that an entry point takes or returns
// today: a scalar, kept on the host, or an array of a primitive type,
// kept in the target's memory (device memory on CUDA, as the ABI's
// `struct futrt_array` describes it) from the `restore` or `call` that
// made it until `free`, so values pass between calls without a trip to
// the host. Only `store` reads an array back.
//
// The ABI lets an entry point write into its array arguments (ABI.md),
// and it says nothing of which parameters the source declares unique.
// So `call` passes each array argument as a fresh copy made in the
// target's memory, and no variable is ever consumed: `inputs` prints no
// `*`. Results are fresh allocations that alias nothing (ABI.md), so
// `outputs` marks every array result unique with `*`.
//
// Opaque values (records, sum types, arrays of tuples) are not supported
// yet: the descriptor describes such a parameter or result only as
// "opaque" (element code 12), without its parts, so there is nothing to
// hold it in. Entry points that take or return one are listed by
// `entry_points` and refused by `call`, `inputs` and `outputs`, and the
// record and sum commands (`fields`, `new`, `project`, ...) say so.

/// A variable's value.
enum Var {
    /// A scalar, on the host.
    Scalar(Value),
    /// An array in the target's memory, owned by the store (`mem` is 0
    /// only when it has no elements).
    Array {
        elem: PrimType,
        shape: Vec<usize>,
        mem: usize,
        bytes: usize,
    },
}

impl Var {
    fn ty(&self) -> Type {
        match self {
            Var::Scalar(v) => Type {
                elem: v.elem_type(),
                rank: 0,
            },
            Var::Array { elem, shape, .. } => Type {
                elem: *elem,
                rank: shape.len(),
            },
        }
    }
}

/// A type name as the protocol writes it (`i32`, `[][]f32`), if it is one
/// of a scalar or an array of a primitive type.
fn parse_type(name: &str) -> Option<Type> {
    let mut rest = name;
    let mut rank = 0;
    while let Some(r) = rest.strip_prefix("[]") {
        rest = r;
        rank += 1;
    }
    PrimType::from_name(rest).map(|elem| Type { elem, rank })
}

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

/// What opaque values lack; the message of every command that needs them.
const NO_OPAQUE: &str = "opaque types (records, sum types, arrays of tuples) are not supported by futmlir's server yet";

struct Server<'p> {
    program: &'p Program,
    ctx: CtxBox,
    vars: HashMap<String, Var>,
}

/// A command's printed lines, or its error message.
type Answer = Result<String, String>;

impl<'p> Server<'p> {
    fn entry(&self, name: &str) -> Result<&'p Entry, String> {
        let entry = self
            .program
            .entry(name)
            .ok_or_else(|| format!("Unknown entry point: {name}"))?;
        if entry.opaque.is_some() {
            return Err(format!("entry point {name}: {NO_OPAQUE}"));
        }
        Ok(entry)
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
        match var {
            Var::Scalar(_) => Ok(()),
            Var::Array { mem, .. } => self.ctx.get().free(mem),
        }
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
                    .ins
                    .iter()
                    .map(|t| format!("{}\n", t.name()))
                    .collect())
            }
            // `output` is the spec's name, `outputs` the one Futhark's
            // servers and the Python client use.
            "outputs" | "output" => {
                arity(1)?;
                let outs = &self.entry(&args[0])?.outs;
                Ok(outs
                    .iter()
                    .map(|t| format!("{}{}\n", if t.rank > 0 { "*" } else { "" }, t.name()))
                    .collect())
            }
            "entry_points" => {
                arity(0)?;
                Ok(self.program.entry_names().iter().map(|n| format!("{n}\n")).collect())
            }
            "types" => {
                arity(0)?;
                // As Futhark's: the types that are not primitive.
                let mut names: Vec<String> = Vec::new();
                for e in &self.program.entries {
                    for t in e.ins.iter().chain(&e.outs).filter(|t| t.rank > 0) {
                        if !names.contains(&t.name()) {
                            names.push(t.name());
                        }
                    }
                }
                Ok(names.iter().map(|n| format!("{n}\n")).collect())
            }
            "kind" => {
                arity(1)?;
                match parse_type(&args[0]) {
                    Some(t) if t.rank == 0 => Ok("primitive\n".into()),
                    Some(_) => Ok("array\n".into()),
                    None => Err(format!("Unknown type: {}", args[0])),
                }
            }
            "type" => {
                arity(1)?;
                Ok(format!("{}\n", self.var(&args[0])?.ty().name()))
            }
            "rank" | "elemtype" => {
                arity(1)?;
                match parse_type(&args[0]) {
                    Some(t) if t.rank > 0 => Ok(if words[0] == "rank" {
                        format!("{}\n", t.rank)
                    } else {
                        format!("{}\n", t.elem)
                    }),
                    _ => Err(format!("Not an array type: {}", args[0])),
                }
            }
            "shape" => {
                arity(1)?;
                match self.var(&args[0])? {
                    Var::Array { shape, .. } => Ok(shape.iter().map(|d| format!("{d}\n")).collect()),
                    Var::Scalar(_) => Err(format!("Not an array: {}", args[0])),
                }
            }
            "clear" => {
                arity(0)?;
                self.ctx.get().clear_caches();
                Ok(String::new())
            }
            // Nothing is profiled yet (no `-P`), so there is nothing to
            // pause: accepted, as the protocol's tools send them.
            "pause_profiling" | "unpause_profiling" => {
                arity(0)?;
                Ok(String::new())
            }
            "report" => {
                arity(0)?;
                // The shape of Futhark's `futhark_context_report`: the peak
                // memory per space, and no profiling events.
                Ok(format!(
                    "{{\"memory\":{{\"default\":{}}},\"events\":[]}}\n",
                    self.ctx.get().peak_memory()
                ))
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
            "fields" | "new" | "project" | "variants" | "construct" | "destruct" | "variant" | "zip" | "unzip" => {
                Err(format!("{}: {NO_OPAQUE}", words[0]))
            }
            "new_array" | "index" | "set" | "attributes" => {
                Err(format!("{} is not supported by futmlir's server yet", words[0]))
            }
            other => Err(format!("Unknown command: {other}")),
        }
    }

    /// `call ENTRY OUT1 ... OUTN IN1 ... INM`.
    fn call(&mut self, args: &[String]) -> Answer {
        let name = args.first().ok_or("call needs an entry point")?;
        let entry = self.entry(name)?;
        let (n_out, n_in) = (entry.outs.len(), entry.ins.len());
        if args.len() != 1 + n_out + n_in {
            return Err(format!(
                "entry point {name} takes {n_in} input(s) and gives {n_out} output(s), but {} variable(s) were given",
                args.len() - 1
            ));
        }
        let (outs, ins) = args[1..].split_at(n_out);
        self.check_new(outs)?;
        for (i, (v, t)) in ins.iter().zip(&entry.ins).enumerate() {
            let vt = self.var(v)?.ty();
            if vt != *t {
                return Err(format!(
                    "entry point {name}: input {} has type {}, but variable {v} has type {}",
                    i + 1,
                    t.name(),
                    vt.name()
                ));
            }
        }
        // Fresh copies of the arrays: the entry may write into them. See
        // Note [Values in the server].
        let mut call_args = Vec::with_capacity(n_in);
        let mut copies = Vec::new();
        let mut failed = None;
        for v in ins {
            let arg = match &self.vars[v] {
                Var::Scalar(value) => Arg::Scalar(to_bytes(value)),
                Var::Array { shape, mem, bytes, .. } => {
                    let (src, bytes, shape) = (*mem, *bytes, shape.iter().map(|&d| d as i64).collect());
                    let c = self.ctx.get();
                    let copy = match c.alloc(bytes) {
                        Ok(m) => m,
                        Err(e) => {
                            failed = Some(e);
                            break;
                        }
                    };
                    copies.push(copy);
                    if bytes > 0 {
                        // SAFETY: both blocks hold at least `bytes` bytes.
                        if let Err(e) = unsafe { c.copy(copy, src, bytes) } {
                            failed = Some(e);
                            break;
                        }
                    }
                    Arg::Array { mem: copy, shape }
                }
            };
            call_args.push(arg);
        }
        let called = match failed {
            Some(e) => Err(e),
            None => invoke(&mut self.ctx, entry, &call_args),
        };
        for copy in copies {
            self.ctx.get().free(copy)?;
        }
        let (micros, results) = called?;
        for ((out, t), result) in outs.iter().zip(&entry.outs).zip(results) {
            let var = match result {
                Returned::Scalar(bytes) => Var::Scalar(from_bytes(t.elem, Vec::new(), &bytes)?),
                Returned::Array { mem, shape, bytes } => Var::Array {
                    elem: t.elem,
                    shape,
                    mem,
                    bytes,
                },
            };
            self.vars.insert(out.clone(), var);
        }
        // As Futhark's server: the time of the call, which `futhark bench`
        // reads.
        Ok(format!("runtime: {micros}\n"))
    }

    /// `restore FILE V1 T1 ... VN TN`.
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
            .map(|t| parse_type(t).ok_or_else(|| format!("Unknown type: {t} ({NO_OPAQUE})")))
            .collect::<Result<Vec<Type>, String>>()?;
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
        if values.len() != names.len() {
            return Err(format!(
                "{file} holds {} value(s), but {} variable(s) were named",
                values.len(),
                names.len()
            ));
        }
        for ((v, t), name) in values.iter().zip(&types).zip(&names) {
            if v.elem_type() != t.elem || v.rank() != t.rank {
                return Err(format!(
                    "variable {name} has type {}, but the value in {file} has type {}",
                    t.name(),
                    v.type_name()
                ));
            }
        }
        for (v, name) in values.into_iter().zip(names) {
            let var = match v {
                Value::Prim(_) => Var::Scalar(v),
                Value::Array(ref a) => {
                    let bytes = to_bytes(&v);
                    let c = self.ctx.get();
                    let mem = c.alloc(bytes.len())?;
                    // SAFETY: the block holds at least `bytes.len()` bytes.
                    unsafe { c.write(mem, bytes.as_ptr(), bytes.len()) }?;
                    Var::Array {
                        elem: a.elem_type(),
                        shape: a.shape.clone(),
                        mem,
                        bytes: bytes.len(),
                    }
                }
            };
            self.vars.insert(name, var);
        }
        Ok(String::new())
    }

    /// `store FILE V1 ... VN`: the values in the binary format.
    fn store(&mut self, args: &[String]) -> Answer {
        let (file, names) = args.split_first().ok_or("store needs a file")?;
        let mut out = Vec::new();
        for name in names {
            let value = match self.var(name)? {
                Var::Scalar(v) => v.clone(),
                &Var::Array {
                    elem,
                    ref shape,
                    mem,
                    bytes,
                } => {
                    let shape = shape.clone();
                    let buf = read_array(self.ctx.get(), mem, bytes, &format!("variable {name}"))?;
                    from_bytes(elem, shape, &buf)?
                }
            };
            write_binary(&value, &mut out);
        }
        std::fs::write(file, out).map_err(|e| format!("Failed to write {file}: {e}"))?;
        Ok(String::new())
    }
}

/// The server: `%%% OK` once the context is ready, then one answer per
/// command line until stdin ends. The error is what ends the server (a
/// context that cannot start, stdout closed).
pub fn serve(program: &Program, params: Vec<i64>) -> Result<(), String> {
    let mut ctx = Ctx::new(program, params)?;
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
        assert_eq!(parse_type("[][]f32").map(|t| t.name()).as_deref(), Some("[][]f32"));
        assert_eq!(
            parse_type("bool"),
            Some(Type {
                elem: PrimType::Bool,
                rank: 0
            })
        );
        assert_eq!(parse_type("[]opt"), None);
        assert_eq!(parse_type("[3]i32"), None);
    }
}
