//! Emitting IR: the current block, values, constants, branches and their joins, conversions
//! between primitive types, and the cut-offs that end a path (with their proof blockers).

use super::*;

impl<'t> Lowerer<'t> {
    /// The current block; code after an abrupt completion goes into a fresh block no path reaches.
    pub(super) fn cur(&mut self) -> BlockId {
        match self.cur {
            Some(b) => b,
            None => {
                let b = self.b.create_block();
                self.b.seal(b);
                self.cur = Some(b);
                b
            }
        }
    }

    pub(super) fn emit(&mut self, op: Op, ty: Ty, n: Option<Node<'_>>) -> ValueId {
        let b = self.cur();
        self.b.push(b, op, ty, n.map(|n| n.byte_range()))
    }

    pub(super) fn konst(&mut self, c: Const) -> ValueId {
        let ty = c.ty();
        self.emit(Op::Const(c), ty, None)
    }

    pub(super) fn int(&mut self, ty: Ty, v: i64) -> ValueId {
        self.konst(Const::int(ty, v))
    }

    pub(super) fn ty(&self, v: ValueId) -> Ty {
        self.b.func().value(v).ty
    }

    pub(super) fn bin(&mut self, op: BinOp, a: ValueId, c: ValueId) -> ValueId {
        let ty = if op.is_comparison() { Ty::Bool } else { self.ty(a) };
        self.emit(Op::Binary(op, a, c), ty, None)
    }

    pub(super) fn select(&mut self, c: ValueId, a: ValueId, e: ValueId) -> ValueId {
        let ty = self.ty(a);
        self.emit(Op::Select(c, a, e), ty, None)
    }

    /// `cond ? then(..) : els(..)` lowered as branches, so that each side is evaluated only where
    /// it applies (a `select` evaluates both). Each side yields a value of type `ty`.
    pub(super) fn diamond(
        &mut self,
        cond: ValueId,
        ty: Ty,
        then: impl FnOnce(&mut Self) -> ValueId,
        els: impl FnOnce(&mut Self) -> ValueId,
    ) -> ValueId {
        let tmp = self.b.new_var("$diamond", ty);
        let (t, f, join) = (self.b.create_block(), self.b.create_block(), self.b.create_block());
        self.branch(cond, t, f, None);
        self.b.seal(t);
        self.b.seal(f);
        for (block, side) in [(t, Box::new(then) as Box<dyn FnOnce(&mut Self) -> ValueId>), (f, Box::new(els))] {
            self.cur = Some(block);
            let v = side(self);
            if self.cur.is_some() {
                self.assign(tmp, v);
                self.jump(join);
            }
        }
        self.b.seal(join);
        self.cur = Some(join);
        self.read(tmp)
    }

    pub(super) fn nondet(&mut self, kind: NondetKind, ty: Ty, n: Option<Node<'_>>) -> ValueId {
        self.emit(Op::Nondet(kind), ty, n)
    }

    pub(super) fn opaque(&mut self, what: String, ty: Ty, n: Option<Node<'_>>) -> ValueId {
        self.nondet(NondetKind::Opaque { what }, ty, n)
    }

    /// The opaque value of expression `e`, computed from `operands`: described by its text and,
    /// when an operand comes from a call jreach does not see into, by that call (`today.getYear()
    /// > 3000`, from `LocalDate.now()`, the machine's clock), which it passes on.
    pub(super) fn opaque_from(&mut self, operands: &[ValueId], ty: Ty, e: Node<'_>) -> ValueId {
        let source = operands.iter().find_map(|v| self.unknown_sources.get(v).cloned());
        let what = match &source {
            Some(call) => format!("`{}` (it comes from `{call}`{})", self.text(e), machine_state(call)),
            None => format!("`{}`", self.text(e)),
        };
        let v = self.opaque(what, ty, Some(e));
        if let Some(call) = source {
            self.unknown_sources.insert(v, call);
        }
        v
    }

    pub(super) fn jump(&mut self, to: BlockId) {
        if let Some(c) = self.cur.take() {
            self.b.terminate(c, Terminator::Jump(to));
        }
    }

    pub(super) fn branch(&mut self, cond: ValueId, then_to: BlockId, else_to: BlockId, origin: Option<CondOrigin>) {
        let c = self.cur();
        self.cur = None;
        self.b.terminate(c, Terminator::Branch { cond, then_to, else_to, origin });
    }

    /// Ends the current path: something beyond the model. Records a proof blocker unless the cut is
    /// part of a sound abstraction.
    pub(super) fn cutoff(&mut self, kind: CutoffKind) {
        match &kind {
            CutoffKind::LoopIteration => {}
            CutoffKind::InlineDepth | CutoffKind::UnrollBound | CutoffKind::SizeLimit => {
                self.b.add_proof_blocker(Blocker::Bound(kind.clone()))
            }
            CutoffKind::Unsupported(why) => self.b.add_proof_blocker(Blocker::Unsupported(why.clone())),
            CutoffKind::Unwinding => self.b.add_proof_blocker(Blocker::Unwinding),
            CutoffKind::InvariantBroken(_) => self.b.add_proof_blocker(Blocker::Invariant),
            CutoffKind::ClassInvariantBroken(_) => self.b.add_proof_blocker(Blocker::ClassInvariant),
            // Sound under the invariants' proof, which `InvariantBroken` blocks wait for.
            CutoffKind::Assumed => {}
            // Exact (the call never returns normally), but proofs do not rely on it: `check` keeps
            // the statements after it live, and `gen` says the same.
            CutoffKind::EndsJvm(call) => {
                self.b.add_proof_blocker(Blocker::Narrowing(format!("synthesis does not follow a path past {call}")))
            }
        }
        if let Some(c) = self.cur.take() {
            self.b.terminate(c, Terminator::Cutoff(kind));
        }
    }

    pub(super) fn unsupported(&mut self, what: impl Into<String>) {
        self.cutoff(CutoffKind::Unsupported(what.into()));
    }

    /// Converts `v` to `to` (assignment/casting conversion between primitives). References become
    /// unknown primitives (unboxing of a value jreach does not track).
    pub(super) fn convert(&mut self, v: ValueId, to: Ty) -> ValueId {
        let from = self.ty(v);
        if to == Ty::Ref && from != Ty::Ref && from != Ty::Void {
            // Into a reference type jreach does not see (`Object`, `Number`, `CharSequence`): a
            // primitive is boxed, a string, array or object widened, and such references are
            // not tracked.
            let what = if from.is_numeric() || from == Ty::Bool { "a boxed" } else { "a widened" };
            return self.opaque(format!("{what} {from}"), Ty::Ref, None);
        }
        if from == to || to == Ty::Ref || to == Ty::Void {
            return v;
        }
        if let Ty::Obj(c) = from {
            if let Some(prim) = self.classes.descs[c as usize].boxes {
                if to.is_numeric() || to == Ty::Bool {
                    // Unboxing: NullPointerException on null.
                    self.check_object_not_null(v, self.cur_node());
                    let mem = self.field_mem(c, 0);
                    let x = self.emit(Op::Obj(ObjOp::Get, vec![mem, v]), prim, None);
                    return self.convert(x, to);
                }
            }
        }
        if let Ty::Obj(c) = to {
            if let Some(prim) = self.classes.descs[c as usize].boxes {
                if from.is_numeric() || from == Ty::Bool {
                    let x = self.convert(v, prim);
                    let node = self.cur_node();
                    let r = self.new_object(c, node);
                    self.object_put(r, c, 0, x);
                    return r;
                }
            }
            return if self.is_null_const(v) {
                self.emit(Op::Obj(ObjOp::Ref(0), vec![]), to, None)
            } else {
                self.opaque(format!("a {} jreach does not track", self.classes.descs[c as usize].name), to, None)
            };
        }
        if let Ty::Arr(a) = to {
            return if self.is_null_const(v) {
                self.emit(Op::Arr(ArrOp::Ref(0), vec![]), Ty::Arr(a), None)
            } else {
                let name = a.java_name_with(|c| self.classes.descs[c as usize].name.clone());
                self.opaque(format!("a {name} jreach does not track"), to, None)
            };
        }
        if to == Ty::Str {
            return if self.is_null_const(v) {
                self.emit(Op::Str(StrOp::Null, vec![]), Ty::Str, None)
            } else {
                self.opaque("a string jreach does not track".into(), Ty::Str, None)
            };
        }
        let primitive = |t: Ty| t.is_numeric() || t == Ty::Bool;
        if !primitive(from) || (from == Ty::Bool) != (to == Ty::Bool) {
            if from == Ty::Ref {
                self.may_throw_here("unboxing a reference that may be null");
            }
            return self.opaque(format!("a {to} from a value jreach does not track"), to, None);
        }
        self.emit(Op::Cast(v), to, None)
    }

    pub(super) fn too_big(&self) -> bool {
        self.b.value_count() > self.opts.max_values
    }

    /// The default value of a field or array element of type `t` (zero, false, null).
    pub(super) fn zero_of(&mut self, t: Ty) -> ValueId {
        match t {
            Ty::Bool => self.konst(Const::Bool(false)),
            Ty::Str => self.emit(Op::Str(StrOp::Null, vec![]), Ty::Str, None),
            Ty::Arr(a) => self.emit(Op::Arr(ArrOp::Ref(0), vec![]), Ty::Arr(a), None),
            Ty::Obj(k) => self.emit(Op::Obj(ObjOp::Ref(0), vec![]), Ty::Obj(k), None),
            Ty::Ref => self.konst(Const::Null),
            // A `void` variable or field (broken code): no value.
            Ty::Void => self.opaque("no value (void)".into(), Ty::Void, None),
            t => self.zero(t),
        }
    }

    pub(super) fn zero(&mut self, t: Ty) -> ValueId {
        match t {
            Ty::Float => self.konst(Const::f32(0.0)),
            Ty::Double => self.konst(Const::f64(0.0)),
            _ => self.int(t, 0),
        }
    }

    pub(super) fn is_null_const(&self, v: ValueId) -> bool {
        matches!(self.b.func().value(v).op, Op::Const(Const::Null))
    }

    /// `old + 1` (or `- 1`) of a `++`/`--` on a variable of type `ty`: computed in the promoted
    /// type, converted back (a boxed variable is unboxed, with its null check, and boxed anew).
    pub(super) fn stepped(&mut self, old: ValueId, ty: Ty, inc: bool) -> ValueId {
        let arith = match ty {
            Ty::Obj(c) => self.classes.descs[c as usize].boxes.unwrap_or(ty),
            _ => ty,
        };
        if !arith.is_numeric() {
            // A type jreach does not see (broken code, or a box it does not know).
            return self.opaque(format!("a {ty} stepped by one"), ty, None);
        }
        let p = Ty::promote1(arith);
        let wide = self.convert(old, p);
        let one = match p {
            Ty::Float => self.konst(Const::f32(1.0)),
            Ty::Double => self.konst(Const::f64(1.0)),
            _ => self.int(p, 1),
        };
        let new = self.bin(if inc { BinOp::Add } else { BinOp::Sub }, wide, one);
        self.convert(new, ty)
    }

    /// Ends the path unless `lo <= v <= hi`.
    pub(super) fn assume_between(&mut self, v: ValueId, lo: i64, hi: i64) {
        let lo = self.int(Ty::Int, lo);
        let hi = self.int(Ty::Int, hi);
        let below = self.bin(BinOp::Lt, v, lo);
        let above = self.bin(BinOp::Gt, v, hi);
        let out = self.bin(BinOp::Or, below, above);
        self.cut_if(out, "an input out of its range");
    }

    /// Ends the path when `cond` holds, recording `why` as a proof blocker: synthesis leaves out
    /// what follows (a behaviour jreach does not model on that path).
    pub(super) fn cut_if_narrowed(&mut self, cond: ValueId, why: &str) {
        self.b.add_proof_blocker(Blocker::Narrowing(why.to_string()));
        self.cut_if(cond, why);
    }

    /// Ends the path when `cond` holds: a shape of input that synthesis leaves out on purpose.
    /// No proof blocker is recorded here; the narrowing that makes the shape possible records
    /// its own.
    pub(super) fn cut_if(&mut self, cond: ValueId, why: &str) {
        let cut = self.b.create_block();
        let go = self.b.create_block();
        self.branch(cond, cut, go, None);
        self.b.seal(cut);
        self.b.seal(go);
        self.b.terminate(cut, Terminator::Cutoff(CutoffKind::Unsupported(why.to_string())));
        self.cur = Some(go);
    }
}

/// What a call that reads the machine's state is, for a message: `, the machine's clock, which a
/// test cannot set` for `LocalDate.now()`; empty for other calls.
fn machine_state(call: &str) -> &'static str {
    let name = call.trim_end_matches("()");
    let method = name.rsplit('.').next().unwrap_or(name);
    match method {
        "now" | "currentTimeMillis" | "nanoTime" => ", the machine's clock, which a test cannot set",
        "random" | "randomUUID" => ", a random value, which a test cannot choose",
        "getenv" | "getProperty" => ", the machine's environment, which a test cannot set",
        _ => "",
    }
}
