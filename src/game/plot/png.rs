//! PNG pictures of slices: the SVG document of [`Slice::to_svg`] rasterized by resvg, at twice
//! its size when that fits (a figure for a paper or a slide), the text set in a monospaced system
//! font. Rasterizing is drawing, not mathematics: the cells themselves come exact from the
//! solver.

use resvg::tiny_skia::{Pixmap, Transform};
use resvg::usvg::{Options, Tree};

use super::{PlotError, Slice};

/// The most pixels a PNG picture may have (256 MiB of RGBA); larger pictures are drawn at
/// their SVG size, and refused if even that is larger.
pub const MAX_PIXELS: u64 = 1 << 26;

impl Slice {
    /// The picture as a PNG file's bytes. Fails without any system font (the title, ticks and
    /// legend are text) and for pictures of more than [`MAX_PIXELS`] pixels.
    pub fn to_png(&self) -> Result<Vec<u8>, PlotError> {
        let mut options = Options::default();
        let fonts = options.fontdb_mut();
        fonts.load_system_fonts();
        let family = fonts
            .faces()
            .filter(|f| f.monospaced)
            .chain(fonts.faces())
            .find_map(|f| f.families.first().map(|(name, _)| name.clone()))
            .ok_or(PlotError::NoFonts)?;
        fonts.set_monospace_family(family);
        let tree = Tree::from_str(&self.to_svg(), &options)
            .map_err(|e| PlotError::Render(e.to_string()))?;
        let size = tree.size().to_int_size();
        let (w, h) = (u64::from(size.width()), u64::from(size.height()));
        let scale = if 4 * w * h <= MAX_PIXELS {
            2
        } else if w * h <= MAX_PIXELS {
            1
        } else {
            return Err(PlotError::TooManyPixels {
                pixels: w * h,
                max: MAX_PIXELS,
            });
        };
        let mut pixmap = Pixmap::new(size.width() * scale, size.height() * scale)
            .ok_or_else(|| PlotError::Render("an empty picture".to_string()))?;
        resvg::render(
            &tree,
            Transform::from_scale(scale as f32, scale as f32),
            &mut pixmap.as_mut(),
        );
        pixmap
            .encode_png()
            .map_err(|e| PlotError::Render(e.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use resvg::tiny_skia::Pixmap;

    use super::super::{Cell, PlotError, Slice};

    /// The first numeric attribute `name="…"` in SVG text.
    fn attribute(svg: &str, name: &str) -> u32 {
        svg.split(&format!(" {name}=\""))
            .nth(1)
            .and_then(|w| w.split('"').next())
            .and_then(|w| w.parse().ok())
            .unwrap()
    }

    /// The PNG is the SVG at twice its size: the cells' colours are where the SVG puts them
    /// (P dark, N light), and the title is drawn (some dark pixels where it stands).
    #[test]
    fn png_of_a_slice() {
        let s = Slice::new(&[0, 0], (1, 2), 0..=3, 0..=1, "P and N", |p| {
            if p[0] == p[1] {
                Cell::P
            } else {
                Cell::N
            }
        })
        .unwrap();
        let png = match s.to_png() {
            Ok(png) => png,
            // A machine without fonts cannot draw the text, and says so.
            Err(PlotError::NoFonts) => return,
            Err(e) => panic!("{e}"),
        };
        let svg = s.to_svg();
        let image = Pixmap::decode_png(&png).unwrap();
        assert_eq!(
            (image.width(), image.height()),
            (2 * attribute(&svg, "width"), 2 * attribute(&svg, "height"))
        );
        // The cell at (0, 0) is a P-position: bottom row, first column.
        let rect = |x: i64, y: i64| -> (u32, u32) {
            let line = svg
                .lines()
                .filter(|l| l.starts_with("<rect"))
                .nth((y * 4 + x) as usize)
                .unwrap();
            (2 * attribute(line, "x") + 16, 2 * attribute(line, "y") + 16)
        };
        let dark = |(x, y): (u32, u32)| {
            let c = image.pixel(x, y).unwrap();
            (c.red(), c.green(), c.blue())
        };
        assert_eq!(dark(rect(0, 0)), (0x1f, 0x29, 0x37));
        assert_eq!(dark(rect(1, 0)), (0xe5, 0xe7, 0xeb));
        assert_eq!(dark(rect(1, 1)), (0x1f, 0x29, 0x37));
        let title_ink = (0..40)
            .flat_map(|y| (70..200).map(move |x| (x, y)))
            .filter(|&p| dark(p).0 < 0x80)
            .count();
        assert!(
            title_ink > 50,
            "the title is drawn ({title_ink} dark pixels)"
        );
    }
}
