//! The shadowing feature (see the module doc of [`super`]): a `static final int lim` constant of
//! the class, and code where the simple name `lim` denotes something else (JLS 6.4.1): a local
//! of `m` that an anonymous class captures, the parameter `lim` of a static method `op` that
//! returns an anonymous class capturing it, or the field `lim` that an anonymous or a local
//! class inherits from `Base`. The code reads `lim` in a condition, directly or through a helper
//! method of the class (`boolean over()`, which a lowering inlines), that is false for the
//! constant and true for what the name really denotes (always, for the inherited field; for some
//! inputs, for the captured local and parameter), so a lowering that took `lim` for the constant
//! would claim a live statement dead.

use super::{Gen, JTy};

/// The constants of one class's shadowing feature.
#[derive(Clone, Copy, Debug)]
pub(super) struct Shadow {
    /// `lim > bound` is false for the class's constant `lim`.
    bound: i64,
    /// Whether the class declares `static IntUnaryOperator op(int lim)`, whose object `m` uses.
    returned: bool,
}

impl Gen<'_> {
    /// Writes the class's members of the feature: the constant, `Base` with the field that
    /// shadows it in its subclasses (`lim > bound` holds for it), and, for a third of the
    /// classes, `op`.
    pub(super) fn shadow_members(&mut self) -> Shadow {
        let constant = self.rng.range(-5, 5);
        let bound = constant + self.rng.range(0, 3);
        let inherited = bound + self.rng.range(1, 5);
        self.w(&format!("    static final int lim = {constant};\n"));
        self.w(&format!(
            "    abstract static class Base {{\n        int lim = {inherited};\n        abstract int apply(int v);\n    }}\n"
        ));
        let s = Shadow { bound, returned: self.rng.below(3) == 0 };
        if s.returned {
            // Its statements are instrumented like `m`'s: they run when `m` calls the object.
            let start = self.plain.len();
            let was = std::mem::replace(&mut self.instrument, true);
            self.w("    static java.util.function.IntUnaryOperator op(int lim) {\n");
            self.indent(2);
            let id = self.begin();
            self.w("return new java.util.function.IntUnaryOperator() {\n");
            self.shadow_class_body(2, "applyAsInt", "public ", s);
            self.indent(2);
            self.w("};");
            self.end(id);
            self.w("\n    }\n");
            self.instrument = was;
            self.unfollowed.push(start..self.plain.len());
        }
        s
    }

    /// One statement of `m` (at `depth`) whose object reads a `lim` that is not the constant,
    /// then adds what it computes to `a0`.
    pub(super) fn shadow_stmt(&mut self, depth: usize, s: Shadow) {
        if s.returned {
            self.indent(depth);
            let id = self.begin();
            self.w("a0 += op(a1).applyAsInt(a0);");
            self.end(id);
            self.w("\n");
            return;
        }
        let (class_head, method, visibility, close) = match self.rng.below(3) {
            0 => {
                // A local `lim`, captured.
                self.indent(depth);
                let id = self.begin();
                let e = self.int_expr(1);
                self.w(&format!("int lim = {e};"));
                self.end(id);
                self.w("\n");
                ("a0 += new java.util.function.IntUnaryOperator() {", "applyAsInt", "public ", "}.applyAsInt(a1);")
            }
            1 => ("a0 += new Base() {", "apply", "", "}.apply(a1);"),
            _ => ("class Local extends Base {", "apply", "", "}"),
        };
        self.indent(depth);
        let id = self.begin();
        let class_start = self.plain.len();
        self.w(&format!("{class_head}\n"));
        self.shadow_class_body(depth, method, visibility, s);
        self.indent(depth);
        self.w(close);
        self.end(id);
        self.w("\n");
        self.unfollowed.push(class_start..self.plain.len());
        if class_head.starts_with("class Local") {
            self.indent(depth);
            let id = self.begin();
            self.w("a0 += new Local().apply(a1);");
            self.end(id);
            self.w("\n");
        }
    }

    /// The members of the class whose head is written at `depth`: `method(int v)` guarding a
    /// statement with `lim > bound`, read directly or, for half the classes, through a helper
    /// method `over()` declared after it.
    fn shadow_class_body(&mut self, depth: usize, method: &str, visibility: &str, s: Shadow) {
        let helper = self.rng.below(2) == 0;
        self.indent(depth + 1);
        self.w("@Override\n");
        self.indent(depth + 1);
        self.w(&format!("{visibility}int {method}(int v) {{\n"));
        // The body: `v` and `lim` only (what the class reads of `m` is captured, read-only).
        let saved = std::mem::replace(&mut self.vars, vec![("v".into(), JTy::Int, true)]);
        let saved_objects = std::mem::take(&mut self.objects);
        let saved_state = std::mem::replace(&mut self.state, false);
        self.indent(depth + 2);
        let cond = self.begin();
        if helper {
            self.w("if (over()) {\n");
        } else {
            self.w(&format!("if (lim > {}) {{\n", s.bound));
        }
        self.indent(depth + 3);
        let then = self.begin();
        let e = self.int_expr(1);
        self.w(&format!("v += {e};"));
        self.end(then);
        self.w("\n");
        self.indent(depth + 2);
        self.w("}");
        self.end(cond);
        self.w("\n");
        self.indent(depth + 2);
        let ret = self.begin();
        self.w("return v;");
        self.end(ret);
        self.w("\n");
        self.vars = saved;
        self.objects = saved_objects;
        self.state = saved_state;
        self.indent(depth + 1);
        self.w("}\n");
        if helper {
            self.indent(depth + 1);
            self.w(&format!("boolean over() {{\n{}return lim > {};\n", "    ".repeat(depth + 2), s.bound));
            self.indent(depth + 1);
            self.w("}\n");
        }
    }
}
