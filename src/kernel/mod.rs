//! The Jupyter kernel (`lg kernel -f CONNECTION_FILE`): a thin front end over the session layer,
//! speaking Jupyter's messaging protocol (version 5.3) through the `jupyter-protocol` and
//! `jupyter-zmq-client` crates.
//!
//! One interpreter lives on the main thread for the kernel's whole life and runs the requests of
//! the shell channel in order. The sockets live on a second thread (a tokio runtime): it answers
//! the heartbeat, the control channel (kernel_info, interrupt, shutdown) even while a cell runs,
//! and sends what the interpreter produces, in order. An interrupt (SIGINT, the kernelspec's
//! signal mode, or an interrupt_request) raises the same flag as Ctrl-C in the REPL: the running
//! cell stops with an error and the session goes on.

pub mod spec;

use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Arc, Mutex};

use jupyter_protocol::{
    CodeMirrorMode, CommInfoReply, CompleteReply, ConnectionInfo, DisplayData, ErrorOutput,
    ExecuteInput, ExecuteReply, ExecuteResult, ExecutionCount, HistoryReply, InspectReply,
    InterruptReply, IsCompleteReply, IsCompleteReplyStatus, JupyterMessage, JupyterMessageContent,
    KernelInfoReply, LanguageInfo, Media, MediaType, ReplyError, ReplyStatus, ShutdownReply,
    Status, StreamContent, Transient, UpdateDisplayData,
};
use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver, UnboundedSender};

use crate::eval::{Style, Value};
use crate::session::display::display;
use crate::session::{Completeness, Output, Session};

/// A message for the socket thread to send.
enum Outgoing {
    Shell(JupyterMessage),
    IoPub(JupyterMessage),
}

/// The request being answered, whose header every output names as its parent, and the way to
/// the socket thread. Shared by the interpreter's writer, its picture hook and the progress line.
#[derive(Clone)]
struct Publisher {
    parent: Arc<Mutex<Option<JupyterMessage>>>,
    out: UnboundedSender<Outgoing>,
}

impl Publisher {
    /// Sends `content` on IOPub as a child of the current request (dropped when there is none).
    fn publish(&self, content: impl Into<JupyterMessageContent>) {
        let parent = self.parent.lock().ok().and_then(|p| p.clone());
        if let Some(parent) = parent {
            let message = JupyterMessage::new(content, Some(&parent));
            let _ = self.out.send(Outgoing::IoPub(message));
        }
    }

    fn reply(&self, parent: &JupyterMessage, content: impl Into<JupyterMessageContent>) {
        let _ = self
            .out
            .send(Outgoing::Shell(JupyterMessage::new(content, Some(parent))));
    }
}

/// The interpreter's printed output, sent as `stream` messages on stdout, a line at a time.
struct StreamWriter {
    publisher: Publisher,
    pending: Vec<u8>,
}

impl StreamWriter {
    fn send(&mut self, upto: usize) {
        let bytes: Vec<u8> = self.pending.drain(..upto).collect();
        if !bytes.is_empty() {
            self.publisher
                .publish(StreamContent::stdout(&String::from_utf8_lossy(&bytes)));
        }
    }
}

impl Write for StreamWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.pending.extend_from_slice(buf);
        if let Some(last) = self.pending.iter().rposition(|&b| b == b'\n') {
            self.send(last + 1);
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        let all = self.pending.len();
        self.send(all);
        Ok(())
    }
}

/// The MIME bundle of a value's displays.
fn media(v: &Value) -> Media {
    let forms = display(v)
        .bundle()
        .into_iter()
        .filter_map(|(mime, content)| match mime {
            "text/plain" => Some(MediaType::Plain(content.to_string())),
            "text/latex" => Some(MediaType::Latex(content.to_string())),
            "image/svg+xml" => Some(MediaType::Svg(content.to_string())),
            _ => None,
        })
        .collect();
    Media::new(forms)
}

/// A char index of `text` (Jupyter counts cursor positions in Unicode code points) as a byte
/// offset, and back.
fn byte_offset(text: &str, chars: usize) -> usize {
    text.char_indices()
        .nth(chars)
        .map_or(text.len(), |(i, _)| i)
}

fn char_index(text: &str, byte: usize) -> usize {
    text[..byte.min(text.len())].chars().count()
}

/// What the kernel says about itself (kernel_info_reply).
fn kernel_info() -> KernelInfoReply {
    KernelInfoReply {
        status: ReplyStatus::Ok,
        protocol_version: "5.3".to_string(),
        implementation: "lg".to_string(),
        implementation_version: env!("CARGO_PKG_VERSION").to_string(),
        language_info: LanguageInfo {
            name: "lg".to_string(),
            version: env!("CARGO_PKG_VERSION").to_string(),
            mimetype: Some("text/x-lg".to_string()),
            file_extension: Some(".lg".to_string()),
            pygments_lexer: None,
            codemirror_mode: Some(CodeMirrorMode::Simple("text".to_string())),
            nbconvert_exporter: None,
        },
        banner: format!(
            "lattice-games {}: lattice games (Guo & Miller) in .lg; `:help` for help",
            env!("CARGO_PKG_VERSION")
        ),
        help_links: vec![],
        debugger: false,
        error: None,
    }
}

/// Runs the kernel on the connection file until a shutdown request.
pub fn run(connection_file: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(connection_file).map_err(|e| {
        format!(
            "cannot read the connection file {}: {e}",
            connection_file.display()
        )
    })?;
    let info: ConnectionInfo = serde_json::from_str(&text).map_err(|e| {
        format!(
            "{} is not a Jupyter connection file: {e}",
            connection_file.display()
        )
    })?;
    // Signal mode: Jupyter interrupts with SIGINT, which stops the running cell only.
    let _ = ctrlc::set_handler(crate::interrupt::request);

    let (out_tx, out_rx) = unbounded_channel::<Outgoing>();
    let (req_tx, req_rx) = mpsc::channel::<JupyterMessage>();
    let (ready_tx, ready_rx) = mpsc::channel::<Result<(), String>>();
    let sockets_info = info.clone();
    std::thread::Builder::new()
        .name("lg-kernel-sockets".to_string())
        .spawn(move || sockets(sockets_info, req_tx, out_rx, ready_tx))
        .map_err(|e| format!("cannot start the socket thread: {e}"))?;
    ready_rx
        .recv()
        .map_err(|_| "the socket thread ended before binding".to_string())??;

    let publisher = Publisher {
        parent: Arc::new(Mutex::new(None)),
        out: out_tx,
    };
    let writer = StreamWriter {
        publisher: publisher.clone(),
        pending: Vec::new(),
    };
    let mut session = Session::with_writer(Style::Color, Box::new(writer));
    let pictures = publisher.clone();
    session
        .interpreter()
        .set_display(Box::new(move |v: &Value| {
            pictures.publish(DisplayData::new(media(v)));
        }));
    install_progress(publisher.clone());

    let mut count = 0usize;
    while let Ok(request) = req_rx.recv() {
        if let Ok(mut p) = publisher.parent.lock() {
            *p = Some(request.clone());
        }
        publisher.publish(Status::busy());
        handle(&mut session, &publisher, &request, &mut count);
        publisher.publish(Status::idle());
        if let Ok(mut p) = publisher.parent.lock() {
            *p = None;
        }
    }
    Ok(())
}

/// Progress of long work as one display line that updates in place, removed at the end.
fn install_progress(publisher: Publisher) {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let current: Mutex<Option<String>> = Mutex::new(None);
    crate::eval::progress::set_sink(Arc::new(move |line: Option<&str>| {
        let Ok(mut id) = current.lock() else { return };
        match (line, id.as_ref()) {
            (Some(text), None) => {
                let new_id = format!(
                    "lg-progress-{}-{}",
                    std::process::id(),
                    NEXT.fetch_add(1, Ordering::Relaxed)
                );
                let mut data =
                    DisplayData::new(Media::new(vec![MediaType::Plain(text.to_string())]));
                data.transient = Some(Transient {
                    display_id: Some(new_id.clone()),
                });
                publisher.publish(data);
                *id = Some(new_id);
            }
            (Some(text), Some(display_id)) => publisher.publish(UpdateDisplayData::new(
                Media::new(vec![MediaType::Plain(text.to_string())]),
                display_id,
            )),
            (None, Some(display_id)) => {
                publisher.publish(UpdateDisplayData::new(
                    Media::new(vec![MediaType::Plain(String::new())]),
                    display_id,
                ));
                *id = None;
            }
            (None, None) => {}
        }
    }));
}

/// Answers one shell request.
fn handle(
    session: &mut Session,
    publisher: &Publisher,
    request: &JupyterMessage,
    count: &mut usize,
) {
    match &request.content {
        JupyterMessageContent::KernelInfoRequest(_) => publisher.reply(request, kernel_info()),
        JupyterMessageContent::ExecuteRequest(req) => {
            if !req.silent && req.store_history {
                *count += 1;
            }
            let execution_count = ExecutionCount::new(*count);
            if !req.silent {
                publisher.publish(ExecuteInput {
                    code: req.code.clone(),
                    execution_count,
                });
            }
            let outputs = session.execute(&req.code);
            let _ = session.interpreter().flush_output();
            let mut error = None;
            let values = outputs
                .iter()
                .filter(|o| matches!(o, Output::Value(_)))
                .count();
            let mut seen = 0;
            for output in outputs {
                match output {
                    Output::Text(text) if !req.silent => {
                        publisher.publish(StreamContent::stdout(&text))
                    }
                    Output::Value(v) if !req.silent => {
                        seen += 1;
                        if seen == values {
                            publisher.publish(ExecuteResult::new(execution_count, media(&v)));
                        } else {
                            publisher.publish(DisplayData::new(media(&v)));
                        }
                    }
                    Output::Error { error: e, rendered } => {
                        let e = ReplyError {
                            ename: e.code.to_string(),
                            evalue: e.message.clone(),
                            traceback: vec![rendered],
                        };
                        if !req.silent {
                            publisher.publish(ErrorOutput {
                                ename: e.ename.clone(),
                                evalue: e.evalue.clone(),
                                traceback: e.traceback.clone(),
                            });
                        }
                        error = Some(Box::new(e));
                    }
                    _ => {}
                }
            }
            publisher.reply(
                request,
                ExecuteReply {
                    status: if error.is_some() {
                        ReplyStatus::Error
                    } else {
                        ReplyStatus::Ok
                    },
                    execution_count,
                    payload: vec![],
                    user_expressions: None,
                    error,
                },
            );
        }
        JupyterMessageContent::CompleteRequest(req) => {
            let pos = byte_offset(&req.code, req.cursor_pos);
            let (start, matches) = session.complete(&req.code, pos);
            publisher.reply(
                request,
                CompleteReply {
                    matches,
                    cursor_start: char_index(&req.code, start),
                    cursor_end: req.cursor_pos,
                    metadata: Default::default(),
                    status: ReplyStatus::Ok,
                    error: None,
                },
            );
        }
        JupyterMessageContent::InspectRequest(req) => {
            let pos = byte_offset(&req.code, req.cursor_pos);
            let help = session.inspect(&req.code, pos);
            publisher.reply(
                request,
                InspectReply {
                    found: help.is_some(),
                    data: help
                        .map_or_else(Media::default, |h| Media::new(vec![MediaType::Plain(h)])),
                    metadata: Default::default(),
                    status: ReplyStatus::Ok,
                    error: None,
                },
            );
        }
        JupyterMessageContent::IsCompleteRequest(req) => {
            let status = match session.is_complete(&req.code) {
                Completeness::Complete => IsCompleteReplyStatus::Complete,
                Completeness::Incomplete => IsCompleteReplyStatus::Incomplete,
                Completeness::Invalid => IsCompleteReplyStatus::Invalid,
            };
            let indent = if status == IsCompleteReplyStatus::Incomplete {
                "    ".to_string()
            } else {
                String::new()
            };
            publisher.reply(request, IsCompleteReply { status, indent });
        }
        // Old clients ask on the shell channel; the socket thread ends the process after the reply.
        JupyterMessageContent::ShutdownRequest(_) => {
            let _ = publisher.out.send(Outgoing::Shell(shutdown_reply(request)));
        }
        JupyterMessageContent::HistoryRequest(_) => {
            publisher.reply(request, HistoryReply::new(vec![]))
        }
        JupyterMessageContent::CommInfoRequest(_) => publisher.reply(
            request,
            CommInfoReply {
                status: ReplyStatus::Ok,
                comms: Default::default(),
                error: None,
            },
        ),
        _ => {}
    }
}

/// The socket thread: binds the five sockets, then serves the heartbeat and the control channel,
/// forwards shell requests to the interpreter and sends what it produces.
fn sockets(
    info: ConnectionInfo,
    requests: mpsc::Sender<JupyterMessage>,
    outgoing: UnboundedReceiver<Outgoing>,
    ready: mpsc::Sender<Result<(), String>>,
) {
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            let _ = ready.send(Err(format!("cannot start the socket runtime: {e}")));
            return;
        }
    };
    runtime.block_on(serve(info, requests, outgoing, ready));
}

async fn serve(
    info: ConnectionInfo,
    requests: mpsc::Sender<JupyterMessage>,
    mut outgoing: UnboundedReceiver<Outgoing>,
    ready: mpsc::Sender<Result<(), String>>,
) {
    use jupyter_zmq_client::{
        create_kernel_control_connection, create_kernel_heartbeat_connection,
        create_kernel_iopub_connection, create_kernel_shell_connection,
        create_kernel_stdin_connection,
    };
    let session_id = format!("lg-kernel-{}", std::process::id());
    let bound = async {
        let heartbeat = create_kernel_heartbeat_connection(&info).await?;
        let shell = create_kernel_shell_connection(&info, &session_id).await?;
        let control = create_kernel_control_connection(&info, &session_id).await?;
        let stdin = create_kernel_stdin_connection(&info, &session_id).await?;
        let iopub = create_kernel_iopub_connection(&info, &session_id).await?;
        Ok::<_, jupyter_zmq_client::RuntimeError>((heartbeat, shell, control, stdin, iopub))
    }
    .await;
    let (mut heartbeat, shell, mut control, _stdin, mut iopub) = match bound {
        Ok(s) => {
            let _ = ready.send(Ok(()));
            s
        }
        Err(e) => {
            let _ = ready.send(Err(format!("cannot bind the kernel's sockets: {e}")));
            return;
        }
    };
    let (mut shell_out, mut shell_in) = shell.split();

    tokio::spawn(async move { while heartbeat.single_heartbeat().await.is_ok() {} });
    tokio::spawn(async move {
        while let Ok(message) = shell_in.read().await {
            if requests.send(message).is_err() {
                break;
            }
        }
    });

    let (stop_tx, mut stop_rx) = tokio::sync::mpsc::unbounded_channel::<JupyterMessage>();
    let control_task = async move {
        while let Ok(message) = control.read().await {
            match &message.content {
                JupyterMessageContent::KernelInfoRequest(_) => {
                    let _ = control
                        .send(JupyterMessage::new(kernel_info(), Some(&message)))
                        .await;
                }
                JupyterMessageContent::InterruptRequest(_) => {
                    crate::interrupt::request();
                    let _ = control
                        .send(JupyterMessage::new(InterruptReply::new(), Some(&message)))
                        .await;
                }
                JupyterMessageContent::ShutdownRequest(_) => {
                    let _ = control.send(shutdown_reply(&message)).await;
                    let _ = stop_tx.send(message);
                    return;
                }
                _ => {}
            }
        }
    };
    tokio::spawn(control_task);

    loop {
        tokio::select! {
            message = outgoing.recv() => match message {
                Some(Outgoing::Shell(m)) => {
                    if let JupyterMessageContent::ShutdownReply(_) = &m.content {
                        let _ = shell_out.send(m).await;
                        break;
                    }
                    let _ = shell_out.send(m).await;
                }
                Some(Outgoing::IoPub(mut m)) => {
                    m.zmq_identities = vec![format!("kernel.{session_id}.{}", m.header.msg_type).into_bytes().into()];
                    let _ = iopub.send(m).await;
                }
                None => break,
            },
            stop = stop_rx.recv() => {
                if let Some(request) = stop {
                    let mut status = JupyterMessage::new(Status::idle(), Some(&request));
                    status.zmq_identities = vec![];
                    let _ = iopub.send(status).await;
                }
                break;
            }
        }
    }
    // Give the last replies a moment to leave, then end the process (a running cell included).
    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    std::process::exit(0);
}

fn shutdown_reply(request: &JupyterMessage) -> JupyterMessage {
    let restart = match &request.content {
        JupyterMessageContent::ShutdownRequest(r) => r.restart,
        _ => false,
    };
    JupyterMessage::new(
        ShutdownReply {
            restart,
            status: ReplyStatus::Ok,
            error: None,
        },
        Some(request),
    )
}
