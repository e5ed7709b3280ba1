"""Drives the `lg` Jupyter kernel with Jupyter's own client (jupyter_client), then executes the
shipped notebook with nbclient and renders it to HTML with nbconvert. Run by tests/kernel.rs with
JUPYTER_PATH pointing at a kernelspec installed by `lg kernel install --prefix`.

usage: drive_kernel.py NOTEBOOK OUT_DIR
Prints one line per check; exits 1 at the first failure."""

import base64
import os
import sys
import time

import jupyter_client
import nbformat
from nbclient import NotebookClient
from nbconvert import HTMLExporter

TIMEOUT = 60


def check(cond, what, detail=""):
    if not cond:
        print(f"FAILED: {what}\n{detail}", flush=True)
        sys.exit(1)
    print(f"ok: {what}", flush=True)


def run(kc, code, timeout=TIMEOUT):
    """Executes `code`; returns the reply's content and the IOPub messages it caused."""
    outputs = []
    reply = kc.execute_interactive(
        code,
        output_hook=lambda m: outputs.append((m["msg_type"], m["content"])),
        timeout=timeout,
    )
    return reply["content"], outputs


def results(outputs):
    return [c for t, c in outputs if t in ("execute_result", "display_data")]


def main():
    notebook, out_dir = sys.argv[1], sys.argv[2]
    km = jupyter_client.KernelManager(kernel_name="lg")
    km.start_kernel()
    try:
        drive(km, notebook, out_dir)
    finally:
        # A failed check must not leave the kernel running (it holds the test's output pipes).
        if km.is_alive():
            km.shutdown_kernel(now=True)


def drive(km, notebook, out_dir):
    kc = km.client()
    kc.start_channels()
    kc.wait_for_ready(timeout=TIMEOUT)

    # kernel_info: the language and its file extension.
    kc.kernel_info()
    info = kc.get_shell_msg(timeout=TIMEOUT)["content"]
    lang = info["language_info"]
    check(
        lang["name"] == "lg" and lang["file_extension"] == ".lg" and lang["mimetype"] and lang["version"],
        "kernel_info names the language, its version, mimetype and .lg",
        info,
    )

    # execute: one persistent interpreter, execution counts, printed text as a stream.
    reply, out = run(kc, "let Γ = ruleset([1 0 -1; 0 1 1])\nprint(\"moves:\", len(list(Γ)))")
    check(reply["status"] == "ok", "a binding and a print run", reply)
    first = reply["execution_count"]
    streams = "".join(c["text"] for t, c in out if t == "stream" and c["name"] == "stdout")
    check(streams == "moves: 3\n", "print goes to the stdout stream", out)
    reply, out = run(kc, "Γ")
    check(reply["execution_count"] == first + 1, "execution counts go up", reply)
    data = results(out)[-1]["data"]
    check(
        "\\begin{pmatrix} 1 & 0 & -1 \\\\ 0 & 1 & 1 \\end{pmatrix}" in data.get("text/latex", ""),
        "a rule set's bundle has text/latex (its matrix)",
        data,
    )
    check("text/plain" in data, "and text/plain", data)

    # A plot: a picture whose bundle has inline SVG.
    reply, out = run(kc, "let G = game(Γ, misere(Γ))\nplot(solve(G, 8))")
    data = results(out)[-1]["data"]
    check(data.get("image/svg+xml", "").startswith("<svg"), "a plot's bundle has image/svg+xml", data.keys())
    check("●" in data.get("text/plain", ""), "and its text form", data)
    # A picture a loop drops is still drawn.
    reply, out = run(kc, "for w in [2, 3] { plot(solve(G, w)) }")
    check(
        len([r for r in results(out) if "image/svg+xml" in r["data"]]) == 2,
        "pictures drawn in a loop are displayed",
        out,
    )

    # An error: an error reply and an error message carrying the diagnostic with its help.
    reply, out = run(kc, "stratify(G, max_weight: \"ten\")")
    check(reply["status"] == "error", "a bad argument gives an error reply", reply)
    errors = [c for t, c in out if t == "error"]
    check(len(errors) == 1, "and one error message on IOPub", out)
    tb = "\n".join(errors[0]["traceback"])
    check(
        errors[0]["ename"].startswith("lg::") and "max_weight" in tb and "<cell:" in tb,
        "the error names its code and shows the diagnostic at its span",
        errors[0],
    )
    reply, out = run(kc, "solv(G, 4)")
    errors = [c for t, c in out if t == "error"]
    tb = "\n".join(errors[0]["traceback"]) if errors else ""
    check("help" in tb and "`solve`" in tb, "the diagnostic keeps its help", tb)
    reply, out = run(kc, "Γ")
    check(reply["status"] == "ok", "the session goes on after an error", reply)
    check(kc.hb_channel.is_beating(), "the heartbeat answers")

    # complete, inspect, is_complete.
    msg_id = kc.complete("let S = sol", 11)
    reply = kc.get_shell_msg(timeout=TIMEOUT)["content"]
    check("solve" in reply["matches"] and reply["cursor_start"] == 8, "completion of `sol` offers solve", reply)
    msg_id = kc.complete("stratify(G, max_w", 17)
    reply = kc.get_shell_msg(timeout=TIMEOUT)["content"]
    check("max_weight:" in reply["matches"], "completion of a named argument", reply)
    kc.inspect("stratify", 3)
    reply = kc.get_shell_msg(timeout=TIMEOUT)["content"]
    check(reply["found"] and "stratify(" in reply["data"]["text/plain"], "inspect of stratify gives its help", reply)
    kc.inspect("stratify(G, ", 12)
    reply = kc.get_shell_msg(timeout=TIMEOUT)["content"]
    check(reply["found"] and "stratify(" in reply["data"]["text/plain"], "inspect inside a call's brackets", reply)
    kc.is_complete("ruleset([1 0")
    reply = kc.get_shell_msg(timeout=TIMEOUT)["content"]
    check(reply["status"] == "incomplete", "is_complete on an open bracket", reply)
    kc.is_complete("ruleset([1 0])")
    reply = kc.get_shell_msg(timeout=TIMEOUT)["content"]
    check(reply["status"] == "complete", "is_complete on a whole entry", reply)

    # Interrupt a long computation: it stops promptly, with a progress line shown meanwhile, and
    # the next cell works in the same session.
    # [GM09] Example 8.12's game solved to weight 500 takes about ten seconds.
    reply, out = run(kc, "let E = ruleset([1 0 0 0 -1 0 0 0; 0 1 0 0 1 -1 0 0; 0 0 0 0 0 1 -1 0; "
                         "0 0 1 0 0 0 1 -1; 0 0 0 1 0 0 0 1])\nlet H = game(E, misere(E))")
    check(reply["status"] == "ok", "[GM09] Example 8.12's game", reply)
    msg_id = kc.execute("positions(solve(H, 500))")
    time.sleep(2.5)
    start = time.time()
    km.interrupt_kernel()
    reply = kc.get_shell_msg(timeout=TIMEOUT)
    stopped = time.time() - start
    check(reply["content"]["status"] == "error", "an interrupted cell ends with an error reply", reply["content"])
    check(stopped < 2.0, f"and stops promptly ({stopped:.2f} s after the interrupt)")
    progress = []
    while True:
        m = kc.get_iopub_msg(timeout=TIMEOUT)
        if m["parent_header"].get("msg_id") != msg_id:
            continue
        if m["msg_type"] in ("display_data", "update_display_data"):
            progress.append(m)
        if m["msg_type"] == "status" and m["content"]["execution_state"] == "idle":
            break
    # One display per phase (laying out the region, then solving), each shown once and then
    # only updated in place: never a scroll of lines.
    by_id = {}
    for m in progress:
        by_id.setdefault(m["content"].get("transient", {}).get("display_id"), []).append(m["msg_type"])
    check(
        progress and None not in by_id and len(by_id) <= 2
        and all(kinds[0] == "display_data" and set(kinds[1:]) <= {"update_display_data"} and len(kinds) >= 2
                for kinds in by_id.values()),
        f"progress is one display per phase, updated in place ({len(progress)} messages)",
        [(m["msg_type"], m["content"]) for m in progress[:4]],
    )
    reply, out = run(kc, "len(list(Γ)) + 1")
    check(results(out)[-1]["data"]["text/plain"] == "4", "the session goes on after an interrupt", out)

    # Restart: a fresh interpreter.
    km.restart_kernel(now=False)
    kc.wait_for_ready(timeout=TIMEOUT)
    reply, out = run(kc, "Γ")
    check(reply["status"] == "error", "after a restart the old bindings are gone", reply)
    reply, out = run(kc, "1 + 1")
    check(results(out)[-1]["data"]["text/plain"] == "2", "and the new kernel computes", out)
    kc.stop_channels()
    km.shutdown_kernel(now=False)
    check(not km.is_alive(), "shutdown ends the kernel")

    # The shipped notebook, executed and rendered.
    nb = nbformat.read(notebook, as_version=4)
    NotebookClient(nb, kernel_name="lg", timeout=TIMEOUT, resources={"metadata": {"path": out_dir}}).execute()
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
    check(not errors, "the notebook runs without errors", errors)
    mimes = {k for c in nb.cells if c.cell_type == "code" for o in c.outputs for k in o.get("data", {})}
    check({"image/svg+xml", "text/latex", "text/plain"} <= mimes, "its outputs carry SVG and LaTeX", mimes)
    # The text of every output, for the snapshot in tests/kernel.rs (read by a person).
    with open(os.path.join(out_dir, "tour_outputs.txt"), "w") as f:
        for i, c in enumerate(nb.cells):
            if c.cell_type != "code":
                continue
            f.write(f"In [{c.execution_count}]:\n{c.source}\n")
            for o in c.outputs:
                if o.output_type == "stream":
                    f.write(f"[{o.name}]\n{o.text}")
                else:
                    kinds = ", ".join(sorted(o.get("data", {})))
                    f.write(f"[{o.output_type}: {kinds}]\n{o.get('data', {}).get('text/plain', '')}\n")
                    if "text/latex" in o.get("data", {}):
                        f.write(f"[latex]\n{o.data['text/latex']}\n")
            f.write("\n")
    html, _ = HTMLExporter().from_notebook_node(nb)
    with open(os.path.join(out_dir, "tour.html"), "w") as f:
        f.write(html)
    # nbconvert embeds SVG either as markup or as a data: URI of an <img>; both are inline (no
    # file beside the page). Decode it and check it is the plot.
    title = "misère Nim with heaps of size ≤ 2"
    inline = [html] if "<svg" in html else []
    for chunk in html.split('src="data:image/svg+xml;base64,')[1:]:
        inline.append(base64.b64decode(chunk.split('"', 1)[0]).decode("utf-8"))
    check(
        any("<svg" in s and title in s for s in inline),
        "the plot's SVG is inline in the HTML",
    )
    check("\\mathcal{Q}" in html, "the quotient's LaTeX is in the HTML")
    print("all kernel checks passed")


if __name__ == "__main__":
    main()
