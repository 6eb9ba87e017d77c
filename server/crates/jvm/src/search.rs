//! Search on the JVM where the model cannot answer (symcretic execution's concrete phase, with
//! the alternating-variable method of search-based testing).
//!
//! A search starts from a test jreach wrote on its model (or one with the simplest inputs when it
//! found none): [`slots`] turns every primitive and string value of it (arguments, the receiver's
//! constructor arguments and setter calls, fields, statics, array items) into a hole of a
//! harness that the runner compiles once and runs with many input vectors (`SearchRequest`).
//! Each run reports whether the target line ran and, when not, the branch distance of its
//! divergence closest to the target (`Branches.java`). [`avm`] moves one input at a time: small
//! steps, then steps that double while they improve; seeds (the constants of the code, which is how
//! `"SAVE"` is found for a coupon parser); when it is stuck, the steps from each run that ran
//! lines no run ran before (kept as a fuzzer keeps its corpus: `{` for a reader, then `{` with a
//! call of `beginObject()`, then `{}`), and random restarts. Strings are
//! edited anywhere and built of the characters the code compares with (`c == '"'`) and its short
//! strings, as a fuzzer's dictionary; a run that starts the target line but throws on it is closer
//! than any that turned away before it, the smaller its inputs the closer. The first vector
//! that runs the line becomes a test, which [`crate::Verifier`] then runs as any other test before
//! it is offered.

use std::time::{Duration, Instant};

use jreach_synth::{JavaValue, SlotElem, SlotKind, TestRequest};

/// A test with its primitive and string values replaced by [`JavaValue::Slot`]s, and those values.
#[derive(Clone, Debug)]
pub struct Harness {
    pub req: TestRequest,
    pub start: Vec<JavaValue>,
}

/// The harness of `req`: every primitive and string value the test writes becomes a slot, in the
/// order the walk meets them. Map keys stay as they are (they must stay distinct).
pub fn slots(req: &TestRequest) -> Harness {
    let mut start = Vec::new();
    let mut req = req.clone();
    open_jdk_values(&mut req);
    // An array that two values share stays as it is (a slot each would part them).
    let mut ids = std::collections::HashMap::<(String, i64), usize>::new();
    for v in req.args.iter().chain(req.receiver_args.iter().map(|(_, v)| v)) {
        count_arrays(v, &mut ids);
    }
    let shared: std::collections::HashSet<(String, i64)> =
        ids.into_iter().filter(|(_, n)| *n > 1).map(|(k, _)| k).collect();
    for v in req.values_mut() {
        hole(v, &mut start, &shared);
    }
    // A place in the receiver's call sequence, or in a parameter's (`Constructed::choices`,
    // rendered for the test's parameters only): which call (none first), then its arguments.
    let param_choices = req.args.iter_mut().flat_map(|a| match a {
        JavaValue::Constructed { choices, builder: None, .. } => choices.iter_mut(),
        _ => [].iter_mut(),
    });
    for choice in req.receiver_call_choices.iter_mut().chain(param_choices) {
        choice.slot = Some(start.len());
        start.push(JavaValue::Chosen { index: 0, of: choice.calls.len() + 1 });
        for call in &mut choice.calls {
            for (_, a) in &mut call.args {
                hole(a, &mut start, &shared);
            }
        }
    }
    Harness { req, start }
}

/// `req` (a search's start, before [`slots`]) with each choice replaced by its first option
/// (the model's value, or the first candidate), inner choices too: the start as it was before
/// the search was given options beyond it. Whether anything changed.
pub fn first_options(req: &mut TestRequest) -> bool {
    fn walk(v: &mut JavaValue) -> bool {
        let mut changed = false;
        while let JavaValue::Choice { options, .. } = v {
            let Some(first) = options.first().cloned() else { break };
            *v = first;
            changed = true;
        }
        for inner in v.nested_mut() {
            changed |= walk(inner);
        }
        changed
    }
    let mut changed = false;
    for v in req.values_mut() {
        changed |= walk(v);
    }
    changed
}

/// `harness` without the options of its choices that `dropped` says (a choice keeps at least
/// one), its start choosing among those left: a stream that fails on first use where no code
/// catches what it throws ([`jreach_synth::is_failing_io`]) only wastes a share of the runs.
pub fn drop_options(harness: &mut Harness, dropped: impl Fn(&JavaValue) -> bool) {
    fn walk(v: &mut JavaValue, start: &mut [JavaValue], dropped: &dyn Fn(&JavaValue) -> bool) {
        if let JavaValue::Choice { slot, options } = v {
            if options.iter().any(|o| !dropped(o)) {
                options.retain(|o| !dropped(o));
            }
            if let Some(JavaValue::Chosen { index, of }) = slot.and_then(|k| start.get_mut(k)) {
                *of = options.len();
                *index = (*index).min(options.len().saturating_sub(1));
            }
        }
        v.nested_mut().into_iter().for_each(|inner| walk(inner, start, dropped));
    }
    let Harness { req, start } = harness;
    let chosen_calls = req.receiver_call_choices.iter_mut().flat_map(|c| c.calls.iter_mut());
    for (_, v) in chosen_calls.flat_map(|c| c.args.iter_mut()) {
        walk(v, start, &dropped);
    }
    for v in req.values_mut() {
        walk(v, start, &dropped);
    }
}

/// Values of JDK types jreach does not model (`new StringWriter()`, `TimeZone.getTimeZone("UTC")`,
/// or null) that the model chose without knowing what they do, as a parameter, a constructor
/// argument of the receiver or of a created object: the search may choose another of the
/// readable candidates (`jreach_synth::jdk_choices`), the model's first.
fn open_jdk_values(req: &mut TestRequest) {
    let own = req.classes.join(".");
    let mut imports = Vec::new();
    let named = std::mem::take(&mut req.named_classes);
    let open_in = |ty: &str, v: &mut JavaValue, imports: &mut Vec<String>| open(ty, v, &own, &named, imports);
    fn open(ty: &str, v: &mut JavaValue, own: &str, named: &[String], imports: &mut Vec<String>) {
        match v {
            JavaValue::Constructed { args, .. } => {
                for (t, a) in args.iter_mut() {
                    open(t, a, own, named, imports);
                }
            }
            // A choice made where the classes the code names were not known (the `Class` of a
            // `TypeToken.get(...)` the start makes): they are candidates there too.
            JavaValue::Choice { slot: None, options } => {
                for o in options.iter_mut() {
                    if let JavaValue::Constructed { args, .. } = o {
                        for (t, a) in args.iter_mut() {
                            open(t, a, own, named, imports);
                        }
                    }
                }
                let mut c = jreach_synth::JdkChoices { options: std::mem::take(options), imports: vec![] };
                c.add_classes(ty, named);
                *options = c.options;
                return;
            }
            _ => {}
        }
        let Some(mut c) = jreach_synth::jdk_choices(ty, own) else { return };
        c.add_classes(ty, named);
        if !(matches!(v, JavaValue::Null) || c.options.contains(v)) {
            return;
        }
        let mut options = vec![v.clone()];
        options.extend(c.options.into_iter().filter(|o| o != v));
        *v = JavaValue::Choice { slot: None, options };
        imports.extend(c.imports);
    }
    for (a, (_, ty)) in req.args.iter_mut().zip(&req.params) {
        open_in(ty, a, &mut imports);
    }
    for (ty, a) in &mut req.receiver_args {
        open_in(ty, a, &mut imports);
    }
    req.named_classes = named;
    for i in imports {
        if !req.imports.contains(&i) {
            req.imports.push(i);
        }
    }
}

fn kind_of(v: &JavaValue) -> Option<SlotKind> {
    Some(match v {
        JavaValue::Bool(_) => SlotKind::Bool,
        JavaValue::Byte(_) => SlotKind::Byte,
        JavaValue::Short(_) => SlotKind::Short,
        JavaValue::Char(_) => SlotKind::Char,
        JavaValue::Int(_) => SlotKind::Int,
        JavaValue::Long(_) => SlotKind::Long,
        JavaValue::Float(_) => SlotKind::Float,
        JavaValue::Double(_) => SlotKind::Double,
        JavaValue::Str(_) => SlotKind::Str,
        _ => return None,
    })
}

/// How many times each array (element type, id) occurs in `v`.
fn count_arrays(v: &JavaValue, ids: &mut std::collections::HashMap<(String, i64), usize>) {
    match v {
        JavaValue::Array { elem_ty, id, items } => {
            *ids.entry((elem_ty.clone(), *id)).or_default() += 1;
            items.iter().for_each(|i| count_arrays(i, ids));
        }
        JavaValue::List { items, .. } => items.iter().for_each(|i| count_arrays(i, ids)),
        JavaValue::Object { fields, .. } => fields.iter().for_each(|(_, f)| count_arrays(f, ids)),
        JavaValue::Constructed { args, .. } => args.iter().for_each(|(_, a)| count_arrays(a, ids)),
        _ => {}
    }
}

/// The element kind of an array whose elements a test writes as `elem_ty`, if a slot can hold it.
pub fn slot_elem(elem_ty: &str) -> Option<SlotElem> {
    Some(match elem_ty.trim() {
        "boolean" => SlotElem::Bool,
        "byte" => SlotElem::Byte,
        "short" => SlotElem::Short,
        "char" => SlotElem::Char,
        "int" => SlotElem::Int,
        "long" => SlotElem::Long,
        "float" => SlotElem::Float,
        "double" => SlotElem::Double,
        "String" | "java.lang.String" => SlotElem::Str,
        "Integer" | "java.lang.Integer" => SlotElem::Integer,
        "Short" | "java.lang.Short" => SlotElem::ShortBox,
        "Byte" | "java.lang.Byte" => SlotElem::ByteBox,
        "Character" | "java.lang.Character" => SlotElem::CharBox,
        "Long" | "java.lang.Long" => SlotElem::LongBox,
        "Float" | "java.lang.Float" => SlotElem::FloatBox,
        "Double" | "java.lang.Double" => SlotElem::DoubleBox,
        "Boolean" | "java.lang.Boolean" => SlotElem::BoolBox,
        _ => return None,
    })
}

/// The element kind of an array in a slot: [`slot_elem`]'s, and strings for an array of objects
/// (which is one only while it holds nothing else).
fn searched_elem(elem_ty: &str) -> Option<SlotElem> {
    slot_elem(elem_ty).or(is_object(elem_ty).then_some(SlotElem::Str))
}

/// Whether `ty` is `Object` as a test writes it.
pub fn is_object(ty: &str) -> bool {
    matches!(ty.trim(), "Object" | "java.lang.Object")
}

/// The element kind of a two-dimensional array whose rows a test writes as `row_ty` (`int[]`),
/// if a matrix slot can hold it.
pub fn matrix_elem(row_ty: &str) -> Option<SlotElem> {
    Some(match row_ty.trim().strip_suffix("[]")?.trim() {
        "int" => SlotElem::Int,
        "long" => SlotElem::Long,
        "double" => SlotElem::Double,
        "boolean" => SlotElem::Bool,
        "char" => SlotElem::Char,
        _ => return None,
    })
}

/// The value an array of `elem` gains when the search makes it longer.
fn elem_default(elem: SlotElem) -> JavaValue {
    match elem {
        SlotElem::Bool | SlotElem::BoolBox => JavaValue::Bool(false),
        SlotElem::Byte | SlotElem::ByteBox => JavaValue::Byte(0),
        SlotElem::Short | SlotElem::ShortBox => JavaValue::Short(0),
        SlotElem::Char | SlotElem::CharBox => JavaValue::Char(u16::from(b'a')),
        SlotElem::Int | SlotElem::Integer => JavaValue::Int(0),
        SlotElem::Long | SlotElem::LongBox => JavaValue::Long(0),
        SlotElem::Float | SlotElem::FloatBox => JavaValue::Float(0.0),
        SlotElem::Double | SlotElem::DoubleBox => JavaValue::Double(0.0),
        SlotElem::Str => JavaValue::Str(String::new()),
    }
}

fn hole(v: &mut JavaValue, out: &mut Vec<JavaValue>, shared: &std::collections::HashSet<(String, i64)>) {
    if let Some(kind) = kind_of(v) {
        out.push(std::mem::replace(v, JavaValue::Slot(out.len(), kind)));
        return;
    }
    // A choice is one input (which option), and the options' own values are inputs after it.
    if let JavaValue::Choice { slot: slot @ None, options } = v {
        *slot = Some(out.len());
        out.push(JavaValue::Chosen { index: 0, of: options.len() });
        options.iter_mut().for_each(|o| hole(o, out, shared));
        return;
    }
    // So is a two-dimensional array of numbers, booleans or characters: the search changes its
    // rows and columns.
    if let JavaValue::Array { elem_ty, id, items } = v {
        let rows_plain = items.iter().all(|r| match r {
            JavaValue::Null => true,
            JavaValue::Array { items, .. } => items.iter().all(|i| kind_of(i).is_some()),
            _ => false,
        });
        if let (Some(elem), true, false) = (matrix_elem(elem_ty), rows_plain, shared.contains(&(elem_ty.clone(), *id)))
        {
            out.push(std::mem::replace(v, JavaValue::Slot(out.len(), SlotKind::Matrix(elem))));
            return;
        }
    }
    // An array of primitives or strings is one slot: the search changes its length too. So is
    // an array of objects holding nothing but strings (`indexOf(Object[], Object, int)` needs one
    // that is not empty), whose strings the search writes.
    if let JavaValue::Array { elem_ty, id, items } = v {
        let strings = items.iter().all(|i| matches!(i, JavaValue::Str(_)));
        let elem = searched_elem(elem_ty).filter(|_| strings || !is_object(elem_ty));
        // (Boxed elements are read as numbers: a null among them keeps the array as it is.)
        let plain = items
            .iter()
            .all(|i| kind_of(i).is_some() || (matches!(i, JavaValue::Null) && !elem.is_some_and(SlotElem::is_boxed)));
        if let (Some(elem), true, false) = (elem, plain, shared.contains(&(elem_ty.clone(), *id))) {
            out.push(std::mem::replace(v, JavaValue::Slot(out.len(), SlotKind::Array(elem))));
            return;
        }
    }
    match v {
        JavaValue::Array { items, .. } | JavaValue::List { items, .. } => {
            items.iter_mut().for_each(|i| hole(i, out, shared))
        }
        JavaValue::Object { fields, .. } => fields.iter_mut().for_each(|(_, f)| hole(f, out, shared)),
        JavaValue::Constructed { args, calls, .. } => {
            args.iter_mut().for_each(|(_, a)| hole(a, out, shared));
            for call in calls {
                call.args.iter_mut().for_each(|(_, a)| hole(a, out, shared));
            }
        }
        JavaValue::Optional { item: Some(item), .. } => hole(item, out, shared),
        JavaValue::Map { entries, .. } => entries.iter_mut().for_each(|(_, value)| hole(value, out, shared)),
        // What an anonymous class's methods return (an annotation's elements), what a lambda
        // returns (for arguments other than its special ones).
        JavaValue::Stub { methods, .. } => {
            methods.iter_mut().flat_map(|m| &mut m.returns).for_each(|r| hole(r, out, shared))
        }
        JavaValue::Lambda { returns: Some(r), .. } => hole(&mut r.1, out, shared),
        _ => {}
    }
}

/// `harness` with its slots filled from `values`.
pub fn fill(harness: &TestRequest, values: &[JavaValue]) -> TestRequest {
    fn put(v: &mut JavaValue, values: &[JavaValue]) {
        match v {
            JavaValue::Slot(k, _) => *v = values[*k].clone(),
            JavaValue::Choice { slot: Some(k), options } => {
                let index = match values[*k] {
                    JavaValue::Chosen { index, .. } => index,
                    _ => 0,
                };
                let Some(mut chosen) = options.get(index).or(options.last()).cloned() else { return };
                put(&mut chosen, values);
                *v = chosen;
            }
            JavaValue::Array { items, .. } | JavaValue::List { items, .. } => {
                items.iter_mut().for_each(|i| put(i, values))
            }
            JavaValue::Object { fields, .. } => fields.iter_mut().for_each(|(_, f)| put(f, values)),
            JavaValue::Constructed { args, calls, choices, .. } => {
                args.iter_mut().for_each(|(_, a)| put(a, values));
                for call in calls.iter_mut() {
                    call.args.iter_mut().for_each(|(_, a)| put(a, values));
                }
                // The calls the search picked join the object's calls.
                for choice in std::mem::take(choices) {
                    if let Some(mut call) = picked(&choice, values) {
                        call.args.iter_mut().for_each(|(_, a)| put(a, values));
                        calls.push(call);
                    }
                }
            }
            JavaValue::Optional { item: Some(item), .. } => put(item, values),
            JavaValue::Map { entries, .. } => entries.iter_mut().for_each(|(_, value)| put(value, values)),
            JavaValue::Stub { methods, .. } => {
                methods.iter_mut().flat_map(|m| &mut m.returns).for_each(|r| put(r, values))
            }
            JavaValue::Lambda { returns: Some(r), .. } => put(&mut r.1, values),
            _ => {}
        }
    }
    let mut req = harness.clone();
    req.values_mut().for_each(|v| put(v, values));
    // The calls the search picked join the receiver's calls.
    for choice in std::mem::take(&mut req.receiver_call_choices) {
        if let Some(mut call) = picked(&choice, values) {
            call.args.iter_mut().for_each(|(_, a)| put(a, values));
            req.receiver_calls.push(call);
        }
    }
    req
}

/// The call a [`jreach_synth::CallChoice`]'s input picks in `values` (none for index 0 or no slot),
/// with its arguments still holes.
fn picked(choice: &jreach_synth::CallChoice, values: &[JavaValue]) -> Option<jreach_synth::JavaCall> {
    let index = match values[choice.slot?] {
        JavaValue::Chosen { index, .. } => index,
        _ => 0,
    };
    index.checked_sub(1).and_then(|i| choice.calls.get(i)).cloned()
}

/// A value as the runner's `Inputs` reads it from JSON.
pub fn to_json(v: &JavaValue) -> serde_json::Value {
    use serde_json::Value as J;
    let float = |d: f64| {
        if d.is_finite() && !(d == 0.0 && d.is_sign_negative()) {
            serde_json::Number::from_f64(d).map(J::Number).unwrap_or(J::Null)
        } else if d.is_nan() {
            J::String("NaN".into())
        } else if d == 0.0 {
            J::String("-0.0".into())
        } else {
            J::String(if d > 0.0 { "Infinity" } else { "-Infinity" }.into())
        }
    };
    match v {
        JavaValue::Bool(b) => J::Bool(*b),
        JavaValue::Byte(x) => (*x).into(),
        JavaValue::Short(x) => (*x).into(),
        JavaValue::Char(x) => (*x).into(),
        JavaValue::Int(x) => (*x).into(),
        JavaValue::Long(x) => (*x).into(),
        JavaValue::Float(x) => float(f64::from(*x)),
        JavaValue::Double(x) => float(*x),
        JavaValue::Str(s) => J::String(s.clone()),
        JavaValue::Array { items, .. } => J::Array(items.iter().map(to_json).collect()),
        JavaValue::Chosen { index, .. } => (*index).into(),
        _ => J::Null,
    }
}

/// What one run of a candidate showed, as the search compares runs.
#[derive(Clone, Debug, PartialEq)]
pub struct Fitness {
    /// The target line ran.
    pub hit: bool,
    /// The target line started but did not run to its end (a call on it threw): closer than any
    /// divergence before it.
    pub started: bool,
    /// The divergence closest to the target: (instructions from the deciding jump to the
    /// target, normalised branch distance); `None` when the run came to no jump toward it.
    pub divergence: Option<(f64, f64)>,
    /// How many lines of the target's file ran.
    pub lines: usize,
    /// The inputs' size (characters of strings, elements of arrays), set by the search: among
    /// runs that started the line, the smaller inputs are better (simpler to change into ones
    /// that finish it; more lines run would only favour the longer).
    pub size: usize,
    /// How many lines of the target's file ran that no earlier run of the search ran (not
    /// compared: a run that runs new lines is no closer, but a place to start from when the
    /// search is stuck).
    pub novel: usize,
    /// Which inputs the run read, by index (not compared; `None`: not known): the search moves
    /// only those, since no other can change the run.
    pub read: Option<std::rc::Rc<[bool]>>,
}

impl Fitness {
    /// Smaller is better.
    fn key(&self) -> (u8, f64, f64, i64) {
        match (self.hit, self.started, self.divergence) {
            (true, ..) => (0, 0.0, 0.0, 0),
            (false, true, _) => (1, 0.0, 0.0, self.size as i64),
            (false, false, Some((level, d))) => (2, level, d, -(self.lines as i64)),
            (false, false, None) => (3, 0.0, 0.0, -(self.lines as i64)),
        }
    }

    /// Whether `self` is strictly better than `other`.
    pub fn better_than(&self, other: &Fitness) -> bool {
        self.key().partial_cmp(&other.key()) == Some(std::cmp::Ordering::Less)
    }

    /// Whether `self` is strictly closer to the line than `other`: better by more than the lines
    /// it ran (or the size of the inputs).
    fn closer_than(&self, other: &Fitness) -> bool {
        let (a, b) = (self.key(), other.key());
        (a.0, a.1, a.2).partial_cmp(&(b.0, b.1, b.2)) == Some(std::cmp::Ordering::Less)
    }
}

/// The limits of one search.
#[derive(Clone, Copy, Debug)]
pub struct Budget<'a> {
    pub time: Duration,
    pub runs: usize,
    /// Set from another thread to end the search (a cancelled request).
    pub cancel: Option<&'a std::sync::atomic::AtomicBool>,
}

/// What [`avm`] found.
#[derive(Clone, Debug, PartialEq)]
pub struct Found {
    /// Input values that ran the target line.
    pub values: Vec<JavaValue>,
    /// How many runs the search took.
    pub runs: usize,
}

/// A move of one input.
#[derive(Clone, Debug, PartialEq)]
enum Move {
    /// Add to a number (or a character).
    Add(usize, f64),
    /// Add to the code of a string's character at a position.
    AddChar(usize, usize, i32),
    /// Add to an array's element at a position.
    AddElem(usize, usize, f64),
    /// Add text at the end of a string (`true`) or at its start.
    Append(usize, String, bool),
    /// A string that is another's first character many times over, then the rest of it.
    Repeat(usize, String),
    /// Any other change: the new value.
    Set(usize, JavaValue),
}

impl Move {
    /// Whether it makes a string more than [`GROWN`] characters longer, or null: taken only when
    /// it brings the run closer ([`Fitness::closer_than`]), not for running other lines (a null
    /// string running into an exception sooner).
    fn only_if_closer(&self) -> bool {
        match self {
            Move::Repeat(..) | Move::Set(_, JavaValue::Null) => true,
            Move::Append(_, text, _) => text.chars().count() > GROWN,
            _ => false,
        }
    }
}

/// See [`Move::only_if_closer`].
const GROWN: usize = 8;

/// The alternating-variable search from `start`: `eval` runs a batch of input vectors and gives
/// one fitness per vector it ran (fewer when the batch was cut short), plus any constants the
/// code showed so far (seeds), or `None` when the runs cannot go on (the search then ends).
/// Returns the first vector that runs the target, or `None` when the budget is spent.
pub fn avm(
    start: Vec<JavaValue>,
    seeds: Vec<JavaValue>,
    budget: Budget<'_>,
    rng_seed: u64,
    mut eval: impl FnMut(&[Vec<JavaValue>]) -> Option<(Vec<Fitness>, Vec<JavaValue>)>,
) -> Option<Found> {
    let found = climb(start, seeds, budget, rng_seed, &mut eval)?;
    Some(shrink(found, &mut eval))
}

/// At most this many runs make a found vector simpler.
const SHRINK_RUNS: usize = 300;

/// `found` made simpler while it still runs the target: numbers as close to zero as a halving
/// search finds, strings without the characters it can drop.
fn shrink(
    mut found: Found,
    eval: &mut impl FnMut(&[Vec<JavaValue>]) -> Option<(Vec<Fitness>, Vec<JavaValue>)>,
) -> Found {
    let mut spent = 0usize;
    let mut hits = |cands: &[Vec<JavaValue>], spent: &mut usize| -> Option<usize> {
        if cands.is_empty() || *spent >= SHRINK_RUNS {
            return None;
        }
        *spent += cands.len();
        let (fits, _) = eval(cands)?;
        fits.iter().position(|f| f.hit)
    };
    // Pass after pass while one changes something: an input shrunk later may let an earlier one
    // shrink further (`a % b == 0` with `a` = -24, `b` = -24: `b` becomes -1, then `a` 0).
    loop {
        let before = found.values.clone();
        shrink_pass(&mut found, &mut spent, &mut hits);
        if found.values == before || spent >= SHRINK_RUNS {
            break;
        }
    }
    found.runs += spent;
    found
}

/// At most this many pieces of one size are cut from a string at a time when shrinking it.
const CUTS_PER_SIZE: usize = 32;

/// The pieces [`shrink_pass`] tries to cut from a string of `len` characters, by size: halves,
/// quarters, ... down to single characters, each size's pieces one batch (at most
/// [`CUTS_PER_SIZE`], from the start).
fn cuts(len: usize) -> Vec<Vec<std::ops::Range<usize>>> {
    let mut out = Vec::new();
    let mut size = len.div_ceil(2);
    while size >= 1 && len > 0 {
        let pieces: Vec<std::ops::Range<usize>> =
            (0..len).step_by(size).map(|at| at..(at + size).min(len)).take(CUTS_PER_SIZE).collect();
        out.push(pieces);
        if size == 1 {
            break;
        }
        size = size.div_ceil(2);
    }
    out
}

/// One pass of [`shrink`] over the inputs, in order.
fn shrink_pass(
    found: &mut Found,
    spent: &mut usize,
    hits: &mut impl FnMut(&[Vec<JavaValue>], &mut usize) -> Option<usize>,
) {
    for k in 0..found.values.len() {
        match found.values[k].clone() {
            JavaValue::Str(s) => {
                let mut s: Vec<char> = s.chars().collect();
                // Pieces of it, the largest first (a string grown by repeating a piece shrinks
                // back in a few runs), down to single characters.
                'pieces: loop {
                    for cut in cuts(s.len()) {
                        let cands: Vec<Vec<JavaValue>> = cut
                            .iter()
                            .map(|r| {
                                let mut next = found.values.clone();
                                let rest = s[..r.start].iter().chain(&s[r.end..]);
                                next[k] = JavaValue::Str(rest.collect());
                                next
                            })
                            .collect();
                        if let Some(i) = hits(&cands, spent) {
                            s.drain(cut[i].clone());
                            found.values = cands[i].clone();
                            continue 'pieces;
                        }
                        if *spent >= SHRINK_RUNS {
                            break 'pieces;
                        }
                    }
                    break;
                }
            }
            JavaValue::Array { elem_ty, id, items } => {
                let mut items = items.clone();
                loop {
                    let cands: Vec<Vec<JavaValue>> = (0..items.len())
                        .map(|p| {
                            let mut next = found.values.clone();
                            let fewer = items.iter().enumerate().filter(|(i, _)| *i != p).map(|(_, x)| x.clone());
                            next[k] = JavaValue::Array { elem_ty: elem_ty.clone(), id, items: fewer.collect() };
                            next
                        })
                        .collect();
                    let Some(i) = hits(&cands, spent) else { break };
                    items.remove(i);
                    found.values = cands[i].clone();
                }
                // A matrix: then its columns, one at a time.
                loop {
                    let width = items
                        .iter()
                        .map(|r| match r {
                            JavaValue::Array { items, .. } => items.len(),
                            _ => 0,
                        })
                        .max()
                        .unwrap_or(0);
                    let without = |c: usize| -> Vec<JavaValue> {
                        items
                            .iter()
                            .map(|r| match r {
                                JavaValue::Array { elem_ty, id, items } if c < items.len() => {
                                    let mut items = items.clone();
                                    items.remove(c);
                                    JavaValue::Array { elem_ty: elem_ty.clone(), id: *id, items }
                                }
                                other => other.clone(),
                            })
                            .collect()
                    };
                    let narrower: Vec<Vec<JavaValue>> = (0..width).map(without).collect();
                    let cands: Vec<Vec<JavaValue>> = narrower
                        .iter()
                        .map(|rows| {
                            let mut next = found.values.clone();
                            next[k] = JavaValue::Array { elem_ty: elem_ty.clone(), id, items: rows.clone() };
                            next
                        })
                        .collect();
                    let Some(i) = hits(&cands, spent) else { break };
                    items = narrower[i].clone();
                    found.values = cands[i].clone();
                }
                // Then each element (each cell of the first rows and columns of a matrix) as
                // simple as it may be.
                let cells: Vec<(usize, Option<usize>)> = (0..items.len().min(8))
                    .flat_map(|p| match &items[p] {
                        JavaValue::Array { items: row, .. } => (0..row.len().min(4)).map(|c| (p, Some(c))).collect(),
                        _ => vec![(p, None)],
                    })
                    .collect();
                for (p, c) in cells {
                    let with = |items: &[JavaValue], x: JavaValue| {
                        let mut items = items.to_vec();
                        match (c, &mut items[p]) {
                            (Some(c), JavaValue::Array { items: row, .. }) => row[c] = x,
                            (_, cell) => *cell = x,
                        }
                        items
                    };
                    let current = match (c, &items[p]) {
                        (Some(c), JavaValue::Array { items: row, .. }) => row[c].clone(),
                        (_, x) => x.clone(),
                    };
                    let base = found.values.clone();
                    let simpler = simpler_number(&current, |cand| {
                        if *spent >= SHRINK_RUNS {
                            return None;
                        }
                        let mut next = base.clone();
                        next[k] = JavaValue::Array { elem_ty: elem_ty.clone(), id, items: with(&items, cand) };
                        Some(hits(std::slice::from_ref(&next), spent).is_some())
                    });
                    if let Some(x) = simpler {
                        items = with(&items, x);
                        found.values[k] = JavaValue::Array { elem_ty: elem_ty.clone(), id, items: items.clone() };
                    }
                }
            }
            JavaValue::Chosen { index, of } => {
                // The earliest option that still runs the target (the simplest, see `jdk_values`).
                let cands: Vec<Vec<JavaValue>> = (0..index)
                    .map(|i| {
                        let mut next = found.values.clone();
                        next[k] = JavaValue::Chosen { index: i, of };
                        next
                    })
                    .collect();
                if let Some(i) = hits(&cands, spent) {
                    found.values = cands[i].clone();
                }
            }
            v @ (JavaValue::Byte(_)
            | JavaValue::Short(_)
            | JavaValue::Int(_)
            | JavaValue::Long(_)
            | JavaValue::Double(_)) => {
                let base = found.values.clone();
                let simpler = simpler_number(&v, |cand| {
                    if *spent >= SHRINK_RUNS {
                        return None;
                    }
                    let mut next = base.clone();
                    next[k] = cand;
                    Some(hits(std::slice::from_ref(&next), spent).is_some())
                });
                if let Some(x) = simpler {
                    found.values[k] = x;
                }
            }
            _ => {}
        }
    }
}

/// A simpler number than `v` that still runs the target (`hits` runs a candidate; `None`: out of
/// runs): for an integral value the one closest to zero ([`smallest_hitting`]); for a double,
/// zero or its integer part, then the integral value closest to zero (`49153.47` → `3.0`).
fn simpler_number(v: &JavaValue, mut hits: impl FnMut(JavaValue) -> Option<bool>) -> Option<JavaValue> {
    let JavaValue::Double(d) = *v else { return smallest_hitting(v, hits) };
    if !d.is_finite() || d == 0.0 {
        return None;
    }
    if hits(JavaValue::Double(0.0))? {
        return Some(JavaValue::Double(0.0));
    }
    let whole = d.trunc();
    let mut best = None;
    let start = if whole == d {
        Some(d)
    } else if hits(JavaValue::Double(whole))? {
        best = Some(whole);
        best
    } else {
        None
    };
    if let Some(b) = start.filter(|b| *b != 0.0 && b.abs() < 9.0e15) {
        let smaller = smallest_hitting(&JavaValue::Long(b as i64), |cand| match cand {
            JavaValue::Long(n) => hits(JavaValue::Double(n as f64)),
            _ => None,
        });
        if let Some(JavaValue::Long(n)) = smaller {
            best = Some(n as f64);
        }
    }
    best.map(JavaValue::Double)
}

/// The integral value of the type of `v` closest to zero, between zero and `v`, that still runs
/// the target by a halving search (`hits` runs a candidate; `None`: out of runs); `None` when none
/// closer than `v` was found.
fn smallest_hitting(v: &JavaValue, mut hits: impl FnMut(JavaValue) -> Option<bool>) -> Option<JavaValue> {
    let value = match v {
        JavaValue::Byte(x) => i64::from(*x),
        JavaValue::Short(x) => i64::from(*x),
        JavaValue::Int(x) => i64::from(*x),
        JavaValue::Long(x) => *x,
        _ => return None,
    };
    let (mut lo, mut hi) = (0i64, value);
    let mut best = None;
    while lo != hi {
        let mid = lo + (hi - lo) / 2;
        let cand = with_number(v, mid)?;
        match hits(cand.clone())? {
            true => {
                best = Some(cand);
                hi = mid;
            }
            false if mid == lo => break,
            false => lo = mid + (hi - mid).signum(),
        }
    }
    best
}

/// The search proper: [`avm`] before [`shrink`].
fn climb(
    start: Vec<JavaValue>,
    mut seeds: Vec<JavaValue>,
    budget: Budget<'_>,
    rng_seed: u64,
    eval: &mut impl FnMut(&[Vec<JavaValue>]) -> Option<(Vec<Fitness>, Vec<JavaValue>)>,
) -> Option<Found> {
    let began = std::cell::Cell::new(Instant::now());
    let mut rng = SplitMix(rng_seed);
    let mut runs = 0usize;
    let mut ended = false;
    let cancelled = || budget.cancel.is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed));
    let out_of_budget =
        |runs: usize, ended: bool| ended || runs >= budget.runs || began.get().elapsed() >= budget.time || cancelled();
    // Every vector whose run ran lines no run ran before: where the search steps from when it is
    // stuck (a parser's `{` alone is no closer to a line that needs `{` and then a call of
    // `beginObject()`, but it is a new place to go on from).
    let archive = std::cell::RefCell::new(Archive::default());
    // Runs a batch; the best of it (index, fitness). A candidate `closer_only` marks (one that
    // grew a string a lot) is the best only when it brings the run closer than `cur`: running
    // more lines of a parser is no reason to go on from thousands of characters.
    let mut batch = |cands: &[Vec<JavaValue>],
                     closer_only: Option<(&[bool], &Fitness)>,
                     runs: &mut usize,
                     seeds: &mut Vec<JavaValue>,
                     ended: &mut bool| {
        if cands.is_empty() {
            return None;
        }
        let Some((fits, more)) = eval(cands) else {
            *ended = true;
            return None;
        };
        *runs += fits.len().max(1);
        for s in more {
            if !seeds.contains(&s) {
                seeds.push(s);
            }
        }
        let mut best: Option<(usize, Fitness)> = None;
        for (i, mut f) in fits.into_iter().enumerate() {
            f.size = cands[i].iter().map(input_size).sum();
            archive.borrow_mut().offer(&cands[i], &f);
            let eligible = match closer_only {
                Some((marks, cur)) if marks.get(i).copied().unwrap_or(false) => f.closer_than(cur),
                _ => true,
            };
            if eligible && best.as_ref().is_none_or(|(_, b)| f.better_than(b)) {
                best = Some((i, f));
            }
        }
        best
    };
    let (_, mut cur_fit) = batch(std::slice::from_ref(&start), None, &mut runs, &mut seeds, &mut ended)?;
    // The time is the runs': the first one also compiled the harness (a second or more in a
    // JVM that just started), which left a search sharing 5 s five ways no time to run.
    tracing::debug!("first run (with the harness's compilation) took {} ms", began.get().elapsed().as_millis());
    began.set(Instant::now());
    // The string inputs, which a null one returns to (as the empty string).
    let strings: Vec<bool> = start.iter().map(|v| matches!(v, JavaValue::Str(_))).collect();
    let mut cur = start;
    if cur_fit.hit {
        return Some(Found { values: cur, runs });
    }
    let mut stuck = 0u32;
    // Rounds that ended stuck: every other one steps from a vector that ran new lines.
    let mut stuck_rounds = 0usize;
    while !out_of_budget(runs, ended) {
        // Small steps of every input.
        let mut moves = small_moves(&cur, cur_fit.read.as_deref(), &seeds);
        let nulls = cur.iter().enumerate().filter(|(k, v)| **v == JavaValue::Null && strings.get(*k) == Some(&true));
        moves.extend(nulls.map(|(k, _)| Move::Set(k, JavaValue::Str(String::new()))));
        let cands: Vec<Vec<JavaValue>> = moves.iter().filter_map(|m| apply(&cur, m)).collect();
        let moves: Vec<Move> = moves.into_iter().filter(|m| apply(&cur, m).is_some()).collect();
        let grown: Vec<bool> = moves.iter().map(Move::only_if_closer).collect();
        if let Some((i, f)) = batch(&cands, Some((&grown, &cur_fit)), &mut runs, &mut seeds, &mut ended) {
            if f.hit {
                return Some(Found { values: cands[i].clone(), runs });
            }
            if f.better_than(&cur_fit) {
                tracing::trace!("after {runs} runs, a small step is better: {f:?}");
                cur = cands[i].clone();
                cur_fit = f;
                stuck = 0;
                // Keep going that way, doubling the step while it improves.
                let pattern: Vec<Move> = (1..=40).filter_map(|j| scaled(&moves[i], 2f64.powi(j))).collect();
                let cands: Vec<Vec<JavaValue>> = pattern.iter().filter_map(|m| apply(&cur, m)).collect();
                let grown: Vec<bool> = pattern.iter().map(Move::only_if_closer).collect();
                if let Some((i, f)) = batch(&cands, Some((&grown, &cur_fit)), &mut runs, &mut seeds, &mut ended) {
                    if f.hit {
                        return Some(Found { values: cands[i].clone(), runs });
                    }
                    if f.better_than(&cur_fit) {
                        cur = cands[i].clone();
                        cur_fit = f;
                    }
                }
                continue;
            }
        }
        if out_of_budget(runs, ended) {
            break;
        }
        // Stuck: the code's constants in each input.
        let cands = seeded(&cur, cur_fit.read.as_deref(), &seeds, stuck_rounds);
        if let Some((i, f)) = batch(&cands, None, &mut runs, &mut seeds, &mut ended) {
            if f.hit {
                return Some(Found { values: cands[i].clone(), runs });
            }
            if f.better_than(&cur_fit) {
                cur = cands[i].clone();
                cur_fit = f;
                stuck = 0;
                continue;
            }
        }
        // Still stuck: every other time, the neighbours of the latest vector that ran new lines
        // and was not stepped from yet (a parser's first `{`, from which a call of
        // `beginObject()` and then a `}` lead on); else (or when there is none) random values,
        // taking the best of them after a few rounds without progress, half of them one to three
        // changes of a vector that ran new lines.
        stuck_rounds += 1;
        let next = match stuck_rounds % 2 {
            1 => archive.borrow_mut().next_unexplored(),
            _ => None,
        };
        if let Some((base, read)) = next {
            tracing::trace!("after {runs} runs, stepping from {base:?}");
            let cands: Vec<Vec<JavaValue>> =
                small_moves(&base, read.as_deref(), &seeds).iter().filter_map(|m| apply(&base, m)).collect();
            if let Some((i, f)) = batch(&cands, None, &mut runs, &mut seeds, &mut ended) {
                if f.hit {
                    return Some(Found { values: cands[i].clone(), runs });
                }
                if f.better_than(&cur_fit) {
                    cur = cands[i].clone();
                    cur_fit = f;
                    stuck = 0;
                }
            }
            continue;
        }
        stuck += 1;
        let bases: Vec<Vec<JavaValue>> = (0..12).filter_map(|_| archive.borrow().pick(&mut rng)).collect();
        let mut cands: Vec<Vec<JavaValue>> = Vec::with_capacity(24);
        for _ in bases.len()..24 {
            cands.push(random_near(&cur, &seeds, &mut rng));
        }
        for b in &bases {
            cands.push(mutate_few(b, &seeds, &mut rng));
        }
        if let Some((i, f)) = batch(&cands, None, &mut runs, &mut seeds, &mut ended) {
            if f.hit {
                return Some(Found { values: cands[i].clone(), runs });
            }
            if f.better_than(&cur_fit) || stuck >= 3 {
                cur = cands[i].clone();
                cur_fit = f;
                stuck = 0;
            }
        }
    }
    tracing::debug!("search ended after {runs} runs without reaching the line ({stuck_rounds} rounds stuck, {} runs kept for new lines)", archive.borrow().kept.len());
    tracing::trace!("the last inputs stepped from: {cur:?}, {cur_fit:?}");
    None
}

/// The size of an input for [`Fitness::size`]: a string's characters, an array's elements (and
/// theirs), 1 for any other value.
fn input_size(v: &JavaValue) -> usize {
    match v {
        JavaValue::Str(s) => s.chars().count(),
        JavaValue::Array { items, .. } => items.len() + items.iter().map(input_size).sum::<usize>(),
        _ => 1,
    }
}

/// Characters a string gains in a small step.
const ALPHABET: &[char] = &['a', 'A', '0', '1', ' ', '-', '.', ',', '{', '}', '/', '\\'];

/// Characters the JDK treats unlike ASCII ones, tried when the search is stuck: case mappings
/// that change the length (`ß`, `İ`), decimal digits of other scripts (`Integer.parseInt` and
/// `Character.isDigit` take them), white space that `trim` keeps and `strip` removes, a line
/// separator, a character outside the BMP (two `char`s), and controls.
const SPECIAL: &[&str] =
    &["\u{df}", "\u{130}", "\u{663}", "\u{ff11}", "\u{a0}", "\u{2028}", "\u{1F600}", "\t", "\n", "\u{0}"];

/// The characters of `seeds` (the code's character constants, [`JavaValue::Char`]), at most
/// [`CODE_CHARS_MAX`], that [`ALPHABET`] lacks.
fn code_chars(seeds: &[JavaValue]) -> Vec<char> {
    let mut out = Vec::new();
    for s in seeds {
        if let JavaValue::Char(c) = s {
            if let Some(c) = char::from_u32(u32::from(*c)) {
                if !ALPHABET.contains(&c) && !out.contains(&c) && out.len() < CODE_CHARS_MAX {
                    out.push(c);
                }
            }
        }
    }
    out
}

/// The first [`EDITED_ELEMENTS`] strings of an array's `items` one at a time with one of the
/// first characters of [`ALPHABET`] or of the code's (`code`) at their end, or their last
/// character dropped; and `items` with its last string repeated.
fn string_element_moves(items: &[JavaValue], code: &[char]) -> Vec<Vec<JavaValue>> {
    let mut out = Vec::new();
    let added: Vec<char> = ALPHABET.iter().take(4).chain(code.iter().take(8)).copied().collect();
    for (p, item) in items.iter().enumerate().take(EDITED_ELEMENTS) {
        let JavaValue::Str(text) = item else { continue };
        for c in &added {
            let mut changed = items.to_vec();
            changed[p] = JavaValue::Str(format!("{text}{c}"));
            out.push(changed);
        }
        if let Some((cut, _)) = text.char_indices().last() {
            let mut changed = items.to_vec();
            changed[p] = JavaValue::Str(text[..cut].to_string());
            out.push(changed);
        }
    }
    if let Some(last) = items.last().filter(|l| **l != JavaValue::Str(String::new())) {
        let mut changed = items.to_vec();
        changed.push(last.clone());
        out.push(changed);
    }
    out
}

/// At most this many of an array's strings are edited by its small steps.
const EDITED_ELEMENTS: usize = 4;

/// Quotes and brackets a string may be put in when the code has the opening character.
const WRAPS: &[(char, char)] = &[('"', '"'), ('\'', '\''), ('`', '`'), ('(', ')'), ('[', ']'), ('{', '}'), ('<', '>')];

/// At most this many of the code's characters take part in a string's small steps.
const CODE_CHARS_MAX: usize = 40;

/// A string's characters edited within its first and its last [`EDITED_CHARS`] (steps,
/// deletions).
const EDITED_CHARS: usize = 12;

/// The positions of a string of `len` characters that the search edits: its first and its last
/// [`EDITED_CHARS`] (a parser's text is read from the start, and grows at the end).
fn edited_positions(len: usize) -> impl Iterator<Item = usize> {
    let head = len.min(EDITED_CHARS);
    (0..head).chain(len.saturating_sub(EDITED_CHARS).max(head)..len)
}

/// The moves one step away from `cur`: numbers one up or down, a boolean flipped, another option,
/// arrays a row or an element more or less; a string with a character stepped, dropped, or one of
/// [`ALPHABET`] or the code's characters (`seeds`) put at its end or its start.
fn small_moves(cur: &[JavaValue], read: Option<&[bool]>, seeds: &[JavaValue]) -> Vec<Move> {
    let code = code_chars(seeds);
    let mut out = Vec::new();
    for (k, v) in cur.iter().enumerate().filter(|(k, _)| was_read(read, *k)) {
        match v {
            JavaValue::Bool(b) => out.push(Move::Set(k, JavaValue::Bool(!b))),
            // Every other option: there are few, and they have no order.
            JavaValue::Chosen { index, of } => {
                for other in (0..*of).filter(|o| o != index) {
                    out.push(Move::Set(k, JavaValue::Chosen { index: other, of: *of }));
                }
            }
            JavaValue::Float(_) | JavaValue::Double(_) => {
                for d in [1.0, -1.0, 0.1, -0.1] {
                    out.push(Move::Add(k, d));
                }
            }
            JavaValue::Array { elem_ty, .. } if matrix_elem(elem_ty).is_some() => {
                out.extend(matrix_moves(v).into_iter().map(|m| Move::Set(k, m)));
            }
            JavaValue::Array { elem_ty, items, .. } => {
                let elem = searched_elem(elem_ty);
                let numeric = !matches!(elem, Some(SlotElem::Str | SlotElem::Bool | SlotElem::BoolBox) | None);
                if numeric {
                    for p in 0..items.len().min(8) {
                        out.push(Move::AddElem(k, p, 1.0));
                        out.push(Move::AddElem(k, p, -1.0));
                    }
                }
                if let Some(elem) = elem {
                    let mut longer = v.clone();
                    if let JavaValue::Array { items, .. } = &mut longer {
                        items.push(elem_default(elem));
                    }
                    out.push(Move::Set(k, longer));
                }
                // An array of strings: its first elements a character longer or shorter, and its
                // last one once more (a trie of patterns, a table of words).
                if elem == Some(SlotElem::Str) {
                    out.extend(string_element_moves(items, &code).into_iter().map(|items| {
                        let mut changed = v.clone();
                        if let JavaValue::Array { items: old, .. } = &mut changed {
                            *old = items;
                        }
                        Move::Set(k, changed)
                    }));
                }
                if !items.is_empty() {
                    let mut shorter = v.clone();
                    if let JavaValue::Array { items, .. } = &mut shorter {
                        items.pop();
                    }
                    out.push(Move::Set(k, shorter));
                }
            }
            JavaValue::Str(s) => {
                // No string at all: what a check for null wants (a null stays, having no moves,
                // only when it is a step closer to the line).
                out.push(Move::Set(k, JavaValue::Null));
                let chars: Vec<char> = s.chars().collect();
                for p in edited_positions(chars.len()) {
                    out.push(Move::AddChar(k, p, 1));
                    out.push(Move::AddChar(k, p, -1));
                }
                for c in ALPHABET {
                    out.push(Move::Append(k, c.to_string(), true));
                }
                for c in &code {
                    out.push(Move::Append(k, c.to_string(), true));
                    out.push(Move::Append(k, c.to_string(), false));
                }
                // Quoted or bracketed, as parsers read text: in a quote character or a pair of
                // brackets of the code's.
                for (open, close) in WRAPS {
                    if code.contains(open) || ALPHABET.contains(open) {
                        out.push(Move::Set(k, JavaValue::Str(format!("{open}{s}{close}"))));
                    }
                }
                for p in edited_positions(chars.len()) {
                    let without: String = chars.iter().enumerate().filter(|(i, _)| *i != p).map(|(_, c)| *c).collect();
                    out.push(Move::Set(k, JavaValue::Str(without)));
                }
                if !chars.is_empty() {
                    out.push(Move::Set(k, JavaValue::Str(format!("{s}{s}"))));
                }
                // Its first character many times over: nesting deeper than a parser's first
                // stack, a number or a name longer than its buffer.
                if let Some(&first) = chars.first().filter(|_| chars.len() < REPEATED_START) {
                    for n in [REPEATED_START / 32, REPEATED_START] {
                        let rest: String = chars[1..].iter().collect();
                        out.push(Move::Repeat(k, format!("{}{rest}", first.to_string().repeat(n))));
                    }
                }
                // Its beginnings, and text of a pair alone: what the calls before the one under
                // test leave a parser (`beginObject()` on `{` leaves `}`) may need less than
                // the string grew to.
                for p in 0..chars.len().min(EDITED_CHARS) {
                    out.push(Move::Set(k, JavaValue::Str(chars[..p].iter().collect())));
                }
                for (open, close) in WRAPS {
                    if (code.contains(open) || ALPHABET.contains(open)) && s.as_str() != format!("{open}{close}") {
                        out.push(Move::Set(k, JavaValue::Str(format!("{open}{close}"))));
                    }
                }
            }
            _ => {
                out.push(Move::Add(k, 1.0));
                out.push(Move::Add(k, -1.0));
            }
        }
    }
    out
}

/// The matrices one step away from `v` (a two-dimensional array): a row more or less, a column
/// more or less, one size larger while staying square (adjacency matrices), and each of the
/// first 4×4 elements one up or down (flipped, for booleans).
fn matrix_moves(v: &JavaValue) -> Vec<JavaValue> {
    let JavaValue::Array { elem_ty, id, items } = v else { return vec![] };
    let Some(elem) = matrix_elem(elem_ty) else { return vec![] };
    let row_ty = elem_ty.trim().trim_end_matches("[]").trim().to_string();
    let row = |items: Vec<JavaValue>| JavaValue::Array { elem_ty: row_ty.clone(), id: 0, items };
    let rows: Vec<Vec<JavaValue>> = items
        .iter()
        .map(|r| match r {
            JavaValue::Array { items, .. } => items.clone(),
            _ => vec![],
        })
        .collect();
    let width = rows.iter().map(Vec::len).max().unwrap_or(0);
    let make = |rows: Vec<Vec<JavaValue>>| JavaValue::Array {
        elem_ty: elem_ty.clone(),
        id: *id,
        items: rows.into_iter().map(&row).collect(),
    };
    let mut out = Vec::new();
    let mut more = rows.clone();
    more.push(vec![elem_default(elem); width.max(1)]);
    out.push(make(more));
    let mut square = rows.clone();
    square.iter_mut().for_each(|r| r.resize(width + 1, elem_default(elem)));
    square.push(vec![elem_default(elem); width + 1]);
    out.push(make(square));
    if !rows.is_empty() {
        out.push(make(rows[..rows.len() - 1].to_vec()));
    }
    if width > 0 {
        let mut narrower = rows.clone();
        narrower.iter_mut().for_each(|r| {
            r.truncate(width - 1);
        });
        out.push(make(narrower));
    }
    for r in 0..rows.len().min(4) {
        for c in 0..rows[r].len().min(4) {
            let steps: Vec<JavaValue> = match &rows[r][c] {
                JavaValue::Bool(b) => vec![JavaValue::Bool(!b)],
                x => [1.0, -1.0].iter().filter_map(|d| add(x, *d)).collect(),
            };
            for x in steps {
                let mut next = rows.clone();
                next[r][c] = x;
                out.push(make(next));
            }
        }
    }
    out
}

/// `m` with its step multiplied by `factor` (only steps have a size).
fn scaled(m: &Move, factor: f64) -> Option<Move> {
    match m {
        Move::Add(k, d) => Some(Move::Add(*k, d * factor)),
        Move::AddChar(k, p, d) => {
            let d = f64::from(*d) * factor;
            (d.abs() <= 65_535.0).then_some(Move::AddChar(*k, *p, d as i32))
        }
        Move::AddElem(k, p, d) => Some(Move::AddElem(*k, *p, d * factor)),
        // The text that many times over (a number or a nesting growing toward a bound).
        Move::Append(k, text, at_end) => {
            let times = factor.round() as usize;
            (times >= 1 && text.chars().count().saturating_mul(times) <= APPENDED_MAX)
                .then(|| Move::Append(*k, text.repeat(times), *at_end))
        }
        Move::Set(..) | Move::Repeat(..) => None,
    }
}

/// A string step's text repeated ([`scaled`]) grows to at most this many characters.
const APPENDED_MAX: usize = 4096;

/// `cur` after `m`, or `None` when the move leaves the input's type.
fn apply(cur: &[JavaValue], m: &Move) -> Option<Vec<JavaValue>> {
    let mut next = cur.to_vec();
    match m {
        Move::Set(k, v) => next[*k] = v.clone(),
        Move::Repeat(k, s) => next[*k] = JavaValue::Str(s.clone()),
        Move::Append(k, text, at_end) => {
            let JavaValue::Str(s) = &cur[*k] else { return None };
            next[*k] = JavaValue::Str(match at_end {
                true => format!("{s}{text}"),
                false => format!("{text}{s}"),
            });
        }
        Move::Add(k, d) => next[*k] = add(&cur[*k], *d)?,
        Move::AddElem(k, p, d) => {
            let JavaValue::Array { items, .. } = &mut next[*k] else { return None };
            let stepped = add(items.get(*p)?, *d)?;
            items[*p] = stepped;
        }
        Move::AddChar(k, p, d) => {
            let JavaValue::Str(s) = &cur[*k] else { return None };
            let mut units: Vec<u16> = s.encode_utf16().collect();
            let code = i64::from(*units.get(*p)?) + i64::from(*d);
            // Whole characters only (no surrogates), so the string stays valid text.
            if !(0..=0xFFFF).contains(&code) || (0xD800..=0xDFFF).contains(&code) {
                return None;
            }
            units[*p] = code as u16;
            next[*k] = JavaValue::Str(String::from_utf16(&units).ok()?);
        }
    }
    Some(next)
}

fn add(v: &JavaValue, d: f64) -> Option<JavaValue> {
    let int = |x: i64, lo: i64, hi: i64| -> Option<i64> {
        let y = (x as f64 + d).round();
        (y >= lo as f64 && y <= hi as f64).then_some(y as i64)
    };
    Some(match v {
        JavaValue::Byte(x) => JavaValue::Byte(int((*x).into(), i8::MIN.into(), i8::MAX.into())? as i8),
        JavaValue::Short(x) => JavaValue::Short(int((*x).into(), i16::MIN.into(), i16::MAX.into())? as i16),
        JavaValue::Char(x) => JavaValue::Char(int((*x).into(), 0, 0xFFFF)? as u16),
        JavaValue::Int(x) => JavaValue::Int(int((*x).into(), i32::MIN.into(), i32::MAX.into())? as i32),
        JavaValue::Long(x) => {
            let y = (*x as f64 + d).round();
            if !(y >= i64::MIN as f64 && y < i64::MAX as f64) {
                return None;
            }
            // Small steps exactly, large ones as doubles go.
            JavaValue::Long(if d.abs() < 1e15 { x.checked_add(d as i64)? } else { y as i64 })
        }
        JavaValue::Float(x) => JavaValue::Float((f64::from(*x) + d) as f32).filter_finite()?,
        JavaValue::Double(x) => JavaValue::Double(x + d).filter_finite()?,
        _ => return None,
    })
}

trait FilterFinite: Sized {
    fn filter_finite(self) -> Option<Self>;
}

impl FilterFinite for JavaValue {
    fn filter_finite(self) -> Option<Self> {
        match self {
            JavaValue::Float(x) if !x.is_finite() => None,
            JavaValue::Double(x) if !x.is_finite() => None,
            v => Some(v),
        }
    }
}

/// At most this many candidates come from seeds in one round.
const SEEDED_MAX: usize = 512;

/// At most this many candidates from seeds an input takes in turns, a share each round.
const SEEDED_PER_INPUT_MAX: usize = 4096;

/// `cur` with one input set to a seed of its type (strings also with a digit or two after it,
/// numbers also one off), one candidate each, at most [`SEEDED_MAX`], shared fairly among the
/// inputs (a class with thousands of constants must not leave the later inputs none, nor take
/// quadratic time to tell its candidates apart); each round starts further along the seeds
/// (cyclically) than the one before.
fn seeded(cur: &[JavaValue], read: Option<&[bool]>, seeds: &[JavaValue], round: usize) -> Vec<Vec<JavaValue>> {
    let moved = (0..cur.len()).filter(|k| was_read(read, *k)).count();
    let per_input = (SEEDED_MAX / moved.max(1)).max(1);
    let mut out = Vec::new();
    for (k, v) in cur.iter().enumerate().filter(|(k, _)| was_read(read, *k)) {
        // Every candidate of the input, at most SEEDED_PER_INPUT_MAX, without repeats.
        let mut values: Vec<JavaValue> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let mut offer = |value: JavaValue| {
            if values.len() < SEEDED_PER_INPUT_MAX && &value != v && seen.insert(format!("{value:?}")) {
                values.push(value);
            }
        };
        // The JDK's special characters and the code's constants take turns, so that neither
        // crowds out the other when an input's share is small.
        let special: Vec<JavaValue> = match v {
            JavaValue::Str(s) => SPECIAL
                .iter()
                .flat_map(|c| [c.to_string(), format!("{s}{c}"), format!("{c}{s}")])
                .chain(digit_tails(s))
                .map(JavaValue::Str)
                .collect(),
            // The floating values no step comes to (`Double.isNaN(x)` tests for one).
            JavaValue::Double(_) => SPECIAL_DOUBLES.iter().map(|d| JavaValue::Double(*d)).collect(),
            JavaValue::Float(_) => SPECIAL_FLOATS.iter().map(|f| JavaValue::Float(*f)).collect(),
            _ => vec![],
        };
        let from_seeds = seeds.iter().flat_map(|s| {
            let candidates: Vec<JavaValue> = match (v, s) {
                (JavaValue::Str(_), JavaValue::Str(seed)) => {
                    let mut vs = vec![JavaValue::Str(seed.clone())];
                    vs.extend(["0", "1", "10", " ", "a"].iter().map(|d| JavaValue::Str(format!("{seed}{d}"))));
                    vs
                }
                (JavaValue::Str(_), JavaValue::Long(n)) => vec![JavaValue::Str(n.to_string())],
                (JavaValue::Str(_), _) => vec![],
                (_, JavaValue::Long(n)) => {
                    [-1.0, 0.0, 1.0].iter().filter_map(|d| add(&with_number(v, *n)?, *d)).collect()
                }
                (_, JavaValue::Char(c)) => with_number(v, i64::from(*c)).into_iter().collect(),
                _ => vec![],
            };
            candidates
        });
        let mut special = special.into_iter();
        for value in from_seeds {
            offer(value);
            if let Some(value) = special.next() {
                offer(value);
            }
        }
        special.for_each(&mut offer);
        // This round's share: the window `round` shares along (cyclically), so that the
        // candidates past the first share come in later rounds.
        let n = values.len();
        let first = if n == 0 { 0 } else { round * per_input % n };
        out.extend(values.iter().cycle().skip(first).take(per_input.min(n)).map(|value| {
            let mut next = cur.to_vec();
            next[k] = value.clone();
            next
        }));
    }
    out.truncate(SEEDED_MAX);
    out
}

/// `s` with its last one, two, ... [`DIGIT_TAIL_MAX`] characters made `0`s, shortest first:
/// a number parser (`Integer.parseInt(s.substring(i, i + 4), 16)`) throws for any character
/// that is not a digit, which gives a step no distance to go by, and all of them must change
/// at once.
fn digit_tails(s: &str) -> impl Iterator<Item = String> + '_ {
    let chars: Vec<char> = s.chars().collect();
    let n = chars.len();
    (1..=n.min(DIGIT_TAIL_MAX)).filter_map(move |k| {
        let (kept, tail) = chars.split_at(n - k);
        tail.iter().any(|c| *c != '0').then(|| kept.iter().chain(std::iter::repeat_n(&'0', k)).collect())
    })
}

/// See [`digit_tails`].
const DIGIT_TAIL_MAX: usize = 16;

/// Whether input `k` is one a step moves: one the run read, or any when that is not known.
fn was_read(read: Option<&[bool]>, k: usize) -> bool {
    read.is_none_or(|r| r.get(k).copied().unwrap_or(true))
}

/// The floating values [`seeded`] tries: not a number, the infinities, negative zero, the
/// smallest positive normal value and the largest value.
const SPECIAL_DOUBLES: [f64; 6] = [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -0.0, f64::MIN_POSITIVE, f64::MAX];
const SPECIAL_FLOATS: [f32; 6] = [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, -0.0, f32::MIN_POSITIVE, f32::MAX];

/// `n` as a value of `like`'s numeric type, if it fits.
fn with_number(like: &JavaValue, n: i64) -> Option<JavaValue> {
    Some(match like {
        JavaValue::Byte(_) => JavaValue::Byte(i8::try_from(n).ok()?),
        JavaValue::Short(_) => JavaValue::Short(i16::try_from(n).ok()?),
        JavaValue::Char(_) => JavaValue::Char(u16::try_from(n).ok()?),
        JavaValue::Int(_) => JavaValue::Int(i32::try_from(n).ok()?),
        JavaValue::Long(_) => JavaValue::Long(n),
        JavaValue::Float(_) => JavaValue::Float(n as f32),
        JavaValue::Double(_) => JavaValue::Double(n as f64),
        _ => return None,
    })
}

/// `cur` with each input replaced, with even odds, by a random small value of its type (or a seed).
fn random_near(cur: &[JavaValue], seeds: &[JavaValue], rng: &mut SplitMix) -> Vec<JavaValue> {
    cur.iter()
        .map(|v| match rng.next().is_multiple_of(2) {
            true => v.clone(),
            false => random_value(v, seeds, rng),
        })
        .collect()
}

/// `base` with one to three of its inputs given random values ([`random_value`]): the small
/// changes a fuzzer makes to an input of its corpus.
fn mutate_few(base: &[JavaValue], seeds: &[JavaValue], rng: &mut SplitMix) -> Vec<JavaValue> {
    let mut out = base.to_vec();
    if out.is_empty() {
        return out;
    }
    for _ in 0..1 + rng.next() % 3 {
        let at = (rng.next() as usize) % out.len();
        out[at] = random_value(&out[at], seeds, rng);
    }
    out
}

/// The vectors whose runs ran lines no earlier run ran ([`Fitness::novel`]), at most
/// [`Archive::MAX`] of them.
#[derive(Default)]
struct Archive {
    kept: Vec<Vec<JavaValue>>,
    /// Which inputs the run of each of `kept` read ([`Fitness::read`]).
    read: Vec<Option<std::rc::Rc<[bool]>>>,
    /// Which of `kept` the search went on from ([`Archive::next_unexplored`]).
    explored: Vec<bool>,
}

impl Archive {
    const MAX: usize = 256;

    fn offer(&mut self, values: &[JavaValue], f: &Fitness) {
        if self.kept.len() < Self::MAX && (f.novel > 0 || self.kept.is_empty()) {
            // The first vector kept is the start, which the search climbs from already.
            self.explored.push(self.kept.is_empty());
            self.kept.push(values.to_vec());
            self.read.push(f.read.clone());
        }
    }

    /// A kept vector, the later ones (further from the start) as likely as the first.
    fn pick(&self, rng: &mut SplitMix) -> Option<Vec<JavaValue>> {
        match self.kept.len() {
            0 | 1 => None,
            n => Some(self.kept[(rng.next() as usize) % n].clone()),
        }
    }

    /// The latest kept vector not handed out yet: depth first, so that what a step from a new
    /// place finds (`{` and then `beginObject()`) is where the next step goes from.
    fn next_unexplored(&mut self) -> Option<(Vec<JavaValue>, Option<std::rc::Rc<[bool]>>)> {
        let k = self.explored.iter().rposition(|e| !e)?;
        self.explored[k] = true;
        Some((self.kept[k].clone(), self.read[k].clone()))
    }
}

/// A random value of `v`'s kind for [`random_near`]: numbers within a hundred of zero, strings
/// near `v`'s ([`random_string`]), any option of a choice, short arrays.
fn random_value(v: &JavaValue, seeds: &[JavaValue], rng: &mut SplitMix) -> JavaValue {
    let small = (rng.next() % 201) as i64 - 100;
    match v {
        JavaValue::Bool(_) => JavaValue::Bool(rng.next().is_multiple_of(2)),
        JavaValue::Chosen { of, .. } => {
            JavaValue::Chosen { index: (rng.next() % (*of).max(1) as u64) as usize, of: *of }
        }
        JavaValue::Str(s) => random_string(s, seeds, rng),
        JavaValue::Float(_) => JavaValue::Float(small as f32 / 4.0),
        JavaValue::Double(_) => JavaValue::Double(small as f64 / 4.0),
        JavaValue::Char(_) => JavaValue::Char(32 + (rng.next() % 95) as u16),
        JavaValue::Array { elem_ty, id, .. } if matrix_elem(elem_ty).is_some() => {
            let elem = matrix_elem(elem_ty).unwrap_or(SlotElem::Int);
            let n = (rng.next() % 5) as usize;
            let row_ty = elem_ty.trim().trim_end_matches("[]").trim().to_string();
            let items = (0..n)
                .map(|_| {
                    let items = (0..n)
                        .map(|_| {
                            let x = (rng.next() % 11) as i64 - 2;
                            match elem {
                                SlotElem::Bool => JavaValue::Bool(x > 3),
                                _ => with_number(&elem_default(elem), x).unwrap_or_else(|| elem_default(elem)),
                            }
                        })
                        .collect();
                    JavaValue::Array { elem_ty: row_ty.clone(), id: 0, items }
                })
                .collect();
            JavaValue::Array { elem_ty: elem_ty.clone(), id: *id, items }
        }
        JavaValue::Array { elem_ty, id, .. } => match searched_elem(elem_ty) {
            Some(elem) => {
                let len = (rng.next() % 6) as usize;
                let items = (0..len)
                    .map(|_| match elem {
                        SlotElem::Str => random_string("", seeds, rng),
                        _ => {
                            let n = (rng.next() % 41) as i64 - 20;
                            with_number(&elem_default(elem), n).unwrap_or_else(|| elem_default(elem))
                        }
                    })
                    .collect();
                JavaValue::Array { elem_ty: elem_ty.clone(), id: *id, items }
            }
            None => v.clone(),
        },
        _ => with_number(v, small).unwrap_or_else(|| v.clone()),
    }
}

/// A string's small moves include its first character this many times, and a 32nd of it
/// (past the stacks and buffers parsers start with: 32 levels, 1,024 characters).
const REPEATED_START: usize = 2048;

/// A piece of a random string is repeated 2 to 2^`REPEAT_DOUBLINGS` times (and one more, half
/// the time): enough for the buffers and stacks parsers start with (a few thousand characters).
const REPEAT_DOUBLINGS: u64 = 11;

/// A random string near `s`, with even odds one of: `s` with one to three random edits (a token
/// put in at a place, a character dropped or replaced by a token, a piece of it repeated many
/// times), one of the code's strings, or
/// up to six tokens. Tokens are [`ALPHABET`]'s characters, the code's characters and its short
/// strings, as a fuzzer's dictionary.
fn random_string(s: &str, seeds: &[JavaValue], rng: &mut SplitMix) -> JavaValue {
    let strs: Vec<&String> =
        seeds.iter().filter_map(|s| if let JavaValue::Str(s) = s { Some(s) } else { None }).collect();
    let mut tokens: Vec<String> = ALPHABET.iter().chain(&code_chars(seeds)).map(char::to_string).collect();
    tokens.extend(strs.iter().filter(|t| (1..=6).contains(&t.chars().count())).map(|t| t.to_string()));
    let token = |rng: &mut SplitMix| tokens[(rng.next() as usize) % tokens.len()].clone();
    match rng.next() % 3 {
        0 => {
            let mut chars: Vec<char> = s.chars().collect();
            for _ in 0..1 + rng.next() % 3 {
                let at = (rng.next() as usize) % (chars.len() + 1);
                match rng.next() % 4 {
                    0 => {
                        let t: Vec<char> = token(rng).chars().collect();
                        chars.splice(at..at, t);
                    }
                    // A piece of it (or a token) many times over: nesting deeper than a
                    // parser's first stack, a number longer than its buffer.
                    3 => {
                        let len = 1 + (rng.next() as usize) % 3;
                        let piece: Vec<char> = match chars.get(at..at + len) {
                            Some(p) => p.to_vec(),
                            None => token(rng).chars().collect(),
                        };
                        let times = (2usize << (rng.next() % REPEAT_DOUBLINGS)) + (rng.next() % 2) as usize;
                        let many: Vec<char> = piece.iter().copied().cycle().take(piece.len() * times).collect();
                        chars.splice(at..at, many);
                    }
                    1 if at < chars.len() => {
                        chars.remove(at);
                    }
                    _ if at < chars.len() => {
                        let t: Vec<char> = token(rng).chars().collect();
                        chars.splice(at..=at, t);
                    }
                    _ => {}
                }
            }
            JavaValue::Str(chars.into_iter().collect())
        }
        1 if !strs.is_empty() => JavaValue::Str(strs[(rng.next() as usize) % strs.len()].clone()),
        _ => {
            let len = (rng.next() % 7) as usize;
            JavaValue::Str((0..len).map(|_| token(rng)).collect())
        }
    }
}

/// A small, fast random number generator (SplitMix64): the search needs no more, and a seed makes
/// it repeatable.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use jreach_synth::JavaCall;

    /// A run that ran the target line (`lines` lines of its file).
    fn reached(lines: usize) -> Fitness {
        Fitness { hit: true, started: false, divergence: None, lines, size: 0, novel: 0, read: None }
    }

    /// A run that turned away at a jump `level` instructions before the target, at branch distance
    /// `d` (normalised).
    fn diverged(level: f64, d: f64, lines: usize) -> Fitness {
        Fitness { hit: false, started: false, divergence: Some((level, d)), lines, size: 0, novel: 0, read: None }
    }

    /// A run that came to no jump toward the target.
    fn nowhere(lines: usize) -> Fitness {
        Fitness { hit: false, started: false, divergence: None, lines, size: 0, novel: 0, read: None }
    }

    /// A branch distance as the runner reports it: `x >= goal` guards the target.
    fn at_least(x: i64, goal: i64) -> Fitness {
        if x >= goal {
            reached(3)
        } else {
            let d = (goal - x) as f64;
            diverged(4.0, d / (d + 1.0), 2)
        }
    }

    fn budget() -> Budget<'static> {
        Budget { time: Duration::from_secs(5), runs: 5_000, cancel: None }
    }

    #[test]
    fn doubling_steps_reach_a_far_bound_in_few_runs() {
        let found = avm(vec![JavaValue::Int(0)], vec![], budget(), 1, |cands| {
            let fits =
                cands.iter().map(|c| if let JavaValue::Int(x) = c[0] { at_least(x.into(), 3002) } else { panic!() });
            Some((fits.collect(), vec![]))
        })
        .expect("found");
        let JavaValue::Int(x) = found.values[0] else { panic!() };
        // Made as small as it can be once found.
        assert_eq!(x, 3002);
        assert!(found.runs < 200, "{} runs", found.runs);
    }

    #[test]
    fn a_string_takes_a_seed_the_code_showed_with_a_digit_after_it() {
        // Like `discountCents`: throws (no branch reached) unless the coupon is "SAVE" and digits.
        let ok = |s: &str| s.starts_with("SAVE") && s.len() > 4 && s[4..].chars().all(|c| c.is_ascii_digit());
        let found = avm(vec![JavaValue::Str(String::new())], vec![], budget(), 7, |cands| {
            let fits = cands.iter().map(|c| {
                let s = text(&c[0]);
                Fitness { hit: ok(s), started: false, divergence: None, lines: 1, size: 0, novel: 0, read: None }
            });
            // The code's constants come with the first failing run.
            Some((fits.collect(), vec![JavaValue::Str("SAVE".into()), JavaValue::Str("not a coupon: ".into())]))
        })
        .expect("found");
        let JavaValue::Str(s) = &found.values[0] else { panic!() };
        assert!(ok(s), "{s}");
    }

    #[test]
    fn characters_move_toward_a_compared_one() {
        // `s.charAt(1) == '}'` guards the target.
        let found = avm(vec![JavaValue::Str("ab".into())], vec![], budget(), 3, |cands| {
            let fits = cands.iter().map(|c| {
                let s = text(&c[0]);
                match s.chars().nth(1) {
                    Some('}') => reached(3),
                    Some(ch) => {
                        let d = (ch as i64 - '}' as i64).abs() as f64;
                        diverged(2.0, d / (d + 1.0), 2)
                    }
                    None => nowhere(1),
                }
            });
            Some((fits.collect(), vec![]))
        })
        .expect("found");
        let JavaValue::Str(s) = &found.values[0] else { panic!() };
        assert_eq!(s.chars().nth(1), Some('}'));
    }

    #[test]
    fn characters_past_the_first_dozen_move_too() {
        // `s.charAt(16) == '.'` guards the target, in a string the search got this long (and
        // which must keep its length).
        let start = "99999999T99:99999T";
        let found = avm(vec![JavaValue::Str(start.into())], vec![], budget(), 3, |cands| {
            let fits = cands.iter().map(|c| {
                let s = text(&c[0]);
                match s.chars().nth(16) {
                    _ if s.chars().count() != start.len() => nowhere(1),
                    Some('.') => reached(3),
                    Some(ch) => {
                        let d = (ch as i64 - '.' as i64).abs() as f64;
                        diverged(2.0, d / (d + 1.0), 2)
                    }
                    None => nowhere(1),
                }
            });
            Some((fits.collect(), vec![]))
        })
        .expect("found");
        let JavaValue::Str(s) = &found.values[0] else { panic!() };
        assert_eq!(s.chars().nth(16), Some('.'));
    }

    #[test]
    fn text_added_to_a_string_that_brings_it_closer_is_added_again_doubling() {
        // `if (i == buffer.length)` after reading a sign and `i` digits: each digit more is
        // closer, and the line needs 1,024 of them.
        let digits = |s: &str| s.strip_prefix('-').map_or(0, |d| d.chars().take_while(char::is_ascii_digit).count());
        let found = avm(vec![JavaValue::Str("-".into())], vec![], budget(), 9, |cands| {
            let fits = cands.iter().map(|c| {
                let s = text(&c[0]);
                at_least(digits(s) as i64, 1024)
            });
            Some((fits.collect(), vec![]))
        })
        .expect("found");
        let JavaValue::Str(s) = &found.values[0] else { panic!() };
        assert!(digits(s) >= 1024, "{s}");
        assert!(found.runs < 3_000, "{} runs", found.runs);
    }

    #[test]
    fn a_piece_of_a_string_repeats_past_a_parsers_first_stack() {
        // A parser whose line runs when arrays nest deeper than its first stack (40 levels);
        // each level deeper runs no new line and takes no branch toward it.
        let depth = |s: &str| s.chars().take_while(|&c| c == '[').count();
        let found = avm(vec![JavaValue::Str("1".into())], vec![], budget(), 5, |cands| {
            let fits = cands.iter().map(|c| {
                let s = text(&c[0]);
                let d = depth(s);
                Fitness {
                    hit: d > 40,
                    started: false,
                    divergence: None,
                    lines: 1 + d.min(1),
                    size: 0,
                    novel: 0,
                    read: None,
                }
            });
            Some((fits.collect(), vec![JavaValue::Str("[".into())]))
        })
        .expect("found");
        let JavaValue::Str(s) = &found.values[0] else { panic!() };
        assert!(depth(s) > 40, "{s}");
    }

    /// A parser's `nextInt` on a quoted value: the value's first character picks a case of a
    /// `switch` (no branch distance), the line starts for any quoted text, and runs to its end
    /// when the text is a number.
    fn quoted_number(s: &str) -> Fitness {
        let quoted = s.len() >= 2 && s.starts_with('"') && s.ends_with('"');
        let number = quoted && s.len() > 2 && s[1..s.len() - 1].chars().all(|c| c.is_ascii_digit());
        let level = if s.starts_with('"') { 1.0 } else { 5.0 };
        Fitness {
            hit: number,
            started: quoted,
            divergence: (!quoted).then_some((level, 0.5)),
            // (Distinct lines of the file: the same for any quoted text.)
            lines: 2,
            size: 0,
            novel: 0,
            read: None,
        }
    }

    fn quoted_number_search(seeds: Vec<JavaValue>) -> Option<Found> {
        let b = Budget { time: Duration::from_secs(20), runs: 3_000, cancel: None };
        avm(vec![JavaValue::Str("x".into())], vec![], b, 11, |cands| {
            let fits = cands.iter().map(|c| {
                let s = text(&c[0]);
                quoted_number(s)
            });
            Some((fits.collect(), seeds.clone()))
        })
    }

    /// A JSON reader's `doPeek()` after calls chosen at six places (option 0: none; 3:
    /// `beginObject()`, which consumes a `{` or throws; any other throws): its line runs on `}`
    /// after `beginObject()`. Which lines a run ran (letters run the most, as a literal's parsing
    /// does); no branch distance leads there.
    fn reader_lines(calls: &[usize], s: &str) -> (bool, Vec<u32>) {
        let mut lines = vec![1];
        let mut rest = s;
        let mut began = false;
        for &call in calls {
            match call {
                0 => {}
                3 => {
                    lines.push(10);
                    match rest.strip_prefix('{') {
                        Some(r) if !began => {
                            lines.push(11);
                            rest = r;
                            began = true;
                        }
                        _ => return (false, lines),
                    }
                }
                k => {
                    lines.push(100 + k as u32);
                    return (false, lines);
                }
            }
        }
        lines.push(20);
        match rest.chars().next() {
            Some(c) if c.is_alphabetic() => lines.extend([30, 31, 32, 33, 34, 35]),
            Some('{') => lines.push(40),
            Some('}') if began => return (true, [lines, vec![50, 60]].concat()),
            Some('}') => lines.push(50),
            _ => {}
        }
        (false, lines)
    }

    #[test]
    fn a_string_may_become_null_and_a_null_has_no_moves() {
        let moves = small_moves(&[JavaValue::Str("ab".into())], None, &[]);
        assert!(moves.iter().any(|m| matches!(m, Move::Set(0, JavaValue::Null))));
        // (It stays only where it is a step closer to the line.)
        let from_null = small_moves(&[JavaValue::Null], None, &[]);
        assert!(from_null.iter().all(|m| apply(&[JavaValue::Null], m).is_none()), "{from_null:?}");
    }

    /// A string input as the code under test sees it; a null one as text no branch wants (the
    /// code would throw on it at once).
    fn text(v: &JavaValue) -> &str {
        match v {
            JavaValue::Str(s) => s,
            JavaValue::Null => "\u{1}",
            other => panic!("{other:?}"),
        }
    }

    fn reader_inputs(values: &[JavaValue]) -> (Vec<usize>, &str) {
        let calls = values[..6].iter().map(|v| if let JavaValue::Chosen { index, .. } = v { *index } else { panic!() });
        (calls.collect(), text(&values[6]))
    }

    #[test]
    fn runs_that_ran_new_lines_are_places_the_search_goes_on_from() {
        // `{` alone and `beginObject()` on `{` are no closer to the line than any other run and
        // run fewer lines than a letter does; each ran lines no run ran before, and from there
        // `}` is one step.
        let b = Budget { time: Duration::from_secs(20), runs: 3_000, cancel: None };
        let mut ran = std::collections::HashSet::new();
        let mut start = vec![JavaValue::Chosen { index: 0, of: 17 }; 6];
        start.push(JavaValue::Str(String::new()));
        let seeds = vec![JavaValue::Char(u16::from(b'{')), JavaValue::Char(u16::from(b'}'))];
        let found = avm(start, vec![], b, 7, |cands| {
            let fits = cands
                .iter()
                .map(|c| {
                    let (calls, s) = reader_inputs(c);
                    let (hit, lines) = reader_lines(&calls, s);
                    let novel = lines.iter().filter(|l| ran.insert(**l)).count();
                    let divergence = (!hit).then_some((21.0, 0.5));
                    Fitness { hit, started: false, divergence, lines: lines.len(), size: 0, novel, read: None }
                })
                .collect();
            Some((fits, seeds.clone()))
        })
        .expect("found");
        let (calls, s) = reader_inputs(&found.values);
        assert!(reader_lines(&calls, s).0, "{:?}", found.values);
    }

    #[test]
    fn seeds_past_an_inputs_share_come_in_later_rounds() {
        // Forty-one inputs leave the string a share of a dozen seeded candidates a round; the
        // string the code compares with is the 26th of its 200 strings, past the first share.
        let mut cur = vec![JavaValue::Int(1); 40];
        cur.push(JavaValue::Str("x".into()));
        let mut seeds: Vec<JavaValue> = (0..200).map(|i| JavaValue::Str(format!("s{i}"))).collect();
        seeds[25] = JavaValue::Str("needle".into());
        let offers =
            |round: usize| seeded(&cur, None, &seeds, round).iter().any(|c| c[40] == JavaValue::Str("needle".into()));
        assert!(!offers(0));
        let first = (0..100).find(|r| offers(*r)).expect("offered in some round");
        assert!(first < 20, "first offered in round {first}");
    }

    #[test]
    fn strings_are_made_of_the_characters_the_code_compares_with() {
        // The runner reports `'"'` (a `bipush 34` of the code) as a character; no small step of
        // the alphabet makes one.
        let found = quoted_number_search(vec![JavaValue::Char(u16::from(b'"')), JavaValue::Char(u16::from(b':'))])
            .expect("a quoted number");
        let JavaValue::Str(s) = &found.values[0] else { panic!() };
        assert!(quoted_number(s).hit, "{s}");
    }

    #[test]
    fn a_run_that_starts_the_line_is_closer_than_one_that_turns_away_and_smaller_is_closer_still() {
        let turned = Fitness {
            hit: false,
            started: false,
            divergence: Some((1.0, 0.1)),
            lines: 90,
            size: 2,
            novel: 0,
            read: None,
        };
        let started = Fitness { hit: false, started: true, divergence: None, lines: 3, size: 9, novel: 0, read: None };
        let smaller = Fitness { size: 4, ..started.clone() };
        let hit = Fitness { hit: true, ..turned.clone() };
        assert!(started.better_than(&turned));
        assert!(smaller.better_than(&started));
        assert!(hit.better_than(&smaller));
        assert!(!turned.better_than(&started));
    }

    #[test]
    fn the_codes_seeds_and_the_special_characters_take_turns_in_a_small_share() {
        // Twenty inputs: a share of 25 candidates each, fewer than the special characters alone.
        let mut cur = vec![JavaValue::Int(0); 19];
        cur.insert(0, JavaValue::Str(String::new()));
        let seeds = vec![JavaValue::Str("true".into()), JavaValue::Str("null".into())];
        let strings: Vec<String> = seeded(&cur, None, &seeds, 0)
            .into_iter()
            .filter_map(|c| if let JavaValue::Str(s) = &c[0] { Some(s.clone()) } else { None })
            .collect();
        assert!(strings.contains(&"true".to_string()) && strings.contains(&"null".to_string()), "{strings:?}");
        assert!(strings.contains(&"\u{df}".to_string()), "{strings:?}");
    }

    #[test]
    fn when_stuck_a_string_s_last_characters_become_digits_all_at_once() {
        // Four characters after `\\u` must all be hexadecimal digits at once: no single step
        // changes the run.
        let start = vec![JavaValue::Str("\\u}}}}".into())];
        let cands = seeded(&start, None, &[], 0);
        assert!(cands.contains(&vec![JavaValue::Str("\\u0000".into())]), "{cands:?}");
        let tails: Vec<String> = digit_tails("ab0").collect();
        assert_eq!(tails, ["a00", "000"]);
    }

    #[test]
    fn when_stuck_a_floating_input_tries_not_a_number_and_the_infinities() {
        let cur = [JavaValue::Double(1.0), JavaValue::Float(1.0)];
        let cands = seeded(&cur, None, &[], 0);
        assert!(cands.iter().any(|c| matches!(c[0], JavaValue::Double(d) if d.is_nan())), "{cands:?}");
        assert!(cands.iter().any(|c| c[0] == JavaValue::Double(f64::NEG_INFINITY)), "{cands:?}");
        assert!(cands.iter().any(|c| matches!(c[1], JavaValue::Float(f) if f.is_nan())), "{cands:?}");
    }

    #[test]
    fn a_string_steps_to_a_codes_character_at_either_end_into_quotes_and_without_one_of_its_own() {
        let cur = [JavaValue::Str("ab".into())];
        let moves = small_moves(&cur, None, &[JavaValue::Char(u16::from(b'"'))]);
        let strings: Vec<String> = moves
            .iter()
            .filter_map(|m| match apply(&cur, m)?.remove(0) {
                JavaValue::Str(s) => Some(s),
                _ => None,
            })
            .collect();
        for want in ["ab\"", "\"ab", "\"ab\"", "b", "a"] {
            assert!(strings.contains(&want.to_string()), "{want} not among {strings:?}");
        }
    }

    #[test]
    fn an_array_of_strings_steps_to_longer_and_shorter_strings_and_one_more() {
        let strs = |items: &[&str]| JavaValue::Array {
            elem_ty: "String".into(),
            id: 0,
            items: items.iter().map(|s| JavaValue::Str(s.to_string())).collect(),
        };
        let cur = [strs(&["a"])];
        let moves = small_moves(&cur, None, &[JavaValue::Char(u16::from(b'x'))]);
        let arrays: Vec<JavaValue> = moves.iter().filter_map(|m| apply(&cur, m).map(|mut v| v.remove(0))).collect();
        for want in [strs(&["aa"]), strs(&["ax"]), strs(&[""]), strs(&["a", "a"]), strs(&["a", ""]), strs(&[])] {
            assert!(arrays.contains(&want), "{want:?} not among {arrays:?}");
        }
        // A random array of strings holds strings, not only empty ones.
        let mut rng = SplitMix(7);
        let texts: usize = (0..50)
            .map(|_| match random_value(&cur[0], &[], &mut rng) {
                JavaValue::Array { items, .. } => items.iter().filter(|i| **i != JavaValue::Str(String::new())).count(),
                other => panic!("{other:?}"),
            })
            .sum();
        assert!(texts > 0);
    }

    #[test]
    fn a_start_keeps_only_the_first_option_of_each_choice_when_asked() {
        let mut req = start_request();
        req.params = vec![("a".into(), "int".into()), ("b".into(), "Box".into())];
        let choice = |options: Vec<JavaValue>| JavaValue::Choice { slot: None, options };
        let inner = choice(vec![JavaValue::Null, JavaValue::Str("x".into())]);
        req.args = vec![
            choice(vec![JavaValue::Int(1), JavaValue::Int(2)]),
            choice(vec![JavaValue::new_with("Box".into(), vec![("String".into(), inner)]), JavaValue::Null]),
        ];
        assert!(first_options(&mut req));
        assert_eq!(req.args[0], JavaValue::Int(1));
        assert_eq!(req.args[1], JavaValue::new_with("Box".into(), vec![("String".into(), JavaValue::Null)]));
        assert!(!req.has_search_holes());
        // Nothing left to take away.
        assert!(!first_options(&mut req));
    }

    #[test]
    fn an_unreachable_goal_ends_within_the_budget() {
        let b = Budget { time: Duration::from_secs(5), runs: 300, cancel: None };
        let mut runs = 0;
        let found = avm(vec![JavaValue::Int(0), JavaValue::Bool(false)], vec![], b, 1, |cands| {
            runs += cands.len();
            Some((cands.iter().map(|_| nowhere(1)).collect(), vec![]))
        });
        assert_eq!(found, None);
        // One batch may pass the limit, no more.
        assert!(runs < 300 + 600, "{runs}");
    }

    pub(crate) fn start_request() -> TestRequest {
        use jreach_synth::{JUnit, Outcome};
        TestRequest {
            package: None,
            classes: vec!["C".into()],
            method: "m".into(),
            is_static: true,
            is_constructor: false,
            params: vec![],
            args: vec![],
            return_ty: "int".into(),
            outcome: Outcome::Returns(None),
            target_line: 4,
            target_text: "return 1;".into(),
            target_member: None,
            target_action: jreach_syntax::Action::Returns(Some(jreach_syntax::Term::Number("1".into()))),
            path_condition: vec![],
            junit: JUnit::V5,
            receiver_args: vec![],
            receiver_calls: vec![],
            receiver_body: None,
            receiver_fields: None,
            receiver_class: None,
            statics: vec![],
            imports: vec![],
            unmodelled_before_target: None,
            declares_checked: false,
            receiver_call_choices: vec![],
            receiver_factory: None,
            receiver_from: None,
            then_call: None,
            null_casts: Default::default(),
            named_classes: vec![],
            held_by: None,
            initializes_class: false,
            outer: None,
            also_runs: vec![],
        }
    }

    #[test]
    fn jdk_values_the_model_chose_blindly_are_choices_its_own_first() {
        let writer = JavaValue::new_object("StringWriter".into());
        let req = TestRequest {
            params: vec![
                ("zone".into(), "TimeZone".into()),
                ("out".into(), "Writer".into()),
                ("n".into(), "int".into()),
            ],
            args: vec![JavaValue::Null, writer.clone(), JavaValue::Int(2)],
            ..start_request()
        };
        let h = slots(&req);
        let JavaValue::Choice { options, .. } = &h.req.args[0] else { panic!("{:?}", h.req.args[0]) };
        assert_eq!(options[0], JavaValue::Null);
        assert!(options.len() > 2, "the other zones too: {options:?}");
        let JavaValue::Choice { options, .. } = &h.req.args[1] else { panic!("{:?}", h.req.args[1]) };
        // (A writer that fails, for the code handling I/O errors.)
        assert_eq!(options[0], writer);
        assert_eq!(options.len(), 3, "{options:?}");
        assert!(h.req.imports.contains(&"java.util.TimeZone".to_string()));
        // Both choices start at the model's value; the int is a slot as before.
        let found = fill(&h.req, &h.start);
        assert_eq!(found.args, req.args);
    }

    #[test]
    fn a_step_moves_only_the_inputs_the_run_read() {
        let cur = [JavaValue::Int(1), JavaValue::Str("ab".into()), JavaValue::Chosen { index: 0, of: 3 }];
        let moved = |read: Option<&[bool]>| {
            let mut ks: Vec<usize> = small_moves(&cur, read, &[])
                .iter()
                .filter_map(|m| apply(&cur, m))
                .map(|next| (0..cur.len()).find(|k| next[*k] != cur[*k]).expect("a move changes an input"))
                .collect();
            ks.dedup();
            ks
        };
        assert_eq!(moved(None), vec![0, 1, 2]);
        assert_eq!(moved(Some(&[true, false, true])), vec![0, 2]);
        let seeded_ks: Vec<usize> = seeded(&cur, Some(&[false, true, false]), &[JavaValue::Long(7)], 0)
            .iter()
            .map(|next| (0..cur.len()).find(|k| next[*k] != cur[*k]).expect("a change"))
            .collect();
        assert!(!seeded_ks.is_empty() && seeded_ks.iter().all(|k| *k == 1), "{seeded_ks:?}");
    }

    #[test]
    fn classes_the_code_names_are_candidates_in_a_class_choice_inside_a_made_object() {
        // `TypeToken.get(<a Class>)`, made where the classes the code names were not known.
        let class_choice =
            JavaValue::Choice { slot: None, options: vec![JavaValue::Expr("String.class".into()), JavaValue::Null] };
        let token =
            JavaValue::made_by("TypeToken".into(), "TypeToken.get".into(), vec![("Class<?>".into(), class_choice)]);
        let req = TestRequest {
            params: vec![("type".into(), "TypeToken".into())],
            args: vec![JavaValue::Choice { slot: None, options: vec![token, JavaValue::Null] }],
            named_classes: vec!["java.util.Map".into()],
            ..start_request()
        };
        let h = slots(&req);
        let rendered = format!("{:?}", h.req.args[0]);
        let map = rendered.find("java.util.Map.class").expect("the named class is a candidate");
        assert!(rendered.find("String.class").is_some_and(|s| s < map), "after the start's own: {rendered}");
        assert!(rendered[map..].contains("Null"), "before null: {rendered}");
    }

    #[test]
    fn an_array_of_boxes_is_one_slot_unless_it_holds_a_null() {
        let shorts = |items| JavaValue::Array { elem_ty: "Short".into(), id: 1, items };
        let req = TestRequest {
            params: vec![("xs".into(), "Short[]".into())],
            args: vec![shorts(vec![JavaValue::Short(3)])],
            ..start_request()
        };
        let h = slots(&req);
        assert_eq!(h.req.args[0], JavaValue::Slot(0, SlotKind::Array(SlotElem::ShortBox)));
        let text = jreach_synth::render_method(&h.req, "t");
        assert!(text.contains("jreach.runner.Inputs.shortBoxes(0)"), "{text}");
        // The search makes it longer with boxes of the same class, and writes it as the test will.
        let longer = small_moves(&h.start, None, &[]).into_iter().find_map(|m| match m {
            Move::Set(0, v @ JavaValue::Array { .. }) => Some(v),
            _ => None,
        });
        assert_eq!(longer, Some(shorts(vec![JavaValue::Short(3), JavaValue::Short(0)])));
        assert_eq!(fill(&h.req, &h.start), req);
        // A null element cannot be read as a number: the array stays as it is.
        let with_null = TestRequest { args: vec![shorts(vec![JavaValue::Null])], ..req.clone() };
        assert_eq!(slots(&with_null).req.args[0], with_null.args[0]);
    }

    #[test]
    fn an_array_of_objects_holding_strings_is_one_slot_of_strings() {
        let objects = |items| JavaValue::Array { elem_ty: "Object".into(), id: 1, items };
        let req = TestRequest {
            params: vec![("array".into(), "Object[]".into())],
            args: vec![objects(vec![])],
            ..start_request()
        };
        let h = slots(&req);
        assert_eq!(h.req.args[0], JavaValue::Slot(0, SlotKind::Array(SlotElem::Str)));
        let longer = small_moves(&h.start, None, &[]).into_iter().find_map(|m| match m {
            Move::Set(0, v @ JavaValue::Array { .. }) => Some(v),
            _ => None,
        });
        assert_eq!(longer, Some(objects(vec![JavaValue::Str(String::new())])));
        let written = jreach_synth::literal(&fill(&h.req, &[longer.unwrap()]).args[0]);
        assert_eq!(written, "new Object[] {\"\"}");
        // One holding a number is no slot of strings: its number is a slot of its own.
        let with_number = TestRequest { args: vec![objects(vec![JavaValue::Int(1)])], ..req };
        assert_eq!(slots(&with_number).req.args[0], objects(vec![JavaValue::Slot(0, SlotKind::Int)]));
    }

    #[test]
    fn slots_and_fill_round_trip() {
        let req = TestRequest {
            params: vec![("a".into(), "int".into()), ("s".into(), "String".into()), ("xs".into(), "int[]".into())],
            args: vec![
                JavaValue::Int(3),
                JavaValue::Str("x".into()),
                JavaValue::Array { elem_ty: "int".into(), id: 1, items: vec![JavaValue::Int(7), JavaValue::Int(8)] },
            ],
            ..start_request()
        };
        let h = slots(&req);
        // An array of ints is one slot, so that the search can change its length.
        assert_eq!(h.start, vec![JavaValue::Int(3), JavaValue::Str("x".into()), req.args[2].clone()]);
        assert_eq!(h.req.args[0], JavaValue::Slot(0, SlotKind::Int));
        assert_eq!(h.req.args[2], JavaValue::Slot(2, SlotKind::Array(SlotElem::Int)));
        let text = jreach_synth::render_method(&h.req, "t");
        assert!(text.contains("jreach.runner.Inputs.str(1)") && text.contains("jreach.runner.Inputs.is(2)"), "{text}");
        assert_eq!(fill(&h.req, &h.start), req);
        assert_eq!(to_json(&h.start[2]), serde_json::json!([7, 8]));

        // The same array passed twice stays one array: its items are slots of their own.
        let twice = TestRequest {
            args: vec![JavaValue::Int(0), JavaValue::Str("x".into()), req.args[2].clone()],
            ..req.clone()
        };
        let twice = TestRequest {
            params: vec![("a".into(), "int[]".into()), ("b".into(), "int[]".into())],
            args: vec![twice.args[2].clone(), twice.args[2].clone()],
            ..twice
        };
        let h = slots(&twice);
        assert_eq!(h.start.len(), 4, "{:?}", h.start);

        // What an anonymous class's methods return (an annotation's elements) is searched.
        let stub = JavaValue::Stub {
            interface: "Limit".into(),
            methods: vec![jreach_synth::StubMethodValue {
                name: "max".into(),
                params: vec![],
                ret_java: "int".into(),
                returns: Some(JavaValue::Int(4)),
            }],
        };
        let annotated = TestRequest { params: vec![("limit".into(), "Limit".into())], args: vec![stub], ..req.clone() };
        let h = slots(&annotated);
        assert_eq!(h.start, vec![JavaValue::Int(4)]);
        let text = jreach_synth::render_method(&h.req, "t");
        assert!(text.contains("return jreach.runner.Inputs.i(0);"), "{text}");
        assert_eq!(fill(&h.req, &h.start), annotated);
        // What a lambda returns, too.
        let lambda = JavaValue::Lambda {
            interface: "IntSupplier".into(),
            arity: 0,
            returns: Some(Box::new(("int".into(), JavaValue::Int(7)))),
            special: vec![],
        };
        let given = TestRequest { params: vec![("s".into(), "IntSupplier".into())], args: vec![lambda], ..req.clone() };
        let h = slots(&given);
        assert_eq!(h.start, vec![JavaValue::Int(7)]);
        let text = jreach_synth::render_method(&h.req, "t");
        assert!(text.contains("() -> jreach.runner.Inputs.i(0)"), "{text}");
        assert_eq!(fill(&h.req, &h.start), given);
    }

    #[test]
    fn a_stream_that_fails_is_left_out_where_no_code_catches_its_failure() {
        let req = TestRequest {
            params: vec![("in".into(), "Reader".into())],
            args: vec![JavaValue::Null],
            ..start_request()
        };
        let mut h = slots(&req);
        let JavaValue::Choice { options, slot: Some(k) } = &h.req.args[0] else { panic!("{:?}", h.req.args[0]) };
        assert!(options.iter().any(jreach_synth::is_failing_io), "{options:?}");
        let k = *k;
        drop_options(&mut h, jreach_synth::is_failing_io);
        let JavaValue::Choice { options, .. } = &h.req.args[0] else { panic!() };
        assert!(!options.iter().any(jreach_synth::is_failing_io), "{options:?}");
        assert_eq!(h.start[k], JavaValue::Chosen { index: 0, of: options.len() });
    }

    #[test]
    fn a_choice_is_one_input_and_its_options_values_are_inputs_after_it() {
        let big = |n: i64| JavaValue::Constructed {
            class: "BigInteger".into(),
            args: vec![("long".into(), JavaValue::Long(n))],
            calls: vec![],
            choices: vec![],
            body: None,
            factory: Some("BigInteger.valueOf".into()),
            builder: None,
            cast_args: false,
        };
        let choice = JavaValue::Choice {
            slot: None,
            options: vec![JavaValue::Expr("Locale.US".into()), big(1), JavaValue::Null],
        };
        let req = TestRequest {
            params: vec![("o".into(), "Object".into()), ("n".into(), "int".into())],
            args: vec![choice, JavaValue::Int(4)],
            ..start_request()
        };
        let h = slots(&req);
        assert_eq!(h.start, vec![JavaValue::Chosen { index: 0, of: 3 }, JavaValue::Long(1), JavaValue::Int(4)]);
        let text = jreach_synth::render_method(&h.req, "t");
        assert!(
            text.contains("switch (Math.floorMod(jreach.runner.Inputs.i(0), 3)) { case 0 -> Locale.US; case 1 -> BigInteger.valueOf(jreach.runner.Inputs.j(1)); default -> null; }"),
            "{text}"
        );
        assert_eq!(to_json(&h.start[0]), serde_json::json!(0));
        // The search picks the second option and moves the number inside it.
        let picked = vec![JavaValue::Chosen { index: 1, of: 3 }, JavaValue::Long(99), JavaValue::Int(4)];
        assert_eq!(fill(&h.req, &picked).args, vec![big(99), JavaValue::Int(4)]);
        assert!(req.has_search_holes() && h.req.has_search_holes() && !fill(&h.req, &picked).has_search_holes());
        // Small moves try every other option.
        let moves = small_moves(&h.start, None, &[]);
        for index in [1, 2] {
            assert!(moves.contains(&Move::Set(0, JavaValue::Chosen { index, of: 3 })), "{moves:?}");
        }
    }

    #[test]
    fn calls_on_the_receiver_are_chosen_and_become_its_calls() {
        let calls =
            vec![JavaCall::new("pop", vec![]), JavaCall::new("push", vec![("int".to_string(), JavaValue::Int(1))])];
        let place = jreach_synth::CallChoice { slot: None, calls };
        let req =
            TestRequest { is_static: false, receiver_call_choices: vec![place.clone(), place], ..start_request() };
        let h = slots(&req);
        let none = JavaValue::Chosen { index: 0, of: 3 };
        assert_eq!(h.start, vec![none.clone(), JavaValue::Int(1), none, JavaValue::Int(1)]);
        let text = jreach_synth::render_method(&h.req, "t");
        assert!(
            text.contains(
                "switch (Math.floorMod(jreach.runner.Inputs.i(2), 3)) { case 1 -> obj.pop(); \
                 case 2 -> obj.push(jreach.runner.Inputs.i(3)); default -> { } }"
            ),
            "{text}"
        );
        // Push 7, then nothing: one call, and no choices left in the test.
        let picked = vec![
            JavaValue::Chosen { index: 2, of: 3 },
            JavaValue::Int(7),
            JavaValue::Chosen { index: 0, of: 3 },
            JavaValue::Int(1),
        ];
        let test = fill(&h.req, &picked);
        assert_eq!(test.receiver_calls, vec![JavaCall::new("push", vec![("int".to_string(), JavaValue::Int(7))])]);
        assert!(test.receiver_call_choices.is_empty());
        assert!(h.req.has_search_holes() && !test.has_search_holes());
        assert!(!jreach_synth::render_method(&test, "t").contains("switch"));
    }

    #[test]
    fn a_call_returning_a_changed_copy_is_what_the_calls_after_it_are_made_on() {
        let with = JavaCall {
            method: "withLimit".into(),
            args: vec![("int".to_string(), JavaValue::Int(1))],
            returns_copy: true,
        };
        let place = jreach_synth::CallChoice { slot: None, calls: vec![with, JavaCall::new("pop", vec![])] };
        let req =
            TestRequest { is_static: false, receiver_call_choices: vec![place.clone(), place], ..start_request() };
        let h = slots(&req);
        let text = jreach_synth::render_method(&h.req, "t");
        // A harness assigns the copy to the object's local (an arm declares nothing).
        assert!(text.contains("case 1 -> obj = obj.withLimit(jreach.runner.Inputs.i(1));"), "{text}");
        let picked = vec![
            JavaValue::Chosen { index: 1, of: 3 },
            JavaValue::Int(4),
            JavaValue::Chosen { index: 2, of: 3 },
            JavaValue::Int(1),
        ];
        let test = jreach_synth::render_method(&fill(&h.req, &picked), "t");
        // The test keeps the copy in a local of its own, which the call under test is made on.
        let class = start_request().classes.join(".");
        assert!(text.contains(&format!("{class} obj = ")), "{text}");
        assert!(test.contains(&format!("{class} obj2 = obj.withLimit(4);")), "{test}");
        assert!(test.contains("obj2.pop();"), "{test}");
        assert!(test.contains(&format!("obj2.{}(", start_request().method)), "{test}");
    }

    #[test]
    fn calls_on_a_created_parameter_are_chosen_and_become_its_calls() {
        let calls = vec![JavaCall::new("add", vec![("String".to_string(), JavaValue::Str("a".into()))])];
        let options = JavaValue::Constructed {
            class: "Options".into(),
            args: vec![],
            calls: vec![],
            choices: vec![jreach_synth::CallChoice { slot: None, calls }],
            body: None,
            factory: None,
            builder: None,
            cast_args: false,
        };
        let req = TestRequest {
            params: vec![("options".into(), "Options".into()), ("n".into(), "int".into())],
            args: vec![options, JavaValue::Int(3)],
            ..start_request()
        };
        let h = slots(&req);
        assert_eq!(h.start, vec![JavaValue::Int(3), JavaValue::Chosen { index: 0, of: 2 }, JavaValue::Str("a".into())]);
        let text = jreach_synth::render_method(&h.req, "t");
        assert!(text.contains("Options options = new Options();"), "{text}");
        assert!(
            text.contains(
                "switch (Math.floorMod(jreach.runner.Inputs.i(1), 2)) { case 1 -> options.add(jreach.runner.Inputs.str(2)); default -> { } }"
            ),
            "{text}"
        );
        // The search picks the call with "-v": the test calls it, and chooses nothing.
        let picked = vec![JavaValue::Int(3), JavaValue::Chosen { index: 1, of: 2 }, JavaValue::Str("-v".into())];
        let test = fill(&h.req, &picked);
        let text = jreach_synth::render_method(&test, "t");
        assert!(text.contains("Options options = new Options();\n") && text.contains("options.add(\"-v\");"), "{text}");
        assert!(!text.contains("switch") && !test.has_search_holes(), "{text}");
    }

    #[test]
    fn seeds_are_shared_among_the_inputs_and_bounded() {
        // A class full of constants (a cipher's tables) and a long input vector.
        let cur = vec![JavaValue::Int(0); 40];
        let seeds: Vec<JavaValue> = (0..20_000).map(JavaValue::Long).collect();
        let began = Instant::now();
        let cands = seeded(&cur, None, &seeds, 0);
        assert!(began.elapsed() < Duration::from_secs(2), "{:?}", began.elapsed());
        assert!(cands.len() <= SEEDED_MAX && cands.len() >= 40 * 12, "{}", cands.len());
        for k in 0..40 {
            assert!(cands.iter().any(|c| c[k] != JavaValue::Int(0)), "input {k} got no seed");
        }
    }

    #[test]
    fn a_two_dimensional_array_is_one_input_whose_rows_and_columns_move() {
        let row = |xs: &[i32]| JavaValue::Array {
            elem_ty: "int".into(),
            id: 0,
            items: xs.iter().map(|x| JavaValue::Int(*x)).collect(),
        };
        let grid = JavaValue::Array { elem_ty: "int[]".into(), id: 1, items: vec![row(&[1, 2]), row(&[3, 4])] };
        let req = TestRequest {
            params: vec![("grid".into(), "int[][]".into())],
            args: vec![grid.clone()],
            ..start_request()
        };
        let h = slots(&req);
        assert_eq!(h.req.args[0], JavaValue::Slot(0, SlotKind::Matrix(SlotElem::Int)));
        assert!(jreach_synth::render_method(&h.req, "t").contains("jreach.runner.Inputs.iss(0)"));
        assert_eq!(to_json(&h.start[0]), serde_json::json!([[1, 2], [3, 4]]));
        assert_eq!(fill(&h.req, &h.start).args[0], grid);
        let moves = matrix_moves(&grid);
        let shape = |v: &JavaValue| match v {
            JavaValue::Array { items, .. } => items
                .iter()
                .map(|r| match r {
                    JavaValue::Array { items, .. } => items.len(),
                    _ => 0,
                })
                .collect::<Vec<_>>(),
            _ => vec![],
        };
        let shapes: Vec<Vec<usize>> = moves.iter().map(shape).collect();
        for expected in [vec![2, 2, 2], vec![3, 3, 3], vec![2], vec![1, 1]] {
            assert!(shapes.contains(&expected), "{expected:?} in {shapes:?}");
        }
        assert!(moves.contains(&JavaValue::Array {
            elem_ty: "int[]".into(),
            id: 1,
            items: vec![row(&[1, 2]), row(&[3, 5])]
        }));
    }

    #[test]
    fn shrinking_goes_over_the_inputs_again_while_one_gets_simpler() {
        // `a % b == 0 && b != 1`: `a` cannot shrink past a multiple of `b` until `b` has.
        let found =
            Found { values: vec![JavaValue::Int(-24), JavaValue::Int(-24), JavaValue::Double(49153.47)], runs: 0 };
        let shrunk = shrink(found, &mut |cands: &[Vec<JavaValue>]| {
            let fits = cands.iter().map(|c| {
                let (JavaValue::Int(a), JavaValue::Int(b), JavaValue::Double(d)) = (&c[0], &c[1], &c[2]) else {
                    panic!()
                };
                let hit = *b != 0 && a % b == 0 && *b != 1 && *d > 2.5;
                Fitness { hit, started: false, divergence: None, lines: 1, size: 0, novel: 0, read: None }
            });
            Some((fits.collect(), vec![]))
        });
        assert_eq!(shrunk.values, vec![JavaValue::Int(0), JavaValue::Int(-1), JavaValue::Double(3.0)]);
    }

    #[test]
    fn a_long_string_shrinks_by_pieces_within_the_shrinking_runs() {
        // `write(str, 21, 3)` needs 24 characters: 2,048 found, 24 kept.
        let found = Found { values: vec![JavaValue::Str(format!("{}x", "1".repeat(2048)))], runs: 0 };
        let shrunk = shrink(found, &mut |cands: &[Vec<JavaValue>]| {
            let fits = cands.iter().map(|c| {
                let s = text(&c[0]);
                Fitness { hit: s.chars().count() >= 24, ..nowhere(1) }
            });
            Some((fits.collect(), vec![]))
        });
        let JavaValue::Str(s) = &shrunk.values[0] else { panic!() };
        assert_eq!(s.chars().count(), 24, "{s}");
        assert!(shrunk.runs <= SHRINK_RUNS + CUTS_PER_SIZE, "{} runs", shrunk.runs);
    }

    #[test]
    fn cells_of_a_matrix_and_doubles_of_an_array_shrink() {
        let row = |xs: &[f64]| JavaValue::Array {
            elem_ty: "double".into(),
            id: 0,
            items: xs.iter().map(|x| JavaValue::Double(*x)).collect(),
        };
        let m = JavaValue::Array { elem_ty: "double[]".into(), id: 1, items: vec![row(&[8.0, 3.5, 7.0])] };
        let xs = row(&[0.25, 49153.47]);
        let found = Found { values: vec![m, xs], runs: 0 };
        // The first cell above 2.5, and the array's last element above 2.5.
        let shrunk = shrink(found, &mut |cands: &[Vec<JavaValue>]| {
            let first = |v: &JavaValue| match v {
                JavaValue::Array { items, .. } => items.first().cloned(),
                _ => None,
            };
            let fits = cands.iter().map(|c| {
                let cell = first(&c[0]).and_then(|r| first(&r));
                let last = match &c[1] {
                    JavaValue::Array { items, .. } => items.last().cloned(),
                    _ => None,
                };
                let big = |v: Option<JavaValue>| matches!(v, Some(JavaValue::Double(d)) if d > 2.5);
                Fitness { hit: big(cell) && big(last), ..nowhere(1) }
            });
            Some((fits.collect(), vec![]))
        });
        assert_eq!(shrunk.values[0], JavaValue::Array { elem_ty: "double[]".into(), id: 1, items: vec![row(&[3.0])] });
        assert_eq!(shrunk.values[1], row(&[3.0]));
    }

    #[test]
    fn the_search_keeps_the_earliest_option_that_runs_the_target() {
        // Options 2 and 4 run the target; the search may find 4 first, and keeps 2.
        let start = vec![JavaValue::Chosen { index: 0, of: 5 }];
        let found = avm(start, vec![], budget(), 3, |cands| {
            let fits = cands.iter().map(|c| match c[0] {
                JavaValue::Chosen { index: 2 | 4, .. } => reached(2),
                _ => Fitness {
                    hit: false,
                    started: false,
                    divergence: Some((1.0, 0.5)),
                    lines: 1,
                    size: 0,
                    novel: 0,
                    read: None,
                },
            });
            Some((fits.collect(), vec![]))
        })
        .expect("found");
        assert_eq!(found.values, vec![JavaValue::Chosen { index: 2, of: 5 }]);
    }

    #[test]
    fn arrays_grow_and_their_elements_move() {
        // `a.length >= 3 && a[2] == 40` guards the target.
        let start = vec![JavaValue::Array { elem_ty: "int".into(), id: -1, items: vec![] }];
        let found = avm(start, vec![], budget(), 5, |cands| {
            let fits = cands.iter().map(|c| {
                let JavaValue::Array { items, .. } = &c[0] else { panic!() };
                match items.get(2) {
                    Some(JavaValue::Int(40)) => reached(3),
                    Some(JavaValue::Int(x)) => {
                        let d = (i64::from(*x) - 40).abs() as f64;
                        diverged(2.0, d / (d + 1.0), 2)
                    }
                    _ => {
                        let d = (3 - items.len()) as f64;
                        diverged(5.0, d / (d + 1.0), 1)
                    }
                }
            });
            Some((fits.collect(), vec![]))
        })
        .expect("found");
        let JavaValue::Array { items, .. } = &found.values[0] else { panic!() };
        assert_eq!(items.get(2), Some(&JavaValue::Int(40)), "{items:?}");
        // Shrunk: no element past the one the line needs, the others zero.
        assert_eq!(items, &vec![JavaValue::Int(0), JavaValue::Int(0), JavaValue::Int(40)]);
    }
}
