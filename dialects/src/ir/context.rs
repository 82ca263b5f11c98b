//! The context: owns interned types, attributes and strings, the dialect
//! registry, the loaded sources, and the arenas of the IR itself.
//!
//! MLIR counterpart: `MLIRContext` (which owns types and attributes) plus the
//! operation allocator. Keeping the arenas here lets every handle be a
//! 4-byte index and keeps one compilation in one place.
//!
//! Note [Sizes in types]: an array type may name an SSA value as a size
//! (`[%n]f32`). Such a mention is a use of `%n`: `has_uses` counts it,
//! `replace_all_uses` rewrites the types that mention the replaced value,
//! and the verifier checks the size is in scope where the typed value is
//! defined. The context keeps a reverse index (`type_users`) so this costs
//! nothing for values that are never sizes.

use std::sync::Arc;

use smallvec::SmallVec;

use super::arena::{Arena, FastMap, Interner};
use super::attributes::AttrKind;
use super::operation::{BlockData, Link, OperationData, RegionData};
use super::value::{UseList, ValueData};
use super::{
    Attr, BlockId, Location, OpDef, OpId, RegionId, Registry, Scalar, SourceFile, SourceId, Type, TypeKind, Use, Value,
    ValueDef,
};

/// An interned string.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Symbol(pub(crate) u32);

pub struct Context {
    registry: Arc<Registry>,
    strings: Interner<Box<str>>,
    types: Interner<TypeKind>,
    attrs: Interner<AttrKind>,
    /// Attribute dictionaries of ops, interned (as MLIR's `DictionaryAttr`
    /// is): most ops share theirs with others. Entry 0 is the empty one.
    dicts: Interner<Box<[(Symbol, Attr)]>>,
    /// The interned scalar types, by `Scalar as usize` (`NO_TYPE` until made).
    scalars: [u32; 12],
    /// Names recently interned, by their address (Note [Name cache]).
    recent_syms: [(usize, Symbol); RECENT_SYMS],
    sources: Vec<SourceFile>,
    pub(crate) ops: Arena<OperationData>,
    pub(crate) blocks: Arena<BlockData>,
    pub(crate) regions: Arena<RegionData>,
    pub(crate) values: Arena<ValueData>,
    /// Accept ops of dialects or names the registry does not know.
    pub allow_unregistered: bool,
    /// For each value used as an array size: the values whose types mention
    /// it. A size in a type is a use too (see Note [Sizes in types]).
    type_users: FastMap<Value, Vec<Value>>,
}

impl Default for Context {
    fn default() -> Self {
        Context::new(Arc::new(Registry::default()))
    }
}

const NO_TYPE: u32 = u32::MAX;

// Note [Name cache]
// ~~~~~~~~~~~~~~~~~
// Builders name ops and attributes with string literals: the same few
// addresses, op after op. Hashing the name and probing the interner for
// each cost about as much as creating the op. A small direct-mapped cache
// keyed by the string's address answers most of them; a hit is checked by
// comparing the contents, so a reused address (a freed `String`, a
// substring) never gives a wrong symbol. Address 0 is no `&str`'s, so the
// empty slots never match.

/// Slots in the name cache (a power of two).
const RECENT_SYMS: usize = 64;

impl Context {
    pub fn new(registry: Arc<Registry>) -> Context {
        let mut dicts = Interner::new();
        dicts.intern(Box::default());
        Context {
            registry,
            strings: Interner::new(),
            types: Interner::new(),
            attrs: Interner::new(),
            dicts,
            scalars: [NO_TYPE; 12],
            recent_syms: [(0, Symbol(0)); RECENT_SYMS],
            sources: Vec::new(),
            ops: Arena::new(),
            blocks: Arena::new(),
            regions: Arena::new(),
            values: Arena::new(),
            type_users: FastMap::default(),
            allow_unregistered: false,
        }
    }

    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    /// An empty context with the same dialects (and the same tolerance of
    /// unregistered ops), to parse printed IR into.
    pub fn fresh(&self) -> Context {
        let mut c = Context::new(self.registry.clone());
        c.allow_unregistered = self.allow_unregistered;
        c
    }

    // ----- interning -------------------------------------------------------

    pub fn sym(&mut self, s: &str) -> Symbol {
        let addr = s.as_ptr() as usize;
        let slot = (addr.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 58) % RECENT_SYMS;
        let (cached, sym) = self.recent_syms[slot];
        if cached == addr && self.str(sym) == s {
            return sym;
        }
        let sym = match self.strings.lookup(s) {
            Some(i) => Symbol(i),
            None => Symbol(self.strings.intern(s.into())),
        };
        self.recent_syms[slot] = (addr, sym);
        sym
    }
    pub fn lookup_sym(&self, s: &str) -> Option<Symbol> {
        self.strings.lookup(s).map(Symbol)
    }
    pub fn str(&self, s: Symbol) -> &str {
        self.strings.get(s.0)
    }
    pub fn intern_type(&mut self, k: TypeKind) -> Type {
        Type(self.types.intern(k))
    }
    pub fn type_kind(&self, t: Type) -> &TypeKind {
        self.types.get(t.0)
    }
    pub fn scalar(&mut self, s: Scalar) -> Type {
        let slot = self.scalars[s as usize];
        if slot != NO_TYPE {
            return Type(slot);
        }
        let t = self.intern_type(TypeKind::Scalar(s));
        self.scalars[s as usize] = t.0;
        t
    }
    pub fn as_scalar(&self, t: Type) -> Option<Scalar> {
        match self.type_kind(t) {
            TypeKind::Scalar(s) => Some(*s),
            _ => None,
        }
    }
    pub fn intern_attr(&mut self, k: AttrKind) -> Attr {
        Attr(self.attrs.intern(k))
    }
    pub fn attr_kind(&self, a: Attr) -> &AttrKind {
        self.attrs.get(a.0)
    }
    pub fn int_attr(&mut self, v: i64, s: Scalar) -> Attr {
        let ty = self.scalar(s);
        self.intern_attr(AttrKind::Int { bits: v, ty })
    }
    pub fn string_attr(&mut self, s: &str) -> Attr {
        let s = self.sym(s);
        self.intern_attr(AttrKind::String(s))
    }

    // ----- sources ---------------------------------------------------------

    pub fn add_source(&mut self, name: impl Into<String>, text: impl Into<Arc<str>>) -> SourceId {
        self.sources.push(SourceFile::new(name.into(), text.into()));
        SourceId(self.sources.len() as u32 - 1)
    }
    pub fn source(&self, id: SourceId) -> &SourceFile {
        &self.sources[id.0 as usize]
    }

    // ----- reading the IR --------------------------------------------------

    pub fn op_name(&self, op: OpId) -> &str {
        self.str(self.ops[op.0 as usize].name)
    }
    pub fn op_name_sym(&self, op: OpId) -> Symbol {
        self.ops[op.0 as usize].name
    }
    pub fn op_def(&self, op: OpId) -> Option<&OpDef> {
        self.registry.op(self.op_name(op))
    }
    pub fn location(&self, op: OpId) -> Location {
        self.ops[op.0 as usize].location
    }
    pub fn set_location(&mut self, op: OpId, loc: Location) {
        self.ops[op.0 as usize].location = loc;
    }
    pub fn operands(&self, op: OpId) -> &[Value] {
        &self.ops[op.0 as usize].operands
    }
    pub fn operand(&self, op: OpId, i: usize) -> Value {
        self.ops[op.0 as usize].operands[i]
    }
    pub fn num_results(&self, op: OpId) -> usize {
        self.ops[op.0 as usize].num_results as usize
    }
    pub fn result(&self, op: OpId, i: usize) -> Value {
        let d = &self.ops[op.0 as usize];
        assert!(i < d.num_results as usize, "result index out of range");
        Value(d.first_result + i as u32)
    }
    pub fn results(&self, op: OpId) -> impl ExactSizeIterator<Item = Value> + Clone {
        let d = &self.ops[op.0 as usize];
        (d.first_result..d.first_result + d.num_results).map(Value)
    }
    pub fn attrs(&self, op: OpId) -> &[(Symbol, Attr)] {
        self.dicts.get(self.ops[op.0 as usize].attrs)
    }
    pub fn attr(&self, op: OpId, name: &str) -> Option<Attr> {
        let s = self.lookup_sym(name)?;
        self.attrs(op).iter().find(|(k, _)| *k == s).map(|(_, a)| *a)
    }
    pub fn regions(&self, op: OpId) -> &[RegionId] {
        &self.ops[op.0 as usize].regions
    }
    pub fn parent_block(&self, op: OpId) -> Option<BlockId> {
        self.ops[op.0 as usize].parent.get()
    }
    pub fn parent_op(&self, op: OpId) -> Option<OpId> {
        let b = self.parent_block(op)?;
        let r = self.blocks[b.0 as usize].parent.get()?;
        self.regions[r.0 as usize].parent.get()
    }
    pub fn is_alive(&self, op: OpId) -> bool {
        self.ops[op.0 as usize].alive
    }
    pub fn next_op(&self, op: OpId) -> Option<OpId> {
        self.ops[op.0 as usize].next.get()
    }
    pub fn prev_op(&self, op: OpId) -> Option<OpId> {
        self.ops[op.0 as usize].prev.get()
    }

    pub fn blocks(&self, r: RegionId) -> &[BlockId] {
        &self.regions[r.0 as usize].blocks
    }
    pub fn region_parent(&self, r: RegionId) -> Option<OpId> {
        self.regions[r.0 as usize].parent.get()
    }
    pub fn block_args(&self, b: BlockId) -> &[Value] {
        &self.blocks[b.0 as usize].args
    }
    pub fn block_parent(&self, b: BlockId) -> Option<RegionId> {
        self.blocks[b.0 as usize].parent.get()
    }
    /// The operations of a block, in order.
    pub fn block_ops(&self, b: BlockId) -> BlockOps<'_> {
        BlockOps {
            ctx: self,
            next: self.blocks[b.0 as usize].first.get(),
        }
    }
    pub fn first_op(&self, b: BlockId) -> Option<OpId> {
        self.blocks[b.0 as usize].first.get()
    }
    pub fn last_op(&self, b: BlockId) -> Option<OpId> {
        self.blocks[b.0 as usize].last.get()
    }

    pub fn value_type(&self, v: Value) -> Type {
        self.values[v.0 as usize].ty
    }
    pub fn value_def(&self, v: Value) -> ValueDef {
        self.values[v.0 as usize].def
    }
    pub fn uses(&self, v: Value) -> &[Use] {
        self.values[v.0 as usize].uses.as_slice()
    }
    /// Whether `v` is an operand of some op or a size in some value's type.
    pub fn has_uses(&self, v: Value) -> bool {
        !self.uses(v).is_empty() || self.type_users.contains_key(&v)
    }
    /// The op defining `v`, if it is an op result.
    pub fn defining_op(&self, v: Value) -> Option<OpId> {
        match self.value_def(v) {
            ValueDef::Result { op, .. } => Some(op),
            _ => None,
        }
    }
    /// The block a value is defined in.
    pub fn value_block(&self, v: Value) -> Option<BlockId> {
        match self.value_def(v) {
            ValueDef::Result { op, .. } => self.parent_block(op),
            ValueDef::BlockArg { block, .. } => Some(block),
            ValueDef::Placeholder => None,
        }
    }

    /// Whether `op` is `ancestor` or nested (at any depth) inside it.
    pub fn is_ancestor(&self, ancestor: OpId, mut op: OpId) -> bool {
        loop {
            if op == ancestor {
                return true;
            }
            match self.parent_op(op) {
                Some(p) => op = p,
                None => return false,
            }
        }
    }

    /// All operations nested in `op` (not `op` itself), in pre-order.
    pub fn walk(&self, op: OpId, f: &mut dyn FnMut(OpId)) {
        for &r in self.regions(op) {
            for &b in self.blocks(r) {
                let mut cur = self.first_op(b);
                while let Some(o) = cur {
                    cur = self.next_op(o);
                    f(o);
                    self.walk(o, f);
                }
            }
        }
    }

    /// Number of live operations nested in `op`, itself included.
    pub fn count_ops(&self, op: OpId) -> usize {
        let mut n = 1;
        self.walk(op, &mut |_| n += 1);
        n
    }

    // ----- creating and linking entities (used by Builder and Rewriter) -----

    pub(crate) fn new_value(&mut self, ty: Type, def: ValueDef) -> Value {
        self.values.push(ValueData {
            ty,
            def,
            uses: UseList::Empty,
        });
        let v = Value(self.values.len() as u32 - 1);
        self.link_type_users(v, ty);
        v
    }

    /// The size values a type mentions (in arrays, tuples and functions).
    pub fn type_size_values(&self, t: Type) -> Vec<Value> {
        let mut out = Vec::new();
        self.collect_size_values(t, &mut out);
        out
    }

    fn collect_size_values(&self, t: Type, out: &mut Vec<Value>) {
        match self.type_kind(t) {
            TypeKind::Scalar(_) | TypeKind::Mem(_) | TypeKind::Opaque { .. } => {}
            TypeKind::Array { shape, .. } => out.extend(shape.iter().filter_map(|d| match d {
                super::Dim::Value(v) => Some(*v),
                _ => None,
            })),
            TypeKind::Tuple(ts) => ts.iter().for_each(|&t| self.collect_size_values(t, out)),
            TypeKind::Function { inputs, results } => inputs
                .iter()
                .chain(results)
                .for_each(|&t| self.collect_size_values(t, out)),
            TypeKind::Record(fs) => fs.iter().for_each(|&(_, t)| self.collect_size_values(t, out)),
        }
    }

    fn link_type_users(&mut self, v: Value, ty: Type) {
        let mut sizes: SmallVec<[Value; 4]> = SmallVec::new();
        match self.type_kind(ty) {
            TypeKind::Scalar(_) | TypeKind::Mem(_) => return,
            TypeKind::Array { shape, .. } => sizes.extend(shape.iter().filter_map(|d| match d {
                super::Dim::Value(s) => Some(*s),
                _ => None,
            })),
            _ => sizes.extend(self.type_size_values(ty)),
        }
        for s in sizes {
            self.type_users.entry(s).or_default().push(v);
        }
    }

    pub(crate) fn unlink_type_users(&mut self, v: Value, ty: Type) {
        for s in self.type_size_values(ty) {
            if let Some(us) = self.type_users.get_mut(&s) {
                if let Some(i) = us.iter().position(|&u| u == v) {
                    us.swap_remove(i);
                }
                if us.is_empty() {
                    self.type_users.remove(&s);
                }
            }
        }
    }

    /// The values whose types mention `v` as a size.
    pub fn type_users(&self, v: Value) -> &[Value] {
        self.type_users.get(&v).map(Vec::as_slice).unwrap_or(&[])
    }

    /// Creates a detached operation.
    pub fn create_op(
        &mut self,
        name: Symbol,
        operands: &[Value],
        result_types: &[Type],
        attrs: &[(Symbol, Attr)],
        regions: Vec<RegionId>,
        location: Location,
    ) -> OpId {
        let id = OpId(self.ops.len() as u32);
        let dict = self.intern_dict(attrs);
        let first_result = self.values.len() as u32;
        for (i, &t) in result_types.iter().enumerate() {
            self.new_value(
                t,
                ValueDef::Result {
                    op: id,
                    index: i as u32,
                },
            );
        }
        for (i, &v) in operands.iter().enumerate() {
            self.values[v.0 as usize].uses.push(Use {
                op: id,
                index: i as u32,
            });
        }
        for &r in &regions {
            self.regions[r.0 as usize].parent = Link::some(id);
        }
        self.ops.push(OperationData {
            name,
            location,
            operands: SmallVec::from_slice(operands),
            first_result,
            num_results: result_types.len() as u32,
            attrs: dict,
            regions: regions.into_boxed_slice(),
            parent: Link::NONE,
            prev: Link::NONE,
            next: Link::NONE,
            alive: true,
        });
        id
    }

    pub fn create_region(&mut self) -> RegionId {
        self.regions.push(RegionData {
            blocks: Vec::new(),
            parent: Link::NONE,
        });
        RegionId(self.regions.len() as u32 - 1)
    }

    /// Creates a block with arguments of the given types and appends it to `region`.
    pub fn append_block(&mut self, region: RegionId, arg_types: &[Type]) -> BlockId {
        let b = BlockId(self.blocks.len() as u32);
        let mut args = Vec::with_capacity(arg_types.len());
        for (i, &t) in arg_types.iter().enumerate() {
            args.push(self.new_value(
                t,
                ValueDef::BlockArg {
                    block: b,
                    index: i as u32,
                },
            ));
        }
        self.blocks.push(BlockData {
            args,
            first: Link::NONE,
            last: Link::NONE,
            parent: Link::some(region),
        });
        self.regions[region.0 as usize].blocks.push(b);
        b
    }

    /// Removes argument `i` of block `b`, which must be unused; later
    /// arguments move down one place.
    pub fn erase_block_arg(&mut self, b: BlockId, i: usize) {
        let v = self.blocks[b.0 as usize].args.remove(i);
        assert!(!self.has_uses(v), "erase_block_arg: the argument is still used");
        let t = self.value_type(v);
        self.unlink_type_users(v, t);
        let later = self.blocks[b.0 as usize].args[i..].to_vec();
        for (j, a) in later.into_iter().enumerate() {
            self.values[a.0 as usize].def = ValueDef::BlockArg {
                block: b,
                index: (i + j) as u32,
            };
        }
    }

    /// Detaches the regions of `op`, which keeps none, so that a new op
    /// (one with other results, say) can take them over.
    pub fn take_regions(&mut self, op: OpId) -> Vec<RegionId> {
        let rs = std::mem::take(&mut self.ops[op.0 as usize].regions).into_vec();
        for &r in &rs {
            self.regions[r.0 as usize].parent = Link::NONE;
        }
        rs
    }

    /// Gives `op`, which holds no regions (after [`Context::take_regions`]),
    /// the detached `regions`.
    pub fn set_regions(&mut self, op: OpId, regions: Vec<RegionId>) {
        debug_assert!(self.ops[op.0 as usize].regions.is_empty(), "op still holds regions");
        for &r in &regions {
            self.regions[r.0 as usize].parent = Link::some(op);
        }
        self.ops[op.0 as usize].regions = regions.into_boxed_slice();
    }

    pub fn add_block_arg(&mut self, b: BlockId, ty: Type) -> Value {
        let index = self.blocks[b.0 as usize].args.len() as u32;
        let v = self.new_value(ty, ValueDef::BlockArg { block: b, index });
        self.blocks[b.0 as usize].args.push(v);
        v
    }

    /// Links a detached `op` into `block` before `before` (at the end if `None`).
    pub fn insert_op(&mut self, block: BlockId, before: Option<OpId>, op: OpId) {
        debug_assert!(self.ops[op.0 as usize].parent.get().is_none(), "op is already linked");
        let prev = match before {
            Some(b) => self.ops[b.0 as usize].prev.get(),
            None => self.blocks[block.0 as usize].last.get(),
        };
        {
            let d = &mut self.ops[op.0 as usize];
            d.parent = Link::some(block);
            d.prev = prev.into();
            d.next = before.into();
        }
        match prev {
            Some(p) => self.ops[p.0 as usize].next = Link::some(op),
            None => self.blocks[block.0 as usize].first = Link::some(op),
        }
        match before {
            Some(b) => self.ops[b.0 as usize].prev = Link::some(op),
            None => self.blocks[block.0 as usize].last = Link::some(op),
        }
    }

    /// Unlinks `op` from its block, leaving it detached but alive.
    pub fn detach_op(&mut self, op: OpId) {
        let (parent, prev, next) = {
            let d = &self.ops[op.0 as usize];
            (d.parent.get(), d.prev.get(), d.next.get())
        };
        let Some(block) = parent else { return };
        match prev {
            Some(p) => self.ops[p.0 as usize].next = next.into(),
            None => self.blocks[block.0 as usize].first = next.into(),
        }
        match next {
            Some(n) => self.ops[n.0 as usize].prev = prev.into(),
            None => self.blocks[block.0 as usize].last = prev.into(),
        }
        let d = &mut self.ops[op.0 as usize];
        d.parent = Link::NONE;
        d.prev = Link::NONE;
        d.next = Link::NONE;
    }

    /// Sets operand `i` of `op` to `v`, keeping use lists right.
    pub fn set_operand(&mut self, op: OpId, i: usize, v: Value) {
        let old = self.ops[op.0 as usize].operands[i];
        let u = Use { op, index: i as u32 };
        self.values[old.0 as usize].uses.remove(u);
        self.ops[op.0 as usize].operands[i] = v;
        self.values[v.0 as usize].uses.push(u);
    }

    /// Most ops have no attributes: the empty dictionary is entry 0, found
    /// without hashing.
    fn intern_dict(&mut self, attrs: &[(Symbol, Attr)]) -> u32 {
        if attrs.is_empty() {
            return 0;
        }
        match self.dicts.lookup(attrs) {
            Some(d) => d,
            None => self.dicts.intern(attrs.into()),
        }
    }

    pub fn set_attr(&mut self, op: OpId, name: Symbol, a: Attr) {
        let mut attrs = self.attrs(op).to_vec();
        match attrs.iter_mut().find(|(k, _)| *k == name) {
            Some(slot) => slot.1 = a,
            None => attrs.push((name, a)),
        }
        self.ops[op.0 as usize].attrs = self.intern_dict(&attrs);
    }

    pub fn remove_attr(&mut self, op: OpId, name: Symbol) -> Option<Attr> {
        let mut attrs = self.attrs(op).to_vec();
        let i = attrs.iter().position(|(k, _)| *k == name)?;
        let a = attrs.remove(i).1;
        self.ops[op.0 as usize].attrs = self.intern_dict(&attrs);
        Some(a)
    }

    /// Changes the type of a value (the caller keeps the IR well typed).
    pub fn set_value_type(&mut self, v: Value, ty: Type) {
        let old = self.values[v.0 as usize].ty;
        self.unlink_type_users(v, old);
        self.values[v.0 as usize].ty = ty;
        self.link_type_users(v, ty);
    }

    pub(crate) fn drop_operand_uses(&mut self, op: OpId) {
        let operands = std::mem::take(&mut self.ops[op.0 as usize].operands);
        for (i, v) in operands.iter().enumerate() {
            self.values[v.0 as usize].uses.remove(Use { op, index: i as u32 });
        }
    }

    pub(crate) fn mark_dead(&mut self, op: OpId) {
        self.ops[op.0 as usize].alive = false;
    }

    /// Rough bytes held by the IR arenas (for the memory benchmark).
    pub fn arena_bytes(&self) -> usize {
        self.ops.bytes() + self.values.bytes() + self.blocks.bytes() + self.regions.bytes()
    }
}

/// Iterator over the operations of a block.
pub struct BlockOps<'a> {
    ctx: &'a Context,
    next: Option<OpId>,
}

impl Iterator for BlockOps<'_> {
    type Item = OpId;
    fn next(&mut self) -> Option<OpId> {
        let cur = self.next?;
        self.next = self.ctx.next_op(cur);
        Some(cur)
    }
}
