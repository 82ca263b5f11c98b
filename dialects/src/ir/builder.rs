//! The builder: creates operations at an insertion point.
//! MLIR counterpart: `OpBuilder`.

use smallvec::SmallVec;

use super::{Attr, BlockId, Context, Location, OpId, RegionId, Symbol, Type, Value};

/// Where new operations go: the end of a block, or before an op.
#[derive(Copy, Clone, Debug)]
pub enum InsertPoint {
    Detached,
    End(BlockId),
    Before(OpId),
}

pub struct Builder<'a> {
    pub ctx: &'a mut Context,
    pub point: InsertPoint,
    pub location: Location,
}

impl<'a> Builder<'a> {
    pub fn new(ctx: &'a mut Context) -> Builder<'a> {
        Builder {
            ctx,
            point: InsertPoint::Detached,
            location: Location::Unknown,
        }
    }
    pub fn at_end(ctx: &'a mut Context, b: BlockId) -> Builder<'a> {
        Builder {
            ctx,
            point: InsertPoint::End(b),
            location: Location::Unknown,
        }
    }
    pub fn before(ctx: &'a mut Context, op: OpId) -> Builder<'a> {
        let location = ctx.location(op);
        Builder {
            ctx,
            point: InsertPoint::Before(op),
            location,
        }
    }
    pub fn set_insert_point(&mut self, p: InsertPoint) {
        self.point = p;
    }

    /// Creates an op named `name` at the insertion point.
    pub fn op(
        &mut self,
        name: &str,
        operands: &[Value],
        result_types: &[Type],
        attrs: &[(&str, Attr)],
        regions: Vec<RegionId>,
    ) -> OpId {
        let name = self.ctx.sym(name);
        // Ops have few attributes: name them without a heap allocation.
        let attrs: SmallVec<[(Symbol, Attr); 4]> = attrs.iter().map(|(k, a)| (self.ctx.sym(k), *a)).collect();
        let op = self
            .ctx
            .create_op(name, operands, result_types, &attrs, regions, self.location);
        self.insert(op);
        op
    }

    /// Links a detached op at the insertion point.
    pub fn insert(&mut self, op: OpId) {
        match self.point {
            InsertPoint::Detached => {}
            InsertPoint::End(b) => self.ctx.insert_op(b, None, op),
            InsertPoint::Before(before) => {
                let b = self
                    .ctx
                    .parent_block(before)
                    .expect("insertion point op is linked in a block");
                self.ctx.insert_op(b, Some(before), op)
            }
        }
    }

    /// Creates a region with one block of the given argument types.
    pub fn region_with_block(&mut self, arg_types: &[Type]) -> (RegionId, BlockId) {
        let r = self.ctx.create_region();
        let b = self.ctx.append_block(r, arg_types);
        (r, b)
    }
}
