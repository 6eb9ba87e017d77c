//! Statements: declarations, `if`, loops (unrolled for synthesis, abstracted for proofs), labeled
//! statements, `return`, `break`/`continue`/`yield`, `switch` and `assert`.

use super::*;

impl<'t> Lowerer<'t> {
    pub(super) fn block_stmts(&mut self, block: Node<'t>) {
        self.scopes.push(HashMap::new());
        for s in named_children(block) {
            self.stmt(s);
        }
        self.scopes.pop();
    }

    pub(super) fn stmt(&mut self, s: Node<'t>) {
        if s.kind() == "line_comment" || s.kind() == "block_comment" {
            return;
        }
        self.current_stmt = Some(s);
        let c = self.cur();
        self.b.mark_stmt(c, s.start_byte());
        if self.too_big() {
            self.cutoff(CutoffKind::SizeLimit);
            return;
        }
        if s.is_error() || s.is_missing() {
            self.unsupported("a syntax error");
            return;
        }
        if s.kind() != "block" {
            self.may_throw_vm_error();
        }
        match s.kind() {
            "block" => self.block_stmts(s),
            ";" | "empty_statement" | "local_class_declaration" | "class_declaration" => {}
            // With -ea an assertion may throw AssertionError; without it, nothing runs.
            "assert_statement" => self.assert_stmt(s),
            "expression_statement" => {
                if let Some(e) = named_children(s).into_iter().next() {
                    self.expr(e);
                }
            }
            "local_variable_declaration" => self.local_decl(s),
            "if_statement" => self.if_stmt(s),
            "while_statement" | "for_statement" | "do_statement" => self.loop_stmt(s, None),
            "enhanced_for_statement" => self.enhanced_for(s, None),
            "labeled_statement" => self.labeled(s),
            "return_statement" => self.return_stmt(s),
            "throw_statement" => self.throw_stmt(s),
            "break_statement" | "continue_statement" => self.break_continue(s),
            "yield_statement" => self.yield_stmt(s),
            "switch_expression" => {
                self.switch(s, None);
            }
            "try_statement" => self.try_stmt(s),
            "synchronized_statement" => {
                // The lock is evaluated first; a null one throws (JLS 14.19).
                let kids = named_children(s);
                if let Some(lock) = kids.first().filter(|k| k.kind() == "parenthesized_expression") {
                    let l = self.expr(unparen(*lock));
                    self.check_reference_not_null(l, *lock);
                }
                if let Some(body) = s.child_by_field_name("body").or_else(|| kids.last().copied()) {
                    self.stmt(body);
                }
            }
            "explicit_constructor_invocation" => {
                // super(...) / this(...): arguments are evaluated; in synthesis `this(...)` runs
                // the constructor it names, otherwise the constructor itself is not seen.
                let mut args = Vec::new();
                if let Some(a) = s.child_by_field_name("arguments") {
                    for a in named_children(a) {
                        args.push(self.expr(a));
                    }
                }
                if self.synthesis() && self.text(s).starts_with("this") {
                    let classes = self.frames.last().map(|f| f.classes.join(".")).unwrap_or_default();
                    let ctor = self.classes.by_name.get(&classes).and_then(|c| self.ctor_for(*c, &args));
                    match ctor {
                        Some(ctor) => {
                            self.inline(&ctor, args, s);
                        }
                        None => self.unsupported("a `this(...)` call jreach cannot resolve"),
                    }
                    return;
                }
                let class = self.frame_class();
                if let Some(c) = class.filter(|c| self.classes.supers[*c as usize].is_some()) {
                    self.ctor_prologue(c, Some(args), s);
                    return;
                }
                self.unknown_call_throws(&format!("{}(...)", self.text(s).split('(').next().unwrap_or("super")));
                if let (Some(c), Some(_)) = (class, self.cur) {
                    // The superclass jreach does not see has run: the class's own initializers
                    // run next.
                    self.ctor_prologue(c, None, s);
                }
            }
            "try_with_resources_statement" => self.unsupported("try-with-resources is not modelled yet"),
            other => self.unsupported(format!("`{other}` statements are not modelled yet")),
        }
    }

    pub(super) fn local_decl(&mut self, s: Node<'t>) {
        let ty_text = s.child_by_field_name("type").map(|t| self.text(t)).unwrap_or("");
        let mut c = s.walk();
        let decls: Vec<Node<'t>> = s.children_by_field_name("declarator", &mut c).collect();
        for d in decls {
            let Some(name) = d.child_by_field_name("name") else { continue };
            let name = self.text(name);
            let dims = d.child_by_field_name("dimensions").map(|x| self.text(x).matches('[').count()).unwrap_or(0);
            let init = d.child_by_field_name("value");
            let mut ty = if dims > 0 {
                self.classes.arr_of(ty_text, dims).map(Ty::Arr).unwrap_or(Ty::Ref)
            } else {
                self.ty_of(ty_text)
            };
            if dims == 0 && self.text_builder_class(ty_text).is_some() && self.scalar_builder(d) {
                let init = init.map(unparen).expect("a scalar builder has an initializer");
                let contents = self.new_text_builder_contents(init);
                let var = self.declare_local(name, Ty::Str, true);
                self.assign(var, contents);
                continue;
            }
            // `List<E> xs = new ArrayList<>()`: the element type comes from the declaration.
            self.declared_java = (dims == 0).then(|| ty_text.to_string());
            let value = init.map(|e| self.expr_as(e, Some(ty)));
            self.declared_java = None;
            if ty_text == "var" {
                if let Some(v) = value {
                    ty = self.ty(v);
                }
            }
            let var = self.declare(name, ty);
            if let Some(v) = value {
                let v = self.convert(v, ty);
                self.assign(var, v);
            }
        }
    }

    pub(super) fn if_stmt(&mut self, s: Node<'t>) {
        let (Some(cond), Some(then)) = (s.child_by_field_name("condition"), s.child_by_field_name("consequence"))
        else {
            self.unsupported("an incomplete if statement");
            return;
        };
        let t = self.b.create_block();
        let f = self.b.create_block();
        self.cond(cond, t, f);
        self.b.seal(t);
        self.b.seal(f);
        let join = self.b.create_block();
        self.cur = Some(t);
        self.stmt(then);
        self.jump(join);
        self.cur = Some(f);
        if let Some(alt) = s.child_by_field_name("alternative") {
            self.stmt(alt);
        }
        self.jump(join);
        self.b.seal(join);
        self.cur = Some(join);
    }

    pub(super) fn labeled(&mut self, s: Node<'t>) {
        let kids = named_children(s);
        let (Some(label), Some(body)) = (kids.first(), kids.last()) else { return };
        let label = self.text(*label).to_string();
        match body.kind() {
            "while_statement" | "for_statement" | "do_statement" => self.loop_stmt(*body, Some(label)),
            "enhanced_for_statement" => self.enhanced_for(*body, Some(label)),
            _ => {
                let exit = self.b.create_block();
                self.targets.push(JumpTarget {
                    label: Some(label),
                    break_to: exit,
                    continue_to: None,
                    yield_var: None,
                    handlers_len: self.handlers.len(),
                    is_loop: false,
                });
                self.stmt(*body);
                self.targets.pop();
                self.jump(exit);
                self.b.seal(exit);
                self.cur = Some(exit);
            }
        }
    }

    /// `while`, `for` and `do`: unrolled (synthesis) or abstracted (over-approximation).
    pub(super) fn loop_stmt(&mut self, s: Node<'t>, label: Option<String>) {
        self.scopes.push(HashMap::new());
        if s.kind() == "for_statement" {
            let mut c = s.walk();
            let inits: Vec<Node<'t>> = s.children_by_field_name("init", &mut c).collect();
            for i in inits {
                if i.kind() == "local_variable_declaration" {
                    self.local_decl(i);
                } else {
                    self.expr(i);
                }
            }
        }
        let cond = s.child_by_field_name("condition");
        let body = s.child_by_field_name("body");
        let mut c = s.walk();
        let updates: Vec<Node<'t>> = s.children_by_field_name("update", &mut c).collect();
        let is_do = s.kind() == "do_statement";
        let exit = self.b.create_block();
        match self.unrolling() {
            Some((unroll, past_bound)) => {
                let mut iteration = 0;
                // For `do`, the first test comes after the first body.
                loop {
                    if self.cur.is_none() {
                        break;
                    }
                    if !is_do || iteration > 0 {
                        let body_b = self.b.create_block();
                        if iteration >= unroll || self.too_big() {
                            let cut = self.b.create_block();
                            self.loop_cond(cond, cut, exit);
                            self.b.seal(cut);
                            self.cur = Some(cut);
                            self.cutoff(if iteration >= unroll { past_bound } else { CutoffKind::SizeLimit });
                            break;
                        }
                        self.loop_cond(cond, body_b, exit);
                        self.b.seal(body_b);
                        self.cur = Some(body_b);
                    }
                    let cont = self.b.create_block();
                    self.push_loop_target(label.clone(), exit, cont);
                    if let Some(body) = body {
                        self.stmt(body);
                    }
                    self.targets.pop();
                    self.jump(cont);
                    self.b.seal(cont);
                    self.cur = Some(cont);
                    for u in &updates {
                        self.expr(*u);
                    }
                    iteration += 1;
                }
            }
            None => {
                self.check_invariants(s);
                let head = self.b.create_block();
                self.jump(head);
                self.b.seal(head);
                self.cur = Some(head);
                self.havoc_assigned(s);
                self.assume_invariants(s);
                if !is_do {
                    let body_b = self.b.create_block();
                    self.loop_cond(cond, body_b, exit);
                    self.b.seal(body_b);
                    self.cur = Some(body_b);
                }
                let latch = self.b.create_block();
                self.push_loop_target(label, exit, latch);
                if let Some(body) = body {
                    self.stmt(body);
                }
                self.targets.pop();
                self.jump(latch);
                self.b.seal(latch);
                self.cur = Some(latch);
                for u in &updates {
                    self.expr(*u);
                }
                if is_do {
                    let again = self.b.create_block();
                    self.loop_cond(cond, again, exit);
                    self.b.seal(again);
                    self.cur = Some(again);
                }
                self.check_invariants(s);
                self.cutoff(CutoffKind::LoopIteration);
            }
        }
        self.b.seal(exit);
        self.cur = Some(exit);
        self.scopes.pop();
    }

    /// How loops are unrolled, if they are: the iterations, and how a path needing more ends
    /// (synthesis: cut off at the bound; proofs with [`LowerOptions::proof_unroll`]: the
    /// unwinding check). `None`: abstracted (over-approximation).
    ///
    /// [`LowerOptions::proof_unroll`]: super::LowerOptions::proof_unroll
    pub(super) fn unrolling(&self) -> Option<(u32, CutoffKind)> {
        match self.opts.mode {
            LowerMode::Synthesis { unroll } => Some((unroll, CutoffKind::UnrollBound)),
            LowerMode::OverApprox => self.opts.proof_unroll.map(|k| (k, CutoffKind::Unwinding)),
        }
    }

    /// Enters a loop body: `break` goes to `break_to`, `continue` to `continue_to`.
    pub(super) fn push_loop_target(&mut self, label: Option<String>, break_to: BlockId, continue_to: BlockId) {
        self.targets.push(JumpTarget {
            label,
            break_to,
            continue_to: Some(continue_to),
            yield_var: None,
            handlers_len: self.handlers.len(),
            is_loop: true,
        });
    }

    pub(super) fn loop_cond(&mut self, cond: Option<Node<'t>>, t: BlockId, f: BlockId) {
        match cond {
            Some(c) => self.cond(c, t, f),
            None => self.jump(t),
        }
    }

    pub(super) fn enhanced_for(&mut self, s: Node<'t>, label: Option<String>) {
        if let Some(v) = s.child_by_field_name("value") {
            let arr = self.expr(v);
            if let Ty::Arr(a) = self.ty(arr) {
                return self.array_for(s, arr, a, label);
            }
            if let (true, Ty::Obj(c)) = (self.synthesis(), self.ty(arr)) {
                if self.classes.descs[c as usize].is_list() {
                    return self.list_for(s, arr, label);
                }
            }
        }
        if self.synthesis() {
            self.unsupported("enhanced for loops (arrays and collections) are not modelled yet");
            return;
        }
        self.scopes.push(HashMap::new());
        let exit = self.b.create_block();
        let head = self.b.create_block();
        self.jump(head);
        self.b.seal(head);
        self.cur = Some(head);
        self.havoc_assigned(s);
        self.may_throw_here("iterating a collection");
        let more =
            self.nondet(NondetKind::Opaque { what: "whether the loop has another element".into() }, Ty::Bool, None);
        let body_b = self.b.create_block();
        self.branch(more, body_b, exit, None);
        self.b.seal(body_b);
        self.cur = Some(body_b);
        let ty = s.child_by_field_name("type").and_then(|t| Ty::from_java(self.text(t))).unwrap_or(Ty::Ref);
        if let Some(name) = s.child_by_field_name("name") {
            let var = self.declare(self.text(name), ty);
            let v = self.opaque("an element of the iterated collection".into(), ty, None);
            self.assign(var, v);
        }
        let latch = self.b.create_block();
        self.push_loop_target(label, exit, latch);
        if let Some(body) = s.child_by_field_name("body") {
            self.stmt(body);
        }
        self.targets.pop();
        self.jump(latch);
        self.b.seal(latch);
        self.cur = Some(latch);
        self.cutoff(CutoffKind::LoopIteration);
        self.b.seal(exit);
        self.cur = Some(exit);
        self.scopes.pop();
    }

    pub(super) fn return_stmt(&mut self, s: Node<'t>) {
        let (ret_ty, ret_var, ret_block, handlers_len) = {
            let f = self.frames.last().expect("a frame");
            (f.ret_ty, f.ret_var, f.ret_block, f.handlers_len)
        };
        let value = named_children(s).into_iter().next().map(|e| {
            let v = self.expr_as(e, Some(ret_ty));
            self.convert(v, ret_ty)
        });
        self.run_finallies(handlers_len);
        if self.cur.is_none() {
            return;
        }
        if let (Some(var), Some(v)) = (ret_var, value) {
            self.assign(var, v);
        }
        self.jump(ret_block);
    }

    pub(super) fn break_continue(&mut self, s: Node<'t>) {
        let is_break = s.kind() == "break_statement";
        let label = named_children(s).into_iter().find(|k| k.kind() == "identifier").map(|k| self.text(k).to_string());
        let target = self
            .targets
            .iter()
            .rev()
            .find(|t| match &label {
                Some(l) => t.label.as_deref() == Some(l.as_str()),
                None => t.yield_var.is_none() && (t.is_loop || (is_break && t.label.is_none())),
            })
            .cloned();
        let Some(t) = target else {
            self.unsupported("a break or continue without a target");
            return;
        };
        self.run_finallies(t.handlers_len);
        let to = if is_break { Some(t.break_to) } else { t.continue_to };
        match to {
            Some(to) => self.jump(to),
            None => self.unsupported("continue to a statement that is not a loop"),
        }
    }

    pub(super) fn yield_stmt(&mut self, s: Node<'t>) {
        let Some(t) = self.targets.iter().rev().find(|t| t.yield_var.is_some()).cloned() else {
            self.unsupported("yield outside a switch expression");
            return;
        };
        let (var, ty) = t.yield_var.expect("found by yield_var");
        if let Some(e) = named_children(s).into_iter().next() {
            let v = self.expr_as(e, Some(ty));
            let v = self.convert(v, ty);
            self.run_finallies(t.handlers_len);
            if self.cur.is_some() {
                self.assign(var, v);
            }
        }
        self.jump(t.break_to);
    }

    /// Classic and arrow `switch`, as a statement (`value_ty` None) or as an expression yielding a
    /// value of `value_ty`.
    pub(super) fn switch(&mut self, s: Node<'t>, value_ty: Option<Ty>) -> Option<ValueId> {
        let (Some(sel_node), Some(body)) = (s.child_by_field_name("condition"), s.child_by_field_name("body")) else {
            self.unsupported("an incomplete switch");
            return None;
        };
        let sel = self.expr(sel_node);
        // A switch on a box unboxes it: NullPointerException on null (JLS 14.11.3).
        let sel = match self.ty(sel) {
            Ty::Obj(c) => match self.classes.descs[c as usize].boxes {
                Some(prim) => self.convert(sel, prim),
                None => sel,
            },
            _ => sel,
        };
        let sel = if self.ty(sel).is_integral() {
            let t = Ty::promote1(self.ty(sel));
            self.convert(sel, t)
        } else {
            sel
        };
        if self.ty(sel) == Ty::Str {
            self.check_not_null(sel, sel_node);
        }
        let sel_enum = match self.ty(sel) {
            Ty::Obj(c) if self.classes.descs[c as usize].is_enum() => {
                self.check_object_not_null(sel, sel_node);
                Some(c)
            }
            _ => None,
        };
        let sel_text = self.text(sel_node).trim_start_matches('(').trim_end_matches(')').to_string();
        let groups: Vec<Node<'t>> = named_children(body)
            .into_iter()
            .filter(|g| matches!(g.kind(), "switch_block_statement_group" | "switch_rule"))
            .collect();
        let exit = self.b.create_block();
        let yield_var = value_ty.map(|t| (self.b.new_var("$switch", t), t));
        let group_blocks: Vec<BlockId> = groups.iter().map(|_| self.b.create_block()).collect();
        let mut default = None;
        for (i, g) in groups.iter().enumerate() {
            for label in named_children(*g).into_iter().filter(|l| l.kind() == "switch_label") {
                let cases = named_children(label);
                if cases.is_empty() || self.text(label).trim_start().starts_with("default") {
                    default = Some(group_blocks[i]);
                    continue;
                }
                for case in cases {
                    if matches!(case.kind(), "pattern" | "guard" | "type_pattern" | "record_pattern") {
                        self.unsupported("pattern matching in switch is not modelled yet");
                        return None;
                    }
                    let constant = sel_enum.and_then(|c| {
                        let name = self.text(case).rsplit('.').next().unwrap_or("").trim().to_string();
                        self.classes.descs[c as usize].constants.iter().position(|k| *k == name).map(|k| (c, k))
                    });
                    let eq = if let Some((c, k)) = constant {
                        let r = self.emit(Op::Obj(ObjOp::Ref(k as i32 + 1), vec![]), Ty::Obj(c), Some(case));
                        self.bin(BinOp::Eq, sel, r)
                    } else if self.ty(sel) == Ty::Str {
                        let c = self.expr(case);
                        let c = self.convert(c, Ty::Str);
                        self.emit(Op::Str(StrOp::Equals, vec![sel, c]), Ty::Bool, Some(case))
                    } else if self.ty(sel) == Ty::Ref {
                        self.opaque(format!("whether {sel_text} matches {}", self.text(case)), Ty::Bool, Some(case))
                    } else {
                        let c = self.expr(case);
                        let c = self.convert(c, self.ty(sel));
                        self.bin(BinOp::Eq, sel, c)
                    };
                    let next = self.b.create_block();
                    let origin = CondOrigin {
                        span: case.byte_range(),
                        text: format!("{sel_text} == {}", self.text(case)),
                        note: None,
                    };
                    self.branch(eq, group_blocks[i], next, Some(origin));
                    self.b.seal(next);
                    self.cur = Some(next);
                }
            }
        }
        match default {
            Some(d) => self.jump(d),
            None if value_ty.is_some() => self.unsupported("a switch expression with no matching case"),
            None => self.jump(exit),
        }
        self.targets.push(JumpTarget {
            label: None,
            break_to: exit,
            continue_to: None,
            yield_var,
            handlers_len: self.handlers.len(),
            is_loop: false,
        });
        self.scopes.push(HashMap::new());
        for (i, g) in groups.iter().enumerate() {
            // Fall-through from the previous group enters here too.
            self.jump(group_blocks[i]);
            self.b.seal(group_blocks[i]);
            self.cur = Some(group_blocks[i]);
            let parts: Vec<Node<'t>> = named_children(*g).into_iter().filter(|p| p.kind() != "switch_label").collect();
            if g.kind() == "switch_rule" {
                for p in parts {
                    match (p.kind(), yield_var) {
                        ("expression_statement", Some((var, ty))) => {
                            let e = named_children(p).into_iter().next();
                            if let Some(e) = e {
                                let c = self.cur();
                                self.b.mark_stmt(c, p.start_byte());
                                let v = self.expr_as(e, Some(ty));
                                let v = self.convert(v, ty);
                                if self.cur.is_some() {
                                    self.assign(var, v);
                                }
                            }
                        }
                        _ => self.stmt(p),
                    }
                }
                self.jump(exit);
            } else {
                for p in parts {
                    self.stmt(p);
                }
            }
        }
        self.jump(exit);
        self.scopes.pop();
        self.targets.pop();
        self.b.seal(exit);
        self.cur = Some(exit);
        yield_var.map(|(var, _)| self.read(var))
    }

    /// `assert cond : detail;`. Tests run with assertions enabled (Maven Surefire's and Gradle's
    /// default, and `-ea` in IDEs), so synthesis evaluates the condition; proofs take either, since
    /// the condition may have side effects and a false one throws AssertionError (JLS 14.10).
    pub(super) fn assert_stmt(&mut self, s: Node<'t>) {
        let kids = named_children(s);
        let Some(cond) = kids.first().copied() else { return };
        let checked = self.b.create_block();
        let done = self.b.create_block();
        if self.synthesis() {
            self.b.add_proof_blocker(Blocker::Narrowing(
                "assertions are taken as enabled (-ea), as test runners run them".into(),
            ));
            self.jump(checked);
        } else {
            let enabled =
                self.nondet(NondetKind::Opaque { what: "whether assertions are enabled".into() }, Ty::Bool, None);
            self.branch(enabled, checked, done, None);
        }
        self.b.seal(checked);
        self.cur = Some(checked);
        let failed = self.b.create_block();
        self.cond(cond, done, failed);
        self.b.seal(failed);
        self.cur = Some(failed);
        if let Some(detail) = kids.get(1) {
            let d = self.expr(*detail);
            self.to_str_value(d);
        }
        self.raise("AssertionError", Some(s));
        self.b.seal(done);
        self.cur = Some(done);
    }

    /// `for (T x : array)`: unrolled (synthesis) or abstracted (over-approximation) over indices.
    pub(super) fn array_for(&mut self, s: Node<'t>, arr: ValueId, t: ArrTy, label: Option<String>) {
        self.check_array_not_null(arr, s);
        let mem = self.mem(t);
        let len = self.emit(Op::Arr(ArrOp::Len, vec![mem, arr]), Ty::Int, None);
        let load = move |lw: &mut Self, i: ValueId| {
            let mem = lw.mem(t);
            lw.emit(Op::Arr(ArrOp::Load, vec![mem, arr, i]), t.elem(), None)
        };
        self.indexed_for(s, len, t.elem(), &load, None, label);
    }

    /// An enhanced for over `len` elements, element `i` given by `load`; `after_body` runs after
    /// each iteration's body.
    pub(super) fn indexed_for(
        &mut self,
        s: Node<'t>,
        len: ValueId,
        elem_ty: Ty,
        load: &dyn Fn(&mut Self, ValueId) -> ValueId,
        after_body: Option<&dyn Fn(&mut Self)>,
        label: Option<String>,
    ) {
        self.scopes.push(HashMap::new());
        let idx = self.b.new_var("$index", Ty::Int);
        let zero = self.int(Ty::Int, 0);
        self.assign(idx, zero);
        let exit = self.b.create_block();
        let declared = s.child_by_field_name("type").map(|x| self.ty_of(self.text(x))).unwrap_or(elem_ty);
        // `var`, or a type name jreach does not know: the element's own type.
        let declared = if declared == Ty::Ref { elem_ty } else { declared };
        let name = s.child_by_field_name("name").map(|n| self.text(n).to_string()).unwrap_or_default();
        let body = s.child_by_field_name("body");
        let origin_text =
            format!("{name} in {}", s.child_by_field_name("value").map(|v| self.text(v)).unwrap_or("the array"));
        // One iteration: test the index, bind the element, run the body, step.
        let iteration = |lw: &mut Self, cut: bool| {
            let i = lw.read(idx);
            let more = lw.bin(BinOp::Lt, i, len);
            let body_b = lw.b.create_block();
            let origin = CondOrigin { span: s.byte_range(), text: origin_text.clone(), note: None };
            lw.branch(more, body_b, exit, Some(origin));
            lw.b.seal(body_b);
            lw.cur = Some(body_b);
            if cut {
                return;
            }
            let x = load(lw, i);
            let x = lw.convert(x, declared);
            let var = lw.declare(&name, declared);
            lw.assign(var, x);
            let cont = lw.b.create_block();
            lw.push_loop_target(label.clone(), exit, cont);
            if let Some(body) = body {
                lw.stmt(body);
            }
            lw.targets.pop();
            lw.jump(cont);
            lw.b.seal(cont);
            lw.cur = Some(cont);
            if let Some(after) = after_body {
                after(lw);
            }
            let i = lw.read(idx);
            let one = lw.int(Ty::Int, 1);
            let next = lw.bin(BinOp::Add, i, one);
            lw.assign(idx, next);
        };
        match self.unrolling() {
            Some((unroll, past_bound)) => {
                let mut k = 0;
                while self.cur.is_some() {
                    if k >= unroll || self.too_big() {
                        iteration(self, true);
                        self.cutoff(if k >= unroll { past_bound } else { CutoffKind::SizeLimit });
                        break;
                    }
                    iteration(self, false);
                    k += 1;
                }
            }
            None => {
                self.check_invariants(s);
                let head = self.b.create_block();
                self.jump(head);
                self.b.seal(head);
                self.cur = Some(head);
                let any = self.nondet(NondetKind::Havoc { what: "the loop index".into() }, Ty::Int, None);
                // The index of any iteration: 0 <= index (the loop test bounds it above).
                let zero = self.int(Ty::Int, 0);
                let neg = self.bin(BinOp::Lt, any, zero);
                let i0 = self.select(neg, zero, any);
                self.assign(idx, i0);
                self.havoc_assigned(s);
                self.assume_invariants(s);
                iteration(self, false);
                self.check_invariants(s);
                self.cutoff(CutoffKind::LoopIteration);
            }
        }
        self.b.seal(exit);
        self.cur = Some(exit);
        self.scopes.pop();
    }
}
