//! The lexer for IR text (MLIR's token set).

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Tok {
    /// `builtin.module`, `i32`, `true`
    Ident,
    /// `%0`, `%arg1`, `%0#1`
    Percent,
    /// `$36`, `$36#1`: a size by definition number (Note [Sizes in types
    /// across mlir-opt]).
    Dollar,
    /// `^bb0`
    Caret,
    /// `!fut.array`
    Bang,
    /// `#fut.lmad`
    Hash,
    /// `@name`, `@"name"`
    At,
    String,
    Int,
    Float,
    LParen,
    RParen,
    LBrace,
    RBrace,
    LBracket,
    RBracket,
    Less,
    Greater,
    Comma,
    Colon,
    Equal,
    Arrow,
    Question,
    Minus,
    Star,
    Eof,
    /// A character that starts no token.
    Error,
}

impl Tok {
    pub fn describe(self) -> &'static str {
        match self {
            Tok::Ident => "identifier",
            Tok::Percent => "SSA value",
            Tok::Dollar => "definition number",
            Tok::Caret => "block label",
            Tok::Bang => "dialect type",
            Tok::Hash => "dialect attribute",
            Tok::At => "symbol reference",
            Tok::String => "string",
            Tok::Int => "integer",
            Tok::Float => "float",
            Tok::LParen => "'('",
            Tok::RParen => "')'",
            Tok::LBrace => "'{'",
            Tok::RBrace => "'}'",
            Tok::LBracket => "'['",
            Tok::RBracket => "']'",
            Tok::Less => "'<'",
            Tok::Greater => "'>'",
            Tok::Comma => "','",
            Tok::Colon => "':'",
            Tok::Equal => "'='",
            Tok::Arrow => "'->'",
            Tok::Question => "'?'",
            Tok::Minus => "'-'",
            Tok::Star => "'*'",
            Tok::Eof => "end of input",
            Tok::Error => "invalid character",
        }
    }
}

#[derive(Copy, Clone, Debug)]
pub struct Token {
    pub kind: Tok,
    pub start: u32,
    pub end: u32,
}

pub struct Lexer<'s> {
    pub src: &'s str,
    pub pos: usize,
}

fn is_id_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'$' | b'.' | b'-')
}

impl<'s> Lexer<'s> {
    pub fn new(src: &'s str) -> Lexer<'s> {
        Lexer { src, pos: 0 }
    }

    fn skip_trivia(&mut self) {
        let b = self.src.as_bytes();
        loop {
            while self.pos < b.len() && b[self.pos].is_ascii_whitespace() {
                self.pos += 1;
            }
            if self.pos + 1 < b.len() && b[self.pos] == b'/' && b[self.pos + 1] == b'/' {
                while self.pos < b.len() && b[self.pos] != b'\n' {
                    self.pos += 1;
                }
                continue;
            }
            break;
        }
    }

    pub fn next_token(&mut self) -> Token {
        self.skip_trivia();
        let b = self.src.as_bytes();
        let start = self.pos;
        let tok = |kind, end: usize| Token {
            kind,
            start: start as u32,
            end: end as u32,
        };
        if start >= b.len() {
            return tok(Tok::Eof, start);
        }
        let c = b[start];
        let mut p = start + 1;
        let kind = match c {
            b'(' => Tok::LParen,
            b')' => Tok::RParen,
            b'{' => Tok::LBrace,
            b'}' => Tok::RBrace,
            b'[' => Tok::LBracket,
            b']' => Tok::RBracket,
            b'<' => Tok::Less,
            b'>' => Tok::Greater,
            b',' => Tok::Comma,
            b':' => Tok::Colon,
            b'=' => Tok::Equal,
            b'?' => Tok::Question,
            b'*' => Tok::Star,
            b'-' if b.get(p) == Some(&b'>') => {
                p += 1;
                Tok::Arrow
            }
            b'-' => Tok::Minus,
            b'"' => match self.string_end(p) {
                Some(e) => {
                    p = e;
                    Tok::String
                }
                None => {
                    p = b.len();
                    Tok::Error
                }
            },
            b'$' => {
                p = skip_digits(b, p);
                if p > start + 1 && b.get(p) == Some(&b'#') {
                    p = skip_digits(b, p + 1);
                }
                if p == start + 1 {
                    Tok::Error
                } else {
                    Tok::Dollar
                }
            }
            b'%' | b'^' | b'!' | b'#' | b'@' => {
                if c == b'@' && b.get(p) == Some(&b'"') {
                    match self.string_end(p + 1) {
                        Some(e) => p = e,
                        None => return tok(Tok::Error, b.len()),
                    }
                } else {
                    while p < b.len() && is_id_char(b[p]) {
                        p += 1;
                    }
                    if c == b'%' && b.get(p) == Some(&b'#') {
                        p = skip_digits(b, p + 1);
                    }
                }
                if p == start + 1 {
                    Tok::Error
                } else {
                    match c {
                        b'%' => Tok::Percent,
                        b'^' => Tok::Caret,
                        b'!' => Tok::Bang,
                        b'#' => Tok::Hash,
                        _ => Tok::At,
                    }
                }
            }
            b'0'..=b'9' => {
                if c == b'0' && b.get(p) == Some(&b'x') && b.get(p + 1).is_some_and(|d| d.is_ascii_hexdigit()) {
                    p += 1;
                    while p < b.len() && b[p].is_ascii_hexdigit() {
                        p += 1;
                    }
                    Tok::Int
                } else {
                    while p < b.len() && b[p].is_ascii_digit() {
                        p += 1;
                    }
                    if b.get(p) == Some(&b'.') {
                        p += 1;
                        while p < b.len() && b[p].is_ascii_digit() {
                            p += 1;
                        }
                        if matches!(b.get(p), Some(b'e' | b'E')) {
                            let mut q = p + 1;
                            if matches!(b.get(q), Some(b'+' | b'-')) {
                                q += 1;
                            }
                            if b.get(q).is_some_and(|d| d.is_ascii_digit()) {
                                p = q;
                                while p < b.len() && b[p].is_ascii_digit() {
                                    p += 1;
                                }
                            }
                        }
                        Tok::Float
                    } else {
                        Tok::Int
                    }
                }
            }
            c if c.is_ascii_alphabetic() || c == b'_' => {
                while p < b.len() && (b[p].is_ascii_alphanumeric() || matches!(b[p], b'_' | b'$' | b'.')) {
                    p += 1;
                }
                Tok::Ident
            }
            _ => {
                // Step over a whole UTF-8 character.
                while p < b.len() && (b[p] & 0xC0) == 0x80 {
                    p += 1;
                }
                Tok::Error
            }
        };
        self.pos = p;
        tok(kind, p)
    }

    /// The end (after the closing quote) of a string whose body starts at `p`.
    fn string_end(&self, mut p: usize) -> Option<usize> {
        let b = self.src.as_bytes();
        while p < b.len() {
            match b[p] {
                b'"' => return Some(p + 1),
                b'\\' => p += 2,
                b'\n' => return None,
                _ => p += 1,
            }
        }
        None
    }

    /// Raw text of a balanced `<...>` body starting at the current position
    /// (just after the `<`); leaves the position after the matching `>`.
    pub fn balanced_body(&mut self) -> Option<(usize, usize)> {
        let b = self.src.as_bytes();
        let start = self.pos;
        let mut stack: Vec<u8> = vec![b'>'];
        let mut p = start;
        while p < b.len() {
            let c = b[p];
            match c {
                b'"' => {
                    p = self.string_end(p + 1)?;
                    continue;
                }
                b'<' => stack.push(b'>'),
                b'(' => stack.push(b')'),
                b'[' => stack.push(b']'),
                b'{' => stack.push(b'}'),
                b'>' | b')' | b']' | b'}' => {
                    // `->` inside a body is an arrow, not a closing bracket.
                    if c == b'>' && p > start && b[p - 1] == b'-' {
                        p += 1;
                        continue;
                    }
                    if stack.pop() != Some(c) {
                        return None;
                    }
                    if stack.is_empty() {
                        self.pos = p + 1;
                        return Some((start, p));
                    }
                }
                _ => {}
            }
            p += 1;
        }
        None
    }
}

/// Decodes the body of a string literal with MLIR's escapes.
pub fn unescape(body: &str) -> Option<String> {
    let b = body.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' {
            let c = *b.get(i + 1)?;
            match c {
                b'"' | b'\\' => out.push(c),
                b'n' => out.push(b'\n'),
                b't' => out.push(b'\t'),
                _ => {
                    let h = std::str::from_utf8(b.get(i + 1..i + 3)?).ok()?;
                    out.push(u8::from_str_radix(h, 16).ok()?);
                    i += 3;
                    continue;
                }
            }
            i += 2;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// The position after the ASCII digits of `b` from `p`.
fn skip_digits(b: &[u8], mut p: usize) -> usize {
    while p < b.len() && b[p].is_ascii_digit() {
        p += 1;
    }
    p
}
