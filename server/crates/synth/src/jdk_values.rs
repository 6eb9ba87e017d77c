//! Values of JDK types that jreach does not model but a test can write: a few readable candidates
//! per type (`Locale.US`, `String.class`, `new StringWriter()`, `BigInteger.valueOf(1L)`), among
//! which a search on the JVM picks ([`JavaValue::Choice`]). Numbers, strings and arrays inside a
//! candidate stay open to that search (the `1L` of `BigInteger.valueOf(1L)` is searched too);
//! constants written as [`JavaValue::Expr`] are not.
//!
//! The candidates are the values a developer would write first, simplest first (a search that
//! finds several keeps the earliest), with `null` last. Values whose behaviour depends on the
//! machine (the default time zone, locale or clock: `Calendar.getInstance()`, `Locale.getDefault()`)
//! are left out: a test must pass anywhere. (A `Date` is an instant; code that prints it in the
//! default time zone still depends on the machine, as it would in any test.)

use jreach_syntax::split_type_args;

use crate::JavaValue;

/// The candidates for one type, and the classes a test that writes them may need to import
/// (imported only when the test names them).
#[derive(Clone, Debug, PartialEq)]
pub struct JdkChoices {
    pub options: Vec<JavaValue>,
    pub imports: Vec<String>,
}

impl JdkChoices {
    /// For a `Class` (raw or `Class<?>`) or a `Type`: the classes `classes` (as a test names
    /// them: the classes the code under test names by literal, `java.time.Duration`) as further
    /// candidates, before `null`; any other type is left as it is.
    ///
    /// ```
    /// use jreach_synth::{jdk_choices, literal};
    /// let mut c = jdk_choices("Class<?>", "Util").unwrap();
    /// c.add_classes("Class<?>", &["java.time.Duration".to_string(), "String".to_string()]);
    /// let all: Vec<String> = c.options.iter().map(literal).collect();
    /// assert_eq!(all.iter().filter(|o| *o == "String.class").count(), 1);
    /// assert_eq!(all[all.len() - 2], "java.time.Duration.class");
    /// ```
    pub fn add_classes(&mut self, java_ty: &str, classes: &[String]) {
        if !matches!(parse(java_ty), Some(("Class", None | Some("?")) | ("Type", None))) {
            return;
        }
        let at = self.options.iter().position(|o| *o == JavaValue::Null).unwrap_or(self.options.len());
        let new: Vec<JavaValue> = classes
            .iter()
            .map(|c| JavaValue::Expr(format!("{c}.class")))
            .filter(|v| !self.options.contains(v))
            .collect();
        self.options.splice(at..at, new);
    }
}

/// Whether [`jdk_choices`] gives a collection for `java_ty` (`List<Integer>`, `Set<String>`):
/// one whose length a search changes, which makes a better start for it than a fixed list.
pub fn is_searched_collection(java_ty: &str) -> bool {
    parse(java_ty).is_some_and(|(simple, args)| searched_collection(simple, args).is_some())
}

/// `java_ty` as (simple name, type arguments), or `None` for a qualified name outside the JDK
/// (`com.acme.Set`) or a malformed one.
fn parse(java_ty: &str) -> Option<(&str, Option<&str>)> {
    let ty = java_ty.trim();
    let ty = ty.strip_prefix("final ").unwrap_or(ty).trim();
    let (base, args) = match ty.split_once('<') {
        Some((b, rest)) => (b.trim(), Some(rest.strip_suffix('>')?.trim())),
        None => (ty, None),
    };
    // `Map.Entry`, as code names the nested interface.
    if base == "Map.Entry" || base == "java.util.Map.Entry" {
        return Some(("Map.Entry", args));
    }
    if base.contains('.') && !base.starts_with("java.") {
        return None;
    }
    Some((base.rsplit('.').next().unwrap_or(base), args))
}

/// The collection and map interfaces of the JDK that the class `qualified` (`java.util.TreeSet`)
/// implements, most specific first: the `Class` values that code asking
/// `type.isAssignableFrom(TreeSet.class)` tells apart from the class itself (`SortedSet`, which
/// a `LinkedHashSet` is not). Empty for other classes.
pub fn jdk_collection_supertypes(qualified: &str) -> &'static [&'static str] {
    match qualified {
        "java.util.ArrayList" | "java.util.Vector" => &["java.util.List", "java.util.Collection"],
        "java.util.LinkedList" => &["java.util.List", "java.util.Deque", "java.util.Queue", "java.util.Collection"],
        "java.util.HashSet" | "java.util.LinkedHashSet" => &["java.util.Set", "java.util.Collection"],
        "java.util.TreeSet" => {
            &["java.util.NavigableSet", "java.util.SortedSet", "java.util.Set", "java.util.Collection"]
        }
        "java.util.ArrayDeque" => &["java.util.Deque", "java.util.Queue", "java.util.Collection"],
        "java.util.PriorityQueue" => &["java.util.Queue", "java.util.Collection"],
        "java.util.HashMap" | "java.util.LinkedHashMap" | "java.util.IdentityHashMap" => &["java.util.Map"],
        "java.util.TreeMap" => &["java.util.NavigableMap", "java.util.SortedMap", "java.util.Map"],
        "java.util.concurrent.ConcurrentHashMap" => &["java.util.concurrent.ConcurrentMap", "java.util.Map"],
        "java.util.concurrent.ConcurrentSkipListMap" => &[
            "java.util.concurrent.ConcurrentNavigableMap",
            "java.util.concurrent.ConcurrentMap",
            "java.util.NavigableMap",
            "java.util.SortedMap",
            "java.util.Map",
        ],
        _ => &[],
    }
}

/// For a collection or map type of the JDK: the class a test creates an empty one as.
fn empty_collection(simple: &str) -> Option<&'static str> {
    Some(match simple {
        "Collection" | "Iterable" | "List" | "ArrayList" | "AbstractList" => "ArrayList",
        "LinkedList" => "LinkedList",
        "Set" | "HashSet" => "HashSet",
        "LinkedHashSet" => "LinkedHashSet",
        "SortedSet" | "NavigableSet" | "TreeSet" => "TreeSet",
        "Queue" | "Deque" | "ArrayDeque" => "ArrayDeque",
        "Map" | "HashMap" | "AbstractMap" => "HashMap",
        "LinkedHashMap" => "LinkedHashMap",
        "SortedMap" | "NavigableMap" | "TreeMap" => "TreeMap",
        _ => return None,
    })
}

/// For a collection type of boxed numbers, characters, booleans or strings (strings also for any
/// object: `Collection<?>`): the class a test creates it as (`HashSet` for a `Set`) and the
/// element type.
fn searched_collection(simple: &str, args: Option<&str>) -> Option<(&'static str, &'static str)> {
    let made = match simple {
        "Collection" | "Iterable" | "List" | "ArrayList" | "AbstractList" => "ArrayList",
        "LinkedList" => "LinkedList",
        "Set" | "HashSet" => "HashSet",
        "LinkedHashSet" => "LinkedHashSet",
        "SortedSet" | "NavigableSet" | "TreeSet" => "TreeSet",
        "Queue" | "Deque" | "ArrayDeque" => "ArrayDeque",
        "Vector" => "Vector",
        _ => return None,
    };
    let elem = args?.trim();
    let elem = elem.strip_prefix("? extends ").unwrap_or(elem).trim();
    match elem.strip_prefix("java.lang.").unwrap_or(elem) {
        "Integer" => Some((made, "Integer")),
        "Long" => Some((made, "Long")),
        "Double" => Some((made, "Double")),
        "Character" => Some((made, "Character")),
        "Boolean" => Some((made, "Boolean")),
        // Any object: strings.
        "String" | "?" | "Object" => Some((made, "String")),
        _ => None,
    }
}

/// For a map type of the JDK whose key and value a search can write (`Map<String, Integer>`,
/// `Map<?, ?>`, `Map<K, V>`): the class a test creates it as and a key and a value to start
/// from. A key of any object (`?`, `Object`, a type variable) is a choice of a string and a
/// `java.awt.Point` (not for a sorted map, whose keys must compare).
fn map_entry(simple: &str, args: &str) -> Option<(&'static str, JavaValue, JavaValue)> {
    let made = match simple {
        "Map" | "HashMap" | "AbstractMap" => "HashMap",
        "LinkedHashMap" => "LinkedHashMap",
        "SortedMap" | "NavigableMap" | "TreeMap" => "TreeMap",
        _ => return None,
    };
    let (key, value) = split_type_args(args)?;
    let item = |ty: &str, any_object: bool| -> Option<JavaValue> {
        let ty = ty.trim();
        let ty = ty.strip_prefix("? extends ").unwrap_or(ty).trim();
        Some(match ty.strip_prefix("java.lang.").unwrap_or(ty) {
            "String" | "CharSequence" => JavaValue::Str("a".into()),
            "Integer" | "Number" => JavaValue::Int(1),
            "Long" => JavaValue::Long(1),
            "Double" => JavaValue::Double(1.0),
            "Boolean" => JavaValue::Bool(true),
            "Character" => JavaValue::Char(u16::from(b'a')),
            "?" | "Object" => any(any_object),
            t if is_type_variable_like(t) => any(any_object),
            _ => return None,
        })
    };
    fn any(any_object: bool) -> JavaValue {
        let text = JavaValue::Str("a".into());
        match any_object {
            true => {
                let point = new("java.awt.Point", vec![("int", JavaValue::Int(1)), ("int", JavaValue::Int(2))]);
                JavaValue::Choice { slot: None, options: vec![text, point] }
            }
            false => text,
        }
    }
    Some((made, item(key, made != "TreeMap")?, item(value, false)?))
}

/// A name written as Java's convention writes type variables: one capital letter, perhaps with a
/// digit (`K`, `V`, `T2`). A test passes such a parameter a value of any type javac infers.
fn is_type_variable_like(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_uppercase()) && name.len() <= 2 && chars.all(|c| c.is_ascii_digit())
}

/// The element type a value of `Iterator<arg>`, `Supplier<arg>` and their kin is written with:
/// `Integer` for integers and numbers, `String` for strings and any object; `None` for another
/// type (a class of the project, a type variable).
fn element_kind(arg: &str) -> Option<&'static str> {
    let arg = arg.trim();
    let arg = arg.strip_prefix("? extends ").unwrap_or(arg).trim();
    match arg.strip_prefix("java.lang.").unwrap_or(arg) {
        "Integer" | "Number" => Some("Integer"),
        "?" | "Object" | "String" | "CharSequence" => Some("String"),
        _ => None,
    }
}

/// A stream of the JDK that fails on first use (`new PipedWriter()`: reading or writing a pipe
/// that is not connected throws `IOException("Pipe not connected")` at once, without blocking):
/// the value that runs the code handling an I/O failure.
fn failing_io(c: &mut Builder, class: &str) {
    c.push(new(class, vec![]));
    c.import(&format!("java.io.{class}"));
}

/// The classes [`failing_io`] makes.
const FAILING_IO: &[&str] = &["PipedReader", "PipedWriter", "PipedInputStream", "PipedOutputStream"];

/// Whether `v` is a stream that fails on first use ([`failing_io`]): a search leaves it out
/// where no code catches what it throws ([`catches_io_errors`]), a choice it would waste runs on.
pub fn is_failing_io(v: &JavaValue) -> bool {
    matches!(v, JavaValue::Constructed { class, args, .. } if args.is_empty() && FAILING_IO.contains(&class.as_str()))
}

/// Whether Java source `text` catches an `IOException` (or `Exception`, `Throwable`) anywhere.
pub fn catches_io_errors(text: &str) -> bool {
    text.match_indices("catch").any(|(at, _)| {
        let rest = text[at + 5..].trim_start();
        let Some(inside) = rest.strip_prefix('(').and_then(|r| r.split(')').next()) else { return false };
        inside
            .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
            .any(|w| matches!(w.rsplit('.').next(), Some("IOException" | "Exception" | "Throwable")))
    })
}

/// The candidates for a value of the Java type `java_ty` (as the code writes it: `Class<?>`,
/// `java.util.Set<Integer>`, `final Object`), or `None` when jreach has none for it. `own_class`
/// is the class under test as a test names it, a candidate for `Class` and `Object`.
///
/// ```
/// use jreach_synth::{jdk_choices, literal, JavaValue};
/// let c = jdk_choices("Locale", "Util").unwrap();
/// assert_eq!(literal(&c.options[0]), "Locale.US");
/// assert_eq!(c.options.last(), Some(&JavaValue::Null));
/// assert!(c.imports.contains(&"java.util.Locale".to_string()));
/// assert!(jdk_choices("com.acme.Order", "Util").is_none());
/// ```
pub fn jdk_choices(java_ty: &str, own_class: &str) -> Option<JdkChoices> {
    // A qualified name must be the JDK's own (`java.util.Set`, not `com.acme.Set`).
    let (simple, args) = parse(java_ty)?;
    let mut c = Builder::default();
    match (simple, args) {
        ("Object", None) => {
            c.push(JavaValue::Str("a".into()));
            c.push(JavaValue::Int(1));
            c.push(new("Object", vec![]));
            c.push(JavaValue::Array { elem_ty: "int".into(), id: 1, items: vec![JavaValue::Int(1)] });
            c.push(JavaValue::Array { elem_ty: "String".into(), id: 2, items: vec![JavaValue::Str("a".into())] });
            c.push(JavaValue::Expr(format!("new {own_class}[0]")));
            // An object whose class has public fields (`x`, `y`), which reflection reads and
            // writes under any module rules: what serializers and `toString` builders walk.
            c.push(new("java.awt.Point", vec![("int", JavaValue::Int(1)), ("int", JavaValue::Int(2))]));
        }
        ("Class", None) | ("Class", Some("?")) | ("Type", None) => {
            if simple == "Type" {
                c.import("java.lang.reflect.Type");
            }
            for class in ["String", "Integer", "int", "Object", "int[]", "String[]", "Thread.State", "Runnable"] {
                c.push(JavaValue::Expr(format!("{class}.class")));
            }
            c.push(JavaValue::Expr("List.class".into()));
            c.push(JavaValue::Expr("ArrayList.class".into()));
            // An anonymous class, which reflection treats apart (`isAnonymousClass`), and a class
            // with public fields, which it reads and writes under any module rules.
            c.push(JavaValue::Expr("new Object() {}.getClass()".into()));
            c.push(JavaValue::Expr("java.awt.Point.class".into()));
            c.import("java.util.List");
            c.import("java.util.ArrayList");
            if simple == "Type" {
                // The other kinds of `Type`, read off JDK signatures that never change.
                for kind in GENERIC_TYPE_KINDS {
                    generic_type(&mut c, kind);
                }
            }
            c.push(JavaValue::Expr(format!("{own_class}.class")));
        }
        (kind, _) if GENERIC_TYPE_KINDS.contains(&kind) => generic_type(&mut c, kind),
        ("Class", Some(arg)) if is_simple_name(arg) => c.push(JavaValue::Expr(format!("{arg}.class"))),
        ("Class", Some(arg)) if arg.starts_with("? extends ") && is_simple_name(arg[10..].trim()) => {
            let bound = arg[10..].trim();
            if bound == "Annotation" || bound == "java.lang.annotation.Annotation" {
                c.push(JavaValue::Expr("Deprecated.class".into()));
                c.push(JavaValue::Expr("FunctionalInterface.class".into()));
                c.import("java.lang.annotation.Annotation");
            }
            c.push(JavaValue::Expr(format!("{bound}.class")));
        }
        ("Class", Some(arg)) if arg.strip_suffix("[]").is_some_and(|e| is_simple_name(e.trim())) => {
            c.push(JavaValue::Expr(format!("{arg}.class")))
        }
        // Members of JDK classes that never change, found by a name unique in their class:
        // through `getMethods()`, not `getMethod(...)`, whose checked exception would not compile
        // in the search's harness.
        ("Method", None) => reflected_methods(&mut c),
        ("Constructor", None | Some("?")) => reflected_constructors(&mut c),
        ("Field", None) => reflected_fields(&mut c),
        ("AccessibleObject" | "Member" | "AnnotatedElement", None) => {
            reflected_methods(&mut c);
            reflected_fields(&mut c);
            reflected_constructors(&mut c);
            c.import(&format!("java.lang.reflect.{simple}"));
        }
        ("Executable", None) => {
            reflected_methods(&mut c);
            reflected_constructors(&mut c);
            c.import("java.lang.reflect.Executable");
        }
        ("Annotation", None) => {
            // Annotations the JDK's own declarations carry at run time.
            c.push(JavaValue::Expr("Runnable.class.getAnnotation(FunctionalInterface.class)".into()));
            c.push(JavaValue::Expr("Deprecated.class.getAnnotation(Retention.class)".into()));
            // One whose member is an array (`@Target({ANNOTATION_TYPE})`).
            c.push(JavaValue::Expr("Retention.class.getAnnotation(Target.class)".into()));
            c.import("java.lang.annotation.Annotation");
            c.import("java.lang.annotation.Retention");
            c.import("java.lang.annotation.Target");
        }
        ("Iterator" | "ListIterator", Some(arg)) => {
            // Fixed, readable iterators: empty, one element, two (the elements are not searched).
            let (one, two) = match element_kind(arg)? {
                "Integer" => ("1", "1, 2"),
                _ => ("\"a\"", "\"a\", \"b\""),
            };
            let it = if simple == "Iterator" { "iterator" } else { "listIterator" };
            c.push(JavaValue::Expr(format!("List.of({one}).{it}()")));
            c.push(JavaValue::Expr(format!("List.of({two}).{it}()")));
            c.push(JavaValue::Expr(format!("Collections.<{}>emptyList().{it}()", element_kind(arg)?)));
            c.import("java.util.List");
            c.import("java.util.Collections");
            c.import(&format!("java.util.{simple}"));
        }
        ("Supplier" | "Callable", Some(arg)) => {
            // `() -> 1`: a lambda returning one value, then none.
            let value = match element_kind(arg)? {
                "Integer" => "1",
                _ => "\"a\"",
            };
            c.push(JavaValue::Expr(format!("() -> {value}")));
            c.push(JavaValue::Expr("() -> null".into()));
            c.import(if simple == "Supplier" {
                "java.util.function.Supplier"
            } else {
                "java.util.concurrent.Callable"
            });
        }
        ("CharBuffer", None) => {
            // A buffer over an array (`hasArray()`, writable) and one over a string (neither).
            let chars = JavaValue::Array { elem_ty: "char".into(), id: 1, items: vec![JavaValue::Char('a' as u16)] };
            c.push(factory("CharBuffer", "wrap", vec![("char[]", chars)]));
            c.push(factory("CharBuffer", "wrap", vec![("CharSequence", JavaValue::Str("a".into()))]));
            c.import("java.nio.CharBuffer");
        }
        ("FieldPosition", None) => {
            c.push(new("FieldPosition", vec![("int", JavaValue::Int(0))]));
            c.import("java.text.FieldPosition");
        }
        ("ExecutionException", None) => {
            // Its cause decides what code that unwraps it does: unchecked, checked, an error.
            for cause in ["RuntimeException", "Exception", "Error"] {
                c.push(new(
                    "ExecutionException",
                    vec![("Throwable", new(cause, vec![("String", JavaValue::Str("a".into()))]))],
                ));
            }
            c.import("java.util.concurrent.ExecutionException");
        }
        ("ClassLoader", None) => {
            c.push(JavaValue::Expr("ClassLoader.getSystemClassLoader()".into()));
            c.push(JavaValue::Expr("ClassLoader.getPlatformClassLoader()".into()));
        }
        ("PrintStream", None) => {
            c.push(new("PrintStream", vec![("OutputStream", new("ByteArrayOutputStream", vec![]))]));
            c.import("java.io.PrintStream");
            c.import("java.io.ByteArrayOutputStream");
        }
        ("PrintWriter", None) => {
            c.push(new("PrintWriter", vec![("Writer", new("StringWriter", vec![]))]));
            c.import("java.io.PrintWriter");
            c.import("java.io.StringWriter");
        }
        ("RoundingMode" | "TimeUnit" | "ChronoUnit" | "DayOfWeek" | "Month" | "ElementType", None) => {
            let (package, constants): (&str, &[&str]) = match simple {
                "RoundingMode" => {
                    ("java.math", &["HALF_UP", "HALF_EVEN", "DOWN", "UP", "FLOOR", "CEILING", "UNNECESSARY"])
                }
                "TimeUnit" => ("java.util.concurrent", &["SECONDS", "MILLISECONDS", "NANOSECONDS", "MINUTES", "DAYS"]),
                "ChronoUnit" => ("java.time.temporal", &["DAYS", "SECONDS", "MONTHS", "YEARS", "HOURS", "MILLIS"]),
                "DayOfWeek" => ("java.time", &["MONDAY", "SATURDAY", "SUNDAY"]),
                "Month" => ("java.time", &["JANUARY", "FEBRUARY", "DECEMBER"]),
                _ => ("java.lang.annotation", &["TYPE", "METHOD", "FIELD"]),
            };
            for k in constants {
                c.push(JavaValue::Expr(format!("{simple}.{k}")));
            }
            c.import(&format!("{package}.{simple}"));
        }
        ("Throwable" | "Exception" | "RuntimeException", None) => {
            c.push(new("RuntimeException", vec![("String", JavaValue::Str("a".into()))]));
            c.push(new(
                "RuntimeException",
                vec![("String", JavaValue::Str("a".into())), ("Throwable", new("IllegalStateException", vec![]))],
            ));
            c.push(new("IllegalArgumentException", vec![]));
            if simple != "RuntimeException" {
                c.push(new("Exception", vec![("String", JavaValue::Str("a".into()))]));
            }
            if simple == "Throwable" {
                c.push(new("Error", vec![]));
            }
        }
        ("Number", None) => {
            c.push(JavaValue::Int(1));
            c.push(JavaValue::Long(1));
            c.push(JavaValue::Double(1.5));
            c.push(big_integer());
            c.push(big_decimal());
            c.import("java.math.BigInteger");
            c.import("java.math.BigDecimal");
        }
        ("BigInteger", None) => {
            c.push(big_integer());
            c.import("java.math.BigInteger");
        }
        ("BigDecimal", None) => {
            c.push(big_decimal());
            c.import("java.math.BigDecimal");
        }
        ("Locale", None) => {
            for l in ["US", "ROOT", "FRANCE", "GERMANY", "JAPAN", "CHINA"] {
                c.push(JavaValue::Expr(format!("Locale.{l}")));
            }
            c.push(JavaValue::Expr("Locale.forLanguageTag(\"tr-TR\")".into()));
            c.import("java.util.Locale");
        }
        ("TimeZone", None) => {
            for z in ["UTC", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe"] {
                c.push(JavaValue::Expr(format!("TimeZone.getTimeZone(\"{z}\")")));
            }
            c.import("java.util.TimeZone");
        }
        ("ZoneId", None) => {
            for z in ["UTC", "America/New_York", "Asia/Kolkata"] {
                c.push(JavaValue::Expr(format!("ZoneId.of(\"{z}\")")));
            }
            // A fixed offset is the other kind of zone (a `ZoneOffset`, not a region).
            c.push(factory("ZoneOffset", "ofHours", vec![("int", JavaValue::Int(1))]));
            c.import("java.time.ZoneId");
            c.import("java.time.ZoneOffset");
        }
        ("Duration", None) => {
            c.push(factory("Duration", "ofMillis", vec![("long", JavaValue::Long(1))]));
            c.push(JavaValue::Expr("Duration.ZERO".into()));
            c.import("java.time.Duration");
        }
        // (JDBC's date, by its qualified name: it is no `java.util.Date` a test imports.)
        ("Date", None) if java_ty.trim().trim_start_matches("final ").trim() == "java.sql.Date" => {
            c.push(new("java.sql.Date", vec![("long", JavaValue::Long(0))]));
        }
        ("Date", None) => {
            c.push(new("Date", vec![("long", JavaValue::Long(0))]));
            c.import("java.util.Date");
        }
        ("Comparator", Some("?" | "String" | "Integer" | "java.lang.String" | "java.lang.Integer")) => {
            c.push(JavaValue::Expr("Comparator.naturalOrder()".into()));
            c.push(JavaValue::Expr("Comparator.reverseOrder()".into()));
            c.import("java.util.Comparator");
        }
        ("Instant", None) => {
            c.push(factory("Instant", "ofEpochMilli", vec![("long", JavaValue::Long(0))]));
            c.import("java.time.Instant");
        }
        ("Charset", None) => {
            for cs in ["UTF_8", "US_ASCII", "ISO_8859_1", "UTF_16"] {
                c.push(JavaValue::Expr(format!("StandardCharsets.{cs}")));
            }
            c.import("java.nio.charset.Charset");
            c.import("java.nio.charset.StandardCharsets");
        }
        ("Writer", None) => {
            c.push(new("StringWriter", vec![]));
            c.import("java.io.Writer");
            c.import("java.io.StringWriter");
            failing_io(&mut c, "PipedWriter");
        }
        ("StringWriter", None) => {
            c.push(new("StringWriter", vec![]));
            c.import("java.io.StringWriter");
        }
        ("Appendable", None) => {
            c.push(new("StringBuilder", vec![]));
            c.push(new("StringWriter", vec![]));
            c.import("java.io.StringWriter");
            failing_io(&mut c, "PipedWriter");
        }
        ("StringBuilder" | "StringBuffer", None) => {
            c.push(new(simple, vec![("String", JavaValue::Str(String::new()))]));
        }
        ("Reader", None) | ("StringReader", None) => {
            c.push(new("StringReader", vec![("String", JavaValue::Str(String::new()))]));
            c.import("java.io.Reader");
            c.import("java.io.StringReader");
            if simple == "Reader" {
                failing_io(&mut c, "PipedReader");
            }
        }
        ("InputStream", None) | ("ByteArrayInputStream", None) => {
            let bytes = JavaValue::Array { elem_ty: "byte".into(), id: 1, items: vec![] };
            c.push(new("ByteArrayInputStream", vec![("byte[]", bytes)]));
            c.import("java.io.InputStream");
            c.import("java.io.ByteArrayInputStream");
            if simple == "InputStream" {
                failing_io(&mut c, "PipedInputStream");
            }
        }
        ("OutputStream", None) | ("ByteArrayOutputStream", None) => {
            c.push(new("ByteArrayOutputStream", vec![]));
            c.import("java.io.OutputStream");
            c.import("java.io.ByteArrayOutputStream");
            if simple == "OutputStream" {
                failing_io(&mut c, "PipedOutputStream");
            }
        }
        ("BitSet", None) => {
            // The search sets bits through the words (and their number): bit `k` is bit `k % 64`
            // of word `k / 64`.
            c.push(new("BitSet", vec![]));
            let words = JavaValue::Array { elem_ty: "long".into(), id: 1, items: vec![JavaValue::Long(1)] };
            c.push(factory("BitSet", "valueOf", vec![("long[]", words)]));
            c.import("java.util.BitSet");
        }
        ("Properties", None) => {
            c.push(new("Properties", vec![]));
            c.import("java.util.Properties");
        }
        ("ParsePosition", None) => {
            c.push(new("ParsePosition", vec![("int", JavaValue::Int(0))]));
            c.import("java.text.ParsePosition");
        }
        ("Random", None) => {
            c.push(JavaValue::Expr("new Random(1)".into()));
            c.import("java.util.Random");
        }
        ("AtomicInteger", None) => {
            c.push(new("AtomicInteger", vec![("int", JavaValue::Int(1))]));
            c.import("java.util.concurrent.atomic.AtomicInteger");
        }
        ("AtomicLong", None) => {
            c.push(new("AtomicLong", vec![("long", JavaValue::Long(1))]));
            c.import("java.util.concurrent.atomic.AtomicLong");
        }
        ("AtomicBoolean", None) => {
            c.push(new("AtomicBoolean", vec![("boolean", JavaValue::Bool(true))]));
            c.import("java.util.concurrent.atomic.AtomicBoolean");
        }
        ("UUID", None) => {
            c.push(new("UUID", vec![("long", JavaValue::Long(1)), ("long", JavaValue::Long(2))]));
            c.import("java.util.UUID");
        }
        ("URI", None) => {
            for u in ["http://example.com/a?b=c", "a/b", "mailto:a@example.com"] {
                c.push(JavaValue::Expr(format!("URI.create(\"{u}\")")));
            }
            c.import("java.net.URI");
        }
        ("Pattern", None) => {
            c.push(factory("Pattern", "compile", vec![("String", JavaValue::Str("a".into()))]));
            c.import("java.util.regex.Pattern");
        }
        ("Currency", None) => {
            for code in ["USD", "EUR", "JPY"] {
                c.push(JavaValue::Expr(format!("Currency.getInstance(\"{code}\")")));
            }
            c.import("java.util.Currency");
        }
        ("LocalDate", None) => {
            let ymd = [("int", JavaValue::Int(2024)), ("int", JavaValue::Int(1)), ("int", JavaValue::Int(31))];
            c.push(factory("LocalDate", "of", ymd.to_vec()));
            c.import("java.time.LocalDate");
        }
        ("LocalTime", None) => {
            c.push(factory("LocalTime", "of", vec![("int", JavaValue::Int(12)), ("int", JavaValue::Int(30))]));
            c.import("java.time.LocalTime");
        }
        ("LocalDateTime", None) => {
            let args = [2024, 1, 31, 12, 30].map(|n| ("int", JavaValue::Int(n)));
            c.push(factory("LocalDateTime", "of", args.to_vec()));
            c.import("java.time.LocalDateTime");
        }
        ("ZonedDateTime" | "OffsetDateTime", None) => {
            // At an instant whose seconds the search moves, in a fixed offset (a region's
            // rules would change with the JDK's time-zone data).
            let instant = factory("Instant", "ofEpochSecond", vec![("long", JavaValue::Long(0))]);
            let utc = JavaValue::Expr("ZoneOffset.UTC".into());
            c.push(factory(simple, "ofInstant", vec![("Instant", instant), ("ZoneId", utc)]));
            c.import(&format!("java.time.{simple}"));
            c.import("java.time.Instant");
            c.import("java.time.ZoneOffset");
            c.import("java.time.ZoneId");
        }
        ("OffsetTime", None) => {
            let time = factory("LocalTime", "of", vec![("int", JavaValue::Int(12)), ("int", JavaValue::Int(30))]);
            c.push(factory(
                "OffsetTime",
                "of",
                vec![("LocalTime", time), ("ZoneOffset", JavaValue::Expr("ZoneOffset.UTC".into()))],
            ));
            c.import("java.time.OffsetTime");
            c.import("java.time.LocalTime");
            c.import("java.time.ZoneOffset");
        }
        ("ZoneOffset", None) => {
            c.push(JavaValue::Expr("ZoneOffset.UTC".into()));
            c.push(factory("ZoneOffset", "ofHours", vec![("int", JavaValue::Int(1))]));
            c.import("java.time.ZoneOffset");
        }
        ("MonthDay", None) => {
            c.push(factory("MonthDay", "of", vec![("int", JavaValue::Int(1)), ("int", JavaValue::Int(31))]));
            c.import("java.time.MonthDay");
        }
        ("Period", None) => {
            c.push(factory("Period", "ofDays", vec![("int", JavaValue::Int(1))]));
            c.push(JavaValue::Expr("Period.ZERO".into()));
            c.import("java.time.Period");
        }
        ("Year", None) => {
            c.push(factory("Year", "of", vec![("int", JavaValue::Int(2024))]));
            c.import("java.time.Year");
        }
        ("YearMonth", None) => {
            c.push(factory("YearMonth", "of", vec![("int", JavaValue::Int(2024)), ("int", JavaValue::Int(1))]));
            c.import("java.time.YearMonth");
        }
        ("AtomicIntegerArray" | "AtomicLongArray", None) => {
            let (elem, one) =
                if simple == "AtomicIntegerArray" { ("int", JavaValue::Int(1)) } else { ("long", JavaValue::Long(1)) };
            let array = JavaValue::Array { elem_ty: elem.into(), id: 1, items: vec![one] };
            c.push(new(simple, vec![(&format!("{elem}[]"), array)]));
            c.import(&format!("java.util.concurrent.atomic.{simple}"));
        }
        ("Calendar" | "GregorianCalendar", None) => {
            // Its fields are the ones given, on any machine (its instant is in the machine's
            // time zone, as any `Calendar` a test makes).
            let fields = [2024, 0, 31, 12, 30, 15].map(|n| ("int", JavaValue::Int(n)));
            c.push(new("GregorianCalendar", fields.to_vec()));
            c.import("java.util.GregorianCalendar");
            c.import("java.util.Calendar");
        }
        ("Timestamp", None) => {
            c.push(new("Timestamp", vec![("long", JavaValue::Long(0))]));
            c.import("java.sql.Timestamp");
        }
        ("Time", None) => {
            c.push(new("Time", vec![("long", JavaValue::Long(0))]));
            c.import("java.sql.Time");
        }
        ("Entry" | "Map.Entry", Some(args)) => {
            // `new AbstractMap.SimpleEntry<>("a", 1)`: the key and the value are searched.
            let (key, value) = args.split_once(',')?;
            let item = |ty: &str| -> Option<(&'static str, JavaValue)> {
                match ty.trim().trim_start_matches("java.lang.") {
                    "?" | "Object" | "String" | "? extends String" | "? extends Object" => {
                        Some(("String", JavaValue::Str("a".into())))
                    }
                    "Integer" | "? extends Integer" | "? extends Number" | "Number" => {
                        Some(("Integer", JavaValue::Int(1)))
                    }
                    _ => None,
                }
            };
            let (k, v) = (item(key)?, item(value)?);
            c.push(new("AbstractMap.SimpleEntry<>", vec![k, v]));
            c.import("java.util.AbstractMap");
            c.import(if simple == "Entry" { "java.util.Map.Entry" } else { "java.util.Map" });
        }
        (map, Some(args)) if map_entry(map, args).is_some() => {
            // Empty, then one entry whose key and value the search moves (a key of any object
            // is a string or an object whose class has fields, which serializers tell apart).
            let (made, key, value) = map_entry(map, args)?;
            c.push(new(&format!("{made}<>"), vec![]));
            let of = factory("Map", "of", vec![("Object", key), ("Object", value)]);
            c.push(new(&format!("{made}<>"), vec![("java.util.Map", of)]));
            c.import("java.util.Map");
            c.import(&format!("java.util.{made}"));
        }
        (collection, Some(_)) if searched_collection(collection, args).is_none() => {
            // Of elements no test writes: empty (a `null` list is what code rejects first).
            let made = empty_collection(collection)?;
            c.push(new(&format!("{made}<>"), vec![]));
            c.import(&format!("java.util.{made}"));
        }
        (collection, Some(_)) => {
            let (made, elem) = searched_collection(collection, args)?;
            // `new HashSet<>(Arrays.asList(new Integer[] {0}))`: the array's length and
            // elements are searched.
            let items = vec![match elem {
                "Integer" => JavaValue::Int(0),
                "Long" => JavaValue::Long(0),
                "Double" => JavaValue::Double(0.0),
                "Character" => JavaValue::Char(u16::from(b'a')),
                "Boolean" => JavaValue::Bool(false),
                _ => JavaValue::Str("a".into()),
            }];
            let array = JavaValue::Array { elem_ty: elem.to_string(), id: 1, items };
            let list = factory("Arrays", "asList", vec![(&format!("{elem}[]"), array)]);
            c.push(new(&format!("{made}<>"), vec![(&format!("java.util.Collection<{elem}>"), list)]));
            c.import("java.util.Arrays");
            c.import(&format!("java.util.{made}"));
            if collection != "Iterable" {
                c.import(&format!("java.util.{collection}"));
            }
        }
        _ => return None,
    }
    // A qualified name whose simple name the candidates import from another package
    // (`java.sql.Date`, not the `java.util.Date` they make): none of them fits.
    let qualified = java_ty.trim().trim_start_matches("final ").trim();
    let qualified = qualified.split('<').next().unwrap_or(qualified).trim();
    if qualified.contains('.') && c.imports.iter().any(|i| i.rsplit('.').next() == Some(simple) && i != qualified) {
        return None;
    }
    c.options.push(JavaValue::Null);
    Some(JdkChoices { options: c.options, imports: c.imports })
}

#[derive(Default)]
struct Builder {
    options: Vec<JavaValue>,
    imports: Vec<String>,
}

impl Builder {
    fn push(&mut self, v: JavaValue) {
        self.options.push(v);
    }

    fn import(&mut self, qualified: &str) {
        if !self.imports.iter().any(|i| i == qualified) {
            self.imports.push(qualified.to_string());
        }
    }
}

/// A Java identifier or a dotted name of them (`Integer`, `Map.Entry`), no type arguments.
fn is_simple_name(s: &str) -> bool {
    !s.is_empty()
        && s.split('.').all(|p| {
            p.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_')
                && p.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '$')
        })
}

/// `new class(args)`.
fn new(class: &str, args: Vec<(&str, JavaValue)>) -> JavaValue {
    JavaValue::Constructed {
        class: class.to_string(),
        args: args.into_iter().map(|(t, v)| (t.to_string(), v)).collect(),
        calls: vec![],
        choices: vec![],
        body: None,
        factory: None,
        builder: None,
        cast_args: false,
    }
}

/// `class.method(args)`.
fn factory(class: &str, method: &str, args: Vec<(&str, JavaValue)>) -> JavaValue {
    JavaValue::Constructed {
        class: class.to_string(),
        args: args.into_iter().map(|(t, v)| (t.to_string(), v)).collect(),
        calls: vec![],
        choices: vec![],
        body: None,
        factory: Some(format!("{class}.{method}")),
        builder: None,
        cast_args: false,
    }
}

fn big_integer() -> JavaValue {
    factory("BigInteger", "valueOf", vec![("long", JavaValue::Long(1))])
}

/// `String.length()`, `Object.hashCode()` (instance methods without parameters), `Math.sqrt`
/// (static, one parameter), `String.isBlank()`, `Arrays.asList(T...)` (static, varargs): each
/// name is unique in its class.
fn reflected_methods(c: &mut Builder) {
    let methods =
        [("String", "length"), ("Object", "hashCode"), ("Math", "sqrt"), ("String", "isBlank"), ("Arrays", "asList")];
    for (class, name) in methods {
        c.push(JavaValue::Expr(format!(
            "Arrays.stream({class}.class.getMethods()).filter(mth -> mth.getName().equals(\"{name}\")).findFirst().get()"
        )));
    }
    c.import("java.lang.reflect.Method");
    c.import("java.util.Arrays");
}

/// The public constructors of classes that have exactly one: `Object()`, `StringReader(String)`.
fn reflected_constructors(c: &mut Builder) {
    c.push(JavaValue::Expr("Object.class.getConstructors()[0]".into()));
    c.push(JavaValue::Expr("StringReader.class.getConstructors()[0]".into()));
    c.import("java.lang.reflect.Constructor");
    c.import("java.io.StringReader");
}

/// Public static fields: `Integer.MAX_VALUE`, `String.CASE_INSENSITIVE_ORDER`.
fn reflected_fields(c: &mut Builder) {
    for (class, name) in [("Integer", "MAX_VALUE"), ("String", "CASE_INSENSITIVE_ORDER")] {
        c.push(JavaValue::Expr(format!(
            "Arrays.stream({class}.class.getFields()).filter(fld -> fld.getName().equals(\"{name}\")).findFirst().get()"
        )));
    }
    c.import("java.lang.reflect.Field");
    c.import("java.util.Arrays");
}

/// The kinds of `java.lang.reflect.Type` other than `Class`.
const GENERIC_TYPE_KINDS: [&str; 4] = ["ParameterizedType", "TypeVariable", "GenericArrayType", "WildcardType"];

/// A value of the `java.lang.reflect` type `kind` read off a JDK signature that never changes:
/// `AbstractList<E>` (the generic superclass of `ArrayList`), the `E` of `List`, the `T[]` of
/// `Arrays.asList(T...)`, the `? extends U` of `Class.asSubclass`'s result.
fn generic_type(c: &mut Builder, kind: &str) {
    let expr = match kind {
        "ParameterizedType" => "(ParameterizedType) ArrayList.class.getGenericSuperclass()",
        "TypeVariable" => "List.class.getTypeParameters()[0]",
        // Through `getMethods()`, not `getMethod(...)`: a checked exception would not compile in
        // the search's harness. Each name is unique in its class.
        "GenericArrayType" => {
            "(GenericArrayType) Arrays.stream(Arrays.class.getMethods()).filter(mth -> mth.getName().equals(\"asList\"))\
             .findFirst().get().getGenericParameterTypes()[0]"
        }
        _ => {
            "(WildcardType) ((ParameterizedType) Arrays.stream(Class.class.getMethods())\
             .filter(mth -> mth.getName().equals(\"asSubclass\")).findFirst().get().getGenericReturnType())\
             .getActualTypeArguments()[0]"
        }
    };
    c.push(JavaValue::Expr(expr.into()));
    c.import(&format!("java.lang.reflect.{kind}"));
    match kind {
        "ParameterizedType" | "TypeVariable" => {}
        "WildcardType" => {
            c.import("java.lang.reflect.ParameterizedType");
            c.import("java.util.Arrays");
        }
        _ => c.import("java.util.Arrays"),
    }
    // The lambda's parameter is named so as not to shadow a local of the test.
    c.import("java.util.ArrayList");
    c.import("java.util.List");
}

/// `BigDecimal.valueOf(unscaled, scale)`: the search moves both.
fn big_decimal() -> JavaValue {
    factory("BigDecimal", "valueOf", vec![("long", JavaValue::Long(15)), ("int", JavaValue::Int(1))])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::literal;

    fn written(ty: &str) -> Vec<String> {
        jdk_choices(ty, "Own").map(|c| c.options.iter().map(literal).collect()).unwrap_or_default()
    }

    #[test]
    fn classes_are_class_literals_and_a_named_class_is_its_own() {
        let all = written("Class<?>");
        assert_eq!(all[0], "String.class");
        assert!(all.contains(&"Own.class".to_string()));
        assert_eq!(all.last().unwrap(), "null");
        assert_eq!(written("Class<Integer>"), vec!["Integer.class", "null"]);
        assert_eq!(written("Class<? extends Number>"), vec!["Number.class", "null"]);
        assert!(written("Class<? super Integer>").is_empty());
    }

    #[test]
    fn types_are_classes_then_the_generic_kinds() {
        let all = written("java.lang.reflect.Type");
        assert_eq!(all[0], "String.class");
        for kind in GENERIC_TYPE_KINDS {
            let first = &written(kind)[0];
            assert!(all.contains(first), "{kind}: {first} among {all:?}");
            assert!(first.starts_with(&format!("({kind})")) || kind == "TypeVariable", "{first}");
        }
        assert_eq!(written("TypeVariable<?>")[0], "List.class.getTypeParameters()[0]");
        let imports = jdk_choices("WildcardType", "Own").expect("a wildcard").imports;
        assert!(imports.iter().any(|i| i == "java.lang.reflect.ParameterizedType"), "{imports:?}");
    }

    #[test]
    fn collections_of_integers_and_strings_come_from_a_searched_array() {
        assert_eq!(written("Set<Integer>")[0], "new HashSet<>(Arrays.asList(new Integer[] {0}))");
        assert_eq!(written("java.util.Collection<String>")[0], "new ArrayList<>(Arrays.asList(new String[] {\"a\"}))");
        // Of elements no search writes: empty.
        assert_eq!(written("Set<int[]>"), ["new HashSet<>()", "null"]);
        // A map: empty, or one entry the search moves; a key of any object is a string or not.
        assert_eq!(written("Map<String, Integer>"), ["new HashMap<>()", "new HashMap<>(Map.of(\"a\", 1))", "null"]);
        let any = written("Map<K, List<V>>");
        assert_eq!(any, ["new HashMap<>()", "null"], "a list of values no search writes");
        let entry = |ty: &str| format!("{:?}", jdk_choices(ty, "Own").expect("a map").options[1]);
        assert!(written("java.util.Map<?, ?>")[1].starts_with("new HashMap<>(Map.of(\"a\", "));
        assert!(entry("java.util.Map<?, ?>").contains("java.awt.Point"), "a key of any object");
        assert!(!entry("TreeMap<Object, String>").contains("Point"), "a sorted map's keys compare");
        assert_eq!(written("Map<Map<String, String>, String>"), ["new HashMap<>()", "null"]);
        assert!(written("Optional<int[]>").is_empty());
    }

    #[test]
    fn numbers_keep_their_parts_open_to_the_search() {
        assert_eq!(written("BigDecimal"), vec!["BigDecimal.valueOf(15L, 1)", "null"]);
        assert_eq!(written("final Number")[..3], ["1", "1L", "1.5"]);
    }

    #[test]
    fn a_char_buffer_is_over_an_array_or_over_a_string() {
        // `buf.hasArray()` holds for the first only.
        assert_eq!(written("CharBuffer"), vec!["CharBuffer.wrap(new char[] {'a'})", "CharBuffer.wrap(\"a\")", "null"]);
    }

    #[test]
    fn bit_sets_come_from_searched_words() {
        assert_eq!(written("java.util.BitSet"), vec!["new BitSet()", "BitSet.valueOf(new long[] {1L})", "null"]);
        assert_eq!(written("ParsePosition"), vec!["new ParsePosition(0)", "null"]);
    }

    #[test]
    fn entries_atomic_arrays_and_calendars_keep_their_parts_searched() {
        assert_eq!(written("Map.Entry<String, Integer>")[0], "new AbstractMap.SimpleEntry<>(\"a\", 1)");
        assert_eq!(written("Entry<?, ?>")[0], "new AbstractMap.SimpleEntry<>(\"a\", \"a\")");
        let imports = jdk_choices("Entry<?, ?>", "Own").expect("an entry").imports;
        assert!(imports.iter().any(|i| i == "java.util.Map.Entry"), "{imports:?}");
        assert!(written("Map.Entry<int[], String>").is_empty());
        assert!(jdk_choices("com.acme.Map.Entry<String, String>", "Own").is_none());
        assert_eq!(written("AtomicIntegerArray")[0], "new AtomicIntegerArray(new int[] {1})");
        assert_eq!(written("java.util.Calendar")[0], "new GregorianCalendar(2024, 0, 31, 12, 30, 15)");
        assert_eq!(written("Timestamp"), vec!["new Timestamp(0L)", "null"]);
        assert_eq!(written("Time"), vec!["new Time(0L)", "null"]);
    }

    #[test]
    fn streams_include_one_that_fails_for_the_code_handling_io_errors() {
        assert_eq!(written("Reader"), vec!["new StringReader(\"\")", "new PipedReader()", "null"]);
        assert_eq!(written("StringReader"), vec!["new StringReader(\"\")", "null"]);
        assert_eq!(written("Writer")[1], "new PipedWriter()");
        assert_eq!(written("Appendable")[2], "new PipedWriter()");
        assert_eq!(written("InputStream")[1], "new PipedInputStream()");
        assert_eq!(written("OutputStream")[1], "new PipedOutputStream()");
        let imports = jdk_choices("Reader", "Own").expect("a reader").imports;
        assert!(imports.iter().any(|i| i == "java.io.PipedReader"), "{imports:?}");
        let reader = &jdk_choices("Reader", "Own").expect("a reader").options;
        assert_eq!(reader.iter().map(is_failing_io).collect::<Vec<_>>(), [false, true, false]);
        // Only code catching what they throw gets them.
        assert!(catches_io_errors("try { r.read(); } catch (IOException e) { }"));
        assert!(catches_io_errors("try { r.read(); } catch (final java.io.IOException | RuntimeException e) { }"));
        assert!(catches_io_errors("} catch(Exception e) {"));
        assert!(!catches_io_errors("void f() throws IOException { } // catch (NumberFormatException e)"));
        assert!(!catches_io_errors("} catch (EOFException e) {"));
    }

    #[test]
    fn members_of_jdk_classes_are_found_by_a_name_unique_in_their_class() {
        let first = |ty: &str| literal(&jdk_choices(ty, "C").unwrap().options[0]);
        expect_test::expect![[r#"Arrays.stream(String.class.getMethods()).filter(mth -> mth.getName().equals("length")).findFirst().get()"#]]
            .assert_eq(&first("Method"));
        expect_test::expect!["Object.class.getConstructors()[0]"].assert_eq(&first("Constructor<?>"));
        expect_test::expect![[r#"Arrays.stream(Integer.class.getFields()).filter(fld -> fld.getName().equals("MAX_VALUE")).findFirst().get()"#]]
            .assert_eq(&first("java.lang.reflect.Field"));
        expect_test::expect!["Integer[].class"].assert_eq(&first("Class<Integer[]>"));
        // Any member: methods, fields and constructors, null last.
        let any = jdk_choices("AccessibleObject", "C").unwrap();
        assert_eq!(any.options.len(), 5 + 2 + 2 + 1, "{:?}", any.options);
        // One of them takes varargs, which reflection tells apart (`isVarArgs()`).
        assert!(literal(&any.options[4]).starts_with("Arrays.stream(Arrays.class.getMethods())"));
        assert!(any.imports.contains(&"java.lang.reflect.AccessibleObject".to_string()));
        assert!(jdk_choices("Constructor<String>", "C").is_none());
    }

    #[test]
    fn iterators_suppliers_and_collections_of_any_object() {
        let all = |ty: &str| -> Vec<String> { jdk_choices(ty, "C").unwrap().options.iter().map(literal).collect() };
        expect_test::expect![[r#"["List.of(\"a\").iterator()", "List.of(\"a\", \"b\").iterator()", "Collections.<String>emptyList().iterator()", "null"]"#]]
            .assert_eq(&format!("{:?}", all("Iterator<?>")));
        expect_test::expect![[r#"["() -> 1", "() -> null", "null"]"#]]
            .assert_eq(&format!("{:?}", all("Supplier<? extends Integer>")));
        // Any object: a list of strings, whose length and elements are searched.
        assert!(is_searched_collection("Collection<?>") && is_searched_collection("List<Object>"));
        assert!(
            all("Collection<?>")[0].starts_with("new ArrayList<>(Arrays.asList(new String[]"),
            "{:?}",
            all("Collection<?>")
        );
        assert!(jdk_choices("Iterator<Node>", "C").is_none());
        assert_eq!(all("ExecutionException").len(), 3 + 1);
    }

    #[test]
    fn types_of_the_project_get_none() {
        assert!(jdk_choices("com.acme.Locale", "Own").is_none());
        assert!(jdk_choices("Order", "Own").is_none());
    }

    #[test]
    fn a_jdk_type_named_like_another_gets_none_of_the_others_values() {
        // (`java.sql.Date` is no `java.util.Date`: a test passing one does not compile.)
        assert!(jdk_choices("java.security.Timestamp", "Own").is_none());
        assert!(jdk_choices("java.sql.Timestamp", "Own").is_some());
        let sql = jdk_choices("java.sql.Date", "Own").expect("JDBC's date");
        assert_eq!(crate::literal(&sql.options[0]), "new java.sql.Date(0L)");
        assert!(sql.imports.is_empty(), "{:?}", sql.imports);
        assert!(jdk_choices("java.util.Date", "Own").is_some());
        assert!(jdk_choices("Date", "Own").is_some());
    }
}
