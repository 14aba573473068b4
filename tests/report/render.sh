#!/bin/bash
# The SVG and the HTML page of kdelta plot, rendered by headless Chromium:
# screenshots of the expected size that are not blank.
source "$TESTLIB"
C=$(command -v chromium || command -v chromium-browser) ||
	skip "chromium is not installed"
[ -x /usr/bin/python3 ] || skip "/usr/bin/python3 is not installed"
source "$SRCDIR/tests/compare/store.sh"
R=$T/results
store_commit "$R/aim9/p/box/base" 'testcase: aim9' aim9.ops_per_sec=100,102,101,99
store_commit "$R/aim9/p/box/test" 'testcase: aim9' aim9.ops_per_sec=90,91,89,92
"$KDELTA" plot --result-root "$R" --svg "$T/p.svg" --metric aim9.ops_per_sec base test ||
	fail "--svg"
"$KDELTA" plot --result-root "$R" --html "$T/p.html" base test || fail "--html"

# screenshot FILE W H: Chromium's PNG of FILE in a W x H window.
screenshot() {
	timeout 60 "$C" --headless --no-sandbox --disable-gpu --disable-quic \
		--no-first-run --disable-background-networking \
		--disable-component-update --disable-sync \
		--user-data-dir="$T/chromium" --screenshot="$1.png" \
		--window-size="$2,$3" "file://$1" >"$T/chromium.log" 2>&1 ||
		{ tail -5 "$T/chromium.log" >&2; fail "chromium failed on $1"; }
}

# png_check PNG W H: a W x H PNG with more than 8 colours, mostly white.
png_check() {
	/usr/bin/python3 - "$@" <<'PY'
import struct, sys, zlib
path, want_w, want_h = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
data = open(path, "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat, ihdr = 8, b"", None
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    if kind == b"IHDR":
        ihdr = struct.unpack(">IIBBBBB", data[pos + 8:pos + 21])
    elif kind == b"IDAT":
        idat += data[pos + 8:pos + 8 + n]
    pos += 12 + n
w, h, depth, ctype = ihdr[:4]
assert (w, h) == (want_w, want_h), f"size {w}x{h}, want {want_w}x{want_h}"
assert depth == 8 and ctype in (2, 6), f"depth {depth}, colour type {ctype}"
bpp = 3 if ctype == 2 else 4
raw, stride = zlib.decompress(idat), w * bpp
prev, colours, white = bytearray(stride), set(), 0
for y in range(h):
    f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b, c = prev[i], prev[i - bpp] if i >= bpp else 0
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    for x in range(0, stride, bpp):
        px = bytes(line[x:x + 3])
        colours.add(px)
        white += px == b"\xff\xff\xff"
    prev = line
assert len(colours) > 8, f"only {len(colours)} colours: blank"
assert white > w * h // 2, "not mostly white: not the plot"
print(f"{path}: {w}x{h}, {len(colours)} colours")
PY
}

screenshot "$T/p.svg" 720 420
png_check "$T/p.svg.png" 720 420 || fail "the SVG's screenshot"
screenshot "$T/p.html" 800 600
png_check "$T/p.html.png" 800 600 || fail "the HTML page's screenshot"
finish
