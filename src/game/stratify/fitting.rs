//! The third guess of a round, fitted on a thread of its own: which attempts it makes and in
//! what order (layers of one normal for each moduli, trees of cuts, guesses with cuts; see
//! [`super::layers`]), each fit sent to the thread checking them as it is asked for, and the name
//! of an attempt that fitted nothing, for the report of a "not found".

use std::sync::mpsc::SyncSender;
use std::time::{Duration, Instant};

use super::classes;
use super::layers;
use super::region::WeightRegion;

/// What the thread fitting the third guess's attempts ([`fit_all`]) tells the one checking them.
pub(super) enum Fitting {
    /// What it fits now, for the progress line.
    Note(String),
    /// The next attempt's fit, with its description.
    Fit(Box<(layers::Layered, String)>),
    /// The next attempt, named: nothing fits the region, or (true) it waits for a larger one.
    Nothing(String, bool),
}

/// The attempts of the third guess of a round, in order: layers of one normal for each moduli
/// it tries, trees of cuts, and then guesses with cuts.
fn layered_attempts<'a>(region: &WeightRegion, to_try: &'a layers::ToTry) -> Vec<Attempt<'a>> {
    let layers::ToTry {
        moduli,
        lattice,
        deeper,
        parts,
        parts_from_lines,
        ..
    } = to_try;
    // Layers of one normal first, each moduli; then guesses with cuts, modulo the moduli the
    // region suggests along the axes (the last such; the parity modulo 2 tried first above is
    // the generic one, and cut guesses modulo 2 cost seconds on large regions without finding
    // what the region's own moduli miss), then modulo the lattice of periods it suggests when
    // there is one (second: first, its 2 s a round delayed a game found modulo the axis moduli,
    // seed 2718 item 15, 2.1 → 7.9 s), in d = 2 and on small regions in d = 3 (see
    // `layers::cuts_tried`). The lattice is
    // tried even when it contains the axis moduli, which a guess with cuts may not take
    // (⟨(2, 3, 3), (0, 12, 0), (0, 0, 12)⟩ has 288 classes, (8, 12, 12) 1,152); tried instead of
    // them, it lost a game the axis moduli find (item 887 of the developers' 1000-game run).
    let along_axes = moduli.iter().rev().find(|m| m.is_box());
    // Between them, a tree of cuts whose cells each show one pattern modulo the lattice of
    // periods (else the moduli along the axes), in d ≤ 4: where patterns meet in sectors around
    // a line, which no layers of one normal nor a fan's cut fit. It comes before the guesses
    // with cuts, which take up to 2 s a round each; a tree, a fifth of a second in d = 3.
    let tree = lattice
        .as_ref()
        .or(along_axes)
        .filter(|_| region.dim() <= 4)
        .map(|m| Attempt::Tree(std::slice::from_ref(m)));
    // Then one modulo the lattice of the sides of a boundary past a zone along it, where a side
    // showed none nearer the boundary (item 5 of a random-rules sweep, seed 5555, a 2-D game).
    let deeper = deeper
        .as_ref()
        .filter(|_| region.dim() <= 4)
        .map(|m| Attempt::Tree(std::slice::from_ref(m)));
    // Then, in d = 4, one whose cells each take their own among the lattices the parts of the
    // region show, where those lattices' intersection has many more classes than any of them
    // (misère play of Γ = {2e_4, e_3, 2e_2, e_1, (2, 2, 2, 1)}, item 0 of a random-rules sweep,
    // seed 31337: none at weight 85, the parts 12 to 24 classes each; a tree of 14 cells, each
    // modulo one of four lattices, is certified). In d = 3 it certified none of the nine
    // 3-D games of random-rules sweeps not found in 10 s (seeds 7777 and 8888).
    // In d = 3, and in d = 4 whatever the intersection, where the lines of the region pass
    // through a pattern whose lattice no part showed (misère play of Γ = {(−1, 1, 2), e_3, 2e_2,
    // e_1, (2, −2, 2)}, item 79 of a random-rules sweep, seed 9090: a pattern of period 7 in a
    // wedge along the face x_1 = 0, between patterns of periods 16 and 2; a tree of 4 cells is
    // certified at weight 179 in 4.7 s with it, where none was in 60 s).
    let finest_part = parts.iter().map(classes::Moduli::count).max().unwrap_or(0);
    let fine_intersection = || {
        lattice
            .as_ref()
            .is_none_or(|l| l.count() >= OWN_LATTICES_ABOVE * finest_part)
    };
    let own_tried = match region.dim() {
        3 => *parts_from_lines > 0,
        4 => *parts_from_lines > 0 || fine_intersection(),
        _ => false,
    };
    let own = (parts.len() >= 2 && own_tried).then_some(Attempt::Tree(parts));
    moduli
        .iter()
        .map(Attempt::Layers)
        .chain(tree)
        .chain(deeper)
        .chain(own)
        .chain(
            along_axes
                .into_iter()
                .chain(lattice.as_ref())
                .filter(|m| layers::cuts_tried(region, m))
                .map(Attempt::Cuts),
        )
        .collect()
}

/// One attempt's fit on the region: None when nothing fits (or when interrupted). A guess with
/// cuts waits for a larger region when one normal's layers `fitted` already (and were refuted
/// past it, or the search would not be here): then the region is what falls short, not the
/// guess's kind.
fn fit(
    region: &WeightRegion,
    attempt: &Attempt<'_>,
    normals: &[Vec<i64>],
    line_normals: &[Vec<i64>],
    fitted: bool,
    progress: &mut dyn FnMut(&str),
) -> Option<layers::Layered> {
    let bound = region.bound();
    match attempt {
        Attempt::Layers(moduli) => layers::guess(region, moduli, false, normals),
        Attempt::Tree(moduli) => {
            let modulo = match moduli {
                [one] => one.describe(),
                many => format!("one of {} lattices each", many.len()),
            };
            progress(&format!(
                "weight ≤ {bound}: periodic patterns on the cells of a tree of cuts, modulo {modulo}"
            ));
            // The lines' normals are none of the periods' (see `layers::ToTry`).
            let normals = [normals, line_normals].concat();
            layers::tree_guess(region, moduli, &normals, Instant::now() + TREE_TIME)
        }
        Attempt::Cuts(_) if fitted => None,
        Attempt::Cuts(moduli) => {
            progress(&format!(
                "weight ≤ {bound}: periodic patterns on the sides of cuts, modulo {}",
                moduli.describe()
            ));
            layers::guess(region, moduli, true, normals)
        }
    }
}

/// The fits of the third guess's attempts, in order, each handed to the thread checking them when
/// it asks for it, until this thread is stopped (when the round has its answer, or by a limit); a
/// fit cut short is not sent, and the checking thread, its channel closed, then finds the stop
/// too.
pub(super) fn fit_all(region: &WeightRegion, sums: &[Vec<i64>], send: SyncSender<Fitting>) {
    let to_try = layers::moduli_to_try(region, sums);
    if crate::interrupt::requested() {
        return;
    }
    let attempts = layered_attempts(region, &to_try);
    // Shown when the checking thread waits for this fit, and dropped otherwise.
    let mut note = |text: &str| {
        let _ = send.try_send(Fitting::Note(text.to_string()));
    };
    // Whether one normal's layers fitted the region (see [`fit`]).
    let mut fitted = false;
    let mut planes_named = false;
    for attempt in &attempts {
        if crate::interrupt::requested() {
            return;
        }
        let layered = fit(
            region,
            attempt,
            &to_try.normals,
            &to_try.line_normals,
            fitted,
            &mut note,
        );
        // A fit cut short by a stop is not a fit that failed.
        if crate::interrupt::requested() {
            return;
        }
        let message = match layered {
            Some(l) => {
                fitted |= matches!(attempt, Attempt::Layers(_));
                let describe = l.describe(region.bound());
                Fitting::Fit(Box::new((l, describe)))
            }
            None => {
                let waits = fitted && matches!(attempt, Attempt::Cuts(_));
                let mut said = unfitted(attempt, waits);
                // The planes the lines showed, once a round, with the first tree that had them.
                if matches!(attempt, Attempt::Tree(_)) && !planes_named {
                    if let Some(planes) = line_planes(&to_try.line_normals) {
                        said.push_str(&planes);
                        planes_named = true;
                    }
                }
                Fitting::Nothing(said, waits)
            }
        };
        if send.send(message).is_err() {
            return;
        }
    }
}

/// The planes where the region's lines turn periodic ([`super::boundaries`]), for the report of a tree
/// that had them among its cuts' candidates and fitted nothing: a fan's boundaries the search saw,
/// which a user may read the zones from. None when there are none.
fn line_planes(normals: &[Vec<i64>]) -> Option<String> {
    if normals.is_empty() {
        return None;
    }
    let planes: Vec<String> = normals
        .iter()
        .map(|h| format!("{} = c", layers::hyperplane(h)))
        .collect();
    Some(format!(
        ", with cuts along the planes where the region's lines turn periodic ({})",
        planes.join(", ")
    ))
}

/// An attempt of the third guess that fitted nothing, or waits for a larger region, named for
/// the report (see [`fit`]).
fn unfitted(attempt: &Attempt<'_>, waits: bool) -> String {
    match attempt {
        Attempt::Layers(moduli) => format!("layers of one normal modulo {}", moduli.describe()),
        Attempt::Tree([one]) => format!(
            "a tree of cuts modulo {} (at most {} cells, {} s)",
            one.describe(),
            layers::TREE_CELLS,
            TREE_TIME.as_secs()
        ),
        Attempt::Tree(many) => format!(
            "a tree of cuts, each cell modulo one of {} lattices (at most {} cells, {} s)",
            many.len(),
            layers::TREE_CELLS,
            TREE_TIME.as_secs()
        ),
        Attempt::Cuts(moduli) if waits => format!("cuts modulo {}", moduli.describe()),
        Attempt::Cuts(moduli) => format!(
            "cuts modulo {} (at most {} deep, {} s)",
            moduli.describe(),
            layers::MAX_CUTS,
            layers::CUT_TIME.as_secs()
        ),
    }
}

/// A guess of [`super::layered_guess`]: layers of one normal, a tree of cuts, or layers on the sides of
/// cuts, modulo the moduli given.
enum Attempt<'a> {
    Layers(&'a classes::Moduli),
    Tree(&'a [classes::Moduli]),
    Cuts(&'a classes::Moduli),
}

/// How many times the classes of the finest lattice a part of the region shows the
/// intersection of them all must have before a tree of cuts lets each cell take its own among
/// them: near it, one pattern modulo the intersection is read as well (misère play of
/// Γ = {(−1, 0, 0, 2), e_3, 2e_2, e_1, (1, 1, 1, 0), (2, 2, −1, −1)}, item 77 of a random-rules
/// sweep, seed 9001: 144 classes against 48 at weight 73, where a tree of each cell's own took
/// a second and was refuted; 576 against 48 at weight 109, where it was certified).
const OWN_LATTICES_ABOVE: usize = 8;

/// The longest a round may grow trees of cuts ([`layers::tree_guess`]; reading their patterns
/// afterwards is not counted).
const TREE_TIME: Duration = Duration::from_secs(2);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tree_that_fitted_nothing_names_the_planes_the_lines_showed() {
        // As the report of misère play of Γ = {e_3, (0, 1, −1), (0, 2, 2), e_1, (2, −2, 2)} (item 45
        // of a random-rules sweep, seed 9090) says of its trees past weight 451.
        assert_eq!(
            line_planes(&[vec![3, 7, -6], vec![1, 1, -1]]).as_deref(),
            Some(", with cuts along the planes where the region's lines turn periodic (3x_1 + 7x_2 − 6x_3 = c, x_1 + x_2 − x_3 = c)")
        );
        assert_eq!(line_planes(&[]), None);
    }
}
