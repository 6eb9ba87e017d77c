//! The JDK exception classes jreach knows, with their superclasses, for matching `catch` clauses.

/// Superclass of a known exception class (simple names).
fn parent(class: &str) -> Option<&'static str> {
    Some(match class {
        "Throwable" => return None,
        "Exception" | "Error" => "Throwable",
        "RuntimeException"
        | "java.io.IOException"
        | "IOException"
        | "InterruptedException"
        | "ReflectiveOperationException"
        | "CloneNotSupportedException" => "Exception",
        "ArithmeticException"
        | "ArrayStoreException"
        | "ClassCastException"
        | "IllegalArgumentException"
        | "IllegalStateException"
        | "IndexOutOfBoundsException"
        | "NegativeArraySizeException"
        | "NullPointerException"
        | "UnsupportedOperationException"
        | "SecurityException"
        | "java.util.NoSuchElementException"
        | "NoSuchElementException"
        | "ConcurrentModificationException" => "RuntimeException",
        "NumberFormatException" => "IllegalArgumentException",
        "ArrayIndexOutOfBoundsException" | "StringIndexOutOfBoundsException" => "IndexOutOfBoundsException",
        "InputMismatchException" => "NoSuchElementException",
        "AssertionError" | "LinkageError" | "VirtualMachineError" => "Error",
        "StackOverflowError" | "OutOfMemoryError" | "InternalError" | "UnknownError" => "VirtualMachineError",
        "ExceptionInInitializerError" | "NoClassDefFoundError" => "LinkageError",
        "FileNotFoundException" => "IOException",
        _ => return None,
    })
}

/// Whether the class is known to jreach.
pub fn is_known(class: &str) -> bool {
    class == "Throwable" || parent(class).is_some()
}

/// `Some(true)` if `thrown` is `catch_class` or a subclass, `Some(false)` if not, `None` when either
/// class is unknown (user-defined exceptions).
pub fn is_subclass(thrown: &str, catch_class: &str) -> Option<bool> {
    if !is_known(thrown) || !is_known(catch_class) {
        return if thrown == catch_class { Some(true) } else { None };
    }
    let mut c = Some(strip(thrown));
    let target = strip(catch_class);
    while let Some(cls) = c {
        if cls == target {
            return Some(true);
        }
        c = parent(cls);
    }
    Some(false)
}

fn strip(c: &str) -> &str {
    c.rsplit('.').next().unwrap_or(c)
}

/// Whether the class is unchecked (a RuntimeException or an Error).
pub fn is_unchecked(class: &str) -> Option<bool> {
    Some(is_subclass(class, "RuntimeException")? || is_subclass(class, "Error")?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hierarchy() {
        assert_eq!(is_subclass("ArithmeticException", "RuntimeException"), Some(true));
        assert_eq!(is_subclass("NumberFormatException", "IllegalArgumentException"), Some(true));
        assert_eq!(is_subclass("IllegalStateException", "IllegalArgumentException"), Some(false));
        assert_eq!(is_subclass("ArithmeticException", "Throwable"), Some(true));
        assert_eq!(is_subclass("MyException", "Exception"), None);
        assert_eq!(is_subclass("MyException", "MyException"), Some(true));
        assert_eq!(is_unchecked("AssertionError"), Some(true));
        assert_eq!(is_subclass("OutOfMemoryError", "VirtualMachineError"), Some(true));
        assert_eq!(is_subclass("StackOverflowError", "Error"), Some(true));
        assert_eq!(is_unchecked("IOException"), Some(false));
    }
}
