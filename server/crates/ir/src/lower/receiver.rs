//! The receiver's fields as variables: as `new C()` (or the test's constructor, or reflection)
//! leaves them for synthesis, unknown for proofs.

use super::*;

impl<'t> Lowerer<'t> {
    /// The receiver's fields as variables. Synthesis: the object a test creates with `new C()`
    /// (defaults, then initializers, then the no-argument constructor), or, for a receiver made
    /// by reflection, the inputs in `reflected` by field name (other fields null). Over-approximation:
    /// any values.
    pub(super) fn init_this_fields(
        &mut self,
        method: &MethodInfo,
        ctor: Option<(&MethodInfo, Vec<ValueId>)>,
        reflected: Option<Vec<(String, ValueId)>>,
    ) {
        let node = method.node(self.file);
        let Some(body) = node.parent().filter(|p| matches!(p.kind(), "class_body" | "enum_body_declarations")) else {
            return;
        };
        let mut decls = Vec::new();
        let mut has_initializer_block = false;
        // Inherited fields first, from the top of the linked chain.
        let class = self.receiver_class;
        let chain = class.map(|c| self.class_chain(c)).unwrap_or_default();
        let mut bodies: Vec<Node<'t>> = chain
            .iter()
            .skip(1)
            .rev()
            .filter_map(|k| self.classes.bodies[*k as usize].clone().and_then(|b| self.node_at(&b)))
            .collect();
        bodies.push(body);
        for member in bodies.into_iter().flat_map(named_children) {
            match member.kind() {
                "block" => has_initializer_block = true,
                "field_declaration" => {
                    let mods =
                        named_children(member).into_iter().find(|c| c.kind() == "modifiers").map(|m| self.text(m));
                    if mods.is_some_and(|m| m.split_whitespace().any(|w| w == "static")) {
                        continue;
                    }
                    let ty_text = member.child_by_field_name("type").map(|t| self.text(t)).unwrap_or("");
                    let mut c = member.walk();
                    for d in member.children_by_field_name("declarator", &mut c) {
                        let Some(name) = d.child_by_field_name("name") else { continue };
                        let ty =
                            if d.child_by_field_name("dimensions").is_some() { Ty::Ref } else { self.ty_of(ty_text) };
                        decls.push((self.text(name).to_string(), ty, d.child_by_field_name("value")));
                    }
                }
                _ => {}
            }
        }
        // The initializer blocks run in the class's constructors (not for a class jreach does
        // not model, whose initializers run here one by one).
        let exact = self.synthesis() && (!has_initializer_block || reflected.is_some() || class.is_some());
        if reflected.is_some() {
            // Fields of types jreach cannot see stay null.
            self.b.add_proof_blocker(Blocker::Narrowing(
                "the receiver is made by reflection, only its fields of types jreach sees set".into(),
            ));
        } else if exact {
            // Other calls could leave the receiver in states its constructor does not.
            self.b.add_proof_blocker(Blocker::Narrowing(RECEIVER_AS_CONSTRUCTED.into()));
        }
        for (name, ty, _) in &decls {
            let var = self.b.new_var(&format!("this.{name}"), *ty);
            let input = reflected
                .as_ref()
                .and_then(|r| r.iter().find(|(n, v)| n == name && self.ty(*v) == *ty))
                .map(|(_, v)| *v);
            let v = if let Some(input) = input {
                input
            } else if exact || self.class_role == class_invariants::ClassInvariantRole::Constructor {
                // A constructor runs on a fresh object: its fields hold their defaults.
                self.zero_of(*ty)
            } else {
                self.nondet(NondetKind::Havoc { what: format!("this.{name}") }, *ty, None)
            };
            self.assign(var, v);
            self.this_fields.insert(name.clone(), Local { var, ty: *ty, scalar_builder: false });
        }
        if method.is_constructor {
            // The constructor under test starts with its superclass's and its own initializers,
            // unless it names a constructor to run first (which then does that).
            if let (Some(c), false) = (class, starts_with_ctor_call(method.body_node(self.file))) {
                self.ctor_prologue(c, None, node);
            }
            return;
        }
        if !exact || reflected.is_some() {
            return;
        }
        let Some(c) = class else {
            // A class jreach does not model: its initializers, as a constructor would run them.
            for (name, ty, init) in decls {
                if let Some(init) = init {
                    let v = self.expr_as(init, Some(ty));
                    let v = self.convert(v, ty);
                    let var = self.this_fields[&name].var;
                    self.assign(var, v);
                }
            }
            return;
        };
        let ctor = match ctor {
            Some((ctor, args)) => Some((ctor.clone(), args)),
            None => self
                .methods
                .iter()
                .find(|c| c.is_constructor && c.params.is_empty() && c.classes == method.classes)
                .map(|c| (c.clone(), vec![])),
        };
        match ctor {
            Some((ctor, args)) => {
                self.inline(&ctor, args, node);
            }
            None => self.run_implicit_ctor(None, c, node),
        }
    }
}
