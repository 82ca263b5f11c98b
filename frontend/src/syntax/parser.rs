//! The parser: tokens to the [`ast`](super::ast). Recursive descent, with
//! precedence climbing for binary operators.
//!
//! Entry points: [`parse_program`], [`parse_exp`], [`parse_type`],
//! [`parse_type_scheme`]. Each stops at the first error.
//!
//! # Operator precedence
//!
//! Loosest first; the binary operator levels are the constants in [`prec`]
//! (see also [`operator_precedence`]):
//!
//! | operators                                    | assoc  | level      |
//! |----------------------------------------------|--------|------------|
//! | `e : t`, `e :> t` (postfix)                  | left   |            |
//! | `a..b`, `a..<b`, `a..>b`, `a..b...c`, `a..b..<c`, `a..b..>c` | none |  |
//! | `` `f` `` (backtick infix, any name)         | left   | BACKTICK   |
//! | `e with [i] = v`, `e with x.y = v`           | left   | WITH       |
//! | `\|>`                                        | left   | PIPE_RIGHT |
//! | `<\|`                                        | right  | PIPE_LEFT  |
//! | `\|\|`                                       | left   | OR         |
//! | `&&`                                         | left   | AND        |
//! | `==` `!=` `<` `<=` `>` `>=`                  | left   | CMP        |
//! | `&` `^` `\|`                                 | left   | BITWISE    |
//! | `<<` `>>` `>>>`                              | left   | SHIFT      |
//! | `+` `-`                                      | left   | ADD        |
//! | `*` `/` `%` `//` `%%`                        | left   | MUL        |
//! | `**`                                         | right  | POW        |
//! | prefix `-` (negation), prefix `!` (not)      |        |            |
//! | application `f a b`, `assert a b`, `#c a b`  |        |            |
//! | indexing `a[i]`, fields `r.x`, `(e).x`       |        |            |
//!
//! A user-defined operator takes the level of the longest built-in operator
//! its name starts with (`<+>` is a comparison like `<`, `++` is additive,
//! `>->` and `<-<` are comparisons, `|>>` is a pipe, `**^` is `**`).
//! Operators that start with `=` or `!` but match none of them (`=>`, `!+`)
//! are comparisons.
//!
//! Prefix `-` binds looser than application and tighter than every binary
//! operator: `-f x` is `-(f x)`, `-x ** 2` is `(-x) ** 2`. In argument
//! position `-` is always binary: `f -1` is `f - 1`. `(-x)` and `(- 1)` are
//! negations, `(-)` is the subtraction section.
//!
//! `if`, `let`, `loop`, `match`, lambdas and `#[attr] e` extend as far to
//! the right as possible, also as the right operand of a binary operator
//! (`x + if c then 1 else 2 * y`).
//!
//! Indexing needs the `[` right after the indexed expression (`a[i]`), and
//! `r.x.y` needs no spaces around the dots; `f [1, 2]` applies `f` to an
//! array.
//!
//! `in` may be left out before another `let`: `let x = 1 let y = 2 in x + y`.
//!
//! Spans: a parenthesised expression, pattern or type gets the span of the
//! parentheses too (`(x + 1)` spans all seven bytes); there is no node for
//! the parentheses themselves.

use std::rc::Rc;

use futmlir_dialects::ir::FastMap;

use super::ast::*;
use super::lexer::{lex, Kw, Tok, Token};
use crate::diag::Diag;
use crate::span::{FileId, Span};

mod exp;
mod modules;
mod pat;
mod types;

/// The deepest nesting (of parentheses, brackets, `if`s in conditions,
/// prefix operators, ...) the parser accepts before reporting "nesting too
/// deep" instead of risking the stack.
pub const MAX_DEPTH: u32 = 200;

/// Precedence levels of binary operators (higher binds tighter).
pub mod prec {
    pub const BACKTICK: u8 = 1;
    pub const WITH: u8 = 2;
    pub const PIPE_RIGHT: u8 = 3;
    pub const PIPE_LEFT: u8 = 4;
    pub const OR: u8 = 5;
    pub const AND: u8 = 6;
    pub const CMP: u8 = 7;
    pub const BITWISE: u8 = 8;
    pub const SHIFT: u8 = 9;
    pub const ADD: u8 = 10;
    pub const MUL: u8 = 11;
    pub const POW: u8 = 12;
}

/// The precedence level of a binary operator (see [`prec`]) and whether it is
/// right-associative.
pub fn operator_precedence(op: &str) -> (u8, bool) {
    use prec::*;
    const TABLE: [(&str, u8); 24] = [
        ("|>", PIPE_RIGHT),
        ("<|", PIPE_LEFT),
        ("||", OR),
        ("&&", AND),
        ("==", CMP),
        ("!=", CMP),
        ("<=", CMP),
        (">=", CMP),
        ("<", CMP),
        (">", CMP),
        ("&", BITWISE),
        ("^", BITWISE),
        ("|", BITWISE),
        ("<<", SHIFT),
        (">>", SHIFT),
        (">>>", SHIFT),
        ("+", ADD),
        ("-", ADD),
        ("*", MUL),
        ("/", MUL),
        ("%", MUL),
        ("//", MUL),
        ("%%", MUL),
        ("**", POW),
    ];
    let best = TABLE
        .iter()
        .filter(|(p, _)| op.starts_with(p))
        .max_by_key(|(p, _)| p.len())
        .map(|(_, l)| *l);
    let level = match best {
        Some(l) => l,
        None if op.starts_with('=') || op.starts_with('!') => CMP,
        None => BACKTICK,
    };
    (level, level == PIPE_LEFT || level == POW)
}

/// Errors are boxed to keep results (and so the parser's stack frames) small.
type PResult<T> = Result<T, Box<Diag>>;

/// Parses a whole file.
pub fn parse_program(file: FileId, text: &str) -> Result<Program, Diag> {
    let mut p = Parser::new(file, text);
    let mut decs = Vec::new();
    while !p.at(&Tok::Eof) {
        decs.push(*p.parse_dec().map_err(|d| *d)?);
    }
    Ok(Program { decs })
}

/// Parses one expression (the whole text).
pub fn parse_exp(file: FileId, text: &str) -> Result<Exp, Diag> {
    let mut p = Parser::new(file, text);
    let e = p.parse_exp().map_err(|d| *d)?;
    p.expect(Tok::Eof, "end of input").map_err(|d| *d)?;
    Ok(*e)
}

/// Parses one type expression (the whole text).
pub fn parse_type(file: FileId, text: &str) -> Result<TypeExp, Diag> {
    let mut p = Parser::new(file, text);
    let t = p.parse_type().map_err(|d| *d)?;
    p.expect(Tok::Eof, "end of input").map_err(|d| *d)?;
    Ok(*t)
}

/// Parses type parameters (`'a`, `'^a`, `'~a`, `[n]`) followed by a type, as
/// in `'a 'b [n] (a -> b) -> [n]a -> *[n]b`. A `[n]` is a size parameter
/// when whitespace follows its `]`; `[n]a` is an array type.
pub fn parse_type_scheme(file: FileId, text: &str) -> Result<(Vec<TypeParam>, TypeExp), Diag> {
    let mut p = Parser::new(file, text);
    let params = p.parse_type_params(true).map_err(|d| *d)?;
    let t = p.parse_type().map_err(|d| *d)?;
    p.expect(Tok::Eof, "end of input").map_err(|d| *d)?;
    Ok((params, *t))
}

pub(crate) struct Parser<'a> {
    src: &'a str,
    file: FileId,
    toks: Vec<Token>,
    pos: usize,
    depth: u32,
    lex_err: Option<Diag>,
    /// The names made so far, by their text: a name that occurs again
    /// shares the first one's allocation.
    names: FastMap<&'a str, Name>,
}

impl<'a> Parser<'a> {
    fn new(file: FileId, src: &'a str) -> Parser<'a> {
        let (toks, lex_err) = lex(file, src);
        Parser {
            src,
            file,
            toks,
            pos: 0,
            depth: 0,
            lex_err,
            names: FastMap::default(),
        }
    }

    // ---- token access -------------------------------------------------

    fn tok(&self) -> &Token {
        &self.toks[self.pos]
    }
    fn tok_at(&self, n: usize) -> &Token {
        &self.toks[(self.pos + n).min(self.toks.len() - 1)]
    }
    fn peek(&self) -> &Tok {
        &self.tok().tok
    }
    fn peek_at(&self, n: usize) -> &Tok {
        &self.tok_at(n).tok
    }
    fn at(&self, t: &Tok) -> bool {
        self.peek() == t
    }
    fn at_kw(&self, k: Kw) -> bool {
        *self.peek() == Tok::Kw(k)
    }
    /// The current token is the operator `s`.
    fn at_op(&self, s: &str) -> bool {
        *self.peek() == Tok::Op && self.text(self.tok()) == s
    }
    fn op_at(&self, n: usize, s: &str) -> bool {
        *self.peek_at(n) == Tok::Op && self.text(self.tok_at(n)) == s
    }
    /// Takes the current token. The last token (end of input or a lexical
    /// error) is never passed.
    fn bump(&mut self) -> Token {
        let t = self.toks[self.pos].clone();
        if self.pos + 1 < self.toks.len() {
            self.pos += 1;
        }
        t
    }
    fn text(&self, t: &Token) -> &'a str {
        self.src.get(t.lo as usize..t.hi as usize).unwrap_or("")
    }
    fn name_of(&mut self, t: &Token) -> Name {
        let text = self.text(t);
        self.names.entry(text).or_insert_with(|| Rc::from(text)).clone()
    }
    fn sp(&self, lo: u32, hi: u32) -> Span {
        Span::new(self.file, lo, hi)
    }
    fn span_of(&self, t: &Token) -> Span {
        self.sp(t.lo, t.hi)
    }

    // ---- errors ---------------------------------------------------------

    fn describe(&self, t: &Token) -> String {
        match &t.tok {
            Tok::Eof => "end of input".into(),
            Tok::Str(_) => "string literal".into(),
            _ => {
                let s = self.text(t);
                if s.chars().count() > 24 {
                    let short: String = s.chars().take(24).collect();
                    format!("`{short}...`")
                } else {
                    format!("`{s}`")
                }
            }
        }
    }

    /// An error at the current token; the lexer's error if lexing stopped
    /// here.
    fn error_here(&self, msg: String) -> Box<Diag> {
        if self.at(&Tok::Error) {
            if let Some(d) = &self.lex_err {
                return Box::new(d.clone());
            }
        }
        Box::new(Diag::new(self.span_of(self.tok()), msg))
    }

    /// Futhark's "Unexpected token: 'x'" (or "Unexpected end of file"),
    /// with "expected {what}, found {current token}" as the help.
    fn expected(&self, what: &str) -> Box<Diag> {
        let t = self.tok();
        let message = match t.tok {
            Tok::Eof => "Unexpected end of file".to_string(),
            _ => format!("Unexpected token: '{}'", self.text(t)),
        };
        let mut d = self.error_here(message);
        // A lexical error stands as it is.
        if d.help.is_none() && d.message.starts_with("Unexpected ") {
            d.help = Some(format!("expected {what}, found {}", self.describe(t)));
        }
        d
    }

    fn expect(&mut self, t: Tok, what: &str) -> PResult<Token> {
        if self.at(&t) {
            Ok(self.bump())
        } else {
            Err(self.expected(what))
        }
    }

    fn expect_kw(&mut self, k: Kw) -> PResult<Token> {
        self.expect(Tok::Kw(k), &format!("`{}`", k.as_str()))
    }

    /// An identifier other than `_`.
    fn expect_name(&mut self, what: &str) -> PResult<(Name, Span)> {
        if self.at(&Tok::Ident) && self.text(self.tok()) != "_" {
            let t = self.bump();
            Ok((self.name_of(&t), self.span_of(&t)))
        } else {
            Err(self.expected(what))
        }
    }

    /// One level deeper; fails beyond [`MAX_DEPTH`]. Errors abandon the whole
    /// parse, so only the success paths call [`Parser::leave`].
    fn enter(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.error_here("nesting too deep".into()));
        }
        Ok(())
    }
    fn leave(&mut self) {
        self.depth -= 1;
    }

    // ---- declarations -----------------------------------------------------

    /// A declaration (boxed, like expressions, to keep stack frames small).
    fn parse_dec(&mut self) -> PResult<Box<Dec>> {
        self.enter()?;
        let mut attrs = Vec::new();
        while self.at(&Tok::HashBracket) {
            attrs.push(self.parse_attr()?);
        }
        let d = match self.peek() {
            Tok::Kw(Kw::Def | Kw::Let | Kw::Entry) => self.parse_val_dec(attrs)?,
            Tok::Kw(Kw::Type) => self.parse_type_dec()?,
            Tok::Kw(Kw::Local) => self.parse_local_dec()?,
            Tok::Kw(Kw::Open) => self.parse_open_dec()?,
            Tok::Kw(Kw::Import) => self.parse_import_dec()?,
            Tok::Kw(Kw::Module) => self.parse_module_dec()?,
            _ => return Err(self.expected("declaration")),
        };
        self.leave();
        Ok(d)
    }

    fn parse_val_dec(&mut self, attrs: Vec<Attr>) -> PResult<Box<Dec>> {
        Ok(Box::new(Dec::Val(self.parse_val_bind(attrs)?)))
    }

    fn parse_type_dec(&mut self) -> PResult<Box<Dec>> {
        Ok(Box::new(Dec::Type(self.parse_type_bind()?)))
    }

    /// `local dec`
    fn parse_local_dec(&mut self) -> PResult<Box<Dec>> {
        let lo = self.bump().lo;
        let d = self.parse_dec()?;
        let span = self.sp(lo, dec_span(&d).hi);
        Ok(Box::new(Dec::Local(d, span)))
    }

    /// `def`/`let`/`entry` name type-params params [: ret] = body
    fn parse_val_bind(&mut self, attrs: Vec<Attr>) -> PResult<ValBind> {
        let kw = self.bump();
        let entry = kw.tok == Tok::Kw(Kw::Entry);
        let (name, name_span) = self.parse_binding_name()?;
        let type_params = self.parse_type_params(false)?;
        let mut params = Vec::new();
        while self.starts_pat_atom() {
            params.push(*self.parse_pat_atom()?);
        }
        let ret = if self.at(&Tok::Colon) {
            self.bump();
            Some(*self.parse_type()?)
        } else {
            None
        };
        self.expect(Tok::Equals, "`=`")?;
        let body = *self.parse_exp()?;
        let span = self.sp(kw.lo, body.span.hi);
        Ok(ValBind {
            entry,
            name,
            name_span,
            type_params,
            params,
            ret,
            body,
            attrs,
            span,
            recursive: false,
        })
    }

    /// A name being defined: `f` or an operator in parentheses `(<+>)`.
    fn parse_binding_name(&mut self) -> PResult<(Name, Span)> {
        if self.at(&Tok::LParen) && *self.peek_at(1) == Tok::Op && *self.peek_at(2) == Tok::RParen {
            self.bump();
            let op = self.bump();
            self.bump();
            return Ok((self.name_of(&op), self.span_of(&op)));
        }
        self.expect_name("name")
    }

    /// `type`, `type^`, `type~` name params = t
    fn parse_type_bind(&mut self) -> PResult<TypeBind> {
        let kw = self.bump();
        let liftedness = self.parse_liftedness();
        let (name, name_span) = self.expect_name("type name")?;
        let params = self.parse_type_params(false)?;
        self.expect(Tok::Equals, "`=`")?;
        let def = *self.parse_type()?;
        let span = self.sp(kw.lo, def.span.hi);
        Ok(TypeBind {
            name,
            name_span,
            params,
            liftedness,
            def,
            span,
        })
    }

    /// An optional `^` or `~` after `type` or `'`.
    fn parse_liftedness(&mut self) -> Liftedness {
        if self.at_op("^") {
            self.bump();
            Liftedness::Lifted
        } else if self.at(&Tok::Tilde) {
            self.bump();
            Liftedness::SizeLifted
        } else {
            Liftedness::Unlifted
        }
    }

    /// `[n]`, `'a`, `'^a`, `'~a`, any number. With `scheme`, a `[n]` is a
    /// parameter only when whitespace follows it (`[n]a` is a type).
    pub(super) fn parse_type_params(&mut self, scheme: bool) -> PResult<Vec<TypeParam>> {
        let mut tps = Vec::new();
        loop {
            match self.peek() {
                Tok::LBracket => {
                    if scheme
                        && !(*self.peek_at(1) == Tok::Ident
                            && *self.peek_at(2) == Tok::RBracket
                            && self.tok_at(3).space_before)
                    {
                        break;
                    }
                    let lb = self.bump();
                    let (name, _) = self.expect_name("size parameter name")?;
                    let rb = self.expect(Tok::RBracket, "`]`")?;
                    tps.push(TypeParam::Size {
                        name,
                        span: self.sp(lb.lo, rb.hi),
                    });
                }
                Tok::Tick => {
                    let tick = self.bump();
                    let liftedness = self.parse_liftedness();
                    let (name, nspan) = self.expect_name("type parameter name")?;
                    tps.push(TypeParam::Type {
                        name,
                        liftedness,
                        span: self.sp(tick.lo, nspan.hi),
                    });
                }
                _ => break,
            }
        }
        Ok(tps)
    }

    /// `#[name]`, `#[name(arg, ...)]`.
    fn parse_attr(&mut self) -> PResult<Attr> {
        let hb = self.expect(Tok::HashBracket, "`#[`")?;
        let mut a = self.parse_attr_info()?;
        let rb = self.expect(Tok::RBracket, "`]`")?;
        a.span = self.sp(hb.lo, rb.hi);
        Ok(a)
    }

    fn parse_attr_info(&mut self) -> PResult<Attr> {
        self.enter()?;
        let t = match self.peek() {
            Tok::Ident | Tok::Kw(_) | Tok::Int { .. } => self.bump(),
            _ => return Err(self.expected("attribute")),
        };
        let mut args = Vec::new();
        let mut hi = t.hi;
        if self.at(&Tok::LParen) {
            self.bump();
            if !self.at(&Tok::RParen) {
                loop {
                    args.push(self.parse_attr_info()?);
                    if self.at(&Tok::Comma) {
                        self.bump();
                        continue;
                    }
                    break;
                }
            }
            hi = self.expect(Tok::RParen, "`,` or `)`")?.hi;
        }
        self.leave();
        Ok(Attr {
            name: self.name_of(&t),
            args,
            span: self.sp(t.lo, hi),
        })
    }
}

fn dec_span(d: &Dec) -> Span {
    match d {
        Dec::Val(v) => v.span,
        Dec::Type(t) => t.span,
        Dec::Local(_, s) | Dec::Open(_, s) | Dec::Import(_, s) => *s,
        Dec::Module(m) => m.span,
        Dec::ModType(m) => m.span,
        Dec::Seal(_) => Span::default(),
        Dec::CheckOnly(d) => dec_span(d),
    }
}
