//! JDK types jreach does not model but a test can write a value of (`new StringWriter()`,
//! `new StringReader("")`, `Locale.US`): an input of such a type is an opaque reference
//! ([`crate::Ty::Ref`]) in the model, and the test passes a readable value of it
//! (`jreach_synth::jdk_choices` gives the candidates; the first is what a test passes when the
//! model has no say, the others are a search's on the JVM). A constructor taking such types is
//! one a test can call to create an object.

/// The simple names of those types (a qualified name must be the JDK's: `java.io.Reader`).
/// Every one of them has candidates in `jreach_synth::jdk_choices` (a test in `jreach-ide`
/// checks it).
pub const OPAQUE_JDK_TYPES: &[&str] = &[
    "Object",
    "Number",
    "BigInteger",
    "BigDecimal",
    "Locale",
    "TimeZone",
    "ZoneId",
    "Duration",
    "Instant",
    "Date",
    "Charset",
    "Random",
    "RoundingMode",
    "TimeUnit",
    "ChronoUnit",
    "DayOfWeek",
    "Month",
    "Throwable",
    "Exception",
    "RuntimeException",
    "Writer",
    "StringWriter",
    "PrintWriter",
    "PrintStream",
    "Appendable",
    "Reader",
    "StringReader",
    "InputStream",
    "ByteArrayInputStream",
    "OutputStream",
    "ByteArrayOutputStream",
    "StringBuilder",
    "StringBuffer",
    "BitSet",
    "Properties",
    "ParsePosition",
    "Type",
    "AtomicInteger",
    "AtomicLong",
    "AtomicBoolean",
    "UUID",
    "URI",
    "Pattern",
    "Currency",
    "LocalDate",
    "LocalTime",
    "LocalDateTime",
    "ZonedDateTime",
    "OffsetDateTime",
    "OffsetTime",
    "ZoneOffset",
    "MonthDay",
    "Period",
    "Year",
    "YearMonth",
    "AtomicIntegerArray",
    "AtomicLongArray",
    "Calendar",
    "GregorianCalendar",
    "Timestamp",
    "Method",
    "Field",
    "Executable",
    "AccessibleObject",
    "AnnotatedElement",
    "CharBuffer",
    "FieldPosition",
    "ExecutionException",
    "ClassLoader",
];

/// Whether `java_ty` (as the code writes it: `final Reader`, `java.io.Reader`) is one of
/// [`OPAQUE_JDK_TYPES`]. Generic types and arrays are not.
///
/// ```
/// use jreach_ir::opaque_jdk::test_writes_value_of;
/// assert!(test_writes_value_of("java.io.Writer"));
/// assert!(test_writes_value_of("final Locale"));
/// assert!(!test_writes_value_of("com.acme.Writer"));
/// assert!(!test_writes_value_of("Reader[]"));
/// ```
pub fn test_writes_value_of(java_ty: &str) -> bool {
    let ty = java_ty.trim();
    let ty = ty.strip_prefix("final ").unwrap_or(ty).trim();
    if ty.contains(['<', '[']) {
        return false;
    }
    let simple = match ty.rsplit_once('.') {
        Some((package, simple)) if package.starts_with("java.") => simple,
        Some(_) => return false,
        None => ty,
    };
    OPAQUE_JDK_TYPES.contains(&simple)
}
