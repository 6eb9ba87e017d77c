//! `java.util.Optional` in synthesis. An Optional is immutable, so it is fully described by
//! whether it holds a value and which: a parameter is `Optional.of(v)`, `Optional.empty()` or
//! null (which covers every Optional a caller can pass: no proof blocker), and the method's own
//! `Optional.of`, `ofNullable` and `empty` make new ones. `isPresent`, `isEmpty`, `get`,
//! `orElseThrow()` and `orElse` are selects over the Optionals an object may be; anything else
//! (the methods taking lambdas) ends the path. Proofs follow the Optionals the method makes
//! (the same factories and calls on them); other Optionals are objects of unknown code there.

use jreach_syntax::Node;

use super::{Lowerer, OptionalModel};
use crate::func::*;
use crate::types::{Const, Ty};

impl<'t> Lowerer<'t> {
    /// The Optional a test passes: null unless `present`; else holding `value` when `count` is
    /// 1, empty when it is 0.
    pub(super) fn optional_input(&mut self, ty: Ty, present: ValueId, count: ValueId, value: ValueId) -> ValueId {
        self.assume_between(count, 0, 1);
        let one = self.int(Ty::Int, 1);
        let has = self.bin(BinOp::Eq, count, one);
        // `Optional.of(null)` throws: no Optional holds null.
        let null = self.is_null(value);
        let holds_null = self.bin(BinOp::And, has, null);
        self.cut_if(holds_null, "an Optional holding null");
        let obj = self.new_optional(ty, has, Some(value));
        let null = self.emit(Op::Obj(ObjOp::Ref(0), vec![]), ty, None);
        self.select(present, obj, null)
    }

    /// A new Optional object holding `value` when `has` is true.
    fn new_optional(&mut self, ty: Ty, has: ValueId, value: Option<ValueId>) -> ValueId {
        let id = self.next_alloc;
        self.next_alloc -= 1;
        let obj = self.emit(Op::Obj(ObjOp::Ref(id), vec![]), ty, None);
        self.optionals.push(OptionalModel { obj, has, value });
        obj
    }

    /// `Optional.of(x)`, `Optional.ofNullable(x)`, `Optional.empty()`, in both modes (their
    /// meaning is exact). `None`: not one of these.
    pub(super) fn optional_factory(&mut self, name: &str, args: &[ValueId], e: Node<'t>) -> Option<ValueId> {
        let c = *self.classes.by_name.get(OPTIONAL_CLASS)?;
        let ty = Ty::Obj(c);
        let v = match (name, args) {
            ("empty", []) => {
                let no = self.konst(Const::Bool(false));
                self.new_optional(ty, no, None)
            }
            ("of" | "ofNullable", [x]) => {
                let x = self.boxed(*x)?;
                let null = self.is_null(x);
                if name == "of" {
                    self.raise_if(null, "NullPointerException", e);
                }
                let has = self.emit(Op::Unary(UnOp::Not, null), Ty::Bool, None);
                self.new_optional(ty, has, Some(x))
            }
            _ => return None,
        };
        Some(v)
    }

    /// `x` as an object: strings and objects as they are, primitives in their box (when the
    /// file names the box as a type). `None` for other values.
    fn boxed(&mut self, x: ValueId) -> Option<ValueId> {
        let ty = self.ty(x);
        if matches!(ty, Ty::Str | Ty::Obj(_)) {
            return Some(x);
        }
        let c = (0..self.classes.descs.len()).find(|c| self.classes.descs[*c].boxes == Some(ty))?;
        Some(self.convert(x, Ty::Obj(c as u16)))
    }

    /// `o.name(args)` on an Optional: in synthesis any of them, in proofs one the method made.
    pub(super) fn call_on_optional(
        &mut self,
        o: ValueId,
        name: &str,
        args: &[ValueId],
        e: Node<'t>,
        hint: Option<Ty>,
    ) -> ValueId {
        let unknown_ty = hint.unwrap_or(Ty::Ref);
        let opts: Vec<OptionalModel> = if self.synthesis() {
            self.optionals.clone()
        } else {
            // Proofs: only an Optional the method made, which `o` is.
            self.optionals.iter().filter(|m| m.obj == o).cloned().collect()
        };
        if self.synthesis() {
            let objs: Vec<ValueId> = opts.iter().map(|m| m.obj).collect();
            if !self.guard_one_of(o, &objs, "an Optional jreach did not create", e) {
                return self.opaque(format!("Optional.{name}"), unknown_ty, None);
            }
        }
        // The element type: what the Optionals hold (one type, as Java's typing ensures).
        let mut elem_tys: Vec<Ty> = opts.iter().filter_map(|m| m.value.map(|v| self.ty(v))).collect();
        elem_tys.dedup();
        let elem_ty = match elem_tys.as_slice() {
            [t] => *t,
            [] => hint.filter(|t| matches!(t, Ty::Str | Ty::Obj(_))).unwrap_or(Ty::Ref),
            _ => {
                self.unsupported("Optionals of different element types");
                return self.opaque(format!("Optional.{name}"), unknown_ty, None);
            }
        };
        let has = self.select_by_object(o, &opts, |m| m.obj, &|_, m| m.has);
        match (name, args) {
            ("isPresent", []) => has,
            ("isEmpty", []) => self.emit(Op::Unary(UnOp::Not, has), Ty::Bool, None),
            ("get" | "orElseThrow", []) => {
                let empty = self.emit(Op::Unary(UnOp::Not, has), Ty::Bool, None);
                self.raise_if(empty, "NoSuchElementException", e);
                self.held(o, &opts, elem_ty)
            }
            ("orElse", [other]) => {
                let other = self.convert(*other, elem_ty);
                let inside = self.held(o, &opts, elem_ty);
                self.select(has, inside, other)
            }
            _ => {
                self.unsupported(format!("Optional.{name} is not modelled yet"));
                self.opaque(format!("Optional.{name}"), unknown_ty, None)
            }
        }
    }

    /// What the Optional `o` (one of `opts`) holds; a zero of `elem_ty` for an empty one.
    fn held(&mut self, o: ValueId, opts: &[OptionalModel], elem_ty: Ty) -> ValueId {
        self.select_by_object(o, opts, |m| m.obj, &|lw, m| match m.value {
            Some(v) => v,
            None => lw.zero_of(elem_ty),
        })
    }
}
