//! The summary of a sweep: records read from the JSON Lines files of any number of shards (a
//! record cut off by a killed process is skipped), counted by outcome, with the hardest cases
//! (most pieces, most seconds) and every item whose outcome is not the sweep's success.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::Path;

use serde_json::Value;

/// The outcome that counts as success: a certified stratification, or (in a census of misère
/// quotients, whose records say "proved") a proved quotient.
pub const SUCCESS: &str = "stratified";
/// The success of a census of misère quotients.
pub const PROVED: &str = "proved";

/// How many of the hardest cases and of the failures are listed.
pub const LISTED: usize = 10;

/// One record, as read.
#[derive(Clone, Debug)]
struct Record {
    item: String,
    outcome: String,
    game: String,
    reason: String,
    pieces: Option<u64>,
    seconds: Option<f64>,
}

/// Reads the files and writes the summary; an unreadable file is an error, a line that is not
/// a record is counted and reported.
pub fn summary(paths: &[impl AsRef<Path>]) -> Result<String, String> {
    // Items in order: integers by value, then the others by their text.
    let mut records: BTreeMap<(Option<i64>, String), Record> = BTreeMap::new();
    let (mut duplicates, mut broken) = (0usize, Vec::new());
    for path in paths {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let complete = super::complete_lines(text.as_bytes());
        if complete < text.len() {
            broken.push(format!(
                "{}: a last record cut off (skipped)",
                path.display()
            ));
        }
        for (k, line) in text[..complete].lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let Some(r) = read(line) else {
                broken.push(format!("{}, line {}: not a record", path.display(), k + 1));
                continue;
            };
            let key = (r.item.parse::<i64>().ok(), r.item.clone());
            if records.insert(key, r).is_some() {
                duplicates += 1;
            }
        }
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} records from {} file{}{}",
        records.len(),
        paths.len(),
        if paths.len() == 1 { "" } else { "s" },
        if duplicates > 0 {
            format!(
                " ({duplicates} item{} recorded twice, counted once)",
                if duplicates == 1 { "" } else { "s" }
            )
        } else {
            String::new()
        }
    );
    for b in &broken {
        let _ = writeln!(out, "  note: {b}");
    }
    let mut by_outcome: BTreeMap<&str, usize> = BTreeMap::new();
    let success = if records.values().any(|r| r.outcome == PROVED) {
        PROVED
    } else {
        SUCCESS
    };
    for r in records.values() {
        *by_outcome.entry(r.outcome.as_str()).or_default() += 1;
    }
    let mut outcomes: Vec<(&str, usize)> = by_outcome.into_iter().collect();
    outcomes.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let _ = writeln!(out, "\noutcome          items");
    for (o, n) in &outcomes {
        let _ = writeln!(out, "  {o:<14} {n:>5}");
    }
    let seconds: Vec<f64> = records.values().filter_map(|r| r.seconds).collect();
    if !seconds.is_empty() {
        let mut sorted = seconds.clone();
        sorted.sort_by(f64::total_cmp);
        let total: f64 = sorted.iter().sum();
        let _ = writeln!(
            out,
            "\nseconds: {total:.1} in all, median {:.3}, largest {:.3}",
            sorted[sorted.len() / 2],
            sorted[sorted.len() - 1]
        );
    }
    let mut most_pieces: Vec<&Record> = records
        .values()
        .filter(|r| r.outcome == success && r.pieces.is_some())
        .collect();
    most_pieces.sort_by(|a, b| b.pieces.cmp(&a.pieces).then(a.item.cmp(&b.item)));
    if !most_pieces.is_empty() {
        let _ = writeln!(out, "\nthe most pieces among the {success} ones:");
        for r in most_pieces.iter().take(LISTED) {
            let n = r.pieces.unwrap_or(0);
            let _ = writeln!(
                out,
                "  item {:<6} {n:>4} piece{}  {}",
                r.item,
                if n == 1 { " " } else { "s" },
                r.game
            );
        }
    }
    let mut slowest: Vec<&Record> = records.values().filter(|r| r.seconds.is_some()).collect();
    slowest.sort_by(|a, b| {
        b.seconds
            .unwrap_or(0.0)
            .total_cmp(&a.seconds.unwrap_or(0.0))
            .then(a.item.cmp(&b.item))
    });
    if !slowest.is_empty() {
        let _ = writeln!(out, "\nthe slowest:");
        for r in slowest.iter().take(LISTED) {
            let _ = writeln!(
                out,
                "  item {:<6} {:>8.3} s  {:<14} {}",
                r.item,
                r.seconds.unwrap_or(0.0),
                r.outcome,
                r.game
            );
        }
    }
    let failed: Vec<&Record> = records.values().filter(|r| r.outcome != success).collect();
    let _ = writeln!(out, "\nnot {success}: {}", failed.len());
    for r in failed.iter().take(LISTED) {
        let _ = writeln!(out, "  item {:<6} {:<14} {}", r.item, r.outcome, r.game);
        if !r.reason.is_empty() {
            // On one line: the reasons of `stratify` list what was tried, line by line.
            let words: Vec<&str> = r.reason.split_whitespace().collect();
            let reason: String = words.join(" ").chars().take(240).collect();
            let _ = writeln!(out, "               {reason}");
        }
    }
    if failed.len() > LISTED {
        let _ = writeln!(out, "  … and {} more", failed.len() - LISTED);
    }
    Ok(out)
}

fn read(line: &str) -> Option<Record> {
    let v: Value = serde_json::from_str(line).ok()?;
    let text = |k: &str| match v.get(k) {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Null) | None => String::new(),
        Some(other) => other.to_string(),
    };
    Some(Record {
        item: v.get("item")?.to_string(),
        outcome: text("outcome"),
        game: text("game"),
        reason: text("reason"),
        pieces: v.get("pieces").and_then(Value::as_u64),
        seconds: v.get("seconds").and_then(Value::as_f64),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_outcomes_across_files_and_lists_failures() {
        let dir = std::env::temp_dir().join(format!("lg-summary-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let a = dir.join("a.jsonl");
        let b = dir.join("b.jsonl");
        std::fs::write(
            &a,
            "{\"item\":0,\"outcome\":\"stratified\",\"game\":\"G0\",\"pieces\":3,\"seconds\":0.5}\n\
             {\"item\":2,\"outcome\":\"timeout\",\"game\":\"G2\",\"reason\":\"the time limit of 1 s passed\",\"seconds\":1.0}\n",
        )
        .unwrap();
        std::fs::write(
            &b,
            "{\"item\":1,\"outcome\":\"stratified\",\"game\":\"G1\",\"pieces\":7,\"seconds\":0.25}\n\
             {\"item\":0,\"outcome\":\"stratified\",\"game\":\"G0\",\"pieces\":3,\"seconds\":0.5}\n\
             {\"item\":3,\"outc",
        )
        .unwrap();
        let s = summary(&[&a, &b]).unwrap();
        assert!(
            s.starts_with("3 records from 2 files (1 item recorded twice"),
            "{s}"
        );
        assert!(s.contains("a last record cut off"), "{s}");
        assert!(
            s.contains("  stratified         2\n  timeout            1"),
            "{s}"
        );
        assert!(s.contains("item 1         7 pieces  G1"), "{s}");
        assert!(
            s.contains(
                "not stratified: 1\n  item 2      timeout        G2\n               the time limit"
            ),
            "{s}"
        );
        assert!(s.contains("seconds: 1.8 in all"), "{s}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_census_counts_proved_quotients_as_its_success() {
        let dir = std::env::temp_dir().join(format!("lg-census-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let a = dir.join("a.jsonl");
        std::fs::write(
            &a,
            "{\"item\":\"0.07\",\"outcome\":\"proved\",\"heap\":30,\"order\":360,\"p_count\":65,\"final\":false,\"seconds\":7.3}\n\
             {\"item\":\"0.76\",\"outcome\":\"timeout\",\"reason\":\"the time limit of 20 s passed\",\"seconds\":20.0}\n",
        )
        .unwrap();
        let s = summary(&[&a]).unwrap();
        assert!(s.contains("not proved: 1\n  item \"0.76\""), "{s}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
