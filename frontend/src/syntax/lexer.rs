//! The lexer: Futhark source text to [`Token`]s.
//!
//! Whitespace and `--` line comments (doc comments `-- |` included) are
//! skipped; each token records whether whitespace or a comment came before
//! it ([`Token::space_before`]), which the parser needs to tell indexing
//! `a[i]` from application `f [i]`, and a field `r.x` from other uses of
//! `.`.
//!
//! Operators are maximal runs of `+ - * / % = ! < > | & ^`; a run that starts
//! with `--` is a comment instead. A lone `=` is [`Tok::Equals`] and `->` is
//! [`Tok::Arrow`]; every other run (`|`, `<`, `*`, `!`, `<+>`, ...) is
//! [`Tok::Op`], and the parser gives `-`, `!`, `*`, `<` and `|` their
//! special meanings where they occur.
//!
//! A number right after an adjacent `.` (`x.0.1`, `(.1)`) is lexed as a plain
//! field number, so that `x.0.1` is not `x` `.` `0.1`.

use crate::diag::Diag;
use crate::span::{FileId, Span};
use crate::types::PrimType;

/// Keywords. `true` and `false` are keywords too.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kw {
    Assert,
    Case,
    Def,
    Do,
    Else,
    Entry,
    False,
    For,
    If,
    Import,
    In,
    Include,
    Let,
    Local,
    Loop,
    Match,
    Module,
    Open,
    Then,
    True,
    Type,
    Val,
    While,
    With,
}

impl Kw {
    const ALL: [(Kw, &'static str); 24] = [
        (Kw::Assert, "assert"),
        (Kw::Case, "case"),
        (Kw::Def, "def"),
        (Kw::Do, "do"),
        (Kw::Else, "else"),
        (Kw::Entry, "entry"),
        (Kw::False, "false"),
        (Kw::For, "for"),
        (Kw::If, "if"),
        (Kw::Import, "import"),
        (Kw::In, "in"),
        (Kw::Include, "include"),
        (Kw::Let, "let"),
        (Kw::Local, "local"),
        (Kw::Loop, "loop"),
        (Kw::Match, "match"),
        (Kw::Module, "module"),
        (Kw::Open, "open"),
        (Kw::Then, "then"),
        (Kw::True, "true"),
        (Kw::Type, "type"),
        (Kw::Val, "val"),
        (Kw::While, "while"),
        (Kw::With, "with"),
    ];

    pub fn from_name(s: &str) -> Option<Kw> {
        Kw::ALL.iter().find(|(_, n)| *n == s).map(|(k, _)| *k)
    }

    pub fn as_str(self) -> &'static str {
        Kw::ALL.iter().find(|(k, _)| *k == self).map(|(_, n)| *n).unwrap_or("?")
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    /// An identifier (`x`, `_`, `x'`); the text is the token's span.
    Ident,
    Kw(Kw),
    /// Integer literal (a character literal `'a'` is [`Tok::Char`]).
    Int {
        value: u128,
        suffix: Option<PrimType>,
    },
    Float {
        value: f64,
        suffix: Option<PrimType>,
    },
    /// `'a'`: the code point.
    Char(u32),
    /// `"..."`: the UTF-8 bytes, escapes resolved.
    Str(Vec<u8>),
    /// An operator (`+`, `<|`, `<+>`, `|`, `*`, `-`, `!`); the text is the span.
    Op,
    /// `` `f` `` or `` `M.f` ``; the name is the span without the backticks.
    Backtick,
    /// `#name`; the name is the span without the `#`.
    Constr,
    LParen,
    RParen,
    LBracket,
    RBracket,
    LBrace,
    RBrace,
    Comma,
    Colon,
    /// `:>`
    ColonGt,
    Dot,
    /// `..`
    DotDot,
    /// `..<`
    DotDotLt,
    /// `..>`
    DotDotGt,
    /// `...`
    DotDotDot,
    Backslash,
    /// `->`
    Arrow,
    /// `=`
    Equals,
    /// `'` before a type parameter (`'a`, `'^a`, `'~a`).
    Tick,
    Tilde,
    Question,
    /// `#[`
    HashBracket,
    Eof,
    /// Where lexing failed; always the last token. The parser reports the
    /// lexer's [`Diag`] when it reaches this token.
    Error,
}

#[derive(Clone, Debug)]
pub struct Token {
    pub tok: Tok,
    pub lo: u32,
    pub hi: u32,
    /// Whitespace or a comment (or the start of the file) precedes the token.
    pub space_before: bool,
}

pub fn is_op_char(c: u8) -> bool {
    matches!(
        c,
        b'+' | b'-' | b'*' | b'/' | b'%' | b'=' | b'!' | b'>' | b'<' | b'|' | b'&' | b'^'
    )
}

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}

fn is_ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'\''
}

/// Lexes the whole text. The token list always ends with [`Tok::Eof`], or
/// with [`Tok::Error`] when lexing failed; the `Diag` says why.
pub fn lex(file: FileId, text: &str) -> (Vec<Token>, Option<Diag>) {
    let mut lx = Lexer {
        file,
        src: text,
        b: text.as_bytes(),
        pos: 0,
        toks: Vec::new(),
    };
    let err = lx.run();
    (lx.toks, err)
}

/// All tokens (the last is [`Tok::Eof`]), or the first lexical error.
pub fn tokenize(file: FileId, text: &str) -> Result<Vec<Token>, Diag> {
    match lex(file, text) {
        (toks, None) => Ok(toks),
        (_, Some(d)) => Err(d),
    }
}

struct Lexer<'a> {
    file: FileId,
    src: &'a str,
    b: &'a [u8],
    pos: usize,
    toks: Vec<Token>,
}

type LResult<T> = Result<T, Diag>;

impl<'a> Lexer<'a> {
    fn at(&self, i: usize) -> u8 {
        self.b.get(i).copied().unwrap_or(0)
    }
    fn cur(&self) -> u8 {
        self.at(self.pos)
    }
    fn next(&self) -> u8 {
        self.at(self.pos + 1)
    }
    fn span(&self, lo: usize, hi: usize) -> Span {
        Span::new(self.file, lo as u32, hi as u32)
    }
    fn err(&self, lo: usize, hi: usize, msg: impl Into<String>) -> Diag {
        Diag::new(self.span(lo, hi), msg)
    }
    fn take_while(&mut self, f: impl Fn(u8) -> bool) {
        while self.pos < self.b.len() && f(self.b[self.pos]) {
            self.pos += 1;
        }
    }
    /// The character at byte offset `i` (a char boundary).
    fn char_at(&self, i: usize) -> Option<char> {
        self.src.get(i..).and_then(|s| s.chars().next())
    }

    fn run(&mut self) -> Option<Diag> {
        let mut last_end = 0usize;
        loop {
            while self.pos < self.b.len() {
                match self.b[self.pos] {
                    b' ' | b'\t' | b'\n' | b'\r' | 0x0c => self.pos += 1,
                    b'-' if self.next() == b'-' => {
                        while self.pos < self.b.len() && self.b[self.pos] != b'\n' {
                            self.pos += 1;
                        }
                    }
                    _ => break,
                }
            }
            let space_before = self.toks.is_empty() || self.pos > last_end;
            if self.pos >= self.b.len() {
                self.toks.push(Token {
                    tok: Tok::Eof,
                    lo: last_end as u32,
                    hi: last_end as u32,
                    space_before: true,
                });
                return None;
            }
            let start = self.pos;
            match self.token() {
                Ok(tok) => {
                    self.toks.push(Token {
                        tok,
                        lo: start as u32,
                        hi: self.pos as u32,
                        space_before,
                    });
                    last_end = self.pos;
                }
                Err(d) => {
                    self.toks.push(Token {
                        tok: Tok::Error,
                        lo: d.span.lo,
                        hi: d.span.hi,
                        space_before,
                    });
                    return Some(d);
                }
            }
        }
    }

    /// After a `.` with no space between (`x.0`, `(.1)`).
    fn after_adjacent_dot(&self) -> bool {
        matches!(self.toks.last(), Some(t) if t.tok == Tok::Dot && t.hi as usize == self.pos)
    }

    fn token(&mut self) -> LResult<Tok> {
        let start = self.pos;
        let c = self.cur();
        let one = |lx: &mut Lexer, t: Tok| {
            lx.pos += 1;
            Ok(t)
        };
        match c {
            c if is_ident_start(c) => {
                self.take_while(is_ident_char);
                let text = &self.src[start..self.pos];
                Ok(Kw::from_name(text).map_or(Tok::Ident, Tok::Kw))
            }
            b'0'..=b'9' if self.after_adjacent_dot() => {
                self.take_while(|c| c.is_ascii_digit());
                let value = parse_radix(&self.src[start..self.pos], 10)
                    .ok_or_else(|| self.err(start, self.pos, "field number is too large"))?;
                Ok(Tok::Int { value, suffix: None })
            }
            b'0'..=b'9' => self.number(),
            b'"' => self.string(),
            b'\'' => self.char_or_tick(),
            b'`' => self.backtick(),
            b'#' => {
                let n = self.next();
                if n == b'[' {
                    self.pos += 2;
                    Ok(Tok::HashBracket)
                } else if is_ident_start(n) {
                    self.pos += 1;
                    self.take_while(is_ident_char);
                    Ok(Tok::Constr)
                } else {
                    Err(self.err(
                        start,
                        start + 1,
                        "unexpected character `#` (expected `#[` or a constructor `#name`)",
                    ))
                }
            }
            b'(' => one(self, Tok::LParen),
            b')' => one(self, Tok::RParen),
            b'[' => one(self, Tok::LBracket),
            b']' => one(self, Tok::RBracket),
            b'{' => one(self, Tok::LBrace),
            b'}' => one(self, Tok::RBrace),
            b',' => one(self, Tok::Comma),
            b'\\' => one(self, Tok::Backslash),
            b'~' => one(self, Tok::Tilde),
            b'?' => one(self, Tok::Question),
            b':' => {
                if self.next() == b'>' {
                    self.pos += 2;
                    Ok(Tok::ColonGt)
                } else {
                    one(self, Tok::Colon)
                }
            }
            b'.' => {
                if self.next() != b'.' {
                    return one(self, Tok::Dot);
                }
                self.pos += 2;
                match self.cur() {
                    b'.' => one(self, Tok::DotDotDot),
                    b'<' => one(self, Tok::DotDotLt),
                    b'>' => one(self, Tok::DotDotGt),
                    _ => Ok(Tok::DotDot),
                }
            }
            c if is_op_char(c) => {
                self.take_while(is_op_char);
                Ok(match &self.src[start..self.pos] {
                    "=" => Tok::Equals,
                    "->" => Tok::Arrow,
                    _ => Tok::Op,
                })
            }
            _ => {
                let ch = self.char_at(start).unwrap_or('?');
                let hi = start + ch.len_utf8();
                let shown = if ch.is_control() || ch.is_whitespace() {
                    format!("{:?}", ch)
                } else {
                    format!("`{ch}`")
                };
                Err(self.err(start, hi, format!("unexpected character {shown}")))
            }
        }
    }

    /// A type suffix right after the digits of a literal: `i32`, `f64`, ...
    /// (any identifier characters there are taken as a suffix, so that `1i33`
    /// and `12abc` are errors).
    fn suffix(&mut self, lit_start: usize) -> LResult<Option<PrimType>> {
        let s = self.pos;
        self.take_while(is_ident_char);
        if s == self.pos {
            return Ok(None);
        }
        let text = &self.src[s..self.pos];
        match PrimType::from_name(text) {
            Some(p) if p != PrimType::Bool => Ok(Some(p)),
            _ => Err(self.err(
                lit_start,
                self.pos,
                format!(
                    "invalid suffix `{text}` on numeric literal (expected one of i8, i16, i32, i64, u8, u16, u32, \
                     u64, f16, f32, f64)"
                ),
            )),
        }
    }

    fn number(&mut self) -> LResult<Tok> {
        let start = self.pos;
        let radix_char = self.next() | 0x20;
        if self.cur() == b'0' && (radix_char == b'x' || radix_char == b'b') {
            return self.radix_number(radix_char == b'x');
        }
        self.take_while(|c| c.is_ascii_digit() || c == b'_');
        let int_end = self.pos;
        let mut is_float = false;
        if self.cur() == b'.' && self.next().is_ascii_digit() {
            self.pos += 1;
            self.take_while(|c| c.is_ascii_digit() || c == b'_');
            is_float = true;
        }
        if self.cur() | 0x20 == b'e' {
            let n = self.next();
            let digit_at = if n == b'+' || n == b'-' {
                self.pos + 2
            } else {
                self.pos + 1
            };
            if self.at(digit_at).is_ascii_digit() {
                self.pos = digit_at;
                self.take_while(|c| c.is_ascii_digit() || c == b'_');
                is_float = true;
            }
        }
        let body_end = self.pos;
        let suffix = self.suffix(start)?;
        let body: String = self.src[start..body_end].chars().filter(|&c| c != '_').collect();
        let float_suffix = suffix.is_some_and(|p| p.is_float());
        if is_float && suffix.is_some_and(|p| p.is_int()) {
            return Err(self.err(
                start,
                self.pos,
                "a floating-point literal cannot have an integer type suffix",
            ));
        }
        if is_float || float_suffix {
            let value: f64 = body
                .parse()
                .map_err(|_| self.err(start, self.pos, "malformed floating-point literal"))?;
            return Ok(Tok::Float { value, suffix });
        }
        let value = parse_radix(&self.src[start..int_end], 10)
            .ok_or_else(|| self.err(start, self.pos, "integer literal is too large"))?;
        Ok(Tok::Int { value, suffix })
    }

    /// `0x...` (integers and hex floats `0x1.8p3`) and `0b...`.
    fn radix_number(&mut self, hex: bool) -> LResult<Tok> {
        let start = self.pos;
        self.pos += 2;
        let ds = self.pos;
        let digit = |c: u8| {
            if hex {
                c.is_ascii_hexdigit()
            } else {
                c == b'0' || c == b'1'
            }
        };
        self.take_while(|c| digit(c) || c == b'_');
        let int_text = &self.src[ds..self.pos];
        if !int_text.bytes().any(digit) {
            let what = if hex { "hexadecimal" } else { "binary" };
            let prefix = &self.src[start..ds];
            return Err(self.err(start, self.pos, format!("expected {what} digits after `{prefix}`")));
        }
        let mut frac = "";
        let mut exp = None;
        if hex {
            if self.cur() == b'.' && self.next().is_ascii_hexdigit() {
                self.pos += 1;
                let fs = self.pos;
                self.take_while(|c| c.is_ascii_hexdigit() || c == b'_');
                frac = &self.src[fs..self.pos];
            }
            if self.cur() | 0x20 == b'p' {
                let n = self.next();
                let sign_len = usize::from(n == b'+' || n == b'-');
                if self.at(self.pos + 1 + sign_len).is_ascii_digit() {
                    self.pos += 1;
                    let es = self.pos;
                    self.pos += sign_len;
                    self.take_while(|c| c.is_ascii_digit() || c == b'_');
                    exp = Some(&self.src[es..self.pos]);
                }
            }
            if !frac.is_empty() && exp.is_none() {
                return Err(self.err(
                    start,
                    self.pos,
                    "a hexadecimal floating-point literal needs a `p` exponent (as in `0x1.8p3`)",
                ));
            }
        }
        let suffix = self.suffix(start)?;
        if let Some(exp) = exp {
            if suffix.is_some_and(|p| p.is_int()) {
                return Err(self.err(
                    start,
                    self.pos,
                    "a floating-point literal cannot have an integer type suffix",
                ));
            }
            let value = hex_float(int_text, frac, exp);
            return Ok(Tok::Float { value, suffix });
        }
        let value = parse_radix(int_text, if hex { 16 } else { 2 })
            .ok_or_else(|| self.err(start, self.pos, "integer literal is too large"))?;
        if suffix.is_some_and(|p| p.is_float()) {
            return Ok(Tok::Float {
                value: value as f64,
                suffix,
            });
        }
        Ok(Tok::Int { value, suffix })
    }

    /// An escape sequence; `self.pos` is at the backslash. Returns the code
    /// point.
    fn escape(&mut self) -> LResult<u32> {
        let bs = self.pos;
        self.pos += 1;
        let c = self.cur();
        let simple = match c {
            b'n' => Some(10),
            b't' => Some(9),
            b'r' => Some(13),
            b'\\' => Some(92),
            b'"' => Some(34),
            b'\'' => Some(39),
            b'a' => Some(7),
            b'b' => Some(8),
            b'f' => Some(12),
            b'v' => Some(11),
            _ => None,
        };
        if let Some(v) = simple {
            self.pos += 1;
            return Ok(v);
        }
        let (radix, min_len, max_len) = match c {
            b'x' => (16, 2, 2),
            b'u' => (16, 4, 4),
            b'0'..=b'9' => (10, 1, 7),
            _ => {
                let hi = match self.char_at(self.pos) {
                    Some(ch) => self.pos + ch.len_utf8(),
                    None => self.pos,
                };
                let shown = &self.src[bs..hi];
                return Err(self.err(bs, hi, format!("unknown escape sequence `{shown}`")));
            }
        };
        if radix == 16 {
            self.pos += 1;
        }
        let ds = self.pos;
        while self.pos - ds < max_len && (self.cur() as char).is_digit(radix) {
            self.pos += 1;
        }
        let digits = &self.src[ds..self.pos];
        if digits.len() < min_len {
            return Err(self.err(bs, self.pos, "malformed escape sequence"));
        }
        match u32::from_str_radix(digits, radix) {
            Ok(v) if char::from_u32(v).is_some() => Ok(v),
            _ => Err(self.err(bs, self.pos, "escape sequence is not a valid character")),
        }
    }

    fn string(&mut self) -> LResult<Tok> {
        let start = self.pos;
        self.pos += 1;
        let mut bytes = Vec::new();
        loop {
            match self.cur() {
                _ if self.pos >= self.b.len() => {
                    return Err(self.err(start, start + 1, "unterminated string literal"));
                }
                b'"' => {
                    self.pos += 1;
                    return Ok(Tok::Str(bytes));
                }
                b'\\' => {
                    let cp = self.escape()?;
                    let ch = char::from_u32(cp).unwrap_or('\u{fffd}');
                    let mut buf = [0u8; 4];
                    bytes.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                }
                _ => {
                    let ch = self.char_at(self.pos).unwrap_or('\u{fffd}');
                    let n = ch.len_utf8();
                    bytes.extend_from_slice(&self.b[self.pos..self.pos + n]);
                    self.pos += n;
                }
            }
        }
    }

    /// `'a'`, `'\n'` (character literals) or a lone `'` before a type
    /// parameter name.
    fn char_or_tick(&mut self) -> LResult<Tok> {
        let start = self.pos;
        if self.next() == b'\\' {
            self.pos += 1;
            let cp = self.escape()?;
            if self.cur() != b'\'' {
                return Err(self.err(start, self.pos, "unterminated character literal"));
            }
            self.pos += 1;
            return Ok(Tok::Char(cp));
        }
        if let Some(ch) = self.char_at(start + 1) {
            let after = start + 1 + ch.len_utf8();
            if ch != '\'' && ch != '\n' && self.at(after) == b'\'' {
                self.pos = after + 1;
                return Ok(Tok::Char(ch as u32));
            }
        }
        self.pos += 1;
        Ok(Tok::Tick)
    }

    /// `` `name` `` or `` `M.name` ``.
    fn backtick(&mut self) -> LResult<Tok> {
        let start = self.pos;
        self.pos += 1;
        self.take_while(|c| is_ident_char(c) || c == b'.');
        let inner = &self.src[start + 1..self.pos];
        let well_formed = !inner.is_empty()
            && inner
                .split('.')
                .all(|seg| seg.bytes().next().is_some_and(is_ident_start));
        if self.cur() != b'`' || !well_formed {
            return Err(self.err(
                start,
                self.pos.max(start + 1),
                "malformed backtick operator (expected a name between backticks, as in `` `f` ``)",
            ));
        }
        self.pos += 1;
        Ok(Tok::Backtick)
    }
}

/// The value of digits (underscores skipped) in a radix; `None` on overflow
/// of `u128`.
fn parse_radix(text: &str, radix: u32) -> Option<u128> {
    let mut v: u128 = 0;
    for c in text.chars() {
        if c == '_' {
            continue;
        }
        let d = c.to_digit(radix)?;
        v = v.checked_mul(radix as u128)?.checked_add(d as u128)?;
    }
    Some(v)
}

/// `0x<int>.<frac>p<exp>`.
fn hex_float(int: &str, frac: &str, exp: &str) -> f64 {
    let mut m = 0f64;
    let mut frac_digits: i64 = 0;
    for c in int.chars().filter(|&c| c != '_') {
        m = m * 16.0 + c.to_digit(16).unwrap_or(0) as f64;
    }
    for c in frac.chars().filter(|&c| c != '_') {
        m = m * 16.0 + c.to_digit(16).unwrap_or(0) as f64;
        frac_digits += 1;
    }
    let (neg, digits) = match exp.as_bytes().first() {
        Some(b'-') => (true, &exp[1..]),
        Some(b'+') => (false, &exp[1..]),
        _ => (false, exp),
    };
    let mut e: i64 = 0;
    for c in digits.chars().filter(|&c| c != '_') {
        e = (e * 10 + c.to_digit(10).unwrap_or(0) as i64).min(1 << 20);
    }
    if neg {
        e = -e;
    }
    let mut e = e - 4 * frac_digits;
    // Scale in steps so that large mantissas with very negative exponents
    // (and the reverse) do not overflow or underflow early.
    while e > 0 && m.is_finite() && m != 0.0 {
        let step = e.min(512);
        m *= 2f64.powi(step as i32);
        e -= step;
    }
    while e < 0 && m != 0.0 {
        let step = (-e).min(512);
        m /= 2f64.powi(step as i32);
        e += step;
    }
    m
}
