//! Calls: same-file methods inlined (static, private, constructors, and in synthesis the exact
//! class's override), calls through `super`, lambdas and anonymous classes a test passes, and
//! everything else as a call jreach cannot see (`Lowerer::unknown_call_throws`).

use super::*;

impl<'t> Lowerer<'t> {
    pub(super) fn call(&mut self, e: Node<'t>, hint: Option<Ty>) -> ValueId {
        let name = e.child_by_field_name("name").map(|n| self.text(n)).unwrap_or("");
        let object = e.child_by_field_name("object");
        let obj_text = object.map(|o| self.text(o));
        let arg_nodes = e.child_by_field_name("arguments").map(named_children).unwrap_or_default();
        let classes = self.frames.last().map(|f| f.classes.clone()).unwrap_or_default();
        let is_own = match obj_text {
            None | Some("this") => true,
            Some(o) => !self.names_value(o) && classes.iter().any(|c| c == o),
        };
        if object.is_some_and(|o| o.kind() == "super") {
            return self.super_call(name, &arg_nodes, e, hint);
        }
        let scalar_builder = object.and_then(|o| self.scalar_builder_root(o));
        // Receiver and arguments are evaluated left to right.
        let mut recv = None;
        if let Some(o) = object {
            if !is_own && (o.kind() != "identifier" || self.names_value(self.text(o))) {
                recv = Some(self.expr(o));
            }
        }
        let args: Vec<ValueId> = arg_nodes.iter().map(|a| self.expr(*a)).collect();
        if let Some(r) = recv.filter(|r| !self.synthesis() && self.optionals.iter().any(|m| m.obj == *r)) {
            // Proofs too: an Optional the method made itself.
            return self.call_on_optional(r, name, &args, e, hint);
        }
        if let Some(l) = scalar_builder {
            return self.text_builder_call(text_builder::BuilderPlace::Scalar(l), name, &args, e, hint);
        }
        if let Some((r, c)) = recv.and_then(|r| match self.ty(r) {
            Ty::Obj(c) if self.classes.descs[c as usize].is_text_builder() => Some((r, c)),
            _ => None,
        }) {
            return self.text_builder_call(text_builder::BuilderPlace::Heap(r, c), name, &args, e, hint);
        }
        if let (Some(r), true) = (recv, self.synthesis()) {
            if let Ty::Obj(c) = self.ty(r) {
                if self.classes.descs[c as usize].is_list() {
                    return self.list_call(r, name, &args, e, hint);
                }
                if self.classes.descs[c as usize].is_map() {
                    return self.map_call(r, name, &args, e, hint);
                }
                if self.classes.descs[c as usize].is_optional() {
                    return self.call_on_optional(r, name, &args, e, hint);
                }
                if let Some(v) = self.lambda_call(r, c, name, &args, e) {
                    return v;
                }
                if let Some(m) = self.method_of(c, name, &args) {
                    // Synthesis creates objects of exactly their declared class: no override runs.
                    self.note_exact_dispatch(Some(r), c, &m);
                    self.check_object_not_null(r, e);
                    self.next_this = Some((r, c));
                    return self.inline(&m, args, e);
                }
            }
        }
        if let Some((r, Ty::Obj(c))) = recv.map(|r| (r, self.ty(r))).filter(|(r, _)| self.is_new_object(*r)) {
            // Proofs too: the object `new C(...)` made here is exactly a `C`.
            if let Some(m) = self.method_of(c, name, &args) {
                self.next_this = Some((r, c));
                return self.inline(&m, args, e);
            }
        }
        if let Some(r) = recv.filter(|r| self.ty(*r) == Ty::Str) {
            return self.string_method(r, name, &args, e, hint);
        }
        if let Some((r, Ty::Obj(c))) = recv.map(|r| (r, self.ty(r))) {
            if let Some(v) = self.box_method(r, c, name, &args) {
                return v;
            }
        }
        if let Some(cls) = obj_text.filter(|o| !self.names_value(o) && !is_own) {
            // A class of the file shadows the JDK's of its name (a nested `Math`): its static
            // methods, not the intrinsics.
            if let Some(chain) = self.classes.declared_chain(cls) {
                if let Some(callee) = self.resolve(name, &args, &chain, Some(cls)) {
                    return self.inline(&callee, args, e);
                }
            } else if let Some(v) = self.intrinsic(cls, name, &args, e) {
                return v;
            }
            let is_optional =
                self.classes.by_name.get(cls).is_some_and(|c| self.classes.descs[*c as usize].is_optional());
            if is_optional {
                if let Some(v) = self.optional_factory(name, &args, e) {
                    return v;
                }
            }
        }
        if is_own && obj_text.is_none_or(|o| o == "this") {
            match self.virtual_this_method(name, &args) {
                Some(Some(m)) => {
                    self.note_this_dispatch(&m);
                    return self.inline(&m, args, e);
                }
                Some(None) => {
                    self.unsupported(format!("jreach cannot tell which `{name}` a call on `this` runs"));
                    return self.opaque(format!("result of {name}"), hint.unwrap_or(Ty::Ref), None);
                }
                None => {}
            }
        }
        if is_own {
            if let Some(callee) = self.resolve(name, &args, &classes, obj_text) {
                if !callee.is_static {
                    self.note_this_dispatch(&callee);
                }
                return self.inline(&callee, args, e);
            }
            // An abstract method of the object a concrete method runs on: the test's anonymous
            // subclass answers it.
            if let (Some((r, c)), true) = (self.this_obj(), obj_text.is_none_or(|o| o == "this")) {
                if let Some(v) = self.lambda_call(r, c, name, &args, e) {
                    return v;
                }
            }
            if let Some(v) = self.receiver_stub_call(name, &args, obj_text) {
                return v;
            }
        }
        let callee = callee_text(obj_text, name);
        let shares_state = |lw: &Self, v: &ValueId| match lw.ty(*v) {
            Ty::Arr(_) => true,
            // Enum constants have no state a call could change.
            Ty::Obj(c) => {
                let d = &lw.classes.descs[c as usize];
                !d.is_immutable() && !d.is_optional()
            }
            _ => false,
        };
        if self.synthesis()
            && (args.iter().any(|a| shares_state(self, a)) || recv.is_some_and(|r| shares_state(self, &r)))
            && !obj_text.is_some_and(|o| self.jdk_leaves_arguments_unchanged(o, name))
        {
            // The call may change the array or object, and the replay could not tell.
            self.unsupported(format!("{callee} receives an array or object that it may change"));
        }
        if let Some(present) = recv.and_then(|r| self.presence_of(r)) {
            let absent = self.emit(Op::Unary(UnOp::Not, present), Ty::Bool, None);
            self.raise_if(absent, "NullPointerException", e);
        }
        self.unknown_call_throws(&callee);
        if self.synthesis() && self.ends_jvm(obj_text, name, args.len()) {
            // It may throw (a security manager refusing it), else it never returns.
            self.cutoff(CutoffKind::EndsJvm(format!("{callee}({})", self.args_text(e))));
            return self.opaque(format!("result of {callee}"), hint.unwrap_or(Ty::Ref), None);
        }
        // The declared return type is not visible: the context's type, which assignment
        // conversion can only widen to, or an untyped reference.
        let ty = hint.unwrap_or(Ty::Ref);
        // Its cause: the call on an unknown receiver's cause, else this call.
        let source = recv.and_then(|r| self.unknown_sources.get(&r).cloned()).unwrap_or_else(|| format!("{callee}()"));
        let v = self.nondet(NondetKind::CallResult { callee }, ty, Some(e));
        self.unknown_sources.insert(v, source);
        v
    }

    /// Whether `object.name(…)` is a static method of the JDK that leaves the arrays and objects
    /// it is given as they were: it copies, wraps, compares, hashes or prints them
    /// (`Arrays.copyOf`, `Collections.unmodifiableList`, `Objects.hash`), unless a class of the
    /// file shadows the JDK's of that name. Synthesis then goes on past such a call (its result
    /// is still unknown); proofs still forget what any unseen call may change, since the
    /// elements' own `equals` or `toString` it may run are code of the project.
    fn jdk_leaves_arguments_unchanged(&self, object: &str, name: &str) -> bool {
        let object = jdk::without_jdk_package(object);
        if self.classes.declared_chain(object).is_some() || self.names_value(object) {
            return false;
        }
        match object {
            "Arrays" => matches!(
                name,
                "copyOf"
                    | "copyOfRange"
                    | "equals"
                    | "deepEquals"
                    | "hashCode"
                    | "deepHashCode"
                    | "toString"
                    | "deepToString"
                    | "asList"
                    | "binarySearch"
                    | "stream"
                    | "mismatch"
                    | "compare"
            ),
            "Collections" => matches!(
                name,
                "unmodifiableList"
                    | "unmodifiableSet"
                    | "unmodifiableMap"
                    | "unmodifiableCollection"
                    | "unmodifiableSortedSet"
                    | "unmodifiableSortedMap"
                    | "singletonList"
                    | "singleton"
                    | "singletonMap"
                    | "emptyList"
                    | "emptySet"
                    | "emptyMap"
                    | "nCopies"
                    | "frequency"
                    | "max"
                    | "min"
                    | "disjoint"
            ),
            "List" | "Set" | "Map" => matches!(name, "of" | "copyOf"),
            "Objects" => matches!(
                name,
                "equals" | "deepEquals" | "hash" | "hashCode" | "toString" | "requireNonNullElse" | "checkIndex"
            ),
            "String" => matches!(name, "valueOf" | "format" | "join" | "copyValueOf"),
            "System" => name == "identityHashCode",
            _ => false,
        }
    }

    /// Whether `object.name(…)` with `arity` arguments is a call of the JDK that ends the JVM:
    /// `System.exit(status)`, `Runtime.getRuntime().exit(status)` or `.halt(status)` (unless a
    /// class of the file named `System` or `Runtime` shadows the JDK's).
    fn ends_jvm(&self, object: Option<&str>, name: &str, arity: usize) -> bool {
        let Some(object) = object else { return false };
        let object: String = object.chars().filter(|c| !c.is_whitespace()).collect();
        let object = object.strip_prefix("java.lang.").unwrap_or(&object);
        let shadowed = |cls: &str| self.classes.declared_chain(cls).is_some() || self.names_value(cls);
        arity == 1
            && match (object, name) {
                ("System", "exit") => !shadowed("System"),
                ("Runtime.getRuntime()", "exit" | "halt") => !shadowed("Runtime"),
                _ => false,
            }
    }

    /// The source text of the arguments of call `e`, without the parentheses.
    fn args_text(&self, e: Node<'t>) -> String {
        let args = e.child_by_field_name("arguments").map(|a| self.text(a)).unwrap_or("()");
        args.trim_start_matches('(').trim_end_matches(')').trim().to_string()
    }

    /// `super.name(args)`: a method of the superclass, which jreach does not see. Proofs take it
    /// as an unknown call (it may change the receiver's fields, any array and static field, and
    /// throw); synthesis leaves the path, since a test's replay could not follow it.
    pub(super) fn super_call(&mut self, name: &str, arg_nodes: &[Node<'t>], e: Node<'t>, hint: Option<Ty>) -> ValueId {
        let args: Vec<ValueId> = arg_nodes.iter().map(|a| self.expr(*a)).collect();
        if let Some(m) = self.super_method(name, &args) {
            // Bound statically: no override can replace it.
            return self.inline(&m, args, e);
        }
        let callee = format!("super.{name}");
        if self.synthesis() {
            self.unsupported(format!("{callee}(...) runs a superclass method jreach does not see"));
            return self.opaque(format!("result of {callee}"), hint.unwrap_or(Ty::Ref), None);
        }
        self.unknown_call_throws(&callee);
        self.nondet(NondetKind::CallResult { callee }, hint.unwrap_or(Ty::Ref), Some(e))
    }

    /// Whether the class declaring `m` extends another class (whose methods jreach cannot see).
    pub(super) fn has_superclass(&self, m: &MethodInfo) -> bool {
        let mut up = m.node(self.file).parent();
        while let Some(p) = up {
            if matches!(
                p.kind(),
                "class_declaration" | "enum_declaration" | "record_declaration" | "interface_declaration"
            ) {
                return p.child_by_field_name("superclass").is_some();
            }
            up = p.parent();
        }
        false
    }

    /// The same-class method a call names, when jreach may inline it.
    pub(super) fn resolve(
        &self,
        name: &str,
        args: &[ValueId],
        classes: &[String],
        obj: Option<&str>,
    ) -> Option<MethodInfo> {
        let candidates: Vec<&MethodInfo> = self
            .methods
            .iter()
            .filter(|m| !m.is_constructor && m.name == name && m.params.len() == args.len() && m.classes == classes)
            .collect();
        let exact: Vec<&&MethodInfo> = candidates
            .iter()
            .filter(|m| m.params.iter().zip(args).all(|(p, a)| self.ty_of(&p.ty) == self.ty(*a)))
            .collect();
        // Java picks the most specific overload, possibly an inherited one jreach cannot see: only
        // an exact match, or the single candidate of a class without a superclass whose parameters
        // the arguments widen to, is certain.
        let m = match (exact.len(), candidates.len()) {
            (1, _) => *exact[0],
            (0, 1)
                if !self.has_superclass(candidates[0])
                    && candidates[0].params.iter().zip(args).all(|(p, a)| widens(self.ty(*a), self.ty_of(&p.ty))) =>
            {
                candidates[0]
            }
            _ => return None,
        };
        if m.has_error {
            return None;
        }
        // A static call through the class name must name a static method; an instance method
        // may be overridden in a subclass, so only private ones are exact for proofs.
        if obj.is_some_and(|o| o != "this") && !m.is_static {
            return None;
        }
        if !self.synthesis() && !m.is_static && !m.is_private {
            return None;
        }
        Some(m.clone())
    }

    pub(super) fn inline(&mut self, callee: &MethodInfo, args: Vec<ValueId>, at: Node<'t>) -> ValueId {
        let next_this = self.next_this.take();
        let depth = self.frames.len() as u32;
        let ret_ty = self.ty_of(&callee.return_ty);
        // Proofs take a recursive call as a call they cannot see: inlining it again and again
        // only grows the lowering (exponentially, for two recursive calls) until the depth is
        // spent, and then it is such a call anyway.
        let recursive = self.frames.iter().any(|f| f.method.as_ref() == Some(&callee.range));
        let spent = recursive && self.recursive_inlines >= self.opts.recursive_inlines;
        if depth > self.opts.inline_depth || (recursive && !self.synthesis()) || spent {
            if self.synthesis() {
                self.cutoff(CutoffKind::InlineDepth);
                return self.opaque(format!("result of {} beyond the inlining depth", callee.name), ret_ty, None);
            }
            self.unknown_call_throws(&callee.name);
            return self.nondet(NondetKind::CallResult { callee: callee.name.clone() }, ret_ty, Some(at));
        }
        if recursive {
            self.recursive_inlines += 1;
        }
        let this_obj = match next_this {
            Some(o) => Some(o),
            None if !callee.is_static => self.frames.last().and_then(|f| f.this_obj),
            None => None,
        };
        let saved_scopes = std::mem::replace(&mut self.scopes, vec![HashMap::new()]);
        let saved_targets = std::mem::take(&mut self.targets);
        self.declare_captured(callee);
        for (p, a) in callee.params.iter().zip(args) {
            let ty = self.ty_of(&p.ty);
            // A parameter of a type jreach does not model (`Object`, `T`) keeps the argument's
            // own type: the value is the same object.
            let ty =
                if ty == Ty::Ref && matches!(self.ty(a), Ty::Obj(_) | Ty::Str | Ty::Arr(_)) { self.ty(a) } else { ty };
            let v = self.convert(a, ty);
            let var = self.declare(&p.name, ty);
            self.assign(var, v);
        }
        let ret_block = self.b.create_block();
        let ret_var = (ret_ty != Ty::Void).then(|| self.b.new_var("$return", ret_ty));
        self.frames.push(Frame {
            method: Some(callee.range.clone()),
            ret_block,
            ret_var,
            ret_ty,
            handlers_len: self.handlers.len(),
            classes: callee.classes.clone(),
            has_this: !callee.is_static && this_obj.is_none() && self.frames.last().is_some_and(|f| f.has_this),
            this_obj,
        });
        let on_object = this_obj.is_some() || self.frames.last().is_some_and(|f| f.has_this);
        if callee.is_constructor && on_object && !starts_with_ctor_call(callee.body_node(self.file)) {
            if let Some(c) = self.declaring_class(callee) {
                self.ctor_prologue(c, None, at);
            }
        }
        let body = callee.body_node(self.file);
        self.block_stmts(body);
        if let Some(c) = self.cur {
            if ret_ty == Ty::Void {
                self.jump(ret_block);
            } else if self.b.func().block(c).preds.is_empty() {
                self.cur = None;
                self.b.terminate(c, Terminator::Cutoff(CutoffKind::LoopIteration));
            } else {
                self.unsupported("falls off the end of a non-void method");
            }
        }
        self.frames.pop();
        self.scopes = saved_scopes;
        self.targets = saved_targets;
        self.b.seal(ret_block);
        self.cur = Some(ret_block);
        match ret_var {
            Some(v) => self.read(v),
            None => self.opaque("no value (void)".into(), Ty::Void, None),
        }
    }

    /// The overload among `candidates` that a call with `args` certainly selects: the only exact
    /// match, or the only candidate whose parameters the arguments widen to.
    pub(super) fn pick_overload(&self, candidates: Vec<&MethodInfo>, args: &[ValueId]) -> Option<MethodInfo> {
        if candidates.iter().any(|m| m.params.last().is_some_and(|p| p.ty.contains("..."))) {
            // Variable arity: the argument count does not narrow the choice.
            return None;
        }
        let candidates: Vec<&MethodInfo> =
            candidates.into_iter().filter(|m| m.params.len() == args.len() && !m.has_error).collect();
        // The only candidate of this arity is Java's choice when the code compiles, even if some
        // argument's type is unknown here (`this(name, Lib.normalize(name))`).
        if let [only] = candidates.as_slice() {
            let fits = only.params.iter().zip(args).all(|(p, a)| {
                let (from, to) = (self.ty(*a), self.ty_of(&p.ty));
                from == Ty::Ref || widens(from, to)
            });
            if fits {
                return Some((*only).clone());
            }
        }
        let exact: Vec<&&MethodInfo> = candidates
            .iter()
            .filter(|m| m.params.iter().zip(args).all(|(p, a)| self.ty_of(&p.ty) == self.ty(*a)))
            .collect();
        match (exact.len(), candidates.len()) {
            (1, _) => Some((*exact[0]).clone()),
            (0, 1) if candidates[0].params.iter().zip(args).all(|(p, a)| widens(self.ty(*a), self.ty_of(&p.ty))) => {
                Some(candidates[0].clone())
            }
            _ => None,
        }
    }

    /// The constructor of class `c` that `new C(args)` runs, when jreach can inline it.
    pub(super) fn ctor_for(&self, c: u16, args: &[ValueId]) -> Option<MethodInfo> {
        if !self.classes.constructible.get(c as usize).copied().unwrap_or(false) {
            return None;
        }
        let name = &self.classes.descs[c as usize].name;
        let ctors: Vec<&MethodInfo> =
            self.methods.iter().filter(|m| m.is_constructor && m.classes.join(".") == *name).collect();
        self.pick_overload(ctors, args)
    }

    /// The instance method `name` of class `c` that `o.name(args)` runs on an object of exactly
    /// class `c` (synthesis creates objects of that class only).
    pub(super) fn method_of(&self, c: u16, name: &str, args: &[ValueId]) -> Option<MethodInfo> {
        let d = &self.classes.descs[c as usize];
        if d.is_immutable() || !(d.buildable || d.reflective || self.classes.constructible[c as usize]) {
            return None;
        }
        self.pick_overload(self.instance_methods(c, name)?, args)
    }

    /// `new C(args)` through constructor `ctor`: a fresh object with default fields on which the
    /// constructor (with the field initializers) runs.
    pub(super) fn construct(&mut self, c: u16, ctor: &MethodInfo, args: Vec<ValueId>, at: Node<'t>) -> ValueId {
        let r = self.new_object(c, at);
        self.next_this = Some((r, c));
        self.inline(ctor, args, at);
        r
    }

    /// `o.m(args)` on a functional interface whose objects are the lambdas among the parameters:
    /// what the lambda `o` is returns. `None`: not such a call.
    pub(super) fn lambda_call(
        &mut self,
        o: ValueId,
        c: u16,
        name: &str,
        args: &[ValueId],
        e: Node<'t>,
    ) -> Option<ValueId> {
        let d = &self.classes.descs[c as usize];
        let d_first_param = d.lambda.as_ref().and_then(|l| l.first_param);
        let (k, ret) = match &d.lambda {
            Some(l) if l.method == name && l.arity == args.len() => (0, l.ret),
            Some(_) => return None,
            None => {
                let k = d.stub.iter().position(|m| m.name == name && m.params.len() == args.len())?;
                (k, d.stub[k].ret)
            }
        };
        let mine: Vec<(ValueId, Option<ValueId>)> =
            self.lambdas.iter().filter(|(x, _, _)| *x == c).map(|(_, r, v)| (*r, v[k])).collect();
        // Only the test's objects are modelled: another object of the interface ends the path.
        let objs: Vec<ValueId> = mine.iter().map(|(r, _)| *r).collect();
        if !self.guard_one_of(o, &objs, "a call on an object that is not one of the test's lambdas", e) {
            let ty = if ret == Ty::Void { Ty::Int } else { ret };
            return Some(self.opaque(format!("result of {name}"), ty, None));
        }
        if ret == Ty::Void {
            return Some(self.opaque("no value (void)".into(), Ty::Void, None));
        }
        let first = d_first_param.zip(args.first().copied()).map(|(t, a)| self.convert(a, t));
        let special = self.lambda_special.clone();
        Some(self.select_by_object(o, &mine, |x| x.0, &|lw, x| {
            let mut answer = x.1.expect("one method, one return type");
            let Some(a) = first else { return answer };
            // The first special argument that matches wins: built from the last.
            for (_, key, other) in special.iter().filter(|(obj, _, _)| *obj == x.0).rev() {
                let hit = lw.bin(BinOp::Eq, a, *key);
                answer = lw.select(hit, *other, answer);
            }
            answer
        }))
    }

    /// `m(args)` on the receiver when it is the test's anonymous subclass and `m` one of the
    /// methods it implements: what the subclass returns.
    pub(super) fn receiver_stub_call(&mut self, name: &str, args: &[ValueId], obj: Option<&str>) -> Option<ValueId> {
        if self.receiver_stub.is_empty() || obj.is_some_and(|o| o != "this") {
            return None;
        }
        let frame = self.frames.last()?;
        if !frame.has_this || frame.this_obj.is_some() {
            return None;
        }
        let c = self.receiver_class?;
        let stub = &self.classes.descs[c as usize].stub;
        let k = stub.iter().position(|m| m.name == name && m.params.len() == args.len())?;
        match self.receiver_stub[k] {
            Some(v) => Some(v),
            None => Some(self.opaque("no value (void)".into(), Ty::Void, None)),
        }
    }

    /// `v instanceof C` in synthesis, where objects are exactly their declared class: non-null
    /// and of that class. `None` when the answer is not certain (interfaces, unmodelled types).
    pub(super) fn exact_instanceof(&mut self, v: ValueId, class: Ty) -> Option<ValueId> {
        let same = match (self.ty(v), class) {
            (Ty::Str, Ty::Str) => true,
            (Ty::Obj(c), Ty::Obj(k)) => {
                let d = &self.classes.descs[k as usize];
                let is_class = d.buildable
                    || d.reflective
                    || self.classes.constructible[k as usize]
                    || d.is_enum()
                    || d.boxes.is_some();
                if !is_class {
                    return None;
                }
                // An object is an instance of its class and of every class above it.
                let same = self.class_chain(c).contains(&k);
                if !same && !self.is_new_object(v) && self.classes.subclassable[c as usize] {
                    self.b.add_proof_blocker(Blocker::Narrowing(format!(
                        "a test passes a {} of exactly that class, never of a subclass",
                        self.classes.descs[c as usize].name
                    )));
                }
                same
            }
            _ => return None,
        };
        let is_null = match self.ty(v) {
            Ty::Str => self.emit(Op::Str(StrOp::IsNull, vec![v]), Ty::Bool, None),
            ty => {
                let null = self.emit(Op::Obj(ObjOp::Ref(0), vec![]), ty, None);
                self.bin(BinOp::Eq, v, null)
            }
        };
        let not_null = self.emit(Op::Unary(UnOp::Not, is_null), Ty::Bool, None);
        let same = self.konst(Const::Bool(same));
        Some(self.bin(BinOp::And, not_null, same))
    }
}

/// Most characters of a receiver's text a call is named with in messages.
const MAX_RECEIVER_TEXT: usize = 40;

/// How messages name the call `object.name(…)`: the receiver's text on one line, or, when it is
/// long (a chain of calls over several lines), an ellipsis for it: `….setPadding`.
fn callee_text(object: Option<&str>, name: &str) -> String {
    let Some(object) = object else { return name.to_string() };
    let one_line = crate::dump::one_line(object).replace(" .", ".");
    if one_line.chars().count() > MAX_RECEIVER_TEXT {
        format!("….{name}")
    } else {
        format!("{one_line}.{name}")
    }
}

#[cfg(test)]
mod callee_text_tests {
    use super::callee_text;

    #[test]
    fn long_receivers_are_elided_and_short_ones_kept_on_one_line() {
        assert_eq!(callee_text(None, "run"), "run");
        assert_eq!(callee_text(Some("Arrays"), "copyOf"), "Arrays.copyOf");
        assert_eq!(callee_text(Some("((Collection<?>) value)"), "size"), "((Collection<?>) value).size");
        assert_eq!(callee_text(Some("builder()\n    .setLineLength(n)"), "build"), "builder().setLineLength(n).build");
        let chain = "builder()\n    .setLineLength(lineLength)\n    .setLineSeparator(lineSeparator != null ? lineSeparator : EMPTY)";
        assert_eq!(callee_text(Some(chain), "setPadding"), "….setPadding");
    }
}
