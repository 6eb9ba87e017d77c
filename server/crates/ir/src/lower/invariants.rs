//! Candidate loop invariants in the proof lowering ([`LowerOptions::loop_invariants`]): each
//! candidate of a loop is checked where the loop is entered and where an iteration ends (a failing
//! check ends the path in a [`CutoffKind::InvariantBroken`] block, which records
//! [`Blocker::Invariant`]), and assumed at the loop head after its havoc (the states it excludes
//! end in a [`CutoffKind::Assumed`] block). Once no input reaches a failing check, every candidate
//! holds whenever the head is reached (by induction over the iterations), and the lowering is a
//! sound over-approximation that knows more than the havoc alone.

use super::*;

impl<'t> Lowerer<'t> {
    /// The candidates of the loop starting at `loop_start` whose local is an `int` or `long` in
    /// scope: (candidate index, local, kind).
    fn loop_candidates(&self, loop_start: usize) -> Vec<(u32, Local, InvariantKind)> {
        self.opts
            .loop_invariants
            .iter()
            .enumerate()
            .filter(|(_, c)| c.loop_start == loop_start)
            .filter_map(|(i, c)| {
                let local = self.scopes.iter().rev().find_map(|s| s.get(&c.var).copied())?;
                matches!(local.ty, Ty::Int | Ty::Long).then_some((i as u32, local, c.kind))
            })
            .collect()
    }

    /// Whether candidate `kind` holds for the current value of `local`.
    fn candidate_holds(&mut self, local: Local, kind: InvariantKind) -> ValueId {
        let x = self.read(local.var);
        match kind {
            InvariantKind::LowBits { mask, value } => {
                let m = self.int(local.ty, mask);
                let low = self.bin(BinOp::And, x, m);
                let v = self.int(local.ty, value & mask);
                self.bin(BinOp::Eq, low, v)
            }
            InvariantKind::AtLeast(n) => {
                let n = self.int(local.ty, n);
                self.bin(BinOp::Ge, x, n)
            }
            InvariantKind::AtMost(n) => {
                let n = self.int(local.ty, n);
                self.bin(BinOp::Le, x, n)
            }
        }
    }

    /// Where the loop `s` is entered or an iteration of it ends: each of its candidates is
    /// checked, and a path where one fails ends in that candidate's `InvariantBroken` block.
    pub(super) fn check_invariants(&mut self, s: Node<'t>) {
        for (i, local, kind) in self.loop_candidates(s.start_byte()) {
            if self.cur.is_none() {
                return;
            }
            let holds = self.candidate_holds(local, kind);
            self.end_unless(holds, CutoffKind::InvariantBroken(i), None);
        }
    }

    /// At the head of the loop `s`, after its havoc: the states where a candidate fails end in
    /// an `Assumed` block (sound once the checks are shown never to fail).
    pub(super) fn assume_invariants(&mut self, s: Node<'t>) {
        for (i, local, kind) in self.loop_candidates(s.start_byte()) {
            if self.cur.is_none() {
                return;
            }
            let holds = self.candidate_holds(local, kind);
            // Named in explanations: "`x` is even at every iteration (a loop invariant)".
            let var = &self.opts.loop_invariants[i as usize].var;
            let text = match kind {
                InvariantKind::LowBits { mask: 1, value } => {
                    format!("{var} is {} at every iteration", if value & 1 == 0 { "even" } else { "odd" })
                }
                InvariantKind::LowBits { mask, value } => {
                    format!("({var} & {mask}) == {} at every iteration", value & mask)
                }
                InvariantKind::AtLeast(n) => format!("{var} >= {n} at every iteration"),
                InvariantKind::AtMost(n) => format!("{var} <= {n} at every iteration"),
            };
            let origin = CondOrigin { span: s.byte_range(), text, note: None };
            self.end_unless(holds, CutoffKind::Assumed, Some(origin));
        }
    }

    /// Goes on where `holds`; the other side ends in a `kind` cutoff.
    pub(super) fn end_unless(&mut self, holds: ValueId, kind: CutoffKind, origin: Option<CondOrigin>) {
        let (ok, cut) = (self.b.create_block(), self.b.create_block());
        self.branch(holds, ok, cut, origin);
        self.b.seal(ok);
        self.b.seal(cut);
        self.cur = Some(cut);
        self.cutoff(kind);
        self.cur = Some(ok);
    }
}
