//! The server's settings, from `initializationOptions` and `workspace/didChangeConfiguration`.
//!
//! Both may hold the settings directly (`{"timeout": 5}`) or under a `jreach` section
//! (`{"jreach": {"timeout": 5}}`, as VS Code and Neovim send them). Unknown keys are ignored;
//! a value of the wrong type is ignored too and reported back, so that a typo never stops the
//! server.

use std::time::Duration;

use jreach_ide::GenOptions;
use jreach_synth::JUnit;
use serde_json::Value;

/// Which JUnit generated tests use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum JUnitSetting {
    /// What the project uses (build files, existing tests), else 5.
    #[default]
    Auto,
    Fixed(JUnit),
}

impl JUnitSetting {
    /// The generation set, `None` for what the project uses.
    pub fn fixed(self) -> Option<JUnit> {
        match self {
            JUnitSetting::Auto => None,
            JUnitSetting::Fixed(j) => Some(j),
        }
    }
}

/// Everything a user can set.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// Most loop iterations unrolled for test synthesis.
    pub unroll: u32,
    /// Solver time limit per query of test generation, in seconds.
    pub timeout: f64,
    /// Solver time limit per query of the dead-code diagnostics, in seconds.
    pub check_timeout: f64,
    pub junit: JUnitSetting,
    /// Root of the test sources; relative paths are taken from the workspace root. `None`: the
    /// project's own (`src/test/java` of a Maven or Gradle project, ...).
    pub test_root: Option<String>,
    /// Whether unreachable-code diagnostics are computed and published.
    pub diagnostics: bool,
    /// Whether they are also computed for the workspace's files that are not open.
    pub workspace_diagnostics: bool,
    /// Whether a generated test is run on the JVM (in a child process) before it is offered.
    /// Off: only tests whose whole path jreach models are offered, unverified.
    pub run_code: bool,
    /// Class path entries of the project's dependencies for those runs, before the build's.
    pub classpath: Vec<std::path::PathBuf>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            unroll: jreach_ide::DEFAULT_UNROLL,
            timeout: 10.0,
            check_timeout: jreach_ide::DEFAULT_CHECK_TIMEOUT.as_secs_f64(),
            junit: JUnitSetting::Auto,
            test_root: None,
            diagnostics: true,
            workspace_diagnostics: true,
            run_code: true,
            classpath: Vec::new(),
        }
    }
}

impl Settings {
    /// Applies the settings found in `value`; returns a description of each value it ignored.
    pub fn update(&mut self, value: &Value) -> Vec<String> {
        let mut ignored = Vec::new();
        let section = match value.get("jreach") {
            Some(v) if v.is_object() => v,
            _ => value,
        };
        let Some(map) = section.as_object() else {
            return ignored;
        };
        for (key, v) in map {
            let ok = match key.as_str() {
                "unroll" => match v.as_u64() {
                    Some(n) if (1..=100_000).contains(&n) => {
                        self.unroll = n as u32;
                        true
                    }
                    _ => v.is_null(),
                },
                "timeout" => match seconds(v) {
                    Some(t) => {
                        self.timeout = t;
                        true
                    }
                    None => v.is_null(),
                },
                "checkTimeout" => match seconds(v) {
                    Some(t) => {
                        self.check_timeout = t;
                        true
                    }
                    None => v.is_null(),
                },
                "junit" => {
                    let s = v.as_str().map(str::to_string).or_else(|| v.as_u64().map(|n| n.to_string()));
                    match s.as_deref() {
                        Some("auto") | None if v.is_null() || s.is_some() => {
                            self.junit = JUnitSetting::Auto;
                            true
                        }
                        Some("4") => {
                            self.junit = JUnitSetting::Fixed(JUnit::V4);
                            true
                        }
                        Some("5") => {
                            self.junit = JUnitSetting::Fixed(JUnit::V5);
                            true
                        }
                        _ => false,
                    }
                }
                "testRoot" => match v {
                    Value::String(s) if !s.trim().is_empty() => {
                        self.test_root = Some(s.trim().to_string());
                        true
                    }
                    Value::String(_) | Value::Null => {
                        self.test_root = None;
                        true
                    }
                    _ => false,
                },
                "runCode" => match v.as_bool() {
                    Some(b) => {
                        self.run_code = b;
                        true
                    }
                    None => v.is_null(),
                },
                "classpath" => match v {
                    Value::Array(items) if items.iter().all(Value::is_string) => {
                        self.classpath = items.iter().filter_map(Value::as_str).map(std::path::PathBuf::from).collect();
                        true
                    }
                    Value::String(s) => {
                        self.classpath = std::env::split_paths(s).filter(|p| !p.as_os_str().is_empty()).collect();
                        true
                    }
                    Value::Null => {
                        self.classpath.clear();
                        true
                    }
                    _ => false,
                },
                "diagnostics" => match v.as_bool() {
                    Some(b) => {
                        self.diagnostics = b;
                        true
                    }
                    None => v.is_null(),
                },
                "workspaceDiagnostics" => match v.as_bool() {
                    Some(b) => {
                        self.workspace_diagnostics = b;
                        true
                    }
                    None => v.is_null(),
                },
                _ => true,
            };
            if !ok {
                ignored.push(format!("jreach.{key} = {v}"));
            }
        }
        ignored
    }

    pub fn timeout(&self) -> Duration {
        Duration::from_secs_f64(self.timeout)
    }

    /// The time limit of a query of the dead-code diagnostics.
    pub fn check_timeout(&self) -> Duration {
        Duration::from_secs_f64(self.check_timeout)
    }

    /// Options of `gen` for a test in JUnit `junit`.
    pub fn gen_options(&self, junit: JUnit) -> GenOptions {
        GenOptions {
            unroll: self.unroll,
            timeout: self.timeout(),
            junit,
            knobs: jreach_ide::Knobs::Editor,
            ..Default::default()
        }
    }
}

/// A time limit in seconds: positive, at most a day.
fn seconds(v: &Value) -> Option<f64> {
    v.as_f64().filter(|t| *t > 0.0 && t.is_finite() && *t <= 86_400.0)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn messages_of_editor_requests_name_settings_not_flags() {
        let opts = Settings::default().gen_options(jreach_synth::JUnit::V5);
        assert_eq!(opts.knobs, jreach_ide::Knobs::Editor);
        assert_eq!(opts.knobs.name(jreach_ide::Limit::Timeout), "the jreach.timeout setting");
    }

    #[test]
    fn flat_and_sectioned_settings() {
        let mut s = Settings::default();
        assert!(s
            .update(&json!({"unroll": 8, "timeout": 2.5, "checkTimeout": 0.5, "junit": "4", "testRoot": "t",
                            "diagnostics": false, "workspaceDiagnostics": false, "runCode": false, "classpath": ["/a.jar", "/b"]}))
            .is_empty());
        assert_eq!(
            s,
            Settings {
                unroll: 8,
                timeout: 2.5,
                check_timeout: 0.5,
                junit: JUnitSetting::Fixed(JUnit::V4),
                test_root: Some("t".into()),
                diagnostics: false,
                workspace_diagnostics: false,
                run_code: false,
                classpath: vec!["/a.jar".into(), "/b".into()],
            }
        );
        assert!(s.update(&json!({"classpath": "/c.jar:/d.jar", "runCode": true})).is_empty());
        assert_eq!(s.classpath, vec![std::path::PathBuf::from("/c.jar"), "/d.jar".into()]);
        assert!(s.run_code);
        assert!(s.update(&json!({"jreach": {"junit": "auto", "testRoot": "", "diagnostics": true}})).is_empty());
        assert_eq!(s.junit, JUnitSetting::Auto);
        assert_eq!(s.test_root, None);
        assert!(s.diagnostics);
        assert!(s.update(&json!({"jreach": {"junit": 5}})).is_empty());
        assert_eq!(s.junit, JUnitSetting::Fixed(JUnit::V5));
    }

    #[test]
    fn bad_values_are_ignored_and_reported() {
        let mut s = Settings::default();
        let ignored = s
            .update(&json!({"unroll": -1, "timeout": "soon", "junit": "3", "diagnostics": "yes", "other": 1,
                             "runCode": "no", "classpath": [1], "checkTimeout": -2}));
        assert_eq!(ignored.len(), 7, "{ignored:?}");
        assert_eq!(s, Settings::default());
        assert!(s.update(&Value::Null).is_empty());
        assert!(s.update(&json!([1, 2])).is_empty());
    }
}
