"""Fast CSV line splitting."""
try:
    from ._native import split_line  # type: ignore
    NATIVE = True
except ImportError:  # pragma: no cover - fallback path
    NATIVE = False

    def split_line(line, sep=","):
        out, buf, q, i = [], [], False, 0
        while i < len(line):
            c = line[i]
            if q:
                if c == '"':
                    if i + 1 < len(line) and line[i + 1] == '"':
                        buf.append('"')
                        i += 1
                    else:
                        q = False
                else:
                    buf.append(c)
            elif c == '"':
                q = True
            elif c == sep:
                out.append("".join(buf))
                buf = []
            else:
                buf.append(c)
            i += 1
        out.append("".join(buf))
        return out

__all__ = ["split_line", "NATIVE"]
