//! Type expressions. Like expressions, they are passed around boxed and
//! built in small helpers, to keep stack frames small (see the `exp`
//! module).

#![allow(clippy::boxed_local)]

use super::{PResult, Parser};
use crate::diag::Diag;
use crate::span::Span;
use crate::syntax::ast::*;
use crate::syntax::lexer::Tok;

type PType = PResult<Box<TypeExp>>;

fn mkt(span: Span, f: impl FnOnce() -> TypeExpKind) -> Box<TypeExp> {
    Box::new(TypeExp { kind: f(), span })
}

fn push_type(v: &mut Vec<TypeExp>, t: Box<TypeExp>) {
    v.push(*t);
}

/// A prefix of a type term.
enum Prefix {
    Unique(u32),
    Array(SizeExp, u32),
}

/// A parameter of an arrow chain: its name, type, and where it starts.
type ArrowParam = (Option<Name>, Box<TypeExp>, u32);

fn fold_arrows(mut params: Vec<ArrowParam>, mut t: Box<TypeExp>) -> Box<TypeExp> {
    while let Some((name, p, lo)) = params.pop() {
        let span = Span::new(t.span.file, lo, t.span.hi);
        t = mkt(span, || TypeExpKind::Arrow(name, p, t));
    }
    t
}

fn fold_prefixes(mut prefixes: Vec<Prefix>, mut t: Box<TypeExp>) -> Box<TypeExp> {
    while let Some(p) = prefixes.pop() {
        t = match p {
            Prefix::Unique(lo) => {
                let span = Span::new(t.span.file, lo, t.span.hi);
                mkt(span, || TypeExpKind::Unique(t))
            }
            Prefix::Array(d, lo) => {
                let span = Span::new(t.span.file, lo, t.span.hi);
                mkt(span, || TypeExpKind::Array(d, t))
            }
        };
    }
    t
}

impl<'a> Parser<'a> {
    /// A full type: `?[n].t`, arrows (right-associative, also named
    /// `(x: t) -> u`, an existential result `a -> ?[k].[k]b`), sum types
    /// `#a | #b t`, and type terms.
    pub(super) fn parse_type(&mut self) -> PType {
        self.enter()?;
        // The parameters of an arrow chain, folded from the right.
        let mut params = Vec::new();
        let result = loop {
            // An existential ends the chain: `?[n].t`, `a -> ?[k].[k]b`.
            if self.at(&Tok::Question) {
                break self.parse_existential()?;
            }
            if self.at(&Tok::LParen) && *self.peek_at(1) == Tok::Ident && *self.peek_at(2) == Tok::Colon {
                params.push(self.parse_named_param()?);
                continue;
            }
            let t = if self.at(&Tok::Constr) {
                self.parse_sum_type()?
            } else {
                self.parse_type_term()?
            };
            if !self.at(&Tok::Arrow) {
                break t;
            }
            self.bump();
            let lo = t.span.lo;
            params.push((None, t, lo));
        };
        self.leave();
        Ok(fold_arrows(params, result))
    }

    /// `(x: t) ->`
    fn parse_named_param(&mut self) -> PResult<ArrowParam> {
        let lo = self.bump().lo;
        let n = self.bump();
        self.bump();
        let t = self.parse_type()?;
        self.expect(Tok::RParen, "`)`")?;
        self.expect(Tok::Arrow, "`->`")?;
        Ok((Some(self.name_of(&n)), t, lo))
    }

    /// `?[n][m].t`
    fn parse_existential(&mut self) -> PType {
        let lo = self.bump().lo;
        let mut names = Vec::new();
        while self.at(&Tok::LBracket) {
            self.bump();
            names.push(self.expect_name("size name")?);
            self.expect(Tok::RBracket, "`]`")?;
        }
        if names.is_empty() {
            return Err(self.expected("`[`"));
        }
        self.expect(Tok::Dot, "`.`")?;
        let t = self.parse_type()?;
        let span = self.sp(lo, t.span.hi);
        Ok(mkt(span, || TypeExpKind::Existential(names, t)))
    }

    /// `#a | #b t1 t2 | ...`
    fn parse_sum_type(&mut self) -> PType {
        let lo = self.tok().lo;
        let mut hi = lo;
        let mut cs = Vec::new();
        loop {
            let c = self.expect(Tok::Constr, "constructor")?;
            hi = hi.max(c.hi);
            let mut args = Vec::new();
            loop {
                let a = if self.at(&Tok::LBracket) || self.at_op("*") {
                    self.parse_type_term()?
                } else if self.starts_type_atom() {
                    self.parse_type_atom()?
                } else {
                    break;
                };
                hi = hi.max(a.span.hi);
                push_type(&mut args, a);
            }
            cs.push((self.constr_name(&c), args));
            if !self.at_op("|") {
                break;
            }
            self.bump();
        }
        Ok(mkt(self.sp(lo, hi), || TypeExpKind::Sum(cs)))
    }

    /// `*t`, `[d]t`, or a type application; no top-level arrow.
    pub(super) fn parse_type_term(&mut self) -> PType {
        let mut prefixes = Vec::new();
        loop {
            if self.at_op("*") {
                prefixes.push(Prefix::Unique(self.bump().lo));
            } else if self.at(&Tok::LBracket) {
                let lo = self.bump().lo;
                let d = self.parse_size()?;
                self.expect(Tok::RBracket, "`]`")?;
                prefixes.push(Prefix::Array(d, lo));
            } else {
                break;
            }
            self.enter()?;
        }
        // `[]#foo | #bar` is an array of the sum type.
        let t = if !prefixes.is_empty() && self.at(&Tok::Constr) {
            self.parse_sum_type()?
        } else {
            self.parse_type_app()?
        };
        for _ in 0..prefixes.len() {
            self.leave();
        }
        Ok(fold_prefixes(prefixes, t))
    }

    /// What stands between the brackets of `[d]t` (the `[` is taken).
    fn parse_size(&mut self) -> PResult<SizeExp> {
        // `[n]`, `[m.n]`, `[3]` directly; anything else starting like an
        // expression is a size expression.
        let mut k = 1;
        if *self.peek() == Tok::Ident {
            while *self.peek_at(k) == Tok::Dot && *self.peek_at(k + 1) == Tok::Ident {
                k += 2;
            }
        }
        let simple = matches!(self.peek(), Tok::Ident | Tok::Int { .. }) && *self.peek_at(k) == Tok::RBracket;
        let starts_exp = matches!(self.peek(), Tok::Ident | Tok::Int { .. } | Tok::LParen);
        if !simple && starts_exp {
            // A size expression such as `[n + m]`.
            let e = self.parse_exp()?;
            let span = e.span;
            return Ok(SizeExp::Exp(e, span));
        }
        match self.peek() {
            Tok::RBracket => Ok(SizeExp::Any),
            Tok::Ident => {
                let (name, span) = self.parse_qual_name();
                Ok(SizeExp::Name(name, span))
            }
            Tok::Int { value, suffix } if suffix.is_none_or(|p| p.is_int()) => {
                let value = *value;
                let t = self.bump();
                match i64::try_from(value) {
                    Ok(v) => Ok(SizeExp::Const(v, self.span_of(&t))),
                    Err(_) => Err(Box::new(Diag::new(self.span_of(&t), "size is too large"))),
                }
            }
            _ => Err(self.expected("size (a name or an integer)")),
        }
    }

    /// `x` or `m.n.x` (no spaces around the dots); at an identifier.
    pub(super) fn parse_qual_name(&mut self) -> (QualName, Span) {
        let t = self.bump();
        let mut qn = QualName::unqual(self.name_of(&t));
        let mut hi = t.hi;
        while self.at(&Tok::Dot)
            && !self.tok().space_before
            && *self.peek_at(1) == Tok::Ident
            && !self.tok_at(1).space_before
        {
            self.bump();
            let f = self.bump();
            let old = std::mem::replace(&mut qn.name, self.name_of(&f));
            qn.quals.push(old);
            hi = f.hi;
        }
        (qn, self.sp(t.lo, hi))
    }

    fn starts_type_atom(&self) -> bool {
        matches!(self.peek(), Tok::Ident | Tok::LParen | Tok::LBrace)
    }

    /// A name applied to size arguments `[n]` and type atoms
    /// (`vec [n] f32`), or a single atom.
    fn parse_type_app(&mut self) -> PType {
        let head = self.parse_type_atom()?;
        if !matches!(head.kind, TypeExpKind::Var(_)) {
            return Ok(head);
        }
        let mut args = Vec::new();
        loop {
            if self.at(&Tok::LBracket) {
                self.parse_size_arg(&mut args)?;
            } else if self.starts_type_atom() {
                let a = self.parse_type_atom()?;
                push_type_arg(&mut args, a);
            } else {
                break;
            }
        }
        if args.is_empty() {
            return Ok(head);
        }
        Ok(self.finish_type_app(head, args))
    }

    fn parse_size_arg(&mut self, args: &mut Vec<TypeArgExp>) -> PResult<()> {
        let lo = self.bump().lo;
        let d = self.parse_size()?;
        let hi = self.expect(Tok::RBracket, "`]`")?.hi;
        args.push(TypeArgExp::Size(d, self.sp(lo, hi)));
        Ok(())
    }

    fn finish_type_app(&self, head: Box<TypeExp>, args: Vec<TypeArgExp>) -> Box<TypeExp> {
        let hi = match args.last() {
            Some(TypeArgExp::Size(_, s)) => s.hi,
            Some(TypeArgExp::Type(t)) => t.span.hi,
            None => head.span.hi,
        };
        let span = self.sp(head.span.lo, hi);
        mkt(span, || TypeExpKind::Apply(head, args))
    }

    /// A name, `()`, `(t)`, `(t1, t2)`, `{x: t, ...}`.
    fn parse_type_atom(&mut self) -> PType {
        match self.peek() {
            Tok::Ident => {
                let (qn, span) = self.parse_qual_name();
                Ok(mkt(span, || TypeExpKind::Var(qn)))
            }
            Tok::LParen => self.parse_paren_type(),
            Tok::LBrace => self.parse_record_type(),
            _ => Err(self.expected("type")),
        }
    }

    fn parse_paren_type(&mut self) -> PType {
        let lo = self.bump().lo;
        if self.at(&Tok::RParen) {
            let hi = self.bump().hi;
            return Ok(mkt(self.sp(lo, hi), || TypeExpKind::Tuple(Vec::new())));
        }
        let first = self.parse_type()?;
        if self.at(&Tok::Comma) {
            let mut elems = Vec::new();
            push_type(&mut elems, first);
            while self.at(&Tok::Comma) {
                self.bump();
                let t = self.parse_type()?;
                push_type(&mut elems, t);
            }
            let hi = self.expect(Tok::RParen, "`,` or `)`")?.hi;
            return Ok(mkt(self.sp(lo, hi), || TypeExpKind::Tuple(elems)));
        }
        let hi = self.expect(Tok::RParen, "`)`")?.hi;
        let mut t = first;
        t.span = self.sp(lo, hi);
        Ok(t)
    }

    fn parse_record_type(&mut self) -> PType {
        let lo = self.bump().lo;
        let mut fields = Vec::new();
        if !self.at(&Tok::RBrace) {
            loop {
                let (name, nspan) = self.parse_field_name()?;
                self.expect(Tok::Colon, "`:`")?;
                let t = self.parse_type()?;
                push_type_field(&mut fields, name, nspan, t);
                if !self.at(&Tok::Comma) {
                    break;
                }
                self.bump();
            }
        }
        let hi = self.expect(Tok::RBrace, "`,` or `}`")?.hi;
        Ok(mkt(self.sp(lo, hi), || TypeExpKind::Record(fields)))
    }
}

fn push_type_arg(v: &mut Vec<TypeArgExp>, t: Box<TypeExp>) {
    v.push(TypeArgExp::Type(*t));
}

fn push_type_field(v: &mut Vec<(Name, Span, TypeExp)>, name: Name, span: Span, t: Box<TypeExp>) {
    v.push((name, span, *t));
}
