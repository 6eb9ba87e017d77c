//! Collections of the JDK that synthesis models as parameters: `List<E>` as `List.of(...)`
//! with up to [`LIST_CAPACITY`] elements, `Map<K, V>` as `Map.of(...)` with up to
//! [`MAP_CAPACITY`] entries. The elements are inputs; calls on the collection (`size`, `get`,
//! `contains`, `containsKey`, enhanced for) become selects over them. Lists and maps the method
//! creates (`new ArrayList<>()` for a `List<E>` local, `new HashMap<>()`) start empty. A collection that is neither ends the
//! path, so a replayed model never depends on one jreach did not create.

use jreach_syntax::Node;

use super::{named_children, split_type_args, widens, ListModel, Lowerer, MapModel};
use crate::func::*;
use crate::types::{Const, Ty};

impl<'t> Lowerer<'t> {
    /// After a null check on `o`, ends the path unless `o` is one of `objs` (a collection or a
    /// lambda from elsewhere is not modelled); `false`, with the path ended as unsupported, when
    /// there are none.
    pub(super) fn guard_one_of(&mut self, o: ValueId, objs: &[ValueId], what: &str, e: Node<'t>) -> bool {
        if objs.is_empty() {
            self.unsupported(what.to_string());
            return false;
        }
        self.check_object_not_null(o, e);
        let mut other = self.konst(Const::Bool(true));
        for obj in objs {
            let obj = self.known_object(*obj);
            let differs = self.bin(BinOp::Ne, o, obj);
            other = self.bin(BinOp::And, other, differs);
        }
        self.cut_if(other, what);
        true
    }

    /// A list, map or optional the lowering knows, to compare with in the current block. One the
    /// method creates is the constant of its allocation, which may have been emitted on another
    /// path lowered earlier (a block that need not come before this one): the same constant is
    /// emitted again here, so that every use follows its definition.
    pub(super) fn known_object(&mut self, obj: ValueId) -> ValueId {
        match self.b.func().value(obj).op {
            Op::Obj(ObjOp::Ref(id), ref args) if args.is_empty() => {
                let ty = self.ty(obj);
                self.emit(Op::Obj(ObjOp::Ref(id), vec![]), ty, None)
            }
            _ => obj,
        }
    }

    /// Whether `o` is the known object `obj` (see [`Self::known_object`]).
    pub(super) fn is_object(&mut self, o: ValueId, obj: ValueId) -> ValueId {
        let obj = self.known_object(obj);
        self.bin(BinOp::Eq, o, obj)
    }

    /// `f(x)` for the `x` of `items` whose object (`obj(x)`) `o` is, as a chain of selects.
    pub(super) fn select_by_object<T>(
        &mut self,
        o: ValueId,
        items: &[T],
        obj: fn(&T) -> ValueId,
        f: &dyn Fn(&mut Self, &T) -> ValueId,
    ) -> ValueId {
        let mut v = f(self, items.last().expect("at least one"));
        for x in items.iter().rev().skip(1) {
            let value = f(self, x);
            let known = self.known_object(obj(x));
            let same = self.bin(BinOp::Eq, o, known);
            v = self.select(same, value, v);
        }
        v
    }

    /// The list parameters `o` may be (see [`Self::guard_one_of`]).
    fn lists_of(&mut self, o: ValueId, e: Node<'t>) -> Option<Vec<ListModel>> {
        let lists = self.lists.clone();
        let objs: Vec<ValueId> = lists.iter().map(|l| l.obj).collect();
        self.guard_one_of(o, &objs, "a List that is not a parameter", e).then_some(lists)
    }

    /// `f(list)` of the list `o` is.
    fn per_list(&mut self, o: ValueId, lists: &[ListModel], f: &dyn Fn(&mut Self, &ListModel) -> ValueId) -> ValueId {
        self.select_by_object(o, lists, |l| l.obj, f)
    }

    /// The current size of a list.
    fn list_size(&mut self, l: &ListModel) -> ValueId {
        self.read(l.size)
    }

    /// Element `i` of a list (0 <= i < size checked by the caller).
    fn list_element_at(&mut self, l: &ListModel, i: ValueId) -> ValueId {
        let last = *l.elems.last().expect("a list has slots");
        let mut v = self.read(last);
        for (k, x) in l.elems.iter().enumerate().rev().skip(1) {
            let kk = self.int(Ty::Int, k as i64);
            let is_k = self.bin(BinOp::Eq, i, kk);
            let x = self.read(*x);
            v = self.select(is_k, x, v);
        }
        v
    }

    /// The element type of `new ArrayList<>()` (or `LinkedList`, no arguments) assigned to a
    /// local declared `List<E>`, or `new ArrayList<E>()`, when synthesis models such lists: E a
    /// string, a boxed type, an enum or one of the file's classes.
    pub(super) fn new_list_type(&self, e: Node<'t>) -> Option<Ty> {
        let elem = self.created_type_args(e, &["ArrayList", "LinkedList"], "List")?;
        match self.ty_of(&elem) {
            Ty::Str => Some(Ty::Str),
            Ty::Obj(c) if !self.classes.descs[c as usize].is_list() && !self.classes.descs[c as usize].is_map() => {
                Some(Ty::Obj(c))
            }
            _ => None,
        }
    }

    /// The key and value types of `new HashMap<>()` (or `LinkedHashMap`, `TreeMap`, no
    /// arguments) assigned to a local declared `Map<K, V>`, or with its type arguments written,
    /// when synthesis models such maps: K a string, a boxed type or an enum; V a string or an
    /// object.
    pub(super) fn new_map_types(&self, e: Node<'t>) -> Option<(Ty, Ty)> {
        let args = self.created_type_args(e, &["HashMap", "LinkedHashMap", "TreeMap"], "Map")?;
        let (k, v) = split_type_args(&args)?;
        let (k, v) = (self.ty_of(k), self.ty_of(v));
        let key_ok = match k {
            Ty::Str => true,
            Ty::Obj(c) => self.classes.descs[c as usize].boxes.is_some() || self.classes.descs[c as usize].is_enum(),
            _ => false,
        };
        let value_ok = match v {
            Ty::Str => true,
            Ty::Obj(c) => !self.classes.descs[c as usize].is_list() && !self.classes.descs[c as usize].is_map(),
            _ => false,
        };
        (key_ok && value_ok).then_some((k, v))
    }

    /// The type arguments of `new C<...>()` (no arguments, no body) when `C` is one of `classes`
    /// (simple or under `java.util.`); for `new C<>()`, those of the local being declared when
    /// its type is `interface<...>` (`List<String> xs = new ArrayList<>()`).
    fn created_type_args(&self, e: Node<'t>, classes: &[&str], interface: &str) -> Option<String> {
        if e.child_by_field_name("body").is_some()
            || e.child_by_field_name("arguments").is_some_and(|a| !named_children(a).is_empty())
        {
            return None;
        }
        let ty = self.text(e.child_by_field_name("type")?);
        let (base, args) = ty.split_once('<').map(|(b, a)| (b.trim(), a)).unwrap_or((ty.trim(), ""));
        if !classes.contains(&base.strip_prefix("java.util.").unwrap_or(base)) {
            return None;
        }
        let args = args.trim().trim_end_matches('>').trim();
        if !args.is_empty() {
            return Some(args.to_string());
        }
        let (decl_base, decl_args) = self.declared_java.as_deref()?.split_once('<')?;
        let decl_base = decl_base.trim();
        if decl_base.strip_prefix("java.util.").unwrap_or(decl_base) != interface {
            return None;
        }
        Some(decl_args.trim().strip_suffix('>')?.trim().to_string())
    }

    /// A new empty map the method creates (synthesis): it may grow to
    /// [`MAP_GROWN_CAPACITY`] entries.
    pub(super) fn new_map(&mut self, key_ty: Ty, value_ty: Ty, e: Node<'t>) -> ValueId {
        let Some(&c) = self.classes.by_name.get(MAP_CLASS) else {
            self.unsupported("a map where the file declares its own Map class");
            return self.opaque("a new map".into(), Ty::Ref, None);
        };
        let id = self.next_alloc;
        self.next_alloc -= 1;
        let obj = self.emit(Op::Obj(ObjOp::Ref(id), vec![]), Ty::Obj(c), Some(e));
        let size = self.b.new_var("new map.size", Ty::Int);
        let zero = self.int(Ty::Int, 0);
        self.assign(size, zero);
        let (mut keys, mut values) = (Vec::new(), Vec::new());
        for j in 0..MAP_GROWN_CAPACITY {
            let k = self.b.new_var(&format!("new map.key{j}"), key_ty);
            let z = self.zero_of(key_ty);
            self.assign(k, z);
            keys.push(k);
            let w = self.b.new_var(&format!("new map.value{j}"), value_ty);
            let z = self.zero_of(value_ty);
            self.assign(w, z);
            values.push(w);
        }
        // Not a parameter: no `Setup::map_params` entry to mark as changed.
        self.maps.push(MapModel { obj, size, keys, values, key_ty, value_ty, param: usize::MAX });
        obj
    }

    /// A new empty list the method creates (synthesis): it may grow to
    /// [`LIST_GROWN_CAPACITY`] elements.
    pub(super) fn new_list(&mut self, elem_ty: Ty, e: Node<'t>) -> ValueId {
        let Some(&c) = self.classes.by_name.get(LIST_CLASS) else {
            self.unsupported("a list where the file declares its own List class");
            return self.opaque("a new list".into(), Ty::Ref, None);
        };
        let id = self.next_alloc;
        self.next_alloc -= 1;
        let obj = self.emit(Op::Obj(ObjOp::Ref(id), vec![]), Ty::Obj(c), Some(e));
        let size = self.b.new_var("new list.size", Ty::Int);
        let zero = self.int(Ty::Int, 0);
        self.assign(size, zero);
        let mut elems = Vec::new();
        for k in 0..LIST_GROWN_CAPACITY {
            let var = self.b.new_var(&format!("new list[{k}]"), elem_ty);
            let z = self.zero_of(elem_ty);
            self.assign(var, z);
            elems.push(var);
        }
        // Not a parameter: no `Setup::list_params` entry to mark as changed.
        self.lists.push(ListModel { obj, size, elems, elem_ty, param: usize::MAX });
        obj
    }

    /// Records that the method may change the lists `o` may be: the test passes them as
    /// `new ArrayList<>(...)`.
    fn mark_mutated(&mut self, lists: &[ListModel]) {
        for l in lists {
            if let Some(p) = self.b.setup_mut().list_params.get_mut(l.param) {
                p.mutated = true;
            }
        }
    }

    /// `o.add(x)`: appends `x` to whichever list `o` is (a path that would grow it past
    /// [`LIST_GROWN_CAPACITY`] ends).
    fn list_add(&mut self, o: ValueId, lists: &[ListModel], x: ValueId) {
        self.mark_mutated(lists);
        for l in lists {
            let is_l = self.is_object(o, l.obj);
            let size = self.list_size(l);
            let cap = self.int(Ty::Int, l.elems.len() as i64);
            let full = self.bin(BinOp::Ge, size, cap);
            let overflow = self.bin(BinOp::And, is_l, full);
            self.cut_if_narrowed(overflow, &format!("a List grows past {LIST_GROWN_CAPACITY} elements"));
            for (k, var) in l.elems.iter().enumerate() {
                let kk = self.int(Ty::Int, k as i64);
                let at_k = self.bin(BinOp::Eq, size, kk);
                let here = self.bin(BinOp::And, is_l, at_k);
                let old = self.read(*var);
                let v = self.select(here, x, old);
                self.assign(*var, v);
            }
            let one = self.int(Ty::Int, 1);
            let grown = self.bin(BinOp::Add, size, one);
            let v = self.select(is_l, grown, size);
            self.assign(l.size, v);
        }
    }

    /// `o.set(i, x)` (0 <= i < size checked by the caller): the element it replaces.
    fn list_set(&mut self, o: ValueId, lists: &[ListModel], i: ValueId, x: ValueId) -> ValueId {
        self.mark_mutated(lists);
        let old = self.per_list(o, lists, &|lw, l| lw.list_element_at(l, i));
        for l in lists {
            let is_l = self.is_object(o, l.obj);
            for (k, var) in l.elems.iter().enumerate() {
                let kk = self.int(Ty::Int, k as i64);
                let at_k = self.bin(BinOp::Eq, i, kk);
                let here = self.bin(BinOp::And, is_l, at_k);
                let cur = self.read(*var);
                let v = self.select(here, x, cur);
                self.assign(*var, v);
            }
        }
        old
    }

    /// Removes element `i` of whichever list `o` is, when `when` holds (`0 <= i < size` there):
    /// the elements after it move down one place.
    fn list_remove_at(&mut self, o: ValueId, lists: &[ListModel], i: ValueId, when: ValueId) {
        self.mark_mutated(lists);
        for l in lists {
            let is_l = self.is_object(o, l.obj);
            let act = self.bin(BinOp::And, is_l, when);
            for k in 0..l.elems.len() {
                let Some(next) = l.elems.get(k + 1) else { break };
                let kk = self.int(Ty::Int, k as i64);
                let from_i = self.bin(BinOp::Ge, kk, i);
                let here = self.bin(BinOp::And, act, from_i);
                let cur = self.read(l.elems[k]);
                let after = self.read(*next);
                let v = self.select(here, after, cur);
                self.assign(l.elems[k], v);
            }
            let size = self.list_size(l);
            let one = self.int(Ty::Int, 1);
            let shrunk = self.bin(BinOp::Sub, size, one);
            let v = self.select(act, shrunk, size);
            self.assign(l.size, v);
        }
    }

    /// Raises IndexOutOfBoundsException unless `0 <= i < size` of the list `o` is.
    fn check_list_index(&mut self, o: ValueId, lists: &[ListModel], i: ValueId, e: Node<'t>) {
        let size = self.per_list(o, lists, &|lw, l| lw.list_size(l));
        let zero = self.int(Ty::Int, 0);
        let neg = self.bin(BinOp::Lt, i, zero);
        let past = self.bin(BinOp::Ge, i, size);
        let bad = self.bin(BinOp::Or, neg, past);
        self.raise_if(bad, "IndexOutOfBoundsException", e);
    }

    /// `o.name(args)` on a list parameter (synthesis): size, isEmpty, get, contains, add, set,
    /// remove (by index, and strings by value), clear.
    pub(super) fn list_call(
        &mut self,
        o: ValueId,
        name: &str,
        args: &[ValueId],
        e: Node<'t>,
        hint: Option<Ty>,
    ) -> ValueId {
        let unknown_ty = hint.unwrap_or(Ty::Ref);
        let Some(lists) = self.lists_of(o, e) else { return self.opaque(format!("List.{name}"), unknown_ty, None) };
        let same_elems = lists.iter().all(|l| l.elem_ty == lists[0].elem_ty);
        let elem_ty = lists[0].elem_ty;
        let index_arg =
            |lw: &Self, i: usize| args.get(i).is_some_and(|a| lw.ty(*a).is_integral() && lw.ty(*a) != Ty::Long);
        // An element argument: of the element type, or a primitive that boxes to it.
        let elem_arg = |lw: &Self, i: usize| {
            let boxes = match elem_ty {
                Ty::Obj(c) => lw.classes.descs[c as usize].boxes,
                _ => None,
            };
            same_elems
                && args.get(i).is_some_and(|a| lw.ty(*a) == elem_ty || boxes.is_some_and(|p| widens(lw.ty(*a), p)))
        };
        match (name, args.len()) {
            ("size", 0) => self.per_list(o, &lists, &|lw, l| lw.list_size(l)),
            ("isEmpty", 0) => {
                let size = self.per_list(o, &lists, &|lw, l| lw.list_size(l));
                let zero = self.int(Ty::Int, 0);
                self.bin(BinOp::Eq, size, zero)
            }
            ("get", 1) if same_elems && index_arg(self, 0) => {
                let i = self.convert(args[0], Ty::Int);
                self.check_list_index(o, &lists, i, e);
                self.per_list(o, &lists, &|lw, l| lw.list_element_at(l, i))
            }
            ("contains", 1) if same_elems && elem_ty == Ty::Str && self.ty(args[0]) == Ty::Str => {
                // `List.of(...).contains(null)` throws and an ArrayList's does not: left out.
                let x = args[0];
                let is_null = self.emit(Op::Str(StrOp::IsNull, vec![x]), Ty::Bool, None);
                self.cut_if(is_null, "List.contains(null)");
                self.per_list(o, &lists, &|lw, l| {
                    let size = lw.list_size(l);
                    let mut found = lw.konst(Const::Bool(false));
                    for (k, var) in l.elems.iter().enumerate() {
                        let kk = lw.int(Ty::Int, k as i64);
                        let inside = lw.bin(BinOp::Lt, kk, size);
                        let el = lw.read(*var);
                        let eq = lw.emit(Op::Str(StrOp::Equals, vec![x, el]), Ty::Bool, None);
                        let hit = lw.bin(BinOp::And, inside, eq);
                        found = lw.bin(BinOp::Or, found, hit);
                    }
                    found
                })
            }
            ("add", 1) if elem_arg(self, 0) => {
                let x = self.convert(args[0], elem_ty);
                self.list_add(o, &lists, x);
                self.konst(Const::Bool(true))
            }
            ("set", 2) if index_arg(self, 0) && elem_arg(self, 1) => {
                let i = self.convert(args[0], Ty::Int);
                let x = self.convert(args[1], elem_ty);
                self.check_list_index(o, &lists, i, e);
                self.list_set(o, &lists, i, x)
            }
            ("remove", 1) if same_elems && index_arg(self, 0) => {
                // `remove(int)`: the element at the index, which goes.
                let i = self.convert(args[0], Ty::Int);
                self.check_list_index(o, &lists, i, e);
                let old = self.per_list(o, &lists, &|lw, l| lw.list_element_at(l, i));
                let yes = self.konst(Const::Bool(true));
                self.list_remove_at(o, &lists, i, yes);
                old
            }
            ("remove", 1) if same_elems && elem_ty == Ty::Str && self.ty(args[0]) == Ty::Str => {
                // `remove(Object)` on strings: the first equal element goes; whether one did.
                let x = args[0];
                let is_null = self.emit(Op::Str(StrOp::IsNull, vec![x]), Ty::Bool, None);
                self.cut_if_narrowed(is_null, "List.remove(null)");
                let found = self.per_list(o, &lists, &|lw, l| {
                    let size = lw.list_size(l);
                    let mut at = lw.int(Ty::Int, l.elems.len() as i64);
                    for (k, var) in l.elems.iter().enumerate().rev() {
                        let kk = lw.int(Ty::Int, k as i64);
                        let inside = lw.bin(BinOp::Lt, kk, size);
                        let el = lw.read(*var);
                        let eq = lw.emit(Op::Str(StrOp::Equals, vec![x, el]), Ty::Bool, None);
                        let hit = lw.bin(BinOp::And, inside, eq);
                        at = lw.select(hit, kk, at);
                    }
                    at
                });
                let size = self.per_list(o, &lists, &|lw, l| lw.list_size(l));
                let present = self.bin(BinOp::Lt, found, size);
                self.list_remove_at(o, &lists, found, present);
                present
            }
            ("clear", 0) => {
                self.mark_mutated(&lists);
                for l in &lists {
                    let is_l = self.is_object(o, l.obj);
                    let size = self.list_size(l);
                    let zero = self.int(Ty::Int, 0);
                    let v = self.select(is_l, zero, size);
                    self.assign(l.size, v);
                }
                self.opaque("no value (void)".into(), Ty::Void, None)
            }
            _ => {
                self.unsupported(format!("List.{name} with these arguments is not modelled yet"));
                self.opaque(format!("List.{name}"), unknown_ty, None)
            }
        }
    }

    /// `for (T x : list)` over a list parameter (synthesis). Changing the list inside the loop
    /// makes Java's iterator throw; such paths end.
    pub(super) fn list_for(&mut self, s: Node<'t>, o: ValueId, label: Option<String>) {
        let Some(lists) = self.lists_of(o, s) else { return };
        if lists.iter().any(|l| l.elem_ty != lists[0].elem_ty) {
            self.unsupported("iterating lists of different element types");
            return;
        }
        let len = self.per_list(o, &lists, &|lw, l| lw.list_size(l));
        let for_load = lists.clone();
        let load = move |lw: &mut Self, i: ValueId| lw.per_list(o, &for_load, &|lw, l| lw.list_element_at(l, i));
        let after = move |lw: &mut Self| {
            let now = lw.per_list(o, &lists, &|lw, l| lw.list_size(l));
            let changed = lw.bin(BinOp::Ne, now, len);
            lw.cut_if_narrowed(changed, "a List changed while it is iterated");
        };
        let elem_ty = self.lists[0].elem_ty;
        self.indexed_for(s, len, elem_ty, &load, Some(&after), label);
    }

    /// Whether `v` (a string, an array or an object reference) is null.
    pub(super) fn is_null(&mut self, v: ValueId) -> ValueId {
        match self.ty(v) {
            Ty::Str => self.emit(Op::Str(StrOp::IsNull, vec![v]), Ty::Bool, None),
            Ty::Arr(a) => {
                let null = self.emit(Op::Arr(ArrOp::Ref(0), vec![]), Ty::Arr(a), None);
                self.bin(BinOp::Eq, v, null)
            }
            ty => {
                let null = self.emit(Op::Obj(ObjOp::Ref(0), vec![]), ty, None);
                self.bin(BinOp::Eq, v, null)
            }
        }
    }

    /// The null of a string or reference type.
    fn null_of(&mut self, ty: Ty) -> ValueId {
        match ty {
            Ty::Str => self.emit(Op::Str(StrOp::Null, vec![]), Ty::Str, None),
            ty => self.emit(Op::Obj(ObjOp::Ref(0), vec![]), ty, None),
        }
    }

    /// The value inside a non-null box of class `c`.
    fn box_value(&mut self, o: ValueId, c: u16) -> ValueId {
        let ty = self.classes.descs[c as usize].boxes.expect("a box");
        let mem = self.field_mem(c, 0);
        self.emit(Op::Obj(ObjOp::Get, vec![mem, o]), ty, None)
    }

    /// `x.equals(key)` for a map key of type `key_ty` (null in unused slots) and a non-null `x` (of
    /// the key's type, or the primitive a boxed key holds). `None`: types jreach does not compare.
    fn key_equals(&mut self, key: ValueId, key_ty: Ty, x: ValueId) -> Option<ValueId> {
        let x_ty = self.ty(x);
        match key_ty {
            Ty::Str if x_ty == Ty::Str => Some(self.emit(Op::Str(StrOp::Equals, vec![x, key]), Ty::Bool, None)),
            Ty::Obj(c) => match self.classes.descs[c as usize].boxes {
                Some(prim) => {
                    let k = self.box_value(key, c);
                    let x = match x_ty {
                        t if t == key_ty => self.box_value(x, c),
                        t if t == prim => x,
                        _ => return None,
                    };
                    Some(self.bin(BinOp::Eq, k, x))
                }
                None if x_ty == key_ty => Some(self.bin(BinOp::Eq, key, x)),
                None => None,
            },
            _ => None,
        }
    }

    /// A map parameter: null unless `present`, else `Map.of` of the first `size` keys and values,
    /// which are then non-null and the keys distinct (as `Map.of` requires).
    pub(super) fn map_input(
        &mut self,
        ty: Ty,
        present: ValueId,
        size: ValueId,
        keys: Vec<ValueId>,
        values: Vec<ValueId>,
    ) -> ValueId {
        let id = self.next_alloc;
        self.next_alloc -= 1;
        let obj = self.emit(Op::Obj(ObjOp::Ref(id), vec![]), ty, None);
        let null = self.emit(Op::Obj(ObjOp::Ref(0), vec![]), ty, None);
        let v = self.select(present, obj, null);
        self.assume_between(size, 0, MAP_CAPACITY as i64);
        let key_ty = self.ty(keys[0]);
        let value_ty = self.ty(values[0]);
        for j in 0..keys.len() {
            if self.cur.is_none() {
                break;
            }
            let jj = self.int(Ty::Int, j as i64);
            let inside = self.bin(BinOp::Lt, jj, size);
            let key_null = self.is_null(keys[j]);
            let value_null = self.is_null(values[j]);
            let any_null = self.bin(BinOp::Or, key_null, value_null);
            let bad = self.bin(BinOp::And, inside, any_null);
            self.cut_if(bad, "Map.of with a null key or value");
            // `keys[j]` is null only past the size, where the comparison does not matter.
            let probe = match key_ty {
                Ty::Str => {
                    let empty = self.konst(Const::Str(String::new()));
                    self.select(key_null, empty, keys[j])
                }
                _ => keys[j],
            };
            for i in 0..j {
                let Some(same) = self.key_equals(keys[i], key_ty, probe) else { continue };
                let dup = self.bin(BinOp::And, inside, same);
                self.cut_if(dup, "Map.of with a duplicate key");
            }
        }
        let size_var = self.b.new_var("$map.size", Ty::Int);
        self.assign(size_var, size);
        let (mut key_vars, mut value_vars) = (Vec::new(), Vec::new());
        for j in 0..MAP_GROWN_CAPACITY {
            let k = self.b.new_var(&format!("$map.key{j}"), key_ty);
            let kv = match keys.get(j) {
                Some(k) => *k,
                None => self.zero_of(key_ty),
            };
            self.assign(k, kv);
            key_vars.push(k);
            let w = self.b.new_var(&format!("$map.value{j}"), value_ty);
            let wv = match values.get(j) {
                Some(w) => *w,
                None => self.zero_of(value_ty),
            };
            self.assign(w, wv);
            value_vars.push(w);
        }
        let param = self.maps.len();
        self.maps.push(MapModel { obj, size: size_var, keys: key_vars, values: value_vars, key_ty, value_ty, param });
        v
    }

    /// The map parameters `o` may be (see [`Self::guard_one_of`]).
    fn maps_of(&mut self, o: ValueId, e: Node<'t>) -> Option<Vec<MapModel>> {
        let maps = self.maps.clone();
        let objs: Vec<ValueId> = maps.iter().map(|m| m.obj).collect();
        self.guard_one_of(o, &objs, "a Map that is not a parameter", e).then_some(maps)
    }

    /// `f(map)` of the map `o` is.
    fn per_map(&mut self, o: ValueId, maps: &[MapModel], f: &dyn Fn(&mut Self, &MapModel) -> ValueId) -> ValueId {
        self.select_by_object(o, maps, |m| m.obj, f)
    }

    /// For each slot of map `m`: whether it holds key `x` (non-null).
    fn map_hits(&mut self, m: &MapModel, x: ValueId) -> Vec<ValueId> {
        let size = self.read(m.size);
        let mut hits = Vec::new();
        for (k, var) in m.keys.iter().enumerate() {
            let kk = self.int(Ty::Int, k as i64);
            let inside = self.bin(BinOp::Lt, kk, size);
            let key = self.read(*var);
            let same = self.key_equals(key, m.key_ty, x).expect("checked by the caller");
            hits.push(self.bin(BinOp::And, inside, same));
        }
        hits
    }

    /// The value of key `x` in map `m`, else `default`; and whether the key is present.
    fn map_lookup(&mut self, m: &MapModel, x: ValueId, default: ValueId) -> (ValueId, ValueId) {
        let hits = self.map_hits(m, x);
        let mut v = default;
        let mut found = self.konst(Const::Bool(false));
        for (k, hit) in hits.iter().enumerate().rev() {
            let value = self.read(m.values[k]);
            v = self.select(*hit, value, v);
            found = self.bin(BinOp::Or, found, *hit);
        }
        (v, found)
    }

    /// `o.put(x, y)` (both non-null): replaces the value of key `x` or adds the entry, in whichever
    /// map `o` is (a path that would grow it past [`MAP_GROWN_CAPACITY`] ends). The previous value
    /// or null.
    fn map_put(&mut self, o: ValueId, maps: &[MapModel], x: ValueId, y: ValueId) -> ValueId {
        for m in maps {
            if let Some(p) = self.b.setup_mut().map_params.get_mut(m.param) {
                p.mutated = true;
            }
        }
        let null = self.null_of(maps[0].value_ty);
        let old = self.per_map(o, maps, &|lw, m| lw.map_lookup(m, x, null).0);
        for m in maps {
            let is_m = self.is_object(o, m.obj);
            let hits = self.map_hits(m, x);
            let mut found = self.konst(Const::Bool(false));
            for hit in &hits {
                found = self.bin(BinOp::Or, found, *hit);
            }
            let size = self.read(m.size);
            let absent = self.emit(Op::Unary(UnOp::Not, found), Ty::Bool, None);
            let adds = self.bin(BinOp::And, is_m, absent);
            let cap = self.int(Ty::Int, m.keys.len() as i64);
            let full = self.bin(BinOp::Ge, size, cap);
            let overflow = self.bin(BinOp::And, adds, full);
            self.cut_if_narrowed(overflow, &format!("a Map grows past {MAP_GROWN_CAPACITY} entries"));
            for (k, hit) in hits.iter().enumerate() {
                let kk = self.int(Ty::Int, k as i64);
                let at_end = self.bin(BinOp::Eq, size, kk);
                let appended = self.bin(BinOp::And, adds, at_end);
                let replaced = self.bin(BinOp::And, is_m, *hit);
                let key = self.read(m.keys[k]);
                let key = self.select(appended, x, key);
                self.assign(m.keys[k], key);
                let value = self.read(m.values[k]);
                let here = self.bin(BinOp::Or, appended, replaced);
                let value = self.select(here, y, value);
                self.assign(m.values[k], value);
            }
            let one = self.int(Ty::Int, 1);
            let grown = self.bin(BinOp::Add, size, one);
            let size = self.select(adds, grown, size);
            self.assign(m.size, size);
        }
        old
    }

    /// `o.name(args)` on a map parameter (synthesis): size, isEmpty, get, getOrDefault,
    /// containsKey, put.
    pub(super) fn map_call(
        &mut self,
        o: ValueId,
        name: &str,
        args: &[ValueId],
        e: Node<'t>,
        hint: Option<Ty>,
    ) -> ValueId {
        let unknown_ty = hint.unwrap_or(Ty::Ref);
        let Some(maps) = self.maps_of(o, e) else { return self.opaque(format!("Map.{name}"), unknown_ty, None) };
        let (key_ty, value_ty) = (maps[0].key_ty, maps[0].value_ty);
        let same_types = maps.iter().all(|m| m.key_ty == key_ty && m.value_ty == value_ty);
        let comparable = |lw: &mut Self, x: ValueId| same_types && lw.key_equals_types(key_ty, x);
        let size_of = |lw: &mut Self, m: &MapModel| lw.read(m.size);
        match (name, args.len()) {
            ("size", 0) => self.per_map(o, &maps, &size_of),
            ("isEmpty", 0) => {
                let size = self.per_map(o, &maps, &size_of);
                let zero = self.int(Ty::Int, 0);
                self.bin(BinOp::Eq, size, zero)
            }
            ("get" | "containsKey", 1) | ("getOrDefault", 2) if comparable(self, args[0]) => {
                let x = args[0];
                if matches!(self.ty(x), Ty::Str | Ty::Obj(_)) {
                    // `Map.of` throws on a null key and a `HashMap` does not: left out.
                    let is_null = self.is_null(x);
                    self.cut_if_narrowed(is_null, "a Map lookup of null");
                }
                let default = match (name, args.get(1)) {
                    ("getOrDefault", Some(d)) if self.boxes_to(*d, value_ty) => self.convert(*d, value_ty),
                    ("getOrDefault", _) => {
                        self.unsupported("Map.getOrDefault with a default of another type");
                        return self.opaque(format!("Map.{name}"), unknown_ty, None);
                    }
                    _ => self.null_of(value_ty),
                };
                if name == "containsKey" {
                    self.per_map(o, &maps, &|lw, m| lw.map_lookup(m, x, default).1)
                } else {
                    self.per_map(o, &maps, &|lw, m| lw.map_lookup(m, x, default).0)
                }
            }
            ("put", 2) if comparable(self, args[0]) && self.boxes_to(args[1], value_ty) => {
                let x = self.convert(args[0], key_ty);
                let y = self.convert(args[1], value_ty);
                let key_null = self.is_null(x);
                let value_null = self.is_null(y);
                let any_null = self.bin(BinOp::Or, key_null, value_null);
                self.cut_if_narrowed(any_null, "Map.put of null");
                self.map_put(o, &maps, x, y)
            }
            _ => {
                self.unsupported(format!("Map.{name} with these arguments is not modelled yet"));
                self.opaque(format!("Map.{name}"), unknown_ty, None)
            }
        }
    }

    /// Whether `v` is of type `ty`, or a primitive that boxes to it.
    fn boxes_to(&self, v: ValueId, ty: Ty) -> bool {
        let boxes = match ty {
            Ty::Obj(c) => self.classes.descs[c as usize].boxes,
            _ => None,
        };
        self.ty(v) == ty || boxes.is_some_and(|p| widens(self.ty(v), p))
    }

    /// Whether [`Self::key_equals`] compares a key of `key_ty` with `x` (emits nothing).
    fn key_equals_types(&self, key_ty: Ty, x: ValueId) -> bool {
        let x_ty = self.ty(x);
        match key_ty {
            Ty::Str => x_ty == Ty::Str,
            Ty::Obj(c) => match self.classes.descs[c as usize].boxes {
                Some(prim) => x_ty == key_ty || x_ty == prim,
                None => x_ty == key_ty,
            },
            _ => false,
        }
    }
}
