-- RUN: futmlir build %s --target=cuda --emit=imp

-- GPU threads that allocate their own memory (Note [Thread allocations]
-- in lowering/src/segop_to_imp/mod.rs), where memory expansion cannot.
--
-- `grow`: the loop's array doubles each iteration, so the loop gets no
-- buffers; each iteration allocates its arrays in the thread
-- (`mem.alloc {thread}`), frees the temporary `map (+ i) ys`, frees the
-- previous iteration's array when it owns it (imp-carried-memory's flag:
-- not the first, which is the expanded `[x]` of the whole kernel) and
-- yields the concatenation. After the loop the last array is freed
-- under its flag. The entry point's host code allocates nothing in a
-- thread's way.
-- CHECK-LABEL: imp.kernel() {sym_name = "k0"
-- CHECK: [[LOOP:%[0-9]+]]:5 = imp.for(
-- CHECK-NEXT: ^bb0({{%[0-9]+}}: i64, [[OLD:%[0-9]+]]: !mem.block<device>, {{.*}}, [[OWNED:%[0-9]+]]: bool):
-- CHECK: [[TMP:%[0-9]+]] = mem.alloc({{%[0-9]+}}) {space = "device", thread} : (i64) -> !mem.block<device>
-- CHECK: [[NEW:%[0-9]+]] = mem.alloc({{%[0-9]+}}) {space = "device", thread} : (i64) -> !mem.block<device>
-- CHECK: imp.if([[OWNED]]) ({
-- CHECK-NEXT: mem.free([[OLD]])
-- CHECK: mem.free([[TMP]])
-- CHECK: imp.yield([[NEW]], {{.*}}) : (!mem.block<device>, i64, i64, i64, bool) -> ()
-- CHECK: imp.if([[LOOP]]#4) ({
-- CHECK-NEXT: mem.free([[LOOP]]#0)
-- CHECK-LABEL: imp.func() {sym_name = "grow"
-- CHECK-NOT: thread}
--
-- `calls`: the device function returns a block it allocated in the
-- thread; the calling thread owns it and frees it after its last use.
-- CHECK-LABEL: imp.kernel() {sym_name = "k1"
-- CHECK: [[R:%[0-9]+]]:2 = imp.call({{%[0-9]+}}) {callee = @countdown$device, device} : (i64) -> (!mem.block<device>, i64)
-- CHECK: imp.load([[R]]#0,
-- CHECK: mem.free([[R]]#0)
-- CHECK-LABEL: imp.func() {sym_name = "calls"
-- CHECK-NOT: thread}
--
-- The device function: its arrays are the thread's (it has no host to
-- expand them on); the recursive call's result is freed once copied into
-- the concatenation, and the result is a block of the thread's.
-- CHECK-LABEL: imp.func() {sym_name = "countdown$device", function_type = (i64) -> (!mem.block<device>, i64), device}
-- CHECK: mem.alloc({{%[0-9]+}}) {space = "device", thread}
-- CHECK: [[REC:%[0-9]+]]:2 = imp.call({{%[0-9]+}}) {callee = @countdown$device, device}
-- CHECK: imp.load([[REC]]#0,
-- CHECK: mem.free([[REC]]#0)
-- CHECK: [[RES:%[0-9]+]] = mem.alloc({{%[0-9]+}}) {space = "device", thread}
-- CHECK: imp.return([[RES]],

def countdown (n: i64) : []i64 =
  if n <= 0 then [] else [n] ++ countdown (n - 1)

entry grow (xs: []i64) (k: i64) : []i64 =
  map (\x -> let ys = loop ys = [x] for i < k do ys ++ map (+ i) ys
             in reduce (+) 0 ys) xs

entry calls (ns: []i64) : []i64 =
  map (\n -> let xs = countdown n in reduce (+) 0 xs) ns
