//! Rendering errors as miette diagnostics, with the source text each span belongs to. This is the
//! language boundary: the library's error types become reports a person reads here.

use std::fmt;

use miette::{
    Diagnostic, GraphicalReportHandler, GraphicalTheme, LabeledSpan, NamedSource, SourceCode,
};

use super::EvalError;
use crate::syntax::{SourceId, Span};

/// The source texts known to an interpreter: scripts, REPL entries, the prelude.
#[derive(Default)]
pub struct SourceMap {
    sources: Vec<(String, String)>,
}

impl SourceMap {
    /// Registers a source and returns its id.
    pub fn add(&mut self, name: &str, text: &str) -> SourceId {
        self.sources.push((name.to_string(), text.to_string()));
        SourceId((self.sources.len() - 1) as u32)
    }

    /// How many sources are registered.
    pub fn len(&self) -> usize {
        self.sources.len()
    }

    /// Whether no source is registered.
    pub fn is_empty(&self) -> bool {
        self.sources.is_empty()
    }

    /// The name and text of a source.
    pub fn get(&self, id: SourceId) -> Option<(&str, &str)> {
        self.sources
            .get(id.0 as usize)
            .map(|(n, t)| (n.as_str(), t.as_str()))
    }
}

/// One diagnostic with its source attached, ready for miette.
#[derive(Debug)]
struct Report {
    advice: bool,
    code: &'static str,
    message: String,
    label: String,
    help: Option<String>,
    span: Span,
    source: NamedSource<String>,
    related: Vec<Report>,
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.message)
    }
}

impl std::error::Error for Report {}

impl Diagnostic for Report {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        if self.code.is_empty() {
            None
        } else {
            Some(Box::new(self.code))
        }
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn severity(&self) -> Option<miette::Severity> {
        self.advice.then_some(miette::Severity::Advice)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(&self.source)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let len = self.span.len();
        Some(Box::new(std::iter::once(LabeledSpan::new(
            Some(self.label.clone()),
            self.span.start,
            len,
        ))))
    }

    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn Diagnostic> + 'a>> {
        if self.related.is_empty() {
            None
        } else {
            Some(Box::new(self.related.iter().map(|r| r as &dyn Diagnostic)))
        }
    }
}

fn named_source(sources: &SourceMap, id: SourceId) -> NamedSource<String> {
    match sources.get(id) {
        Some((name, text)) => NamedSource::new(name, text.to_string()),
        None => NamedSource::new("<unknown>", String::new()),
    }
}

fn clamp(span: Span, sources: &SourceMap) -> Span {
    let len = sources.get(span.source).map(|(_, t)| t.len()).unwrap_or(0);
    Span::new(
        span.source,
        span.start.min(len),
        span.end.min(len).max(span.start.min(len)),
    )
}

fn report(err: &EvalError, sources: &SourceMap) -> Report {
    let span = clamp(err.span, sources);
    // The innermost two call sites and the outermost two (where the user's own code made the call).
    let trace: Vec<Span> = if err.trace.len() > 4 {
        err.trace[..2]
            .iter()
            .chain(&err.trace[err.trace.len() - 2..])
            .copied()
            .collect()
    } else {
        err.trace.clone()
    };
    let related = trace
        .iter()
        .map(|&call| {
            let call = clamp(call, sources);
            Report {
                advice: true,
                code: "",
                message: "called from here".into(),
                label: "in this call".into(),
                help: None,
                span: call,
                source: named_source(sources, call.source),
                related: Vec::new(),
            }
        })
        .collect();
    Report {
        advice: false,
        code: err.code,
        message: err.message.clone(),
        label: err.label.clone(),
        help: err.help.clone(),
        span,
        source: named_source(sources, span.source),
        related,
    }
}

/// How to render a diagnostic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// Unicode frames without colour, 80 columns: for tests, pipes and files.
    Plain,
    /// With colour, for terminals.
    Color,
}

/// Renders an error with its source lines, the label at its span, and its help.
pub fn render(err: &EvalError, sources: &SourceMap, style: Style) -> String {
    let theme = match style {
        Style::Plain => GraphicalTheme::unicode_nocolor(),
        Style::Color => GraphicalTheme::unicode(),
    };
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_width(80)
        .with_links(false);
    let mut out = String::new();
    let r = report(err, sources);
    if handler.render_report(&mut out, &r).is_err() {
        out = format!("error: {}\n", err.message);
    }
    out
}
