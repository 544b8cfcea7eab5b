"""Colour-vision-deficiency simulation for the chart tests (Machado, Oliveira & Fernandes 2009, severity 1.0) and CIE76 distance."""
import itertools

MACHADO = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
}

def _lin(c):
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

def _rgb(hex_):
    h = hex_.lstrip("#")
    return tuple(_lin(int(h[i:i + 2], 16) / 255) for i in (0, 2, 4))

def simulate(hex_, kind):
    r, g, b = _rgb(hex_)
    m = MACHADO[kind]
    return tuple(min(1.0, max(0.0, row[0] * r + row[1] * g + row[2] * b)) for row in m)

def lab(lin_rgb: tuple[float, float, float]) -> tuple[float, float, float]:
    """CIE L*a*b* (D65) of a linear-RGB colour."""
    r, g, b = lin_rgb
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))

def delta_e(a, b):
    return sum((p - q) ** 2 for p, q in zip(lab(a), lab(b), strict=True)) ** 0.5

def closest_pairs(palette: dict[str, str]) -> list[tuple[float, str, str, str]]:
    """(delta E, vision, name 1, name 2) for every pair under every vision, closest first."""
    out = []
    for kind in ("normal", *MACHADO):
        for (n1, c1), (n2, c2) in itertools.combinations(palette.items(), 2):
            a = _rgb(c1) if kind == "normal" else simulate(c1, kind)
            b = _rgb(c2) if kind == "normal" else simulate(c2, kind)
            out.append((round(delta_e(a, b), 1), kind, n1, n2))
    return sorted(out)
