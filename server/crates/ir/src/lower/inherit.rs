//! Classes that extend another class of the file (see `Classes::supers`): what an object of such
//! a class holds, how it is constructed, and which method a call on it runs.
//!
//! - An object's fields are its class's own fields after every inherited one (no name is
//!   declared twice along the chain, or the chain is not linked).
//! - A constructor first runs its superclass's: the one `super(args)` names, else the one
//!   without parameters (or the implicit one, recursively). Then the class's own field
//!   initializers run, then the rest of its body. `this(...)` hands all of that to the
//!   constructor it names.
//! - Synthesis creates objects of exactly one class, so a call on `this` or on such an object
//!   runs the most derived method of that signature: inherited methods are followed, overrides
//!   win. Proofs keep their rule: only calls that no subclass could redirect are followed
//!   (private and static methods, and calls on an object the method itself made with `new`).
//!   A synthesis call that a parameter's subclass could redirect records a proof blocker.
//! - `super.m(args)` and `super.f` are bound statically, so both modes follow them.

use jreach_syntax::{text_of, MethodInfo, Node};

use super::{has_modifier, named_children, Classes, Frame, Lowerer};
use crate::func::*;
use crate::types::Ty;

impl<'t> Lowerer<'t> {
    /// The modelled class that declares `m`.
    pub(super) fn declaring_class(&self, m: &MethodInfo) -> Option<u16> {
        self.classes.by_name.get(&m.classes.join(".")).copied()
    }

    /// The class of the current frame's code (where `super` points from).
    pub(super) fn frame_class(&self) -> Option<u16> {
        let name = self.frames.last()?.classes.join(".");
        self.classes.by_name.get(&name).copied()
    }

    /// Class `c` and its linked superclasses, most derived first.
    pub(super) fn class_chain(&self, c: u16) -> Vec<u16> {
        self.classes.chain(c)
    }

    /// The instance methods with bodies named `name` that an object of exactly class `c` has,
    /// looked up from class `from` (`c` itself, or a superclass for `super.name(...)`): those
    /// declared along the chain, an override hiding what it overrides. `None` when a private
    /// method and another of the same parameter types meet along the chain: which one runs
    /// then depends on where the call is written.
    pub(super) fn instance_methods(&self, from: u16, name: &str) -> Option<Vec<&MethodInfo>> {
        let mut found: Vec<&MethodInfo> = Vec::new();
        for k in self.class_chain(from) {
            let class_name = &self.classes.descs[k as usize].name;
            for m in self
                .methods
                .iter()
                .filter(|m| !m.is_constructor && !m.is_static && m.name == name && m.classes.join(".") == *class_name)
            {
                match found.iter().find(|f| same_parameters(f, m)) {
                    Some(f) if f.is_private || m.is_private => return None,
                    Some(_) => {}
                    None => found.push(m),
                }
            }
        }
        Some(found)
    }

    /// The class a call on `this` dispatches on when jreach knows it: the class of the object
    /// the frame runs on (in proofs only for an object the method creates), or in synthesis the
    /// receiver's (a test creates exactly that class).
    fn this_dispatch_class(&self) -> Option<u16> {
        let f = self.frames.last()?;
        match f.this_obj {
            Some((r, c)) if self.synthesis() || self.is_new_object(r) => Some(c),
            None if f.has_this && self.synthesis() => self.receiver_class,
            _ => None,
        }
    }

    /// Whether `v` is an object the method itself creates (`new C(...)`): exactly a `C`, in
    /// proofs too.
    pub(super) fn is_new_object(&self, v: ValueId) -> bool {
        matches!(self.b.func().value(v).op, Op::Obj(ObjOp::Ref(id), _) if id < 0)
    }

    /// Synthesis: `name(args)` or `this.name(args)` as a virtual call on `this`, when the
    /// dispatch class's chain has an instance method of that name. `Some(None)`: it has one,
    /// but jreach cannot tell which runs; `None`: not such a call.
    pub(super) fn virtual_this_method(&self, name: &str, args: &[ValueId]) -> Option<Option<MethodInfo>> {
        let c = self.this_dispatch_class()?;
        if self.classes.supers[c as usize].is_none() && !self.classes.supers.contains(&Some(c)) {
            // No inheritance involved: the lexical lookup is already exact.
            return None;
        }
        let candidates = match self.instance_methods(c, name) {
            Some(ms) if ms.is_empty() => return None,
            Some(ms) => ms,
            None => return Some(None),
        };
        Some(self.pick_overload(candidates, args))
    }

    /// Synthesis runs `m` on `r` (`None`: on `this`) as on an object of exactly class `c`. Unless
    /// the method created `r` itself, a subclass could override `m`, so a path this lowering
    /// misses may still exist: no proof from it then.
    pub(super) fn note_exact_dispatch(&mut self, r: Option<ValueId>, c: u16, m: &MethodInfo) {
        if !self.synthesis() || r.is_some_and(|r| self.is_new_object(r)) || !self.overridable(c, m) {
            return;
        }
        self.b.add_proof_blocker(Blocker::Narrowing(format!(
            "a test passes a {} of exactly that class, and a subclass could override {}()",
            self.classes.descs[c as usize].name, m.name
        )));
    }

    /// [`Self::note_exact_dispatch`] for a call on `this`: the object the frame runs on, or the
    /// receiver.
    pub(super) fn note_this_dispatch(&mut self, m: &MethodInfo) {
        let Some(f) = self.frames.last() else { return };
        match (f.this_obj, f.has_this, self.receiver_class) {
            (Some((r, c)), _, _) => self.note_exact_dispatch(Some(r), c, m),
            (None, true, Some(c)) => self.note_exact_dispatch(None, c, m),
            _ => {}
        }
    }

    /// Whether a subclass of `c` (the class of an object) could override `m`.
    fn overridable(&self, c: u16, m: &MethodInfo) -> bool {
        !m.is_private
            && !m.is_static
            && self.classes.subclassable.get(c as usize).copied().unwrap_or(false)
            && !has_modifier(m.node(self.file), self.src, "final")
    }

    /// `super.name(args)` from a class whose superclass is linked: the method the superclass
    /// chain has, which no override can replace. `None`: not such a call, or not one jreach
    /// can pick.
    pub(super) fn super_method(&self, name: &str, args: &[ValueId]) -> Option<MethodInfo> {
        let s = self.classes.supers.get(self.frame_class()? as usize).copied().flatten()?;
        self.pick_overload(self.instance_methods(s, name)?, args)
    }

    /// `super.f` from a class whose superclass is linked: field `f` of `this`.
    pub(super) fn super_field(&mut self, field: &str, at: Node<'t>) -> Option<ValueId> {
        let s = self.classes.supers.get(self.frame_class()? as usize).copied().flatten()?;
        self.classes.descs[s as usize].fields.iter().find(|f| f.name == field)?;
        if let Some(l) = self.this_field(field) {
            return Some(self.read(l.var));
        }
        let (r, c, _, _) = self.this_obj_field(field)?;
        self.object_get(r, c, field, at)
    }

    /// The start of a constructor of class `c` that does not delegate to `this(...)`: the
    /// superclass's constructor (the one `super_args` selects, else the one without
    /// parameters), then `c`'s field initializers. It runs on the current frame's object, or on
    /// the receiver's fields.
    pub(super) fn ctor_prologue(&mut self, c: u16, super_args: Option<Vec<ValueId>>, at: Node<'t>) {
        if let Some(s) = self.classes.supers.get(c as usize).copied().flatten() {
            let explicit = super_args.is_some();
            let args = super_args.unwrap_or_default();
            let name = self.classes.descs[s as usize].name.clone();
            let ctors: Vec<&MethodInfo> =
                self.methods.iter().filter(|m| m.is_constructor && m.classes.join(".") == name).collect();
            if ctors.is_empty() && args.is_empty() {
                self.run_implicit_ctor(None, s, at);
            } else {
                match self.pick_overload(ctors, &args) {
                    Some(ctor) => {
                        self.next_this = self.frames.last().and_then(|f| f.this_obj);
                        self.inline(&ctor, args, at);
                    }
                    // Synthesis cannot follow it; proofs take it as a call jreach does not see.
                    None if self.synthesis() && explicit => {
                        self.unsupported(format!("a `super(...)` call of {name} jreach cannot resolve"))
                    }
                    None if self.synthesis() => {
                        self.unsupported(format!("{name} has no constructor without parameters for `super()`"))
                    }
                    None => self.unknown_call_throws(&format!("super(...) of {name}")),
                }
            }
        }
        if self.cur.is_some() {
            self.run_field_initializers(c);
        }
    }

    /// Runs the implicit constructor of class `c` (which declares none) in a frame of its own:
    /// on `target`, a new object, or else on what the current frame runs on.
    pub(super) fn run_implicit_ctor(&mut self, target: Option<(ValueId, u16)>, c: u16, at: Node<'t>) {
        let (this_obj, has_this) = match target {
            Some(t) => (Some(t), false),
            None => self.frames.last().map(|f| (f.this_obj, f.has_this)).unwrap_or((None, false)),
        };
        let saved_scopes = std::mem::replace(&mut self.scopes, vec![std::collections::HashMap::new()]);
        let saved_targets = std::mem::take(&mut self.targets);
        let ret_block = self.b.create_block();
        self.frames.push(Frame {
            method: None,
            ret_block,
            ret_var: None,
            ret_ty: Ty::Void,
            handlers_len: self.handlers.len(),
            classes: self.classes.descs[c as usize].name.split('.').map(str::to_string).collect(),
            has_this,
            this_obj,
        });
        self.ctor_prologue(c, None, at);
        if self.cur.is_some() {
            self.jump(ret_block);
        }
        self.frames.pop();
        self.scopes = saved_scopes;
        self.targets = saved_targets;
        self.b.seal(ret_block);
        self.cur = Some(ret_block);
    }

    /// Runs the instance field initializers and instance initializer blocks declared in class
    /// `c`, in the order the class declares them (JLS 12.5), on the current frame's object or on
    /// the receiver's fields. They see the class's fields, never the constructor's parameters
    /// (`int m = n + 1;` reads the field `n` even in `C(int n)`).
    fn run_field_initializers(&mut self, c: u16) {
        let Some(body) = self.classes.bodies[c as usize].clone().and_then(|b| self.node_at(&b)) else { return };
        let target = self.frames.last().map(|f| (f.this_obj, f.has_this));
        if !matches!(target, Some((Some(_), _) | (None, true))) {
            return;
        }
        let saved_scopes = std::mem::replace(&mut self.scopes, vec![std::collections::HashMap::new()]);
        let saved_targets = std::mem::take(&mut self.targets);
        for member in named_children(body) {
            if self.cur.is_none() {
                break;
            }
            if member.kind() == "block" {
                self.block_stmts(member);
                continue;
            }
            if member.kind() != "field_declaration" || has_modifier(member, self.src, "static") {
                continue;
            }
            let mut walk = member.walk();
            let decls: Vec<Node<'t>> = member.children_by_field_name("declarator", &mut walk).collect();
            for d in decls {
                let (Some(name), Some(init)) = (d.child_by_field_name("name"), d.child_by_field_name("value")) else {
                    continue;
                };
                if self.cur.is_none() {
                    break;
                }
                let name = text_of(name, self.src);
                match target {
                    Some((Some((r, oc)), _)) => {
                        let Some((i, ty)) = self.field_of(oc, name) else { continue };
                        let v = self.expr_as(init, Some(ty));
                        let v = self.convert(v, ty);
                        if self.cur.is_some() {
                            self.object_put(r, oc, i, v);
                        }
                    }
                    Some((None, true)) => {
                        let Some(l) = self.this_fields.get(name).copied() else { continue };
                        let v = self.expr_as(init, Some(l.ty));
                        let v = self.convert(v, l.ty);
                        if self.cur.is_some() {
                            self.assign(l.var, v);
                        }
                    }
                    _ => {}
                }
            }
        }
        self.scopes = saved_scopes;
        self.targets = saved_targets;
    }
}

impl Classes {
    /// Class `c` and its linked superclasses, most derived first.
    pub(super) fn chain(&self, c: u16) -> Vec<u16> {
        let mut chain = vec![c];
        while let Some(s) = self.supers.get(*chain.last().unwrap_or(&c) as usize).copied().flatten() {
            if chain.contains(&s) {
                break;
            }
            chain.push(s);
        }
        chain
    }
}

/// Whether two methods take parameters of the same types as written, erased (an override,
/// or a clash javac rejects).
pub(super) fn same_parameters(a: &MethodInfo, b: &MethodInfo) -> bool {
    let erased = |t: &str| -> String {
        let t: String = t.chars().filter(|c| !c.is_whitespace()).collect();
        let dims = t.matches("[]").count() + t.matches("...").count();
        let base = t.split(['<', '[']).next().unwrap_or("").trim_end_matches("...");
        format!("{}{}", base.rsplit('.').next().unwrap_or(base), "[]".repeat(dims))
    };
    a.params.len() == b.params.len() && a.params.iter().zip(&b.params).all(|(p, q)| erased(&p.ty) == erased(&q.ty))
}
