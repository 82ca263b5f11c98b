//! The LMAD index function attribute of `mem.view`.
//!
//! An LMAD (linear memory access descriptor) maps an index `(i1..ir)` of an
//! array to the element offset `offset + i1*stride1 + ... + ir*strider` in
//! its memory block. It is written as an opaque attribute:
//!
//! ```text
//! #mem.lmad<offset: 0, dims: [($0, 1)]>          // a row-major [n]t
//! #mem.lmad<offset: $2, dims: [($0, $1), ($1, 1)]> // a row-major [n][m]t at an offset
//! ```
//!
//! Each `dims` entry is `(size, stride)`. A term is an integer or `$k`, the
//! `k`-th dynamic i64 operand of the view (the operands after the block),
//! since attributes cannot name SSA values.

/// One term of an LMAD: a constant or the `k`-th dynamic operand.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Term {
    Const(i64),
    Operand(usize),
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Lmad {
    pub offset: Term,
    /// `(size, stride)` per dimension, outermost first.
    pub dims: Vec<(Term, Term)>,
}

impl Lmad {
    /// Parses the body of `#mem.lmad<...>`.
    pub fn parse(body: &str) -> Result<Lmad, String> {
        let mut p = Cursor { s: body, pos: 0 };
        p.keyword("offset")?;
        p.punct(':')?;
        let offset = p.term()?;
        p.punct(',')?;
        p.keyword("dims")?;
        p.punct(':')?;
        p.punct('[')?;
        let mut dims = Vec::new();
        if !p.eat(']') {
            loop {
                p.punct('(')?;
                let size = p.term()?;
                p.punct(',')?;
                let stride = p.term()?;
                p.punct(')')?;
                dims.push((size, stride));
                if !p.eat(',') {
                    break;
                }
            }
            p.punct(']')?;
        }
        p.skip_ws();
        if p.pos != body.len() {
            return Err(format!("unexpected '{}' after the dims", &body[p.pos..]));
        }
        Ok(Lmad { offset, dims })
    }

    /// Every term, for range checks.
    pub fn terms(&self) -> impl Iterator<Item = Term> + '_ {
        std::iter::once(self.offset).chain(self.dims.iter().flat_map(|&(a, b)| [a, b]))
    }
}

struct Cursor<'a> {
    s: &'a str,
    pos: usize,
}

impl Cursor<'_> {
    fn skip_ws(&mut self) {
        while self.s[self.pos..].starts_with(char::is_whitespace) {
            self.pos += 1;
        }
    }
    fn eat(&mut self, c: char) -> bool {
        self.skip_ws();
        if self.s[self.pos..].starts_with(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    fn punct(&mut self, c: char) -> Result<(), String> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(format!("expected '{c}' at column {}", self.pos + 1))
        }
    }
    fn keyword(&mut self, k: &str) -> Result<(), String> {
        self.skip_ws();
        if self.s[self.pos..].starts_with(k) {
            self.pos += k.len();
            Ok(())
        } else {
            Err(format!("expected '{k}' at column {}", self.pos + 1))
        }
    }
    fn term(&mut self) -> Result<Term, String> {
        self.skip_ws();
        let rest = &self.s[self.pos..];
        let operand = rest.starts_with('$');
        let start = usize::from(operand);
        let len = rest[start..]
            .char_indices()
            .find(|&(i, c)| !(c.is_ascii_digit() || (i == 0 && c == '-' && !operand)))
            .map_or(rest.len() - start, |(i, _)| i);
        let text = &rest[start..start + len];
        let term = if operand {
            text.parse().map(Term::Operand)
        } else {
            text.parse().map(Term::Const)
        }
        .map_err(|_| format!("expected an integer or '$k' at column {}", self.pos + 1))?;
        self.pos += start + len;
        Ok(term)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_row_major_2d() {
        let l = Lmad::parse("offset: $2, dims: [($0, $1), ($1, 1)]").unwrap();
        assert_eq!(l.offset, Term::Operand(2));
        assert_eq!(
            l.dims,
            vec![(Term::Operand(0), Term::Operand(1)), (Term::Operand(1), Term::Const(1))]
        );
    }

    #[test]
    fn rejects_garbage() {
        assert!(Lmad::parse("offset: 0, dims: [(x, 1)]").is_err());
        assert!(Lmad::parse("offset: 0, dims: []").is_ok());
        assert!(Lmad::parse("offset: -1, dims: [(4, -1)] junk").is_err());
    }
}
