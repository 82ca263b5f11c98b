//! Expressions.
//!
//! Stack use: an `Exp` is several hundred bytes, and unoptimised builds give
//! every temporary its own stack slot. So the functions that recurse pass
//! `Box<Exp>` around, and nodes are built in small helpers ([`mk`] and the
//! `finish_*` functions) whose frames are gone before the next recursion.
//! This keeps a nesting level (a pair of parentheses, say) to a few
//! kilobytes of stack even in debug builds.

// The `push_*`/`finish_*` helpers take boxes on purpose: the unboxing
// moves happen in their frames.
#![allow(clippy::boxed_local)]

use std::rc::Rc;

use super::{operator_precedence, prec, PResult, Parser};
use crate::span::Span;
use crate::syntax::ast::*;
use crate::syntax::lexer::{Kw, Tok, Token};

type PExp = PResult<Box<Exp>>;

/// One `let` of a chain, before its body is known.
enum LetBinding {
    Pat(Box<Pat>, Box<Exp>),
    /// `let [n] p = e`: sizes named by what `p`'s annotations bind.
    Sizes(Vec<TypeParam>, Box<Pat>, Box<Exp>),
    Fun(Box<LetFun>),
    With {
        name: Name,
        name_span: Span,
        index: Vec<DimIndex>,
        value: Box<Exp>,
    },
}

struct LetFun {
    name: Name,
    name_span: Span,
    type_params: Vec<TypeParam>,
    params: Vec<Pat>,
    ret: Option<Box<TypeExp>>,
    value: Box<Exp>,
}

/// A step of an update path: `e with [i].f[j] = v`, `let r.f[i] = v`.
enum UpdateStep {
    Index(Vec<DimIndex>),
    Field(Name),
}

/// `base with steps = value` for a path that is neither one index nor
/// only fields (language reference: `exp with (slice | fieldid) (slice |
/// "." fieldid)*`): nested updates, each writing the updated inner part
/// into its container (`xs with [0].f = v` is `xs with [0] = (copy
/// xs[0] with f = v)`). The inner part is copied where it is updated in
/// place or written into an array (the alias checker tracks one set of
/// aliases per value, so an in-place update of a part would consume the
/// whole); see docs/futhark-missing.md.
fn desugar_update(base: Box<Exp>, steps: Vec<UpdateStep>, value: Box<Exp>, span: Span) -> Box<Exp> {
    // `base` is read twice: bind it unless it is a variable.
    if !matches!(base.kind, ExpKind::Var(_)) {
        let name: Name = Rc::from("(with)");
        let pat = Box::new(Pat {
            kind: PatKind::Id(name.clone()),
            span: base.span,
            ty: None,
        });
        let body = desugar_update(var_exp(base.span, name), steps, value, span);
        return mk(span, || ExpKind::Let { pat, value: base, body });
    }
    let mut steps = steps.into_iter();
    let first = steps.next().expect("an update path has a step");
    let rest: Vec<UpdateStep> = steps.collect();
    let value = if rest.is_empty() {
        value
    } else {
        let mut part = match &first {
            UpdateStep::Index(ix) => {
                let ix = ix.clone();
                let b = base.clone();
                mk(span, || ExpKind::Index(b, ix))
            }
            UpdateStep::Field(f) => {
                let (b, f) = (base.clone(), f.clone());
                mk(span, || ExpKind::Project(b, f))
            }
        };
        if matches!(first, UpdateStep::Index(_)) || matches!(rest[0], UpdateStep::Index(_)) {
            let copy = var_exp(span, Rc::from("copy"));
            part = mk(span, || ExpKind::Apply(copy, vec![*part]));
        }
        desugar_update(part, rest, value, span)
    };
    match first {
        UpdateStep::Index(index) => mk(span, || ExpKind::Update {
            array: base,
            index,
            value,
        }),
        UpdateStep::Field(f) => mk(span, || ExpKind::RecordUpdate {
            record: base,
            path: vec![f],
            value,
        }),
    }
}

/// The field names of a path of fields only (`None` if it has an index).
fn field_path(steps: &[UpdateStep]) -> Option<Vec<Name>> {
    steps
        .iter()
        .map(|s| match s {
            UpdateStep::Field(f) => Some(f.clone()),
            UpdateStep::Index(_) => None,
        })
        .collect()
}

/// `base with steps = value`: an `Update` for one index, a `RecordUpdate`
/// for fields only, nested updates otherwise.
fn update_exp(base: Box<Exp>, steps: Vec<UpdateStep>, value: Box<Exp>, span: Span) -> Box<Exp> {
    if let [UpdateStep::Index(_)] = steps.as_slice() {
        let Some(UpdateStep::Index(index)) = steps.into_iter().next() else {
            unreachable!("matched one index")
        };
        return mk(span, || ExpKind::Update {
            array: base,
            index,
            value,
        });
    }
    if let Some(path) = field_path(&steps) {
        return mk(span, || ExpKind::RecordUpdate {
            record: base,
            path,
            value,
        });
    }
    desugar_update(base, steps, value, span)
}

/// A node; the large `ExpKind` lives in this function's frame only.
fn mk(span: Span, f: impl FnOnce() -> ExpKind) -> Box<Exp> {
    Box::new(Exp::new(f(), span))
}

/// The variable `name`, unqualified, at `span`.
fn var_exp(span: Span, name: Name) -> Box<Exp> {
    mk(span, || {
        ExpKind::Var(Var {
            name: QualName::unqual(name),
            res: None,
        })
    })
}

fn push_exp(v: &mut Vec<Exp>, e: Box<Exp>) {
    v.push(*e);
}

/// The literal of a literal token.
pub(super) fn literal_of(tok: Tok) -> Option<Literal> {
    Some(match tok {
        Tok::Int { value, suffix } => Literal::Int { value, suffix },
        Tok::Float { value, suffix } => Literal::Float { value, suffix },
        Tok::Char(c) => Literal::Int {
            value: c as u128,
            suffix: None,
        },
        Tok::Str(b) => Literal::String(b),
        Tok::Kw(Kw::True) => Literal::Bool(true),
        Tok::Kw(Kw::False) => Literal::Bool(false),
        _ => return None,
    })
}

fn mk_binop(lhs: Box<Exp>, (op, op_span): (Var, Span), rhs: Box<Exp>) -> Box<Exp> {
    let span = lhs.span.to(rhs.span);
    mk(span, || ExpKind::BinOp { op, op_span, lhs, rhs })
}

fn mk_section(op: (Var, Span), left: Option<Box<Exp>>, right: Option<Box<Exp>>, span: Span) -> Box<Exp> {
    let (op, op_span) = op;
    mk(span, || ExpKind::OpSection {
        op,
        op_span,
        left,
        right,
    })
}

fn finish_slice(out: &mut Vec<DimIndex>, start: Option<Box<Exp>>, end: Option<Box<Exp>>, stride: Option<Box<Exp>>) {
    out.push(DimIndex::Slice {
        start: start.map(|e| *e),
        end: end.map(|e| *e),
        stride: stride.map(|e| *e),
    });
}

fn finish_fix(out: &mut Vec<DimIndex>, e: Box<Exp>) {
    out.push(DimIndex::Fix(*e));
}

fn finish_let(lo: u32, b: LetBinding, body: Box<Exp>) -> Box<Exp> {
    let span = Span::new(body.span.file, lo, body.span.hi);
    mk(span, || match b {
        LetBinding::Pat(pat, value) => ExpKind::Let { pat, value, body },
        // **Note [Size binders].** `let [n] p = e in body` is `let f [n] p
        // = body in f e`: the local function's size parameters are bound
        // from its argument's shape wherever `p`'s annotations use them
        // (`let [n] (xs: [n]i32) = filter f ys`). The function's name is
        // none a program can write. The uniqueness checker sees through it
        // (a `let` of `p`: the body may consume what is bound outside,
        // `consume.rs`).
        LetBinding::Sizes(sizes, pat, value) => {
            let name: Name = Rc::from(crate::syntax::ast::SIZE_BINDER);
            let callee = var_exp(pat.span, name.clone());
            let vspan = value.span;
            let call = mk(vspan, || ExpKind::Apply(callee, vec![*value]));
            ExpKind::LetFun {
                name,
                name_span: pat.span,
                type_params: sizes,
                params: vec![*pat],
                ret: None,
                value: body,
                body: call,
            }
        }
        LetBinding::Fun(f) => {
            let LetFun {
                name,
                name_span,
                type_params,
                params,
                ret,
                value,
            } = *f;
            ExpKind::LetFun {
                name,
                name_span,
                type_params,
                params,
                ret,
                value,
                body,
            }
        }
        LetBinding::With {
            name,
            name_span,
            index,
            value,
        } => ExpKind::LetWith {
            name,
            name_span,
            index,
            value,
            body,
        },
    })
}

fn finish_loop(lo: u32, pat: Box<Pat>, init: Option<Box<Exp>>, form: Box<LoopForm>, body: Box<Exp>) -> Box<Exp> {
    let span = Span::new(body.span.file, lo, body.span.hi);
    mk(span, || ExpKind::Loop { pat, init, form, body })
}

impl<'a> Parser<'a> {
    /// A full expression: operators, ranges, then any number of `: t` and
    /// `:> t`.
    pub(super) fn parse_exp(&mut self) -> PExp {
        let mut e = self.parse_binop(prec::BACKTICK)?;
        if matches!(
            self.peek(),
            Tok::DotDot | Tok::DotDotDot | Tok::DotDotLt | Tok::DotDotGt
        ) {
            e = self.parse_range_rest(e)?;
        }
        while matches!(self.peek(), Tok::Colon | Tok::ColonGt) {
            e = self.parse_ascription(e)?;
        }
        Ok(e)
    }

    /// An expression without ascriptions (an index, where `:` separates
    /// slice parts).
    fn parse_range(&mut self) -> PExp {
        let e = self.parse_binop(prec::BACKTICK)?;
        if matches!(
            self.peek(),
            Tok::DotDot | Tok::DotDotDot | Tok::DotDotLt | Tok::DotDotGt
        ) {
            return self.parse_range_rest(e);
        }
        Ok(e)
    }

    fn parse_ascription(&mut self, e: Box<Exp>) -> PExp {
        let coerce = self.at(&Tok::ColonGt);
        self.bump();
        let t = self.parse_type()?;
        let span = e.span.to(t.span);
        Ok(mk(span, || {
            if coerce {
                ExpKind::Coerce(e, t)
            } else {
                ExpKind::Ascript(e, t)
            }
        }))
    }

    /// After the start of a range: `..b`, `..<b`, `..>b`, `..b...c`,
    /// `..b..<c`, `..b..>c`.
    fn parse_range_rest(&mut self, start: Box<Exp>) -> PExp {
        let kind_of = |t: &Tok| match t {
            Tok::DotDotDot => Some(RangeEnd::Inclusive),
            Tok::DotDotLt => Some(RangeEnd::UpToExclusive),
            Tok::DotDotGt => Some(RangeEnd::DownToExclusive),
            _ => None,
        };
        let mut second = None;
        let mut kind = RangeEnd::Inclusive;
        let mut end;
        if self.at(&Tok::DotDot) {
            self.bump();
            end = self.parse_binop(prec::BACKTICK)?;
            if let Some(k) = kind_of(self.peek()) {
                self.bump();
                second = Some(end);
                kind = k;
                end = self.parse_binop(prec::BACKTICK)?;
            }
        } else {
            kind = kind_of(self.peek()).unwrap_or(RangeEnd::Inclusive);
            self.bump();
            end = self.parse_binop(prec::BACKTICK)?;
        }
        let span = start.span.to(end.span);
        Ok(mk(span, || ExpKind::Range {
            start,
            second,
            end,
            kind,
        }))
    }

    /// The precedence level of the binary operator (or `with`) at the
    /// current token.
    fn peek_binop(&self) -> Option<u8> {
        if let Some(k) = self.qual_binop_len() {
            return Some(operator_precedence(self.text(self.tok_at(k - 1))).0);
        }
        match self.peek() {
            Tok::Op => {
                let s = self.text(self.tok());
                (s != "!").then(|| operator_precedence(s).0)
            }
            Tok::Backtick => Some(prec::BACKTICK),
            Tok::Kw(Kw::With) => Some(prec::WITH),
            _ => None,
        }
    }

    /// An operator right before `)`: the end of a left section `(e op)`.
    fn at_left_section_end(&self) -> bool {
        if let Some(k) = self.qual_binop_len() {
            return *self.peek_at(k) == Tok::RParen;
        }
        matches!(self.peek(), Tok::Op | Tok::Backtick) && *self.peek_at(1) == Tok::RParen && self.peek_binop().is_some()
    }

    fn bump_binop(&mut self) -> (Var, Span) {
        if let Some(k) = self.qual_binop_len() {
            let mut parts = Vec::new();
            let lo = self.tok().lo;
            let mut hi = lo;
            for i in 0..k {
                let t = self.bump();
                hi = t.hi;
                if i % 2 == 0 {
                    parts.push(self.name_of(&t));
                }
            }
            let name = parts.pop().unwrap_or_else(|| Rc::from(""));
            return (
                Var {
                    name: QualName { quals: parts, name },
                    res: None,
                },
                self.sp(lo, hi),
            );
        }
        let t = self.bump();
        let name = if t.tok == Tok::Backtick {
            let text = self.text(&t);
            let inner = text.get(1..text.len().saturating_sub(1)).unwrap_or("");
            let mut parts: Vec<Name> = inner.split('.').map(Rc::from).collect();
            let name = parts.pop().unwrap_or_else(|| Rc::from(""));
            QualName { quals: parts, name }
        } else {
            QualName::unqual(self.name_of(&t))
        };
        (Var { name, res: None }, self.span_of(&t))
    }

    /// Precedence climbing over operators of level `min` and tighter.
    fn parse_binop(&mut self, min: u8) -> PExp {
        let mut lhs = self.parse_operand()?;
        while let Some(level) = self.peek_binop() {
            if level < min || (level != prec::WITH && self.at_left_section_end()) {
                break;
            }
            let right_assoc = match self.qual_binop_len() {
                Some(k) => operator_precedence(self.text(self.tok_at(k - 1))).1,
                None => *self.peek() == Tok::Op && operator_precedence(self.text(self.tok())).1,
            };
            lhs = if level == prec::WITH {
                self.parse_with(lhs)?
            } else if right_assoc {
                self.parse_right_chain(lhs, level)?
            } else {
                let op = self.bump_binop();
                let rhs = self.parse_binop(level + 1)?;
                mk_binop(lhs, op, rhs)
            };
        }
        Ok(lhs)
    }

    /// A chain of right-associative operators of one level, folded from the
    /// right (iteratively: chains may be long).
    fn parse_right_chain(&mut self, first: Box<Exp>, level: u8) -> PExp {
        let mut operands = vec![first];
        let mut ops = vec![self.bump_binop()];
        loop {
            operands.push(self.parse_binop(level + 1)?);
            if self.peek_binop() == Some(level) && !self.at_left_section_end() {
                ops.push(self.bump_binop());
            } else {
                break;
            }
        }
        let mut acc = operands.pop().expect("a chain has operands");
        while let (Some(l), Some(op)) = (operands.pop(), ops.pop()) {
            acc = mk_binop(l, op, acc);
        }
        Ok(acc)
    }

    /// `lhs with [i, j] = v` or `lhs with x.y = v`; at `with`. Counts as a
    /// nesting level: the index may contain another `with`, and this is
    /// reached from the operator loop, outside [`Parser::parse_operand`].
    fn parse_with(&mut self, lhs: Box<Exp>) -> PExp {
        self.enter()?;
        let e = self.parse_with_inner(lhs)?;
        self.leave();
        Ok(e)
    }

    fn parse_with_inner(&mut self, lhs: Box<Exp>) -> PExp {
        self.bump();
        if !self.at(&Tok::LBracket) && !self.at_field_name() {
            return Err(self.expected("`[` or field name"));
        }
        let steps = self.parse_update_path(false)?;
        self.expect(Tok::Equals, "`=`")?;
        let value = self.parse_binop(prec::WITH + 1)?;
        let span = lhs.span.to(value.span);
        Ok(update_exp(lhs, steps, value, span))
    }

    /// An update path: `[i]`, `f` (unless `after_name`: then `.f`), then
    /// any number of `[i]` and `.f`.
    fn parse_update_path(&mut self, after_name: bool) -> PResult<Vec<UpdateStep>> {
        let mut steps = Vec::new();
        if !after_name && !self.at(&Tok::LBracket) {
            steps.push(UpdateStep::Field(self.parse_field_name()?.0));
        }
        loop {
            if self.at(&Tok::LBracket) {
                steps.push(UpdateStep::Index(self.parse_dim_indices()?.0));
            } else if self.at(&Tok::Dot) {
                self.bump();
                steps.push(UpdateStep::Field(self.parse_field_name()?.0));
            } else {
                return Ok(steps);
            }
        }
    }

    /// The current token can name a field: an identifier or a plain decimal
    /// number.
    pub(super) fn at_field_name(&self) -> bool {
        self.is_field_name(self.tok())
    }

    fn is_field_name(&self, t: &Token) -> bool {
        match t.tok {
            Tok::Ident => self.text(t) != "_",
            Tok::Int { suffix: None, .. } => self.text(t).bytes().all(|c| c.is_ascii_digit()),
            _ => false,
        }
    }

    pub(super) fn parse_field_name(&mut self) -> PResult<(Name, Span)> {
        if self.at_field_name() {
            let t = self.bump();
            Ok((self.name_of(&t), self.span_of(&t)))
        } else {
            Err(self.expected("field name"))
        }
    }

    /// Prefix operators, then a block expression (`if`, `let`, `loop`,
    /// `match`, a lambda, `#[attr] e`) or an application.
    pub(super) fn parse_operand(&mut self) -> PExp {
        self.enter()?;
        let mut prefixes = Vec::new();
        loop {
            let neg = if self.at_op("-") {
                true
            } else if self.at_op("!") {
                false
            } else {
                break;
            };
            prefixes.push((neg, self.bump().lo));
            self.enter()?;
        }
        let mut e = match self.peek() {
            Tok::Kw(Kw::If) => self.parse_if()?,
            Tok::Kw(Kw::Let) => self.parse_let()?,
            Tok::Kw(Kw::Loop) => self.parse_loop()?,
            Tok::Kw(Kw::Match) => self.parse_match()?,
            Tok::Backslash => self.parse_lambda()?,
            Tok::HashBracket => self.parse_attr_exp()?,
            _ => self.parse_app()?,
        };
        while let Some((neg, lo)) = prefixes.pop() {
            self.leave();
            let span = self.sp(lo, e.span.hi);
            e = mk(span, || if neg { ExpKind::Neg(e) } else { ExpKind::Not(e) });
        }
        self.leave();
        Ok(e)
    }

    fn parse_attr_exp(&mut self) -> PExp {
        let a = self.parse_attr()?;
        let body = self.parse_exp()?;
        let span = a.span.to(body.span);
        Ok(mk(span, || ExpKind::Attr(a, body)))
    }

    /// At a qualified binary operator `m.+`, `m.n.<=` (no spaces): the
    /// number of tokens it takes.
    fn qual_binop_len(&self) -> Option<usize> {
        let mut n = 0;
        loop {
            if *self.peek_at(n) != Tok::Ident || (n > 0 && self.tok_at(n).space_before) {
                return None;
            }
            if *self.peek_at(n + 1) != Tok::Dot || self.tok_at(n + 1).space_before || self.tok_at(n + 2).space_before {
                return None;
            }
            match self.peek_at(n + 2) {
                Tok::Op => return (self.text(self.tok_at(n + 2)) != "!").then_some(n + 3),
                Tok::Ident => n += 2,
                _ => return None,
            }
        }
    }

    /// Tokens that start an atom (an application argument).
    /// At `???`, three `?` with nothing between them.
    fn at_hole(&self) -> bool {
        (0..3).all(|i| *self.peek_at(i) == Tok::Question)
            && !self.tok_at(1).space_before
            && !self.tok_at(2).space_before
    }

    fn starts_atom(&self) -> bool {
        if self.qual_binop_len().is_some() {
            return false;
        }
        if self.at_hole() {
            return true;
        }
        matches!(
            self.peek(),
            Tok::Ident
                | Tok::Int { .. }
                | Tok::Float { .. }
                | Tok::Char(_)
                | Tok::Str(_)
                | Tok::LParen
                | Tok::LBracket
                | Tok::LBrace
                | Tok::Constr
                | Tok::Kw(Kw::True | Kw::False)
        )
    }

    /// `f a b`, `assert c e`, `#c a b`, or a single atom.
    fn parse_app(&mut self) -> PExp {
        match self.peek() {
            Tok::Kw(Kw::Assert) => return self.parse_assert(),
            Tok::Constr => return self.parse_constr_app(),
            _ => {}
        }
        let head = self.parse_atom_post()?;
        if !self.starts_atom() && !self.at(&Tok::Backslash) {
            return Ok(head);
        }
        let mut args = Vec::new();
        while self.starts_atom() {
            let a = self.parse_atom_post()?;
            push_exp(&mut args, a);
        }
        // A lambda may be the last argument without parentheses
        // (`tabulate n \i -> f i`); it extends as far as it can.
        if self.at(&Tok::Backslash) {
            let a = self.parse_lambda()?;
            push_exp(&mut args, a);
        }
        let hi = args.last().map_or(head.span.hi, |a| a.span.hi);
        let span = self.sp(head.span.lo, hi);
        Ok(mk(span, || ExpKind::Apply(head, args)))
    }

    fn parse_assert(&mut self) -> PExp {
        let lo = self.bump().lo;
        let cond = self.parse_atom_post()?;
        let e = self.parse_atom_post()?;
        let span = self.sp(lo, e.span.hi);
        Ok(mk(span, || ExpKind::Assert(cond, e)))
    }

    fn parse_constr_app(&mut self) -> PExp {
        let t = self.bump();
        let name = self.constr_name(&t);
        let mut args = Vec::new();
        while self.starts_atom() {
            let a = self.parse_atom_post()?;
            push_exp(&mut args, a);
        }
        let hi = args.last().map_or(t.hi, |a| a.span.hi);
        Ok(mk(self.sp(t.lo, hi), || ExpKind::Constr(name, args)))
    }

    pub(super) fn constr_name(&self, t: &Token) -> Name {
        Rc::from(self.text(t).get(1..).unwrap_or(""))
    }

    /// An atom followed by indexing `[...]` (no space before `[`) and fields
    /// `.x` / `.0` (no spaces around the `.`). On a bare name the fields
    /// extend the name (`r.x.y`, `i32.sum`, also `i32.+`); on anything else
    /// they project.
    fn parse_atom_post(&mut self) -> PExp {
        let mut bare_name = self.at(&Tok::Ident);
        let mut e = match self.peek() {
            Tok::LParen => self.parse_paren()?,
            _ => self.parse_atom()?,
        };
        loop {
            let t = self.tok();
            if t.tok == Tok::LBracket && !t.space_before {
                e = self.parse_index(e)?;
                bare_name = false;
            } else if t.tok == Tok::Dot
                && !t.space_before
                && !self.tok_at(1).space_before
                && self.is_field_name(self.tok_at(1))
            {
                e = self.parse_field(e, bare_name);
            } else if bare_name
                && t.tok == Tok::Dot
                && !t.space_before
                && *self.peek_at(1) == Tok::LParen
                && !self.tok_at(1).space_before
            {
                // A local open `m.(e)`.
                self.bump();
                let inner = self.parse_paren()?;
                let span = self.sp(e.span.lo, inner.span.hi);
                let path: Vec<Name> = match &e.kind {
                    ExpKind::Var(v) => v
                        .name
                        .quals
                        .iter()
                        .chain(std::iter::once(&v.name.name))
                        .cloned()
                        .collect(),
                    _ => return Err(self.expected("a module name before `.(`")),
                };
                e = mk(span, || ExpKind::OpenIn(path, inner));
                bare_name = false;
            } else if bare_name
                && t.tok == Tok::Dot
                && !t.space_before
                && *self.peek_at(1) == Tok::Op
                && !self.tok_at(1).space_before
            {
                // A qualified operator used as a value: `(i32.+)`.
                e = self.parse_field(e, true);
                bare_name = false;
            } else {
                break;
            }
        }
        Ok(e)
    }

    fn parse_index(&mut self, e: Box<Exp>) -> PExp {
        let (index, hi) = self.parse_dim_indices()?;
        let span = self.sp(e.span.lo, hi);
        Ok(mk(span, || ExpKind::Index(e, index)))
    }

    /// `.x` (or `.+` on a name) after `e` (checked by the caller).
    fn parse_field(&mut self, mut e: Box<Exp>, bare_name: bool) -> Box<Exp> {
        self.bump();
        let f = self.bump();
        let field = self.name_of(&f);
        let span = self.sp(e.span.lo, f.hi);
        match &mut e.kind {
            ExpKind::Var(v) if bare_name => {
                let old = std::mem::replace(&mut v.name.name, field);
                v.name.quals.push(old);
                e.span = span;
                e
            }
            _ => mk(span, || ExpKind::Project(e, field)),
        }
    }

    /// A name, literal, array, record or constructor (not `(`).
    fn parse_atom(&mut self) -> PExp {
        match self.peek() {
            Tok::Ident if self.text(self.tok()) != "_" => {
                let t = self.bump();
                let name = QualName::unqual(self.name_of(&t));
                Ok(mk(self.span_of(&t), || ExpKind::Var(Var { name, res: None })))
            }
            Tok::Int { .. } | Tok::Float { .. } | Tok::Char(_) | Tok::Str(_) | Tok::Kw(Kw::True | Kw::False) => {
                let t = self.bump();
                let span = self.span_of(&t);
                match literal_of(t.tok) {
                    Some(lit) => Ok(mk(span, || ExpKind::Lit(lit))),
                    None => Err(self.expected("expression")),
                }
            }
            Tok::LParen => self.parse_paren(),
            Tok::LBracket => self.parse_array_lit(),
            Tok::LBrace => self.parse_record(),
            Tok::Constr => {
                let t = self.bump();
                let name = self.constr_name(&t);
                Ok(mk(self.span_of(&t), || ExpKind::Constr(name, Vec::new())))
            }
            Tok::Question if self.at_hole() => {
                let lo = self.bump().lo;
                self.bump();
                let hi = self.bump().hi;
                Ok(mk(self.sp(lo, hi), || ExpKind::Hole))
            }
            _ => Err(self.expected("expression")),
        }
    }

    fn parse_array_lit(&mut self) -> PExp {
        let lo = self.bump().lo;
        let mut elems = Vec::new();
        if !self.at(&Tok::RBracket) {
            loop {
                let e = self.parse_exp()?;
                push_exp(&mut elems, e);
                if !self.at(&Tok::Comma) {
                    break;
                }
                self.bump();
            }
        }
        let hi = self.expect(Tok::RBracket, "`,` or `]`")?.hi;
        Ok(mk(self.sp(lo, hi), || ExpKind::ArrayLit(elems)))
    }

    /// After `(`: unit, a parenthesised expression, a tuple, an operator
    /// section or a projection section.
    fn parse_paren(&mut self) -> PExp {
        let lo = self.bump().lo;
        if self.at(&Tok::RParen) {
            let hi = self.bump().hi;
            return Ok(mk(self.sp(lo, hi), || ExpKind::Tuple(Vec::new())));
        }
        if self.at(&Tok::Dot) {
            return self.parse_project_section(lo);
        }
        // `(op e)`, also with a qualified operator (`(f64./ 2)` is `\x -> x
        // f64./ 2`, not `(f64./) 2`).
        if (matches!(self.peek(), Tok::Op | Tok::Backtick)
            && self.peek_binop().is_some()
            && (*self.peek_at(1) == Tok::RParen || !self.at_op("-")))
            || self.qual_binop_len().is_some_and(|k| *self.peek_at(k) != Tok::RParen)
        {
            return self.parse_right_section(lo);
        }
        let first = self.parse_exp()?;
        if self.at_left_section_end() {
            let op = self.bump_binop();
            let hi = self.bump().hi;
            return Ok(mk_section(op, Some(first), None, self.sp(lo, hi)));
        }
        if self.at(&Tok::Comma) {
            return self.parse_tuple_rest(lo, first);
        }
        let hi = self.expect(Tok::RParen, "`)`")?.hi;
        let mut e = first;
        e.span = self.sp(lo, hi);
        Ok(e)
    }

    /// `(op)` and `(op e)` (`(- e)` is a negation, not a section).
    fn parse_right_section(&mut self, lo: u32) -> PExp {
        let op = self.bump_binop();
        let right = if self.at(&Tok::RParen) {
            None
        } else {
            Some(self.parse_exp()?)
        };
        let hi = self.expect(Tok::RParen, "`)`")?.hi;
        Ok(mk_section(op, None, right, self.sp(lo, hi)))
    }

    /// `(.x.0)`, and sections with indices: `(.[i, j])` is `\a -> a[i, j]`,
    /// `(.[0].f)` and `(.a[1])` likewise (the parameter has a name no
    /// program can write, so the indices cannot mean it). A section of
    /// fields only stays a `ProjectSection`, whose type the checker infers
    /// from its use.
    fn parse_project_section(&mut self, lo: u32) -> PExp {
        let mut steps = Vec::new();
        loop {
            if self.at(&Tok::Dot) {
                self.bump();
                if self.at(&Tok::LBracket) {
                    steps.push(UpdateStep::Index(self.parse_dim_indices()?.0));
                } else {
                    steps.push(UpdateStep::Field(self.parse_field_name()?.0));
                }
            } else if self.at(&Tok::LBracket) && !steps.is_empty() {
                steps.push(UpdateStep::Index(self.parse_dim_indices()?.0));
            } else {
                break;
            }
        }
        let hi = self.expect(Tok::RParen, "`)`")?.hi;
        let span = self.sp(lo, hi);
        if let Some(names) = field_path(&steps) {
            return Ok(mk(span, || ExpKind::ProjectSection(names)));
        }
        let name: Name = Rc::from("(.[])");
        let mut body = var_exp(span, name.clone());
        for step in steps {
            body = match step {
                UpdateStep::Field(f) => mk(span, || ExpKind::Project(body, f)),
                UpdateStep::Index(index) => mk(span, || ExpKind::Index(body, index)),
            };
        }
        let param = Pat {
            kind: PatKind::Id(name),
            span,
            ty: None,
        };
        Ok(mk(span, || ExpKind::Lambda {
            params: vec![param],
            ret: None,
            body,
        }))
    }

    fn parse_tuple_rest(&mut self, lo: u32, first: Box<Exp>) -> PExp {
        let mut elems = Vec::new();
        push_exp(&mut elems, first);
        while self.at(&Tok::Comma) {
            self.bump();
            let e = self.parse_exp()?;
            push_exp(&mut elems, e);
        }
        let hi = self.expect(Tok::RParen, "`,` or `)`")?.hi;
        Ok(mk(self.sp(lo, hi), || ExpKind::Tuple(elems)))
    }

    /// `{x = e, y}`
    fn parse_record(&mut self) -> PExp {
        let lo = self.bump().lo;
        let mut fields = Vec::new();
        if !self.at(&Tok::RBrace) {
            loop {
                let (name, nspan) = self.parse_field_name()?;
                if self.at(&Tok::Equals) {
                    self.bump();
                    let e = self.parse_exp()?;
                    push_field(&mut fields, name, nspan, e);
                } else {
                    fields.push(RecordField::Implicit(name, nspan, None));
                }
                if !self.at(&Tok::Comma) {
                    break;
                }
                self.bump();
            }
        }
        let hi = self.expect(Tok::RBrace, "`,` or `}`")?.hi;
        Ok(mk(self.sp(lo, hi), || ExpKind::Record(fields)))
    }

    /// `[i, j:k:s, :]`; returns the end of the `]`.
    pub(super) fn parse_dim_indices(&mut self) -> PResult<(Vec<DimIndex>, u32)> {
        self.expect(Tok::LBracket, "`[`")?;
        let mut v = Vec::new();
        loop {
            self.parse_dim_index(&mut v)?;
            if !self.at(&Tok::Comma) {
                break;
            }
            self.bump();
        }
        let hi = self.expect(Tok::RBracket, "`,` or `]`")?.hi;
        Ok((v, hi))
    }

    fn parse_dim_index(&mut self, out: &mut Vec<DimIndex>) -> PResult<()> {
        let start = if self.at(&Tok::Colon) {
            None
        } else {
            let e = self.parse_range()?;
            if !self.at(&Tok::Colon) {
                finish_fix(out, e);
                return Ok(());
            }
            Some(e)
        };
        self.bump();
        let end = if matches!(self.peek(), Tok::Colon | Tok::Comma | Tok::RBracket) {
            None
        } else {
            Some(self.parse_range()?)
        };
        let mut stride = None;
        if self.at(&Tok::Colon) {
            self.bump();
            if !matches!(self.peek(), Tok::Comma | Tok::RBracket) {
                stride = Some(self.parse_range()?);
            }
        }
        finish_slice(out, start, end, stride);
        Ok(())
    }

    /// `if c then a else b`; `else if` chains are parsed iteratively.
    fn parse_if(&mut self) -> PExp {
        let mut parts = Vec::new();
        let mut e = loop {
            let lo = self.bump().lo;
            let cond = self.parse_exp()?;
            self.expect_kw(Kw::Then)?;
            let then = self.parse_exp()?;
            self.expect_kw(Kw::Else)?;
            parts.push((lo, cond, then));
            if !self.at_kw(Kw::If) {
                break self.parse_exp()?;
            }
        };
        while let Some((lo, cond, then)) = parts.pop() {
            let span = self.sp(lo, e.span.hi);
            e = mk(span, || ExpKind::If { cond, then, els: e });
        }
        Ok(e)
    }

    /// A chain of `let`s, each followed by `in` or directly by the next
    /// `let`, then the body (parsed iteratively: chains may be long).
    fn parse_let(&mut self) -> PExp {
        let mut binds = Vec::new();
        let mut e = loop {
            let lo = self.bump().lo;
            let b = self.parse_let_binding()?;
            binds.push((lo, b));
            if self.at_kw(Kw::In) {
                self.bump();
                if !self.at_kw(Kw::Let) {
                    break self.parse_exp()?;
                }
            } else if self.at_attrs_then_let() {
                // `let x = e #[attr] let y = ...`: the attribute applies to
                // the rest of the chain.
                break self.parse_exp()?;
            } else if !self.at_kw(Kw::Let) {
                return Err(self.expected("`in`"));
            }
        };
        while let Some((lo, b)) = binds.pop() {
            e = finish_let(lo, b, e);
        }
        Ok(e)
    }

    /// At one or more attributes `#[...]` followed by `let`.
    fn at_attrs_then_let(&self) -> bool {
        let mut i = 0;
        while *self.peek_at(i) == Tok::HashBracket {
            let mut depth = 0usize;
            loop {
                match self.peek_at(i) {
                    Tok::HashBracket | Tok::LBracket => depth += 1,
                    Tok::RBracket => depth -= 1,
                    Tok::Eof | Tok::Error => return false,
                    _ => {}
                }
                i += 1;
                if depth == 0 {
                    break;
                }
            }
        }
        i > 0 && *self.peek_at(i) == Tok::Kw(Kw::Let)
    }

    /// After `let`: `p = e`, `f params [: t] = e`, `x[i] = e`.
    fn parse_let_binding(&mut self) -> PResult<LetBinding> {
        let (t0, t1) = (self.tok(), self.tok_at(1));
        let named = t0.tok == Tok::Ident && self.text(t0) != "_";
        let with = named && matches!(t1.tok, Tok::LBracket | Tok::Dot) && !t1.space_before;
        let fun = (named
            && matches!(
                t1.tok,
                Tok::Ident | Tok::LParen | Tok::LBrace | Tok::Tick | Tok::LBracket
            ))
            || (t0.tok == Tok::LParen && t1.tok == Tok::Op && *self.peek_at(2) == Tok::RParen);
        if with {
            // `let a[i] = v`, `let r.f = v`, `let xs[0].f = v`: sugar for
            // `let a = a with ... = v`.
            let (name, name_span) = self.expect_name("name")?;
            let mut steps = self.parse_update_path(true)?;
            self.expect(Tok::Equals, "`=`")?;
            let value = self.parse_exp()?;
            if let [UpdateStep::Index(_)] = steps.as_slice() {
                let Some(UpdateStep::Index(index)) = steps.pop() else {
                    unreachable!("matched one index")
                };
                return Ok(LetBinding::With {
                    name,
                    name_span,
                    index,
                    value,
                });
            }
            let span = name_span.to(value.span);
            let update = update_exp(var_exp(name_span, name.clone()), steps, value, span);
            let pat = Box::new(Pat {
                kind: PatKind::Id(name),
                span: name_span,
                ty: None,
            });
            return Ok(LetBinding::Pat(pat, update));
        }
        if fun {
            return Ok(LetBinding::Fun(self.parse_let_fun()?));
        }
        let sizes = if self.at(&Tok::LBracket) {
            self.parse_type_params(false)?
        } else {
            Vec::new()
        };
        if let Some(TypeParam::Type { span, .. }) = sizes.iter().find(|tp| matches!(tp, TypeParam::Type { .. })) {
            return Err(Box::new(crate::diag::Diag::new(
                *span,
                "a `let` binds sizes (`[n]`), not type parameters",
            )));
        }
        if !sizes.is_empty() {
            let pat = self.parse_pat()?;
            self.expect(Tok::Equals, "`=`")?;
            let value = self.parse_exp()?;
            return Ok(LetBinding::Sizes(sizes, pat, value));
        }
        let pat = self.parse_pat()?;
        self.expect(Tok::Equals, "`=`")?;
        let value = self.parse_exp()?;
        Ok(LetBinding::Pat(pat, value))
    }

    fn parse_let_fun(&mut self) -> PResult<Box<LetFun>> {
        let (name, name_span) = self.parse_binding_name()?;
        let type_params = self.parse_type_params(false)?;
        let mut params = Vec::new();
        while self.starts_pat_atom() {
            params.push(*self.parse_pat_atom()?);
        }
        let ret = if self.at(&Tok::Colon) {
            self.bump();
            Some(self.parse_type()?)
        } else {
            None
        };
        self.expect(Tok::Equals, "`=`")?;
        let value = self.parse_exp()?;
        Ok(Box::new(LetFun {
            name,
            name_span,
            type_params,
            params,
            ret,
            value,
        }))
    }

    /// `loop p [= e] (for i < n | for p in xs | while c) do body`
    fn parse_loop(&mut self) -> PExp {
        let lo = self.bump().lo;
        let pat = self.parse_pat()?;
        let init = if self.at(&Tok::Equals) {
            self.bump();
            Some(self.parse_exp()?)
        } else {
            None
        };
        let form = self.parse_loop_form()?;
        self.expect_kw(Kw::Do)?;
        let body = self.parse_exp()?;
        Ok(finish_loop(lo, pat, init, form, body))
    }

    fn parse_loop_form(&mut self) -> PResult<Box<LoopForm>> {
        match self.peek() {
            Tok::Kw(Kw::For) => {
                self.bump();
                if self.at(&Tok::Ident) && self.op_at(1, "<") {
                    let i = self.bump();
                    self.bump();
                    let bound = self.parse_exp()?;
                    Ok(Box::new(LoopForm::For(self.name_of(&i), self.span_of(&i), bound)))
                } else {
                    let p = self.parse_pat()?;
                    self.expect_kw(Kw::In)?;
                    let xs = self.parse_exp()?;
                    Ok(Box::new(LoopForm::ForIn(*p, xs)))
                }
            }
            Tok::Kw(Kw::While) => {
                self.bump();
                Ok(Box::new(LoopForm::While(self.parse_exp()?)))
            }
            _ => Err(self.expected("`for` or `while`")),
        }
    }

    /// `\p1 p2 [: t] -> e` (the return type has no top-level arrow).
    fn parse_lambda(&mut self) -> PExp {
        let lo = self.bump().lo;
        let mut params = Vec::new();
        while self.starts_pat_atom() {
            params.push(*self.parse_pat_atom()?);
        }
        if params.is_empty() {
            return Err(self.expected("parameter"));
        }
        let ret = if self.at(&Tok::Colon) {
            self.bump();
            Some(self.parse_type_term()?)
        } else {
            None
        };
        self.expect(Tok::Arrow, "`->`")?;
        let body = self.parse_exp()?;
        let span = self.sp(lo, body.span.hi);
        Ok(mk(span, || ExpKind::Lambda { params, ret, body }))
    }

    /// `match e case p -> e ...`
    fn parse_match(&mut self) -> PExp {
        let lo = self.bump().lo;
        let scrut = self.parse_exp()?;
        let mut cases = Vec::new();
        while self.at_kw(Kw::Case) {
            self.bump();
            let p = self.parse_pat()?;
            self.expect(Tok::Arrow, "`->`")?;
            let e = self.parse_exp()?;
            push_case(&mut cases, p, e);
        }
        let Some((_, last)) = cases.last() else {
            return Err(self.expected("`case`"));
        };
        let span = self.sp(lo, last.span.hi);
        Ok(mk(span, || ExpKind::Match(scrut, cases)))
    }
}

fn push_field(v: &mut Vec<RecordField>, name: Name, span: Span, e: Box<Exp>) {
    v.push(RecordField::Explicit(name, span, *e));
}

fn push_case(v: &mut Vec<(Pat, Exp)>, p: Box<Pat>, e: Box<Exp>) {
    v.push((*p, *e));
}
