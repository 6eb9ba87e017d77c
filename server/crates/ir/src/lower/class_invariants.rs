//! Candidate class invariants in the proof lowering ([`LowerOptions::class_invariants`]): a
//! condition over the receiver's fields that every constructor of its class establishes and
//! every instance method keeps, so that a method may assume it when it starts.
//!
//! What the lowering does depends on the method ([`ClassInvariantRole`]):
//! - a **constructor** starts with the fields at their defaults (a constructor always runs on a
//!   fresh object), calls it cannot see leave the fields alone (the caller made sure `this` does
//!   not escape a constructor), and each candidate is checked where it returns;
//! - an **instance method** assumes each candidate when it starts and after each call it cannot
//!   see into (which may run methods of the class on this object, and those keep the candidates),
//!   and checks it before such a call (which may re-enter the object), where it returns and where
//!   an exception leaves it.
//!
//! A failing check ends in a [`CutoffKind::ClassInvariantBroken`] block and the states the
//! assumptions exclude in [`CutoffKind::Assumed`] blocks; both record
//! [`Blocker::ClassInvariant`], which only the proof that no input reaches a failing check in
//! every constructor and method of the class removes (visible-state semantics: the candidates
//! then hold whenever no method of the class is running on the object).

use super::*;

/// What the lowering of a method does with its class's candidate invariants.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum ClassInvariantRole {
    /// No candidates (a static method, synthesis, or none given).
    None,
    /// A constructor: establishes them.
    Constructor,
    /// An instance method: assumes and keeps them.
    Method,
}

/// A candidate class invariant: a condition over the receiver's fields.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ClassInvariant {
    pub cond: FieldCond,
    /// How explanations name it, as Java (`used <= capacity`).
    pub text: String,
    /// The class, as explanations name it.
    pub class: String,
    /// Where its explanation points: the declaration of the first field it reads.
    pub span: std::ops::Range<usize>,
}

/// A condition over the receiver's fields and constants.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum FieldCond {
    /// A comparison (`==`, `!=`, `<`, `<=`, `>`, `>=`).
    Cmp(BinOp, FieldAtom, FieldAtom),
    /// A `boolean` field, or a constant.
    Is(FieldAtom),
    Not(Box<FieldCond>),
    And(Box<FieldCond>, Box<FieldCond>),
    Or(Box<FieldCond>, Box<FieldCond>),
}

/// An operand of a [`FieldCond`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum FieldAtom {
    /// A field of the receiver, by name.
    Field(String),
    Int(i64),
    Bool(bool),
    Null,
}

impl<'t> Lowerer<'t> {
    /// Whether `cond` holds for the receiver's fields now; `None` when it cannot be evaluated
    /// (a field the lowering does not track, operands of types that do not compare).
    fn field_cond(&mut self, cond: &FieldCond) -> Option<ValueId> {
        Some(match cond {
            FieldCond::Cmp(op, a, b) => {
                if matches!(a, FieldAtom::Null) || matches!(b, FieldAtom::Null) {
                    let other = if matches!(a, FieldAtom::Null) { b } else { a };
                    let v = self.field_atom(other, None)?;
                    // Strings and objects of the file's classes: references jreach does not
                    // track (`Ty::Ref`) have no null test the solver knows.
                    if !matches!(self.ty(v), Ty::Str | Ty::Obj(_)) {
                        return None;
                    }
                    let is_null = self.is_null(v);
                    match op {
                        BinOp::Eq => is_null,
                        BinOp::Ne => self.emit(Op::Unary(UnOp::Not, is_null), Ty::Bool, None),
                        _ => return None,
                    }
                } else {
                    // Java compares `byte`, `short` and `char` as `int`s (binary numeric
                    // promotion), so a constant is never wrapped to their width.
                    let x = self.field_atom(a, None)?;
                    let x = self.promoted(x);
                    let y = self.field_atom(b, Some(self.ty(x)))?;
                    let y = self.promoted(y);
                    let (tx, ty) = (self.ty(x), self.ty(y));
                    let (x, y) = if tx == ty {
                        (x, y)
                    } else if tx.is_integral() && ty.is_integral() {
                        let wide = if tx == Ty::Long || ty == Ty::Long { Ty::Long } else { Ty::Int };
                        (self.convert(x, wide), self.convert(y, wide))
                    } else {
                        return None;
                    };
                    if !(self.ty(x).is_integral() || (self.ty(x) == Ty::Bool && matches!(op, BinOp::Eq | BinOp::Ne))) {
                        return None;
                    }
                    self.bin(*op, x, y)
                }
            }
            FieldCond::Is(a) => {
                let v = self.field_atom(a, Some(Ty::Bool))?;
                if self.ty(v) != Ty::Bool {
                    return None;
                }
                v
            }
            FieldCond::Not(c) => {
                let v = self.field_cond(c)?;
                self.emit(Op::Unary(UnOp::Not, v), Ty::Bool, None)
            }
            FieldCond::And(a, b) | FieldCond::Or(a, b) => {
                let (x, y) = (self.field_cond(a)?, self.field_cond(b)?);
                let op = if matches!(cond, FieldCond::And(..)) { BinOp::And } else { BinOp::Or };
                self.bin(op, x, y)
            }
        })
    }

    /// `v` as an `int` if it is a narrower integral value.
    fn promoted(&mut self, v: ValueId) -> ValueId {
        match self.ty(v) {
            Ty::Byte | Ty::Short | Ty::Char => self.convert(v, Ty::Int),
            _ => v,
        }
    }

    /// The value of an operand; a constant takes the type `like` (the other operand's).
    fn field_atom(&mut self, a: &FieldAtom, like: Option<Ty>) -> Option<ValueId> {
        match a {
            FieldAtom::Field(name) => {
                let local = *self.this_fields.get(name)?;
                Some(self.read(local.var))
            }
            FieldAtom::Int(n) => {
                let ty = like.filter(|t| t.is_integral()).unwrap_or(Ty::Int);
                Some(self.int(ty, *n))
            }
            FieldAtom::Bool(b) => Some(self.konst(Const::Bool(*b))),
            FieldAtom::Null => None,
        }
    }

    /// Where a constructor or method ends, an exception leaves a method, or a method calls what
    /// jreach cannot see: each candidate is checked, and a path where one fails (or cannot be
    /// evaluated) may end in its `ClassInvariantBroken` block.
    pub(super) fn check_class_invariants(&mut self) {
        for i in 0..self.opts.class_invariants.len() {
            if self.cur.is_none() {
                return;
            }
            let cond = self.opts.class_invariants[i].cond.clone();
            let holds = match self.field_cond(&cond) {
                Some(v) => v,
                None => self.konst(Const::Bool(false)),
            };
            // Each check on its own: a path where the candidate fails may end in its block or
            // go on to the next checks, so each is asked whatever the others say, and Houdini
            // drops every broken candidate in one round.
            let (ok, fail, broken) = (self.b.create_block(), self.b.create_block(), self.b.create_block());
            self.branch(holds, ok, fail, None);
            self.b.seal(fail);
            self.cur = Some(fail);
            let what = format!("whether the check of candidate class invariant {i} ends the path");
            let stop = self.nondet(NondetKind::Havoc { what }, Ty::Bool, None);
            self.branch(stop, broken, ok, None);
            self.b.seal(broken);
            self.b.seal(ok);
            self.cur = Some(broken);
            self.cutoff(CutoffKind::ClassInvariantBroken(i as u32));
            self.cur = Some(ok);
        }
    }

    /// Where a method starts and after a call jreach cannot see into: the states where a
    /// candidate fails end in an `Assumed` block (sound once every constructor and method of the
    /// class is shown to keep them).
    pub(super) fn assume_class_invariants(&mut self) {
        if self.opts.class_invariants.is_empty() {
            return;
        }
        // Whatever else the lowering shows, the assumptions wait for the class's proof.
        self.b.add_proof_blocker(Blocker::ClassInvariant);
        for i in 0..self.opts.class_invariants.len() {
            if self.cur.is_none() {
                return;
            }
            let inv = self.opts.class_invariants[i].clone();
            let Some(holds) = self.field_cond(&inv.cond) else { continue };
            let note = format!(
                "holds whenever code outside `{}` calls one of its methods: every constructor sets it, every method keeps it",
                inv.class
            );
            let origin = CondOrigin { span: inv.span.clone(), text: inv.text.clone(), note: Some(note) };
            self.end_unless(holds, CutoffKind::Assumed, Some(origin));
        }
    }

    /// Before a call jreach cannot see into: the call may run any method of the class on the
    /// receiver, which may assume the candidates (checked here) and keeps them (assumed after
    /// [`Self::after_unseen_call`]).
    pub(super) fn before_unseen_call(&mut self) {
        if self.class_role == ClassInvariantRole::Method {
            self.check_class_invariants();
        }
    }

    /// After a call jreach cannot see into has forgotten the receiver's fields.
    pub(super) fn after_unseen_call(&mut self) {
        if self.class_role == ClassInvariantRole::Method {
            self.assume_class_invariants();
        }
    }

    /// Where an exception leaves the method (not a constructor: an object whose constructor
    /// threw is never seen, since `this` does not escape it).
    pub(super) fn before_throw_out(&mut self) {
        if self.class_role == ClassInvariantRole::Method {
            self.check_class_invariants();
        }
    }
}
