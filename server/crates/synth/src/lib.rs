//! From a solved, replayed target to a JUnit test on disk.
//!
//! The input is a [`TestRequest`]: the method to call, the argument values the solver found (and the
//! concrete interpreter confirmed), what the call does with them ([`Outcome`]), and where the target
//! is. The crate turns it into Java source a developer would be happy to keep:
//!
//! - [`literal`] and [`literal_as`]: exact, readable Java literals (`Integer.MIN_VALUE`, `'\n'`,
//!   `(byte) -1`, `Double.NaN`, `"a\"b"`);
//! - [`test_method_name`], [`render_method`], [`render_class`]: one `@Test` method or a whole test
//!   class, JUnit 5 or JUnit 4, with a comment naming the target line and the path condition and a
//!   real assertion (`assertEquals`, `assertTrue`, `assertNull` or `assertThrows`);
//! - [`place`] (or [`place_in`], given text the caller already has) and [`write()`]: where the test
//!   goes ([`test_path`]: `<test root>/<package>/<TopClass>Test.java`), as a new file or as a method
//!   appended to the existing one, and the write itself, which never loses a file: it is atomic and
//!   refuses to replace a file that changed after [`place`] read it ([`is_conflict`] recognises that
//!   refusal);
//! - [`detect_junit`] and [`test_root_for`]: what the project around a source file expects;
//! - [`markers_in`]: the comments jreach's tests start with, read back from a test file (which
//!   line each test reaches and which others it runs).
//!
//! Rendering is a pure function of the request: the same request always gives the same text.

mod jdk_values;
mod literal;
mod long_array;
mod marker;
mod place;
mod project;
mod read;
mod render;
mod test_name;

use std::fmt;

pub use jdk_values::{
    catches_io_errors, is_failing_io, is_searched_collection, jdk_choices, jdk_collection_supertypes, JdkChoices,
};
pub use literal::{literal, literal_as};
pub use long_array::{is_stored_element, LONG_ARRAY};
pub use marker::{line_ranges, markers_in, parse_line_ranges, quoted_target, Marker};
pub use place::{
    is_conflict, place, place_in, place_replacing, test_path, test_path_of_class, write, ConflictError, Placement,
};
pub use project::{detect_junit, imported_sources, package_sources, test_root_for, ImportedSource};
pub use read::{read_source, MAX_SOURCE_BYTES};
pub use render::{render_class, render_method, test_class_name};

pub use test_name::test_method_name;

/// A concrete Java value: an argument or an expected result.
#[derive(Clone, Debug, PartialEq)]
pub enum JavaValue {
    Bool(bool),
    Byte(i8),
    Short(i16),
    /// A UTF-16 code unit, as Java's `char`.
    Char(u16),
    Int(i32),
    Long(i64),
    Float(f32),
    Double(f64),
    Str(String),
    Null,
    /// An array: its element type as Java writes it (`int`, `char[]`), its identity (two arguments
    /// with one id are the same array object) and its elements.
    Array {
        elem_ty: String,
        id: i64,
        items: Vec<JavaValue>,
    },
    /// An object whose fields the test sets directly: the class as Java code names it, its
    /// identity, and its fields. The test creates it with the class's accessible no-argument
    /// constructor and assigns the fields, or, `by_reflection`, when the class has no
    /// constructor, factory or builder a test may call, allocates it without running a
    /// constructor and sets the fields through reflection (a helper of the test class, and a
    /// comment saying so).
    Object {
        class: String,
        id: i64,
        fields: Vec<(String, JavaValue)>,
        by_reflection: bool,
    },
    /// A field referring back to an object described elsewhere in the same argument graph.
    ObjectRef(i64),
    /// An object the test creates with a constructor: the class as Java code names it and the
    /// arguments as (Java type, value).
    Constructed {
        class: String,
        args: Vec<(String, JavaValue)>,
        /// Methods the test calls on it next (it is then held in a local).
        calls: Vec<JavaCall>,
        /// For a parameter, in a search: places after `calls` where the harness calls one of
        /// the object's methods or none ([`CallChoice`]), so that the search may bring it into a
        /// state (options after an `addOption`). The search writes the calls it picked into
        /// `calls`; never in a test that is offered.
        choices: Vec<CallChoice>,
        /// For an abstract class: the methods of the anonymous subclass the test creates
        /// (`new Shape(2) { ... }`, `new Style() {}`), each returning one value; `None`: an
        /// object of the class itself.
        body: Option<Vec<StubMethodValue>>,
        /// The static method creating it instead of a constructor, with its class (`Money.of`).
        factory: Option<String>,
        /// When a builder creates it: the builder's class as Java code names it and the method
        /// that builds the object. `args`, `factory` and `calls` are then the builder's, and the
        /// test writes one chain: `new Money.Builder().cents(5).build()`.
        builder: Option<(String, String)>,
        /// Each argument of a reference type is cast to its type (`new JsonPrimitive((Number)
        /// 1)`): the class has another constructor (or the factory an overload) of as many
        /// parameters, which a `null` or a search's switch would leave ambiguous.
        cast_args: bool,
    },
    /// The same object as the argument at this index (also as an array's item: the test then
    /// assigns it after creating the array, `ps[0] = p;`).
    SameAs(usize),
    /// Inside an array's items: the same object as the item at this index (the test assigns it
    /// after creating the array: `ps[1] = ps[0];`).
    SameItem(usize),
    /// A list the test creates with `List.of` (or `Arrays.asList` when an element is null),
    /// wrapped in `new ArrayList<>(...)` when the method may change it: the element type as Java
    /// code names it, and the elements.
    List {
        elem_ty: String,
        items: Vec<JavaValue>,
        mutable: bool,
    },
    /// An Optional the test creates: `Optional.of(item)`, or `Optional.empty()` without one. The
    /// element type as Java code names it.
    Optional {
        elem_ty: String,
        item: Option<Box<JavaValue>>,
    },
    /// A map the test creates with `Map.of`, wrapped in `new HashMap<>(...)` when the method may
    /// change it: key and value types as Java code names them, and the entries (keys distinct,
    /// nothing null).
    Map {
        key_ty: String,
        value_ty: String,
        entries: Vec<(JavaValue, JavaValue)>,
        mutable: bool,
    },
    /// A lambda implementing a functional interface (named as Java code names it) with `arity`
    /// parameters that returns one value, as (Java type, value); `None` for `void`.
    Lambda {
        interface: String,
        arity: usize,
        returns: Option<Box<(String, JavaValue)>>,
        /// First arguments, as (Java type, value), each with what the lambda returns for it
        /// instead, the first matching one winning (`x -> x == 5 ? 10 : x == 6 ? 11 : 3`).
        special: Vec<((String, JavaValue), JavaValue)>,
    },
    /// An anonymous class implementing an interface (named as Java code names it) whose methods
    /// each return one value.
    Stub {
        interface: String,
        methods: Vec<StubMethodValue>,
    },
    /// An enum constant (`Objects.Level.HIGH`).
    EnumConstant {
        class: String,
        name: String,
    },
    /// Not a value but a hole: input `index` of a search harness, which the JVM runner fills
    /// anew for each run (`jreach.runner.Inputs.i(0)`). Never in a test that is offered.
    Slot(usize, SlotKind),
    /// A Java expression written as it is: a value of a JDK type jreach does not model, one of
    /// the readable candidates of [`jdk_choices`] (`Locale.US`, `String.class`,
    /// `TimeZone.getTimeZone("UTC")`). Nothing in it is searched.
    Expr(String),
    /// Not a value but a choice among `options` that a search on the JVM makes (see
    /// [`jdk_choices`]); the options may hold values of their own that the search changes.
    /// `slot` is `None` where a search starts and the input that picks the option in a harness
    /// (the harness writes a `switch` on it). Never in a test that is offered.
    Choice {
        slot: Option<usize>,
        options: Vec<JavaValue>,
    },
    /// Not a value: in a search's input vector, the option `index` (of `of`) of a
    /// [`JavaValue::Choice`].
    Chosen {
        index: usize,
        of: usize,
    },
}

/// The type of a [`JavaValue::Slot`]: which of the runner's `Inputs` accessors reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SlotKind {
    Bool,
    Byte,
    Short,
    Char,
    Int,
    Long,
    Float,
    Double,
    Str,
    /// A one-dimensional array of elements of this kind (never itself an array).
    Array(SlotElem),
    /// A two-dimensional array (`int[][]`) of elements of this kind: `Int`, `Long`, `Double`,
    /// `Bool` or `Char`.
    Matrix(SlotElem),
}

/// The element kind of a [`SlotKind::Array`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SlotElem {
    Bool,
    Byte,
    Short,
    Char,
    Int,
    Long,
    Float,
    Double,
    Str,
    /// `Integer` elements, none of them null (`T[]` with `T` taken as `Integer`).
    Integer,
    /// The other boxes' elements, none of them null (`Short[]`, `Long[]`, ...).
    ShortBox,
    ByteBox,
    CharBox,
    LongBox,
    FloatBox,
    DoubleBox,
    BoolBox,
}

impl SlotElem {
    /// Whether the elements are boxes (an array holding a null among them is no slot).
    pub fn is_boxed(self) -> bool {
        matches!(
            self,
            SlotElem::Integer
                | SlotElem::ShortBox
                | SlotElem::ByteBox
                | SlotElem::CharBox
                | SlotElem::LongBox
                | SlotElem::FloatBox
                | SlotElem::DoubleBox
                | SlotElem::BoolBox
        )
    }
}

impl SlotKind {
    /// The accessor of `jreach.runner.Inputs` that reads a slot of this kind.
    pub fn accessor(self) -> &'static str {
        match self {
            SlotKind::Bool => "z",
            SlotKind::Byte => "b",
            SlotKind::Short => "s",
            SlotKind::Char => "c",
            SlotKind::Int => "i",
            SlotKind::Long => "j",
            SlotKind::Float => "f",
            SlotKind::Double => "d",
            SlotKind::Str => "str",
            SlotKind::Array(e) => match e {
                SlotElem::Bool => "zs",
                SlotElem::Byte => "bs",
                SlotElem::Short => "ss",
                SlotElem::Char => "cs",
                SlotElem::Int => "is",
                SlotElem::Long => "js",
                SlotElem::Float => "fs",
                SlotElem::Double => "ds",
                SlotElem::Str => "strs",
                SlotElem::Integer => "ints",
                SlotElem::ShortBox => "shortBoxes",
                SlotElem::ByteBox => "byteBoxes",
                SlotElem::CharBox => "charBoxes",
                SlotElem::LongBox => "longBoxes",
                SlotElem::FloatBox => "floatBoxes",
                SlotElem::DoubleBox => "doubleBoxes",
                SlotElem::BoolBox => "boolBoxes",
            },
            SlotKind::Matrix(e) => match e {
                SlotElem::Bool => "zss",
                SlotElem::Char => "css",
                SlotElem::Long => "jss",
                SlotElem::Double => "dss",
                _ => "iss",
            },
        }
    }
}

impl JavaValue {
    /// `new C()`: an object of `class` (as a test writes its name) made by its constructor without
    /// arguments, with no calls on it.
    pub fn new_object(class: String) -> JavaValue {
        JavaValue::new_with(class, vec![])
    }

    /// `C.of(args)`: an object of `class` (as a test writes its name) made by the static method
    /// `factory` (`"C.of"`, as a test calls it) with `args`, with no calls on it.
    pub fn made_by(class: String, factory: String, args: Vec<(String, JavaValue)>) -> JavaValue {
        let mut v = JavaValue::new_with(class, args);
        if let JavaValue::Constructed { factory: f, .. } = &mut v {
            *f = Some(factory);
        }
        v
    }

    /// `new C(args)`: an object of `class` (as a test writes its name) made by the constructor
    /// taking `args` (as (Java type, value)), with no calls on it.
    pub fn new_with(class: String, args: Vec<(String, JavaValue)>) -> JavaValue {
        JavaValue::Constructed {
            class,
            args,
            calls: vec![],
            choices: vec![],
            body: None,
            factory: None,
            builder: None,
            cast_args: false,
        }
    }

    /// Whether `v` holds anything of a search harness ([`JavaValue::Slot`], [`JavaValue::Choice`],
    /// [`JavaValue::Chosen`]), here or inside.
    pub fn has_search_holes(&self) -> bool {
        match self {
            JavaValue::Slot(..) | JavaValue::Choice { .. } | JavaValue::Chosen { .. } => true,
            JavaValue::Array { items, .. } | JavaValue::List { items, .. } => items.iter().any(Self::has_search_holes),
            JavaValue::Object { fields, .. } => fields.iter().any(|(_, f)| f.has_search_holes()),
            JavaValue::Constructed { args, calls, choices, .. } => {
                !choices.is_empty()
                    || args.iter().chain(calls.iter().flat_map(|c| &c.args)).any(|(_, a)| a.has_search_holes())
            }
            JavaValue::Optional { item, .. } => item.as_deref().is_some_and(Self::has_search_holes),
            JavaValue::Map { entries, .. } => entries.iter().any(|(k, v)| k.has_search_holes() || v.has_search_holes()),
            JavaValue::Lambda { returns: Some(r), .. } => r.1.has_search_holes(),
            _ => false,
        }
    }

    /// The values written inside this one, where a search may choose or fill something: a
    /// choice's options, elements, fields, a constructor's arguments and those of the calls made
    /// or offered on the object, an optional's item, a map's values (not its keys), a stub's and
    /// a lambda's answers.
    pub fn nested_mut(&mut self) -> Vec<&mut JavaValue> {
        match self {
            JavaValue::Choice { options, .. } => options.iter_mut().collect(),
            JavaValue::Array { items, .. } | JavaValue::List { items, .. } => items.iter_mut().collect(),
            JavaValue::Object { fields, .. } => fields.iter_mut().map(|(_, f)| f).collect(),
            JavaValue::Constructed { args, calls, choices, .. } => {
                let called = calls.iter_mut().chain(choices.iter_mut().flat_map(|c| c.calls.iter_mut()));
                let call_args = called.flat_map(|c| c.args.iter_mut());
                args.iter_mut().chain(call_args).map(|(_, a)| a).collect()
            }
            JavaValue::Optional { item: Some(item), .. } => vec![&mut **item],
            JavaValue::Map { entries, .. } => entries.iter_mut().map(|(_, v)| v).collect(),
            JavaValue::Stub { methods, .. } => methods.iter_mut().flat_map(|m| &mut m.returns).collect(),
            JavaValue::Lambda { returns: Some(r), .. } => vec![&mut r.1],
            _ => vec![],
        }
    }

    /// Whether this is the value a field holds before anything sets it (`0`, `false`, `null`;
    /// not `-0.0`).
    pub fn is_default(&self) -> bool {
        match self {
            JavaValue::Null | JavaValue::Bool(false) => true,
            JavaValue::Int(0) | JavaValue::Long(0) | JavaValue::Short(0) | JavaValue::Byte(0) | JavaValue::Char(0) => {
                true
            }
            JavaValue::Double(d) => *d == 0.0 && d.is_sign_positive(),
            JavaValue::Float(x) => *x == 0.0 && x.is_sign_positive(),
            _ => false,
        }
    }
}

/// One method of a [`JavaValue::Stub`].
#[derive(Clone, Debug, PartialEq)]
pub struct StubMethodValue {
    pub name: String,
    /// Its parameters: type and name, as the test writes them.
    pub params: Vec<(String, String)>,
    /// The return type as the test writes it (`void` for none).
    pub ret_java: String,
    /// What it returns (`None` for `void`).
    pub returns: Option<JavaValue>,
}

/// At the start of a line of rendered code: one more level of indentation than the line
/// before the code began. Multi-line code (an anonymous class) separates its lines with `\n`.
pub(crate) const NEST: char = '\t';

/// `code` one level deeper: every line of it starts with one more [`NEST`].
pub(crate) fn nested(code: &str) -> String {
    code.split('\n').map(|l| format!("{NEST}{l}")).collect::<Vec<_>>().join("\n")
}

/// The JUnit generation a test is written for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum JUnit {
    /// JUnit 4 (4.13 or later: `Assert.assertThrows`).
    V4,
    /// JUnit 5 (Jupiter), the default.
    #[default]
    V5,
}

impl fmt::Display for JUnit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            JUnit::V4 => "JUnit 4",
            JUnit::V5 => "JUnit 5",
        })
    }
}

/// What the call under test does with the generated inputs.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// Returns normally. `None`: a `void` method, or a value that could not be computed (the test then
    /// only makes the call).
    Returns(Option<JavaValue>),
    /// Throws; the exception class as Java code names it, usually simple (`ArithmeticException`).
    Throws(String),
    /// Not known: after the target the run depends on code jreach does not model (the text says
    /// what). The test makes the call and lets any exception it throws pass, asserting nothing.
    Undetermined(String),
    /// A search harness: the call's result is handed to the JVM runner
    /// (`jreach.runner.Inputs.observe(...)`), which reports it. Never in a test that is offered.
    Observe,
}

/// What one run of a candidate test on the JVM showed, for a concolic round: whether the target
/// line ran to its end, and what the calls of the target's file returned, in the order they
/// returned. The engine (`jreach_ide::concolic`) reads the values of the calls it does not model
/// from it; the JVM runner (`jreach_jvm`) makes it.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct CallObservation {
    /// The target line ran to its end (as coverage tools count it).
    pub reached: bool,
    pub calls: Vec<ObservedCall>,
}

/// One call's result in a [`CallObservation`].
#[derive(Clone, Debug, PartialEq)]
pub struct ObservedCall {
    /// The 1-based line of the call (javac's: the line of its opening parenthesis).
    pub line: usize,
    /// The called method's name.
    pub name: String,
    /// The value returned: `Long` for every integral type and `char`, `Double` for both floating
    /// types, `Bool`, `Str` or `Null`; `None` for another object.
    pub value: Option<JavaValue>,
}

/// Everything needed to write one test.
#[derive(Clone, Debug, PartialEq)]
pub struct TestRequest {
    /// Package of the class under test (`None`: the default package).
    pub package: Option<String>,
    /// Enclosing classes, outermost first: `["Concolic", "SimpleList"]`.
    pub classes: Vec<String>,
    /// Method name (for constructors: the class name).
    pub method: String,
    pub is_static: bool,
    pub is_constructor: bool,
    /// `(name, Java type)`: as written, with the type variables the lowering instantiated
    /// replaced by what it took them as (`T[]` → `Integer[]`), so the test can declare them.
    pub params: Vec<(String, String)>,
    /// One value per parameter.
    pub args: Vec<JavaValue>,
    /// Java type as written, `void` for none.
    pub return_ty: String,
    pub outcome: Outcome,
    /// 1-based line of the target statement.
    pub target_line: usize,
    /// First line of the target statement, trimmed.
    pub target_text: String,
    /// The member the target statement is written in, as [`jreach_syntax::member_at`] names it
    /// (`withdraw(int)`); the test's comment names it. `None`: not named.
    pub target_member: Option<String>,
    /// What the target statement does ([`jreach_syntax::statement_action`]); the test is named by
    /// it.
    pub target_action: jreach_syntax::Action,
    /// Java boolean expressions that hold on the path, e.g. `a < 0`, `!(x == 1)`.
    pub path_condition: Vec<String>,
    pub junit: JUnit,
    /// For an instance method: the arguments of the constructor the receiver is created with,
    /// as (Java type, value); empty for `new C()`. For a method held by the object a static
    /// method returns (`held_by`'s `returned_by`): that method's arguments.
    pub receiver_args: Vec<(String, JavaValue)>,
    /// For an instance method: the methods called on the receiver after creating it, with their
    /// arguments as (Java type, value).
    pub receiver_calls: Vec<JavaCall>,
    /// For a method of an abstract class: the methods of the anonymous subclass the test creates
    /// as the receiver (`new Style() {}` when there are none); for a constructor of one, of the
    /// anonymous subclass whose creation runs it. `None`: the class itself.
    pub receiver_body: Option<Vec<StubMethodValue>>,
    /// For an instance method of a class with no constructor, factory or builder a test may
    /// call: the receiver's fields, which the test sets through reflection on an object it
    /// allocates without running a constructor. `None`: the receiver is constructed.
    pub receiver_fields: Option<Vec<(String, JavaValue)>>,
    /// For a method of an abstract class: the class of the package extending it that the test
    /// creates the receiver as, with `receiver_args` (`JsonElement obj = new JsonObject();`), when
    /// no anonymous subclass can stand in. `None`: the class itself (or `receiver_body`).
    pub receiver_class: Option<String>,
    /// Static fields the test assigns before the call and restores after it.
    pub statics: Vec<StaticAssignment>,
    /// Qualified names of classes from other packages the test may name
    /// (`com.acme.model.Money`); the test imports those it does name.
    pub imports: Vec<String>,
    /// Code jreach does not model that runs before the target on the test's path (described):
    /// the test reaches its line only if that code returns normally (and, where the path
    /// depends on it, what the model assumed), which only a run on the JVM can show.
    pub unmodelled_before_target: Option<String>,
    /// The method under test declares checked exceptions (`throws IOException`): the test method
    /// declares `throws Exception`.
    pub declares_checked: bool,
    /// Calls on the receiver after `receiver_calls` that a search on the JVM chooses (empty in a
    /// test that is offered).
    pub receiver_call_choices: Vec<CallChoice>,
    /// For an instance method whose class has no constructor a test may call: the static method
    /// that creates the receiver (`Fraction.getFraction`), which takes `receiver_args`.
    pub receiver_factory: Option<String>,
    /// For a method of a class a test can neither create nor name (a private or inner class):
    /// the member of a class it can name that holds or returns such an object
    /// (`GsonTypes.subtypeOf(type)`, `new Bag().iterator()`, `TypeAdapters.FLOAT`), which the
    /// test calls the method on. `None`: the receiver is made as the other fields say.
    pub receiver_from: Option<ReceiverFrom>,
    /// A call the test makes on what the call under test returns, whose result is then what it
    /// observes or asserts (`return_ty` is that call's type): the method of an anonymous class
    /// the called method creates and returns (`TypeAdapter result = FACTORY.create(gson, type);
    /// result.read(in);`). `None`: the call under test is the last.
    pub then_call: Option<ThenCall>,
    /// Where the call under test or the receiver's constructor has an overload of the same
    /// arity, the type each `null` argument is cast to so that javac picks the one meant:
    /// `new StrSubstitutor((Map) null, ...)` beside `StrSubstitutor(StrLookup<?>, ...)`.
    pub null_casts: NullCasts,
    /// Classes the code under test names by literal (`ZonedDateTime.class`), as a test names
    /// them (`java.time.ZonedDateTime`): where a search chooses a `Class` or a `Type`, these are
    /// candidates too (`JdkChoices::add_classes`), since the code compares with them.
    pub named_classes: Vec<String>,
    /// For a method of an object a static member of its class holds (an enum constant's body,
    /// an anonymous class in a static field): that member. The test calls the method on it
    /// (`TypeAdapters.INTEGER.write(out, 1)`, cast when the field's type is wider) as it calls
    /// a static method on the class.
    pub held_by: Option<jreach_syntax::HeldBy>,
    /// The test reaches its line by loading the class (`Class.forName("pkg.Outer$Inner")`), whose
    /// static initializers the JVM then runs; `method`, `params` and `args` are unused. It runs
    /// the line only in a JVM where nothing initialized the class before (each of jreach's runs
    /// and each forked test JVM; in one shared by many tests, the first test using the class).
    pub initializes_class: bool,
    /// For a member of an inner (non-static) class: the object of its enclosing class the test
    /// makes it on (`new Heap(0)`, a [`JavaValue::Constructed`] whose arguments a search moves),
    /// `new Heap(0).new Node(3)`. `None`: a top-level or static nested class.
    pub outer: Option<JavaValue>,
    /// Other lines of the target's file that the test's run on the JVM covered, 1-based and
    /// sorted; the comment names them (`// Also runs lines 7-9, 12.`), so that `jreach fill`
    /// knows them again in the test file. Empty unless the caller ran the test and cares.
    pub also_runs: Vec<usize>,
}

impl TestRequest {
    /// Every value the test writes as an input, in this order: the arguments, the receiver's
    /// constructor (or factory) arguments, the arguments of the calls on it, its fields, the
    /// static fields' values, what the receiver comes from, the enclosing object of an inner class
    /// (not the call choices' arguments).
    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut JavaValue> {
        let calls = self.receiver_calls.iter_mut().flat_map(|c| c.args.iter_mut().map(|(_, v)| v));
        let fields = self.receiver_fields.iter_mut().flatten().map(|(_, v)| v);
        self.args
            .iter_mut()
            .chain(self.receiver_args.iter_mut().map(|(_, v)| v))
            .chain(calls)
            .chain(fields)
            .chain(self.statics.iter_mut().map(|s| &mut s.value))
            .chain(self.receiver_from.iter_mut().flat_map(ReceiverFrom::values_mut))
            .chain(self.then_call.iter_mut().flat_map(|t| t.args.iter_mut().map(|(_, v)| v)))
            .chain(self.outer.iter_mut())
    }

    /// The test that ends at the receiver's call `k` instead: the calls before it set the receiver
    /// up, and call `k` is the call under test, with this request's outcome (a search's run may
    /// reach the line inside a call that sets the receiver up, which then throws: the test is
    /// that call). `None` when there is no call `k`, or the method under test is not the call on
    /// the receiver (a constructor, a static method, a call on what it returns).
    pub fn ending_at_receiver_call(&self, k: usize) -> Option<TestRequest> {
        if self.is_static || self.is_constructor || self.then_call.is_some() {
            return None;
        }
        let JavaCall { method, args, .. } = self.receiver_calls.get(k)?.clone();
        let params = args.iter().enumerate().map(|(i, (ty, _))| (format!("arg{}", i + 1), ty.clone())).collect();
        Some(TestRequest {
            method,
            params,
            args: args.into_iter().map(|(_, v)| v).collect(),
            // What it returns is not asserted: only whether it throws.
            return_ty: "void".into(),
            receiver_calls: self.receiver_calls[..k].to_vec(),
            path_condition: vec![],
            declares_checked: true,
            ..self.clone()
        })
    }

    /// Whether anything of a search harness is left in the request: a hole, a choice, calls a
    /// search was to choose. Such a request is never run as a test nor offered
    /// (`jreach_jvm::Verifier::check` refuses it).
    pub fn has_search_holes(&self) -> bool {
        !self.receiver_call_choices.is_empty()
            || self.args.iter().any(JavaValue::has_search_holes)
            || self.receiver_args.iter().any(|(_, v)| v.has_search_holes())
            || self.receiver_calls.iter().flat_map(|c| &c.args).any(|(_, v)| v.has_search_holes())
            || self.receiver_fields.iter().flatten().any(|(_, v)| v.has_search_holes())
            || self.statics.iter().any(|s| s.value.has_search_holes())
            || self.receiver_from.as_ref().is_some_and(ReceiverFrom::has_search_holes)
            || self.then_call.iter().flat_map(|t| &t.args).any(|(_, v)| v.has_search_holes())
            || self.outer.as_ref().is_some_and(JavaValue::has_search_holes)
    }
}

/// Where a test gets the receiver of a method whose class it can neither create nor name
/// ([`TestRequest::receiver_from`]): `{declared_as} obj = {on}.{member}({args});`.
#[derive(Clone, Debug, PartialEq)]
pub struct ReceiverFrom {
    /// The type the test declares the receiver as, one it can name that declares the method
    /// (raw: `TypeAdapter`, `Iterator`).
    pub declared_as: String,
    pub on: ReceiverHolder,
    /// The static field's or the method's name.
    pub member: String,
    /// The method's arguments as (Java type, value); `None` for a field.
    pub args: Option<Vec<(String, JavaValue)>>,
}

/// The call a test makes on what the call under test returns ([`TestRequest::then_call`]):
/// `{declared_as} result = <call under test>; result.{method}({args});`, with a cast
/// `({declared_as})` before the call when [`ThenCall::cast`] says.
#[derive(Clone, Debug, PartialEq)]
pub struct ThenCall {
    /// The type the test declares the result as, one it can name that declares `method` (raw:
    /// `TypeAdapter`).
    pub declared_as: String,
    /// Whether the test casts the result to `declared_as` (the call under test returns it as a
    /// supertype: a field's declared type).
    pub cast: bool,
    pub method: String,
    /// The arguments as (Java type, value).
    pub args: Vec<(String, JavaValue)>,
    /// Whether `method`, called through `declared_as`, declares `throws Throwable` (a type
    /// variable bounded by it, erased), so that the test must declare it too.
    pub throws_throwable: bool,
}

/// The casts of [`TestRequest::null_casts`], by position: `None` leaves a `null` as it is (a
/// parameter with a typed local, a type variable, a callee without overloads).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NullCasts {
    /// For the arguments of the call under test (`TestRequest::args`).
    pub args: Vec<Option<String>>,
    /// For the arguments the receiver is made with (`TestRequest::receiver_args`).
    pub receiver_args: Vec<Option<String>>,
}

/// What [`ReceiverFrom::member`] is a member of.
#[derive(Clone, Debug, PartialEq)]
pub enum ReceiverHolder {
    /// A static member of this class, as a test names it (`GsonTypes`).
    Class(String),
    /// An instance method of this object (a [`JavaValue::Constructed`]: `new Bag()`).
    Object(JavaValue),
    /// The object is this value itself, a lambda for an interface with one abstract method
    /// whose default method the test calls (`TriConsumer obj = (ignored1, ignored2, ignored3)
    /// -> { };`); `member` and `args` are unused.
    Value(JavaValue),
}

impl ReceiverFrom {
    /// The values in it (the holder object and the arguments), for a search to fill.
    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut JavaValue> {
        let holder = match &mut self.on {
            ReceiverHolder::Object(v) | ReceiverHolder::Value(v) => Some(v),
            ReceiverHolder::Class(_) => None,
        };
        holder.into_iter().chain(self.args.iter_mut().flatten().map(|(_, v)| v))
    }

    fn has_search_holes(&self) -> bool {
        let holder = matches!(&self.on, ReceiverHolder::Object(v) | ReceiverHolder::Value(v) if v.has_search_holes());
        holder || self.args.iter().flatten().any(|(_, v)| v.has_search_holes())
    }

    /// The expression that gives the object (`GsonTypes.subtypeOf(Object.class)`).
    pub fn expression(&self) -> String {
        let on = match &self.on {
            ReceiverHolder::Class(c) => c.clone(),
            ReceiverHolder::Object(v) => literal::literal(v),
            ReceiverHolder::Value(v) => return literal::literal(v),
        };
        match &self.args {
            Some(args) => {
                let args: Vec<String> = args.iter().map(|(ty, v)| literal::literal_as(ty, v)).collect();
                format!("{on}.{}({})", self.member, args.join(", "))
            }
            None => format!("{on}.{}", self.member),
        }
    }
}

/// A static field a test assigns before the call under test (`Config.limit = 5;`), saving the
/// old value first and putting it back in a `finally` block, so that other tests see the
/// field as they would have. Standard input is one too ([`StaticAssignment::stdin`]): its value
/// is the text the code reads, set with `System.setIn`.
#[derive(Clone, Debug, PartialEq)]
pub struct StaticAssignment {
    /// The declaring class as Java code in the test's package names it.
    pub class: String,
    pub field: String,
    /// The field's type as written.
    pub java_ty: String,
    pub value: JavaValue,
}

impl StaticAssignment {
    /// Standard input holding `text` (a string value, which a search may change) while the test
    /// runs: `System.setIn(new ByteArrayInputStream(text.getBytes(UTF_8)))`, the old input put
    /// back after.
    pub fn stdin(text: JavaValue) -> StaticAssignment {
        StaticAssignment {
            class: "System".into(),
            field: "in".into(),
            java_ty: "java.io.InputStream".into(),
            value: text,
        }
    }

    /// Whether this is [`StaticAssignment::stdin`].
    pub fn is_stdin(&self) -> bool {
        self.class == "System" && self.field == "in"
    }

    /// The standard input a search starts from when `code` reads `System.in` (a console
    /// program's `new Scanner(System.in)`): a count, then a few lines of small numbers, what
    /// such programs ask for first; the search edits it like any string.
    pub fn stdin_start(code: &str) -> Option<StaticAssignment> {
        let reads = code.match_indices("System.in").any(|(i, w)| {
            !code[i + w.len()..].chars().next().is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$')
        });
        reads.then(|| StaticAssignment::stdin(JavaValue::Str("3\n1 2 3\n1 2 3\n1 2 3\n".into())))
    }
}

/// A method call a test makes to set an object up.
#[derive(Clone, Debug, PartialEq)]
pub struct JavaCall {
    pub method: String,
    /// The arguments as (Java type, value).
    pub args: Vec<(String, JavaValue)>,
    /// The call returns a changed copy of the object (`excluder.withVersion(1.0)`, a "wither")
    /// rather than changing it: the test goes on with what it returns, in a new local
    /// (`Excluder excluder2 = excluder.withVersion(1.0);`).
    pub returns_copy: bool,
}

impl JavaCall {
    /// A call that changes the object it is made on.
    pub fn new(method: impl Into<String>, args: Vec<(String, JavaValue)>) -> JavaCall {
        JavaCall { method: method.into(), args, returns_copy: false }
    }
}

/// One place in a sequence of calls on the receiver that a search on the JVM writes (objects in
/// a state: a stack after two pushes): no call, or one of `calls`, whose arguments the search
/// also chooses. `slot` is `None` where a search starts and, in a harness, the input that picks
/// (0: no call, `k`: `calls[k - 1]`). Never in a test that is offered: a search writes the calls
/// it picked into [`TestRequest::receiver_calls`].
#[derive(Clone, Debug, PartialEq)]
pub struct CallChoice {
    pub slot: Option<usize>,
    pub calls: Vec<JavaCall>,
}
