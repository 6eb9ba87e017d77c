//! Forgetting state: what the over-approximation does at a loop head and after a call jreach
//! cannot see, and the one list of the kinds of state a lowering tracks ([`StateKind`]).
//!
//! A proof is sound only if every abstraction forgets every piece of state it may change. The
//! kinds are listed once, here; [`Lowerer::forget`] matches on them exhaustively, so a new kind of
//! state (a new memory, a new model of a JDK object) does not compile until it says how it is
//! forgotten, and [`LOOP_MAY_CHANGE`] and [`CALL_MAY_CHANGE`] say which kinds each abstraction
//! forgets.
//!
//! At a loop head, a syntactic scan of the loop ([`Lowerer::havoc_assigned`]) finds what it may
//! change: the locals and receiver fields it assigns, the scalar builders it names, and, when it
//! calls anything, creates an object or stores into an array, an object field or a static field,
//! every memory and static field (a callee may change any of them).

use jreach_syntax::Node;

use super::{named_children, this_field_name, unparen, Local, Lowerer};
use crate::builder::Var;
use crate::func::*;
use crate::types::{ArrTy, Const, Ty};

/// Every kind of state a lowering tracks.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum StateKind {
    /// Locals and parameters (scalar builders among them); only the method's own code assigns
    /// them, so only loops forget them, and only those the loop assigns or names.
    Locals,
    /// The receiver's fields (`this_fields`).
    ReceiverFields,
    /// The memory of each array type (`mems`).
    ArrayMemories,
    /// The memory of each field of each modelled class (`field_mems`): objects, string
    /// builders, boxes.
    FieldMemories,
    /// The static fields tracked as variables (`statics`).
    StaticFields,
}

/// What a loop may change, when it calls anything or stores into memory.
pub(super) const LOOP_MAY_CHANGE: [StateKind; 5] = [
    StateKind::Locals,
    StateKind::ReceiverFields,
    StateKind::ArrayMemories,
    StateKind::FieldMemories,
    StateKind::StaticFields,
];

/// What a call jreach cannot see may change (not the caller's locals).
pub(super) const CALL_MAY_CHANGE: [StateKind; 4] =
    [StateKind::ReceiverFields, StateKind::ArrayMemories, StateKind::FieldMemories, StateKind::StaticFields];

impl<'t> Lowerer<'t> {
    /// Forgets state of kind `kind` (`why`: after what): every variable of it holds any value of
    /// its type. For [`StateKind::Locals`], [`StateKind::ReceiverFields`] and
    /// [`StateKind::StaticFields`] only the `names` given are forgotten (`None`: all; a static
    /// field by its simple name).
    pub(super) fn forget(&mut self, kind: StateKind, why: &str, names: Option<&[String]>) {
        let chosen = |n: &str| names.is_none_or(|ns| ns.iter().any(|x| x == n));
        match kind {
            StateKind::Locals => {
                let mut locals: Vec<(String, Local)> = Vec::new();
                for name in names.unwrap_or_default() {
                    if let Some(l) = self.scopes.iter().rev().find_map(|s| s.get(name).copied()) {
                        locals.push((name.clone(), l));
                    }
                }
                for (name, local) in locals {
                    self.forget_local(&name, local, why);
                }
            }
            StateKind::ReceiverFields => {
                if !self.frames.last().is_some_and(|f| f.has_this) {
                    return;
                }
                let mut fields: Vec<(String, Local)> =
                    self.this_fields.iter().filter(|(n, _)| chosen(n)).map(|(n, l)| (n.clone(), *l)).collect();
                fields.sort_by(|a, b| a.0.cmp(&b.0));
                for (name, l) in fields {
                    let v = self.nondet(NondetKind::Havoc { what: format!("this.{name} after {why}") }, l.ty, None);
                    self.assign(l.var, v);
                }
            }
            StateKind::ArrayMemories => {
                let mut mems: Vec<(ArrTy, Var)> = self.mems.iter().map(|(t, v)| (*t, *v)).collect();
                mems.sort_by_key(|(t, _)| t.java_name());
                for (t, var) in mems {
                    let name = t.java_name_with(|c| self.classes.descs[c as usize].name.clone());
                    let what = format!("{name} arrays after {why}");
                    let v = self.nondet(NondetKind::Havoc { what }, Ty::Mem(t), None);
                    self.assign(var, v);
                }
            }
            StateKind::FieldMemories => {
                let mut fields: Vec<((u16, u16), Var)> = self.field_mems.iter().map(|(k, v)| (*k, *v)).collect();
                fields.sort_by_key(|(k, _)| *k);
                for ((c, i), var) in fields {
                    let what = format!("{} objects after {why}", self.classes.descs[c as usize].name);
                    let v = self.nondet(NondetKind::Havoc { what }, Ty::Fields(c, i), None);
                    self.assign(var, v);
                }
            }
            StateKind::StaticFields => {
                let all: Vec<(String, Local)> = self
                    .statics
                    .iter()
                    .filter(|(s, _)| chosen(&s.name))
                    .map(|(s, l)| (format!("{}.{}", s.class, s.name), *l))
                    .collect();
                for (name, l) in all {
                    let v = self.opaque(format!("{name} after {why}"), l.ty, None);
                    self.assign(l.var, v);
                }
            }
        }
    }

    /// A local that a loop may have assigned holds any value (a scalar builder any contents).
    fn forget_local(&mut self, name: &str, local: Local, why: &str) {
        let mut v = self.nondet(NondetKind::Havoc { what: format!("{name} after {why}") }, local.ty, None);
        if local.scalar_builder {
            // A builder's contents are never null.
            let is_null = self.emit(Op::Str(StrOp::IsNull, vec![v]), Ty::Bool, None);
            let empty = self.konst(Const::Str(String::new()));
            v = self.select(is_null, empty, v);
        }
        self.assign(local.var, v);
    }

    /// Over-approximation of a loop head: what the loop `loop_node` may change holds any value
    /// (see the module doc).
    pub(super) fn havoc_assigned(&mut self, loop_node: Node<'t>) {
        let mut names = Vec::new();
        // Whether the loop stores into memory or a static field, or calls anything.
        let mut writes_memory = false;
        let mut stack = vec![loop_node];
        while let Some(n) = stack.pop() {
            match n.kind() {
                // What a lambda or a class body does happens when it is called: a call.
                "lambda_expression" | "class_body" => continue,
                "array_creation_expression" | "array_initializer" => writes_memory = true,
                "assignment_expression" => {
                    if let Some(l) = n.child_by_field_name("left").map(unparen) {
                        writes_memory |= self.note_assigned(l, &mut names);
                    }
                }
                "update_expression" => {
                    for k in named_children(n).into_iter().map(unparen) {
                        writes_memory |= self.note_assigned(k, &mut names);
                    }
                }
                // A scalar builder changes through calls on it: forgotten wherever the loop names it.
                "identifier" if self.lookup(self.text(n)).is_some_and(|l| l.scalar_builder) => {
                    names.push(self.text(n).to_string());
                }
                // A call (a constructor too) may change any memory, static field or field of the
                // receiver.
                "method_invocation" | "object_creation_expression" => writes_memory = true,
                _ => {}
            }
            stack.extend(named_children(n));
        }
        names.sort();
        names.dedup();
        let why = "any number of loop iterations";
        for kind in LOOP_MAY_CHANGE {
            match kind {
                StateKind::Locals => self.forget(kind, why, Some(&names)),
                StateKind::ReceiverFields | StateKind::StaticFields if !writes_memory => {
                    self.forget(kind, why, Some(&names))
                }
                _ if writes_memory => self.forget(kind, why, None),
                _ => {}
            }
        }
    }

    /// Records what assigning `target` changes: a local, a field of the receiver or a static
    /// field by its name (into `names`); whether it may be memory (the result).
    fn note_assigned(&self, target: Node<'t>, names: &mut Vec<String>) -> bool {
        match target.kind() {
            "identifier" => {
                let name = self.text(target);
                names.push(name.to_string());
                // Else a field of an object in the field memories (`this` of an inlined
                // constructor).
                self.lookup(name).is_none()
            }
            "field_access" => match this_field_name(target, self.src) {
                Some(f) => {
                    names.push(f.to_string());
                    self.this_field(f).is_none()
                }
                None => true,
            },
            // Array elements, and anything else.
            _ => true,
        }
    }

    /// A call jreach cannot see into: in the over-approximation it may change what
    /// [`CALL_MAY_CHANGE`] lists; in both modes it may throw. Synthesis keeps arrays, objects
    /// and the receiver's fields as they were (and records that as a proof blocker), but not
    /// static fields.
    pub(super) fn unknown_call_throws(&mut self, callee: &str) {
        self.before_unseen_call();
        for kind in CALL_MAY_CHANGE {
            // A constructor checked for class invariants lets `this` escape to nothing, so no
            // call can reach its fields.
            let unreachable_fields = kind == StateKind::ReceiverFields
                && self.class_role == super::class_invariants::ClassInvariantRole::Constructor;
            if (kind == StateKind::StaticFields || !self.synthesis()) && !unreachable_fields {
                self.forget(kind, callee, None);
            }
        }
        self.after_unseen_call();
        if self.synthesis() && (!self.mems.is_empty() || !self.field_mems.is_empty() || !self.this_fields.is_empty()) {
            // A lambda the call runs may write what it captured.
            self.b.add_proof_blocker(Blocker::Narrowing(format!(
                "{callee} may change arrays and objects, which the search takes as unchanged"
            )));
        }
        self.may_throw_here(callee);
    }
}
