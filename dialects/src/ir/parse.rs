//! The parser for IR text: MLIR's generic operation syntax and our pretty
//! form (bare op names, Futhark-spelled types), and the custom form of
//! `builtin.module` that `mlir-opt` prints (`module { ... }`). Errors are
//! diagnostics pointing at the offending token.
//!
//! Value names are scoped by region: a name defined in a region is gone
//! after it. Forward references become placeholders, resolved when the
//! name is defined; one never defined is an error. A size in a type is a
//! name (`[%n]f32`) or a definition number (`[$3]f32`, Note [Sizes in
//! types across mlir-opt]); either must be defined before the type.

use std::borrow::Cow;

use smallvec::SmallVec;

use super::arena::FastMap;
use super::lexer::{unescape, Lexer, Tok, Token};
use super::{
    Attr, AttrKind, BlockId, Context, Diagnostic, Dim, Location, MemSpace, OpId, RegionId, Scalar, SourceId, Symbol,
    Type, TypeKind, Value, ValueDef,
};

type PResult<T> = Result<T, Diagnostic>;

/// An op's operand types and result types.
type Signature = (SmallVec<[Type; 4]>, SmallVec<[Type; 2]>);

/// A name bound to a value or to the results of a multi-result op.
#[derive(Copy, Clone)]
struct Binding {
    first: Value,
    count: u32,
}

/// One definition in text order, as `$N` counts them (Note [Sizes in
/// types across mlir-opt]).
#[derive(Copy, Clone)]
enum Definition {
    /// An op whose results are named but which is not built yet: its
    /// regions and signature are being read.
    Pending,
    /// Defined and in scope.
    Open(Binding),
    /// Defined in a region that has ended.
    Closed,
}

struct Parser<'c, 's> {
    ctx: &'c mut Context,
    source: SourceId,
    lex: Lexer<'s>,
    tok: Token,
    names: FastMap<&'s str, Binding>,
    /// Undo log: (name, previous binding), so region scopes can be popped.
    undo: Vec<(&'s str, Option<Binding>)>,
    /// Forward references: full reference text (`%x`, `%x#1`) → placeholder.
    forward: FastMap<&'s str, (Value, u32)>,
    /// Every definition so far in text order, indexed by `$N`.
    defs: Vec<Definition>,
    /// How many regions, types and attributes enclose the current token;
    /// see `MAX_NESTING`.
    nesting: u32,
}

/// The deepest nesting of regions, types and attributes the parser accepts.
/// The parser is recursive: without a bound, input like `((((...` would
/// overflow the stack (an abort, not a diagnostic). The bound leaves room
/// for unoptimised builds on a 2 MiB thread stack.
const MAX_NESTING: u32 = 100;

impl Context {
    /// Parses the text of `source` into a `builtin.module` (wrapping the
    /// top-level ops in one unless the text is a single module).
    pub fn parse_source(&mut self, source: SourceId) -> Result<OpId, Diagnostic> {
        let text = self.source(source).text.clone();
        let mut p = Parser {
            ctx: self,
            source,
            lex: Lexer::new(&text),
            tok: Token {
                kind: Tok::Eof,
                start: 0,
                end: 0,
            },
            names: FastMap::default(),
            undo: Vec::new(),
            forward: FastMap::default(),
            defs: Vec::new(),
            nesting: 0,
        };
        p.bump();
        let module = p.top_level()?;
        Ok(module)
    }

    /// Registers `text` as a source named `name` and parses it.
    pub fn parse_str(&mut self, name: &str, text: &str) -> Result<OpId, Diagnostic> {
        let id = self.add_source(name, text);
        self.parse_source(id)
    }
}

impl<'c, 's> Parser<'c, 's> {
    fn bump(&mut self) -> Token {
        let t = self.tok;
        self.tok = self.lex.next_token();
        t
    }
    fn text(&self, t: Token) -> &'s str {
        &self.lex.src[t.start as usize..t.end as usize]
    }
    fn loc(&self, t: Token) -> Location {
        if t.kind == Tok::Eof {
            // Point just after the last text, not at a line past the end.
            let end = self.lex.src.trim_end().len() as u32;
            return Location::Span {
                source: self.source,
                start: end,
                end: end + 1,
            };
        }
        Location::Span {
            source: self.source,
            start: t.start,
            end: t.end.max(t.start + 1),
        }
    }

    fn err_at<T>(&self, t: Token, msg: impl Into<String>) -> PResult<T> {
        Err(Diagnostic::error(self.loc(t), msg))
    }
    fn found(&self) -> String {
        match self.tok.kind {
            Tok::Eof => "end of input".to_string(),
            Tok::Error => format!("invalid input '{}'", self.text(self.tok)),
            _ => format!("'{}'", self.text(self.tok)),
        }
    }
    fn expected<T>(&self, what: &str) -> PResult<T> {
        self.err_at(self.tok, format!("expected {what}, found {}", self.found()))
    }
    fn eat(&mut self, k: Tok) -> bool {
        if self.tok.kind == k {
            self.bump();
            true
        } else {
            false
        }
    }
    fn expect(&mut self, k: Tok) -> PResult<Token> {
        if self.tok.kind == k {
            Ok(self.bump())
        } else {
            self.expected(k.describe())
        }
    }
    fn is_ident(&self, s: &str) -> bool {
        self.tok.kind == Tok::Ident && self.text(self.tok) == s
    }

    // ----- structure -------------------------------------------------------

    fn top_level(&mut self) -> PResult<OpId> {
        let region = self.ctx.create_region();
        let block = self.ctx.append_block(region, &[]);
        let start = self.tok;
        while self.tok.kind != Tok::Eof {
            self.operation(block)?;
        }
        self.resolve_forward_refs()?;
        let ops: Vec<OpId> = self.ctx.block_ops(block).collect();
        if ops.len() == 1 && self.ctx.op_name(ops[0]) == "builtin.module" {
            self.ctx.detach_op(ops[0]);
            return Ok(ops[0]);
        }
        let name = self.ctx.sym("builtin.module");
        let loc = self.loc(start);
        Ok(self.ctx.create_op(name, &[], &[], &[], vec![region], loc))
    }

    fn resolve_forward_refs(&mut self) -> PResult<()> {
        if let Some((name, &(_, at))) = self.forward.iter().min_by_key(|(_, (_, at))| *at) {
            let t = Token {
                kind: Tok::Percent,
                start: at,
                end: at + name.len() as u32,
            };
            return self.err_at(t, format!("use of undefined value '{name}'"));
        }
        Ok(())
    }

    fn define(&mut self, name: &'s str, b: Binding, at: Token) -> PResult<()> {
        // Without forward references (the common case) there is nothing to
        // resolve; skip building the `%x#i` names.
        for i in 0..if self.forward.is_empty() { 0 } else { b.count } {
            let full = if b.count == 1 && i == 0 {
                name.to_string()
            } else {
                format!("{name}#{i}")
            };
            if let Some((ph, _)) = self.forward.remove(full.as_str()) {
                let real = Value(b.first.0 + i);
                if self.ctx.value_type(ph) != self.ctx.value_type(real) {
                    return self.err_at(
                        at,
                        format!(
                            "definition of '{full}' has type {}, but an earlier use expects {}",
                            self.ctx.type_to_string(self.ctx.value_type(real)),
                            self.ctx.type_to_string(self.ctx.value_type(ph))
                        ),
                    );
                }
                self.ctx.replace_all_uses(ph, real);
                let t = self.ctx.value_type(ph);
                self.ctx.unlink_type_users(ph, t);
            }
        }
        let prev = self.names.insert(name, b);
        self.undo.push((name, prev));
        Ok(())
    }

    fn pop_scope(&mut self, to: usize) {
        while self.undo.len() > to {
            let (name, prev) = self.undo.pop().expect("undo log is longer than `to`");
            match prev {
                Some(b) => self.names.insert(name, b),
                None => self.names.remove(name),
            };
        }
    }

    /// Looks up a use like `%x` or `%x#1`; `None` if not (yet) defined.
    fn lookup(&self, t: Token) -> PResult<Option<Value>> {
        let full = self.text(t);
        let (name, idx) = match full.split_once('#') {
            Some((n, i)) => match i.parse::<u32>() {
                Ok(i) => (n, Some(i)),
                Err(_) => return self.err_at(t, format!("invalid result number in '{full}'")),
            },
            None => (full, None),
        };
        let Some(b) = self.names.get(name) else {
            return Ok(None);
        };
        let i = idx.unwrap_or(0);
        if i >= b.count {
            return self.err_at(
                t,
                format!("'{name}' has {} results, so '{full}' does not exist", b.count),
            );
        }
        Ok(Some(Value(b.first.0 + i)))
    }

    /// Looks up a definition number like `$3` or `$3#1`; `None` if not
    /// (yet) defined or no longer in scope (Note [Sizes in types across
    /// mlir-opt]).
    fn definition(&self, t: Token) -> PResult<Option<Value>> {
        let full = self.text(t);
        let (n, idx) = full[1..].split_once('#').unwrap_or((&full[1..], "0"));
        let (Ok(n), Ok(i)) = (n.parse::<usize>(), idx.parse::<u32>()) else {
            return self.err_at(t, format!("invalid definition number '{full}'"));
        };
        let Some(Definition::Open(b)) = self.defs.get(n) else {
            return Ok(None);
        };
        if i >= b.count {
            return self.err_at(
                t,
                format!("definition ${n} has {} results, so '{full}' does not exist", b.count),
            );
        }
        Ok(Some(Value(b.first.0 + i)))
    }

    /// A use whose type is known: resolves to the value or a placeholder.
    fn resolve_use(&mut self, t: Token, ty: Type) -> PResult<Value> {
        let full = self.text(t);
        if let Some(v) = self.lookup(t)? {
            let vt = self.ctx.value_type(v);
            if vt != ty {
                return self.err_at(
                    t,
                    format!(
                        "'{full}' has type {}, but its use here says {}",
                        self.ctx.type_to_string(vt),
                        self.ctx.type_to_string(ty)
                    ),
                );
            }
            return Ok(v);
        }
        if let Some(&(ph, _)) = self.forward.get(full) {
            if self.ctx.value_type(ph) != ty {
                return self.err_at(t, format!("'{full}' is used with two different types"));
            }
            return Ok(ph);
        }
        let ph = self.ctx.new_value(ty, ValueDef::Placeholder);
        self.forward.insert(full, (ph, t.start));
        Ok(ph)
    }

    /// `results = op-body`, appended to `block`.
    fn operation(&mut self, block: BlockId) -> PResult<OpId> {
        let first = self.tok;
        if self.is_ident("module") {
            return self.module_custom_form(block);
        }
        let mut result_names: SmallVec<[(Token, u32); 2]> = SmallVec::new();
        if self.tok.kind == Tok::Percent {
            loop {
                let t = self.expect(Tok::Percent)?;
                if self.text(t).contains('#') {
                    return self.err_at(t, "expected a result name without '#'");
                }
                let mut count = 1;
                if self.eat(Tok::Colon) {
                    let n = self.expect(Tok::Int)?;
                    count = match self.text(n).parse::<u32>() {
                        Ok(c) if c > 0 => c,
                        _ => return self.err_at(n, "expected a positive result count"),
                    };
                }
                result_names.push((t, count));
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
            self.expect(Tok::Equal)?;
        }
        // The op's number comes before those of the values in its regions,
        // as the printer gives them.
        let def_slot = (!result_names.is_empty()).then(|| {
            self.defs.push(Definition::Pending);
            self.defs.len() - 1
        });
        let name_tok = self.tok;
        let name: Cow<'s, str> = match self.tok.kind {
            Tok::String => {
                let t = self.bump();
                self.string_body(t)?
            }
            Tok::Ident => {
                let t = self.bump();
                Cow::Borrowed(self.text(t))
            }
            _ => return self.expected("an operation name (\"dialect.op\")"),
        };
        if !name.contains('.') {
            return self.err_at(name_tok, format!("operation name '{name}' must be 'dialect.op'"));
        }
        if self.ctx.registry().op(&name).is_none() && !self.ctx.allow_unregistered {
            let dialect = name.split('.').next().unwrap_or_default();
            let msg = if self.ctx.registry().dialect(dialect).is_some() {
                format!("unknown operation '{name}': dialect '{dialect}' has no such op")
            } else {
                format!("unknown dialect '{dialect}' in operation '{name}'")
            };
            let mut d = Diagnostic::error(self.loc(name_tok), msg);
            if let Some(close) = closest(&name, self.ctx.registry().op_names()) {
                d = d.with_help(format!("did you mean '{close}'?"));
            } else {
                d = d.with_help("pass --allow-unregistered-dialect to accept unknown ops");
            }
            return Err(d);
        }
        // Operands.
        self.expect(Tok::LParen)?;
        let mut operand_toks: SmallVec<[Token; 4]> = SmallVec::new();
        if self.tok.kind != Tok::RParen {
            loop {
                operand_toks.push(self.expect(Tok::Percent)?);
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
        }
        self.expect(Tok::RParen)?;
        if self.tok.kind == Tok::LBracket {
            return self.err_at(
                self.tok,
                "successor blocks are not supported: futmlir regions are structured",
            );
        }
        if self.tok.kind == Tok::Less {
            return self.err_at(self.tok, "properties ('<{...}>') are not supported: use attributes");
        }
        // Attributes may come before the regions (the pretty form) or after
        // them (the generic form), not both.
        let mut attrs = Vec::new();
        let attrs_first = self.tok.kind == Tok::LBrace;
        if attrs_first {
            attrs = self.attr_dict()?;
        }
        // Regions.
        let mut regions = Vec::new();
        if self.tok.kind == Tok::LParen {
            self.bump();
            loop {
                regions.push(self.region()?);
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
            self.expect(Tok::RParen)?;
        }
        if self.tok.kind == Tok::LBrace {
            if attrs_first {
                return self.err_at(self.tok, "attributes are given twice (before and after the regions)");
            }
            attrs = self.attr_dict()?;
        }
        // Signature.
        self.expect(Tok::Colon)?;
        let sig_tok = self.tok;
        let (inputs, outputs) = self.signature()?;
        if inputs.len() != operand_toks.len() {
            return self.err_at(
                sig_tok,
                format!(
                    "{} operands present, but the signature names {} types",
                    operand_toks.len(),
                    inputs.len()
                ),
            );
        }
        let declared: u32 = result_names.iter().map(|r| r.1).sum();
        if !result_names.is_empty() && declared as usize != outputs.len() {
            return self.err_at(
                first,
                format!(
                    "{declared} results named, but the signature has {} result types",
                    outputs.len()
                ),
            );
        }
        if result_names.is_empty() && !outputs.is_empty() {
            // Allowed in MLIR (results unnamed); keep them.
        }
        let mut operands: SmallVec<[Value; 4]> = SmallVec::with_capacity(operand_toks.len());
        for (t, ty) in operand_toks.into_iter().zip(inputs) {
            operands.push(self.resolve_use(t, ty)?);
        }
        let mut location = Location::Span {
            source: self.source,
            start: first.start,
            end: name_tok.end,
        };
        if self.is_ident("loc") {
            location = self.location()?;
        }
        let name = self.ctx.sym(&name);
        let op = self.ctx.create_op(name, &operands, &outputs, &attrs, regions, location);
        self.ctx.insert_op(block, None, op);
        if let Some(slot) = def_slot {
            self.defs[slot] = Definition::Open(Binding {
                first: self.ctx.result(op, 0),
                count: declared,
            });
        }
        let mut next = 0u32;
        for (t, count) in result_names {
            let b = Binding {
                first: self.ctx.result(op, next as usize),
                count,
            };
            self.define(self.text(t), b, t)?;
            next += count;
        }
        Ok(op)
    }

    /// MLIR's custom form of `builtin.module`, which `mlir-opt` prints
    /// unless given `--mlir-print-op-generic`: `module @name attributes
    /// {...} {...}`, name and attributes optional.
    fn module_custom_form(&mut self, block: BlockId) -> PResult<OpId> {
        let first = self.bump();
        let mut attrs = Vec::new();
        if self.tok.kind == Tok::At {
            let t = self.tok;
            let name = self.attr()?;
            let AttrKind::SymbolRef(s) = *self.ctx.attr_kind(name) else {
                return self.err_at(t, "expected the module's name ('@name')");
            };
            let key = self.ctx.sym("sym_name");
            attrs.push((key, self.ctx.intern_attr(AttrKind::String(s))));
        }
        if self.is_ident("attributes") {
            self.bump();
            let at = self.tok;
            for (k, a) in self.attr_dict()? {
                if attrs.iter().any(|&(k2, _)| k2 == k) {
                    return self.err_at(at, format!("attribute '{}' is given twice", self.ctx.str(k)));
                }
                attrs.push((k, a));
            }
        }
        if self.tok.kind != Tok::LBrace {
            return self.expected("'{' to open the module's body");
        }
        let region = self.region()?;
        let mut location = Location::Span {
            source: self.source,
            start: first.start,
            end: first.end,
        };
        if self.is_ident("loc") {
            location = self.location()?;
        }
        let name = self.ctx.sym("builtin.module");
        let op = self.ctx.create_op(name, &[], &[], &attrs, vec![region], location);
        self.ctx.insert_op(block, None, op);
        Ok(op)
    }

    /// The body of string token `t`, unescaped; borrowed when it has no escapes.
    fn string_body(&self, t: Token) -> PResult<Cow<'s, str>> {
        let body = &self.text(t)[1..self.text(t).len() - 1];
        if !body.contains('\\') {
            return Ok(Cow::Borrowed(body));
        }
        match unescape(body) {
            Some(s) => Ok(Cow::Owned(s)),
            None => self.err_at(t, "invalid escape in string"),
        }
    }

    /// An op's signature: a function type, read without interning it (the
    /// op keeps only its operand and result types).
    fn signature(&mut self) -> PResult<Signature> {
        let sig_tok = self.tok;
        if self.tok.kind != Tok::LParen {
            self.ty()?;
            return self.err_at(sig_tok, "expected a function type '(operand types) -> result types'");
        }
        self.bump();
        let mut inputs = SmallVec::new();
        self.type_list_into(Tok::RParen, &mut inputs)?;
        self.expect(Tok::Arrow)?;
        let mut results = SmallVec::new();
        if self.eat(Tok::LParen) {
            self.type_list_into(Tok::RParen, &mut results)?;
        } else {
            results.push(self.ty()?);
        }
        Ok((inputs, results))
    }

    fn location(&mut self) -> PResult<Location> {
        self.bump();
        self.expect(Tok::LParen)?;
        let loc = if self.is_ident("unknown") {
            self.bump();
            Location::Unknown
        } else {
            let t = self.expect(Tok::String)?;
            let file = unescape(&self.text(t)[1..self.text(t).len() - 1])
                .ok_or_else(|| Diagnostic::error(self.loc(t), "invalid escape in string"))?;
            let mut line = 0;
            let mut col = 0;
            if self.eat(Tok::Colon) {
                line = self.u32_lit()?;
                self.expect(Tok::Colon)?;
                col = self.u32_lit()?;
            }
            let file = self.ctx.sym(&file);
            Location::FileLineCol { file, line, col }
        };
        self.expect(Tok::RParen)?;
        Ok(loc)
    }

    fn u32_lit(&mut self) -> PResult<u32> {
        let t = self.expect(Tok::Int)?;
        self.text(t)
            .parse()
            .or_else(|_| self.err_at(t, "expected a 32-bit unsigned integer"))
    }

    /// Enters one level of nesting (left by `leave`, or by the parse
    /// failing).
    fn enter(&mut self) -> PResult<()> {
        self.nesting += 1;
        if self.nesting > MAX_NESTING {
            return self.err_at(
                self.tok,
                format!("nesting deeper than {MAX_NESTING} regions, types or attributes"),
            );
        }
        Ok(())
    }
    fn leave(&mut self) {
        self.nesting -= 1;
    }

    fn region(&mut self) -> PResult<RegionId> {
        self.enter()?;
        let r = self.region_body()?;
        self.leave();
        Ok(r)
    }

    fn region_body(&mut self) -> PResult<RegionId> {
        self.expect(Tok::LBrace)?;
        let scope = self.undo.len();
        let def_scope = self.defs.len();
        let region = self.ctx.create_region();
        let mut block: Option<BlockId> = None;
        let mut labels: FastMap<&'s str, Token> = FastMap::default();
        while self.tok.kind != Tok::RBrace {
            if self.tok.kind == Tok::Caret {
                let label = self.bump();
                if let Some(_prev) = labels.insert(self.text(label), label) {
                    return self.err_at(label, format!("block label '{}' is defined twice", self.text(label)));
                }
                let b = self.ctx.append_block(region, &[]);
                if self.eat(Tok::LParen) && !self.eat(Tok::RParen) {
                    loop {
                        let arg = self.expect(Tok::Percent)?;
                        if self.text(arg).contains('#') {
                            return self.err_at(arg, "expected a block argument name without '#'");
                        }
                        self.expect(Tok::Colon)?;
                        let ty = self.ty()?;
                        let v = self.ctx.add_block_arg(b, ty);
                        self.defs.push(Definition::Open(Binding { first: v, count: 1 }));
                        if self.is_ident("loc") {
                            self.location()?;
                        }
                        self.define(self.text(arg), Binding { first: v, count: 1 }, arg)?;
                        if !self.eat(Tok::Comma) {
                            break;
                        }
                    }
                    self.expect(Tok::RParen)?;
                }
                self.expect(Tok::Colon)?;
                block = Some(b);
                continue;
            }
            if self.tok.kind == Tok::Eof {
                return self.expected("'}' to close the region");
            }
            let b = match block {
                Some(b) => b,
                None => {
                    let b = self.ctx.append_block(region, &[]);
                    block = Some(b);
                    b
                }
            };
            self.operation(b)?;
        }
        self.bump();
        self.pop_scope(scope);
        for d in &mut self.defs[def_scope..] {
            *d = Definition::Closed;
        }
        Ok(region)
    }

    // ----- attributes ------------------------------------------------------

    fn attr_dict(&mut self) -> PResult<Vec<(Symbol, Attr)>> {
        self.expect(Tok::LBrace)?;
        let mut out: Vec<(Symbol, Attr)> = Vec::new();
        if self.eat(Tok::RBrace) {
            return Ok(out);
        }
        loop {
            let kt = self.tok;
            let key: Cow<'s, str> = match kt.kind {
                Tok::Ident => {
                    let t = self.bump();
                    Cow::Borrowed(self.text(t))
                }
                Tok::String => {
                    self.bump();
                    self.string_body(kt)?
                }
                _ => return self.expected("an attribute name"),
            };
            let value = if self.eat(Tok::Equal) {
                self.attr()?
            } else {
                self.ctx.intern_attr(AttrKind::Unit)
            };
            let key = self.ctx.sym(&key);
            if out.iter().any(|(k, _)| *k == key) {
                return self.err_at(kt, format!("attribute '{}' is given twice", self.ctx.str(key)));
            }
            out.push((key, value));
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        self.expect(Tok::RBrace)?;
        Ok(out)
    }

    fn attr(&mut self) -> PResult<Attr> {
        self.enter()?;
        let a = self.attr_body()?;
        self.leave();
        Ok(a)
    }

    fn attr_body(&mut self) -> PResult<Attr> {
        let t = self.tok;
        let kind = match t.kind {
            Tok::Ident if self.is_ident("unit") => {
                self.bump();
                AttrKind::Unit
            }
            Tok::Ident if self.is_ident("true") || self.is_ident("false") => {
                self.bump();
                AttrKind::Bool(self.text(t) == "true")
            }
            Tok::Int | Tok::Float | Tok::Minus => return self.number_attr(),
            Tok::String => {
                self.bump();
                let s = unescape(&self.text(t)[1..self.text(t).len() - 1])
                    .ok_or_else(|| Diagnostic::error(self.loc(t), "invalid escape in string"))?;
                AttrKind::String(self.ctx.sym(&s))
            }
            Tok::LBracket => {
                self.bump();
                let mut xs = Vec::new();
                if !self.eat(Tok::RBracket) {
                    loop {
                        xs.push(self.attr()?);
                        if !self.eat(Tok::Comma) {
                            break;
                        }
                    }
                    self.expect(Tok::RBracket)?;
                }
                AttrKind::Array(xs)
            }
            Tok::LBrace => AttrKind::Dict(self.attr_dict()?),
            Tok::At => {
                self.bump();
                let raw = &self.text(t)[1..];
                let s = if let Some(q) = raw.strip_prefix('"') {
                    unescape(&q[..q.len() - 1])
                        .ok_or_else(|| Diagnostic::error(self.loc(t), "invalid escape in string"))?
                } else {
                    raw.to_string()
                };
                AttrKind::SymbolRef(self.ctx.sym(&s))
            }
            Tok::Hash => {
                self.bump();
                let (dialect, name) = self.dialect_name(t)?;
                let body = self.opaque_body()?;
                AttrKind::Opaque { dialect, name, body }
            }
            Tok::Ident | Tok::LParen | Tok::Bang => AttrKind::Type(self.ty()?),
            _ => return self.expected("an attribute value"),
        };
        Ok(self.ctx.intern_attr(kind))
    }

    fn number_attr(&mut self) -> PResult<Attr> {
        let start = self.tok;
        let neg = self.eat(Tok::Minus);
        let t = self.tok;
        if !matches!(t.kind, Tok::Int | Tok::Float) {
            return self.expected("a number");
        }
        self.bump();
        let text = self.text(t);
        let ty = if self.eat(Tok::Colon) {
            let tt = self.tok;
            let ty = self.ty()?;
            if self.ctx.as_scalar(ty).is_none() {
                return self.err_at(tt, "expected a scalar type for a number");
            }
            ty
        } else {
            let s = if t.kind == Tok::Float { Scalar::F64 } else { Scalar::I64 };
            self.ctx.scalar(s)
        };
        let s = self.ctx.as_scalar(ty).expect("checked above: number types are scalars");
        let span = Token {
            kind: t.kind,
            start: start.start,
            end: t.end,
        };
        let kind = if s.is_float() {
            let x = if let Some(hex) = text.strip_prefix("0x") {
                let bits = u64::from_str_radix(hex, 16).or_else(|_| self.err_at(span, "hexadecimal float too long"))?;
                match s {
                    Scalar::F16 => f16_bits_to_f64(bits as u16),
                    Scalar::F32 => f32::from_bits(bits as u32) as f64,
                    _ => f64::from_bits(bits),
                }
            } else {
                text.parse::<f64>()
                    .or_else(|_| self.err_at(span, "invalid float literal"))?
            };
            let x = if neg { -x } else { x };
            AttrKind::Float { bits: x.to_bits(), ty }
        } else if s.is_int() || s == Scalar::Bool {
            if t.kind == Tok::Float {
                return self.err_at(
                    span,
                    format!("a float literal cannot have integer type {}", s.mlir_name()),
                );
            }
            let mag: u128 = match text.strip_prefix("0x") {
                Some(h) => u128::from_str_radix(h, 16),
                None => text.parse::<u128>(),
            }
            .or_else(|_| self.err_at(span, "integer literal too large"))?;
            let bits = s.bits();
            let ok = if s.is_unsigned_int() || s == Scalar::Bool {
                !neg && mag < (1u128 << bits)
            } else if neg {
                mag <= (1u128 << (bits - 1))
            } else {
                mag < (1u128 << (bits - 1))
            };
            if !ok {
                return self.err_at(span, format!("integer literal does not fit in {}", s.mlir_name()));
            }
            let v = if neg { (mag as i128).wrapping_neg() } else { mag as i128 } as i64;
            if s == Scalar::Bool {
                AttrKind::Bool(v != 0)
            } else {
                AttrKind::Int { bits: v, ty }
            }
        } else {
            return self.err_at(span, "expected a numeric type");
        };
        Ok(self.ctx.intern_attr(kind))
    }

    // ----- types -----------------------------------------------------------

    fn dialect_name(&mut self, t: Token) -> PResult<(Symbol, Symbol)> {
        let full = &self.text(t)[1..];
        match full.split_once('.') {
            Some((d, n)) if !d.is_empty() && !n.is_empty() => Ok((self.ctx.sym(d), self.ctx.sym(n))),
            _ => self.err_at(t, format!("expected 'dialect.name', found '{full}'")),
        }
    }

    fn opaque_body(&mut self) -> PResult<Option<Symbol>> {
        // The lexer has already read the token after the name; only a `<`
        // right after the name opens a body.
        if self.tok.kind != Tok::Less {
            return Ok(None);
        }
        let lt = self.tok;
        self.lex.pos = lt.end as usize;
        let Some((s, e)) = self.lex.balanced_body() else {
            return self.err_at(lt, "unbalanced '<' in dialect type or attribute");
        };
        let body = &self.lex.src[s..e];
        self.bump();
        Ok(Some(self.ctx.sym(body)))
    }

    fn ty(&mut self) -> PResult<Type> {
        self.enter()?;
        let t = self.ty_body()?;
        self.leave();
        Ok(t)
    }

    fn ty_body(&mut self) -> PResult<Type> {
        let t = self.tok;
        match t.kind {
            Tok::Ident => {
                let s = self.text(t);
                if let Some(k) = Scalar::from_name(s) {
                    self.bump();
                    return Ok(self.ctx.scalar(k));
                }
                if s == "tuple" {
                    self.bump();
                    self.expect(Tok::Less)?;
                    let ts = self.type_list_until(Tok::Greater)?;
                    return Ok(self.ctx.intern_type(TypeKind::Tuple(ts)));
                }
                self.err_at(t, format!("expected a type, found '{s}'"))
            }
            Tok::LParen => {
                self.bump();
                let inputs = self.type_list_until(Tok::RParen)?;
                self.expect(Tok::Arrow)?;
                let results = if self.eat(Tok::LParen) {
                    self.type_list_until(Tok::RParen)?
                } else {
                    vec![self.ty()?]
                };
                Ok(self.ctx.intern_type(TypeKind::Function { inputs, results }))
            }
            Tok::LBracket => self.array_type(),
            Tok::Bang => {
                self.bump();
                let (d, n) = self.dialect_name(t)?;
                match (self.ctx.str(d), self.ctx.str(n)) {
                    ("fut", "array") => {
                        self.expect(Tok::Less)?;
                        let a = self.array_type()?;
                        self.expect(Tok::Greater)?;
                        Ok(a)
                    }
                    ("mem", "block") => {
                        self.expect(Tok::Less)?;
                        let st = self.expect(Tok::Ident)?;
                        let Some(space) = MemSpace::from_name(self.text(st)) else {
                            return self.err_at(st, "expected a memory space: host, device or shared");
                        };
                        self.expect(Tok::Greater)?;
                        Ok(self.ctx.intern_type(TypeKind::Mem(space)))
                    }
                    ("source", "record") => {
                        self.expect(Tok::Less)?;
                        self.expect(Tok::LBrace)?;
                        let mut fields: Vec<(Symbol, Type)> = Vec::new();
                        if !self.eat(Tok::RBrace) {
                            loop {
                                // A name that is not a bare identifier
                                // (`x'`, `1`) is quoted.
                                let ft = self.tok;
                                let name = match ft.kind {
                                    Tok::String => {
                                        self.bump();
                                        self.string_body(ft)?
                                    }
                                    _ => {
                                        let t = self.expect(Tok::Ident)?;
                                        Cow::Borrowed(self.text(t))
                                    }
                                };
                                self.expect(Tok::Colon)?;
                                let ty = self.ty()?;
                                let k = self.ctx.sym(&name);
                                if fields.iter().any(|(f, _)| *f == k) {
                                    return self.err_at(ft, "record field given twice");
                                }
                                fields.push((k, ty));
                                if !self.eat(Tok::Comma) {
                                    break;
                                }
                            }
                            self.expect(Tok::RBrace)?;
                        }
                        self.expect(Tok::Greater)?;
                        let ctx = &*self.ctx;
                        fields.sort_by(|a, b| ctx.str(a.0).cmp(ctx.str(b.0)));
                        Ok(self.ctx.intern_type(TypeKind::Record(fields)))
                    }
                    _ => {
                        let body = self.opaque_body()?;
                        Ok(self.ctx.intern_type(TypeKind::Opaque {
                            dialect: d,
                            name: n,
                            body,
                        }))
                    }
                }
            }
            _ => self.expected("a type"),
        }
    }

    /// `[d1][d2]...elem` where a dim is an integer, `%size` or `?`.
    fn array_type(&mut self) -> PResult<Type> {
        let mut shape = Vec::new();
        while self.eat(Tok::LBracket) {
            let t = self.tok;
            let d = match t.kind {
                Tok::Int => {
                    self.bump();
                    Dim::Const(
                        self.text(t)
                            .parse()
                            .or_else(|_| self.err_at(t, "array size too large"))?,
                    )
                }
                Tok::Question => {
                    self.bump();
                    Dim::Unknown
                }
                Tok::Percent | Tok::Dollar => {
                    self.bump();
                    let v = if t.kind == Tok::Percent {
                        self.lookup(t)?
                    } else {
                        self.definition(t)?
                    };
                    match v {
                        Some(v) => {
                            if self.ctx.as_scalar(self.ctx.value_type(v)) != Some(Scalar::I64) {
                                return self.err_at(t, format!("size '{}' must have type i64", self.text(t)));
                            }
                            Dim::Value(v)
                        }
                        None => {
                            return self.err_at(t, format!("size '{}' is not defined before this type", self.text(t)))
                        }
                    }
                }
                _ => return self.expected("an array size (integer, %value, $number or ?)"),
            };
            shape.push(d);
            self.expect(Tok::RBracket)?;
        }
        if shape.is_empty() {
            return self.expected("'['");
        }
        let et = self.tok;
        let elem = self.ty()?;
        if matches!(
            self.ctx.type_kind(elem),
            TypeKind::Array { .. } | TypeKind::Function { .. } | TypeKind::Mem(_)
        ) {
            return self.err_at(et, "array elements must be scalars, tuples or records");
        }
        Ok(self.ctx.intern_type(TypeKind::Array { elem, shape }))
    }

    fn type_list_until(&mut self, close: Tok) -> PResult<Vec<Type>> {
        let mut ts = Vec::new();
        self.type_list_into(close, &mut ts)?;
        Ok(ts)
    }

    fn type_list_into(&mut self, close: Tok, ts: &mut impl Extend<Type>) -> PResult<()> {
        if self.eat(close) {
            return Ok(());
        }
        loop {
            let t = self.ty()?;
            ts.extend(std::iter::once(t));
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        self.expect(close)?;
        Ok(())
    }
}

fn f16_bits_to_f64(h: u16) -> f64 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = ((h >> 10) & 0x1f) as i32;
    let frac = (h & 0x3ff) as f64;
    match exp {
        0 => sign * frac * 2f64.powi(-24),
        31 if frac == 0.0 => sign * f64::INFINITY,
        31 => f64::NAN,
        e => sign * (1.0 + frac / 1024.0) * 2f64.powi(e - 15),
    }
}

/// The candidate closest to `name` by edit distance, if close enough to be
/// a likely typo.
pub fn closest<'a>(name: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let (best, d) = candidates
        .map(|c| (c, edit_distance(name, c)))
        .min_by_key(|&(_, d)| d)?;
    (d <= name.len().max(3) / 3 + 1).then_some(best)
}

pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for j in 0..b.len() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != b[j])).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

/// Splits IR text on lines that are exactly `// -----` (the
/// `--split-input-file` convention). Each chunk starts with as many empty
/// lines as precede it, so line numbers in a chunk are those of the file.
pub fn split_input_file(text: &str) -> Vec<String> {
    let mut chunks = Vec::new();
    let mut cur = String::new();
    let mut line = 0;
    for l in text.split_inclusive('\n') {
        line += 1;
        if l.trim_end() == "// -----" {
            chunks.push(std::mem::take(&mut cur));
            cur = "\n".repeat(line);
        } else {
            cur.push_str(l);
        }
    }
    chunks.push(cur);
    chunks
}
