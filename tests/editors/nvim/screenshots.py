#!/usr/bin/env python3
"""Screenshots of the Neovim plugin's main flows, taken from a real Neovim in a terminal.

Runs Neovim (not headless) in a pseudo-terminal, reads what it draws into a terminal emulator
(pyte), sends keys as a user would, waits until the screen shows what each step is about, and
renders the screen to a PNG (Pillow, DejaVu Sans Mono). A step whose text never appears fails the
run: the pictures are checked, not just taken.

    screenshots.py NVIM JREACH PLUGIN WORKSPACE OUT_DIR

WORKSPACE is a Maven project with src/main/java/demo/Calc.java (tests/editors/nvim/run.sh
writes it). Needs the Python packages pyte and pillow and fonts-dejavu-core.
"""
import fcntl
import functools
import os
import pty
import re
import select
import shutil
import signal
import struct
import subprocess
import sys
import termios
import threading
import time

import pyte
from PIL import Image, ImageDraw, ImageFont

COLS, ROWS = 110, 30
FONT_DIR = "/usr/share/fonts/truetype/dejavu"
FONT_SIZE = 15

# xterm's 16 colours, as pyte names them.
NAMED = {
    "black": (0x1d, 0x1f, 0x21), "red": (0xcc, 0x66, 0x66), "green": (0xb5, 0xbd, 0x68),
    "brown": (0xf0, 0xc6, 0x74), "blue": (0x81, 0xa2, 0xbe), "magenta": (0xb2, 0x94, 0xbb),
    "cyan": (0x8a, 0xbe, 0xb7), "white": (0xc5, 0xc8, 0xc6),
    "brightblack": (0x66, 0x66, 0x66), "brightred": (0xd5, 0x4e, 0x53),
    "brightgreen": (0xb9, 0xca, 0x4a), "brightbrown": (0xe7, 0xc5, 0x47),
    "brightblue": (0x7a, 0xa6, 0xda), "brightmagenta": (0xc3, 0x97, 0xd8),
    "brightcyan": (0x70, 0xc0, 0xb1), "brightwhite": (0xea, 0xea, 0xea),
}
DEFAULT_FG = (0xe0, 0xe2, 0xea)
DEFAULT_BG = (0x14, 0x16, 0x1b)


class Failure(Exception):
    pass


class Terminal:
    """Neovim in a pseudo-terminal, its output read into a pyte screen by a thread."""

    def __init__(self, argv, env, cwd):
        self.screen = pyte.Screen(COLS, ROWS)
        self.stream = pyte.ByteStream(self.screen)
        self.lock = threading.Lock()
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLS, 0, 0))
        self.proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=env, cwd=cwd,
                                     start_new_session=True, close_fds=True)
        os.close(slave)
        self.master = master
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        while True:
            try:
                ready, _, _ = select.select([self.master], [], [], 0.2)
                if not ready:
                    if self.proc.poll() is not None:
                        return
                    continue
                data = os.read(self.master, 65536)
            except OSError:
                return
            if not data:
                return
            with self.lock:
                self.stream.feed(data)

    def send(self, keys):
        os.write(self.master, keys.encode())

    def text(self):
        with self.lock:
            return "\n".join(self.screen.display)

    def wait_for(self, pattern, timeout, what):
        """Waits until the screen matches `pattern` (a regex), then a little longer for the
        redraw to settle; fails with the screen's text otherwise."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            if re.search(pattern, self.text()):
                time.sleep(0.6)
                return
            if self.proc.poll() is not None:
                raise Failure(f"Neovim exited ({self.proc.returncode}) waiting for {what}")
            time.sleep(0.1)
        raise Failure(f"the screen never showed {what} ({pattern!r}) within {timeout} s:\n{self.text()}")

    def no_prompt(self, after):
        """Fails when Neovim asks to press ENTER (a message of two lines, or two messages in a
        row without a redraw between them)."""
        if "Press ENTER" in self.text():
            raise Failure(f"Neovim asks to press ENTER after {after}:\n{self.text()}")

    def close(self):
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
        os.close(self.master)


def colour(name, default):
    if name == "default":
        return default
    if name in NAMED:
        return NAMED[name]
    if re.fullmatch(r"[0-9a-fA-F]{6}", name):
        return tuple(int(name[i:i + 2], 16) for i in (0, 2, 4))
    return default


# Colour emoji, which no font here draws, as the text symbols they stand for (:checkhealth).
EMOJI = {"✅": "✓", "❌": "✗", "⚠️": "⚠"}


@functools.lru_cache(maxsize=None)
def has_glyph(font, ch):
    """Whether `font` draws `ch`: Pillow has no glyph lookup, and a character the font lacks is
    drawn as its empty box (.notdef), the same picture as a code point no font has."""
    def picture(text):
        img = Image.new("L", (FONT_SIZE * 2, FONT_SIZE * 2))
        ImageDraw.Draw(img).text((0, 0), text, font=font, fill=255)
        return img.tobytes()
    return picture(ch) != picture("\U0010fffd")


class Renderer:
    def __init__(self):
        self.fonts = {
            (False, False): ImageFont.truetype(f"{FONT_DIR}/DejaVuSansMono.ttf", FONT_SIZE),
            (True, False): ImageFont.truetype(f"{FONT_DIR}/DejaVuSansMono-Bold.ttf", FONT_SIZE),
            (False, True): ImageFont.truetype(f"{FONT_DIR}/DejaVuSansMono-Oblique.ttf", FONT_SIZE),
            (True, True): ImageFont.truetype(f"{FONT_DIR}/DejaVuSansMono-BoldOblique.ttf", FONT_SIZE),
        }
        # For symbols the monospaced face lacks (box drawing is there; ✓ and ⚠ are not).
        self.fallback = ImageFont.truetype(f"{FONT_DIR}/DejaVuSans.ttf", FONT_SIZE)
        self.cw = int(round(self.fonts[(False, False)].getlength("M")))
        self.ch = int(FONT_SIZE * 1.35)

    def render(self, term, path):
        with term.lock:
            buffer = term.screen.buffer
            cursor = (term.screen.cursor.x, term.screen.cursor.y, not term.screen.cursor.hidden)
            cells = [[buffer[y][x] for x in range(COLS)] for y in range(ROWS)]
        pad = 8
        img = Image.new("RGB", (COLS * self.cw + 2 * pad, ROWS * self.ch + 2 * pad), DEFAULT_BG)
        draw = ImageDraw.Draw(img)
        for y, row in enumerate(cells):
            for x, c in enumerate(row):
                fg, bg = colour(c.fg, DEFAULT_FG), colour(c.bg, DEFAULT_BG)
                if c.reverse:
                    fg, bg = bg, fg
                if cursor[2] and (x, y) == cursor[:2]:
                    fg, bg = DEFAULT_BG, DEFAULT_FG
                x0, y0 = pad + x * self.cw, pad + y * self.ch
                if bg != DEFAULT_BG:
                    draw.rectangle([x0, y0, x0 + self.cw - 1, y0 + self.ch - 1], fill=bg)
                if c.data.strip():
                    ch = EMOJI.get(c.data, c.data)
                    font = self.fonts[(bool(c.bold), bool(c.italics))]
                    if not has_glyph(font, ch):
                        font = self.fallback
                    if has_glyph(font, ch):
                        draw.text((x0, y0 + 2), ch, font=font, fill=fg)
                if c.underscore:
                    draw.line([x0, y0 + self.ch - 2, x0 + self.cw - 1, y0 + self.ch - 2], fill=fg)
                if c.strikethrough:
                    draw.line([x0, y0 + self.ch // 2, x0 + self.cw - 1, y0 + self.ch // 2], fill=fg)
        img.save(path)


INIT = """
vim.opt.rtp:prepend(vim.env.PLUGIN)
vim.opt.termguicolors = true
vim.opt.number = true
vim.opt.signcolumn = "yes"
vim.opt.shortmess:append("I")
vim.cmd("filetype on")
vim.cmd("syntax on")
vim.diagnostic.config({ virtual_text = true })
require("jreach").setup({ cmd = { vim.env.JREACH, "lsp" }, settings = { timeout = 10 } })
"""


def main():
    nvim, jreach, plugin, ws, out = sys.argv[1:6]
    os.makedirs(out, exist_ok=True)
    home = os.path.join(out, "home")
    shutil.rmtree(home, ignore_errors=True)  # no swap files or state of an earlier run
    os.makedirs(home)
    init = os.path.join(home, "init.lua")
    with open(init, "w") as f:
        f.write(INIT)
    env = dict(os.environ, TERM="xterm-256color", COLORTERM="truecolor", PLUGIN=plugin, JREACH=jreach,
               XDG_CONFIG_HOME=f"{home}/config", XDG_DATA_HOME=f"{home}/data",
               XDG_STATE_HOME=f"{home}/state", XDG_CACHE_HOME=f"{home}/cache")
    # Started in the project, as a user would: the status lines show paths in the project.
    term = Terminal([nvim, "--clean", "-u", init, "src/main/java/demo/Calc.java"], env, cwd=ws)
    renderer = Renderer()
    shots = []

    def shot(name):
        path = os.path.join(out, name + ".png")
        renderer.render(term, path)
        shots.append(path)

    try:
        # 1. The dead call faded, the warnings beside it, the float listing the contradiction.
        term.wait_for(r"unreachable|never run", 60, "the unreachable-code warning")
        term.send("5G20|\x17d")  # CTRL-W d: the diagnostic float (Neovim 0.10+)
        term.wait_for(r"holds on every path", 15, "the diagnostic float's contradicting conditions")
        shot("dead-code-float")
        term.send("\x1b")  # the float closes when the cursor moves
        time.sleep(0.5)
        # 2. Hover (K) on the dead line: why it can never run.
        term.send("6G13|K")
        term.wait_for(r"can never run", 15, "the hover on the dead line")
        shot("hover-dead")
        time.sleep(0.5)
        # 3. :JReachGenerateTest on `return 1;`: the preview split and the question.
        term.send("9G13|:JReachGenerateTest\r")
        term.wait_for(r"\[W\]rite", 120, "the preview's Write / Discard question")
        if "classify_returns1" not in term.text():
            raise Failure("the preview does not show the test method:\n" + term.text())
        shot("preview")
        # 4. Write: the test saved and shown in a split, on its method, with its Run lens.
        term.send("W")
        term.wait_for(r"created CalcTest\.java", 30, "the message that the test was created")
        term.no_prompt("the test was written")
        term.wait_for(r"Run test", 30, "the Run code lens on the new test")
        shot("test-written")
        # 5. :JReachRunTest: run on the JVM, the statement marked as reached.
        term.send(":JReachRunTest\r")
        term.wait_for(r"reached by", 120, "the run's mark on the statement it reached")
        term.wait_for(r"passed and ran line 9", 5, "the run's message")
        term.no_prompt("the run's message")
        shot("run-reached")
        # 6. :checkhealth jreach.
        term.send(":checkhealth jreach\r")
        term.wait_for(r"jreach .*\d+\.\d+", 30, "the health report's server version")
        shot("checkhealth")
    except Failure as e:
        path = os.path.join(out, "failed.png")
        renderer.render(term, path)
        print(f"nvim screenshots: FAILED: {e}\n(the screen: {path})", file=sys.stderr)
        term.close()
        return 1
    term.send("\x1b:qa!\r")
    time.sleep(0.5)
    term.close()
    for p in shots:
        print(p)
    return 0


if __name__ == "__main__":
    sys.exit(main())
