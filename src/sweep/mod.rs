//! Conjecture sweeps run as many independent processes: which items of a sweep belong to one
//! shard, and the results as JSON Lines (one record per item, appended and flushed one by one,
//! so that a killed process loses at most the record it was computing; a re-run skips the
//! items already recorded). The summary of many shards' files is in [`summary`].
//!
//! This module knows nothing about the language: items are identified by the JSON of their
//! value, records are JSON objects.

use std::collections::BTreeSet;
use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

pub mod summary;

/// Shard i of n (1 ≤ i ≤ n): the items whose position k (from 0) in a sweep's list has
/// k mod n = i − 1. Round robin spreads easy and hard items evenly when difficulty grows along
/// the list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// i, from 1.
    pub index: usize,
    /// n.
    pub count: usize,
}

/// Why a shard cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShardError {
    /// Not of the form i/n with 1 ≤ i ≤ n.
    #[error("`{0}` is not a shard: write i/n with 1 ≤ i ≤ n, e.g. 3/8")]
    Malformed(String),
    /// A scheduler's variables that do not make a shard.
    #[error("{0}")]
    Environment(String),
}

impl Shard {
    /// Reads `i/n`.
    pub fn parse(text: &str) -> Result<Shard, ShardError> {
        let bad = || ShardError::Malformed(text.to_string());
        let (i, n) = text.trim().split_once('/').ok_or_else(bad)?;
        let (index, count): (usize, usize) = (
            i.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// The shard a scheduler assigns through the environment, if any: `LG_SHARD=i/n`, or a
    /// Slurm array job's `SLURM_ARRAY_TASK_ID` and `SLURM_ARRAY_TASK_COUNT` (task ids counted
    /// from `SLURM_ARRAY_TASK_MIN`, 0 if unset, so `--array=0-7` and `--array=1-8` both work).
    pub fn from_env(var: impl Fn(&str) -> Option<String>) -> Result<Option<Shard>, ShardError> {
        if let Some(s) = var("LG_SHARD").filter(|s| !s.is_empty()) {
            return Shard::parse(&s).map(Some);
        }
        let (Some(id), Some(count)) = (var("SLURM_ARRAY_TASK_ID"), var("SLURM_ARRAY_TASK_COUNT"))
        else {
            return Ok(None);
        };
        let number = |name: &str, v: &str| {
            v.trim().parse::<usize>().map_err(|_| {
                ShardError::Environment(format!("{name}={v} is not a nonnegative integer"))
            })
        };
        let id = number("SLURM_ARRAY_TASK_ID", &id)?;
        let count = number("SLURM_ARRAY_TASK_COUNT", &count)?;
        let min = match var("SLURM_ARRAY_TASK_MIN") {
            Some(m) => number("SLURM_ARRAY_TASK_MIN", &m)?,
            None => 0,
        };
        let index = id.checked_sub(min).map(|k| k + 1).filter(|&i| i <= count).ok_or_else(|| {
            ShardError::Environment(format!(
                "SLURM_ARRAY_TASK_ID={id} is not among the {count} tasks from SLURM_ARRAY_TASK_MIN={min}; \
                 use a contiguous array such as --array=1-{count}"
            ))
        })?;
        Ok(Some(Shard { index, count }))
    }

    /// Whether the item at position k (from 0) belongs to this shard.
    pub fn owns(&self, k: usize) -> bool {
        k % self.count == self.index - 1
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// Why a results file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ResultsError {
    /// Reading, writing or locking the file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// A complete line that is not a JSON object with an `item`.
    #[error("{path}, line {line}: not a record of a sweep ({why})")]
    NotARecord {
        /// The file.
        path: PathBuf,
        /// The line number, from 1.
        line: usize,
        /// What is wrong.
        why: String,
    },
}

/// A JSON Lines file of records, opened for appending. The items already recorded in it are
/// known, so that a re-run can skip them.
pub struct ResultsFile {
    path: PathBuf,
    file: File,
    recorded: BTreeSet<String>,
}

impl ResultsFile {
    /// Opens (or creates) the file. A last line without its newline is the record a killed
    /// process was writing: it is cut off, so that the next record starts on a line of its own.
    pub fn open(path: &Path) -> Result<ResultsFile, ResultsError> {
        let io = |source| ResultsError::Io {
            path: path.to_path_buf(),
            source,
        };
        // Appending: every line goes to the end of the file even if two processes were given
        // the same file by mistake.
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(path)
            .map_err(io)?;
        let mut text = Vec::new();
        file.read_to_end(&mut text).map_err(io)?;
        let complete = complete_lines(&text);
        if complete < text.len() {
            file.set_len(complete as u64).map_err(io)?;
        }
        let mut recorded = BTreeSet::new();
        for (k, line) in String::from_utf8_lossy(&text[..complete])
            .lines()
            .enumerate()
        {
            if line.trim().is_empty() {
                continue;
            }
            let item = item_of(line).map_err(|why| ResultsError::NotARecord {
                path: path.to_path_buf(),
                line: k + 1,
                why,
            })?;
            recorded.insert(item);
        }
        Ok(ResultsFile {
            path: path.to_path_buf(),
            file,
            recorded,
        })
    }

    /// Whether an item (the JSON text of its value) is recorded.
    pub fn is_recorded(&self, item: &str) -> bool {
        self.recorded.contains(item)
    }

    /// How many items are recorded.
    pub fn len(&self) -> usize {
        self.recorded.len()
    }

    /// Whether nothing is recorded.
    pub fn is_empty(&self) -> bool {
        self.recorded.is_empty()
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends one record (a JSON object with an `item` field) as one line, written with a
    /// single call and flushed.
    pub fn append(&mut self, record: &serde_json::Value) -> Result<(), ResultsError> {
        let io = |source| ResultsError::Io {
            path: self.path.clone(),
            source,
        };
        let item = record
            .get("item")
            .map(|v| v.to_string())
            .unwrap_or_default();
        let mut line = record.to_string();
        line.push('\n');
        self.file.write_all(line.as_bytes()).map_err(io)?;
        self.file.flush().map_err(io)?;
        self.recorded.insert(item);
        Ok(())
    }
}

/// What a process knows of the sweep it runs: its shard, its results file, the items recorded
/// (in the file, or in memory without one) and the settings given on the command line.
#[derive(Default)]
pub struct SweepContext {
    shard: Option<Shard>,
    results: Option<ResultsFile>,
    remembered: BTreeSet<String>,
    settings: std::collections::BTreeMap<String, String>,
}

impl SweepContext {
    /// A context with this shard, results file and settings (name, value).
    pub fn new(
        shard: Option<Shard>,
        results: Option<ResultsFile>,
        settings: impl IntoIterator<Item = (String, String)>,
    ) -> SweepContext {
        SweepContext {
            shard,
            results,
            remembered: BTreeSet::new(),
            settings: settings.into_iter().collect(),
        }
    }

    /// This process's shard, if the sweep is split.
    pub fn shard(&self) -> Option<Shard> {
        self.shard
    }

    /// Whether the item at position k of a sweep's list is this process's.
    pub fn owns(&self, k: usize) -> bool {
        self.shard.is_none_or(|s| s.owns(k))
    }

    /// Whether an item is recorded.
    pub fn is_recorded(&self, item: &serde_json::Value) -> bool {
        let key = item.to_string();
        self.remembered.contains(&key) || self.results.as_ref().is_some_and(|r| r.is_recorded(&key))
    }

    /// Records an item: appended to the results file, or remembered without one.
    pub fn record(&mut self, record: &serde_json::Value) -> Result<(), ResultsError> {
        match self.results.as_mut() {
            Some(r) => r.append(record),
            None => {
                let item = record
                    .get("item")
                    .map(|v| v.to_string())
                    .unwrap_or_default();
                self.remembered.insert(item);
                Ok(())
            }
        }
    }

    /// The value of a setting given on the command line.
    pub fn setting(&self, name: &str) -> Option<&str> {
        self.settings.get(name).map(String::as_str)
    }
}

/// How many bytes of a results file are complete lines: a last line without its newline is the
/// record a killed process was writing.
pub(crate) fn complete_lines(text: &[u8]) -> usize {
    text.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1)
}

/// The `item` of a record line, as JSON text.
fn item_of(line: &str) -> Result<String, String> {
    let v: serde_json::Value = serde_json::from_str(line).map_err(|e| e.to_string())?;
    v.get("item")
        .map(|i| i.to_string())
        .ok_or_else(|| "it has no `item` field".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_and_partition() {
        assert_eq!(Shard::parse("3/8"), Ok(Shard { index: 3, count: 8 }));
        for bad in ["0/4", "5/4", "1", "a/b", "1/0", ""] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
        // Every position belongs to exactly one of the n shards.
        for n in 1..6 {
            for k in 0..40 {
                let owners = (1..=n)
                    .filter(|&i| Shard { index: i, count: n }.owns(k))
                    .count();
                assert_eq!(owners, 1);
            }
        }
    }

    #[test]
    fn shards_from_a_schedulers_environment() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                pairs
                    .iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| v.to_string())
            }
        };
        assert_eq!(Shard::from_env(env(&[])), Ok(None));
        assert_eq!(
            Shard::from_env(env(&[("LG_SHARD", "2/5")])),
            Ok(Some(Shard { index: 2, count: 5 }))
        );
        // --array=0-7: task 0 is shard 1/8.
        assert_eq!(
            Shard::from_env(env(&[
                ("SLURM_ARRAY_TASK_ID", "0"),
                ("SLURM_ARRAY_TASK_COUNT", "8")
            ])),
            Ok(Some(Shard { index: 1, count: 8 }))
        );
        // --array=1-8: task 8 is shard 8/8.
        assert_eq!(
            Shard::from_env(env(&[
                ("SLURM_ARRAY_TASK_ID", "8"),
                ("SLURM_ARRAY_TASK_COUNT", "8"),
                ("SLURM_ARRAY_TASK_MIN", "1")
            ])),
            Ok(Some(Shard { index: 8, count: 8 }))
        );
        assert!(Shard::from_env(env(&[
            ("SLURM_ARRAY_TASK_ID", "9"),
            ("SLURM_ARRAY_TASK_COUNT", "8"),
            ("SLURM_ARRAY_TASK_MIN", "1")
        ]))
        .is_err());
    }

    /// A record cut off mid-line (a killed process) is dropped on reopening, and appending goes
    /// on from the last complete line.
    #[test]
    fn results_files_resume_after_a_partial_line() {
        let dir = std::env::temp_dir().join(format!("lg-results-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("r.jsonl");
        std::fs::write(&path, "{\"item\":1,\"x\":\"a\"}\n{\"item\":2,\"x\"").unwrap();
        let mut r = ResultsFile::open(&path).unwrap();
        assert!(r.is_recorded("1") && !r.is_recorded("2"));
        r.append(&serde_json::json!({"item": 2, "x": "b"})).unwrap();
        drop(r);
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text, "{\"item\":1,\"x\":\"a\"}\n{\"item\":2,\"x\":\"b\"}\n");
        let r = ResultsFile::open(&path).unwrap();
        assert_eq!(r.len(), 2);
        std::fs::write(&path, "not json\n").unwrap();
        assert!(matches!(
            ResultsFile::open(&path),
            Err(ResultsError::NotARecord { line: 1, .. })
        ));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
