//! The shadowing feature (see the module doc of [`super`]): a `static final int lim` constant of
//! the class, and code in `m` where the simple name `lim` denotes something else (JLS 6.4.1): a
//! local of `m` that an anonymous class captures, or the field `lim` that an anonymous or a local
//! class inherits from `Base`. The code reads `lim` in a condition that is false for the constant
//! and true for what the name really denotes (always, for the inherited field; for some inputs,
//! for the captured local), so a lowering that took `lim` for the constant would claim a live
//! statement dead.

use super::{Gen, JTy};

/// The constants of one class's shadowing feature.
#[derive(Clone, Copy, Debug)]
pub(super) struct Shadow {
    /// `lim > bound` is false for the class's constant `lim`.
    bound: i64,
}

impl Gen<'_> {
    /// Writes the class's members of the feature: the constant, and `Base` with the field that
    /// shadows it in its subclasses (`lim > bound` holds for it).
    pub(super) fn shadow_members(&mut self) -> Shadow {
        let constant = self.rng.range(-5, 5);
        let bound = constant + self.rng.range(0, 3);
        let inherited = bound + self.rng.range(1, 5);
        self.w(&format!("    static final int lim = {constant};\n"));
        self.w(&format!(
            "    abstract static class Base {{\n        int lim = {inherited};\n        abstract int apply(int v);\n    }}\n"
        ));
        Shadow { bound }
    }

    /// One statement of `m` (at `depth`) whose anonymous or local class reads a `lim` that is not
    /// the constant, then adds what it computes to `a0`.
    pub(super) fn shadow_stmt(&mut self, depth: usize, s: Shadow) {
        let (class_head, call) = match self.rng.below(3) {
            0 => {
                // A local `lim`, captured.
                self.indent(depth);
                let id = self.begin();
                let e = self.int_expr(1);
                self.w(&format!("int lim = {e};"));
                self.end(id);
                self.w("\n");
                (
                    "a0 += new java.util.function.IntUnaryOperator() {".to_string(),
                    ("applyAsInt", "public ", "}.applyAsInt(a1);".to_string()),
                )
            }
            1 => ("a0 += new Base() {".to_string(), ("apply", "", "}.apply(a1);".to_string())),
            _ => ("class Local extends Base {".to_string(), ("apply", "", "}".to_string())),
        };
        let (method, visibility, close) = call;
        self.indent(depth);
        let id = self.begin();
        let class_start = self.plain.len();
        self.w(&format!("{class_head}\n"));
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
        self.w(&format!("if (lim > {}) {{\n", s.bound));
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
        self.indent(depth);
        self.w(&close);
        self.end(id);
        self.w("\n");
        self.unfollowed = Some(class_start..self.plain.len());
        if class_head.starts_with("class Local") {
            self.indent(depth);
            let id = self.begin();
            self.w("a0 += new Local().apply(a1);");
            self.end(id);
            self.w("\n");
        }
    }
}
