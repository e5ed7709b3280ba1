//! Pictures of two-dimensional slices of a lattice game: which positions of a rectangle in the
//! plane of two coordinate axes x_i, x_j (numbered from 1, as in the papers), the other
//! coordinates fixed, are P-positions, N-positions, defeated ([GM09] Definition 2.9), off the
//! board, or not known. A *strip* is the one-dimensional case: an interval of one axis x_i, the
//! others fixed (a game in Z^1, or one heap size of a heap game).
//!
//! This module only draws: the cells come from whoever computed them. A [`Slice`] renders as text
//! for a terminal (Unicode or pure ASCII), with y increasing upwards, and as a standalone SVG
//! document. Both are deterministic (no timestamps, no random identifiers) and use integer
//! coordinates only.

use std::fmt::Write;
use std::ops::RangeInclusive;

mod png;

pub use png::MAX_PIXELS;

/// What a position of a slice is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Cell {
    /// A P-position: the player to move loses.
    P,
    /// An N-position: the player to move wins.
    N,
    /// A defeated position: in Λ, but in the defeated ideal D, so not on the board.
    Defeated,
    /// Not a point of Λ at all.
    OffBoard,
    /// On the board, but its outcome is not known (for instance, beyond a solved region).
    Unknown,
}

/// Why a slice cannot be drawn.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlotError {
    /// The axes must be two different coordinates of the ambient space.
    #[error(
        "the axes of a slice are two different coordinates between 1 and {dim}, not {i} and {j}"
    )]
    Axes {
        /// The horizontal axis (1-based).
        i: usize,
        /// The vertical axis (1-based).
        j: usize,
        /// The dimension of the fixed point.
        dim: usize,
    },
    /// The axis of a strip must be a coordinate of the ambient space.
    #[error("the axis of a strip is a coordinate between 1 and {dim}, not {i}")]
    Axis {
        /// The axis asked for (1-based).
        i: usize,
        /// The dimension of the fixed point.
        dim: usize,
    },
    /// A range of an axis has no integers.
    #[error("the range {min}..={max} of x_{axis} is empty")]
    EmptyRange {
        /// The axis (1-based).
        axis: usize,
        /// The lower end.
        min: i64,
        /// The upper end.
        max: i64,
    },
    /// Too many cells to draw.
    #[error("a slice of {cells} cells is too large to draw (at most {MAX_CELLS})")]
    TooLarge {
        /// The number of cells asked for.
        cells: u128,
    },
    /// No system font to draw the text of a PNG picture with.
    #[error("no system font is installed to draw the text of a PNG picture")]
    NoFonts,
    /// A PNG picture would be too large.
    #[error("a PNG picture of {pixels} pixels is too large (at most {max})")]
    TooManyPixels {
        /// Width times height at the SVG's size.
        pixels: u64,
        /// The limit.
        max: u64,
    },
    /// resvg could not draw the picture.
    #[error("the picture could not be drawn: {0}")]
    Render(String),
    /// A grid given cell by cell has the wrong number of cells.
    #[error("the grid has {found} cells, but the ranges hold {expected}")]
    GridSize {
        /// Width times height.
        expected: usize,
        /// Cells given.
        found: usize,
    },
}

/// The most cells a slice may have.
pub const MAX_CELLS: usize = 1 << 20;

/// A rectangle of positions in the plane of two axes, each with its [`Cell`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Slice {
    point: Vec<i64>,
    axes: (usize, usize),
    x: (i64, i64),
    y: (i64, i64),
    title: String,
    /// Names of the two axes (default x_i and x_j).
    labels: Option<(String, String)>,
    /// The side of a cell in the SVG picture, in pixels.
    cell_size: i64,
    /// A strip: one axis only (then j = i and the y range is 0..=0).
    strip: bool,
    /// Row by row from y_min upwards; within a row from x_min.
    cells: Vec<Cell>,
}

/// A drawn slice, as `plot` returns it: its text form (Unicode or ASCII cells) for terminals and
/// files, and its SVG picture for notebooks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Picture {
    slice: Slice,
    ascii: bool,
}

impl Picture {
    /// The picture of `slice`; its text uses ASCII cells when `ascii`.
    pub fn new(slice: Slice, ascii: bool) -> Picture {
        Picture { slice, ascii }
    }

    /// The slice drawn.
    pub fn slice(&self) -> &Slice {
        &self.slice
    }

    /// The text form, one line per row.
    pub fn text(&self) -> String {
        if self.ascii {
            self.slice.to_ascii()
        } else {
            self.slice.to_text()
        }
    }
}

impl std::fmt::Display for Picture {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.text().trim_end_matches('\n'))
    }
}

/// The side of a cell in SVG pictures unless given.
pub const DEFAULT_CELL_SIZE: i64 = 16;

impl Slice {
    /// The slice through `point` (its coordinates on the two axes are ignored) in the plane of
    /// the axes (i, j), 1-based, with x_i in `x` and x_j in `y`; `cell` tells what each full
    /// position is.
    pub fn new(
        point: &[i64],
        axes: (usize, usize),
        x: RangeInclusive<i64>,
        y: RangeInclusive<i64>,
        title: impl Into<String>,
        mut cell: impl FnMut(&[i64]) -> Cell,
    ) -> Result<Slice, PlotError> {
        let mut s = Slice::empty(point, axes, x, y, title.into(), false)?;
        let mut p = s.point.clone();
        for y in s.y.0..=s.y.1 {
            for x in s.x.0..=s.x.1 {
                p[s.axes.0 - 1] = x;
                p[s.axes.1 - 1] = y;
                s.cells.push(cell(&p));
            }
        }
        Ok(s)
    }

    /// The strip through `point` (its coordinate on the axis is ignored) along the axis i,
    /// 1-based, with x_i in `x`; `cell` tells what each position is.
    pub fn strip(
        point: &[i64],
        axis: usize,
        x: RangeInclusive<i64>,
        title: impl Into<String>,
        mut cell: impl FnMut(&[i64]) -> Cell,
    ) -> Result<Slice, PlotError> {
        let mut s = Slice::empty(point, (axis, axis), x, 0..=0, title.into(), true)?;
        let mut p = s.point.clone();
        for x in s.x.0..=s.x.1 {
            p[axis - 1] = x;
            s.cells.push(cell(&p));
        }
        Ok(s)
    }

    /// The same from a grid: `cells` row by row from y_min upwards, each row from x_min.
    pub fn from_grid(
        point: &[i64],
        axes: (usize, usize),
        x: RangeInclusive<i64>,
        y: RangeInclusive<i64>,
        title: impl Into<String>,
        cells: Vec<Cell>,
    ) -> Result<Slice, PlotError> {
        let mut s = Slice::empty(point, axes, x, y, title.into(), false)?;
        let expected = s.width() * s.height();
        if cells.len() != expected {
            return Err(PlotError::GridSize {
                expected,
                found: cells.len(),
            });
        }
        s.cells = cells;
        Ok(s)
    }

    fn empty(
        point: &[i64],
        (i, j): (usize, usize),
        x: RangeInclusive<i64>,
        y: RangeInclusive<i64>,
        title: String,
        strip: bool,
    ) -> Result<Slice, PlotError> {
        let dim = point.len();
        if strip && (i == 0 || i > dim) {
            return Err(PlotError::Axis { i, dim });
        }
        if (i == j) != strip || i == 0 || j == 0 || i > dim || j > dim {
            return Err(PlotError::Axes { i, j, dim });
        }
        let (x, y) = ((*x.start(), *x.end()), (*y.start(), *y.end()));
        for (axis, (min, max)) in [(i, x), (j, y)] {
            if min > max {
                return Err(PlotError::EmptyRange { axis, min, max });
            }
        }
        let span = |(a, b): (i64, i64)| (b as i128 - a as i128 + 1) as u128;
        let cells = span(x) * span(y);
        if cells > MAX_CELLS as u128 {
            return Err(PlotError::TooLarge { cells });
        }
        let mut point = point.to_vec();
        point[i - 1] = 0;
        point[j - 1] = 0;
        Ok(Slice {
            point,
            axes: (i, j),
            x,
            y,
            title,
            labels: None,
            cell_size: DEFAULT_CELL_SIZE,
            strip,
            cells: Vec::with_capacity(cells as usize),
        })
    }

    /// The same slice with the axes named (across, up) instead of x_i and x_j.
    pub fn with_labels(mut self, across: impl Into<String>, up: impl Into<String>) -> Slice {
        self.labels = Some((across.into(), up.into()));
        self
    }

    /// The same slice drawn with cells of this many pixels in SVG (clamped to 2..=64).
    pub fn with_cell_size(mut self, pixels: i64) -> Slice {
        self.cell_size = pixels.clamp(2, 64);
        self
    }

    /// The label of the horizontal (0) or vertical (1) axis as text.
    fn text_label(&self, which: usize) -> String {
        match (&self.labels, which) {
            (Some((a, _)), 0) => a.clone(),
            (Some((_, b)), _) => b.clone(),
            (None, 0) => format!("x_{}", self.axes.0),
            (None, _) => format!("x_{}", self.axes.1),
        }
    }

    /// The label of an axis in SVG markup.
    fn svg_label(&self, which: usize) -> String {
        match (&self.labels, which) {
            (Some((a, _)), 0) => escape(a),
            (Some((_, b)), _) => escape(b),
            (None, 0) => svg_var(self.axes.0),
            (None, _) => svg_var(self.axes.1),
        }
    }

    /// Whether this is a strip of one axis (then [`Slice::axes`] is (i, i)).
    pub fn is_strip(&self) -> bool {
        self.strip
    }

    /// The axes (i, j), 1-based: x_i runs to the right, x_j upwards.
    pub fn axes(&self) -> (usize, usize) {
        self.axes
    }

    /// The range of x_i.
    pub fn x_range(&self) -> RangeInclusive<i64> {
        self.x.0..=self.x.1
    }

    /// The range of x_j.
    pub fn y_range(&self) -> RangeInclusive<i64> {
        self.y.0..=self.y.1
    }

    /// The title.
    pub fn title(&self) -> &str {
        &self.title
    }

    /// The fixed coordinates: (axis, value) for every axis other than i and j.
    pub fn fixed(&self) -> Vec<(usize, i64)> {
        (1..=self.point.len())
            .filter(|&k| k != self.axes.0 && k != self.axes.1)
            .map(|k| (k, self.point[k - 1]))
            .collect()
    }

    /// The number of columns.
    pub fn width(&self) -> usize {
        (self.x.1 - self.x.0) as usize + 1
    }

    /// The number of rows.
    pub fn height(&self) -> usize {
        (self.y.1 - self.y.0) as usize + 1
    }

    /// The cell at x_i = x, x_j = y, if inside the ranges.
    pub fn cell(&self, x: i64, y: i64) -> Option<Cell> {
        if !(self.x.0..=self.x.1).contains(&x) || !(self.y.0..=self.y.1).contains(&y) {
            return None;
        }
        let (c, r) = ((x - self.x.0) as usize, (y - self.y.0) as usize);
        Some(self.cells[r * self.width() + c])
    }

    /// The cells, row by row from y_min upwards.
    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }

    fn fixed_text(&self) -> Option<String> {
        let fixed = self.fixed();
        (!fixed.is_empty()).then(|| {
            fixed
                .iter()
                .map(|(k, v)| format!("x_{k} = {v}"))
                .collect::<Vec<_>>()
                .join(", ")
        })
    }

    /// The kinds of cells present, in the order of [`Cell`].
    fn kinds(&self) -> Vec<Cell> {
        let mut kinds: Vec<Cell> = self.cells.clone();
        kinds.sort();
        kinds.dedup();
        kinds
    }

    /// Text for a terminal: one character per cell (`●` P, `·` N, `×` defeated, `?` unknown,
    /// blank off the board), y increasing upwards, ticks every 5 or 10, and a legend.
    pub fn to_text(&self) -> String {
        self.render_text(&UNICODE)
    }

    /// The same in pure ASCII: `#` P, `.` N, `x` defeated, `?` unknown.
    pub fn to_ascii(&self) -> String {
        self.render_text(&ASCII)
    }

    fn render_text(&self, g: &Glyphs) -> String {
        let (w, h) = (self.width(), self.height());
        let xticks = ticks(self.x, true);
        let yticks = if self.strip {
            Vec::new()
        } else {
            ticks(self.y, false)
        };
        let margin = yticks
            .iter()
            .map(|t| t.to_string().len())
            .max()
            .unwrap_or(0);
        let mut lines: Vec<String> = Vec::new();
        if !self.title.is_empty() {
            lines.push(self.title.clone());
        }
        if let Some(f) = self.fixed_text() {
            lines.push(f);
        }
        if !self.strip {
            lines.push(format!("{:margin$}{}", "", self.text_label(1)));
        }
        for r in (0..h).rev() {
            let y = self.y.0 + r as i64;
            let mut line = if yticks.contains(&y) && !self.strip {
                format!("{y:>margin$}{}", g.ytick)
            } else {
                format!("{:margin$}{}", "", g.vertical)
            };
            for c in 0..w {
                line.push(g.cell(self.cells[r * w + c]));
            }
            lines.push(line);
        }
        let mut axis = format!("{:margin$}{}", "", g.corner);
        for c in 0..w {
            let x = self.x.0 + c as i64;
            axis.push(if xticks.contains(&x) {
                g.xtick
            } else {
                g.horizontal
            });
        }
        let _ = write!(axis, " {}", self.text_label(0));
        lines.push(axis);
        let mut labels: Vec<char> = vec![' '; margin + 1 + w + 24];
        let mut free = 0;
        for x in &xticks {
            let col = margin + 1 + (x - self.x.0) as usize;
            let text: Vec<char> = x.to_string().chars().collect();
            if col >= free {
                if labels.len() < col + text.len() {
                    labels.resize(col + text.len(), ' ');
                }
                labels[col..col + text.len()].copy_from_slice(&text);
                free = col + text.len() + 1;
            }
        }
        lines.push(labels.into_iter().collect());
        let legend: Vec<String> = self
            .kinds()
            .into_iter()
            .map(|k| match k {
                Cell::OffBoard => "(blank) off the board".to_string(),
                k => format!("{} {}", g.cell(k), describe(k)),
            })
            .collect();
        lines.push(legend.join("   "));
        let mut out = String::new();
        for l in lines {
            out.push_str(l.trim_end());
            out.push('\n');
        }
        out
    }

    /// A standalone SVG document: a square of `cell_size` pixels (16 unless set) per cell (P dark, N light, defeated hatched,
    /// unknown outlined, off the board blank), axes with ticks and labels x_i and x_j, the title
    /// and a legend. Every coordinate is an integer.
    pub fn to_svg(&self) -> String {
        let cell = self.cell_size;
        let (w, h) = (self.width() as i64, self.height() as i64);
        let xticks = ticks(self.x, true);
        let yticks = if self.strip {
            Vec::new()
        } else {
            ticks(self.y, false)
        };
        let ylabel = yticks
            .iter()
            .map(|t| t.to_string().len())
            .max()
            .unwrap_or(1) as i64;
        let left = 32 + 7 * ylabel;
        let fixed = self.fixed();
        let top = if fixed.is_empty() { 36 } else { 52 };
        let (gw, gh) = (w * cell, h * cell);
        let kinds = self.kinds();
        let legend_width: i64 = kinds
            .iter()
            .map(|&k| 36 + 7 * describe(k).chars().count() as i64)
            .sum();
        // Wide enough for the title (bold 14 px monospace: at most 9 px a character).
        let title_width = left + 9 * self.title.chars().count() as i64 + 16;
        let width = (left + gw + 32).max(legend_width + 16).max(title_width);
        let height = top + gh + 84;
        let mut s = String::new();
        let _ = writeln!(
            s,
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="monospace" font-size="12">"##
        );
        let _ = writeln!(s, "<title>{}</title>", escape(&self.title));
        s.push_str(concat!(
            r##"<defs><pattern id="lg-hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">"##,
            r##"<path d="M0 0 V6" stroke="#b91c1c" stroke-width="2"/></pattern></defs>"##,
            "\n"
        ));
        let _ = writeln!(
            s,
            r##"<path d="M0 0 H{width} V{height} H0 Z" fill="#ffffff"/>"##
        );
        let _ = writeln!(
            s,
            r##"<text x="{left}" y="20" font-size="14" font-weight="bold">{}</text>"##,
            escape(&self.title)
        );
        if !fixed.is_empty() {
            let fixed: Vec<String> = fixed
                .iter()
                .map(|(k, v)| format!("{} = {v}", svg_var(*k)))
                .collect();
            let _ = writeln!(
                s,
                r##"<text x="{left}" y="38">{}</text>"##,
                fixed.join(", ")
            );
        }
        s.push_str(r##"<g stroke="#ffffff" stroke-width="1">"##);
        s.push('\n');
        for r in 0..h {
            for c in 0..w {
                let kind = self.cells[(r * w + c) as usize];
                let fill = match kind {
                    Cell::P => r##"fill="#1f2937""##,
                    Cell::N => r##"fill="#e5e7eb""##,
                    Cell::Defeated => r##"fill="url(#lg-hatch)""##,
                    Cell::Unknown => r##"fill="#ffffff" stroke="#9ca3af""##,
                    Cell::OffBoard => continue,
                };
                let (px, py) = (left + c * cell, top + (h - 1 - r) * cell);
                let _ = writeln!(
                    s,
                    r##"<rect x="{px}" y="{py}" width="{cell}" height="{cell}" {fill}/>"##
                );
            }
        }
        s.push_str("</g>\n");
        let (right, bottom) = (left + gw, top + gh);
        let mut tick_path = format!("M{left} {top} V{bottom} H{right}");
        for x in &xticks {
            let _ = write!(
                tick_path,
                " M{} {bottom} v4",
                left + (x - self.x.0) * cell + cell / 2
            );
        }
        for y in &yticks {
            let _ = write!(
                tick_path,
                " M{left} {} h-4",
                top + (self.y.1 - y) * cell + cell / 2
            );
        }
        let _ = writeln!(
            s,
            r##"<path d="{tick_path}" fill="none" stroke="#111827"/>"##
        );
        for x in &xticks {
            let _ = writeln!(
                s,
                r##"<text x="{}" y="{}" text-anchor="middle">{x}</text>"##,
                left + (x - self.x.0) * cell + cell / 2,
                bottom + 16
            );
        }
        for y in &yticks {
            let _ = writeln!(
                s,
                r##"<text x="{}" y="{}" text-anchor="end">{y}</text>"##,
                left - 6,
                top + (self.y.1 - y) * cell + cell / 2 + 4
            );
        }
        let _ = writeln!(
            s,
            r##"<text x="{}" y="{}" text-anchor="middle">{}</text>"##,
            left + gw / 2,
            bottom + 34,
            self.svg_label(0)
        );
        if !self.strip {
            let (yx, yy) = (14, top + gh / 2);
            let _ = writeln!(
                s,
                r##"<text x="{yx}" y="{yy}" text-anchor="middle" transform="rotate(-90 {yx} {yy})">{}</text>"##,
                self.svg_label(1)
            );
        }
        let (mut lx, ly) = (8, bottom + 56);
        for k in kinds {
            let swatch = match k {
                Cell::P => r##"fill="#1f2937""##,
                Cell::N => r##"fill="#e5e7eb""##,
                Cell::Defeated => r##"fill="url(#lg-hatch)" stroke="#b91c1c""##,
                Cell::Unknown => r##"fill="#ffffff" stroke="#9ca3af""##,
                Cell::OffBoard => r##"fill="#ffffff" stroke="#e5e7eb""##,
            };
            let _ = writeln!(
                s,
                r##"<path d="M{lx} {} h12 v12 h-12 Z" {swatch}/>"##,
                ly - 10
            );
            let _ = writeln!(
                s,
                r##"<text x="{}" y="{ly}">{}</text>"##,
                lx + 18,
                describe(k)
            );
            lx += 36 + 7 * describe(k).chars().count() as i64;
        }
        s.push_str("</svg>\n");
        s
    }
}

struct Glyphs {
    p: char,
    n: char,
    defeated: char,
    unknown: char,
    vertical: char,
    horizontal: char,
    corner: char,
    xtick: char,
    ytick: char,
}

impl Glyphs {
    fn cell(&self, c: Cell) -> char {
        match c {
            Cell::P => self.p,
            Cell::N => self.n,
            Cell::Defeated => self.defeated,
            Cell::Unknown => self.unknown,
            Cell::OffBoard => ' ',
        }
    }
}

const UNICODE: Glyphs = Glyphs {
    p: '●',
    n: '·',
    defeated: '×',
    unknown: '?',
    vertical: '│',
    horizontal: '─',
    corner: '└',
    xtick: '┬',
    ytick: '┤',
};

const ASCII: Glyphs = Glyphs {
    p: '#',
    n: '.',
    defeated: 'x',
    unknown: '?',
    vertical: '|',
    horizontal: '-',
    corner: '+',
    xtick: '+',
    ytick: '+',
};

fn describe(c: Cell) -> &'static str {
    match c {
        Cell::P => "P-position",
        Cell::N => "N-position",
        Cell::Defeated => "defeated",
        Cell::Unknown => "unknown",
        Cell::OffBoard => "off the board",
    }
}

/// The tick values of a range: the multiples of 5 (10, 20, 50, ... for long ranges, and on the
/// horizontal axis as long as the labels need room), or the lower end when there is none.
fn ticks((min, max): (i64, i64), horizontal: bool) -> Vec<i64> {
    let span = max as i128 - min as i128;
    let label = min.to_string().len().max(max.to_string().len()) as i128;
    let mut steps = (0u32..).flat_map(|e| [5, 10, 20].map(|m| m * 10i128.pow(e)));
    let mut step = 5;
    while span / step > 10 || (horizontal && step < label + 1) {
        step = steps.next().unwrap_or(step);
    }
    let first = (min as i128).div_euclid(step) * step;
    let first = if first < min as i128 {
        first + step
    } else {
        first
    };
    let mut out = Vec::new();
    let mut t = first;
    while t <= max as i128 {
        out.push(t as i64);
        t += step;
    }
    if out.is_empty() {
        out.push(min);
    }
    out
}

/// x with a subscripted axis number.
fn svg_var(k: usize) -> String {
    format!(r##"x<tspan baseline-shift="sub" font-size="9">{k}</tspan>"##)
}

fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// Nim with heaps of size at most 2 in misère play, drawn by hand from [GM09] Example 8.7:
    /// P = ((1, 0) + N{(2, 0)}) ⊎ ((0, 2) + 2N^2), the origin defeated.
    fn misere_nim(p: &[i64]) -> Cell {
        let (a, b) = (p[0], p[1]);
        if a < 0 || b < 0 {
            Cell::OffBoard
        } else if a == 0 && b == 0 {
            Cell::Defeated
        } else if (b == 0 && a % 2 == 1) || (b >= 2 && a % 2 == 0 && b % 2 == 0) {
            Cell::P
        } else {
            Cell::N
        }
    }

    fn small() -> Slice {
        Slice::new(
            &[0, 0],
            (1, 2),
            -1..=11,
            -1..=6,
            "misère Nim, heaps ≤ 2",
            misere_nim,
        )
        .unwrap()
    }

    #[test]
    fn text_of_a_small_slice() {
        insta::assert_snapshot!("misere_nim_text", small().to_text());
        insta::assert_snapshot!("misere_nim_ascii", small().to_ascii());
    }

    #[test]
    fn svg_of_a_small_slice() {
        insta::assert_snapshot!("misere_nim_svg", small().to_svg());
    }

    /// A long title is not clipped: the picture is as wide as the title needs; axis labels and
    /// the cell size are the ones given.
    #[test]
    fn titles_labels_and_cell_sizes() {
        let title = "P-positions of a game with a rather long name, drawn on a very small grid";
        let s = Slice::new(&[0, 0], (1, 2), 0..=2, 0..=1, title, |_| Cell::P)
            .unwrap()
            .with_labels("heaps of 1", "heaps <2>")
            .with_cell_size(10);
        let svg = s.to_svg();
        let width: i64 = svg
            .split("width=\"")
            .nth(1)
            .and_then(|w| w.split('"').next())
            .and_then(|w| w.parse().ok())
            .unwrap();
        assert!(width >= 9 * title.chars().count() as i64, "{width}");
        assert!(
            svg.contains(">heaps of 1</text>") && svg.contains("heaps &lt;2&gt;"),
            "{svg}"
        );
        assert!(svg.contains(r#"width="10" height="10""#), "{svg}");
        let text = s.to_text();
        assert!(
            text.contains("heaps of 1") && text.contains("heaps <2>"),
            "{text}"
        );
    }

    #[test]
    fn a_slice_of_three_dimensions_with_unknown_cells() {
        let s = Slice::new(&[0, 7, 2], (3, 1), 0..=3, 0..=2, "a <slice> & more", |p| {
            assert_eq!(p[1], 7);
            match (p[0] + p[2]) % 3 {
                0 => Cell::P,
                1 => Cell::N,
                _ => Cell::Unknown,
            }
        })
        .unwrap();
        assert_eq!(s.fixed(), vec![(2, 7)]);
        assert_eq!(s.cell(3, 2), Some(Cell::Unknown));
        assert_eq!(s.cell(4, 0), None);
        insta::assert_snapshot!("three_dimensions_text", s.to_text());
        insta::assert_snapshot!("three_dimensions_svg", s.to_svg());
    }

    /// A strip of one axis: misère Nim with one heap size, P = 1 + 2N, the origin defeated.
    #[test]
    fn a_strip_of_one_axis() {
        let s = Slice::strip(&[5, 0], 1, 0..=12, "misère Nim, heaps of size 1", |p| {
            assert_eq!(p[1], 0);
            misere_nim(p)
        })
        .unwrap();
        assert!(s.is_strip());
        assert_eq!((s.width(), s.height()), (13, 1));
        assert_eq!(s.fixed(), vec![(2, 0)]);
        assert_eq!(s.cell(3, 0), Some(Cell::P));
        assert_eq!(s.cell(0, 0), Some(Cell::Defeated));
        let text = s.to_text();
        assert!(!text.contains('┤') && !text.contains("x_2\n"), "{text}");
        insta::assert_snapshot!("strip_text", text);
        let svg = s.to_svg();
        well_formed(&svg).unwrap();
        assert!(
            !svg.contains("rotate(-90"),
            "a strip has no vertical axis label"
        );
        assert_eq!(svg.matches("<rect").count(), 13);
        insta::assert_snapshot!("strip_svg", svg);
        assert_eq!(
            Slice::strip(&[0], 2, 0..=1, "", |_| Cell::N),
            Err(PlotError::Axis { i: 2, dim: 1 })
        );
    }

    #[test]
    fn ticks_every_five_or_ten() {
        assert_eq!(ticks((0, 20), true), vec![0, 5, 10, 15, 20]);
        assert_eq!(ticks((-3, 12), false), vec![0, 5, 10]);
        assert_eq!(
            ticks((0, 100), true),
            vec![0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100]
        );
        assert_eq!(ticks((1, 3), true), vec![1]);
        assert_eq!(ticks((0, 1000), false)[1], 100);
        // Long labels need room on the horizontal axis.
        assert!(ticks((100_000, 100_030), true)
            .windows(2)
            .all(|w| w[1] - w[0] >= 7));
    }

    #[test]
    fn bad_slices_are_errors() {
        let cell = |_: &[i64]| Cell::N;
        assert_eq!(
            Slice::new(&[0, 0], (1, 1), 0..=1, 0..=1, "", cell),
            Err(PlotError::Axes { i: 1, j: 1, dim: 2 })
        );
        assert_eq!(
            Slice::new(&[0, 0], (1, 3), 0..=1, 0..=1, "", cell),
            Err(PlotError::Axes { i: 1, j: 3, dim: 2 })
        );
        let (five, four) = (5, 4);
        assert_eq!(
            Slice::new(&[0, 0], (2, 1), 0..=1, five..=four, "", cell),
            Err(PlotError::EmptyRange {
                axis: 1,
                min: 5,
                max: 4
            })
        );
        assert!(matches!(
            Slice::new(&[0, 0], (1, 2), i64::MIN..=i64::MAX, 0..=0, "", cell),
            Err(PlotError::TooLarge { .. })
        ));
        assert_eq!(
            Slice::from_grid(&[0, 0], (1, 2), 0..=1, 0..=1, "", vec![Cell::P; 3]),
            Err(PlotError::GridSize {
                expected: 4,
                found: 3
            })
        );
    }

    /// The tags of an XML document nest properly, and every `&` starts an entity.
    fn well_formed(svg: &str) -> Result<(), String> {
        let mut open: Vec<&str> = Vec::new();
        let mut rest = svg;
        while let Some(start) = rest.find('<') {
            let text = &rest[..start];
            if text.contains('>') {
                return Err(format!("a stray > in {text:?}"));
            }
            let end = rest[start..].find('>').ok_or("an unclosed tag")? + start;
            let tag = &rest[start + 1..end];
            if tag.contains('<') {
                return Err(format!("a < inside the tag {tag:?}"));
            }
            if let Some(name) = tag.strip_prefix('/') {
                match open.pop() {
                    Some(o) if o == name => {}
                    other => return Err(format!("</{name}> closes {other:?}")),
                }
            } else if !tag.ends_with('/') {
                open.push(tag.split_whitespace().next().ok_or("an empty tag")?);
            }
            if !tag.matches('"').count().is_multiple_of(2) {
                return Err(format!("unbalanced quotes in {tag:?}"));
            }
            rest = &rest[end + 1..];
        }
        for (i, _) in svg.match_indices('&') {
            let entity = &svg[i..svg[i..].find(';').map_or(svg.len(), |j| i + j + 1)];
            if !["&amp;", "&lt;", "&gt;", "&quot;", "&apos;"].contains(&entity) {
                return Err(format!("a bare & at {i}"));
            }
        }
        if !open.is_empty() || !rest.trim().is_empty() {
            return Err(format!("unclosed {open:?}"));
        }
        Ok(())
    }

    fn cell_strategy() -> impl Strategy<Value = Cell> {
        prop_oneof![
            Just(Cell::P),
            Just(Cell::N),
            Just(Cell::Defeated),
            Just(Cell::OffBoard),
            Just(Cell::Unknown)
        ]
    }

    proptest! {
        #[test]
        fn one_rect_per_drawn_cell_and_well_formed(
            w in 1usize..9,
            h in 1usize..9,
            x0 in -20i64..20,
            y0 in -20i64..20,
            dim in 2usize..5,
            title in "[a-z<>&\"' é]{0,12}",
            cells in proptest::collection::vec(cell_strategy(), 64),
        ) {
            let cells: Vec<Cell> = cells.into_iter().take(w * h).collect();
            let point = vec![3; dim];
            let s = Slice::from_grid(
                &point,
                (dim, 1),
                x0..=x0 + w as i64 - 1,
                y0..=y0 + h as i64 - 1,
                title,
                cells.clone(),
            )
            .unwrap();
            let svg = s.to_svg();
            let drawn = cells.iter().filter(|&&c| c != Cell::OffBoard).count();
            prop_assert_eq!(svg.matches("<rect ").count(), drawn);
            prop_assert_eq!(well_formed(&svg), Ok(()));
            let b = svg.as_bytes();
            let decimal = (1..b.len() - 1)
                .any(|i| b[i] == b'.' && b[i - 1].is_ascii_digit() && b[i + 1].is_ascii_digit());
            prop_assert!(!decimal, "integer coordinates only");
            prop_assert_eq!(svg.clone(), s.to_svg());
            let text = s.to_ascii();
            prop_assert!(text.is_ascii() || !s.title().is_ascii());
            // One character per cell, the top row first, after the axis.
            let header = usize::from(!s.title().is_empty()) + usize::from(dim > 2) + 1;
            let lines: Vec<&str> = text.lines().collect();
            for k in 0..h {
                let line: Vec<char> = lines[header + k].chars().collect();
                let axis = line.iter().position(|&c| c == '|' || c == '+').unwrap();
                let mut row: Vec<char> = line[axis + 1..].to_vec();
                row.resize(w, ' ');
                let expected: Vec<char> = cells[(h - 1 - k) * w..(h - k) * w]
                    .iter()
                    .map(|&c| ASCII.cell(c))
                    .collect();
                prop_assert_eq!(row, expected);
            }
        }
    }
}
