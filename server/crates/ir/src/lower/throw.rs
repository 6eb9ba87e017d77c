//! Exceptions as control flow: `throw`, `try`/`catch`/`finally` (a `finally` body copied onto
//! every exit as javac does), the implicit exceptions (null, zero divisors, bad indices), and the
//! exceptions jreach does not decide, which may be thrown anywhere they could be caught.

use super::*;

impl<'t> Lowerer<'t> {
    /// Lowers the `finally` bodies of the try contexts above `down_to`, innermost first, as a jump
    /// out of them does.
    pub(super) fn run_finallies(&mut self, down_to: usize) {
        let mut i = self.handlers.len();
        while i > down_to {
            i -= 1;
            if let Some(fin) = self.handlers[i].finally {
                let saved = self.handlers.split_off(i);
                self.stmt(fin);
                self.handlers.extend(saved);
                if self.cur.is_none() {
                    return;
                }
            }
        }
    }

    pub(super) fn throw_stmt(&mut self, s: Node<'t>) {
        let Some(e) = named_children(s).into_iter().next() else { return };
        if e.kind() == "object_creation_expression" {
            let class = e.child_by_field_name("type").map(|t| self.text(t).to_string()).unwrap_or_default();
            if let Some(args) = e.child_by_field_name("arguments") {
                for a in named_children(args) {
                    self.expr(a);
                }
            }
            self.raise(&class, Some(s));
        } else {
            self.expr(e);
            if self.synthesis() {
                self.unsupported("rethrowing an exception object is not modelled yet");
            } else {
                self.raise_any("a rethrown exception");
            }
        }
    }

    /// An exception of `class` is thrown here: route it to the first matching catch, through the
    /// finally bodies on the way, or out of the method.
    pub(super) fn raise(&mut self, class: &str, at: Option<Node<'_>>) {
        let simple = class.rsplit('.').next().unwrap_or(class).trim().to_string();
        let mut i = self.handlers.len();
        while i > 0 {
            i -= 1;
            let ctx = self.handlers[i].clone();
            for catch in &ctx.catches {
                for cc in &catch.classes {
                    match is_subclass(&simple, cc) {
                        Some(true) => {
                            self.jump(catch.block);
                            return;
                        }
                        Some(false) => {}
                        None => {
                            self.unsupported(format!("cannot tell whether {simple} is caught by `catch ({cc} ...)`"));
                            return;
                        }
                    }
                }
            }
            if let Some(fin) = ctx.finally {
                let saved = self.handlers.split_off(i);
                self.stmt(fin);
                self.handlers.extend(saved);
                if self.cur.is_none() {
                    return;
                }
            }
        }
        self.before_throw_out();
        if let Some(c) = self.cur.take() {
            self.b.terminate(c, Terminator::Throw { class: simple, span: at.map(|n| n.byte_range()) });
        }
    }

    /// Over-approximation: an exception of any class may be thrown here.
    pub(super) fn raise_any(&mut self, what: &str) {
        let mut i = self.handlers.len();
        while i > 0 {
            i -= 1;
            let ctx = self.handlers[i].clone();
            for catch in &ctx.catches {
                let yes = self.nondet(NondetKind::CallThrows { callee: what.to_string() }, Ty::Bool, None);
                let no = self.b.create_block();
                self.branch(yes, catch.block, no, None);
                self.b.seal(no);
                self.cur = Some(no);
            }
            if let Some(fin) = ctx.finally {
                let saved = self.handlers.split_off(i);
                self.stmt(fin);
                self.handlers.extend(saved);
                if self.cur.is_none() {
                    return;
                }
            }
        }
        self.before_throw_out();
        if let Some(c) = self.cur.take() {
            self.b.terminate(c, Terminator::Throw { class: "Throwable".into(), span: None });
        }
    }

    /// Whether a `catch` of an enclosing `try` catches the errors the virtual machine may throw
    /// at any point (`OutOfMemoryError`, `StackOverflowError`, `InternalError`; so `Error`,
    /// `Throwable`, `VirtualMachineError`).
    pub(super) fn catches_vm_errors(&self) -> bool {
        self.handlers.iter().any(|h| h.catches.iter().any(|c| c.classes.iter().any(|cc| catches_vm_error(cc))))
    }

    /// Before each statement inside a `try` that catches virtual machine errors: in proofs, such
    /// an error may be thrown here (the heap or the stack may run out anywhere); synthesis does
    /// not model that but for huge arrays (`new_array`), which a proof blocker records.
    pub(super) fn may_throw_vm_error(&mut self) {
        if self.cur.is_none() || !self.catches_vm_errors() {
            return;
        }
        if self.synthesis() {
            self.b.add_proof_blocker(Blocker::Narrowing(
                "a catch of OutOfMemoryError, StackOverflowError or their superclasses is reached only through huge arrays when looking for tests".into(),
            ));
            return;
        }
        let what = "a virtual machine error (out of memory or stack)";
        let yes = self.nondet(NondetKind::CallThrows { callee: what.to_string() }, Ty::Bool, None);
        let throw_b = self.b.create_block();
        let cont = self.b.create_block();
        self.branch(yes, throw_b, cont, None);
        self.b.seal(throw_b);
        self.b.seal(cont);
        self.cur = Some(throw_b);
        let mut i = self.handlers.len();
        while i > 0 {
            i -= 1;
            let ctx = self.handlers[i].clone();
            for catch in &ctx.catches {
                if !catch.classes.iter().any(|cc| catches_vm_error(cc)) {
                    continue;
                }
                let taken = self.nondet(NondetKind::CallThrows { callee: what.to_string() }, Ty::Bool, None);
                let no = self.b.create_block();
                self.branch(taken, catch.block, no, None);
                self.b.seal(no);
                self.cur = Some(no);
            }
            if let Some(fin) = ctx.finally {
                let saved = self.handlers.split_off(i);
                self.stmt(fin);
                self.handlers.extend(saved);
                if self.cur.is_none() {
                    break;
                }
            }
        }
        self.before_throw_out();
        if let Some(c) = self.cur.take() {
            self.b.terminate(c, Terminator::Throw { class: "VirtualMachineError".into(), span: None });
        }
        self.cur = Some(cont);
    }

    /// An exception jreach does not decide (null receivers, unboxing, casts, iteration, calls it
    /// cannot see into) may be thrown here: a fork to the handlers in the over-approximation, a
    /// proof blocker in synthesis (which ignores it).
    pub(super) fn may_throw_here(&mut self, what: &str) {
        if self.handlers.is_empty() {
            return;
        }
        if self.synthesis() {
            self.b.add_proof_blocker(Blocker::Narrowing(format!("{what} may throw inside a try")));
            return;
        }
        let yes = self.nondet(NondetKind::CallThrows { callee: what.to_string() }, Ty::Bool, None);
        let throw_b = self.b.create_block();
        let cont = self.b.create_block();
        self.branch(yes, throw_b, cont, None);
        self.b.seal(throw_b);
        self.b.seal(cont);
        self.cur = Some(throw_b);
        self.raise_any(what);
        self.cur = Some(cont);
    }

    pub(super) fn try_stmt(&mut self, s: Node<'t>) {
        let kids = named_children(s);
        let body = s.child_by_field_name("body");
        let finally =
            kids.iter().find(|k| k.kind() == "finally_clause").and_then(|f| named_children(*f).into_iter().next());
        let mut catches = Vec::new();
        let mut catch_nodes = Vec::new();
        for k in kids.iter().filter(|k| k.kind() == "catch_clause") {
            let param = named_children(*k).into_iter().find(|p| p.kind() == "catch_formal_parameter");
            let mut classes = Vec::new();
            let mut var_name = None;
            if let Some(p) = param {
                for part in named_children(p) {
                    if part.kind() == "catch_type" {
                        for t in named_children(part) {
                            classes.push(self.text(t).rsplit('.').next().unwrap_or("").to_string());
                        }
                    }
                }
                var_name = p.child_by_field_name("name").map(|n| self.text(n).to_string());
            }
            let block = self.b.create_block();
            catches.push(CatchInfo { classes, block });
            catch_nodes.push((block, var_name, k.child_by_field_name("body")));
        }
        let after = self.b.create_block();
        self.handlers.push(TryCtx { catches, finally });
        if let Some(body) = body {
            self.stmt(body);
        }
        self.handlers.pop();
        if let Some(fin) = finally {
            if self.cur.is_some() {
                self.stmt(fin);
            }
        }
        self.jump(after);
        for (block, var_name, body) in catch_nodes {
            self.b.seal(block);
            self.cur = Some(block);
            self.scopes.push(HashMap::new());
            if let Some(name) = var_name {
                let var = self.declare(&name, Ty::Ref);
                let v = self.opaque("the caught exception".into(), Ty::Ref, None);
                self.assign(var, v);
            }
            self.handlers.push(TryCtx { catches: vec![], finally });
            if let Some(body) = body {
                self.stmt(body);
            }
            self.handlers.pop();
            self.scopes.pop();
            if let Some(fin) = finally {
                if self.cur.is_some() {
                    self.stmt(fin);
                }
            }
            self.jump(after);
        }
        self.b.seal(after);
        self.cur = Some(after);
    }

    /// Integral division: a zero divisor throws ArithmeticException.
    pub(super) fn check_nonzero(&mut self, divisor: ValueId, at: Node<'t>) {
        let t = self.ty(divisor);
        let zero = self.int(t, 0);
        let is_zero = self.bin(BinOp::Eq, divisor, zero);
        let throw_b = self.b.create_block();
        let cont = self.b.create_block();
        self.branch(is_zero, throw_b, cont, None);
        self.b.seal(throw_b);
        self.b.seal(cont);
        self.cur = Some(throw_b);
        self.raise("ArithmeticException", Some(at));
        self.cur = Some(cont);
    }

    /// Throws `class` when `cond` holds.
    pub(super) fn raise_if(&mut self, cond: ValueId, class: &str, at: Node<'t>) {
        let throw_b = self.b.create_block();
        let cont = self.b.create_block();
        self.branch(cond, throw_b, cont, None);
        self.b.seal(throw_b);
        self.b.seal(cont);
        self.cur = Some(throw_b);
        self.raise(class, Some(at));
        self.cur = Some(cont);
    }

    /// A value of any reference type used where null throws NullPointerException: strings,
    /// objects and arrays jreach tracks are checked; an untracked reference may be null, so the
    /// exception may be thrown (a fork to the handlers in proofs).
    pub(super) fn check_reference_not_null(&mut self, v: ValueId, at: Node<'t>) {
        match self.ty(v) {
            Ty::Str => self.check_not_null(v, at),
            Ty::Obj(_) => self.check_object_not_null(v, at),
            Ty::Arr(_) => {
                let is_null = self.is_null(v);
                self.raise_if(is_null, "NullPointerException", at);
            }
            Ty::Ref if self.is_null_const(v) => self.raise("NullPointerException", Some(at)),
            Ty::Ref => match self.presence_of(v) {
                Some(present) => {
                    let absent = self.emit(Op::Unary(UnOp::Not, present), Ty::Bool, None);
                    self.raise_if(absent, "NullPointerException", at);
                }
                None => self.may_throw_here("a reference that may be null"),
            },
            _ => {}
        }
    }

    /// For a parameter of a JDK type a test writes a value of (`Setup::opaque_params`): the
    /// input saying it is not null.
    pub(super) fn presence_of(&self, v: ValueId) -> Option<ValueId> {
        if self.opaque_presence.is_empty() {
            return None;
        }
        // Through φs the builder has not yet found trivial (a join after the inputs are made):
        // the one value every φ on the way comes from. The φs of an unrolled loop are
        // thousands, and this is asked at every use of such a reference: the values a walk has
        // seen are marked in one array kept for the lowering, not hashed.
        let mut marks = self.presence_marks.borrow_mut();
        let (walk, seen) = &mut *marks;
        *walk = walk.wrapping_add(1);
        if *walk == 0 {
            seen.iter_mut().for_each(|m| *m = 0);
            *walk = 1;
        }
        let n = self.b.func().values.len();
        if seen.len() < n {
            seen.resize(n, 0);
        }
        let mut leaf: Option<ValueId> = None;
        let mut stack = vec![v];
        while let Some(x) = stack.pop() {
            if seen[x.index()] == *walk {
                continue;
            }
            seen[x.index()] = *walk;
            match &self.b.func().value(x).op {
                Op::Phi(ins) => stack.extend(ins.iter().map(|(_, i)| *i)),
                _ if leaf.is_none() => leaf = Some(x),
                _ if leaf != Some(x) => return None,
                _ => {}
            }
        }
        let leaf = leaf?;
        self.opaque_presence.iter().find(|(p, _)| *p == leaf).map(|(_, present)| *present)
    }

    /// A method call on a null string throws NullPointerException.
    pub(super) fn check_not_null(&mut self, s: ValueId, at: Node<'t>) {
        if self.b.func().value(s).ty != Ty::Str || self.b.never_null_str(s) {
            return;
        }
        let is_null = self.emit(Op::Str(StrOp::IsNull, vec![s]), Ty::Bool, None);
        self.raise_if(is_null, "NullPointerException", at);
    }

    /// `0 <= i < len` (or `<= len` when `inclusive`), else StringIndexOutOfBoundsException.
    pub(super) fn check_index(&mut self, i: ValueId, len: ValueId, inclusive: bool, at: Node<'t>) {
        let zero = self.int(Ty::Int, 0);
        let neg = self.bin(BinOp::Lt, i, zero);
        let past = self.bin(if inclusive { BinOp::Gt } else { BinOp::Ge }, i, len);
        let bad = self.bin(BinOp::Or, neg, past);
        self.raise_if(bad, "StringIndexOutOfBoundsException", at);
    }
}

/// Whether `catch (class ...)` catches some error the virtual machine may throw anywhere.
pub(super) fn catches_vm_error(class: &str) -> bool {
    ["OutOfMemoryError", "StackOverflowError", "InternalError"]
        .iter()
        .any(|e| crate::exceptions::is_subclass(e, class) == Some(true))
}
