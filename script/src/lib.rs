//! FutharkScript for `script input { ... }` (futhark-test(1), the grammar
//! in futhark-literate(1)): `let` bindings, applications of the program's
//! entry points, literals, tuples, arrays, `empty(...)`, and the builtins
//! `$loaddata` and `$loadbytes`. The script's value is the test's input:
//! an n-tuple gives n arguments.
//!
//! The evaluator runs nothing itself: the caller says how to run an entry
//! point and how to read a file the builtins name, so `futmlir test` can
//! evaluate a script with any backend, and `futmlir-check` (crate
//! `checker`) with the compiled executables of a bundle, on a machine
//! that has neither the compiler nor the test's folder (see
//! `driver/src/bundle.rs`).
//!
//! Values are the external values the test harness passes to programs
//! (`futmlir_values::Value`), so records and opaque values (which an
//! entry point could return to another) are not supported and say so.

use futmlir_values::{self as values, Value};

/// A script value: an external value or a tuple of script values.
#[derive(Clone, Debug)]
enum ScriptValue {
    Value(Value),
    Tuple(Vec<ScriptValue>),
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident(String),
    /// `$name`
    Builtin(String),
    /// A number or `true`/`false`, kept as text for the value parser.
    Literal(String),
    Str(String),
    Punct(char),
}

fn tokenize(src: &str) -> Result<Vec<Tok>, String> {
    let cs: Vec<char> = src.chars().collect();
    let mut i = 0;
    let mut out = Vec::new();
    let word = |i: &mut usize| {
        let start = *i;
        while *i < cs.len() && (cs[*i].is_alphanumeric() || matches!(cs[*i], '_' | '\'' | '.')) {
            // A `.` continues a number (`1.5f32`), not a name (`x.0`).
            if cs[*i] == '.' && !cs[start].is_ascii_digit() {
                break;
            }
            *i += 1;
        }
        cs[start..*i].iter().collect::<String>()
    };
    while i < cs.len() {
        let c = cs[i];
        if c.is_whitespace() {
            i += 1;
        } else if c == '-' && i + 1 < cs.len() && cs[i + 1] == '-' {
            while i < cs.len() && cs[i] != '\n' {
                i += 1;
            }
        } else if c.is_ascii_digit() || (c == '-' && cs.get(i + 1).is_some_and(|d| d.is_ascii_digit())) {
            i += usize::from(c == '-');
            let w = word(&mut i);
            out.push(Tok::Literal(if c == '-' { format!("-{w}") } else { w }));
        } else if c.is_alphabetic() || c == '_' {
            let w = word(&mut i);
            out.push(match w.as_str() {
                "true" | "false" => Tok::Literal(w),
                _ => Tok::Ident(w),
            });
        } else if c == '$' {
            i += 1;
            out.push(Tok::Builtin(word(&mut i)));
        } else if c == '"' {
            let start = i + 1;
            i = start;
            while i < cs.len() && cs[i] != '"' {
                i += 1;
            }
            if i == cs.len() {
                return Err("unterminated string".to_string());
            }
            out.push(Tok::Str(cs[start..i].iter().collect()));
            i += 1;
        } else if "()[],=.{}".contains(c) {
            out.push(Tok::Punct(c));
            i += 1;
        } else {
            return Err(format!("unexpected character `{c}`"));
        }
    }
    Ok(out)
}

/// Evaluates a script: `call` runs an entry point of the program on
/// arguments (its results), `load` reads a file that `$loaddata` or
/// `$loadbytes` names (its bytes).
struct Eval<C, L> {
    toks: Vec<Tok>,
    pos: usize,
    call: C,
    load: L,
    env: Vec<(String, ScriptValue)>,
}

/// The input values a `script input` expression gives: the elements of a
/// tuple, or the one value. `call(entry, args)` runs an entry point of
/// the program; `load(name)` reads a file that `$loaddata` or
/// `$loadbytes` names, as written in the script (for a test, relative to
/// the test file's folder).
pub fn script_input(
    src: &str,
    call: impl FnMut(&str, Vec<Value>) -> Result<Vec<Value>, String>,
    load: impl FnMut(&str) -> Result<Vec<u8>, String>,
) -> Result<Vec<Value>, String> {
    let mut ev = Eval {
        toks: tokenize(src)?,
        pos: 0,
        call,
        load,
        env: Vec::new(),
    };
    let v = ev.exp()?;
    if let Some(t) = ev.toks.get(ev.pos) {
        return Err(format!("unexpected {t:?} after the expression"));
    }
    match v {
        ScriptValue::Tuple(vs) => vs.into_iter().map(external).collect(),
        v => Ok(vec![external(v)?]),
    }
}

/// The files a script's builtins name, each once, in the order they first
/// appear: what a script needs besides the program (a bundle carries
/// them, `driver/src/bundle.rs`).
pub fn files_named(src: &str) -> Result<Vec<String>, String> {
    let toks = tokenize(src)?;
    let mut files = Vec::new();
    for w in toks.windows(2) {
        if let [Tok::Builtin(_), Tok::Str(f)] = w {
            if !files.contains(f) {
                files.push(f.clone());
            }
        }
    }
    Ok(files)
}

fn external(v: ScriptValue) -> Result<Value, String> {
    match v {
        ScriptValue::Value(v) => Ok(v),
        ScriptValue::Tuple(_) => Err("a tuple nested in a script's value cannot be an argument".to_string()),
    }
}

impl<C, L> Eval<C, L>
where
    C: FnMut(&str, Vec<Value>) -> Result<Vec<Value>, String>,
    L: FnMut(&str) -> Result<Vec<u8>, String>,
{
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos)
    }

    fn at(&self, c: char) -> bool {
        self.peek() == Some(&Tok::Punct(c))
    }

    fn expect(&mut self, c: char) -> Result<(), String> {
        if self.at(c) {
            self.pos += 1;
            Ok(())
        } else {
            Err(format!("expected `{c}`, found {:?}", self.peek()))
        }
    }

    fn exp(&mut self) -> Result<ScriptValue, String> {
        if self.peek() == Some(&Tok::Ident("let".to_string())) {
            self.pos += 1;
            let names = self.pattern()?;
            self.expect('=')?;
            let v = self.exp()?;
            if self.peek() != Some(&Tok::Ident("in".to_string())) {
                return Err("expected `in`".to_string());
            }
            self.pos += 1;
            let mark = self.env.len();
            match (names.len(), v) {
                (1, v) => self.env.push((names[0].clone(), v)),
                (n, ScriptValue::Tuple(vs)) if vs.len() == n => self.env.extend(names.into_iter().zip(vs)),
                (n, _) => return Err(format!("a pattern of {n} names binds a value of another shape")),
            }
            let body = self.exp();
            self.env.truncate(mark);
            return body;
        }
        match self.peek().cloned() {
            Some(Tok::Ident(f)) if !self.env.iter().any(|(n, _)| *n == f) && f != "empty" => {
                self.pos += 1;
                let args = self.args()?;
                let vals = (self.call)(&f, args)?;
                Ok(match vals.len() {
                    1 => ScriptValue::Value(vals.into_iter().next().expect("one value")),
                    _ => ScriptValue::Tuple(vals.into_iter().map(ScriptValue::Value).collect()),
                })
            }
            Some(Tok::Builtin(b)) => {
                self.pos += 1;
                let Some(Tok::Str(file)) = self.peek().cloned() else {
                    return Err(format!("`${b}` takes a file name in double quotes"));
                };
                self.pos += 1;
                let bytes = (self.load)(&file)?;
                match b.as_str() {
                    "loadbytes" => Ok(ScriptValue::Value(Value::Array(values::Array {
                        shape: vec![bytes.len()],
                        data: values::ArrayData::U8(bytes),
                    }))),
                    "loaddata" => {
                        let vs = values::read_values(&bytes).map_err(|e| format!("{file}: {e}"))?;
                        Ok(match vs.len() {
                            1 => ScriptValue::Value(vs.into_iter().next().expect("one value")),
                            _ => ScriptValue::Tuple(vs.into_iter().map(ScriptValue::Value).collect()),
                        })
                    }
                    _ => Err(format!(
                        "the builtin `${b}` is not supported in script input (only $loaddata and $loadbytes)"
                    )),
                }
            }
            _ => self.atom(),
        }
    }

    /// The arguments of an application: atoms up to the end of the
    /// expression. A single tuple is uncurried (futhark-literate(1)).
    fn args(&mut self) -> Result<Vec<Value>, String> {
        let mut args = Vec::new();
        while matches!(
            self.peek(),
            Some(Tok::Literal(_) | Tok::Ident(_) | Tok::Punct('(') | Tok::Punct('['))
        ) && self.peek() != Some(&Tok::Ident("in".to_string()))
        {
            args.push(self.atom()?);
        }
        match <[ScriptValue; 1]>::try_from(args) {
            Ok([ScriptValue::Tuple(vs)]) => vs.into_iter().map(external).collect(),
            Ok([v]) => Ok(vec![external(v)?]),
            Err(args) => args.into_iter().map(external).collect(),
        }
    }

    fn pattern(&mut self) -> Result<Vec<String>, String> {
        let name = |ev: &mut Self| match ev.peek().cloned() {
            Some(Tok::Ident(n)) => {
                ev.pos += 1;
                Ok(n)
            }
            t => Err(format!("expected a name in a `let` pattern, found {t:?}")),
        };
        if !self.at('(') {
            return Ok(vec![name(self)?]);
        }
        self.pos += 1;
        let mut names = vec![name(self)?];
        while self.at(',') {
            self.pos += 1;
            names.push(name(self)?);
        }
        self.expect(')')?;
        Ok(names)
    }

    fn atom(&mut self) -> Result<ScriptValue, String> {
        match self.peek().cloned() {
            Some(Tok::Literal(text)) => {
                self.pos += 1;
                parse_one(&text)
            }
            Some(Tok::Ident(n)) if n == "empty" => {
                self.pos += 1;
                // `empty([0]i32)`: the value syntax itself.
                let start = self.pos;
                self.expect('(')?;
                while !self.at(')') {
                    if self.peek().is_none() {
                        return Err("unterminated `empty(`".to_string());
                    }
                    self.pos += 1;
                }
                self.pos += 1;
                let text: String = self.toks[start..self.pos].iter().map(tok_text).collect();
                parse_one(&format!("empty{text}"))
            }
            Some(Tok::Ident(n)) => match self.env.iter().rev().find(|(m, _)| *m == n) {
                Some((_, v)) => {
                    self.pos += 1;
                    Ok(v.clone())
                }
                None => {
                    self.pos += 1;
                    let vals = (self.call)(&n, Vec::new())?;
                    Ok(match vals.len() {
                        1 => ScriptValue::Value(vals.into_iter().next().expect("one value")),
                        _ => ScriptValue::Tuple(vals.into_iter().map(ScriptValue::Value).collect()),
                    })
                }
            },
            Some(Tok::Punct('(')) => {
                self.pos += 1;
                let mut vs = vec![self.exp()?];
                while self.at(',') {
                    self.pos += 1;
                    vs.push(self.exp()?);
                }
                self.expect(')')?;
                Ok(if vs.len() == 1 {
                    vs.pop().expect("one element")
                } else {
                    ScriptValue::Tuple(vs)
                })
            }
            Some(Tok::Punct('[')) => {
                self.pos += 1;
                let mut elems = Vec::new();
                loop {
                    elems.push(external(self.exp()?)?);
                    if !self.at(',') {
                        break;
                    }
                    self.pos += 1;
                }
                self.expect(']')?;
                // The value reader builds (and checks) the array.
                let text: Vec<String> = elems
                    .iter()
                    .map(|v| values::values_to_text(std::slice::from_ref(v)))
                    .collect();
                parse_one(&format!(
                    "[{}]",
                    text.iter().map(|t| t.trim()).collect::<Vec<_>>().join(", ")
                ))
            }
            Some(Tok::Punct('{')) => Err("records are not supported in script input".to_string()),
            t => Err(format!("expected an expression, found {t:?}")),
        }
    }
}

fn tok_text(t: &Tok) -> String {
    match t {
        Tok::Ident(s) | Tok::Literal(s) => s.clone(),
        Tok::Builtin(s) => format!("${s}"),
        Tok::Str(s) => format!("\"{s}\""),
        Tok::Punct(c) => c.to_string(),
    }
}

fn parse_one(text: &str) -> Result<ScriptValue, String> {
    let mut vs = values::parse_values(text).map_err(|e| format!("`{text}`: {e}"))?;
    match vs.len() {
        1 => Ok(ScriptValue::Value(vs.pop().expect("one value"))),
        _ => Err(format!("`{text}` is not one value")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(src: &str) -> Result<String, String> {
        let mut call = |f: &str, args: Vec<Value>| -> Result<Vec<Value>, String> {
            match f {
                // mkdata x y = x + y; pair x = (x, x)
                "mkdata" => {
                    let text = values::values_to_text(&args);
                    let sum: i64 = text
                        .split_whitespace()
                        .map(|w| w.trim_end_matches("i32").parse::<i64>().unwrap_or(0))
                        .sum();
                    Ok(values::parse_values(&format!("{sum}i32")).map_err(|e| e.to_string())?)
                }
                "pair" => Ok(vec![args[0].clone(), args[0].clone()]),
                _ => Err(format!("no entry point `{f}`")),
            }
        };
        let mut load = |f: &str| match f {
            "bytes.bin" => Ok(b"ab".to_vec()),
            "data.in" => Ok(b"1i32 [2i32, 3i32]".to_vec()),
            _ => Err(format!("cannot read {f}")),
        };
        let vs = script_input(src, &mut call, &mut load)?;
        Ok(values::values_to_text(&vs)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" "))
    }

    #[test]
    fn literals_tuples_and_arrays() {
        assert_eq!(run("1i32").unwrap(), "1i32");
        assert_eq!(run("(1i32, 2.5f64)").unwrap(), "1i32 2.5f64");
        assert_eq!(run("[1i64, -2i64]").unwrap(), "[1i64, -2i64]");
        assert_eq!(run("empty([0]i32)").unwrap(), "empty([0]i32)");
    }

    #[test]
    fn lets_and_calls() {
        assert_eq!(run("let x = 2i32 in let y = 3i32 in mkdata x y").unwrap(), "5i32");
        assert_eq!(run("let (a, b) = pair 4i32 in mkdata a b").unwrap(), "8i32");
        // A single tuple argument is uncurried.
        assert_eq!(run("mkdata (pair 1i32)").unwrap(), "2i32");
        assert!(run("nope 1").unwrap_err().contains("no entry point"));
        assert!(run("{a = 1}").unwrap_err().contains("records"));
        assert!(run("$loadimg \"x.png\"").is_err());
    }

    #[test]
    fn loaded_files() {
        assert_eq!(run("$loadbytes \"bytes.bin\"").unwrap(), "[97u8, 98u8]");
        assert_eq!(run("$loaddata \"data.in\"").unwrap(), "1i32 [2i32, 3i32]");
        assert_eq!(
            run("let (x, ys) = $loaddata \"data.in\" in mkdata x x").unwrap(),
            "2i32"
        );
        assert!(run("$loaddata \"nope\"").unwrap_err().contains("cannot read nope"));
        assert_eq!(
            files_named("let x = $loaddata \"a.in\" in f x ($loadbytes \"b\") ($loaddata \"a.in\")").unwrap(),
            ["a.in", "b"]
        );
    }
}
