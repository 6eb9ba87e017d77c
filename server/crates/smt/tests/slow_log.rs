//! The slow-query log (`--slow-queries`): with a threshold of zero every question of a
//! `DeadCode` is written, and each file, replayed by z3 alone, gives the answer its header says.
//! (Its own test binary: the log is process-wide.)

use std::time::{Duration, Instant};

use jreach_ir::lower::{lower_method, LowerOptions};
use jreach_ir::LowerMode;
use jreach_smt::{log_slow_queries, DeadCode, Status};
use jreach_syntax::{find_target, SourceFile};
use z3::ast::Bool;
use z3::{SatResult, Solver};

#[test]
fn every_logged_query_replays_to_the_answer_it_records() {
    let src = "class A {\n static int f(int x) {\n  if (x > 3) {\n   if (x < 2) {\n    return 1;\n   }\n   return 2;\n  }\n  return 3;\n }\n}\n";
    let file = SourceFile::parse(src);
    let dead = find_target(&file, 4).expect("`return 1;` on line 5");
    let live = find_target(&file, 6).expect("`return 2;` on line 7");
    let f = lower_method(&file, &dead.method, &LowerOptions { mode: LowerMode::OverApprox, ..Default::default() });
    let dir = std::env::temp_dir().join(format!("jreach-slow-log-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    log_slow_queries(&dir, Duration::ZERO).expect("the log folder is created");

    let mut dc = DeadCode::new(&f, Duration::from_secs(10), Instant::now() + Duration::from_secs(20));
    let dead_block = f.blocks_of_stmt(dead.stmt.start)[0];
    let live_block = f.blocks_of_stmt(live.stmt.start)[0];
    assert_eq!(dc.block(dead_block), Status::Dead);
    assert_eq!(dc.block(live_block), Status::Live);

    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    assert!(files.len() >= 2, "one file per question asked: {files:?}");
    let mut answers = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        assert!(text.contains("; function: A.f\n"), "{text}");
        let answer = text.lines().find_map(|l| l.strip_prefix("; answer: ")).expect("an answer line");
        let recorded = answer.split_whitespace().next().unwrap().to_string();
        let assuming = text.lines().find_map(|l| l.strip_prefix("(check-sat-assuming (")).expect("the check");
        let lits: Vec<Bool> = assuming.trim_end_matches("))").split_whitespace().map(Bool::new_const).collect();
        let replay = Solver::new();
        replay.from_string(text.as_str());
        let replayed = match replay.check_assumptions(&lits) {
            SatResult::Sat => "sat",
            SatResult::Unsat => "unsat",
            SatResult::Unknown => "unknown",
        };
        assert_eq!(replayed, recorded, "{}", path.display());
        answers.push(recorded);
    }
    assert!(answers.contains(&"unsat".to_string()) && answers.contains(&"sat".to_string()), "{answers:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
