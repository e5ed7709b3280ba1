//! Misère play of impartial games: canonical forms, misère nim values and genus (Conway, *On
//! Numbers and Games*, ch. 12; Berlekamp–Conway–Guy, *Winning Ways*, ch. 13; Siegel,
//! *Combinatorial Game Theory*, ch. V), for heap games given by take-and-break codes.
//!
//! - A game is stored once per canonical form (interned by its set of canonical options). The
//!   simplification: G with options S equals K when K is an option of some option of G, every
//!   option of K is in S, every option of G outside K's options has K as an option, and K ≠ 0
//!   unless G is a misère N-position (some option of misère value 0).
//! - The misère nim value g⁻(G) is 1 for a game with no moves, else the mex of the options'.
//! - The genus g^{γ0γ1γ2…}: g is the normal-play value, γ_k = g⁻(G + k·*2). It is computed on
//!   canonical forms: γ_k is the mex of the options' γ_k together with γ_{k−1} and γ_{k−1} ⊕ 1
//!   (G + (k−1)·*2 and G + (k−1)·*2 + *1 are options of G + k·*2); the game 0 has 0^{1202…}. The
//!   sequence ends 2-periodic and is cut at its shortest such prefix of length ≥ 2.
//! - Printing as CGSuite does: a nim heap *g prints as `g`; a game in the tame or restive phylum
//!   (hereditarily, or reversibly: see [`MisereForms::phylum`]) prints `g^γ0`; any other game
//!   `g^γ0γ1…` with the cut sequence; digits past 9 as `(a,b,c)`.

#[cfg(test)]
mod tests;

use std::collections::HashMap;

/// A canonical game, by its index in [`MisereForms`].
pub type GameId = u32;

/// The phylum that decides how a genus is printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phylum {
    /// A nim heap *g.
    Nim,
    /// Every option a nim heap or hereditarily tame, with a tame genus.
    HereditarilyTame,
    /// Tame through reversible options.
    ReversiblyTame,
    /// Every option a nim heap or hereditarily tame, with a restive genus.
    HereditarilyRestive,
    /// Restive through reversible options.
    ReversiblyRestive,
    /// Anything else (wild, restless, tameable): the whole genus is printed.
    Other,
}

impl Phylum {
    fn generally_tame(self) -> bool {
        matches!(
            self,
            Phylum::Nim | Phylum::HereditarilyTame | Phylum::ReversiblyTame
        )
    }

    fn restive_or_tame(self) -> bool {
        self != Phylum::Other
    }
}

/// Interned canonical misère forms with their values.
#[derive(Debug)]
pub struct MisereForms {
    options: Vec<Vec<GameId>>,
    table: HashMap<Vec<GameId>, GameId>,
    normal: Vec<u32>,
    misere: Vec<u32>,
    phylum: Vec<Option<Phylum>>,
    genus: Vec<Option<Vec<u32>>>,
    /// nim_heaps[k] = the id of *k, for the k built so far.
    nim_heaps: Vec<GameId>,
    /// Canonical forms of sums a + b (a ≤ b) computed so far.
    sums: HashMap<(GameId, GameId), GameId>,
    /// Options stored over all forms (each twice: the form's list and the interning key).
    entries: usize,
    /// Marks of the candidates one call of [`MisereForms::make`] has tried (`epoch` = tried).
    stamp: Vec<u32>,
    epoch: u32,
}

/// Why a sum of canonical forms was not finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SumStop {
    /// More forms and sums than the limit would be stored.
    TooLarge,
    /// Ctrl-C.
    Interrupted,
}

fn mex(values: impl IntoIterator<Item = u32>) -> u32 {
    crate::game::grundy::mex(values.into_iter().map(u64::from)) as u32
}

fn tame_genus(g: u32, gm: u32) -> bool {
    g == gm || (g <= 1 && gm <= 1)
}

impl Default for MisereForms {
    fn default() -> Self {
        MisereForms::new()
    }
}

impl MisereForms {
    /// The table with the game 0 = { } (id 0) and the nim heaps *1, *2 ….
    pub fn new() -> MisereForms {
        let mut forms = MisereForms {
            options: Vec::new(),
            table: HashMap::new(),
            normal: Vec::new(),
            misere: Vec::new(),
            phylum: Vec::new(),
            genus: Vec::new(),
            nim_heaps: Vec::new(),
            sums: HashMap::new(),
            entries: 0,
            stamp: Vec::new(),
            epoch: 0,
        };
        let zero = forms.intern(Vec::new());
        forms.nim_heaps.push(zero);
        forms.nim_heap(8);
        forms
    }

    /// The id of the nim heap *k (built on first use).
    pub fn nim_heap(&mut self, k: u32) -> GameId {
        while self.nim_heaps.len() <= k as usize {
            let opts = self.nim_heaps.clone();
            let id = self.make(opts);
            self.nim_heaps.push(id);
        }
        self.nim_heaps[k as usize]
    }

    /// The canonical form of the disjunctive sum a + b. Misère equality is a congruence for
    /// sums, so this is the canonical game whose options are a′ + b and a + b′ over the canonical
    /// options a′ of a and b′ of b, computed recursively with every sum remembered. Stops when
    /// the table would take more than `max_bytes` ([`MisereForms::bytes`]), or on Ctrl-C.
    pub fn sum(&mut self, a: GameId, b: GameId, max_bytes: usize) -> Result<GameId, SumStop> {
        let key = (a.min(b), a.max(b));
        if key.0 == 0 {
            return Ok(key.1);
        }
        if let Some(&s) = self.sums.get(&key) {
            return Ok(s);
        }
        if self.bytes() >= max_bytes {
            return Err(SumStop::TooLarge);
        }
        // A new sum costs a canonical form (options of options), far more than this atomic read.
        if crate::interrupt::requested() {
            return Err(SumStop::Interrupted);
        }
        let (a, b) = key;
        let mut opts =
            Vec::with_capacity(self.options[a as usize].len() + self.options[b as usize].len());
        // The recursion is as deep as the birthdays of a and b; grow the stack when needed.
        for x in self.options[a as usize].clone() {
            opts.push(stacker::maybe_grow(64 * 1024, 1 << 20, || {
                self.sum(x, b, max_bytes)
            })?);
        }
        for y in self.options[b as usize].clone() {
            opts.push(stacker::maybe_grow(64 * 1024, 1 << 20, || {
                self.sum(a, y, max_bytes)
            })?);
        }
        let s = self.make(opts);
        self.sums.insert(key, s);
        Ok(s)
    }

    /// About how many bytes the table holds: per form its two option lists, the values and the
    /// vectors' headers; per sum a map entry.
    pub fn bytes(&self) -> usize {
        self.entries * 8 + self.options.len() * 160 + self.sums.len() * 24
    }

    /// How many sums of canonical forms are remembered.
    pub fn sums_len(&self) -> usize {
        self.sums.len()
    }

    /// How many canonical forms are stored.
    pub fn len(&self) -> usize {
        self.options.len()
    }

    /// Whether only the game 0 is stored (never, after `new`).
    pub fn is_empty(&self) -> bool {
        self.options.is_empty()
    }

    fn intern(&mut self, opts: Vec<GameId>) -> GameId {
        let id = self.options.len() as GameId;
        let normal = mex(opts.iter().map(|&s| self.normal[s as usize]));
        let misere = if opts.is_empty() {
            1
        } else {
            mex(opts.iter().map(|&s| self.misere[s as usize]))
        };
        self.entries += opts.len();
        self.table.insert(opts.clone(), id);
        self.options.push(opts);
        self.normal.push(normal);
        self.misere.push(misere);
        self.phylum.push(None);
        self.genus.push(None);
        id
    }

    /// The canonical game whose options are the given canonical games.
    pub fn make(&mut self, mut opts: Vec<GameId>) -> GameId {
        opts.sort_unstable();
        opts.dedup();
        if let Some(&id) = self.table.get(&opts) {
            return id;
        }
        if opts.is_empty() {
            return 0;
        }
        let is_n = opts.iter().any(|&s| self.misere[s as usize] == 0);
        // Each option of an option is a candidate once (marked with this call's stamp rather
        // than sorted: the options of options of a big form number in the tens of thousands).
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.epoch = 1;
        }
        self.stamp.resize(self.options.len(), 0);
        for &s in &opts {
            for &k in &self.options[s as usize] {
                if self.stamp[k as usize] == self.epoch {
                    continue;
                }
                self.stamp[k as usize] = self.epoch;
                if k == 0 && !is_n {
                    continue;
                }
                if self.reverses_to(&opts, k) {
                    return k;
                }
            }
        }
        self.intern(opts)
    }

    /// Whether G with the (sorted) canonical options `opts` equals its option's option K: every
    /// option of K is an option of G, and every other option of G has K as an option.
    fn reverses_to(&self, opts: &[GameId], k: GameId) -> bool {
        let ok = &self.options[k as usize];
        ok.len() <= opts.len()
            && ok.iter().all(|x| opts.binary_search(x).is_ok())
            && opts
                .iter()
                .filter(|s| ok.binary_search(s).is_err())
                .all(|&s| self.options[s as usize].binary_search(&k).is_ok())
    }

    /// The normal-play nim value g(G).
    pub fn normal_value(&self, g: GameId) -> u32 {
        self.normal[g as usize]
    }

    /// The misère nim value g⁻(G) (0 exactly for misère P-positions).
    pub fn misere_value(&self, g: GameId) -> u32 {
        self.misere[g as usize]
    }

    /// The phylum of G (see the module header): tame genus means g = γ0 or both ≤ 1, restive
    /// genus means not tame and g ≤ 1. Hereditarily: every option a nim heap or hereditarily
    /// tame. Reversibly: every option generally tame; or the generally tame options alone give
    /// the same g and γ0, and each other option has options that stand in for G (generally tame
    /// ones with G's γ0 and with G's g; in the restive case restive-or-tame ones, with a parity
    /// condition).
    pub fn phylum(&mut self, g: GameId) -> Phylum {
        if let Some(p) = self.phylum[g as usize] {
            return p;
        }
        let opts = self.options[g as usize].clone();
        let phyla: Vec<Phylum> = opts.iter().map(|&s| self.phylum(s)).collect();
        let (gp, gm) = (self.normal[g as usize], self.misere[g as usize]);
        let p = if self.nim_heap(gp) == g {
            Phylum::Nim
        } else {
            let tame = tame_genus(gp, gm);
            let restive = !tame && gp <= 1;
            let classify = |hereditary: bool| match (tame, restive, hereditary) {
                (true, _, true) => Phylum::HereditarilyTame,
                (true, _, false) => Phylum::ReversiblyTame,
                (false, true, true) => Phylum::HereditarilyRestive,
                (false, true, false) => Phylum::ReversiblyRestive,
                _ => Phylum::Other,
            };
            if phyla
                .iter()
                .all(|q| matches!(q, Phylum::Nim | Phylum::HereditarilyTame))
            {
                classify(true)
            } else if phyla.iter().all(|q| q.generally_tame()) {
                classify(false)
            } else if tame || restive {
                self.reversible(g, tame)
            } else {
                Phylum::Other
            }
        };
        self.phylum[g as usize] = Some(p);
        p
    }

    fn reversible(&mut self, g: GameId, tame: bool) -> Phylum {
        let opts = self.options[g as usize].clone();
        let (gp, gm) = (self.normal[g as usize], self.misere[g as usize]);
        let tame_opts: Vec<GameId> = opts
            .iter()
            .copied()
            .filter(|&s| self.phylum[s as usize].is_some_and(Phylum::generally_tame))
            .collect();
        if mex(tame_opts.iter().map(|&s| self.normal[s as usize])) != gp
            || mex(tame_opts.iter().map(|&s| self.misere[s as usize])) != gm
        {
            return Phylum::Other;
        }
        for s in opts {
            if self.phylum[s as usize].is_some_and(Phylum::generally_tame) {
                continue;
            }
            let (mut ok_misere, mut ok_normal) = (false, false);
            for t in self.options[s as usize].clone() {
                let q = self.phylum(t);
                let (tp, tm) = (self.normal[t as usize], self.misere[t as usize]);
                if tame {
                    if q.generally_tame() {
                        ok_misere |= tm == gm;
                        ok_normal |= tp == gp;
                    }
                } else if q.restive_or_tame() {
                    ok_misere |= tm == gm && (tp <= 1 || (tp ^ gm) <= 1);
                    ok_normal |= tp == gp && (tm <= 1 || (tm ^ gm) <= 1);
                }
            }
            if !(ok_misere && ok_normal) {
                return Phylum::Other;
            }
        }
        if tame {
            Phylum::ReversiblyTame
        } else {
            Phylum::ReversiblyRestive
        }
    }

    /// γ_i of a game whose cut genus sequence is `seq` (continued 2-periodically).
    fn digit_of(seq: &[u32], i: usize) -> u32 {
        if i < seq.len() {
            seq[i]
        } else {
            seq[seq.len() - 2 + (i - seq.len()) % 2]
        }
    }

    /// The genus sequence γ0 γ1 … of G, cut at its shortest prefix (of length ≥ 2) after which
    /// it is 2-periodic.
    pub fn genus_sequence(&mut self, g: GameId) -> Vec<u32> {
        if let Some(s) = &self.genus[g as usize] {
            return s.clone();
        }
        let opts = self.options[g as usize].clone();
        let seq = if opts.is_empty() {
            vec![1, 2, 0, 2]
        } else {
            let option_seqs: Vec<Vec<u32>> = opts.iter().map(|&s| self.genus_sequence(s)).collect();
            let longest = option_seqs.iter().map(Vec::len).max().unwrap_or(2).max(2);
            let mut seq: Vec<u32> = Vec::with_capacity(longest + 4);
            for i in 0..longest + 4 {
                let mut excluded: Vec<u32> =
                    option_seqs.iter().map(|s| Self::digit_of(s, i)).collect();
                if i > 0 {
                    excluded.push(seq[i - 1]);
                    excluded.push(seq[i - 1] ^ 1);
                }
                seq.push(mex(excluded));
            }
            seq
        };
        let cut = cut_two_periodic(seq);
        self.genus[g as usize] = Some(cut.clone());
        cut
    }

    /// The genus of G printed as CGSuite prints it.
    pub fn genus_string(&mut self, g: GameId) -> String {
        let gp = self.normal[g as usize];
        match self.phylum(g) {
            Phylum::Nim => gp.to_string(),
            Phylum::Other => {
                let seq = self.genus_sequence(g);
                format!("{gp}^{}", superscript(&seq))
            }
            _ => format!("{gp}^{}", superscript(&[self.misere[g as usize]])),
        }
    }
}

/// The shortest prefix (at least two entries) after which the sequence repeats with period 2.
fn cut_two_periodic(mut seq: Vec<u32>) -> Vec<u32> {
    let mut m = seq.len() - 1;
    while m > 1 && seq[m] == seq[m - 2] {
        m -= 1;
    }
    seq.truncate(m + 1);
    seq
}

/// Digits side by side, or `(a,b,c)` when one exceeds 9.
fn superscript(digits: &[u32]) -> String {
    if digits.iter().any(|&d| d >= 10) {
        let list: Vec<String> = digits.iter().map(u32::to_string).collect();
        format!("({})", list.join(","))
    } else {
        digits.iter().map(u32::to_string).collect()
    }
}

/// Why the misère values of a heap game were not computed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MisereError {
    /// Ctrl-C or a deadline.
    #[error("interrupted after {positions} canonical forms and sums")]
    Interrupted {
        /// Forms and sums computed.
        positions: usize,
    },
    /// Too many canonical forms and sums below the heaps asked for.
    #[error(
        "the canonical forms and sums of them needed for heap {heap} take more than {} MiB; ask for smaller heaps", max_bytes >> 20
    )]
    TooLarge {
        /// The heap being computed.
        heap: usize,
        /// The memory limit in bytes.
        max_bytes: usize,
    },
}

/// Where the options of heaps come from.
#[derive(Clone, Copy)]
enum OptionSource<'a> {
    Code(&'a crate::game::heap::HeapCode),
    Table(&'a [Vec<Vec<usize>>]),
}

/// Called with (heap, canonical forms, sums) while a heap is computed.
pub type FormsProgress = Box<dyn FnMut(usize, usize, usize)>;

/// The canonical misère forms of the single heaps of a heap game. The form of a heap is the
/// canonical game whose options are the forms of its options, each a sum of smaller heaps, whose
/// canonical form is computed from the heaps' forms ([`MisereForms::sum`]): positions are never
/// listed as multisets of heaps, so the work follows the number of distinct forms.
pub struct HeapPositions<'a> {
    source: OptionSource<'a>,
    forms: MisereForms,
    heaps: Vec<GameId>,
    max_bytes: usize,
    progress: Option<FormsProgress>,
}

impl<'a> HeapPositions<'a> {
    /// The heaps of `code`, with canonical forms and sums stored in at most `max_bytes`.
    pub fn new(code: &'a crate::game::heap::HeapCode, max_bytes: usize) -> HeapPositions<'a> {
        Self::from_source(OptionSource::Code(code), max_bytes)
    }

    /// The heaps of a game given by its options: `options[h]` lists the options of heap h, each
    /// a list of heaps smaller in the order of the table (options[0] is empty).
    pub fn from_table(options: &'a [Vec<Vec<usize>>], max_bytes: usize) -> HeapPositions<'a> {
        Self::from_source(OptionSource::Table(options), max_bytes)
    }

    fn from_source(source: OptionSource<'a>, max_bytes: usize) -> HeapPositions<'a> {
        HeapPositions {
            source,
            forms: MisereForms::new(),
            heaps: vec![0],
            max_bytes,
            progress: None,
        }
    }

    /// Calls `progress(heap, forms, sums)` every few thousand options of a heap.
    pub fn set_progress(&mut self, progress: Option<FormsProgress>) {
        self.progress = progress;
    }

    /// The canonical forms table.
    pub fn forms(&mut self) -> &mut MisereForms {
        &mut self.forms
    }

    /// The canonical form of a single heap of size h (heap 0 is the game 0); smaller heaps are
    /// computed first.
    pub fn heap(&mut self, h: usize) -> Result<GameId, MisereError> {
        while self.heaps.len() <= h {
            let k = self.heaps.len();
            let id = self.next_heap(k)?;
            self.heaps.push(id);
        }
        Ok(self.heaps[h])
    }

    fn next_heap(&mut self, k: usize) -> Result<GameId, MisereError> {
        let stop = |e: SumStop, forms: &MisereForms| match e {
            SumStop::TooLarge => MisereError::TooLarge {
                heap: k,
                max_bytes: self.max_bytes,
            },
            SumStop::Interrupted => MisereError::Interrupted {
                positions: forms.len() + forms.sums_len(),
            },
        };
        // A heap whose options alone are too many to list (codes such as `{2+}.0`) is refused
        // before they are listed.
        if let OptionSource::Code(code) = self.source {
            if code.option_bound(k, (self.max_bytes / 64) as u128).is_err() {
                return Err(MisereError::TooLarge {
                    heap: k,
                    max_bytes: self.max_bytes,
                });
            }
        }
        let mut opts = Vec::new();
        let mut failed = None;
        let mut seen = 0usize;
        let mut each = |parts: &[usize]| {
            seen += 1;
            if seen.is_multiple_of(4096) {
                if crate::interrupt::requested() {
                    failed = Some(SumStop::Interrupted);
                    return false;
                }
                if let Some(p) = self.progress.as_mut() {
                    p(k, self.forms.len(), self.forms.sums_len());
                }
            }
            let mut s: GameId = 0;
            for &p in parts {
                match self.forms.sum(s, self.heaps[p], self.max_bytes) {
                    Ok(t) => s = t,
                    Err(e) => {
                        failed = Some(e);
                        return false;
                    }
                }
            }
            opts.push(s);
            true
        };
        match self.source {
            OptionSource::Code(code) => {
                code.for_each_option(k, &mut each);
            }
            OptionSource::Table(table) => {
                // A heap past the table has no options.
                for parts in table.get(k).map_or(&[][..], |o| &o[..]) {
                    if !each(parts) {
                        break;
                    }
                }
            }
        }
        if let Some(e) = failed {
            return Err(stop(e, &self.forms));
        }
        if let Some(p) = self.progress.as_mut() {
            p(k, self.forms.len(), self.forms.sums_len());
        }
        Ok(self.forms.make(opts))
    }
}
