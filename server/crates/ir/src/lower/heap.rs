//! The heap: one memory per array type and one per field of each modelled class, as SSA
//! variables; objects and arrays are references into them. Allocation, loads and stores with
//! their implicit exceptions, and huge arrays (`OutOfMemoryError` past HotSpot's limit).

use super::*;

impl<'t> Lowerer<'t> {
    /// Whether an input of type `ty` can hold strings (directly, in arrays or in object fields).
    pub(super) fn reaches_strings(&self, ty: Ty) -> bool {
        let mut seen = Vec::new();
        let mut work = vec![ty];
        while let Some(t) = work.pop() {
            match t {
                Ty::Str => return true,
                Ty::Arr(a) => work.push(Ty::Arr(a).elem_or_self()),
                Ty::Obj(c) if !seen.contains(&c) => {
                    seen.push(c);
                    work.extend(self.classes.descs[c as usize].fields.iter().map(|f| f.ty));
                }
                _ => {}
            }
        }
        false
    }

    /// The memory of field `i` of class `c`, created on first use in the entry block.
    pub(super) fn field_mem(&mut self, c: u16, i: u16) -> ValueId {
        let var = match self.field_mems.get(&(c, i)) {
            Some(v) => *v,
            None => {
                let var = self.b.new_var(&format!("$field:{c}.{i}"), Ty::Fields(c, i));
                let entry = self.b.entry();
                let v = self.b.push(entry, Op::Obj(ObjOp::Init, vec![]), Ty::Fields(c, i), None);
                self.b.def_var(var, entry, v);
                self.field_mems.insert((c, i), var);
                var
            }
        };
        self.read(var)
    }

    /// The field named `name` of class `c`: its index and type.
    pub(super) fn field_of(&self, c: u16, name: &str) -> Option<(u16, Ty)> {
        self.classes.descs[c as usize]
            .fields
            .iter()
            .position(|f| f.name == name)
            .map(|i| (i as u16, self.classes.descs[c as usize].fields[i].ty))
    }

    /// Field access on an object another reference may share with `this`: the receiver's fields
    /// are tracked as variables, so a proof would miss the aliasing.
    pub(super) fn note_receiver_alias(&mut self, c: u16) {
        if !self.synthesis() && self.receiver_class == Some(c) && self.frames.last().is_some_and(|f| f.has_this) {
            self.b
                .add_proof_blocker(Blocker::Unsupported("another object of the receiver's class may be `this`".into()));
        }
    }

    pub(super) fn check_object_not_null(&mut self, o: ValueId, at: Node<'t>) {
        if let Op::Obj(ObjOp::Ref(id), _) = self.b.func().value(o).op {
            if id != 0 {
                return;
            }
        }
        let ty = self.ty(o);
        let null = self.emit(Op::Obj(ObjOp::Ref(0), vec![]), ty, None);
        let is_null = self.bin(BinOp::Eq, o, null);
        self.raise_if(is_null, "NullPointerException", at);
    }

    /// `o.f` for an object of a modelled class.
    pub(super) fn object_get(&mut self, o: ValueId, c: u16, field: &str, at: Node<'t>) -> Option<ValueId> {
        let (i, ty) = self.field_of(c, field)?;
        self.note_receiver_alias(c);
        self.check_object_not_null(o, at);
        if let Some(v) = self.constant_field_of(c, field, at) {
            return Some(v);
        }
        let mem = self.field_mem(c, i);
        if let Some(v) = self.stored_value(mem, o) {
            return Some(v);
        }
        Some(self.emit(Op::Obj(ObjOp::Get, vec![mem, o]), ty, Some(at)))
    }

    /// The value the field memory `mem` holds for object `o` when the memory's own definition
    /// says so: the last store to `o`, past stores to other objects the method made (a store
    /// forwarded to its load, so that a field just initialized is known to the solver as such).
    pub(super) fn stored_value(&self, mut mem: ValueId, o: ValueId) -> Option<ValueId> {
        let f = self.b.func();
        let alloc = |v: ValueId| match f.value(v).op {
            Op::Obj(ObjOp::Ref(id), _) if id < 0 => Some(id),
            _ => None,
        };
        loop {
            let Op::Obj(ObjOp::Put, args) = &f.value(mem).op else { return None };
            if args[1] == o {
                return Some(args[2]);
            }
            match (alloc(args[1]), alloc(o)) {
                (Some(a), Some(b)) if a != b => mem = args[0],
                _ => return None,
            }
        }
    }

    /// `o.f = v`.
    pub(super) fn object_put(&mut self, o: ValueId, c: u16, i: u16, v: ValueId) {
        let mem = self.field_mem(c, i);
        let m = self.emit(Op::Obj(ObjOp::Put, vec![mem, o, v]), Ty::Fields(c, i), None);
        let var = self.field_mems[&(c, i)];
        self.assign(var, m);
    }

    /// `obj.f = v`, `obj.f op= v`, for an object of a modelled class.
    pub(super) fn object_assign(&mut self, l: Node<'t>, op: &str, r: Node<'t>, e: Node<'t>) -> Option<ValueId> {
        let o_node = l.child_by_field_name("object")?;
        let field = text_of(l.child_by_field_name("field")?, self.src);
        let o = self.expr(o_node);
        let Ty::Obj(c) = self.ty(o) else { return None };
        let Some((i, ty)) = self.field_of(c, field) else { return None };
        self.note_receiver_alias(c);
        self.check_object_not_null(o, l);
        Some(self.field_store((o, c, i, ty), op, r, e))
    }

    /// `new C()` of a class whose objects need nothing but their default field values.
    pub(super) fn new_object(&mut self, c: u16, at: Node<'t>) -> ValueId {
        let id = self.next_alloc;
        self.next_alloc -= 1;
        let r = self.emit(Op::Obj(ObjOp::Ref(id), vec![]), Ty::Obj(c), Some(at));
        let fields: Vec<Ty> = self.classes.descs[c as usize].fields.iter().map(|f| f.ty).collect();
        for (i, ty) in fields.into_iter().enumerate() {
            let zero = self.zero_of(ty);
            self.object_put(r, c, i as u16, zero);
        }
        r
    }

    /// `this` of the current frame when it is an object in the field memories.
    pub(super) fn this_obj(&self) -> Option<(ValueId, u16)> {
        self.frames.last().and_then(|f| f.this_obj)
    }

    /// Field `name` of `this` when `this` is an object in the field memories: the object, its
    /// class, the field's index and type.
    pub(super) fn this_obj_field(&self, name: &str) -> Option<FieldSlot> {
        let (r, c) = self.this_obj()?;
        let (i, ty) = self.field_of(c, name)?;
        Some((r, c, i, ty))
    }

    /// `o.f op= r` for field `i` of class `c` of an object `o` known not to be null.
    pub(super) fn field_store(&mut self, (o, c, i, ty): FieldSlot, op: &str, r: Node<'t>, e: Node<'t>) -> ValueId {
        let v = if op == "=" {
            let v = self.expr_as(r, Some(ty));
            self.convert(v, ty)
        } else {
            let mem = self.field_mem(c, i);
            let old = self.emit(Op::Obj(ObjOp::Get, vec![mem, o]), ty, None);
            let rv = self.expr(r);
            let v = self.binop_values(op.trim_end_matches('='), old, rv, e);
            self.convert(v, ty)
        };
        if self.cur.is_some() {
            self.object_put(o, c, i, v);
        }
        v
    }

    /// `o.f++` (and the other increments) for an object known not to be null.
    pub(super) fn field_update(&mut self, (o, c, i, ty): FieldSlot, inc: bool, prefix: bool, e: Node<'t>) -> ValueId {
        let mem = self.field_mem(c, i);
        let old = self.emit(Op::Obj(ObjOp::Get, vec![mem, o]), ty, Some(e));
        let new = self.stepped(old, ty, inc);
        self.object_put(o, c, i, new);
        if prefix {
            new
        } else {
            old
        }
    }

    /// Creates the memory variable of every array type the file mentions, so that every abstraction
    /// (loops, calls) covers all of them.
    /// The memories of the file's array types (`types`, from [`array_types`]) and of its
    /// classes' fields, as they are on entry.
    pub(super) fn declare_memories(&mut self, types: &[ArrTy]) {
        for c in 0..self.classes.descs.len() {
            for i in 0..self.classes.descs[c].fields.len() {
                self.field_mem(c as u16, i as u16);
            }
        }
        let entry = self.b.entry();
        for &t in types {
            let var = self.b.new_var(&format!("$mem:{}", t.java_name()), Ty::Mem(t));
            let v = self.b.push(entry, Op::Arr(ArrOp::Init, vec![]), Ty::Mem(t), None);
            self.b.def_var(var, entry, v);
            self.mems.insert(t, var);
        }
    }

    /// The current memory of arrays of type `t`.
    pub(super) fn mem(&mut self, t: ArrTy) -> ValueId {
        let var = match self.mems.get(&t) {
            Some(v) => *v,
            None => {
                // A type the scan missed (e.g. from a cast): start from the entry memory.
                let var = self.b.new_var(&format!("$mem:{}", t.java_name()), Ty::Mem(t));
                let entry = self.b.entry();
                let v = self.b.push(entry, Op::Arr(ArrOp::Init, vec![]), Ty::Mem(t), None);
                self.b.def_var(var, entry, v);
                self.mems.insert(t, var);
                var
            }
        };
        self.read(var)
    }

    pub(super) fn set_mem(&mut self, t: ArrTy, m: ValueId) {
        let var = self.mems[&t];
        self.assign(var, m);
    }

    pub(super) fn check_array_not_null(&mut self, a: ValueId, at: Node<'t>) {
        if let Op::Arr(ArrOp::Ref(id), _) = self.b.func().value(a).op {
            if id != 0 {
                return;
            }
        }
        let ty = self.ty(a);
        let null = self.emit(Op::Arr(ArrOp::Ref(0), vec![]), ty, None);
        let is_null = self.bin(BinOp::Eq, a, null);
        self.raise_if(is_null, "NullPointerException", at);
    }

    /// `a[i]` is valid: `a` not null, `0 <= i < a.length`.
    pub(super) fn check_element(&mut self, a: ValueId, t: ArrTy, i: ValueId, at: Node<'t>) {
        self.check_array_not_null(a, at);
        let mem = self.mem(t);
        let len = self.emit(Op::Arr(ArrOp::Len, vec![mem, a]), Ty::Int, None);
        let zero = self.int(Ty::Int, 0);
        let neg = self.bin(BinOp::Lt, i, zero);
        let past = self.bin(BinOp::Ge, i, len);
        let bad = self.bin(BinOp::Or, neg, past);
        self.raise_if(bad, "ArrayIndexOutOfBoundsException", at);
    }

    /// The array and index of an `array_access`, checked.
    pub(super) fn element(&mut self, e: Node<'t>) -> Option<(ValueId, ArrTy, ValueId)> {
        let (a, t, i) = self.element_operands(e)?;
        self.check_element(a, t, i, e);
        Some((a, t, i))
    }

    /// The array and the index of `a[i]`, evaluated in that order, not yet checked.
    pub(super) fn element_operands(&mut self, e: Node<'t>) -> Option<(ValueId, ArrTy, ValueId)> {
        let (an, iname) = (e.child_by_field_name("array")?, e.child_by_field_name("index")?);
        let a = self.expr(an);
        let i = self.expr(iname);
        let Ty::Arr(t) = self.ty(a) else {
            self.unsupported(format!("indexing `{}`, whose type jreach does not know", self.text(an)));
            return None;
        };
        let i = {
            let p = Ty::promote1(self.ty(i));
            let i = self.convert(i, p);
            self.convert(i, Ty::Int)
        };
        Some((a, t, i))
    }

    pub(super) fn array_load(&mut self, e: Node<'t>) -> ValueId {
        match self.element(e) {
            Some((a, t, i)) => {
                let mem = self.mem(t);
                self.emit(Op::Arr(ArrOp::Load, vec![mem, a, i]), t.elem(), Some(e))
            }
            None => self.opaque("an array element".into(), Ty::Ref, None),
        }
    }

    pub(super) fn store(&mut self, t: ArrTy, a: ValueId, i: ValueId, v: ValueId) {
        if matches!(t.elem(), Ty::Ref | Ty::Obj(_) | Ty::Arr(_)) && !self.is_null_const(v) {
            // An array of references may be of a subclass's array type (JLS 10.5).
            self.may_throw_here("storing into an array of references (ArrayStoreException)");
        }
        // An array of untracked references holds untracked references: a string or object put
        // there is any value when read back.
        let v = if t.elem() == Ty::Ref && self.ty(v) != Ty::Ref {
            self.opaque("a reference jreach does not track".into(), Ty::Ref, None)
        } else {
            v
        };
        let mem = self.mem(t);
        let m = self.emit(Op::Arr(ArrOp::Store, vec![mem, a, i, v]), Ty::Mem(t), None);
        self.set_mem(t, m);
    }

    /// `System.arraycopy(src, srcPos, dest, destPos, length)` between arrays of one type, as the
    /// JDK does it: NullPointerException for a null array, ArrayIndexOutOfBoundsException for a
    /// negative position or length or a range past the end of either array, else the elements
    /// copied as if through a temporary array (each read from the memory before the copy, so
    /// overlapping ranges of one array come out right). The copy is a loop, unrolled as loops are
    /// in synthesis. `None` in proofs (for now: the soundness generator does not call it yet), and
    /// for arrays of two types (ArrayStoreException, or a conversion jreach does not model): the
    /// call is then one jreach cannot see. Checked against the JDK by `ir/tests/jdk_models.rs`.
    pub(super) fn array_copy(&mut self, args: &[ValueId], e: Node<'t>) -> Option<ValueId> {
        if !self.synthesis() {
            return None;
        }
        let [src, src_pos, dst, dst_pos, len] = *args else { return None };
        let (Ty::Arr(t), Ty::Arr(u)) = (self.ty(src), self.ty(dst)) else { return None };
        let ints =
            [src_pos, dst_pos, len].iter().all(|v| matches!(self.ty(*v), Ty::Int | Ty::Short | Ty::Byte | Ty::Char));
        if t != u || !ints || !self.mems.contains_key(&t) {
            return None;
        }
        let (unroll, past_bound) = self.unrolling()?;
        let [src_pos, dst_pos, len] = [src_pos, dst_pos, len].map(|v| self.convert(v, Ty::Int));
        self.check_array_not_null(src, e);
        self.check_array_not_null(dst, e);
        let before = self.mem(t);
        // Positions and lengths are compared as `long`s: `srcPos + length` may pass `int`'s range.
        let zero = self.int(Ty::Int, 0);
        let mut bad = self.bin(BinOp::Lt, len, zero);
        for (a, pos) in [(src, src_pos), (dst, dst_pos)] {
            let negative = self.bin(BinOp::Lt, pos, zero);
            let array_len = self.emit(Op::Arr(ArrOp::Len, vec![before, a]), Ty::Int, None);
            let (pos, n, array_len) =
                (self.convert(pos, Ty::Long), self.convert(len, Ty::Long), self.convert(array_len, Ty::Long));
            let end = self.bin(BinOp::Add, pos, n);
            let past = self.bin(BinOp::Gt, end, array_len);
            let either = self.bin(BinOp::Or, negative, past);
            bad = self.bin(BinOp::Or, bad, either);
        }
        self.raise_if(bad, "ArrayIndexOutOfBoundsException", e);
        let copied = self.b.new_var("$copied", Ty::Int);
        self.assign(copied, zero);
        let exit = self.b.create_block();
        let mut k = 0;
        while self.cur.is_some() {
            let i = self.read(copied);
            let more = self.bin(BinOp::Lt, i, len);
            let body = self.b.create_block();
            self.branch(more, body, exit, None);
            self.b.seal(body);
            self.cur = Some(body);
            if k >= unroll || self.too_big() {
                self.cutoff(if k >= unroll { past_bound } else { CutoffKind::SizeLimit });
                break;
            }
            let from = self.bin(BinOp::Add, src_pos, i);
            let to = self.bin(BinOp::Add, dst_pos, i);
            let v = self.emit(Op::Arr(ArrOp::Load, vec![before, src, from]), t.elem(), None);
            self.store(t, dst, to, v);
            let one = self.int(Ty::Int, 1);
            let next = self.bin(BinOp::Add, i, one);
            self.assign(copied, next);
            k += 1;
        }
        self.b.seal(exit);
        self.cur = Some(exit);
        Some(self.opaque("no value (void)".into(), Ty::Void, None))
    }

    /// `a[i] = v` and `a[i] op= v`.
    pub(super) fn array_assign(&mut self, l: Node<'t>, op: &str, r: Node<'t>, e: Node<'t>) -> ValueId {
        let Some((a, t, i)) = self.element_operands(l) else {
            return self.opaque("an array element".into(), Ty::Ref, None);
        };
        let elem = t.elem();
        let v = if op == "=" {
            // The right side runs before the null and bounds checks (JLS 15.26.1).
            let v = self.expr_as(r, Some(elem));
            let v = self.convert(v, elem);
            if self.cur.is_some() {
                self.check_element(a, t, i, l);
            }
            v
        } else {
            // A compound assignment reads the element first (JLS 15.26.2).
            self.check_element(a, t, i, l);
            let mem = self.mem(t);
            let old = self.emit(Op::Arr(ArrOp::Load, vec![mem, a, i]), elem, None);
            let rv = self.expr(r);
            let v = self.binop_values(op.trim_end_matches('='), old, rv, e);
            self.convert(v, elem)
        };
        if self.cur.is_some() {
            self.store(t, a, i, v);
        }
        v
    }

    /// `a[i]++` and friends.
    pub(super) fn array_update(&mut self, target: Node<'t>, inc: bool, prefix: bool, e: Node<'t>) -> ValueId {
        let Some((a, t, i)) = self.element(target) else {
            return self.opaque("an array element".into(), Ty::Int, None);
        };
        let elem = t.elem();
        let mem = self.mem(t);
        let old = self.emit(Op::Arr(ArrOp::Load, vec![mem, a, i]), elem, Some(e));
        let new = self.stepped(old, elem, inc);
        self.store(t, a, i, new);
        if prefix {
            new
        } else {
            old
        }
    }

    /// A dimension expression of an array creation, promoted to `int` (JLS 15.10.1).
    fn array_length(&mut self, n: Node<'t>) -> ValueId {
        let len = self.expr(n);
        let p = Ty::promote1(self.ty(len));
        let len = self.convert(len, p);
        self.convert(len, Ty::Int)
    }

    /// NegativeArraySizeException when `len` is negative.
    fn raise_if_negative_length(&mut self, len: ValueId, at: Node<'t>) {
        let zero = self.int(Ty::Int, 0);
        let neg = self.bin(BinOp::Lt, len, zero);
        self.raise_if(neg, "NegativeArraySizeException", at);
    }

    /// A new array of `len` elements of type `t`.
    pub(super) fn new_array(&mut self, t: ArrTy, len: ValueId, at: Node<'t>) -> ValueId {
        self.raise_if_negative_length(len, at);
        let known = match self.b.func().value(len).op {
            Op::Const(Const::Int(_, n)) => Some(n),
            _ => None,
        };
        // HotSpot refuses arrays of `Integer.MAX_VALUE - 1` elements or more, whatever the heap.
        if known.is_none_or(|n| n >= VM_ARRAY_LIMIT as i64) {
            let limit = self.int(Ty::Int, VM_ARRAY_LIMIT as i64);
            let refused = self.bin(BinOp::Ge, len, limit);
            self.raise_if(refused, "OutOfMemoryError", at);
        }
        if self.synthesis() && known.is_none_or(|n| n > LARGEST_TEST_ARRAY as i64) {
            // Whether a large array fits depends on the heap: no test relies on it, and the
            // interpreter does not build it.
            let large = self.int(Ty::Int, LARGEST_TEST_ARRAY as i64);
            let too_large = self.bin(BinOp::Gt, len, large);
            let cut = self.b.create_block();
            let fits = self.b.create_block();
            self.branch(too_large, cut, fits, None);
            self.b.seal(cut);
            self.b.seal(fits);
            self.cur = Some(cut);
            self.unsupported(format!(
                "an array of more than {LARGEST_TEST_ARRAY} elements may not fit in the heap of a test run"
            ));
            self.cur = Some(fits);
        }
        let id = self.next_alloc;
        self.next_alloc -= 1;
        let r = self.emit(Op::Arr(ArrOp::Ref(id), vec![]), Ty::Arr(t), Some(at));
        let mem = self.mem(t);
        let m = self.emit(Op::Arr(ArrOp::New, vec![mem, r, len]), Ty::Mem(t), None);
        self.set_mem(t, m);
        r
    }

    /// `new int[n]`, `new int[] {…}`.
    pub(super) fn array_creation(&mut self, e: Node<'t>) -> ValueId {
        let ty_text = e.child_by_field_name("type").map(|t| self.text(t)).unwrap_or("");
        let mut c = e.walk();
        let dims: Vec<Node<'t>> = e.children_by_field_name("dimensions", &mut c).collect();
        let total = dims.iter().map(|d| self.text(*d).matches('[').count()).sum::<usize>();
        let Some(t) = self.classes.arr_of(ty_text, total) else {
            if let Some(init) = e.child_by_field_name("value") {
                return self.untyped_array_literal(init, None);
            }
            self.unsupported(format!("arrays of {ty_text} are not modelled yet"));
            return self.opaque("an array".into(), Ty::Ref, None);
        };
        if let Some(init) = e.child_by_field_name("value") {
            return self.array_literal(init, t);
        }
        let sized: Vec<Node<'t>> = dims.iter().copied().filter(|d| d.kind() == "dimensions_expr").collect();
        if sized.len() > 1 {
            return self.multi_dimensional_array(t, &sized, e);
        }
        if sized.len() != 1 {
            self.unsupported("array creation without a length is not modelled yet");
            return self.opaque("an array".into(), Ty::Arr(t), None);
        }
        let Some(n) = named_children(sized[0]).into_iter().next() else {
            return self.opaque("an array".into(), Ty::Arr(t), None);
        };
        let len = self.array_length(n);
        self.new_array(t, len, e)
    }

    /// `new int[n][m]...`: the lengths are evaluated left to right, then a negative one throws
    /// (JLS 15.10.2); the array itself is one jreach does not track (any array of its type, which
    /// over-approximates a new one). Synthesis cannot write tests on its contents: unsupported.
    fn multi_dimensional_array(&mut self, t: ArrTy, sized: &[Node<'t>], e: Node<'t>) -> ValueId {
        let lens: Vec<ValueId> =
            sized.iter().filter_map(|d| named_children(*d).into_iter().next()).map(|n| self.array_length(n)).collect();
        for len in lens {
            self.raise_if_negative_length(len, e);
        }
        if self.synthesis() {
            self.unsupported("multi-dimensional array creation is not modelled yet");
        }
        self.opaque(format!("`{}`", self.text(e)), Ty::Arr(t), Some(e))
    }

    /// `{a, b}` where jreach does not know the array's type: the elements are evaluated in order
    /// for what they do, and the array is a reference of a type jreach does not know. Synthesis
    /// cannot write tests on it: unsupported.
    pub(super) fn untyped_array_literal(&mut self, e: Node<'t>, hint: Option<Ty>) -> ValueId {
        for item in named_children(e) {
            if item.kind() == "array_initializer" {
                self.untyped_array_literal(item, None);
            } else {
                self.expr(item);
            }
        }
        if self.synthesis() {
            self.unsupported("an array initializer of an unknown type");
        }
        self.opaque("an array of a type jreach does not know".into(), hint.unwrap_or(Ty::Ref), Some(e))
    }

    /// `{a, b, c}` as an array of type `t`.
    pub(super) fn array_literal(&mut self, e: Node<'t>, t: ArrTy) -> ValueId {
        let items = named_children(e);
        let elem = t.elem();
        let values: Vec<ValueId> = items
            .iter()
            .map(|i| {
                let v = self.expr_as(*i, Some(elem));
                self.convert(v, elem)
            })
            .collect();
        let len = self.int(Ty::Int, values.len() as i64);
        let r = self.new_array(t, len, e);
        for (k, v) in values.into_iter().enumerate() {
            let i = self.int(Ty::Int, k as i64);
            self.store(t, r, i, v);
        }
        r
    }
}

/// The least array length HotSpot refuses with `OutOfMemoryError: Requested array size exceeds VM
/// limit`, whatever the heap (`Integer.MAX_VALUE - 1`).
pub(super) const VM_ARRAY_LIMIT: i32 = i32::MAX - 1;

/// The largest array a test may create (synthesis cuts paths that allocate more).
pub(super) const LARGEST_TEST_ARRAY: i32 = 1 << 24;

/// Every array type the file writes (in declarations, parameters and creations), with the
/// element types of its rows, sorted by name: one memory each (the same for every method of the
/// file, worked out once per file and view of the classes).
pub(super) fn array_types(file: &SourceFile, classes: &Classes) -> Vec<ArrTy> {
    let text = |n: Node<'_>| &file.text[n.byte_range()];
    let mut types = Vec::new();
    let mut stack = vec![file.tree.root_node()];
    while let Some(n) = stack.pop() {
        match n.kind() {
            "array_type" => types.extend(classes.arr_of(text(n), 0)),
            "variable_declarator" | "formal_parameter" => {
                if let Some(d) = n.child_by_field_name("dimensions") {
                    let dims = text(d).matches('[').count();
                    let base = n
                        .parent()
                        .and_then(|p| p.child_by_field_name("type"))
                        .or_else(|| n.child_by_field_name("type"));
                    if let Some(b) = base {
                        types.extend(classes.arr_of(text(b), dims));
                    }
                }
            }
            "array_creation_expression" => {
                if let Some(ty) = n.child_by_field_name("type") {
                    let dims = text(n).matches('[').count();
                    types.extend(classes.arr_of(text(ty), dims));
                }
            }
            _ => {}
        }
        stack.extend(named_children(n));
    }
    // Element arrays of arrays of arrays.
    let mut all = Vec::new();
    for t in types {
        for d in 1..=t.dims {
            all.push(ArrTy { leaf: t.leaf, dims: d });
        }
    }
    all.sort_by_key(|t| t.java_name());
    all.dedup();
    all
}
