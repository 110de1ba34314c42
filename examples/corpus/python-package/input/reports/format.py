"""Formatting helpers for reports printed as tables."""


def table(rows, widths):
    out = []
    for row in rows:
        cells = [str(c).ljust(w) for c, w in zip(row, widths)]
        out.append(" | ".join(cells).rstrip())
    return "\n".join(out)


def money(value):
    return "%.2f" % value
