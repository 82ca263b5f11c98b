//! Patterns. Like expressions, they are passed around boxed to keep stack
//! frames small (see the `exp` module).

#![allow(clippy::boxed_local)]

use super::exp::literal_of;
use super::{PResult, Parser};
use crate::span::Span;
use crate::syntax::ast::*;
use crate::syntax::lexer::{Kw, Tok};

type PPat = PResult<Box<Pat>>;

fn mkp(span: Span, f: impl FnOnce() -> PatKind) -> Box<Pat> {
    Box::new(Pat {
        kind: f(),
        span,
        ty: None,
    })
}

fn push_pat(v: &mut Vec<Pat>, p: Box<Pat>) {
    v.push(*p);
}

fn push_field(v: &mut Vec<(Name, Span, Pat)>, name: Name, span: Span, p: Box<Pat>) {
    v.push((name, span, *p));
}

impl<'a> Parser<'a> {
    /// A pattern where a type ascription may follow without parentheses
    /// (`let x: i32 = ...`, `case #some x -> ...`): `p`, `p: t`, `#c p1 p2`.
    pub(super) fn parse_pat(&mut self) -> PPat {
        self.enter()?;
        // Attributes on a pattern (`#[maxval(1337)] acc: i32`) are hints
        // for Futhark's compiler that futmlir does not use.
        while self.at(&Tok::HashBracket) {
            self.parse_attr()?;
        }
        let mut p = if self.at(&Tok::Constr) {
            self.parse_constr_pat()?
        } else {
            self.parse_pat_atom()?
        };
        if self.at(&Tok::Colon) {
            self.bump();
            let t = self.parse_type()?;
            let span = p.span.to(t.span);
            p = mkp(span, || PatKind::Ascribe(p, *t));
        }
        self.leave();
        Ok(p)
    }

    fn parse_constr_pat(&mut self) -> PPat {
        let t = self.bump();
        let name = self.constr_name(&t);
        let mut args = Vec::new();
        while self.starts_pat_atom() {
            let a = self.parse_pat_atom()?;
            push_pat(&mut args, a);
        }
        let hi = args.last().map_or(t.hi, |a| a.span.hi);
        Ok(mkp(self.sp(t.lo, hi), || PatKind::Constr(name, args)))
    }

    /// Tokens that start a pattern atom, and so a parameter of a function
    /// or lambda: a parameter may be any pattern atom, a refutable one
    /// (`def f 1 = ...`) included, which the checker rejects ("Refutable
    /// pattern not allowed here") as Futhark does.
    pub(super) fn starts_pat_atom(&self) -> bool {
        matches!(self.peek(), Tok::Ident | Tok::LParen | Tok::LBrace)
            || matches!(
                self.peek(),
                Tok::Int { .. }
                    | Tok::Float { .. }
                    | Tok::Char(_)
                    | Tok::Str(_)
                    | Tok::Constr
                    | Tok::Kw(Kw::True | Kw::False)
            )
    }

    /// `x`, `_`, `()`, `(p)`, `(p, q)`, `{x, y = p, z: t}`, a literal, `#c`.
    pub(super) fn parse_pat_atom(&mut self) -> PPat {
        match self.peek() {
            Tok::Ident => {
                let t = self.bump();
                let span = self.span_of(&t);
                if self.text(&t) == "_" {
                    Ok(mkp(span, || PatKind::Wildcard))
                } else {
                    let name = self.name_of(&t);
                    Ok(mkp(span, || PatKind::Id(name)))
                }
            }
            Tok::LParen => self.parse_paren_pat(),
            Tok::LBrace => self.parse_record_pat(),
            Tok::Constr => {
                let t = self.bump();
                let name = self.constr_name(&t);
                Ok(mkp(self.span_of(&t), || PatKind::Constr(name, Vec::new())))
            }
            Tok::Op if self.at_op("-") && matches!(self.peek_at(1), Tok::Int { .. } | Tok::Float { .. }) => {
                let lo = self.bump().lo;
                let t = self.bump();
                let span = self.sp(lo, t.hi);
                match literal_of(t.tok) {
                    Some(lit) => Ok(mkp(span, || PatKind::Lit { lit, negated: true })),
                    None => Err(self.expected("pattern")),
                }
            }
            _ => {
                if !self.starts_pat_atom() {
                    return Err(self.expected("pattern"));
                }
                let t = self.bump();
                let span = self.span_of(&t);
                match literal_of(t.tok) {
                    Some(lit) => Ok(mkp(span, || PatKind::Lit { lit, negated: false })),
                    None => Err(self.expected("pattern")),
                }
            }
        }
    }

    fn parse_paren_pat(&mut self) -> PPat {
        let lo = self.bump().lo;
        if self.at(&Tok::RParen) {
            let hi = self.bump().hi;
            return Ok(mkp(self.sp(lo, hi), || PatKind::Tuple(Vec::new())));
        }
        // `(+)`: a parameter that is an operator (`def f (+) x y = x + y`).
        if self.at(&Tok::Op) && *self.peek_at(1) == Tok::RParen {
            let op = self.bump();
            let name = self.name_of(&op);
            let hi = self.bump().hi;
            return Ok(mkp(self.sp(lo, hi), || PatKind::Id(name)));
        }
        let first = self.parse_pat()?;
        if self.at(&Tok::Comma) {
            let mut elems = Vec::new();
            push_pat(&mut elems, first);
            while self.at(&Tok::Comma) {
                self.bump();
                let p = self.parse_pat()?;
                push_pat(&mut elems, p);
            }
            let hi = self.expect(Tok::RParen, "`,` or `)`")?.hi;
            return Ok(mkp(self.sp(lo, hi), || PatKind::Tuple(elems)));
        }
        let hi = self.expect(Tok::RParen, "`)`")?.hi;
        let mut p = first;
        p.span = self.sp(lo, hi);
        Ok(p)
    }

    /// `{x, y = p, z: t}`
    fn parse_record_pat(&mut self) -> PPat {
        let lo = self.bump().lo;
        let mut fields = Vec::new();
        if !self.at(&Tok::RBrace) {
            loop {
                let (name, nspan) = self.parse_field_name()?;
                let p = if self.at(&Tok::Equals) {
                    self.bump();
                    self.parse_pat()?
                } else if self.at(&Tok::Colon) {
                    self.bump();
                    let t = self.parse_type()?;
                    let id = name.clone();
                    let inner = mkp(nspan, || PatKind::Id(id));
                    mkp(nspan.to(t.span), || PatKind::Ascribe(inner, *t))
                } else {
                    let id = name.clone();
                    mkp(nspan, || PatKind::Id(id))
                };
                push_field(&mut fields, name, nspan, p);
                if !self.at(&Tok::Comma) {
                    break;
                }
                self.bump();
            }
        }
        let hi = self.expect(Tok::RBrace, "`,` or `}`")?.hi;
        Ok(mkp(self.sp(lo, hi), || PatKind::Record(fields)))
    }
}
