//! Lexical environments: a chain of frames, each mapping names to values. The prelude frame sits
//! below the user's global frame, so a user may shadow a prelude name; functions capture the frame
//! they were defined in, and look names up at call time (which lets them call themselves).

use std::cell::RefCell;
use std::rc::Rc;

use indexmap::IndexMap;

use super::Value;

/// One frame of bindings and its parent.
pub struct Frame {
    vars: RefCell<IndexMap<String, Value>>,
    parent: Option<Env>,
}

/// A shared handle on a frame.
pub type Env = Rc<Frame>;

/// A new frame below `parent` (or a root frame).
pub fn new_frame(parent: Option<Env>) -> Env {
    Rc::new(Frame {
        vars: RefCell::new(IndexMap::new()),
        parent,
    })
}

impl Frame {
    /// Looks `name` up in this frame and its ancestors.
    pub fn get(&self, name: &str) -> Option<Value> {
        if let Some(v) = self.vars.borrow().get(name) {
            return Some(v.clone());
        }
        self.parent.as_ref().and_then(|p| p.get(name))
    }

    /// Binds `name` in this frame (replacing an earlier binding of this frame).
    pub fn set(&self, name: &str, value: Value) {
        self.vars.borrow_mut().insert(name.to_string(), value);
    }

    /// Rebinds `name` in the nearest frame that binds it; `false` if no frame does.
    pub fn assign(&self, name: &str, value: Value) -> bool {
        if let Some(slot) = self.vars.borrow_mut().get_mut(name) {
            *slot = value;
            return true;
        }
        match &self.parent {
            Some(p) => p.assign(name, value),
            None => false,
        }
    }

    /// Every name visible from this frame, innermost first, without repetition.
    pub fn names(&self) -> Vec<String> {
        let mut out: Vec<String> = self.vars.borrow().keys().cloned().collect();
        if let Some(p) = &self.parent {
            for n in p.names() {
                if !out.contains(&n) {
                    out.push(n);
                }
            }
        }
        out
    }

    /// Drops every binding of this frame. Functions capture the frame they were defined in, so a
    /// frame that binds a function is part of a reference cycle; clearing it when the session
    /// ends breaks the cycle (else each interpreter would leak its prelude).
    pub fn clear(&self) {
        let bindings = std::mem::take(&mut *self.vars.borrow_mut());
        drop(bindings);
    }

    /// The names bound in this frame only.
    pub fn own_names(&self) -> Vec<String> {
        self.vars.borrow().keys().cloned().collect()
    }
}
