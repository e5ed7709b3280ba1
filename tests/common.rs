//! Helpers shared by the integration tests: run a script in-process and capture what it prints
//! and the diagnostic it ends with (rendered without colour at 80 columns).

use std::cell::RefCell;
use std::io::Write;
use std::rc::Rc;

use lattice_games::eval::{Interpreter, Style};

#[derive(Clone, Default)]
pub struct Captured(Rc<RefCell<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Captured {
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.borrow()).into_owned()
    }
}

/// Runs `text` as a script named `name`; returns what it printed and the rendered error, if any.
pub fn run_script(name: &str, text: &str) -> (String, Option<String>) {
    let out = Captured::default();
    let mut interp = Interpreter::with_output(Box::new(out.clone()));
    let result = interp.run_script(name, text);
    let err = result.err().map(|e| interp.render(&e, Style::Plain));
    (out.text(), err)
}
