"""What the live-server probes (probe_admission.py, probe_connections.py) share: PNG files made from rows, and a
free loopback port."""
import socket, struct, zlib


def write_png(path, width, height, rows):
    """An 8-bit RGB PNG of `height` rows cycling through `rows` (each `width * 3` bytes), unfiltered, deflated fast."""
    raw = bytearray()
    for y in range(height):
        raw += b"\x00" + rows[(y * 17) % len(rows)]
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)))
        f.write(chunk(b"IDAT", zlib.compress(bytes(raw), 1)) + chunk(b"IEND", b""))


def pattern_png(path, width, height):
    """A PNG with a pattern that no two rows of a band share (so a band decodes as much as a photo's)."""
    rows = [bytes(((x * 7 + k * 13) ^ (x >> 3) ^ (k * 29)) & 255 for x in range(width * 3)) for k in range(61)]
    write_png(path, width, height, rows)


def noise_png(path, width, height, seed=1):
    """A PNG of pseudo-random rows: an answer of it does not compress (a 3000x2400 PNG answer is about 21 MB)."""
    rows, x = [], seed
    for _ in range(97):
        row = bytearray(width * 3)
        for i in range(0, len(row), 4):
            x = (x * 1103515245 + 12345) & 0x7FFFFFFF
            row[i:i + 4] = struct.pack("<I", x)[: len(row) - i]
        rows.append(bytes(row))
    write_png(path, width, height, rows)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port
