"""Dump the AT-SPI accessibility tree of the desktop as OSWorld-shaped XML (run as a child process).

The control server runs this file in a fresh process for every ``GET /accessibility`` and
``GET /terminal``: a fresh AT-SPI connection has no stale cache (a long-lived process that never
runs a GLib main loop misses the events that invalidate libatspi's cache), a hung application
cannot wedge the server, and the server enforces the time limit by killing the child.

    python3 atspi_tree.py tree [--max-depth 50] [--max-width 1024] [--max-nodes 10000]
                               [--max-text 10000] [--deadline 20] [--screen WxH] [--all]
                                                                       -> XML on stdout
    python3 atspi_tree.py terminal [--deadline 10]                     -> JSON {"output": str|null}

XML shape (as OSWorld's Ubuntu tree, so its parsers and XPaths work): the root ``desktop-frame``
declares the namespaces below; each accessible is an element named by its role (spaces become
``-``: ``push-button``, ``document-web``) with ``name``, one ``st:<state>="true"`` per state,
``attr:<key>`` per object attribute, ``cp:screencoord="(x, y)"`` and ``cp:size="(w, h)"`` for
visible and showing components, ``image``/``selection`` = ``"true"`` when the interface exists,
``val:value/min/max/step``, ``act:<action>_desc/_kb``; its Text interface's text is the element
text (before its children). Beyond the limits the walk stops and the root gets
``truncated="depth|nodes|time|size"`` (extra attribute, ignored by OSWorld's parsers).

What is not on the screen is left out, with everything under it (``--all`` keeps it): an accessible below
the application level whose states lack ``showing`` or ``visible`` (a hidden panel's buttons, a background
tab's page), and one whose extents lie wholly outside the screen (``--screen WxH``: an auto-hidden panel slid
below the bottom edge, a menu parked off-screen). That is the rule OSWorld's own tree filter applies before an
agent sees the tree (showing and visible, on-screen coordinates), applied here so the tree an agent is sent is
the screen it sees. A node whose states or extents cannot be read is kept. The root counts what was left out
in ``hidden="N"`` (an extra attribute, like ``truncated``).

Exit codes: 0 done, 3 pyatspi/AT-SPI unavailable (message on stderr), 1 other failure.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time

NS = {
    "st": "https://accessibility.ubuntu.example.org/ns/state",
    "attr": "https://accessibility.ubuntu.example.org/ns/attributes",
    "cp": "https://accessibility.ubuntu.example.org/ns/component",
    "doc": "https://accessibility.ubuntu.example.org/ns/document",
    "docattr": "https://accessibility.ubuntu.example.org/ns/document/attributes",
    "txt": "https://accessibility.ubuntu.example.org/ns/text",
    "val": "https://accessibility.ubuntu.example.org/ns/value",
    "act": "https://accessibility.ubuntu.example.org/ns/action",
}

TERMINAL_APPS = ("xfce4-terminal", "gnome-terminal-server")

# Characters XML 1.0 cannot carry, plus the object-replacement characters toolkits put in text.
_BAD_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff\ufffc\ufffd]")
_NAME_BAD = re.compile(r"[^A-Za-z0-9_.-]")


def clean(s: object) -> str:
    """``s`` as text XML can carry."""
    return _BAD_XML.sub("", s if isinstance(s, str) else str(s))


def xml_name(s: str, fallback: str) -> str:
    """``s`` as an XML element/attribute local name (role and attribute names are plain words)."""
    n = _NAME_BAD.sub("-", s.strip().replace(" ", "-")) or fallback
    return n if (n[0].isalpha() or n[0] == "_") else "tag" + n


def esc_text(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def esc_attr(s: str) -> str:
    return esc_text(s).replace('"', "&quot;").replace("\n", "&#10;").replace("\r", "&#13;").replace("\t", "&#9;")


class Limits:
    """The walk's bounds; ``hit`` names the first one reached (or None). ``screen`` (width, height) and ``prune``
    say what :func:`hidden` leaves out; ``hidden`` counts the subtrees it left out."""

    def __init__(
        self,
        max_depth: int,
        max_width: int,
        max_nodes: int,
        max_text: int,
        deadline_s: float,
        max_chars: int = 32_000_000,
    ):
        self.max_depth, self.max_width, self.max_nodes, self.max_text = max_depth, max_width, max_nodes, max_text
        self.max_chars = max_chars
        self.screen: tuple[int, int] | None = None
        self.prune = False
        self.hidden = 0
        self.end = time.monotonic() + deadline_s
        self.nodes = 0
        self.chars = 0
        self.hit: str | None = None

    def stop(self) -> bool:
        if self.hit in ("nodes", "time", "size"):
            return True
        if self.nodes >= self.max_nodes:
            self.hit = "nodes"
        elif self.chars >= self.max_chars:
            self.hit = "size"
        elif time.monotonic() > self.end:
            self.hit = "time"
        return self.hit in ("nodes", "time", "size")


def _state_names(pyatspi, node) -> list[str]:
    names = []
    lookup = getattr(pyatspi.StateType, "_enum_lookup", {})
    for st in node.getState().get_states():
        n = lookup.get(int(st)) or str(st)
        n = n.split("_", 1)[1].lower() if "_" in n else n.lower()
        if n:
            names.append(n)
    return names


def hidden(role: str, attrs: dict[str, str], screen: tuple[int, int] | None) -> bool:
    """Whether an accessible (its ``role`` and :func:`node_attributes`) is off the screen: not ``showing`` or not
    ``visible`` (below the application level), or its extents wholly outside ``screen`` (width, height).
    States that could not be read (``states_unknown``) or extents that cannot be read keep it."""
    if role in ("application", "desktop-frame") or attrs.get("states_unknown"):
        return False
    if "st:showing" not in attrs or "st:visible" not in attrs:
        return True
    if screen is None or "cp:screencoord" not in attrs:
        return False
    try:
        x, y = (int(v) for v in attrs["cp:screencoord"].strip("()").split(","))
        w, h = (int(v) for v in attrs["cp:size"].strip("()").split(","))
    except (KeyError, ValueError):
        return False
    if w <= 0 or h <= 0:
        return False
    return x >= screen[0] or y >= screen[1] or x + w <= 0 or y + h <= 0


def node_attributes(pyatspi, node, max_text: int) -> tuple[dict[str, str], str]:
    """(attributes as ``prefix:name`` → value, text) of one accessible; missing interfaces are skipped.
    ``states_unknown`` is set (and must not be written) when the states could not be read."""
    a: dict[str, str] = {"name": clean(node.name or "")}
    try:
        states = _state_names(pyatspi, node)
    except Exception:
        states = []
        a["states_unknown"] = "true"
    for s in states:
        a["st:" + xml_name(s, "state")] = "true"
    try:
        for k, v in (node.get_attributes() or {}).items():
            if k:
                a["attr:" + xml_name(k, "attr")] = clean(v)
    except Exception:
        pass
    if "st:visible" in a and "st:showing" in a:
        try:
            bbox = node.queryComponent().getExtents(pyatspi.XY_SCREEN)
            a["cp:screencoord"] = str((int(bbox[0]), int(bbox[1])))
            a["cp:size"] = str((int(bbox[2]), int(bbox[3])))
        except NotImplementedError:
            pass
        except Exception:
            pass
    text = ""
    try:
        t = node.queryText()
        n = t.characterCount
        text = clean(t.getText(0, min(n, max_text) if n >= 0 else max_text))
    except NotImplementedError:
        pass
    except Exception:
        pass
    for iface, key in (("queryImage", "image"), ("querySelection", "selection")):
        try:
            getattr(node, iface)()
            a[key] = "true"
        except NotImplementedError:
            pass
        except Exception:
            pass
    try:
        v = node.queryValue()
        for k, get in (
            ("value", lambda: v.currentValue),
            ("min", lambda: v.minimumValue),
            ("max", lambda: v.maximumValue),
            ("step", lambda: v.minimumIncrement),
        ):
            try:
                a["val:" + k] = str(get())
            except Exception:
                pass
    except NotImplementedError:
        pass
    except Exception:
        pass
    try:
        act = node.queryAction()
        for i in range(act.nActions):
            an = xml_name(act.getName(i).replace(" ", "-"), "action")
            a[f"act:{an}_desc"] = clean(act.getDescription(i) or "")
            a[f"act:{an}_kb"] = clean(act.getKeyBinding(i) or "")
    except NotImplementedError:
        pass
    except Exception:
        pass
    return a, text


def write_node(pyatspi, node, depth: int, lim: Limits, out: list[str]) -> None:
    """Append the XML of ``node`` and its subtree (within ``lim``) to ``out``."""
    if lim.stop():
        return
    lim.nodes += 1
    try:
        role = xml_name(node.getRoleName() or "unknown", "unknown")
    except Exception:
        return  # the object went away while we walked
    attrs, text = node_attributes(pyatspi, node, lim.max_text)
    if lim.prune and hidden(role, attrs, lim.screen):
        lim.hidden += 1
        return
    attrs.pop("states_unknown", None)
    piece = "<" + role + "".join(f' {k}="{esc_attr(v)}"' for k, v in attrs.items())
    try:
        count = node.childCount if depth < lim.max_depth else 0
    except Exception:
        count = 0
    if depth >= lim.max_depth and lim.hit is None:
        try:
            if node.childCount:
                lim.hit = "depth"
        except Exception:
            pass
    if not text and count <= 0:
        out.append(piece + "/>")
        lim.chars += len(piece) + 2
        return
    out.append(piece + ">" + esc_text(text))
    lim.chars += len(piece) + len(text)
    for ch in children(node, count, lim):
        write_node(pyatspi, ch, depth + 1, lim, out)
    out.append(f"</{role}>")


def children(node, count: int, lim: Limits):
    """``node``'s first ``count`` children (at most ``lim.max_width``), skipping ones that fail; stops at a limit."""
    for i in range(min(count, lim.max_width)):
        if lim.stop():
            return
        try:
            ch = node.getChildAtIndex(i)
        except Exception:
            continue
        if ch is not None:
            yield ch


def load_pyatspi(call_timeout_ms: int = 3000):
    """pyatspi with a short per-call D-Bus timeout (a hung app then costs seconds, not minutes)."""
    import pyatspi  # lazy: the server must start without it

    try:
        from gi.repository import Atspi

        Atspi.set_timeout(call_timeout_ms, 15000)
    except Exception:
        pass
    return pyatspi


def dump_tree(lim: Limits) -> str:
    """The desktop's tree as one XML document (str)."""
    pyatspi = load_pyatspi()
    desktop = pyatspi.Registry.getDesktop(0)
    out: list[str] = []
    try:
        n = desktop.childCount
    except Exception:
        n = 0
    for app in children(desktop, n, lim):
        write_node(pyatspi, app, 1, lim, out)
    ns = " ".join(f'xmlns:{p}="{u}"' for p, u in NS.items())
    trunc = f' truncated="{lim.hit}"' if lim.hit else ""
    trunc += f' hidden="{lim.hidden}"' if lim.prune else ""
    return f"<desktop-frame {ns}{trunc}>" + "".join(out) + "</desktop-frame>"


def terminal_text(deadline_s: float) -> str | None:
    """Text of the focused terminal widget of the active terminal window, or None."""
    pyatspi = load_pyatspi()
    end = time.monotonic() + deadline_s
    desktop = pyatspi.Registry.getDesktop(0)

    def find(node, depth):
        if depth > 30 or time.monotonic() > end:
            return None
        try:
            if node.getRoleName() == "terminal" and node.getState().contains(pyatspi.STATE_FOCUSED):
                t = node.queryText()
                return clean(t.getText(0, t.characterCount)).rstrip()
            for i in range(node.childCount):
                r = find(node.getChildAtIndex(i), depth + 1)
                if r is not None:
                    return r
        except Exception:
            return None
        return None

    for app in desktop:
        try:
            if app is None or app.getRoleName() != "application" or app.name not in TERMINAL_APPS:
                continue
            for frame in app:
                if frame.getRoleName() == "frame" and frame.getState().contains(pyatspi.STATE_ACTIVE):
                    r = find(frame, 0)
                    if r is not None:
                        return r
        except Exception:
            continue
    return None


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("mode", choices=["tree", "terminal"])
    p.add_argument("--max-depth", type=int, default=50)
    p.add_argument("--max-width", type=int, default=1024)
    p.add_argument("--max-nodes", type=int, default=10000)
    p.add_argument("--max-text", type=int, default=10000)
    p.add_argument("--deadline", type=float, default=20.0, help="seconds; the walk stops after it")
    p.add_argument("--screen", help="WxH: leave out accessibles wholly outside this screen")
    p.add_argument("--all", action="store_true", help="keep what is not showing, not visible or off-screen")
    a = p.parse_args(argv)
    try:
        if a.mode == "tree":
            lim = Limits(a.max_depth, a.max_width, a.max_nodes, a.max_text, a.deadline)
            lim.prune = not a.all
            if a.screen:
                w, _, h = a.screen.partition("x")
                lim.screen = (int(w), int(h))
            xml = dump_tree(lim)
            sys.stdout.write(xml)
        else:
            sys.stdout.write(json.dumps({"output": terminal_text(a.deadline)}))
        sys.stdout.flush()
        return 0
    except ImportError as e:
        print(f"pyatspi is not available ({e}): install python3-pyatspi and gir1.2-atspi-2.0", file=sys.stderr)
        return 3
    except Exception as e:  # an AT-SPI bus that is not there shows up as a GLib error
        msg = str(e).splitlines()[0] if str(e) else type(e).__name__
        print(f"AT-SPI failed: {type(e).__name__}: {msg}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
