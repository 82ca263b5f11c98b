//! The builder and rewriter keep use lists and block order consistent.

use futmlir_dialects::ir::{Builder, Context, Dim, PrintOptions, Scalar, TypeKind, ValueMap};

fn ctx() -> Context {
    let mut c = Context::default();
    c.allow_unregistered = true;
    c
}

#[test]
fn build_replace_erase_move_clone() {
    let mut ctx = ctx();
    let region = ctx.create_region();
    let block = ctx.append_block(region, &[]);
    let i64t = ctx.scalar(Scalar::I64);
    let f32t = ctx.scalar(Scalar::F32);
    let mut b = Builder::at_end(&mut ctx, block);
    let one = b.ctx.int_attr(1, Scalar::I64);
    let n = b.op("t.size", &[], &[i64t], &[("value", one)], vec![]);
    let nv = b.ctx.result(n, 0);
    let arr = b.ctx.intern_type(TypeKind::Array {
        elem: f32t,
        shape: vec![Dim::Value(nv)],
    });
    let (body, body_block) = b.region_with_block(&[f32t]);
    let map = b.op("t.map", &[nv], &[arr], &[], vec![body]);
    let x = b.ctx.block_args(body_block)[0];
    let mut inner = Builder::at_end(b.ctx, body_block);
    let y = inner.op("t.neg", &[x], &[f32t], &[], vec![]);
    let yv = inner.ctx.result(y, 0);
    inner.op("t.yield", &[yv], &[], &[], vec![]);
    let user = Builder::at_end(&mut ctx, block).op("t.use", &[nv, nv], &[], &[], vec![]);
    assert_eq!(ctx.uses(nv).len(), 3);

    // replace_all_uses
    let n2 = Builder::before(&mut ctx, map).op("t.size2", &[], &[i64t], &[], vec![]);
    let n2v = ctx.result(n2, 0);
    ctx.replace_all_uses(nv, n2v);
    assert!(!ctx.has_uses(nv));
    assert_eq!(ctx.uses(n2v).len(), 3);
    assert_eq!(ctx.operands(user), &[n2v, n2v]);

    // erase
    ctx.erase_op(n);
    assert_eq!(ctx.block_ops(block).collect::<Vec<_>>(), vec![n2, map, user]);

    // move
    ctx.move_op_before(user, n2);
    assert_eq!(ctx.block_ops(block).collect::<Vec<_>>(), vec![user, n2, map]);
    ctx.move_op_to_end(user, block);
    assert_eq!(ctx.block_ops(block).collect::<Vec<_>>(), vec![n2, map, user]);

    // clone with a value mapping: the clone's type follows the mapped size
    let n3 = Builder::at_end(&mut ctx, block).op("t.size3", &[], &[i64t], &[], vec![]);
    let n3v = ctx.result(n3, 0);
    let mut vm = ValueMap::default();
    vm.insert(n2v, n3v);
    let c = ctx.clone_op(map, &mut vm);
    ctx.insert_op(block, None, c);
    assert_eq!(ctx.operands(c), &[n3v]);
    let ct = ctx.value_type(ctx.result(c, 0));
    assert_eq!(
        ctx.type_kind(ct),
        &TypeKind::Array {
            elem: f32t,
            shape: vec![Dim::Value(n3v)]
        }
    );
    assert_eq!(vm.get(ctx.result(map, 0)), ctx.result(c, 0));
    // the cloned body uses the cloned block argument, not the original
    let cblock = ctx.blocks(ctx.regions(c)[0])[0];
    let carg = ctx.block_args(cblock)[0];
    let cneg = ctx.first_op(cblock).unwrap();
    assert_eq!(ctx.operands(cneg), &[carg]);
    assert_eq!(ctx.uses(x).len(), 1);

    // replace_op
    let cv = ctx.result(c, 0);
    let s = Builder::at_end(&mut ctx, block).op("t.sink", &[cv], &[], &[], vec![]);
    ctx.replace_op(c, &[ctx.result(map, 0)]);
    assert_eq!(ctx.operands(s), &[ctx.result(map, 0)]);
    assert!(!ctx.is_alive(c));

    let module = {
        let name = ctx.sym("builtin.module");
        ctx.create_op(name, &[], &[], &[], vec![region], Default::default())
    };
    ctx.verify(module).unwrap_or_else(|e| panic!("{}", e[0].to_plain(&ctx)));
    let text = ctx.print_op(module, PrintOptions::default());
    assert!(text.contains("%1 = t.map(%0) ({"), "{text}");
}

/// A block argument's type may name an earlier argument of its block as a
/// size (a stream's chunk `[%c]f32`), and a result's type another result
/// of its op: a clone's types name the clone's values, not the original's.
#[test]
fn clone_maps_sizes_of_own_arguments_and_results() {
    let mut ctx = ctx();
    let region = ctx.create_region();
    let block = ctx.append_block(region, &[]);
    let i64t = ctx.scalar(Scalar::I64);
    let f32t = ctx.scalar(Scalar::F32);
    let (body, body_block) = Builder::at_end(&mut ctx, block).region_with_block(&[i64t]);
    let c = ctx.block_args(body_block)[0];
    let chunk = ctx.intern_type(TypeKind::Array {
        elem: f32t,
        shape: vec![Dim::Value(c)],
    });
    let xs = ctx.add_block_arg(body_block, chunk);
    Builder::at_end(&mut ctx, body_block).op("t.yield", &[xs], &[], &[], vec![]);
    let stream = Builder::at_end(&mut ctx, block).op("t.stream", &[], &[i64t, i64t], &[], vec![body]);
    let n = ctx.result(stream, 0);
    let sized = ctx.intern_type(TypeKind::Array {
        elem: f32t,
        shape: vec![Dim::Value(n)],
    });
    let r1 = ctx.result(stream, 1);
    ctx.set_value_type(r1, sized);

    let copy = ctx.clone_op(stream, &mut ValueMap::default());
    let copy_block = ctx.blocks(ctx.regions(copy)[0])[0];
    let (c2, xs2) = (ctx.block_args(copy_block)[0], ctx.block_args(copy_block)[1]);
    let chunk2 = ctx.intern_type(TypeKind::Array {
        elem: f32t,
        shape: vec![Dim::Value(c2)],
    });
    assert_eq!(ctx.value_type(xs2), chunk2);
    assert!(ctx.type_users(c2).contains(&xs2));
    assert!(!ctx.type_users(c).contains(&xs2));
    let (n2, r2) = (ctx.result(copy, 0), ctx.result(copy, 1));
    let sized2 = ctx.intern_type(TypeKind::Array {
        elem: f32t,
        shape: vec![Dim::Value(n2)],
    });
    assert_eq!(ctx.value_type(r2), sized2);
}
