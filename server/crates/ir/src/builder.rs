//! SSA construction on the fly (Braun, Buchwald, Hack, Leißa, Mallon, Zwinkau: "Simple and Efficient
//! Construction of Static Single Assignment Form", CC 2013): `def_var`/`use_var` per block, φs placed
//! on demand, blocks sealed once all their predecessors are known. Trivial φs are removed when the
//! function is finished, and blocks are renumbered into a topological order.

use std::collections::HashMap;
use std::ops::Range;

use crate::func::*;
use crate::types::{Const, Ty};

/// A source-level local variable (each declaration is a distinct variable).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Var(pub u32);

/// Builds one [`Function`].
pub struct FunctionBuilder {
    func: Function,
    defs: HashMap<(Var, BlockId), ValueId>,
    incomplete: HashMap<BlockId, Vec<(Var, ValueId)>>,
    sealed: Vec<bool>,
    var_tys: Vec<Ty>,
    var_names: Vec<String>,
}

impl FunctionBuilder {
    /// A builder whose entry block exists and is sealed.
    pub fn new(name: String, params: Vec<ParamInfo>, return_ty: Ty, mode: LowerMode) -> FunctionBuilder {
        let func = Function {
            name,
            params,
            return_ty,
            blocks: vec![],
            values: vec![],
            entry: BlockId(0),
            mode,
            proof_blockers: vec![],
            classes: vec![],
            setup: Default::default(),
        };
        let mut b = FunctionBuilder {
            func,
            defs: HashMap::new(),
            incomplete: HashMap::new(),
            sealed: vec![],
            var_tys: vec![],
            var_names: vec![],
        };
        let entry = b.create_block();
        b.seal(entry);
        b
    }

    /// Sets the class table `Ty::Obj` and `Ty::Fields` refer to.
    pub fn set_classes(&mut self, classes: Vec<ClassDesc>) {
        self.func.classes = classes;
    }

    /// How a test sets up the inputs (see [`Setup`]).
    pub fn setup_mut(&mut self) -> &mut Setup {
        &mut self.func.setup
    }

    pub fn func(&self) -> &Function {
        &self.func
    }

    /// Records why this lowering cannot prove unreachability (deduplicated).
    pub fn add_proof_blocker(&mut self, why: Blocker) {
        if !self.func.proof_blockers.contains(&why) {
            self.func.proof_blockers.push(why);
        }
    }

    pub fn entry(&self) -> BlockId {
        self.func.entry
    }

    pub fn value_count(&self) -> usize {
        self.func.values.len()
    }

    pub fn create_block(&mut self) -> BlockId {
        let id = BlockId(self.func.blocks.len() as u32);
        self.func.blocks.push(Block { insts: vec![], term: Terminator::Unterminated, preds: vec![], stmts: vec![] });
        self.sealed.push(false);
        id
    }

    pub fn new_var(&mut self, name: &str, ty: Ty) -> Var {
        self.var_tys.push(ty);
        self.var_names.push(name.to_string());
        Var(self.var_tys.len() as u32 - 1)
    }

    pub fn var_ty(&self, v: Var) -> Ty {
        self.var_tys[v.0 as usize]
    }

    pub fn var_name(&self, v: Var) -> &str {
        &self.var_names[v.0 as usize]
    }

    pub fn is_terminated(&self, b: BlockId) -> bool {
        self.func.blocks[b.index()].term != Terminator::Unterminated
    }

    /// Records that a statement starting at `offset` begins executing in `b`.
    pub fn mark_stmt(&mut self, b: BlockId, offset: usize) {
        self.func.blocks[b.index()].stmts.push(offset);
    }

    /// Appends a value computed by `op` to block `b`.
    pub fn push(&mut self, b: BlockId, op: Op, ty: Ty, span: Option<Range<usize>>) -> ValueId {
        let id = self.add_value(b, op, ty, span);
        self.func.blocks[b.index()].insts.push(id);
        id
    }

    fn add_value(&mut self, b: BlockId, op: Op, ty: Ty, span: Option<Range<usize>>) -> ValueId {
        let id = ValueId(self.func.values.len() as u32);
        self.func.values.push(ValueData { op, ty, block: b, span });
        id
    }

    /// Ends block `b` and registers it as a predecessor of its successors.
    pub fn terminate(&mut self, b: BlockId, term: Terminator) {
        debug_assert!(!self.is_terminated(b), "{b} terminated twice");
        for s in term.successors() {
            debug_assert!(!self.sealed[s.index()], "edge {b} -> {s} added after {s} was sealed");
            self.func.blocks[s.index()].preds.push(b);
        }
        self.func.blocks[b.index()].term = term;
    }

    pub fn def_var(&mut self, var: Var, b: BlockId, v: ValueId) {
        self.defs.insert((var, b), v);
    }

    pub fn use_var(&mut self, var: Var, b: BlockId) -> ValueId {
        if let Some(v) = self.defs.get(&(var, b)) {
            return *v;
        }
        self.use_var_recursive(var, b)
    }

    fn use_var_recursive(&mut self, var: Var, b: BlockId) -> ValueId {
        let ty = self.var_ty(var);
        let v = if !self.sealed[b.index()] {
            let phi = self.new_phi(b, ty);
            self.incomplete.entry(b).or_default().push((var, phi));
            phi
        } else {
            let preds = self.func.blocks[b.index()].preds.clone();
            match preds.len() {
                0 => {
                    // Read of a variable on no path (dead code, or a definitely-unassigned local
                    // that javac would reject): any value will do.
                    let what = format!("unassigned {}", self.var_name(var));
                    self.push(b, Op::Nondet(NondetKind::Opaque { what }), ty, None)
                }
                1 => self.use_var(var, preds[0]),
                _ => {
                    let phi = self.new_phi(b, ty);
                    self.def_var(var, b, phi);
                    self.add_phi_operands(var, phi, b);
                    phi
                }
            }
        };
        self.def_var(var, b, v);
        v
    }

    fn new_phi(&mut self, b: BlockId, ty: Ty) -> ValueId {
        let id = self.add_value(b, Op::Phi(vec![]), ty, None);
        let block = &mut self.func.blocks[b.index()];
        let at = block.insts.iter().take_while(|i| matches!(self.func.values[i.index()].op, Op::Phi(_))).count();
        block.insts.insert(at, id);
        id
    }

    fn add_phi_operands(&mut self, var: Var, phi: ValueId, b: BlockId) {
        let preds = self.func.blocks[b.index()].preds.clone();
        let mut ins = Vec::with_capacity(preds.len());
        for p in preds {
            ins.push((p, self.use_var(var, p)));
        }
        self.func.values[phi.index()].op = Op::Phi(ins);
    }

    /// Whether the string `v` is never null: a literal or a string operation's result (`+`, a
    /// builder's text), or a φ of such values in a sealed block (a builder after a loop or an
    /// `if`). A φ of a block whose predecessors are not all known may still gain a null operand,
    /// so it is not trusted.
    pub fn never_null_str(&self, v: ValueId) -> bool {
        /// Values looked at before giving up (a deeply unrolled loop's chain of φs).
        const LIMIT: usize = 100_000;
        let mut seen = std::collections::HashSet::new();
        let mut work = vec![v];
        while let Some(v) = work.pop() {
            if !seen.insert(v) {
                continue;
            }
            if seen.len() > LIMIT {
                return false;
            }
            let vd = &self.func.values[v.index()];
            match &vd.op {
                Op::Const(Const::Str(_)) => {}
                Op::Str(op, _) if *op != StrOp::Null => {}
                Op::Phi(ins) if !ins.is_empty() && self.sealed[vd.block.index()] => {
                    work.extend(ins.iter().map(|(_, x)| *x));
                }
                _ => return false,
            }
        }
        true
    }

    /// Declares that every predecessor of `b` is known.
    pub fn seal(&mut self, b: BlockId) {
        if self.sealed[b.index()] {
            return;
        }
        self.sealed[b.index()] = true;
        if let Some(pending) = self.incomplete.remove(&b) {
            for (var, phi) in pending {
                self.add_phi_operands(var, phi, b);
            }
        }
    }

    /// Finishes the function: seals what is left, removes trivial φs, and renumbers blocks so
    /// that every edge goes forward.
    pub fn finish(mut self) -> Function {
        for b in 0..self.func.blocks.len() {
            self.seal(BlockId(b as u32));
        }
        for b in &mut self.func.blocks {
            if b.term == Terminator::Unterminated {
                b.term = Terminator::Cutoff(CutoffKind::Unsupported("unfinished block".into()));
            }
        }
        remove_trivial_phis(&mut self.func);
        renumber_topologically(&mut self.func);
        // Everything downstream (the slice, the encoding, the interpreter) relies on the body
        // being a DAG in block order: checked here, always; the whole verifier in debug builds.
        if let Some((from, to)) = backward_edge(&self.func) {
            panic!("the lowering built an edge {from} -> {to} against block order: every lowered body must be acyclic");
        }
        #[cfg(debug_assertions)]
        if let Err(errors) = crate::verify::verify(&self.func) {
            panic!("the lowering built IR the verifier rejects:\n  {}", errors.join("\n  "));
        }
        self.func
    }
}

/// An edge from a block to one at or before it, if any.
fn backward_edge(f: &Function) -> Option<(BlockId, BlockId)> {
    f.block_ids()
        .find_map(|b| f.block(b).term.successors().into_iter().find(|s| s.index() <= b.index()).map(|s| (b, s)))
}

/// Replaces φs whose operands are all one value (or the φ itself) by that value, to a fixpoint.
fn remove_trivial_phis(f: &mut Function) {
    let n = f.values.len();
    let mut repl: Vec<ValueId> = (0..n as u32).map(ValueId).collect();
    fn find(repl: &mut [ValueId], v: ValueId) -> ValueId {
        let mut r = v;
        while repl[r.index()] != r {
            r = repl[r.index()];
        }
        let mut c = v;
        while repl[c.index()] != r {
            let next = repl[c.index()];
            repl[c.index()] = r;
            c = next;
        }
        r
    }
    let mut changed = true;
    while changed {
        changed = false;
        for i in 0..n {
            let id = ValueId(i as u32);
            if find(&mut repl, id) != id {
                continue;
            }
            if let Op::Phi(ins) = &f.values[i].op {
                let mut same: Option<ValueId> = None;
                let mut trivial = true;
                for (_, v) in ins.clone() {
                    let v = find(&mut repl, v);
                    if v == id || Some(v) == same {
                        continue;
                    }
                    if same.is_some() {
                        trivial = false;
                        break;
                    }
                    same = Some(v);
                }
                if trivial {
                    if let Some(s) = same {
                        repl[i] = s;
                        changed = true;
                    }
                }
            }
        }
    }
    let removed: Vec<bool> = (0..n).map(|i| find(&mut repl, ValueId(i as u32)).index() != i).collect();
    let map = |v: &mut ValueId, repl: &mut Vec<ValueId>| *v = find(repl, *v);
    for vd in &mut f.values {
        match &mut vd.op {
            Op::Unary(_, a) | Op::Cast(a) => map(a, &mut repl),
            Op::Binary(_, a, b) => {
                map(a, &mut repl);
                map(b, &mut repl);
            }
            Op::Select(c, a, b) => {
                map(c, &mut repl);
                map(a, &mut repl);
                map(b, &mut repl);
            }
            Op::Phi(ins) => ins.iter_mut().for_each(|(_, v)| map(v, &mut repl)),
            Op::Str(_, args) | Op::Arr(_, args) | Op::Obj(_, args) | Op::Math(_, args) => {
                args.iter_mut().for_each(|v| map(v, &mut repl))
            }
            Op::Param(_) | Op::Const(_) | Op::Nondet(_) => {}
        }
    }
    for b in &mut f.blocks {
        b.insts.retain(|v| !removed[v.index()]);
        match &mut b.term {
            Terminator::Branch { cond, .. } => map(cond, &mut repl),
            Terminator::Return(Some(v)) => map(v, &mut repl),
            _ => {}
        }
    }
}

/// Renumbers blocks in a topological order (entry first; blocks no path reaches keep their relative
/// order among the rest). Lowered bodies are acyclic, so such an order exists.
fn renumber_topologically(f: &mut Function) {
    let n = f.blocks.len();
    let mut indeg: Vec<usize> = f.blocks.iter().map(|b| b.preds.len()).collect();
    let mut order = Vec::with_capacity(n);
    let mut placed = vec![false; n];
    // Kahn's algorithm with a stack, starting from the entry; unreachable roots are started in
    // index order once the stack runs dry.
    let mut stack = vec![f.entry.index()];
    let mut next_root = 0;
    while order.len() < n {
        let b = match stack.pop() {
            Some(b) => b,
            None => {
                while next_root < n && (placed[next_root] || indeg[next_root] != 0) {
                    next_root += 1;
                }
                if next_root == n {
                    // Blocks left with indegree > 0 lie on a cycle, which the lowering must never
                    // build (a back edge would shrink what the encoding finds reachable).
                    let rest: Vec<usize> = (0..n).filter(|i| !placed[*i]).collect();
                    panic!("the lowering built a cycle through blocks {rest:?}: every lowered body must be acyclic");
                }
                next_root
            }
        };
        if placed[b] {
            continue;
        }
        placed[b] = true;
        order.push(b);
        let succs = f.blocks[b].term.successors();
        for s in succs.into_iter().rev() {
            indeg[s.index()] -= 1;
            if indeg[s.index()] == 0 {
                stack.push(s.index());
            }
        }
    }
    let mut new_of = vec![BlockId(0); n];
    for (new, old) in order.iter().enumerate() {
        new_of[*old] = BlockId(new as u32);
    }
    let remap = |b: &mut BlockId| *b = new_of[b.index()];
    let mut old_blocks: Vec<Option<Block>> = std::mem::take(&mut f.blocks).into_iter().map(Some).collect();
    for old in &order {
        let mut blk = old_blocks[*old].take().expect("each block placed once");
        blk.preds.iter_mut().for_each(remap);
        match &mut blk.term {
            Terminator::Jump(t) => remap(t),
            Terminator::Branch { then_to, else_to, .. } => {
                remap(then_to);
                remap(else_to);
            }
            _ => {}
        }
        f.blocks.push(blk);
    }
    for vd in &mut f.values {
        remap(&mut vd.block);
        if let Op::Phi(ins) = &mut vd.op {
            ins.iter_mut().for_each(|(b, _)| remap(b));
        }
    }
    f.entry = new_of[f.entry.index()];
}
